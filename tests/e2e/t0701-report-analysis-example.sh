#!/bin/sh
# report --latency, --format=chrome and --format=csv on a real recording of the bundled example
# (example:job__start/job__done pairs, tick and debug in between): every export checked by
# report-check.py against report --json, the latency of each job against the duration the
# program measured itself (job__done's third argument), and --pair naming the same pair.
# uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report-lib.sh"
need_tracefs
need_cmd python3
EX=$BUILD_DIR/examples/sdt-example
need_file "$EX"
uprobes_guard "^[p-r]:[^ ]+ $EX:"
cd "$T" || exit 1

"$SDTRACE" record $(lsan_no_follow "$EX") -o ex.data -x "$EX" -e '%example:*' -- "$EX" 12 >ex.out 2>ex.err
check_eq "record the example: exit 0" 0 $?
check_eq "the example ran 12 jobs" 12 "$(grep -c '^job ' ex.out)"
exports ex.data auto
exports ex.data pair --pair '%example:job__start,%example:job__done'

check "latency: one pair, example:job, 12 matched, nothing unmatched" python3 -c '
import json
p = json.load(open("auto/latency.json"))["pairs"]
assert [x["name"] for x in p] == ["example:job"], p
p = p[0]
assert (p["count"], p["unmatched_starts"], p["unmatched_ends"]) == (12, 0, 0), p
q = json.load(open("pair/latency.json"))["pairs"]
assert [x["name"] for x in q] == ["%example:job__start,%example:job__done"], q
for k in ("count", "min_ns", "max_ns", "p50_ns", "p90_ns", "p99_ns", "histogram"):
    assert q[0][k] == p[k], (k, q[0][k], p[k])
'
# the program times each job between two clock_gettime calls around the probes: the probes'
# latency is that duration give or take the probe hits (microseconds) and preemption
check "latency: each job close to the duration the program measured" python3 -c '
import json
ev = [json.loads(l) for l in open("auto/events.json")]
start = {e["args"][0]: e["time_ns"] for e in ev if e["name"] == "job__start"}
n = 0
for e in ev:
    if e["name"] != "job__done":
        continue
    d = (e["time_ns"] - start[e["args"][0]]) / 1e9
    s = e["args"][2]
    assert 0.5 * s - 50e-6 <= d <= 2 * s + 2e-3, (e["args"], d, s)
    n += 1
assert n == 12
'
check "chrome: 12 job slices, tick and debug as instants, the example named" python3 -c '
import json
t = json.load(open("auto/chrome.json"))["traceEvents"]
assert sum(1 for e in t if e["ph"] == "B" and e["name"] == "example:job") == 12
assert sum(1 for e in t if e["ph"] == "i" and e["name"] == "example:tick") == 12
m = [e for e in t if e["ph"] == "M"]
assert {e["name"] for e in m} == {"process_name", "thread_name"}, m
assert all(e["args"]["name"] == "sdt-example" for e in m), m
'
check "latency text: the pair and its histogram" grep -q '^example:job  (example:job__start -> example:job__done)' auto/latency.txt
uprobes_unchanged
finish
