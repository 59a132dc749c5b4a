#!/bin/sh
# Issue 18: latency per query text on PostgreSQL 15 under pgbench (2 clients, a script of five
# statements (bench/pg-cluster.sh), a throw-away cluster), answered in one command:
#   ours: sdtrace stat -a -e PG:%postgresql:query__start -e PG:%postgresql:query__done
#         --latency --by query   (pairs timed in the kernel with the BPF engine; no event crosses
#         to user space). The same two probes as bpftrace's script: `query__*` would also place
#         parse/rewrite/plan/execute's 8, five times the traps of the peer's (BENCHMARKS.md)
#   peer: bpftrace -e 'usdt:PG:postgresql:query__start { @s[tid] = nsecs; @q[tid] = str(arg0); }
#         usdt:PG:postgresql:query__done /@s[tid]/ { @us[@q[tid]] = stats((nsecs - @s[tid]) / 1000);
#         delete(@s[tid]); delete(@q[tid]); }'
# Figures: pgbench's tps under each, against untraced (overhead = 1 - tps/tps_untraced), runs
# alternating (untraced, ours, bpftrace), medians of 3 (quick) or 5 (full) runs of 10 s (20 s);
# then one more run with both attached at once: the queries each counted per statement text
# must be equal (bpftrace cuts strings at 64 bytes, so texts are compared by bpftrace's prefix).
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/pg-cluster.sh"
need_root_tracefs
peer_ok bpftrace || { peer_broken bpftrace; exit 0; }
PG=$PG_BIN/postgres
pg_start
runs=3 secs=10
[ "$BENCH_MODE" = full ] && runs=5 secs=20
sc=$tmp/sc
bt='usdt:'$PG':postgresql:query__start { @s[tid] = nsecs; @q[tid] = str(arg0); }
usdt:'$PG':postgresql:query__done /@s[tid]/ { @us[@q[tid]] = stats((nsecs - @s[tid]) / 1000);
	delete(@s[tid]); delete(@q[tid]); }'
: "${OURS_LAT:=record}" # record: record + report --latency --by; stat: timed in the kernel

# start_ours OUT: sdtrace in the background until stopped (SIGINT); waits until it is armed
start_ours() {
	if [ "$OURS_LAT" = stat ]; then
		env --default-signal=INT $SDTRACE --cache-dir "$sc" stat -a --json \
			-e "$PG:%postgresql:query__start" -e "$PG:%postgresql:query__done" \
			--latency --by query >"$1" 2>"$1.err" &
	else
		env --default-signal=INT $SDTRACE --cache-dir "$sc" record -a -o "$1.data" \
			-e "$PG:%postgresql:query__start" -e "$PG:%postgresql:query__done" \
			>/dev/null 2>"$1.err" &
	fi
	ours_pid=$!
	at_exit "kill -INT $ours_pid 2>/dev/null"
	wait_armed "$ours_pid" "$1.err"
}
stop_ours() {
	kill -INT "$ours_pid"
	wait "$ours_pid" || { cat "$1.err" >&2; exit 1; }
	if [ "$OURS_LAT" != stat ]; then
		$SDTRACE report -i "$1.data" --latency --json --by query >"$1" 2>>"$1.err"
	fi
}
# wait_armed PID ERR: until PID has perf events or BPF links open (at most 30 s)
wait_armed() {
	n=0
	while [ $n -lt 300 ]; do
		ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'perf_event\|bpf' && { sleep 0.5; return 0; }
		kill -0 "$1" 2>/dev/null || { cat "$2" >&2; exit 1; }
		sleep 0.1
		n=$((n + 1))
	done
	echo "  sdtrace never armed" >&2
	exit 1
}
start_bt() {
	env --default-signal=INT bpftrace -e "$bt" >"$1" 2>"$1.err" &
	bt_pid=$!
	at_exit "kill -INT $bt_pid 2>/dev/null"
	n=0
	until grep -q '^Attaching' "$1" 2>/dev/null; do
		kill -0 "$bt_pid" 2>/dev/null || { cat "$1.err" >&2; exit 1; }
		[ $n -gt 300 ] && { echo "  bpftrace never attached" >&2; exit 1; }
		sleep 0.1
		n=$((n + 1))
	done
	sleep 0.5
}
stop_bt() {
	kill -INT "$bt_pid"
	wait "$bt_pid" || true
}

pg_tps "$tmp/warm" 3 >/dev/null # warm the cache and the tables
for i in $(seq $runs); do
	pg_tps "$tmp/pb" "$secs" >>"$tmp/base.tps"
	start_ours "$tmp/ours.json"
	pg_tps "$tmp/pb" "$secs" >>"$tmp/ours.tps"
	stop_ours "$tmp/ours.json"
	start_bt "$tmp/bt.out"
	pg_tps "$tmp/pb" "$secs" >>"$tmp/bt.tps"
	stop_bt
done
base=$(median <"$tmp/base.tps")
ours=$(median <"$tmp/ours.tps")
peer=$(median <"$tmp/bt.tps")
over() { python3 -c "print('%.1f %%' % (100 * (1 - $1 / $base)))"; }
echo "  tps: untraced $base, ours ($OURS_LAT) $ours, bpftrace $peer (medians of $runs runs of $secs s)"
emit "pgbench tps under latency per query text (overhead against untraced $base tps)" \
	"$ours tps ($(over "$ours"))" "bpftrace query__start/done @us[@q[tid]] = stats()" \
	"$peer tps ($(over "$peer"))" "$(ratio "$ours" "$peer")" ">= 1.0"

# both at once on one run: equal counts per statement
start_bt "$tmp/both.bt"
start_ours "$tmp/both.json"
pg_tps "$tmp/pb" 5 >/dev/null
stop_ours "$tmp/both.json"
stop_bt
python3 - "$tmp/both.json" "$tmp/both.bt" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
pairs = [p for p in d["pairs"] if p["name"].endswith("query")]
ours = {}
for p in pairs:
    for g in p.get("groups", []):
        # report's key is a list of values, stat's an object by name
        k = list(g["key"].values())[0] if isinstance(g["key"], dict) else g["key"][0]
        ours[k] = ours.get(k, 0) + g["count"]
bt = {}
for line in open(sys.argv[2]):
    m = re.match(r'@us\[(.*)\]: count (\d+),', line)
    if m:
        bt[m.group(1)] = int(m.group(2))
same, diff = 0, []
for text, n in bt.items():
    mine = sum(c for t, c in ours.items() if t.startswith(text))
    if mine == n:
        same += 1
    else:
        diff.append((text, n, mine))
print("  agreement on one run: %d statement texts, %d with equal counts%s" %
      (len(bt), same, "; differ: %s" % diff[:3] if diff else ""))
PY
