#!/bin/sh
# report --format=perfetto on its own: the synthetic pairs recording (3 threads of 2 processes,
# nesting, recursion three deep, a pair crossing another, pairs never ended, instants) decoded by
# protoc against the committed cli/perfetto-trace.proto, and checked against what the scenario
# wrote (not against another export): slice begins and ends, instants, process and thread tracks
# with their names, every name_iid resolved through the interned data, debug annotations with
# the arguments' names and values, and the nesting depth per thread.
. "$(dirname "$0")/lib.sh"
need_cmd protoc
need_cmd python3
PAIRS=$HELPER_DIR/sdtrace-test-pairs
cd "$T" || exit 1

check "write the pairs recording" "$PAIRS" -o pairs.data pairs
check "report --format=perfetto -o" sh -c \
	'"$SDTRACE" report -i pairs.data --format=perfetto -o pairs.pftrace 2>perfetto.err'
check "the file is a Trace to protoc" sh -c 'protoc --proto_path="$0/cli" \
	--decode=perfetto.protos.Trace perfetto-trace.proto <pairs.pftrace >pairs.txt' "$SRC_DIR"
check "perfetto: the counts, names, annotations and nesting the scenario wrote" python3 - <<'EOF'
import re, sys

# protoc's text format, as nested lists of (key, value)
tok = re.compile(r'\s*(?:(\w+)\s*\{|(\w+):\s*("(?:[^"\\]|\\.)*"|\S+)|(\}))')
def parse(s):
    stack = [[]]
    for m in tok.finditer(s):
        if m.group(1):
            n = []
            stack[-1].append((m.group(1), n))
            stack.append(n)
        elif m.group(2):
            v = m.group(3)
            stack[-1].append((m.group(2), v[1:-1] if v.startswith('"') else v))
        elif m.group(4):
            stack.pop()
    return stack[0]
def get(m, k):
    return next((v for kk, v in m if kk == k), None)
def getall(m, k):
    return [v for kk, v in m if kk == k]

bad = []
def want(c, what):
    if not c:
        bad.append(what)

trace = parse(open("pairs.txt").read())
packets = getall(trace, "packet")
seq_first = next(p for p in packets if get(p, "trusted_packet_sequence_id") is not None)
want(get(seq_first, "sequence_flags") == "1", "the sequence's first packet clears its state")
want(get(get(seq_first, "trace_packet_defaults") or [], "timestamp_clock_id") == "3",
     "the defaults say CLOCK_MONOTONIC (3)")
interned = {"event_names": {}, "event_categories": {}, "debug_annotation_names": {}}
tracks, events = {}, []
for p in packets:
    for k, tab in interned.items():
        for e in getall(get(p, "interned_data") or [], k):
            tab[get(e, "iid")] = get(e, "name")
    td, te = get(p, "track_descriptor"), get(p, "track_event")
    if td is not None:
        tracks[get(td, "uuid")] = td
    if te is not None:
        want(get(p, "sequence_flags") == "2", "a track event needs the incremental state")
        name = get(te, "name_iid")
        want(name is None or name in interned["event_names"], "name_iid %s interned" % name)
        anns = {}
        for a in getall(te, "debug_annotations"):
            n = get(a, "name_iid")
            want(n in interned["debug_annotation_names"], "annotation name_iid %s interned" % n)
            anns[interned["debug_annotation_names"].get(n)] = [v for k, v in a if k != "name_iid"][0]
        events.append((get(te, "track_uuid"), get(te, "type"),
                       interned["event_names"].get(name), anns))

procs = {get(get(t, "process"), "pid"): get(get(t, "process"), "process_name")
         for t in tracks.values() if get(t, "process") is not None}
threads = {get(get(t, "thread"), "tid"): get(get(t, "thread"), "thread_name")
           for t in tracks.values() if get(t, "thread") is not None}
want(procs == {"500": "pairs-main", "600": "pairs-other"}, "process tracks: %s" % procs)
want(threads == {"500": "pairs-main", "501": "pairs-renamed", "600": "pairs-other"},
     "thread tracks: %s" % threads)
for t in tracks.values():
    th = get(t, "thread")
    if th is not None:
        parent = tracks.get(get(t, "parent_uuid"))
        want(parent is not None and get(get(parent, "process") or [], "pid") == get(th, "pid"),
             "thread %s under its process's track" % get(th, "tid"))
count = lambda ty: sum(1 for e in events if e[1] == ty)
# begins: 500 req, step, step, nested step; 501 io, req, req again after io's end (the crossing
# pair split), req /c, step; 600 fn x3, fn: 13. Every begin ends (3 never ended: at the end).
want(count("TYPE_SLICE_BEGIN") == 13, "13 slice begins, got %d" % count("TYPE_SLICE_BEGIN"))
want(count("TYPE_SLICE_END") == 13, "13 slice ends, got %d" % count("TYPE_SLICE_END"))
want(count("TYPE_INSTANT") == 4, "4 instants (3 ticks, lonely__start), got %d" %
     count("TYPE_INSTANT"))
names = sorted(set(e[2] for e in events if e[1] != "TYPE_SLICE_END"))
want(names == ["app:fn", "app:io", "app:lonely__start", "app:req", "app:step", "app:tick"],
     "event names: %s" % names)
want(len(interned["event_names"]) == len(names), "each name interned once: %s" %
     interned["event_names"])
ticks = [e[3].get("v") for e in events if e[2] == "app:tick"]
want(ticks == ["-7", "1", "2"], "tick's argument v as an annotation: %s" % ticks)
req = [e[3] for e in events if e[2] == "app:req" and e[1] == "TYPE_SLICE_BEGIN"]
want(any(a.get("url") == '/a,\\"quoted\\"' and a.get("id") == "1" for a in req),
     "req__start's id and $url as annotations: %s" % req)
want(any("sdtrace" in e[3] for e in events), "a synthetic begin or end says why (sdtrace)")
# nesting: the deepest slice stack per thread track
uuid_tid = {u: get(get(t, "thread"), "tid") for u, t in tracks.items() if get(t, "thread")}
depth, deepest = {}, {}
for e in events:
    tid = uuid_tid.get(e[0])
    want(tid is not None, "event on a thread track")
    d = depth.get(tid, 0) + {"TYPE_SLICE_BEGIN": 1, "TYPE_SLICE_END": -1}.get(e[1], 0)
    want(d >= 0, "tid %s: an end inside a slice" % tid)
    depth[tid] = d
    deepest[tid] = max(deepest.get(tid, 0), d)
want(all(d == 0 for d in depth.values()), "every slice ended: %s" % depth)
want(deepest == {"500": 3, "501": 2, "600": 3}, "nesting depth per thread: %s" % deepest)
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
EOF
check "a recording that is no recording: exit 1, no file" sh -c \
	'echo junk >junk.data; ! "$SDTRACE" report -i junk.data --format=perfetto -o junk.pftrace \
	2>/dev/null && ! test -e junk.pftrace'
finish
