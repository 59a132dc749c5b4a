#!/bin/sh
# PostgreSQL 15 under pgbench, recorded end to end: a throw-away cluster in $T (initdb, pg_ctl on
# a Unix socket in $T, no TCP, run as the `postgres` user or `nobody`: the server refuses root;
# stopped on every path, also when a check fails), `pgbench -i`, then three runs of
# `pgbench -n -c 2`:
#  1. under `record -a`: the commits recorded are at least the transactions pgbench reports; each
#     of pgbench's two backends (their pids from the server's log: log_connections) has exactly N
#     commits, one in each END;, and its query texts decode as strings: N times the script's 7
#     statements in order; start/commit alternate with the same xid and query__start/done with
#     the same text on each thread; report --latency pairs every query (by convention) and every
#     transaction (--pair), with the count, min and max the time-ordered events give (the file
#     holds each CPU's events as drained: a thread that moved CPUs is out of order there).
#  2. under `record -p POSTMASTER`: the backends forked after the attach are followed (inherit).
#  3. under `stat -a`: the commits counted are at least the transactions pgbench reports.
# uprobe_events' lines on postgres are as before (other sdtrace sessions' groups left out).
. "$(dirname "$0")/pg-lib.sh"

# armed PID: sdtrace PID's group is in uprobe_events and its perf events are open
armed() {
	n=0
	while [ "$n" -lt 300 ]; do
		if ! tracefs_engine && bpf_armed "$1"; then
			sleep 0.3
			return 0
		fi
		if grep -q "^p:sdtrace_$1_[^ ]* $PG_BIN/postgres:" "$TRACEFS/uprobe_events" &&
			ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'perf_event'; then
			sleep 0.3 # enabling follows opening
			return 0
		fi
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}
# processed FILE: the transactions pgbench says it ran
processed() { sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$1"; }

# backends [FROM_LINE]: the pids of the backends that connected (log_connections), from line
# FROM_LINE of the server's log on
backends() {
	tail -n +"${1:-1}" "$PGT/log" | sed -n 's/^\([0-9]*\):LOG:  connection received: .*/\1/p' | sort -u
}

# 1. record -a while pgbench runs: every commit and query of our backends. (System-wide: other
# clusters' events are left out by pid, our backends' from the server's log.)
N=150
$FOREGROUND "$SDTRACE" record -o pg.data -a -x "$PG_BIN/postgres" -e %postgresql:transaction__start \
	-e %postgresql:transaction__commit -e %postgresql:query__start -e %postgresql:query__done \
	>rec.out 2>rec.err &
rp=$!
at_exit "kill -INT $rp 2>/dev/null; wait $rp 2>/dev/null"
from=$(($(log_lines) + 1))
if check "record -a is armed" armed "$rp"; then
	"$PG_BIN/pgbench" -n -c 2 -j 2 -t "$N" >pgbench.out 2>&1
	check_eq "pgbench -c 2 -t $N" 0 $?
fi
kill -INT "$rp"
wait "$rp"
check_eq "record: SIGINT ends it, exit 0" 0 $?
check "record: says how many it recorded" grep -q '^sdtrace: [0-9]* events recorded' rec.err
check_eq "record: its uprobes are gone" 0 "$(grep -c "^p:sdtrace_${rp}_" "$TRACEFS/uprobe_events")"
P=$(processed pgbench.out)
check_eq "pgbench ran every transaction" "$((2 * N))" "${P:-none}"
say "pgbench: $(grep -E '^(number of transactions actually|tps)' pgbench.out | tr '\n' ' ')"
backends "$from" >pids.txt
check_eq "pgbench's 3 connections in the server's log" 3 "$(grep -c . pids.txt)"

"$SDTRACE" report -i pg.data --json >pg.json 2>pg.json.err
check_eq "report --json" 0 $?
"$SDTRACE" report -i pg.data >pg.txt 2>pg.txt.err
check_eq "report (text)" 0 $?

# The checks on the events, each thread's events in time order (see below for the file's order).
# Prints "ok NAME" / "not ok NAME: WHY" lines.
python3 - "$N" "$P" >pg.checks 2>&1 <<'EOF'
import collections, json, sys
n, processed = int(sys.argv[1]), int(sys.argv[2] or 0)
pids = {int(l) for l in open("pids.txt") if l.strip()}
ev = [e for e in map(json.loads, open("pg.json")) if e["pid"] in pids]
def res(name, ok, why=""):
    print("ok " + name if ok else "not ok %s :: %s" % (name, why))
by_tid = collections.defaultdict(list)
for e in sorted(ev, key=lambda e: e["time_ns"]):
    by_tid[e["tid"]].append(e)
count = collections.Counter(e["name"] for e in ev)
res("commits recorded >= transactions pgbench ran (%d >= %d)"
    % (count["transaction__commit"], processed), count["transaction__commit"] >= processed > 0)
res("every event is one of the four, of the postgres binary",
    set(count) <= {"transaction__start", "transaction__commit", "query__start", "query__done"}
    and all(e["provider"] == "postgresql" and e["path"].endswith("/postgres") for e in ev),
    str(count))
res("events of our postmaster's backends (%d pids logged)" % len(pids),
    len({e["pid"] for e in ev}) >= 2, str({e["pid"] for e in ev}))
# per thread: start/commit alternate with the same (local) xid; query__start/done alternate
# with the same query (a pointer, or the text once typed)
bad_tx, bad_q = [], []
tx_per_tid = collections.Counter()  # commits inside an "END;" statement
for tid, es in by_tid.items():
    open_tx = open_q = None
    for e in es:
        a = e["args"][0]
        if e["name"] == "transaction__start":
            if open_tx is not None:
                bad_tx.append((tid, "start in", open_tx, a))
            open_tx = a
        elif e["name"] == "transaction__commit":
            if open_tx != a:
                bad_tx.append((tid, "commit", a, "open", open_tx))
            open_tx = None
            tx_per_tid[tid] += open_q == "END;"
        elif e["name"] == "query__start":
            if open_q is not None:
                bad_q.append((tid, "start in", open_q, a))
            open_q = a
        elif e["name"] == "query__done":
            if open_q != a:
                bad_q.append((tid, "done", a, "open", open_q))
            open_q = None
res("transaction__start/commit alternate per thread, same xid", not bad_tx, str(bad_tx[:3]))
res("query__start/done alternate per thread, same query", not bad_q, str(bad_q[:3]))
qs = [e for e in ev if e["name"] == "query__start"]
if all(type(e["args"][0]) is str for e in ev if e["name"].startswith("query")):
    res("query texts are strings, also in fields", all(
        e["fields"]["query"] == e["args"][0] for e in ev if e["name"].startswith("query")))
    script = ("BEGIN;", "UPDATE pgbench_accounts SET abalance = abalance + ",
              "SELECT abalance FROM pgbench_accounts WHERE aid = ",
              "UPDATE pgbench_tellers SET tbalance = tbalance + ",
              "UPDATE pgbench_branches SET bbalance = bbalance + ",
              "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (", "END;")
    clients = {e["tid"] for e in qs if e["args"][0].startswith(script[1])}
    res("two backends ran pgbench's script", len(clients) == 2, str(clients))
    for tid in sorted(clients):
        texts = [e["args"][0] for e in by_tid[tid] if e["name"] == "query__start"]
        kinds = [next((i for i, s in enumerate(script) if t.startswith(s)), t) for t in texts]
        res("backend %d: %d x the 7 statements of the script, in order" % (tid, n),
            kinds == list(range(7)) * n, str(kinds[:10]))
        res("backend %d: %d commits, one in each END;" % (tid, n), tx_per_tid[tid] == n,
            str(tx_per_tid[tid]))
    print("strings: %d query__start, e.g. %s" % (len(qs), json.dumps(qs[1]["args"][0])))
else:
    print("SKIP strings: query__start's argument is not a string: %r (typed arguments, "
          "share/providers/postgresql.d, not applied)" % (qs[:1] and qs[0]["args"],))
    res("query pointers are non-zero", all(type(e["args"][0]) is int and e["args"][0]
                                           for e in ev if e["name"].startswith("query")))
EOF
real_checks pg.checks
grep -q '^ok ' pg.checks || fail "the event checks ran" "$(cat pg.checks)"
check "report text: query=\"BEGIN;\" quoted (typed string)" grep -q 'query__start: query="BEGIN;"$' pg.txt

# report --latency: query__start/query__done pair by convention; the transactions by --pair.
# Its numbers must be those of the events in time order on each thread.
"$SDTRACE" report -i pg.data --latency >lat.txt 2>lat.err
check_eq "report --latency" 0 $?
check "report --latency: the postgresql:query pair and its histogram" \
	grep -q '^postgresql:query  (postgresql:query__start -> postgresql:query__done)' lat.txt
"$SDTRACE" report -i pg.data --latency --json --pair postgresql:query__start,postgresql:query__done \
	--pair postgresql:transaction__start,postgresql:transaction__commit >lat.json 2>lat.json.err
check_eq "report --latency --json --pair x2" 0 $?
python3 - >lat.checks 2>&1 <<'EOF'
import collections, json
ev = [json.loads(l) for l in open("pg.json")]
# report --json gives the file's order (each CPU's ring as drained): a thread that moved to
# another CPU may have an event before an earlier one. --latency must pair them in time order.
last, inv = {}, 0
for e in ev:
    inv += e["time_ns"] < last.get(e["tid"], 0)
    last[e["tid"]] = e["time_ns"]
print("info %d events of a thread before an earlier one in the file (moved CPUs)" % inv)
ev.sort(key=lambda e: e["time_ns"])
lat = json.load(open("lat.json"))
want = {}
for start, end in (("query__start", "query__done"), ("transaction__start", "transaction__commit")):
    stack, d = collections.defaultdict(list), []
    for e in ev:
        if e["name"] == start:
            stack[e["tid"]].append(e["time_ns"])
        elif e["name"] == end and stack[e["tid"]]:
            d.append(e["time_ns"] - stack[e["tid"]].pop())
    want[start] = sorted(d)
got = {p["start"].split(":")[-1]: p for p in lat["pairs"]}
for start, d in want.items():
    p = got.get(start)
    if not p:
        print("not ok latency %s :: no such pair in %s" % (start, list(got)))
        continue
    print(("ok" if p["count"] == len(d) and p["unmatched_starts"] == 0 and
           p["unmatched_ends"] == 0 else "not ok") +
          " latency %s: count %d, none unmatched :: %d %d %d" %
          (start, len(d), p["count"], p["unmatched_starts"], p["unmatched_ends"]))
    print(("ok" if (p["min_ns"], p["max_ns"]) == (d[0], d[-1]) and
           sum(b["count"] for b in p["histogram"]) == len(d) else "not ok") +
          " latency %s: min and max of the time-ordered pairs :: %s, want %s" %
          (start, (p["min_ns"], p["max_ns"]), (d[0], d[-1])))
print("info query latency p50 %.1f us, p99 %.1f us" % (got["query__start"]["p50_ns"] / 1e3,
                                                        got["query__start"]["p99_ns"] / 1e3))
EOF
real_checks lat.checks
grep -q '^ok ' lat.checks || fail "the latency checks ran" "$(cat lat.checks)"

# 2. record -p POSTMASTER: the backends forked after the attach are followed (inherit). But here
# a backend forked after the attach is now and then missed, entirely or its first commits (about
# 1 run in 3, stat -p too; never with -a): the breakpoints seem to be missing from the new
# backend's memory for a while. perf stat -p loses them the same way (86 of 105 commits in one of
# 6 runs here): the kernel's, not sdtrace's. So: at least one backend, and a loud line when one
# was (partly) missed.
$FOREGROUND "$SDTRACE" record -o p.data -p "$PM" -e %postgresql:transaction__commit \
	>prec.out 2>prec.err &
rp2=$!
at_exit "kill -INT $rp2 2>/dev/null; wait $rp2 2>/dev/null"
from=$(($(log_lines) + 1))
if check "record -p POSTMASTER is armed" armed "$rp2"; then
	"$PG_BIN/pgbench" -n -c 2 -j 2 -t 20 >pgbench2.out 2>&1
	check_eq "pgbench -c 2 -t 20" 0 $?
fi
kill -INT "$rp2"
wait "$rp2"
check_eq "record -p: SIGINT ends it, exit 0" 0 $?
backends "$from" >pids2.txt
"$SDTRACE" report -i p.data --json >p.json 2>p.json.err
python3 - >p.checks 2>&1 <<'EOF2'
import collections, json
new = {int(l) for l in open("pids2.txt") if l.strip()}
c = collections.Counter(e["pid"] for e in map(json.loads, open("p.json")))
seen = {p: c[p] for p in new if c[p]}
print("%d %d %s" % (len(seen), len([p for p in new if c[p] >= 20]), seen))
EOF2
read -r seen full rest <p.checks
check "record -p: commits of backends forked after the attach (${seen:-?} pids: ${rest:-})" \
	test "${seen:-0}" -ge 1
[ "${full:-0}" -ge 2 ] ||
	say "NOTE: record -p saw ${full:-?} of pgbench's 2 backends with all their 20 commits: events of a backend forked after the attach were missed (see above); pids seen, commits: $rest"

# 3. stat -a: the commits of a third run, counted in the kernel (other clusters' too: >=)
$FOREGROUND "$SDTRACE" stat --json -a -x "$PG_BIN/postgres" -e %postgresql:transaction__commit \
	>stat.json 2>stat.err &
sp=$!
at_exit "kill -INT $sp 2>/dev/null; wait $sp 2>/dev/null"
if check "stat -a is armed" armed "$sp"; then
	"$PG_BIN/pgbench" -n -c 2 -j 2 -t 50 >pgbench3.out 2>&1
	check_eq "pgbench -c 2 -t 50" 0 $?
fi
kill -INT "$sp"
wait "$sp"
check_eq "stat: SIGINT ends it, exit 0" 0 $?
P3=$(processed pgbench3.out)
C3=$(tail -n 1 stat.json | python3 -c '
import json, sys
print(sum(e["count"] for e in json.load(sys.stdin)["events"]))' 2>&1)
check "stat: commits counted >= transactions pgbench ran (${C3} >= ${P3:-none})" \
	test "${C3:-0}" -ge "${P3:-1}" -a "${P3:-0}" -gt 0

# the cluster stops cleanly (at_exit stops it too, when a check above ended the test early)
as_u "$PG_BIN/pg_ctl" -D "$DATA" stop -m fast -w -t 30 >pgstop.out 2>&1
check_eq "the cluster stopped" 0 $?
real_unchanged "$rp" "$rp2" "$sp"
finish
