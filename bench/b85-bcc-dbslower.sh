#!/bin/sh
# Issue 35: BCC's dbslower beside sdtrace on PostgreSQL 15's slow queries, under pgbench (2
# clients, bench/pg-cluster.sh's script, a throw-away cluster), with a few slow queries of our
# own (`SELECT pg_sleep(0.05) AS slow_N`, from one psql session) that a 20 ms threshold must
# print, exactly those. dbslower attaches USDT by process: it is given the backends' pids (the
# psql session's and pgbench's two; pgbench connects once), and so is ours (-p):
#   peer: dbslower postgres -p PIDS -m 20             (BCC; prints each query over 20 ms)
#   ours: sdtrace trace --latency --min 20ms -p PIDS  (when this sdtrace has it; and stat), else
#         sdtrace stat --latency --by query -p PIDS   (the texts whose max is over 20 ms) and
#         sdtrace record -p PIDS + report --latency --top 50 --json (the slowest pairs, those
#         over 20 ms), each on PG:%postgresql:query__start and query__done
# Figures: pgbench's tps under each, against untraced (overhead = 1 - tps/tps_untraced), runs
# alternating, medians of 3 (quick) or 5 (full) runs: tps from pgbench's per-second progress
# lines once the tool is ready (dbslower compiles its program first); and on each run, the slow
# queries the tool printed against the ones sent.
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/pg-cluster.sh"
need_root_tracefs
DBSLOWER=$(command -v dbslower-bpfcc || command -v /usr/sbin/dbslower || true)
[ -n "$DBSLOWER" ] || { PEER_ERR="BCC's dbslower is not installed (Debian: bpfcc-tools)"; peer_broken bcc; exit 0; }
bcc_check
PG=$PG_BIN/postgres
pg_start
runs=3 secs=4 nslow=3
[ "$BENCH_MODE" = full ] && runs=5 secs=20 nslow=5
sc=$tmp/sc
min_ms=20
# ours: trace --latency --min when this sdtrace has it; else stat --latency and record + report
if $SDTRACE trace --help 2>&1 | grep -q -- '--min DUR'; then
	modes="trace stat" # stat: the same pairs timed in the kernel, printed at the end
else
	modes="stat record"
fi
ev="-e $PG:%postgresql:query__start -e $PG:%postgresql:query__done"

# session: one psql connection reading statements from a FIFO (fd 3), its output in $tmp/psql.out
session_start() {
	rm -f "$tmp/psql.in" && mkfifo "$tmp/psql.in"
	"$PG_BIN/psql" -X -q -At <"$tmp/psql.in" >"$tmp/psql.out" 2>"$tmp/psql.err" &
	psql_pid=$!
	at_exit "kill $psql_pid 2>/dev/null"
	exec 3>"$tmp/psql.in"
	echo "SELECT 'backend ' || pg_backend_pid();" >&3
	wait_line "$tmp/psql.out" '^backend '
	s_pid=$(sed -n 's/^backend //p' "$tmp/psql.out")
}
session_end() {
	echo '\q' >&3
	exec 3>&-
	wait "$psql_pid" || true
}
# wait_line FILE REGEX: until FILE has a line matching REGEX (60 s at most)
wait_line() {
	k=0
	until grep -q "$2" "$1" 2>/dev/null; do
		[ $k -gt 600 ] && { echo "  never saw '$2' in $1" >&2; cat "$1" >&2; exit 1; }
		sleep 0.1
		k=$((k + 1))
	done
}
# pgbench_start SECS: pgbench with progress lines, in the background; sets pb_pid, pb_t0 (ms)
# and pids (the session's and pgbench's backends)
pgbench_start() {
	pb_t0=$(now_ms)
	"$PG_BIN/pgbench" -n -f "$tmp/pg.sql" -c 2 -j 2 -T "$1" -P 1 >"$tmp/pb.out" 2>"$tmp/pb.err" &
	pb_pid=$!
	at_exit "kill $pb_pid 2>/dev/null"
	: >"$tmp/psql.out"
	k=0
	while :; do
		echo "SELECT 'pgbench ' || count(*) || ' ' || string_agg(pid::text, ',') FROM pg_stat_activity WHERE application_name = 'pgbench';" >&3
		sleep 0.2
		tail -n 1 "$tmp/psql.out" | grep -q '^pgbench 2 ' && break
		[ $k -gt 100 ] && { echo "  pgbench's backends never showed" >&2; cat "$tmp/pb.err" >&2; exit 1; }
		k=$((k + 1))
	done
	pids="$s_pid,$(tail -n 1 "$tmp/psql.out" | cut -d' ' -f3)"
}
# pgbench_tps: after pgbench ends, the mean tps of its progress lines after $ready_ms
pgbench_tps() {
	wait "$pb_pid" || { cat "$tmp/pb.err" >&2; exit 1; }
	python3 - "$tmp/pb.err" "$pb_t0" "$ready_ms" <<'PY'
import re, sys
t0, ready = float(sys.argv[2]), float(sys.argv[3])
tps = [float(m.group(2)) for m in (re.match(r"progress: ([0-9.]+) s, ([0-9.]+) tps", l)
       for l in open(sys.argv[1])) if m and t0 + (float(m.group(1)) - 1) * 1e3 >= ready]
if len(tps) < 3:
    sys.exit("bench: fewer than 3 progress lines after the tool was ready: %s" % tps)
print("%.1f" % (sum(tps) / len(tps)))
PY
}
# slow N: N slow queries through the session
slow() {
	for q in $(seq "$1"); do echo "SELECT pg_sleep(0.05) AS slow_$q;" >&3; done
}

start_tool() { # MODE OUT: a tool attached to $pids, until stopped; then ready (ms)
	rm -f "$2" "$2.err" # the last run's "Tracing" line must not pass for this one's
	case $1 in
	none) t_pid= ;;
	bcc)
		env --default-signal=INT /usr/bin/python3 -u "$DBSLOWER" postgres -m "$min_ms" \
			-p $(echo "$pids" | tr ',' ' ') >"$2" 2>"$2.err" &
		t_pid=$!
		wait_line "$2" '^Tracing database queries'
		;;
	stat | record | trace)
		case $1 in
		stat) set -- "$1" "$2" stat --json --latency --by query ;;
		record) set -- "$1" "$2" record -o "$2.data" ;;
		trace) set -- "$1" "$2" trace --latency --min "${min_ms}ms" ;;
		esac
		o=$2
		shift 2
		# shellcheck disable=SC2086
		env --default-signal=INT $SDTRACE --cache-dir "$sc" "$@" -p "$pids" $ev >"$o" 2>"$o.err" &
		t_pid=$!
		k=0
		until ls -l "/proc/$t_pid/fd" 2>/dev/null | grep -q 'perf_event\|bpf'; do
			kill -0 "$t_pid" 2>/dev/null || { cat "$o.err" >&2; exit 1; }
			[ $k -gt 300 ] && { echo "  sdtrace never armed" >&2; exit 1; }
			sleep 0.1
			k=$((k + 1))
		done
		sleep 0.5
		;;
	esac
	[ -n "$t_pid" ] && at_exit "kill -INT $t_pid 2>/dev/null"
	ready_ms=$(now_ms)
}
stop_tool() { # MODE OUT
	[ -n "$t_pid" ] || return 0
	kill -INT "$t_pid" 2>/dev/null || echo "  ($1 had already ended)"
	wait "$t_pid" || [ "$1" = bcc ] || { cat "$2.err" >&2; exit 1; }
	if [ "$1" = record ]; then
		$SDTRACE report -i "$2.data" --latency --json --top 50 >"$2.rep" 2>>"$2.err"
	fi
}
# slow_printed MODE OUT: the slow_N queries the tool printed (over the threshold), sorted
slow_printed() {
	python3 - "$1" "$2" "$min_ms" <<'PY' | sort
import json, re, sys
mode, out, min_ns = sys.argv[1], sys.argv[2], float(sys.argv[3]) * 1e6
found = []
if mode == "bcc":
    for l in open(out):
        m = re.match(r"\s*[0-9.]+\s+\d+\s+([0-9.]+)\s+(.*)$", l)
        if m:
            found.append(m.group(2))
elif mode == "stat":
    for p in json.load(open(out)).get("pairs", []):
        for g in p.get("groups", []):
            if g["max_ns"] >= min_ns:  # a text at least once over: said once
                found.append(list(g["key"].values())[0])
elif mode == "record":
    for s in json.load(open(out + ".rep")).get("slowest", []):
        if s["duration_ns"] >= min_ns:
            a = s.get("start_args") or {}
            found.append(a.get("query", str(a)) if isinstance(a, dict) else str(a))
else:  # trace --latency --min: a line per pair, the query text in it
    for l in open(out):
        m = re.search(r"(SELECT pg_sleep\(0\.05\) AS slow_\d+;)", l) or re.search(r'query="?([^"]*)', l)
        if m:
            found.append(m.group(1))
for q in found:
    m = re.search(r"slow_(\d+)", q)
    print("slow_%s" % m.group(1) if m else "other: " + q.strip()[:60])
PY
}

session_start
pg_tps "$tmp/warm" 3 >/dev/null # warm the cache and the tables; writes $tmp/pg.sql
allm="none bcc $modes"
for i in $(seq $runs); do
	for m in $allm; do
		pgbench_start $((secs + 5))
		start_tool "$m" "$tmp/$m.out"
		sleep 1
		slow "$nslow"
		pgbench_tps >>"$tmp/$m.tps"
		stop_tool "$m" "$tmp/$m.out"
		[ "$m" = none ] || slow_printed "$m" "$tmp/$m.out" >"$tmp/$m.slow.$i"
		echo "  run $i $m: ready $(python3 -c "print('%.1f' % (($ready_ms - $pb_t0) / 1e3))") s after pgbench's start, $(tail -n 1 "$tmp/$m.tps") tps"
	done
done
base=$(median <"$tmp/none.tps")
over() { python3 -c "print('%.1f %%' % (100 * (1 - $1 / $base)))"; }
peer=$(median <"$tmp/bcc.tps")
line="  tps: untraced $base, dbslower $peer"
for m in $modes; do
	ours=$(median <"$tmp/$m.tps")
	line="$line, ours ($m) $ours"
	emit "pgbench tps while printing queries over $min_ms ms (ours: $m; overhead against untraced $base tps)" \
		"$ours tps ($(over "$ours"))" "dbslower postgres -p PIDS -m $min_ms (BCC, $BCC_HEADERS)" \
		"$peer tps ($(over "$peer"))" "$(ratio "$ours" "$peer")" ">= 1.0"
done
echo "$line (medians of $runs runs, progress lines after the tool was ready)"

session_end
# the slow queries each printed on each run, against those sent (a run each: the kernel refuses a
# uprobe at a site that another tool's uprobe holds with another semaphore offset, and BCC counts
# semaphores by writing to the process, sdtrace through the kernel: attached at once, the second
# fails with EINVAL)
seq "$nslow" | sed 's/^/slow_/' | sort >"$tmp/sent.slow"
# okl MODE: per run, "the N" when the tool printed exactly the slow queries sent, else what it
# printed of them and how many others (a pgbench statement can take over 20 ms on a busy machine)
okl() {
	for f in "$tmp/$1.slow".*; do
		k=$(grep -c "^slow_" "$f" || true)
		o=$(grep -vc "^slow_" "$f" || true)
		if cmp -s "$tmp/sent.slow" "$f"; then echo "the $nslow"
		elif [ "$o" -gt 0 ] && [ "$(grep '^slow_' "$f")" = "$(cat "$tmp/sent.slow")" ]; then
			echo "the $nslow + $o other ($(grep -v '^slow_' "$f" | head -n 1 | cut -c8-40))"
		else echo "$k of $nslow + $o other"; fi
	done | paste -sd/
}
echo "  slow queries printed per run, of $nslow sent: dbslower $(okl bcc)"
for m in $modes; do
	echo "  ... ours ($m) $(okl "$m")"
	emit "slow queries (over $min_ms ms) printed per run, of $nslow sent; ours: $m" \
		"$(okl "$m")" "dbslower postgres -p PIDS -m $min_ms" "$(okl bcc)" "n/a"
done
