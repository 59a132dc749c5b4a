#!/bin/sh
# record packs its events into as few tracefs events as the kernel allows (lib/record/tracefs/uprobe_layout.h):
#  - the 10 events of prog-sizes go into one tracefs event, each line numbered (ev=\N:u16),
#    every value still exact (t0600 checks all values of every program; here the structure);
#  - twelve events of different layouts in one tracefs event, every value under its event;
#  - return probes never share with entry probes; stat keeps a counter per event up to 8 events
#    and counts samples of one shared event beyond;
#  - all 531 sites of libjvm.so (517 events) arm in a handful of tracefs events, and the whole
#    record of `true` ends with nothing left (it took ~50 s of kernel grace periods with one
#    tracefs event per event: BENCHMARKS.md, b50).
# engine: tracefs (how events share tracefs events: nothing of it exists with the BPF engine)
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
P=$PROGS_DIR/prog-sizes
need_file "$P" "$PROGS_DIR/prog-userprobe"
cd "$T" || exit 1
PAT="^[p-r]:sdtrace_[0-9_]+/"
uprobes_guard "^[p-r]:[^ ]+ ($PROGS_DIR/|$T/|/usr/lib/jvm/)"

# snap FILE BIN: a command that saves our lines of uprobe_events for BIN, then runs BIN 3
snap() { echo "grep -E '$PAT[^ ]+ $2:' $TRACEFS/uprobe_events >$1; exec $2 3"; }

"$SDTRACE" record -o sizes.data -x "$P" -e '%sizes:*' -- sh -c "$(snap sizes.lines "$P")" \
	>sizes.out 2>sizes.err
check_eq "sizes: record exits 0" 0 $?
nev=$("$SDTRACE" list -x "$P" '%sizes:*' | awk '{print $1}' | sort -u | wc -l)
check_eq "sizes: one tracefs event for all $nev events" 1 \
	"$(sed 's/ .*//' sizes.lines | sort -u | wc -l)"
check_eq "sizes: every line numbered, $nev numbers" "$nev" \
	"$(grep -o ' ev=\\[0-9]*:u16' sizes.lines | sort -u | wc -l)"
check_eq "sizes: registers and constants widened to u64, nothing narrower" "" \
	"$(grep -Eo ' a[0-9]+=[^ ]*:[su](8|16|32)' sizes.lines | head -n 3)"
"$SDTRACE" report -i sizes.data --json >sizes.json
check "sizes: each event reported under its own name, with its own arguments" python3 -c '
import json, collections
ev = [json.loads(l) for l in open("sizes.json")]
kinds = collections.Counter((e["name"], len(e["args"])) for e in ev)
assert len({n for n, _ in kinds}) == '"$nev"', kinds
assert all(c == 3 for c in kinds.values()), kinds
'

# twelve events with different arguments in one tracefs event: each sample goes to its event
need_cmd cc
{
	echo '#include <stdlib.h>'
	echo '#include <sys/sdt.h>'
	echo 'int main(int argc, char **argv) {'
	echo '	long n = argc > 1 ? atol(argv[1]) : 1;'
	echo '	for (long i = 0; i < n; i++) {'
	for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
		case $((k % 3)) in
		0) echo "		STAP_PROBE2(twelve, e$k, i, (int)(i * $k));" ;;
		1) echo "		STAP_PROBE3(twelve, e$k, (short)i, i * $k, $k);" ;;
		2) echo "		STAP_PROBE1(twelve, e$k, (unsigned char)(i * $k));" ;;
		esac
	done
	echo '	}'
	echo '	return 0;'
	echo '}'
} >twelve.c
cc -O2 -o twelve twelve.c || fail "cannot compile twelve.c"
"$SDTRACE" record -o twelve.data -x ./twelve -e '%twelve:*' -- sh -c "$(snap twelve.lines "$T/twelve")" \
	>/dev/null 2>&1
check_eq "twelve: 12 events, 1 tracefs event" "12 1" \
	"$(wc -l <twelve.lines) $(sed 's/ .*//' twelve.lines | sort -u | wc -l)"
"$SDTRACE" report -i twelve.data --json >twelve.json
check "twelve: every sample under its own event with its own values" python3 -c '
import json, collections
n = collections.Counter()
for l in open("twelve.json"):
    e = json.loads(l); k = int(e["name"][1:]); a = e["args"]; n[k] += 1
    if k % 3 == 0: assert len(a) == 2 and a[1] == a[0] * k, e
    elif k % 3 == 1: assert len(a) == 3 and a[1] == a[0] * k and a[2] == k, e
    else: assert len(a) == 1 and a[0] == (n[k] - 1) * k % 256, e
assert sorted(n) == list(range(1, 13)) and set(n.values()) == {3}, n
'

# stat: up to 8 events, a counter each (plain events); more, counted from shared samples
"$SDTRACE" stat -o stat.out -x "$P" -e '%sizes:*' -- sh -c "$(snap stat.lines "$P")" >/dev/null 2>&1
check_eq "stat, $nev events: one plain tracefs event per event" "$nev 0" \
	"$(sed 's/ .*//' stat.lines | sort -u | wc -l) $(grep -c ' ev=' stat.lines)"
"$SDTRACE" stat --json -o stat12.json -x ./twelve -e '%twelve:*' -- \
	sh -c "grep -E '$PAT[^ ]+ $T/twelve:' $TRACEFS/uprobe_events >stat12.lines; exec ./twelve 1000" \
	>/dev/null 2>&1
check_eq "stat, 12 events: one tracefs event, the event's number only" "1 12" \
	"$(sed 's/ .*//' stat12.lines | sort -u | wc -l) $(grep -Ec ' ev=\\[0-9]+:u16$' stat12.lines)"
check "stat, 12 events: every event counted 1000 times, nothing lost" python3 -c '
import json
d = json.load(open("stat12.json"))
assert d["lost"] == 0 and d["exit_status"] == 0, d
assert sorted((e["name"], e["count"]) for e in d["events"]) == sorted(("e%d" % k, 1000) for k in range(1, 13)), d
'

# entry and return probes in one record: the r: lines in a tracefs event of their own
B=$T/up
cp "$PROGS_DIR/prog-userprobe" "$B"
check "probe add an entry and a return probe" sh -c "'$SDTRACE' probe add -x '$B' ue=up_add a=%di:s64 &&
	'$SDTRACE' probe add -x '$B' 'ur=up_add%return' 'ret=\$retval:s64'"
"$SDTRACE" record -o up.data -e ue -e ur -e "$B:%up:tick" -- sh -c "$(snap up.lines "$B")" \
	>/dev/null 2>&1
check_eq "entry + return: two tracefs events (p: shared, r: alone)" "p 1|r 1|" \
	"$(sed 's/ .*//' up.lines | sort -u | cut -c1 | uniq -c | awk '{printf "%s %s|", $2, $1}')"
check_eq "entry + return: every value" "a=0|ret=100|arg1=0|a=1|ret=101|arg1=1|a=2|ret=102|arg1=2|" \
	"$("$SDTRACE" report -i up.data | sed 's/.*: //' | tr '\n' '|')"

JVM=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
if [ -e "$JVM" ]; then
	"$SDTRACE" record -o jvm.data -x "$JVM" -e '%hotspot*:*' -e '%hs_private:*' -- \
		sh -c "grep -E '$PAT[^ ]+ $JVM:' $TRACEFS/uprobe_events >jvm.lines" >jvm.out 2>&1
	check_eq "libjvm: record of every site exits 0" 0 $?
	check_eq "libjvm: every site armed" "$(readelf -n "$JVM" | grep -c NT_STAPSDT)" \
		"$(wc -l <jvm.lines)"
	k=$(sed 's/ .*//' jvm.lines | sort -u | wc -l)
	check "libjvm: in at most 4 tracefs events (got $k)" test "$k" -le 4
	check_eq "libjvm: nothing left after the record" 0 \
		"$(grep -c " $JVM:" "$TRACEFS/uprobe_events")"
else
	say "SKIP the libjvm part: $JVM missing"
fi
uprobes_unchanged
finish
