#!/bin/sh
# Issue 19: user stacks at a probe, against perf on the same uprobe. The traced program is
# bench/stack-loop.c (frame pointers): N hits of %h9stack:hit spread over 64 distinct call chains
#	__libc_start_call_main;main;run;l1_X;l2_X;l3_X;l4_X;l5_X;l6_X   (X = a or b, N/64 each)
# Each round runs every configuration once, alternating; medians over the rounds; the cost per
# hit is (traced loop time - untraced loop time) / hits, the program timing its own loop:
#   sdtrace record -g -x LOOP -e %h9stack:hit -o F -- LOOP N 64 OUT        (fp, PERF_SAMPLE_CALLCHAIN)
#   perf record -g -e 'sdt_h9stack:*' -o F -- LOOP N 64 OUT               (perf probe added once)
#   the same two without -g, for reference
#   sdtrace record --call-graph=dwarf vs perf record --call-graph dwarf (8 KiB of stack each, as
#   perf's default), on fewer hits (8 KiB a sample); "n/a" for ours where this build refuses it
# Bytes per event: the recording's size / the events in it (sdtrace report --stats; perf: the
# samples perf script prints). Then the report with stacks and symbols, on the last round's files:
#   sdtrace report -i F --format=folded   vs  perf script -F event,ip,sym | awk (a fold)
#   sdtrace report -i F -g                vs  perf script                    (callchains, text)
# stackcollapse-perf.pl is not packaged by Debian, and perf's own `perf script report
# stackcollapse` (stackcollapse.py) prints nothing for tracepoint events (its process_event is not
# called for them), so the fold is a small awk over `perf script -F event,ip,sym`, the same thing
# stackcollapse-perf.pl does; both folds must give the same 64 lines of N/64.
# B92_HITS=N (a multiple of 64) overrides the 1 M hits, for a try.
# The size of --format=perfetto against --format=chrome for 1 M events is b90's (not repeated).
. "$(dirname "$0")/common.sh"
need_root_tracefs
loop=$BENCH_WORK/stack-loop
if [ ! -x "$loop" ] || [ "$bench_dir/stack-loop.c" -nt "$loop" ]; then
	gcc -O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls \
		-o "$loop.tmp" "$bench_dir/stack-loop.c" && mv "$loop.tmp" "$loop"
fi
at_exit "P probe -q -d 'sdt_h9stack:*' >/dev/null 2>&1"
peer_ok perf || { peer_broken perf; exit 0; }
P probe -q -d 'sdt_h9stack:*' >/dev/null 2>&1 || true
P probe -q -x "$loop" -a sdt_h9stack:hit
n=${B92_HITS:-1000000}
nd=64000
runs=3
if [ "$BENCH_MODE" = full ]; then
	runs=5
	nd=256000
fi
sc=$tmp/sc
S() { "$SDTRACE" --cache-dir "$sc" "$@"; }
loop_ns() { sed -n 's/^loop_ns=\([0-9]*\).*/\1/p' "$1"; }
per_event() { python3 -c "print('%.0f' % (($1 - $2) / $3))"; }
cost() { per_event "$(median <"$tmp/$1")" "$(median <"$tmp/$2")" "$3"; }
# perf script's callchains folded as stackcollapse-perf.pl does, the event as the root frame
cat >"$tmp/fold.awk" <<'AWK'
function flush(i, s) {
	if (ev == "")
		return
	s = ev
	for (i = k; i >= 1; i--)
		s = s ";" f[i]
	c[s]++
	ev = ""
}
/^[^\t]/ { flush(); sub(/: *$/, ""); sub(/^sdt_/, ""); ev = $0; k = 0; next }
/^\t/ { f[++k] = $2; next }
{ flush() }
END { flush(); for (s in c) print s, c[s] }
AWK
fold_perf="awk -f $tmp/fold.awk | LC_ALL=C sort"

# does this build record dwarf stacks?
ours_dwarf=0
if S record --call-graph=dwarf -x "$loop" -e '%h9stack:hit' -o "$tmp/d.data" -- \
	"$loop" 64 64 "$tmp/out" >/dev/null 2>"$tmp/d.err" &&
	S report -i "$tmp/d.data" --format=folded 2>/dev/null | grep -q ';run;l1_.;l2_.;l3_.;l4_.;l5_.;l6_. 1$'; then
	ours_dwarf=1
else
	echo "  sdtrace record --call-graph=dwarf: not supported by this build ($(head -1 "$tmp/d.err"))"
fi

# one round of every configuration: appends loop times to $tmp/NAME, file sizes to $tmp/NAME.size
rec() {
	name=$1 f=$2
	shift 2
	"$@" >/dev/null 2>"$tmp/$name.err" || { echo "bench: $name failed: $(tail -3 "$tmp/$name.err")" >&2; exit 1; }
	loop_ns "$tmp/out" >>"$tmp/$name"
	[ -z "$f" ] || stat -c %s "$f" >>"$tmp/$name.size"
}
round() {
	rec base "" "$loop" $n 64 "$tmp/out"
	rec ours "$tmp/o.data" S record -x "$loop" -e '%h9stack:hit' -o "$tmp/o.data" -- "$loop" $n 64 "$tmp/out"
	rec ours_g "$tmp/g.data" S record -g -x "$loop" -e '%h9stack:hit' -o "$tmp/g.data" -- "$loop" $n 64 "$tmp/out"
	rec perf "$tmp/p.data" P record -q -e 'sdt_h9stack:*' -o "$tmp/p.data" -- "$loop" $n 64 "$tmp/out"
	rec perf_g "$tmp/pg.data" P record -q -g -e 'sdt_h9stack:*' -o "$tmp/pg.data" -- "$loop" $n 64 "$tmp/out"
	rec based "" "$loop" $nd 64 "$tmp/out"
	rec perf_d "$tmp/pd.data" P record -q --call-graph dwarf -e 'sdt_h9stack:*' -o "$tmp/pd.data" -- "$loop" $nd 64 "$tmp/out"
	[ $ours_dwarf = 1 ] || return 0
	rec ours_d "$tmp/d.data" S record --call-graph=dwarf -x "$loop" -e '%h9stack:hit' -o "$tmp/d.data" -- "$loop" $nd 64 "$tmp/out"
}
for i in $(seq $runs); do
	round
done
echo "  untraced loop: $(python3 -c "print('%.2f' % ($(median <"$tmp/base") / 1e6))") ms for $n hits; median of $runs rounds"

# events in the last round's files
ours_events() { S report -i "$1" --stats | awk '$2 == "total" { print $1 }'; }
perf_events() { P script -i "$1" -F event 2>/dev/null | grep -c 'sdt_h9stack'; }
bpe() { python3 -c "print('%.1f' % ($(median <"$tmp/$1.size") / $2))"; }
eo=$(ours_events "$tmp/o.data")
eg=$(ours_events "$tmp/g.data")
ep=$(perf_events "$tmp/p.data")
epg=$(perf_events "$tmp/pg.data")
epd=$(perf_events "$tmp/pd.data")
echo "  events in the last round's files (of $n): sdtrace $eo, sdtrace -g $eg, perf $ep, perf -g $epg; dwarf (of $nd): perf $epd"

co=$(cost ours base $n)
cg=$(cost ours_g base $n)
cp=$(cost perf base $n)
cpg=$(cost perf_g base $n)
cpd=$(cost perf_d based $nd)
emit "record -g (fp), cost per hit, $n hits, 64 stacks of 9 frames" "$cg ns" \
	"perf record -g -e sdt_h9stack:hit -- LOOP" "$cpg ns" "$(ratio "$cg" "$cpg")" ""
emit "record without -g, cost per hit (reference)" "$co ns" \
	"perf record -e sdt_h9stack:hit -- LOOP" "$cp ns" "$(ratio "$co" "$cp")" ""
emit "record -g: what the stack adds per hit" "$((cg - co)) ns" "perf record -g minus perf record" \
	"$((cpg - cp)) ns" "$(ratio "$((cg - co))" "$((cpg - cp))")" ""
bg=$(bpe ours_g "$eg")
bpg=$(bpe perf_g "$epg")
emit "record -g (fp): bytes per event" "$bg B" "perf record -g" "$bpg B" "$(ratio "$bg" "$bpg")" ""
bo=$(bpe ours "$eo")
bp=$(bpe perf "$ep")
emit "record without -g: bytes per event (reference)" "$bo B" "perf record" "$bp B" "$(ratio "$bo" "$bp")" ""
bpd=$(bpe perf_d "$epd")
if [ $ours_dwarf = 1 ]; then
	ed=$(ours_events "$tmp/d.data")
	cd_=$(cost ours_d based $nd)
	bd=$(bpe ours_d "$ed")
	emit "record --call-graph=dwarf, cost per hit, $nd hits" "$cd_ ns" \
		"perf record --call-graph dwarf -- LOOP" "$cpd ns" "$(ratio "$cd_" "$cpd")" ""
	emit "record --call-graph=dwarf: bytes per event" "$bd B" "perf record --call-graph dwarf" \
		"$bpd B" "$(ratio "$bd" "$bpd")" ""
else
	emit "record --call-graph=dwarf, cost per hit, $nd hits" "n/a (not supported by this build)" \
		"perf record --call-graph dwarf -- LOOP" "$cpd ns" "n/a" ""
	emit "record --call-graph=dwarf: bytes per event" "n/a (not supported by this build)" \
		"perf record --call-graph dwarf" "$bpd B" "n/a" ""
fi

# the report with stacks and symbols, on the last round's -g files; both folds must agree
S report -i "$tmp/g.data" --format=folded >"$tmp/ours.folded"
P script -i "$tmp/pg.data" -F event,ip,sym 2>/dev/null | eval "$fold_perf" >"$tmp/perf.folded"
want=$((n / 64))
chain='^h9stack:hit;__libc_start_call_main;main;run;l1_.;l2_.;l3_.;l4_.;l5_.;l6_.'
nl=$(grep -Ec "$chain [0-9]+\$" "$tmp/ours.folded" || true)
[ "$nl" = 64 ] || { echo "bench: sdtrace's folded stacks are not the 64 chains:" >&2; head -5 "$tmp/ours.folded" >&2; exit 1; }
echo "  folded: sdtrace $(grep -Ec "$chain $want\$" "$tmp/ours.folded") of the 64 chains with exactly $want," \
	"perf script | fold $(grep -Ec "$chain $want\$" "$tmp/perf.folded");" \
	"$(cmp -s "$tmp/ours.folded" "$tmp/perf.folded" && echo "the same lines" ||
		{ cut -d' ' -f1 "$tmp/ours.folded" >"$tmp/ours.chains"
		  cut -d' ' -f1 "$tmp/perf.folded" | cmp -s - "$tmp/ours.chains" &&
			echo "the same 64 chains, perf's counts off by its lost and duplicated samples" ||
			echo "the chains differ"; })"
for k in fo fg ps pf; do : >"$tmp/t.$k"; done
for i in $(seq $runs); do
	time_ms "$SDTRACE --cache-dir $sc report -i $tmp/g.data --format=folded" >>"$tmp/t.fo"
	time_ms "$perf_cmd script -i $tmp/pg.data -F event,ip,sym | $fold_perf" >>"$tmp/t.pf"
	time_ms "$SDTRACE --cache-dir $sc report -i $tmp/g.data -g" >>"$tmp/t.fg"
	time_ms "$perf_cmd script -i $tmp/pg.data" >>"$tmp/t.ps"
done
fo=$(median <"$tmp/t.fo")
pf=$(median <"$tmp/t.pf")
fg=$(median <"$tmp/t.fg")
ps=$(median <"$tmp/t.ps")
emit "report --format=folded, $eg events with stacks (median of $runs)" "$fo ms" \
	"perf script -F event,ip,sym, folded by awk, sorted" "$pf ms" "$(ratio "$fo" "$pf")" ""
emit "report -g (text with stacks), $eg events (median of $runs)" "$fg ms" "perf script" \
	"$ps ms" "$(ratio "$fg" "$ps")" ""
