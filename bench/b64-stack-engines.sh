#!/bin/sh
# Issue 19: the cost per hit of record -g (user stacks by frame pointers) on the BPF engine
# (bpf_get_stack in the program), the tracefs engine (PERF_SAMPLE_CALLCHAIN), perf record -g and
# bpftrace's @[ustack] = count() (a stack-id map), each against its own run without stacks, on
# bench/loop.c built with frame pointers (N hits of h9bench:tick1, 1 argument). Each round runs
# every configuration once, alternating; medians over the rounds; the cost per hit is (traced
# loop time - untraced loop time) / hits. Also the bytes per event of each recording.
# B64_VS=OTHER_SDTRACE: also OTHER_SDTRACE's record -g on both engines, in the same rounds
# (alternating with ours: an A/B of a change to -g, e.g. issue 33's leaf words against main's).
. "$(dirname "$0")/common.sh"
need_root_tracefs
loop=$BENCH_WORK/loop-fp
gcc -O2 -g -fno-omit-frame-pointer -pthread -o "$loop" "$bench_dir/loop.c"
n=500000
runs=5
[ "$BENCH_MODE" = full ] && runs=9 && n=1000000
sc=$tmp/sc
S() { "$SDTRACE" --cache-dir "$sc" "$@"; }
at_exit "P probe -q -d 'sdt_h9bench:*' >/dev/null 2>&1"
peer_ok perf || { peer_broken perf; exit 0; }
P probe -q -d 'sdt_h9bench:*' >/dev/null 2>&1 || true
P probe -q -x "$loop" -a sdt_h9bench:tick1
have_bpftrace=0
if peer_ok bpftrace; then have_bpftrace=1; else peer_broken bpftrace; fi
lns() { sed -n 's/^loop_ns=\([0-9]*\).*/\1/p' "$tmp/out"; }
run() { "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }; }
for r in $(seq $runs); do
	"$loop" $n 1 0 "$tmp/out" && lns >>"$tmp/base"
	for e in bpf tracefs; do
		run S record --engine=$e -x "$loop" -e %h9bench:tick1 -o "$tmp/$e" -- "$loop" $n 1 0 "$tmp/out"
		lns >>"$tmp/$e.ns"
		run S record -g --engine=$e -x "$loop" -e %h9bench:tick1 -o "$tmp/$e-g" -- "$loop" $n 1 0 "$tmp/out"
		lns >>"$tmp/$e-g.ns"
		[ -n "${B64_VS:-}" ] || continue
		run "$B64_VS" --cache-dir "$sc" record -g --engine=$e -x "$loop" -e %h9bench:tick1 \
			-o "$tmp/$e-gvs" -- "$loop" $n 1 0 "$tmp/out"
		lns >>"$tmp/$e-gvs.ns"
	done
	run P record -q -e sdt_h9bench:tick1 -o "$tmp/perf" -- "$loop" $n 1 0 "$tmp/out"
	lns >>"$tmp/perf.ns"
	run P record -q -g -e sdt_h9bench:tick1 -o "$tmp/perf-g" -- "$loop" $n 1 0 "$tmp/out"
	lns >>"$tmp/perf-g.ns"
	[ $have_bpftrace = 1 ] || continue
	run bpftrace -q -e "usdt:$loop:h9bench:tick1 { @ = count(); }" -c "$loop $n 1 0 $tmp/out"
	lns >>"$tmp/bpftrace.ns"
	run bpftrace -q -e "usdt:$loop:h9bench:tick1 { @[ustack] = count(); }" -c "$loop $n 1 0 $tmp/out"
	lns >>"$tmp/bpftrace-g.ns"
done
S report --format=folded -i "$tmp/bpf-g" >"$tmp/bf"
S report --format=folded -i "$tmp/tracefs-g" >"$tmp/tf"
cmp -s "$tmp/bf" "$tmp/tf" || { echo "bench: the engines' stacks differ" >&2; exit 1; }
echo "b64: $n hits, medians of $runs rounds; the stack: $(cat "$tmp/bf")"
python3 - "$tmp" $n <<'PY'
import os, statistics, sys
t, n = sys.argv[1], int(sys.argv[2])
def med(k):
	return statistics.median(int(x) for x in open(f"{t}/{k}").read().split())
b = med("base")
for k in ["bpf", "tracefs", "perf", "bpftrace"]:
	if not os.path.exists(f"{t}/{k}.ns"):
		continue
	a, g = (med(f"{k}.ns") - b) / n, (med(f"{k}-g.ns") - b) / n
	sz = ""
	if os.path.exists(f"{t}/{k}"):
		sz = ", %.1f -> %.1f bytes/event" % (os.path.getsize(f"{t}/{k}") / n,
						      os.path.getsize(f"{t}/{k}-g") / n)
	print(f"  {k:9s} {a:6.0f} ns/hit, -g {g:6.0f} ns/hit (the stack: {g - a:5.0f}){sz}")
	if os.path.exists(f"{t}/{k}-gvs.ns"):
		v = (med(f"{k}-gvs.ns") - b) / n
		print(f"  {k:9s} B64_VS's -g {v:6.0f} ns/hit (ours: {g - v:+5.0f}), "
		      "%.1f bytes/event" % (os.path.getsize(f"{t}/{k}-gvs") / n))
PY
