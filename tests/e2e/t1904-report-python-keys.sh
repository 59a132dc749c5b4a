#!/bin/sh
# CPython 3.11's function__entry/return paired by their provider note's key (filename,funcname),
# on real uprobes, against sys.setprofile()'s own count of calls (the ground truth): per function
# of the script, --by filename,funcname counts exactly its calls (generator resumes included),
# the profiler's own returns (CPython fires no entry for it) pass over the open calls as counted
# mismatches instead of closing them, and a caller lasts at least as long as what it calls. Returns fired while no profiler was set (no entry) are counted as unmatched ends.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3.11
need_file "$PY"
need_cmd python3
need_tracefs
uprobes_guard
cd "$T" || exit 1

cat >app.py <<'EOF2'
import sys, collections, json
calls = collections.Counter()
def prof(frame, event, arg):
    if event == 'call':
        calls[frame.f_code.co_name] += 1
def leaf(n): return n * 2
def mid(n): return leaf(n) + leaf(n + 1)
def top(n):
    try:
        return mid(n) // (n % 3)
    except ZeroDivisionError:
        return -1
def gen():
    for i in range(3):
        yield leaf(i)
sys.setprofile(prof)
for i in range(200):
    top(i)
    list(gen())
sys.setprofile(None)
print(json.dumps({k: calls[k] for k in ('leaf', 'mid', 'top', 'gen')}))
EOF2
"$SDTRACE" record -e '%python:function__*' -- "$PY" app.py >truth.json 2>rec.err
check_eq "record: exit 0" 0 $?
"$SDTRACE" report --latency --json --by filename,funcname >l.json 2>l.err
check_eq "report --latency --by: exit 0" 0 $?
# the profiler's own returns: CPython fires no entry for it
prof=$("$SDTRACE" report --count --by funcname --json 2>/dev/null | python3 -c 'import json,sys; print(sum(c["count"] for c in json.load(sys.stdin)["counts"] if c["event"] == "python:function__return" and c["key"] == ["prof"]))')
python3 - truth.json l.json "$T/app.py" "$prof" >l.check <<'EOF2'
import json, sys
truth = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
p = [p for p in d["pairs"] if p["name"] == "python:function"][0]
g = {x["key"][1]: x for x in p["groups"] if x["key"][0] == sys.argv[3]}
for f in ("leaf", "mid", "top", "gen"):
    print(f, truth[f], g[f]["count"] if f in g else 0)
print("mismatches", 0 < p["key_mismatches"] <= int(sys.argv[4]))
print("caller-longer", g["top"]["avg_ns"] >= g["mid"]["avg_ns"] >= g["leaf"]["avg_ns"]
      and g["top"]["min_ns"] >= g["mid"]["min_ns"])
print("unmatched-ends", p["unmatched_ends"] > 0)
EOF2
for f in leaf mid top gen; do
	check "$f: the calls sys.setprofile() counted" grep -Eq "^$f ([0-9]+) \\1$" l.check
done
check "the profiler's returns (no entry) pass over the open calls: counted, never paired" \
	grep -qx 'mismatches True' l.check
check "a caller lasts at least as long as its callees" grep -qx 'caller-longer True' l.check
check "returns without an entry are counted" grep -qx 'unmatched-ends True' l.check
uprobes_unchanged
finish
