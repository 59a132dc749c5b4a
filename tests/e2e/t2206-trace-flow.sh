#!/bin/sh
# trace --flow (BCC's uflow) on CPython 3.11's function__entry/return: a script whose call tree
# is known (a -> b -> c, a -> d), run under sys.setprofile() (CPython 3.11 fires function__entry
# only on its tracing path): the exact lines of those calls, each named filename.funcname (the
# provider file's key) and indented two spaces a level by the nesting of the pairs; the
# profiler's own returns (no entry) are not printed, and are counted at the end. --json gives
# each entry and return its depth.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3.11
need_file "$PY"
need_cmd python3
need_tracefs
uprobes_guard
cd "$T" || exit 1

cp "$SRC_DIR/tests/e2e/work/flow.py" app.py || exit 1
"$SDTRACE" trace --flow -e '%python:function__*' -- "$PY" app.py >flow.out 2>flow.err
check_eq "trace --flow: exit 0" 0 $?
# the lines of app.py's functions, without the time and pid/tid ("%7u/%-7u ": 16 characters)
grep -F " $T/app.py." flow.out | sed -E 's/^[0-9]+\.[0-9]{9} .{16}//' >flow.cut
A=$T/app.py
printf '%s\n' "-> $A.a" "  -> $A.b" "    -> $A.c" "    <- $A.c" "  <- $A.b" "  -> $A.d" \
	"  <- $A.d" "<- $A.a" >flow.want
check "a -> b -> c, a -> d: the exact indented lines" cmp flow.want flow.cut
[ -s flow.cut ] || say "flow.out: $(head -n 20 flow.out)"
check "the closing line: pairs, the depth, the returns with no entry" \
	grep -qE '^sdtrace: [0-9]+ returns \(pairs\), depth at most [0-9]+; .*; [1-9][0-9]* ends with no start' \
	flow.err

"$SDTRACE" trace --flow --json -e '%python:function__*' -- "$PY" app.py >flow.json 2>/dev/null
check "--json: event, depth and name of each, a duration on returns" python3 - "$A" <<'PYEOF'
import json, sys
a = sys.argv[1]
rows = [json.loads(l) for l in open("flow.json") if l.startswith("{")]
got = [(r["event"], r["depth"], r["name"]) for r in rows if r["name"].startswith(a + ".")]
want = [("entry", 0, "a"), ("entry", 1, "b"), ("entry", 2, "c"), ("return", 2, "c"),
        ("return", 1, "b"), ("entry", 1, "d"), ("return", 1, "d"), ("return", 0, "a")]
assert got == [(e, d, a + "." + n) for e, d, n in want], got
rets = [r for r in rows if r["event"] == "return" and r["name"].startswith(a + ".")]
assert all(r["pair"] == "python:function" and r["duration_ns"] > 0 for r in rets), rets
PYEOF

uprobes_unchanged
finish
