#!/bin/sh
# Issue 17: the BPF engine against the tracefs engine, perf and bpftrace, side by side in one run
# (each round runs every configuration once, alternating; medians over the rounds; the cost per
# hit is (traced loop time - untraced loop time) / hits, bench/loop.c timing its own loop):
#   record, 1 M hits, 1 and 4 args:
#     sdtrace record --engine=bpf -x LOOP -e %h9bench:tickA -o F -- LOOP 1000000 A 0 OUT
#     sdtrace record --engine=tracefs ...                                 (today's engine)
#     SDTRACE_BPF_RINGBUF=1 sdtrace record --engine=bpf ...  (the BPF ring buffers, not the fast
#                                                             rings: the engine before session 15)
#     perf record -e sdt_h9bench:tickA -o F -- LOOP ...                  (probe added once)
#     bpftrace -e 'usdt:LOOP:h9bench:tickA { printf("%d ...\n", arg0, ...); }' -c 'LOOP ...'
#   stat, the same hits: sdtrace stat --engine=bpf / --engine=tracefs, bpftrace count(), perf stat
#   2 threads x 1 M hits, 1 arg: bpf record vs perf record (the per-CPU rings: the ratio holds?)
#   events lost and bytes per event of the bpf engine's recordings (report --stats, file size)
#   arm and remove the 531 libjvm.so sites: the bpf engine's own times (sdtrace -v: "attached",
#   "detached"), and the whole command for both engines; remove the links of 8 binaries
# Targets: bpf record <= 0.7x perf record and <= 1.15x bpf stat; bpf stat <= 1.0x bpftrace
# count(); 0 lost; arm and remove <= 20 ms each.
. "$(dirname "$0")/common.sh"
need_root_tracefs
loop=$(loop_bin)
at_exit "P probe -q -d 'sdt_h9bench:*' >/dev/null 2>&1"
peer_ok perf || { peer_broken perf; exit 0; }
P probe -q -d 'sdt_h9bench:*' >/dev/null 2>&1 || true
P probe -q -x "$loop" -a sdt_h9bench:tick1 -a sdt_h9bench:tick4
n=1000000
runs=3
[ "$BENCH_MODE" = full ] && runs=5
have_bpftrace=0
if peer_ok bpftrace; then have_bpftrace=1; else peer_broken bpftrace; fi
sc=$tmp/sc
loop_ns() { sed -n 's/^loop_ns=\([0-9]*\).*/\1/p' "$1"; }
per_event() { python3 -c "print('%.0f' % (($1 - $2) / $3))"; }
S() { "$SDTRACE" --cache-dir "$sc" "$@"; }
fmt() { if [ "$1" = 4 ]; then printf '%s' '"%d %d %d %d\n", arg0, arg1, arg2, arg3'; else printf '%s' '"%d\n", arg0'; fi; }

# one round of every configuration for A args, T threads: appends to $tmp/aA.tT.NAME
round() {
	a=$1 t=$2 k=a$1.t$2
	"$loop" $n "$a" 0 "$tmp/out" "$t" && loop_ns "$tmp/out" >>"$tmp/$k.base"
	S record --engine=bpf -x "$loop" -e "%h9bench:tick$a" -o "$tmp/b.data" -- \
		"$loop" $n "$a" 0 "$tmp/out" "$t" >/dev/null 2>"$tmp/b.err"
	loop_ns "$tmp/out" >>"$tmp/$k.bpf"
	S report -i "$tmp/b.data" --stats >"$tmp/stats" 2>&1
	echo "$(awk '$2 == "total" { print $1 }' "$tmp/stats") $(awk '$2 == "lost" { print $1 }' "$tmp/stats") $(stat -c %s "$tmp/b.data")" >>"$tmp/$k.bpf_ev"
	env HOME="$tmp/home" perf --buildid-dir "$tmp/pc" record -q -e "sdt_h9bench:tick$a" \
		-o "$tmp/p.data" -- "$loop" $n "$a" 0 "$tmp/out" "$t" >/dev/null 2>"$tmp/p.err"
	loop_ns "$tmp/out" >>"$tmp/$k.perf"
	[ "$t" = 1 ] || return 0
	env SDTRACE_BPF_RINGBUF=1 "$SDTRACE" --cache-dir "$sc" record --engine=bpf -x "$loop" \
		-e "%h9bench:tick$a" -o "$tmp/b.data" -- "$loop" $n "$a" 0 "$tmp/out" >/dev/null \
		2>"$tmp/b.err"
	loop_ns "$tmp/out" >>"$tmp/$k.bpfrb"
	S record --engine=tracefs -x "$loop" -e "%h9bench:tick$a" -o "$tmp/t.data" -- \
		"$loop" $n "$a" 0 "$tmp/out" >/dev/null 2>"$tmp/t.err"
	loop_ns "$tmp/out" >>"$tmp/$k.tracefs"
	S stat --engine=bpf -x "$loop" -e "%h9bench:tick$a" --json -- "$loop" $n "$a" 0 "$tmp/out" \
		>"$tmp/stat.json"
	grep -q "\"count\":$n" "$tmp/stat.json" || { echo "bench: bpf stat did not count $n: $(cat "$tmp/stat.json")" >&2; exit 1; }
	loop_ns "$tmp/out" >>"$tmp/$k.bstat"
	S stat --engine=tracefs -x "$loop" -e "%h9bench:tick$a" --json -- "$loop" $n "$a" 0 \
		"$tmp/out" >"$tmp/stat.json"
	loop_ns "$tmp/out" >>"$tmp/$k.tstat"
	P stat -e "sdt_h9bench:tick$a" -x, -o "$tmp/pstat" -- "$loop" $n "$a" 0 "$tmp/out" >/dev/null
	loop_ns "$tmp/out" >>"$tmp/$k.pstat"
	if [ $have_bpftrace = 1 ]; then
		bpftrace -q -e "usdt:$loop:h9bench:tick$a { @n = count(); }" -c "$loop $n $a 0 $tmp/out" \
			>"$tmp/bt" 2>&1
		loop_ns "$tmp/out" >>"$tmp/$k.btcount"
		bpftrace -q -e "usdt:$loop:h9bench:tick$a { printf($(fmt "$a")); }" \
			-c "$loop $n $a 0 $tmp/out" >"$tmp/bt" 2>&1
		loop_ns "$tmp/out" >>"$tmp/$k.btprintf"
		echo "$(grep -c '^[0-9-]' "$tmp/bt")" >>"$tmp/$k.btprintf_ev"
	fi
}

cost() { per_event "$(median <"$tmp/$1.$2")" "$(median <"$tmp/$1.base")" "$3"; }

for a in 1 4; do
	for i in $(seq $runs); do
		round $a 1
	done
	k=a$a.t1
	b=$(cost $k bpf $n)
	p=$(cost $k perf $n)
	t=$(cost $k tracefs $n)
	bs=$(cost $k bstat $n)
	ts=$(cost $k tstat $n)
	ps=$(cost $k pstat $n)
	echo "  $a arg(s): untraced loop $(python3 -c "print('%.2f' % ($(median <"$tmp/$k.base") / 1e6))") ms for $n hits; median of $runs rounds"
	emit "bpf engine: record cost per hit, 1 M hits, $a arg(s)" "$b ns" \
		"perf record -e sdt_h9bench:tick$a -- LOOP" "$p ns" "$(ratio "$b" "$p")" "<= 0.7"
	emit "bpf engine: record cost per hit, 1 M hits, $a arg(s), vs the tracefs engine" "$b ns" \
		"sdtrace record --engine=tracefs" "$t ns" "$(ratio "$b" "$t")" ""
	emit "bpf engine: record vs its own stat, $a arg(s)" "$b ns" "sdtrace stat --engine=bpf" \
		"$bs ns" "$(ratio "$b" "$bs")" "<= 1.15"
	rb=$(cost $k bpfrb $n)
	emit "bpf engine: record cost per hit, $a arg(s), fast rings vs the BPF ring buffers" "$b ns" \
		"SDTRACE_BPF_RINGBUF=1 sdtrace record --engine=bpf" "$rb ns" "$(ratio "$b" "$rb")" ""
	emit "bpf engine through the BPF ring buffers: record vs stat, $a arg(s)" "$rb ns" \
		"sdtrace stat --engine=bpf" "$bs ns" "$(ratio "$rb" "$bs")" ""
	emit "bpf engine: stat cost per hit, $a arg(s), vs perf stat" "$bs ns" \
		"perf stat -e sdt_h9bench:tick$a -- LOOP" "$ps ns" "$(ratio "$bs" "$ps")" ""
	emit "bpf engine: stat cost per hit, $a arg(s), vs the tracefs engine's stat" "$bs ns" \
		"sdtrace stat --engine=tracefs" "$ts ns" "$(ratio "$bs" "$ts")" ""
	if [ $have_bpftrace = 1 ]; then
		bc=$(cost $k btcount $n)
		bp=$(cost $k btprintf $n)
		emit "bpf engine: stat cost per hit, $a arg(s), vs bpftrace count()" "$bs ns" \
			"bpftrace -e 'usdt:LOOP:h9bench:tick$a { @n = count(); }'" "$bc ns" \
			"$(ratio "$bs" "$bc")" "<= 1.0"
		emit "bpf engine: record cost per hit, $a arg(s), vs bpftrace printf of the args" \
			"$b ns" "bpftrace -e 'usdt:LOOP:h9bench:tick$a { printf(...); }' > FILE" "$bp ns" \
			"$(ratio "$b" "$bp")" ""
		echo "  bpftrace printf lines per run: $(tr '\n' ' ' <"$tmp/$k.btprintf_ev")"
	fi
	slost=$(awk '{ s += $2 } END { print s }' "$tmp/$k.bpf_ev")
	smiss=$(awk -v n=$n '{ s += n - $1 } END { print s }' "$tmp/$k.bpf_ev")
	emit "bpf engine: events lost at 1 M hits, $a arg(s) (sum over $runs runs)" \
		"$slost lost, $smiss missing" "" "" "" "0 in every run"
	sb=$(awk '{ print $3 / $1 }' "$tmp/$k.bpf_ev" | median)
	emit "bpf engine: bytes per recorded event, $a arg(s)" "$sb B" "" "" "" "the tracefs engine's (21/35 B)"
done

# several CPUs at once: 2 threads x 1 M hits
for i in $(seq $runs); do
	round 1 2
done
k=a1.t2
b=$(cost $k bpf $((2 * n)))
p=$(cost $k perf $((2 * n)))
emit "bpf engine: record, 2 threads x 1 M hits, wall ns per hit" "$b ns" \
	"perf record, the same" "$p ns" "$(ratio "$b" "$p")" "<= 0.7 (the ratio holds)"
slost=$(awk '{ s += $2 } END { print s }' "$tmp/$k.bpf_ev")
smiss=$(awk -v n=$((2 * n)) '{ s += n - $1 } END { print s }' "$tmp/$k.bpf_ev")
echo "  2 threads: bpf engine $slost lost, $smiss missing over $runs runs"

# arm and remove the 531 libjvm.so sites
jvm=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
if [ -e "$jvm" ]; then
	for i in $(seq $runs); do
		S -v record --engine=bpf -x "$jvm" -e '%hotspot*:*' -e '%hs_private:*' -o "$tmp/j.data" \
			-- true >/dev/null 2>"$tmp/j.err"
		sed -n 's/.*bpf: attached \([0-9]*\) sites.* in \([0-9.]*\) ms.*/\2/p' "$tmp/j.err" |
			awk '{ s += $1 } END { print s }' >>"$tmp/j.arm"
		sed -n 's/.*attached \([0-9]*\) sites.*/\1/p' "$tmp/j.err" | awk '{ s += $1 } END { print s }' >"$tmp/j.n"
		sed -n 's/.*bpf: detached in \([0-9.]*\) ms.*/\1/p' "$tmp/j.err" >>"$tmp/j.rm"
		time_ms "$SDTRACE --cache-dir $sc record --engine=bpf -x $jvm -e '%hotspot*:*' -e '%hs_private:*' -o $tmp/j.data -- true" >>"$tmp/j.bwall"
		time_ms "$SDTRACE --cache-dir $sc record --engine=tracefs -x $jvm -e '%hotspot*:*' -e '%hs_private:*' -o $tmp/j.data -- true" >>"$tmp/j.twall"
	done
	emit "bpf engine: arm $(cat "$tmp/j.n") libjvm.so sites (one uprobe_multi link)" \
		"$(median <"$tmp/j.arm") ms" "" "" "" "<= 20 ms"
	emit "bpf engine: remove them (close the link)" "$(median <"$tmp/j.rm") ms" "" "" "" "<= 20 ms"
	emit "record -- true with every libjvm.so site, whole command" \
		"$(median <"$tmp/j.bwall") ms (bpf)" "--engine=tracefs" "$(median <"$tmp/j.twall") ms" \
		"$(ratio "$(median <"$tmp/j.bwall")" "$(median <"$tmp/j.twall")")" ""
else
	echo "  $jvm missing: no arm/remove figures"
fi

# remove the links of 8 binaries (8 copies of LOOP, one uprobe_multi link each): closed from
# threads at once (lib/bpf/attach.c), one RCU Tasks Trace grace period rather than eight
xs=""
for i in 1 2 3 4 5 6 7 8; do
	cp "$loop" "$tmp/c$i"
	xs="$xs -x $tmp/c$i"
done
for i in $(seq $runs); do
	# shellcheck disable=SC2086
	S -v record --engine=bpf $xs -e '%h9bench:tick1' -o "$tmp/m.data" -- true >/dev/null \
		2>"$tmp/m.err"
	sed -n 's/.*bpf: detached in \([0-9.]*\) ms.*/\1/p' "$tmp/m.err" >>"$tmp/m.rm"
done
emit "bpf engine: remove the links of 8 binaries (8 uprobe_multi links)" \
	"$(median <"$tmp/m.rm") ms" "" "" "" ""
