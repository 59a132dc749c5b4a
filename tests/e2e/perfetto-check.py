#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check sdtrace report --format=perfetto against --format=chrome of the same recording.

    perfetto-check.py DIR [--expect-json JSON]

DIR holds trace.pftrace and chrome.json (chrome.json is itself checked against report --json by
report-check.py). The Perfetto file is decoded by protoc (the oracle: protobuf's own parser)
against the committed subset cli/perfetto-trace.proto, then read back here independently:
interned names resolved per sequence (honouring SEQ_INCREMENTAL_STATE_CLEARED, refusing a packet
that refers to an iid not interned since), tracks by uuid with their process and thread
descriptors. Checked: every chrome B/E/i event has a Perfetto event of the same type, on the
track of the same thread, at the same time (chrome's rebased microseconds + base, in ns), with
the same name and category (begins and instants) and the same arguments; slices balance on each
track; the process and thread names equal chrome's metadata. Prints a summary line as JSON
(counts of tracks, slices, instants, names) on stdout; --expect-json checks given counts in it.
Exit 1 with one line per failed check.
"""
import decimal
import json
import os
import subprocess
import sys

errors = []


def check(cond, what):
    if not cond:
        errors.append(what)
    return cond


def parse_text(text):
    """protoc's text format -> nested lists of (key, value); a message is a list."""
    stack = [[]]
    for line in text.splitlines():
        s = line.strip()
        if not s:
            continue
        if s == "}":
            stack.pop()
            continue
        if s.endswith("{"):
            m = []
            stack[-1].append((s[:-1].strip(), m))
            stack.append(m)
            continue
        k, _, v = s.partition(": ")
        if v.startswith('"'):
            v = unescape(v[1:-1])
        stack[-1].append((k, v))
    return stack[0]


ESC = {"n": 10, "t": 9, "r": 13, "\\": 92, '"': 34, "'": 39, "a": 7, "b": 8, "f": 12, "v": 11}


def unescape(t):
    """protoc's text-format string: octal/hex escapes are bytes, other characters their UTF-8."""
    out, i = bytearray(), 0
    while i < len(t):
        c = t[i]
        if c != "\\":
            out += c.encode("utf-8")
            i += 1
            continue
        n = t[i + 1]
        if n in "01234567":
            j = i + 1
            while j < len(t) and j < i + 4 and t[j] in "01234567":
                j += 1
            out.append(int(t[i + 1:j], 8))
            i = j
        elif n == "x":
            j = i + 2
            while j < len(t) and j < i + 4 and t[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(t[i + 2:j], 16))
            i = j
        else:
            out.append(ESC.get(n, ord(n)))
            i += 2
    return out.decode("utf-8", "replace")


def get(msg, key, default=None):
    for k, v in msg:
        if k == key:
            return v
    return default


def getall(msg, key):
    return [v for k, v in msg if k == key]


def main():
    d = sys.argv[1]
    expect = None
    if len(sys.argv) > 3 and sys.argv[2] == "--expect-json":
        expect = json.loads(sys.argv[3])
    src = os.environ.get("SRC_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
    proto_dir = os.path.join(src, "cli")
    with open(os.path.join(d, "trace.pftrace"), "rb") as f:
        out = subprocess.run(["protoc", "--proto_path=" + proto_dir,
                              "--decode=perfetto.protos.Trace", "perfetto-trace.proto"],
                             stdin=f, capture_output=True, check=True).stdout.decode("utf-8")
    packets = [v for k, v in parse_text(out) if k == "packet"]
    chrome = json.load(open(os.path.join(d, "chrome.json")), parse_float=decimal.Decimal)
    base = chrome["otherData"]["base_monotonic_ns"]

    tables = None  # interned: kind -> {iid: name}; None until the state is cleared
    tracks = {}    # uuid -> descriptor
    events = []    # (uuid, ts, type, name, cat, args)
    clock_ok = False
    for p in packets:
        cs = get(p, "clock_snapshot")
        if cs is not None:
            clock_ok = get(cs, "primary_trace_clock") == "BUILTIN_CLOCK_MONOTONIC"
            continue
        flags = int(get(p, "sequence_flags", "0"))
        if flags & 1:
            check(get(p, "trusted_packet_sequence_id") == "1", "a reset packet has sequence id 1")
            dflt = get(p, "trace_packet_defaults")
            check(dflt is not None and get(dflt, "timestamp_clock_id") == "3",
                  "a reset gives timestamp_clock_id 3 (monotonic) as the default")
            tables = {"event_names": {}, "event_categories": {}, "debug_annotation_names": {}}
        td = get(p, "track_descriptor")
        if td is not None:
            tracks[get(td, "uuid")] = td
            continue
        te = get(p, "track_event")
        if te is None:
            continue
        if not check(tables is not None and flags & 2, "an event packet needs incremental state"):
            continue
        for kind, msgs in get(p, "interned_data", []) or []:
            it = tables.get(kind)
            if check(it is not None, "interned " + kind + " is known"):
                iid = get(msgs, "iid")
                check(iid not in it, "iid %s interned once in %s" % (iid, kind))
                it[iid] = get(msgs, "name")
        check(get(te, "track_uuid") in tracks, "the track of an event was described before it")

        def name_of(kind, iid):
            if iid is None:
                return None
            check(iid in tables[kind], "%s iid %s was interned" % (kind, iid))
            return tables[kind].get(iid)
        cats = getall(te, "category_iids")
        args = {}
        for a in getall(te, "debug_annotations"):
            n = name_of("debug_annotation_names", get(a, "name_iid"))
            for k, v in a:
                if k.endswith("_value"):
                    args[n] = (k, v)
        events.append((get(te, "track_uuid"), int(get(p, "timestamp")), get(te, "type"),
                       name_of("event_names", get(te, "name_iid")),
                       name_of("event_categories", cats[0]) if cats else None, args))
    check(clock_ok, "a clock snapshot makes MONOTONIC the trace's clock")

    # tracks: thread -> uuid, names
    thread_uuid = {}
    names = {"process": {}, "thread": {}}
    for uuid, td in tracks.items():
        th, pr = get(td, "thread"), get(td, "process")
        if th is not None:
            thread_uuid[int(get(th, "tid"))] = uuid
            if get(th, "thread_name") is not None:
                names["thread"][int(get(th, "tid"))] = get(th, "thread_name")
            check(get(td, "parent_uuid") in tracks or get(th, "pid") == "0",
                  "thread track %s has its process's track as parent" % uuid)
        elif check(pr is not None, "track %s is a process's or a thread's" % uuid):
            if get(pr, "process_name") is not None:
                names["process"][int(get(pr, "pid"))] = get(pr, "process_name")

    # chrome's events, in order per thread, against perfetto's
    want_names = {"process": {}, "thread": {}}
    per_thread = {}
    for e in chrome["traceEvents"]:
        if e["ph"] == "M":
            want_names["process" if e["name"] == "process_name" else "thread"][
                e["pid"] if e["name"] == "process_name" else e["tid"]] = e["args"]["name"]
            continue
        per_thread.setdefault(e["tid"], []).append(e)
    check(names == want_names, "process and thread names as chrome's metadata: %s vs %s" %
          (names, want_names))
    got_thread = {}
    for ev in events:
        got_thread.setdefault(ev[0], []).append(ev)
    types = {"B": "TYPE_SLICE_BEGIN", "E": "TYPE_SLICE_END", "i": "TYPE_INSTANT"}
    for tid, want in per_thread.items():
        got = got_thread.get(thread_uuid.get(tid), [])
        if not check(len(got) == len(want), "tid %d: %d events, chrome has %d" %
                     (tid, len(got), len(want))):
            continue
        depth = 0
        for w, g in zip(want, got):
            ts = base + int(decimal.Decimal(w["ts"]) * 1000)
            what = "tid %d %s %s at %s" % (tid, w["ph"], w["name"], w["ts"])
            check(g[2] == types[w["ph"]], what + ": type " + str(g[2]))
            check(g[1] == ts, what + ": timestamp %d, chrome's %d" % (g[1], ts))
            if w["ph"] != "E":
                check(g[3] == w["name"], what + ": name " + str(g[3]))
                check(g[4] == w["cat"], what + ": category " + str(g[4]))
            for k, v in w.get("args", {}).items():
                gv = g[5].get(k)
                if not check(gv is not None, what + ": argument " + k):
                    continue
                kind, val = gv
                if v is None and kind == "double_value":
                    # JSON has no NaN or infinities: chrome writes null, a protobuf double
                    # carries them
                    check(val.lower().lstrip("-") in ("nan", "inf"),
                          what + ": " + k + " NaN or an infinity, not " + val)
                elif v is None:
                    check(val == "<unavailable>", what + ": " + k + " unavailable")
                elif isinstance(v, str) and v in ("nan", "inf", "-inf") and kind == "double_value":
                    # chrome's JSON spells the non-finite doubles as strings (sdtrace-report(1))
                    check(val.lower() == v, what + ": %s %s vs %s" % (k, val, v))
                elif isinstance(v, str):
                    check(kind == "string_value" and val == v, what + ": %s %r vs %r" %
                          (k, val, v))
                elif isinstance(v, bool) or isinstance(v, int):
                    check(kind in ("int_value", "uint_value") and int(val) == v,
                          what + ": %s %s vs %s" % (k, val, v))
                else:
                    check(kind == "double_value" and
                          abs(float(val) - float(v)) <= 1e-9 * abs(float(v)),
                          what + ": %s %s vs %s" % (k, val, v))
            check(len(g[5]) == len(w.get("args", {})), what + ": as many arguments")
            depth += {"B": 1, "E": -1, "i": 0}[w["ph"]]
            check(depth >= 0, what + ": an end inside a slice")
        check(depth == 0, "tid %d: every slice ended" % tid)
    extra = set(got_thread) - {thread_uuid.get(t) for t in per_thread}
    check(not extra, "no events on tracks chrome has none for: %s" % extra)

    summary = {
        "tracks": len(tracks),
        "process_tracks": sum(1 for t in tracks.values() if get(t, "process") is not None),
        "thread_tracks": sum(1 for t in tracks.values() if get(t, "thread") is not None),
        "slices": sum(1 for e in events if e[2] == "TYPE_SLICE_BEGIN"),
        "ends": sum(1 for e in events if e[2] == "TYPE_SLICE_END"),
        "instants": sum(1 for e in events if e[2] == "TYPE_INSTANT"),
        "slice_names": {},
        "instant_names": {},
        "process_names": sorted(set(names["process"].values())),
        "thread_names": sorted(set(names["thread"].values())),
    }
    for e in events:
        k = {"TYPE_SLICE_BEGIN": "slice_names", "TYPE_INSTANT": "instant_names"}.get(e[2])
        if k:
            summary[k][e[3]] = summary[k].get(e[3], 0) + 1
    print(json.dumps(summary, sort_keys=True))
    if expect:
        for k, v in expect.items():
            check(summary.get(k) == v, "expected %s = %s, got %s" % (k, v, summary.get(k)))
    for e in errors[:50]:
        print("perfetto-check: FAIL: " + e, file=sys.stderr)
    if errors:
        print("perfetto-check: %d failed checks" % len(errors), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
