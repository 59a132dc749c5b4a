#!/bin/sh
# Issue 7: what recording costs the traced program, per event, at 1,000,000 hits of one probe
# with 1 and with 4 arguments (bench/loop.c times its own loop with clock_gettime):
#   ours: sdtrace record -x LOOP -e %h9bench:tickA -o F -- LOOP 1000000 A 0 OUT
#   peer: perf probe -x LOOP -a sdt_h9bench:tickA   (once)
#         perf record -e sdt_h9bench:tickA -o F -- LOOP 1000000 A 0 OUT      (≈2.2 µs/hit anchor)
# and from the same runs: events lost (default buffers), bytes per event (file size / events),
# peak RSS of the recorder and of the reader (/usr/bin/time -f %M):
#   sdtrace report -i F --json  vs  perf script -i F
# Counting only:
#   ours: sdtrace stat -x LOOP -e %h9bench:tickA -- LOOP ...
#   peer: perf stat -e sdt_h9bench:tickA -- LOOP ...;
#         bpftrace -e 'usdt:LOOP:h9bench:tickA { @n = count(); }' -c 'LOOP ...'   (≈1.05 µs/hit)
# How it grows with the event rate: 1, 10, 100 µs of busy work between hits (fewer hits).
# Cost per event = (traced loop time - untraced loop time) / hits.
# Targets: record <= 0.6x perf, 0 lost, bytes/event <= 0.4x perf, stat <= 1.0x, peak memory
# <= 1.0x perf, report --json <= 50 MB.
. "$(dirname "$0")/common.sh"
need_root_tracefs
loop=$(loop_bin)
at_exit "P probe -q -d 'sdt_h9bench:*' >/dev/null 2>&1"
peer_ok perf || { peer_broken perf; exit 0; }
P probe -q -d 'sdt_h9bench:*' >/dev/null 2>&1 || true
P probe -q -x "$loop" -a sdt_h9bench:tick1 -a sdt_h9bench:tick4
n=1000000
runs=1
[ "$BENCH_MODE" = full ] && runs=3
have_bpftrace=0
if peer_ok bpftrace; then have_bpftrace=1; else peer_broken bpftrace; fi
# loop_ns OUTFILE: the loop time the program reported
loop_ns() { sed -n 's/^loop_ns=\([0-9]*\).*/\1/p' "$1"; }
# per_event_ns TRACED_NS BASE_NS HITS
per_event() { python3 -c "print('%.0f' % (($1 - $2) / $3))"; }
sc=$tmp/sc

# run_set ARGS WORK HITS TAG: one run of each configuration; appends to $tmp/TAG.*
run_set() {
	a=$1 w=$2 hits=$3 tag=$4
	"$loop" "$hits" "$a" "$w" "$tmp/out" && loop_ns "$tmp/out" >>"$tmp/$tag.base"
	/usr/bin/time -o "$tmp/mem" -f %M $SDTRACE --cache-dir "$sc" record -x "$loop" -e "%h9bench:tick$a" \
		-o "$tmp/s.data" -- "$loop" "$hits" "$a" "$w" "$tmp/out" >/dev/null 2>"$tmp/s.err"
	loop_ns "$tmp/out" >>"$tmp/$tag.ours"
	cat "$tmp/mem" >>"$tmp/$tag.ours_mem"
	/usr/bin/time -o "$tmp/mem" -f %M env HOME="$tmp/home" perf --buildid-dir "$tmp/pc" record -q \
		-e "sdt_h9bench:tick$a" -o "$tmp/p.data" -- "$loop" "$hits" "$a" "$w" "$tmp/out" >/dev/null 2>"$tmp/p.err"
	loop_ns "$tmp/out" >>"$tmp/$tag.perf"
	cat "$tmp/mem" >>"$tmp/$tag.perf_mem"
	[ "$w" = 0 ] || return 0
	# events, losses, sizes, reader memory (1 M runs only)
	$SDTRACE report -i "$tmp/s.data" --stats >"$tmp/stats" 2>&1
	sev=$(awk '$2 == "total" { print $1 }' "$tmp/stats")
	slost=$(awk '$2 == "lost" { print $1 }' "$tmp/stats")
	echo "$sev $slost $(stat -c %s "$tmp/s.data")" >>"$tmp/$tag.ours_ev"
	/usr/bin/time -o "$tmp/mem" -f %M $SDTRACE report -i "$tmp/s.data" --json >"$tmp/json" 2>/dev/null
	[ "$(wc -l <"$tmp/json")" = "$sev" ] || { echo "bench: report --json printed $(wc -l <"$tmp/json") lines for $sev events" >&2; exit 1; }
	cat "$tmp/mem" >>"$tmp/$tag.ours_rmem"
	rm -f "$tmp/json"
	/usr/bin/time -o "$tmp/mem" -f %M env HOME="$tmp/home" perf --buildid-dir "$tmp/pc" script -i "$tmp/p.data" \
		>"$tmp/script" 2>"$tmp/script.err"
	cat "$tmp/mem" >>"$tmp/$tag.perf_rmem"
	pev=$(wc -l <"$tmp/script")
	# distinct values of arg1 (= the loop index): hits that reached the file, and duplicates
	sed -n 's/.* arg1=\([0-9]*\).*/\1/p' "$tmp/script" | sort -n >"$tmp/arg1"
	pdup=$(uniq -d "$tmp/arg1" | wc -l)
	pmiss=$((hits - $(uniq "$tmp/arg1" | wc -l)))
	plost=$(env HOME="$tmp/home" perf --buildid-dir "$tmp/pc" report -i "$tmp/p.data" --stats 2>/dev/null |
		awk '/LOST/ { s += $(NF-1) } END { print s + 0 }')
	echo "$pev $plost $(stat -c %s "$tmp/p.data") $pdup $pmiss $(grep -c 'lost' "$tmp/p.err" "$tmp/script.err" | awk -F: '{ s += $2 } END { print s }')" >>"$tmp/$tag.perf_ev"
	rm -f "$tmp/script"
	# counting only
	"$SDTRACE" --cache-dir "$sc" stat -x "$loop" -e "%h9bench:tick$a" --json -- "$loop" "$hits" "$a" 0 "$tmp/out" >"$tmp/stat.json"
	grep -q "\"count\":$hits" "$tmp/stat.json" || { echo "bench: sdtrace stat did not count $hits: $(cat "$tmp/stat.json")" >&2; exit 1; }
	loop_ns "$tmp/out" >>"$tmp/$tag.ostat"
	P stat -e "sdt_h9bench:tick$a" -x, -o "$tmp/pstat" -- "$loop" "$hits" "$a" 0 "$tmp/out" >/dev/null
	loop_ns "$tmp/out" >>"$tmp/$tag.pstat"
	if [ $have_bpftrace = 1 ]; then
		bpftrace -q -e "usdt:$loop:h9bench:tick$a { @n = count(); }" -c "$loop $hits $a 0 $tmp/out" >"$tmp/bt" 2>&1
		grep -q "@n: $hits" "$tmp/bt" || echo "  bpftrace counted: $(grep '@n' "$tmp/bt")"
		loop_ns "$tmp/out" >>"$tmp/$tag.bstat"
	fi
}

for a in 1 4; do
	for i in $(seq $runs); do
		run_set $a 0 $n a$a
	done
	base=$(median <"$tmp/a$a.base")
	ours=$(per_event "$(median <"$tmp/a$a.ours")" "$base" $n)
	perf=$(per_event "$(median <"$tmp/a$a.perf")" "$base" $n)
	echo "  $a arg(s): untraced loop $(python3 -c "print('%.2f' % ($base / 1e6))") ms for $n hits"
	emit "record: cost per event, 1 M events, $a arg(s) (median of $runs)" "$ours ns" \
		"perf probe -x LOOP -a sdt_h9bench:tick$a; perf record -e sdt_h9bench:tick$a -- LOOP" "$perf ns" \
		"$(ratio "$ours" "$perf")" "<= 0.6"
	echo "  ours events lost size: $(tr '\n' ';' <"$tmp/a$a.ours_ev")  perf events lost size dups missing lost-warnings: $(tr '\n' ';' <"$tmp/a$a.perf_ev")"
	slost=$(awk '{ s += $2 } END { print s }' "$tmp/a$a.ours_ev")
	smiss=$(awk -v n=$n '{ s += n - $1 } END { print s }' "$tmp/a$a.ours_ev")
	plost=$(awk '{ s += $2 } END { print s }' "$tmp/a$a.perf_ev")
	pdup=$(awk '{ s += $4 } END { print s }' "$tmp/a$a.perf_ev")
	pmiss=$(awk '{ s += $5 } END { print s }' "$tmp/a$a.perf_ev")
	emit "events lost at 1 M events, $a arg(s), default buffers (sum over $runs runs)" \
		"$slost lost, $smiss missing" "perf record (LOST records in perf report --stats)" \
		"$plost lost, $pmiss missing, $pdup duplicated" "" "0 in every run"
	sb=$(awk '{ print $3 / $1 }' "$tmp/a$a.ours_ev" | median)
	pb=$(awk '{ print $3 / $1 }' "$tmp/a$a.perf_ev" | median)
	emit "bytes per recorded event, $a arg(s)" "$sb B" "perf.data" "$pb B" "$(ratio "$sb" "$pb")" "<= 0.4"
	sm=$(median <"$tmp/a$a.ours_mem")
	pm=$(median <"$tmp/a$a.perf_mem")
	emit "peak RSS of record, 1 M events, $a arg(s)" "$sm KiB" "perf record" "$pm KiB" "$(ratio "$sm" "$pm")" "<= 1.0"
	sm=$(median <"$tmp/a$a.ours_rmem")
	pm=$(median <"$tmp/a$a.perf_rmem")
	emit "peak RSS of report --json, 1 M events, $a arg(s)" "$sm KiB" "perf script" "$pm KiB" "$(ratio "$sm" "$pm")" "<= 1.0 and <= 50 MB"
	os=$(per_event "$(median <"$tmp/a$a.ostat")" "$base" $n)
	ps=$(per_event "$(median <"$tmp/a$a.pstat")" "$base" $n)
	emit "stat: cost per event, 1 M events, $a arg(s)" "$os ns" "perf stat -e sdt_h9bench:tick$a -- LOOP" "$ps ns" "$(ratio "$os" "$ps")" "<= 1.0"
	if [ $have_bpftrace = 1 ]; then
		bs=$(per_event "$(median <"$tmp/a$a.bstat")" "$base" $n)
		emit "stat: cost per event, 1 M events, $a arg(s), vs bpftrace" "$os ns" \
			"bpftrace -e 'usdt:LOOP:h9bench:tick$a { @n = count(); }' -c LOOP" "$bs ns" "$(ratio "$os" "$bs")" "<= 1.0"
	fi
done

# growth with the event rate: 1 arg, W ns of work between hits
if [ "$BENCH_MODE" = full ]; then
	rates="0:1000000 1000:200000 10000:50000 100000:5000"
else
	rates="0:200000 1000:100000 10000:20000 100000:2000"
fi
for r in $rates; do
	w=${r%%:*}
	hits=${r##*:}
	for i in $(seq $runs); do
		run_set 1 "$w" "$hits" "w$w"
	done
	base=$(median <"$tmp/w$w.base")
	o=$(median <"$tmp/w$w.ours")
	p=$(median <"$tmp/w$w.perf")
	emit_growth "work between hits (ns) | hits | untraced ms | sdtrace record: ns/event, slowdown | perf record: ns/event, slowdown" \
		"$w" "$hits" "$(python3 -c "print('%.1f' % ($base / 1e6))")" \
		"$(per_event "$o" "$base" "$hits") ns, x$(ratio "$o" "$base")" \
		"$(per_event "$p" "$base" "$hits") ns, x$(ratio "$p" "$base")"
done
