#!/bin/sh
# report --latency and the exports on CPython 3.11's markers: gc__start/gc__done (one pair per
# collection) and function__entry/function__return on a recursive script (3.11 misses most
# entries: unmatched ends): every export checked by report-check.py against report --json, and the
# counts against what the script did. uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report-lib.sh"
PY=/usr/bin/python3.11 # not `python3.11` from PATH: that may be a pyenv shim
need_file "$PY"
need_tracefs
need_cmd python3
uprobes_guard "^[p-r]:[^ ]+ $PY:"
cd "$T" || exit 1
export PYTHONHASHSEED=0

"$SDTRACE" record -o gc.data -e '%python:gc__*' -- "$PY" -c \
	'import gc; [gc.collect(g) for g in (0, 1, 2, 2, 2)]' >gc.out 2>gc.err
check_eq "record gc: exit 0" 0 $?
exports gc.data gc
check "gc latency: every gc__done matched, at least the script's 5" python3 -c '
import json
ev = [json.loads(l) for l in open("gc/events.json")]
done = sum(1 for e in ev if e["name"] == "gc__done")
p = {x["name"]: x for x in json.load(open("gc/latency.json"))["pairs"]}
assert list(p) == ["python:gc"], p
p = p["python:gc"]
assert p["count"] == done >= 5 and p["unmatched_ends"] == 0 and p["unmatched_starts"] == 0, (p, done)
'

cat >fib.py <<'EOF'
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


print(fib(8))
EOF
"$SDTRACE" record -o fn.data -e '%python:function__*' -- "$PY" fib.py >fn.out 2>fn.err
check_eq "record function__entry/return: exit 0" 0 $?
check_eq "the script ran" 21 "$(cat fn.out)"
exports fn.data fn
# CPython 3.11 fires function__return for every call but function__entry only for calls that
# go through the generic path (not for its inlined Python-to-Python calls): most returns have no
# start on their thread, which the latency must count and the timeline must leave out
check "function latency: every entry matched, every other return counted unmatched" python3 -c '
import json
ev = [json.loads(l) for l in open("fn/events.json")]
fib = sum(1 for e in ev if e["name"] == "function__return" and "fib" in e["args"])
assert fib == 67, fib
ent = sum(1 for e in ev if e["name"] == "function__entry")
ret = sum(1 for e in ev if e["name"] == "function__return")
p = {x["name"]: x for x in json.load(open("fn/latency.json"))["pairs"]}["python:function"]
assert p["count"] + p["unmatched_ends"] == ret, (p, ret)
assert p["count"] + p["unmatched_starts"] == ent, (p, ent)
o = json.load(open("fn/chrome.json"))["otherData"]
assert o["dropped_ends"] == p["unmatched_ends"] and o["closed_at_end"] == p["unmatched_starts"], o
'
check "function latency text: the unmatched ends are reported" \
	grep -q "unmatched: .* ends (no start on their thread)" fn/latency.txt
uprobes_unchanged
finish
