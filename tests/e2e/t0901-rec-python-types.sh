#!/bin/sh
# CPython 3.11 (/usr/bin/python3.11) recorded with the shipped provider types
# (share/providers/python.d): without any spec list, record names and types the arguments:
#	p:.../python_function__entry /usr/bin/python3.11:0x...(0x...) filename=+0(%bp):string
#	    funcname=+0(%r12):string lineno=%ax:s32
# and report shows funcname="leaf", report --json {"fields": {"filename", "funcname", "lineno"}}.
#
# What CPython 3.11 fires (Debian 12's build, seen here and by perf and bpftrace alike, see
# /work/shared/perf-anchor.md §4):
#  - function__return fires for every return and every yield of a Python frame; lineno is the
#    line that returns (leaf's `return x + 1`, line 6), a generator's yield line per yield.
#  - function__entry fires only while a profile or trace function is set (sys.setprofile(),
#    sys.settrace(): 3.11 reaches its DTrace entry hook on the interpreter's tracing path), and
#    then for every call and every generator resume; lineno is the `def` line of a new frame, the
#    line it resumes at for a generator. Without one, only ~5 frames of the start-up fire it
#    (frozen getpath's <genexpr>, _collections_abc's _coro, _ag, <lambda>), none of the script's.
#  - gc__start(generation) / gc__done(collected) fire once per collection, gc.collect(g) included.
# The test checks each of these with exact counts for the script's own functions.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3.11 # not `python3.11` from PATH: that may be a pyenv shim
need_file "$PY"
need_tracefs
need_cmd python3
PROVIDERS=$SRC_DIR/share/providers
need_file "$PROVIDERS/python.d"
export SDTRACE_PROVIDERS_DIR="$PROVIDERS"
export PYTHONHASHSEED=0
uprobes_guard "^[p-r]:[^ ]+ $PY:"
cd "$T" || exit 1

cat >p.py <<'EOF'
import gc
import sys


def leaf(x):
    return x + 1


def twice(x):
    return leaf(leaf(x))


class Box:
    def get(self):
        return 42


def gen(n):
    for i in range(n):
        yield i


def main():
    total = sum(twice(i) for i in range(5))
    total += Box().get()
    total += sum(gen(3))
    return total


if sys.argv[1:2] == ["profile"]:
    sys.setprofile(lambda *a: None)
print("main", main(), flush=True)
sys.setprofile(None)
gc.disable()
for g in (0, 1, 2):
    print("collect", g, gc.collect(g), flush=True)
EOF

for mode in plain profile; do
	"$SDTRACE" record -o $mode.data -x "$PY" -e '%python:function__*' -e '%python:gc__*' -- \
		sh -c "grep -F ' $PY:' $TRACEFS/uprobe_events >$mode.lines; exec $PY p.py $mode" \
		>$mode.out 2>$mode.err
	check_eq "$mode: record exits 0" 0 $?
	"$SDTRACE" report -i $mode.data --json >$mode.json 2>$mode.rerr
	check_eq "$mode: report --json exits 0" 0 $?
	"$SDTRACE" report -i $mode.data >$mode.txt 2>&1
done
if tracefs_engine; then
# the four events share one tracefs event (lib/record/tracefs/uprobe_layout.h): slots of two strings and a u64
check_eq "uprobe lines: the events share one tracefs event" 1 \
	"$(sed 's/ .*//' plain.lines | sort -u | wc -l)"
check "uprobe lines: function__entry's pointers are read as strings, lineno from a register" \
	grep -Eq ' ev=\\[0-9]+:u16( a[0-9]=(\+0\(%[a-z0-9]+\):string|%[a-z0-9]+:u64)){3} _sdt_room=\$comm$' plain.lines
check "uprobe lines: gc__start's generation in the u64 slot, the string slots empty" \
	grep -Eq ' ev=\\[0-9]+:u16( a[0-9]=(\\"":string|[^\\ ][^ ]*:u64)){3} _sdt_room=\$comm$' plain.lines
# an event alone keeps the plain form, with the .d names
"$SDTRACE" record -o alone.data -x "$PY" -e '%python:function__entry' -- \
	sh -c "grep -F ' $PY:' $TRACEFS/uprobe_events >alone.lines; exec $PY -c 1" >/dev/null 2>&1
check "uprobe lines: alone, function__entry's line carries the .d names" \
	grep -Eq '/python_function__entry .* filename=\+0\(%[a-z0-9]+\):string funcname=\+0\(%[a-z0-9]+\):string lineno=%[a-z0-9]+:s32 _sdt_room=\$comm$' alone.lines
else
	check_eq "uprobe lines ($ENGINE): none while recording" "" "$(cat plain.lines)"
fi
check "text: funcname=\"leaf\" lineno=6 on function__return" \
	grep -q 'python:function__return: filename="[^"]*/p.py" funcname="leaf" lineno=6$' plain.txt

# fired.py MODE: "name funcname lineno count" for the script's frames, after checking every
# event's keys (the ten, then fields) and that fields agree with args
cat >fired.py <<'EOF'
import collections, json, sys
TEN = ["time_ns", "cpu", "pid", "tid", "comm", "provider", "name", "path", "address", "args"]
FIELDS = {"function__entry": ["filename", "funcname", "lineno"],
          "function__return": ["filename", "funcname", "lineno"],
          "gc__start": ["generation"], "gc__done": ["collected"]}
c = collections.Counter()
for l in open(sys.argv[1] + ".json"):
    e = json.loads(l)
    assert list(e) == TEN + ["fields"], list(e)
    f = e["fields"]
    assert list(f) == FIELDS[e["name"]], f
    assert list(f.values()) == e["args"], e
    if e["name"].startswith("function"):
        assert type(f["filename"]) is str and type(f["funcname"]) is str, e
        assert type(f["lineno"]) is int, e
        if f["filename"].endswith("/p.py"):
            c[(e["name"], f["funcname"], f["lineno"])] += 1
for k in sorted(c):
    print(*k, c[k])
EOF
# expected "name funcname lineno count" lines of the script's frames, per mode
cat >returns.want <<'EOF'
function__return <genexpr> 24 6
function__return <module> 35 1
function__return Box 14 1
function__return gen 19 1
function__return gen 20 3
function__return get 15 1
function__return leaf 6 10
function__return main 27 1
function__return twice 10 5
EOF
cat >entries.want <<'EOF'
function__entry <genexpr> 24 6
function__entry gen 18 1
function__entry gen 20 3
function__entry get 14 1
function__entry leaf 5 10
function__entry main 23 1
function__entry twice 9 5
EOF
python3 fired.py plain >plain.fired 2>&1
check_eq "plain: function__return fires for every return and yield of the script" \
	"$(cat returns.want)" "$(grep '^function__return' plain.fired)"
check_eq "plain: function__entry fires for none of the script's calls (CPython 3.11)" \
	"" "$(grep -v '^function__return' plain.fired)"
say "plain: function__entry fired $(grep -c '"function__entry"' plain.json) times, for: $(
	python3 -c '
import json
print(sorted({json.loads(l)["fields"]["funcname"] for l in open("plain.json") if "\"function__entry\"" in l}))')"
python3 fired.py profile >profile.fired 2>&1
check_eq "profile: function__entry fires for every call and resume of the script" \
	"$(cat entries.want)" "$(grep '^function__entry' profile.fired)"
check_eq "profile: function__return as without it, plus the profiler's <lambda>" \
	"$(cat returns.want)" "$(grep '^function__return' profile.fired | grep -v '<lambda>')"

# gc: the script's three collections, generation and count as gc.collect returned them
if python3 - >gc.check 2>&1 <<'EOF'; then
import json
ev = [json.loads(l) for l in open("plain.json")]
gc = [e for e in ev if e["name"].startswith("gc__")]
assert [e["name"] for e in gc] == ["gc__start", "gc__done"] * (len(gc) // 2), "no alternation"
pairs = [(gc[i]["fields"]["generation"], gc[i + 1]["fields"]["collected"])
         for i in range(0, len(gc), 2)]
mine = [tuple(int(w) for w in l.split()[1:]) for l in open("plain.out") if l.startswith("collect")]
assert [g for g, _ in mine] == [0, 1, 2], mine
n = len(mine)
at = [i for i in range(len(pairs)) if pairs[i:i + n] == mine]
assert len(at) == 1, "the script's collections %s are not one run in %s" % (mine, pairs)
print("%d collections, the script's %s" % (len(pairs), mine))
EOF
	pass "gc: fields generation/collected per gc.collect(g) ($(cat gc.check))"
else
	fail "gc: fields generation/collected per gc.collect(g)" "$(cat gc.check)"
fi
uprobes_unchanged
finish
