#!/bin/sh
# Issue 18: a filter that passes 1 % of 1,000,000 hits of one probe (bench/loop.c, arg1 = the loop
# index, `arg1 < 10000`), recorded:
#   ours: sdtrace record -x LOOP -e %h9bench:tick1 --filter 'arg1 < 10000' -o F -- LOOP 1000000 1 0 OUT
#         (the filter in the kernel: PERF_EVENT_IOC_SET_FILTER on the tracefs event)
#   peer: perf probe -x LOOP -a sdt_h9bench:tick1   (once)
#         perf record -e sdt_h9bench:tick1 --filter 'arg1 < 10000' -o F -- LOOP 1000000 1 0 OUT
# Also ours with a filter the kernel cannot take ('pid > 0 && arg1 < 10000': evaluated in user
# space, every hit crosses the ring buffer), and ours without a filter, for scale; those three
# with --engine=tracefs. The BPF engine with the same filter in its program, against bpftrace:
#   ours: sdtrace record --engine=bpf ... --filter 'arg1 < 10000' ...
#   peer: bpftrace -e 'usdt:LOOP:h9bench:tick1 /arg0 < 10000/ { printf("%d\n", arg0); }' -c ...
# Figures: cost per hit ((traced loop time - untraced) / hits), bytes written, events kept.
# Runs alternate (ours, perf, ours-user, unfiltered); medians of 3 (quick) or 7 (full) runs.
. "$(dirname "$0")/common.sh"
need_root_tracefs
loop=$(loop_bin)
at_exit "P probe -q -d 'sdt_h9bench:*' >/dev/null 2>&1"
peer_ok perf || { peer_broken perf; exit 0; }
P probe -q -d 'sdt_h9bench:*' >/dev/null 2>&1 || true
P probe -q -x "$loop" -a sdt_h9bench:tick1
n=1000000
runs=3
[ "$BENCH_MODE" = full ] && runs=7
sc=$tmp/sc
loop_ns() { sed -n 's/^loop_ns=\([0-9]*\).*/\1/p' "$1"; }
per_event() { python3 -c "print('%.0f' % (($1 - $2) / $3))"; }

# ours NAME FILTER: one sdtrace run; appends the loop time, the file size and the events kept
ours() {
	$SDTRACE --cache-dir "$sc" record --engine="${3:-tracefs}" -x "$loop" -e %h9bench:tick1 ${2:+--filter "$2"} \
		-o "$tmp/s.data" -- "$loop" $n 1 0 "$tmp/out" >/dev/null 2>"$tmp/s.err" ||
		{ cat "$tmp/s.err" >&2; exit 1; }
	loop_ns "$tmp/out" >>"$tmp/$1.ns"
	stat -c %s "$tmp/s.data" >>"$tmp/$1.bytes"
	$SDTRACE report -i "$tmp/s.data" --stats | awk '$2 == "total" { print $1 }' >>"$tmp/$1.kept"
}

bt=0
if peer_ok bpftrace; then bt=1; else peer_broken bpftrace; fi
for i in $(seq $runs); do
	"$loop" $n 1 0 "$tmp/out" && loop_ns "$tmp/out" >>"$tmp/base.ns"
	ours kernel 'arg1 < 10000'
	P record -q -e sdt_h9bench:tick1 --filter 'arg1 < 10000' -o "$tmp/p.data" \
		-- "$loop" $n 1 0 "$tmp/out" >/dev/null 2>"$tmp/p.err"
	loop_ns "$tmp/out" >>"$tmp/perf.ns"
	stat -c %s "$tmp/p.data" >>"$tmp/perf.bytes"
	P script -i "$tmp/p.data" 2>/dev/null | wc -l >>"$tmp/perf.kept"
	ours user 'pid > 0 && arg1 < 10000'
	ours none ''
	ours bpf 'arg1 < 10000' bpf
	if [ $bt = 1 ]; then
		bpftrace -e 'usdt:'"$loop"':h9bench:tick1 /arg0 < 10000/ { printf("%d\n", arg0); }' \
			-c "$loop $n 1 0 $tmp/out" >"$tmp/bt.txt" 2>"$tmp/bt.err" ||
			{ cat "$tmp/bt.err" >&2; exit 1; }
		loop_ns "$tmp/out" >>"$tmp/bt.ns"
		grep -c '^[0-9]' "$tmp/bt.txt" >>"$tmp/bt.kept"
	fi
done
base=$(median <"$tmp/base.ns")
for v in kernel perf user none bpf; do
	eval "${v}_cost=\$(per_event \"\$(median <\"\$tmp/$v.ns\")\" \"\$base\" \$n)"
	eval "${v}_bytes=\$(median <\"\$tmp/$v.bytes\")"
	eval "${v}_kept=\$(median <\"\$tmp/$v.kept\")"
done
echo "  untraced loop $(python3 -c "print('%.2f' % ($base / 1e6))") ms for $n hits; kept: ours $kernel_kept, perf $perf_kept, ours in user space $user_kept, unfiltered $none_kept"
emit "record --filter passing 1 % of 1 M hits: cost per hit (median of $runs)" "$kernel_cost ns" \
	"perf record -e sdt_h9bench:tick1 --filter 'arg1 < 10000' -- LOOP" "$perf_cost ns" \
	"$(ratio "$kernel_cost" "$perf_cost")" "<= 1.0"
emit "record --filter passing 1 % of 1 M hits: bytes written" "$kernel_bytes B" \
	"perf record --filter (perf.data)" "$perf_bytes B" "$(ratio "$kernel_bytes" "$perf_bytes")" "<= 0.5"
emit "record --filter in user space (pid: the kernel cannot), against in the kernel: cost per hit" \
	"$user_cost ns" "sdtrace record --filter 'arg1 < 10000' (in the kernel)" "$kernel_cost ns" \
	"$(ratio "$user_cost" "$kernel_cost")" ""
emit "record unfiltered, against --filter in the kernel: cost per hit" "$none_cost ns" \
	"sdtrace record --filter 'arg1 < 10000' (in the kernel)" "$kernel_cost ns" \
	"$(ratio "$none_cost" "$kernel_cost")" ""
emit "record --engine=bpf --filter passing 1 % of 1 M hits (the filter in the BPF program): cost per hit" \
	"$bpf_cost ns" "sdtrace record --engine=tracefs --filter (in the kernel's event filter)" \
	"$kernel_cost ns" "$(ratio "$bpf_cost" "$kernel_cost")" ""
echo "  bpf engine: kept $bpf_kept, $bpf_bytes B"
if [ -s "$tmp/bt.ns" ]; then
	bt_cost=$(per_event "$(median <"$tmp/bt.ns")" "$base" $n)
	emit "record --engine=bpf --filter, against bpftrace's predicate: cost per hit" "$bpf_cost ns" \
		"bpftrace usdt /arg0 < 10000/ printf" "$bt_cost ns" "$(ratio "$bpf_cost" "$bt_cost")" "<= 1.0"
	echo "  bpftrace kept $(median <"$tmp/bt.kept") lines"
fi
