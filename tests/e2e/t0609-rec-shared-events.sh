#!/bin/sh
# record packs its events into as few tracefs events as the kernel allows (lib/uprobe_layout.h):
#  - the 10 events of prog-sizes go into one tracefs event, each line numbered (ev=\N:u16),
#    every value still exact (t0600 checks all values of every program; here the structure);
#  - return probes never share with entry probes; stat keeps one plain event per probe;
#  - all 531 sites of libjvm.so (517 events) arm in a handful of tracefs events, and the whole
#    record of `true` ends with nothing left (it took ~50 s of kernel grace periods with one
#    tracefs event per event: BENCHMARKS.md, b50).
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

# stat: counters per event, so no sharing
"$SDTRACE" stat -o stat.out -x "$P" -e '%sizes:*' -- sh -c "$(snap stat.lines "$P")" >/dev/null 2>&1
check_eq "stat: one plain tracefs event per event" "$nev 0" \
	"$(sed 's/ .*//' stat.lines | sort -u | wc -l) $(grep -c ' ev=' stat.lines)"

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
