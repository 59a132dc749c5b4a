#!/bin/sh
# Issue 32: a scrape's latency with 10,000 series. `sdtrace stat --serve` reads the counters when
# a scrape arrives (a drain of the kernel's maps, a walk of every key, the page rendered), so a
# scrape costs more than a copy of a page made in advance; how much, with 10,000 keys:
#   counts:  stat --engine=bpf --serve ... --by id -e prog-filter's req, 10,000 ids
#            (10,000 sdtrace_probe_key_hits_total series)
#   latency: stat --engine=bpf --serve ... --latency --by id on its job pair, 10,000 ids
#            (10,000 histograms: 290,000 lines)
# Each: the program fires, then the scrapes (curl, one connection each, in a row; 20 quick,
# 100 full): median and 90th percentile of curl's time_total, the page's bytes and series.
. "$(dirname "$0")/common.sh"
need_root_tracefs
prog=$(dirname "$SDTRACE")/tests/progs/prog-filter
[ -x "$prog" ] || { echo "bench: no $prog (build the tests)" >&2; exit 1; }
command -v curl >/dev/null || { echo "bench: SKIP $(basename "$0"): no curl"; exit 0; }
scrapes=20
[ "$BENCH_MODE" = full ] && scrapes=100
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

# measure NAME FAMILY STAT-ARGS...: one stat --serve run, $scrapes scrapes once the program has
# fired; the page's lines of FAMILY counted
measure() {
	name=$1
	fam=$2
	shift 2
	rm -f "$tmp/fired" "$tmp/stop"
	$SDTRACE --cache-dir "$tmp/sc" stat --engine=bpf --serve "127.0.0.1:$port" -o "$tmp/$name.out" "$@" \
		-- sh -c "'$prog' 10000 >/dev/null; touch '$tmp/fired'; n=0;
			while [ ! -e '$tmp/stop' ] && [ \$n -lt 3000 ]; do sleep 0.1; n=\$((n + 1)); done" \
		2>"$tmp/$name.err" &
	pid=$!
	at_exit "touch '$tmp/stop'; wait $pid"
	n=0
	while [ ! -e "$tmp/fired" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	if [ ! -e "$tmp/fired" ]; then
		echo "bench: $name: the program did not run" >&2
		cat "$tmp/$name.err" >&2
		exit 1
	fi
	: >"$tmp/$name.t"
	for i in $(seq "$scrapes"); do
		curl -s -o "$tmp/$name.page" -w '%{time_total}\n' "http://127.0.0.1:$port/metrics" >>"$tmp/$name.t"
	done
	touch "$tmp/stop"
	wait $pid
	med=$(python3 -c 'import statistics, sys; v = [float(x) * 1e3 for x in open(sys.argv[1])]; print("%.1f" % statistics.median(v))' "$tmp/$name.t")
	p90=$(python3 -c 'import sys; v = sorted(float(x) * 1e3 for x in open(sys.argv[1])); print("%.1f" % v[int(0.9 * (len(v) - 1))])' "$tmp/$name.t")
	bytes=$(wc -c <"$tmp/$name.page")
	series=$(grep -c "^$fam" "$tmp/$name.page" || true)
	echo "  $name: $scrapes scrapes, median $med ms, p90 $p90 ms; page $bytes bytes, $series lines of $fam"
	emit "stat --serve scrape, $name, 10,000 keys: median time_total ($scrapes scrapes)" "$med ms" \
		"(no peer: a page rendered in advance is up to a second old)" "-" "-"
}
measure counts sdtrace_probe_key_hits_total --by id -e "$prog:%filt:req(id:s32,delta:s64,query:string)"
measure latency sdtrace_pair_duration_seconds --latency --by id \
	-e "$prog:%filt:job__start(id:s32,query:string)" -e "$prog:%filt:job__done(id:s32)"
