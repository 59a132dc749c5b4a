#!/bin/sh
# One question, one answer: prog-oneq's shapes (recursion, nesting, crossing pairs, threads, a
# request handed between threads, strings of every length and byte, HotSpot-style counted
# strings, inf and nan) through every path that answers them: tracefs record -> report, BPF
# record -> report, BPF stat in the kernel, and trace. Pair counts, keys and strings must be
# equal (and the program's own counts); a pair's duration lies within the program's bounds on
# every path; where a path cannot answer (tracefs and a string past its page) it says so.
# engine: tracefs (the script names each engine itself; one run is enough)
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-oneq
need_file "$P"
need_cmd python3
need_tracefs
uprobes_guard
cd "$T" || exit 1
unset SDTRACE_ENGINE
N=20
CALL="$P:%oneq:call__*(fn:string,depth:s32)"
OP="$P:%oneq:op__*(key:s32)"
REQ="$P:%oneq:req__*(id:s64)"
TEXT="$P:%oneq:text(text:string,size:s32)"
NAME="$P:%oneq:name(name:string,name_len:s32)"
VAL="$P:%oneq:val"
ALL="-e $CALL -e $OP -e $REQ -e $TEXT -e $NAME -e $VAL"

if ! "$SDTRACE" stat --engine=bpf -e "$VAL" -- "$P" 1 >/dev/null 2>probe.err; then
	skip "the BPF engine cannot run here: $(cat probe.err)"
fi

# the recordings, each with the program's truth
for e in tracefs bpf; do
	# shellcheck disable=SC2086
	"$SDTRACE" record --engine=$e -o $e.data $ALL -- "$P" $N >$e.truth 2>$e.err
	check_eq "record --engine=$e: exit 0" 0 $?
	"$SDTRACE" report -i $e.data --json >$e.json
	"$SDTRACE" report -i $e.data --latency --by fn --json >$e.lat.json
	"$SDTRACE" report -i $e.data --latency --key id --pair-by key --json >$e.req.json 2>/dev/null
	"$SDTRACE" report -i $e.data --latency --json >$e.reqt.json
done
# trace (the default engine), live: its JSON lines among the program's own
"$SDTRACE" trace --json -e "$TEXT" -e "$NAME" -e "$VAL" -- "$P" $N >trace.out 2>trace.err
check_eq "trace: exit 0" 0 $?
grep '^{' trace.out >trace.json
# the kernel's answers
"$SDTRACE" stat --latency --by fn --json -o stat.lat.json -e "$CALL" -e "$OP" -- "$P" $N >stat.truth 2>stat.err
check_eq "stat --latency --by fn: exit 0" 0 $?
"$SDTRACE" stat --latency --key id --pair-by key --json -o stat.req.json -e "$REQ" -- "$P" $N >/dev/null 2>&1
"$SDTRACE" stat --latency --json -o stat.reqt.json -e "$REQ" -- "$P" $N >/dev/null 2>&1
"$SDTRACE" stat --by text --json -o stat.text.json -e "$TEXT" -- "$P" 1 >/dev/null 2>&1
"$SDTRACE" stat --by name --json -o stat.name.json -e "$NAME" -- "$P" 1 >/dev/null 2>&1

python3 - "$N" >check.out <<'EOF'
import json, sys
N = int(sys.argv[1])

def truth(path):
    t = {"text": [], "name": []}
    for line in open(path):
        w = line.split()
        if w[0] == "calls":
            t["calls"] = int(w[1])
        elif w[0] == "outer":
            t["outer"] = (int(w[1]), int(w[2]))
        elif w[0] in ("text", "name"):
            t[w[0]].append(bytes.fromhex(w[2] if len(w) > 2 else ""))
    return t

def load(path):
    # a path that gave no answer (an option it lacks, a failed run): no pairs, no rows
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return {"pairs": [], "rows": []}

def say(ok, what):
    print("%s %s" % ("ok" if ok else "FAIL", what))

def pair(d, name):
    p = [p for p in d["pairs"] if p["name"] == name]
    return p[0] if p else None

def groups(p, key):
    # stat: {"fn": value}; report: [value] (the --by names in order)
    return {(g["key"][key] if isinstance(g["key"], dict) else g["key"][0]): g
            for g in p.get("groups", [])} if p else {}

def within(d, b, what):
    lo, hi = b
    say(lo * 0.95 - 1000 <= d <= hi * 1.05 + 20000,
        "%s: the outermost call's %d ns within the program's bounds [%d, %d]" % (what, d, lo, hi))

paths = {
    "tracefs report": ("tracefs.lat.json", "tracefs.truth", "tracefs.req.json", "tracefs.reqt.json"),
    "bpf report": ("bpf.lat.json", "bpf.truth", "bpf.req.json", "bpf.reqt.json"),
    "bpf stat": ("stat.lat.json", "stat.truth", "stat.req.json", "stat.reqt.json"),
}
for what, (lat, tr, req, reqt) in paths.items():
    t = truth(tr)
    d = load(lat)
    call = pair(d, "oneq:call")
    g = groups(call, "fn")
    # recursion and nesting: every call timed, the outermost too
    say(call is not None and call["count"] == t["calls"],
        "%s: every call a pair (%s of %d)" % (what, call and call["count"], t["calls"]))
    say(g.get("top", {}).get("count") == 1 and g.get("fib", {}).get("count") == t["calls"] - 1,
        "%s: --by fn: top 1, fib %d (%s)" % (what, t["calls"] - 1,
                                             {k: v["count"] for k, v in g.items()}))
    if "top" in g:
        within(g["top"]["max_ns"], t["outer"], what)
        say(g["top"]["min_ns"] == g["top"]["max_ns"], "%s: one top call: min == max" % what)
    if call:
        say(call["max_ns"] >= g.get("top", {}).get("max_ns", 1 << 62),
            "%s: the pair's max is its outermost call's" % what)
    # crossing pairs on one thread, no key: they nest (1 closes 2's start, then 2 closes 1's)
    op = pair(d, "oneq:op")
    say(op is not None and op["count"] == 2 * N, "%s: crossing op pairs: %d (%s)" %
        (what, 2 * N, op and op["count"]))
    # a request handed between threads: pairs only by key
    r = pair(load(req), "oneq:req")
    say(r is not None and r["count"] == N, "%s: --pair-by key: %d requests (%s)" %
        (what, N, r and r["count"]))
    d = load(reqt)
    r = pair(d, "oneq:req")
    ends = r.get("unmatched_ends") if r and "unmatched_ends" in r else d.get("unmatched_ends")
    say(r is not None and r["count"] == 0 and ends == N,
        "%s: by thread: no request pairs, %d ends unmatched (%s, %s)" %
        (what, N, r and r["count"], ends))

# strings and floats: the reports and trace, against the program
def lines(path):
    return [json.loads(x) for x in open(path) if x.startswith("{")]

def evs(path, name):
    return [e for e in lines(path) if e["name"] == name]

def js(b):
    return b.decode("utf-8", "replace")

tt = truth("bpf.truth")
MAX = 4095  # a string's bytes the BPF engine keeps (4096 with its NUL)
texts = {}
for what, path in (("tracefs report", "tracefs.json"), ("bpf report", "bpf.json"),
                   ("trace", "trace.json")):
    ev = evs(path, "text")
    texts[what] = [e["fields"]["text"] for e in ev]
    say(len(ev) == len(tt["text"]), "%s: every text hit (%d of %d)" %
        (what, len(ev), len(tt["text"])))
    for e, b in zip(ev, tt["text"]):
        v, cut = e["fields"]["text"], e.get("truncated", {}).get("text")
        n = len(b)
        if what == "tracefs report" and cut is not None:
            # a path that cannot answer says so: a prefix, marked with its length
            say(js(b).startswith(v) and cut <= n,
                "%s: %d bytes: a prefix of %d, marked truncated (%s+ bytes)" % (what, n, len(v), cut))
            continue
        if n > MAX:
            ok = v == js(b[:MAX]) and cut is not None and MAX < cut <= n
        else:
            ok = v == js(b) and cut is None
        if n == 255:
            ok = ok and v[:127] == "".join(chr(c) for c in range(1, 128))
        say(ok, "%s: a string of %d bytes: %s" %
            (what, n, "kept" if n <= MAX else "its first %d, marked truncated" % MAX))
say(texts["bpf report"] == texts["trace"], "bpf report and trace: the same strings")
# the kernel's keys: the first 126 bytes, cut said exactly when longer
rows = load("stat.text.json")["rows"]
got = sorted((r["key"]["text"], bool(r.get("cut")), r["count"]) for r in rows)
want = {}
for b in tt["text"]:
    k = (js(b[:126]), len(b) > 126)
    want[k] = want.get(k, 0) + 1
want = sorted((k[0], k[1], c) for k, c in want.items())
say(got == want, "bpf stat --by text: keys of 126 bytes, cut exactly when longer (%d rows, %d wanted)"
    % (len(got), len(want)))
# HotSpot-style counted strings: the counted bytes, nothing after them, on every path
names = [js(b) for b in tt["name"]]
for what, path in (("tracefs report", "tracefs.json"), ("bpf report", "bpf.json"),
                   ("trace", "trace.json")):
    got = [e["fields"]["name"] for e in evs(path, "name")]
    say(got == names, "%s: counted names as counted: %s" % (what, got[:4]))
rows = load("stat.name.json")["rows"]
got = sorted((r["key"]["name"], r["count"]) for r in rows)
say(got == sorted((n, 1) for n in names), "bpf stat --by name: the counted names, no byte after: %s"
    % got)
# floats: inf, -inf and nan survive every JSON output
for what, path in (("tracefs report", "tracefs.json"), ("bpf report", "bpf.json"),
                   ("trace", "trace.json")):
    got = [e["args"][0] for e in evs(path, "val")]
    say(got == [1.5, "inf", "-inf", "nan"], "%s: floats 1.5, inf, -inf, nan: %s" % (what, got[:4]))
EOF
# past the kernel's stack: counted and said, the pairs below still timed; report times them all
"$SDTRACE" stat --latency --json -o deep.json -e "$P:%oneq:deep__*(level:s32)" -- "$P" deep 2>deep.err
check_eq "1100 deep: the kernel times 1024 pairs, says 76 starts were deeper, no end unmatched" "1024 76 0" \
	"$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1]))
print(d["pairs"][0]["count"], d["too_deep_starts"], d["unmatched_ends"])' deep.json)"
check "1100 deep: said on stderr with the way out" grep -q \
	"^sdtrace: warning: 76 starts nested more than 1024 deep on one thread and key: their pairs are not timed (record, then report --latency, times them)" deep.err
"$SDTRACE" record --engine=bpf -o deep.data -e "$P:%oneq:deep__*(level:s32)" -- "$P" deep 2>/dev/null
check_eq "1100 deep: record + report times all 1100" 1100 \
	"$("$SDTRACE" report -i deep.data --latency --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["pairs"][0]["count"])')"

# real programs: CPython's recursion by function name, the kernel against the report
PY=/usr/bin/python3.11
if [ -x "$PY" ]; then
	cat >fib.py <<'EOF2'
import sys
def prof(frame, event, arg):
    pass
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
sys.setprofile(prof)
fib(15)
sys.setprofile(None)
EOF2
	"$SDTRACE" stat --latency --by funcname --json -o py.stat.json -e '%python:function__*' -- "$PY" fib.py 2>/dev/null
	"$SDTRACE" record -o py.data -e '%python:function__*' -- "$PY" fib.py 2>/dev/null
	"$SDTRACE" report -i py.data --latency --by funcname --json >py.rep.json
	fibs() { python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
p = [p for p in d["pairs"] if p["name"] == "python:function"][0]
print([g["count"] for g in p["groups"] if (list(g["key"].values()) if isinstance(g["key"], dict) else g["key"]) == ["fib"]])' "$1"; }
	check_eq "CPython fib(15): every call a pair in the kernel, as in the report" "[1973] [1973]" \
		"$(fibs py.stat.json) $(fibs py.rep.json)"
else
	say "SKIP the CPython part: no $PY"
fi

# real programs: HotSpot's method names are counted, not NUL-terminated: no byte outside them
JVM=$(ls /usr/lib/jvm/*/lib/server/libjvm.so 2>/dev/null | head -1)
if command -v java >/dev/null && [ -n "$JVM" ]; then
	"$SDTRACE" stat --by method_name -o jvm.txt -x "$JVM" -e %hotspot:method__entry \
		-- java -XX:+ExtendedDTraceProbes -version >/dev/null 2>&1
	check "HotSpot: the method names of java -version, a row each" \
		test "$(grep -c '  method_name=' jvm.txt)" -gt 100
	check_eq "HotSpot: no byte outside printable ASCII in the names" 0 \
		"$(sed -n 's/.*  method_name=//p' jvm.txt | LC_ALL=C grep -c '[^ -~]')"
else
	say "SKIP the HotSpot part: no java"
fi

while read -r v what; do
	if [ "$v" = ok ]; then pass "$what"; else fail "$what"; fi
done <check.out
check "the checks ran to the end" grep -q 'floats 1.5, inf' check.out
uprobes_unchanged
finish
