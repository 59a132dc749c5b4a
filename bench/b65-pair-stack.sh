#!/bin/sh
# Issue 32: stat --latency's stack of open starts per (thread, pair, key) against the single open
# start it replaced (a second start replaced the first, as bpftrace's @s[tid]). The cost per hit
# is (traced loop time - untraced loop time) / hits, bench/loop.c timing its own loop; medians
# over alternating rounds:
#   flat pairs, 1 M of them (2 M hits):  sdtrace stat --latency -x LOOP -e '%h9bench:pair__*'
#     -- LOOP 1000000 p 0 OUT
#   the same pairs as recursions 16 deep:  ... -e '%h9bench:rec__*' -- LOOP 1000000 r 0 OUT
# $SDTRACE_OLD names an sdtrace built before the stack (replace-on-start) to compare with;
# without it only the stack's own costs are printed. Target: the flat pair costs no more than
# replace-on-start (one insert and one delete either way).
. "$(dirname "$0")/common.sh"
need_root_tracefs
loop=$(loop_bin)
n=1000000
runs=3
[ "$BENCH_MODE" = full ] && runs=5
sc=$tmp/sc
loop_ns() { sed -n 's/^loop_ns=\([0-9]*\).*/\1/p' "$1"; }
per_event() { python3 -c "print('%.1f' % (($1 - $2) / $3))"; }

# one round: the untraced loop, then stat --latency with each sdtrace, for mode M (p or r)
round() {
	m=$1 ev=$2
	"$loop" $n "$m" 0 "$tmp/out" && loop_ns "$tmp/out" >>"$tmp/$m.base"
	for s in new ${SDTRACE_OLD:+old}; do
		bin=$SDTRACE
		[ "$s" = old ] && bin=$SDTRACE_OLD
		"$bin" --cache-dir "$sc" stat --engine=bpf --latency --json -o "$tmp/$m.$s.json" \
			-x "$loop" -e "%h9bench:$ev" -- "$loop" $n "$m" 0 "$tmp/out" >/dev/null 2>&1
		loop_ns "$tmp/out" >>"$tmp/$m.$s"
		python3 -c "import json, sys; d = json.load(open(sys.argv[1]))
print(sum(p['count'] for p in d['pairs']))" "$tmp/$m.$s.json" >>"$tmp/$m.$s.pairs"
	done
}

for i in $(seq $runs); do
	round p 'pair__*'
	round r 'rec__*'
done
for m in p r; do
	what=$([ $m = p ] && echo "flat pairs" || echo "recursion 16 deep")
	new=$(per_event "$(median <"$tmp/$m.new")" "$(median <"$tmp/$m.base")" $((2 * n)))
	echo "  $what: untraced loop $(python3 -c "print('%.2f' % ($(median <"$tmp/$m.base") / 1e6))") ms for $((2 * n)) hits; pairs timed: $(tail -1 "$tmp/$m.new.pairs") (stack)${SDTRACE_OLD:+, $(tail -1 "$tmp/$m.old.pairs") (replace-on-start)}"
	if [ -n "${SDTRACE_OLD:-}" ]; then
		old=$(per_event "$(median <"$tmp/$m.old")" "$(median <"$tmp/$m.base")" $((2 * n)))
		emit "stat --latency, $what: ns per hit" "$new (stack)" "replace-on-start" "$old" \
			"$(ratio "$new" "$old")" "flat: <= 1.1"
	else
		emit "stat --latency, $what: ns per hit" "$new (stack)" "" "" "" ""
	fi
done
