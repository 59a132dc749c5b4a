#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check sdtrace report's analyses and exports against the events of the same recording.

    report-check.py DIR [--pair START,END]...

DIR holds, made from one recording by the e2e test:
    events.json   report --json          (the reference: every event, in file order)
    stats.json    report --stats --json  (every event kind, also those that never fired)
    latency.json  report --latency --json
    chrome.json   report --format=chrome
    events.csv    report --format=csv

The pairing rules are implemented again here, independently (a stack per thread; an end takes
the most recent open start of its pair on its thread), and every output is checked against them:
chrome's B/E nesting per thread, counts, values, fixed-point rebased timestamps, metadata names;
latency counts, min/max exact, percentiles within the stated precision and ordered, histogram sums;
CSV rows and values. Prints one line per failed check and exits 1 if any failed; prints a summary.
"""
import csv
import fnmatch
import json
import math
import re
import sys

errors = []


def check(cond, what):
    if not cond:
        errors.append(what)
    return cond


START_SUFFIXES = ["__start", "__begin", "__entry", "_start"]
END_SUFFIXES = ["__done", "__end", "__return", "_end"]


def auto_role(name):
    for s in START_SUFFIXES:
        if len(name) > len(s) and name.endswith(s):
            return "start", name[: -len(s)]
    for s in END_SUFFIXES:
        if len(name) > len(s) and name.endswith(s):
            return "end", name[: -len(s)]
    return None, None


def spec_match(spec, provider, name):
    spec = spec[1:] if spec.startswith("%") else spec
    prov, _, ev = spec.partition(":")
    ev = ev or "*"
    provs = [provider, "sdt_" + provider]
    return any(fnmatch.fnmatchcase(p, prov) for p in provs) and fnmatch.fnmatchcase(name, ev)


def classifier(kinds, pairs):
    """(provider, name) -> (pair name, role) or None."""
    roles = {}
    if pairs:
        for (p, n) in kinds:
            for s, e in pairs:
                if spec_match(s, p, n):
                    roles[(p, n)] = (s + "," + e, "start")
                    break
                if spec_match(e, p, n):
                    roles[(p, n)] = (s + "," + e, "end")
                    break
        return roles
    sides = {}
    for (p, n) in kinds:
        role, stem = auto_role(n)
        if role:
            sides.setdefault((p, stem), set()).add(role)
            roles[(p, n)] = ("%s:%s" % (p, stem), role)
    return {k: v for k, v in roles.items()
            if sides[(k[0], v[0].split(":", 1)[1])] == {"start", "end"}}


def nearest_rank(sorted_vals, pct):
    rank = max(1, math.ceil(pct / 100.0 * len(sorted_vals)))
    return sorted_vals[rank - 1]


def main():
    d = sys.argv[1]
    pairs = []
    args = sys.argv[2:]
    while args:
        if args[0] == "--pair":
            s, e = args[1].split(",", 1)
            pairs.append((s, e))
            args = args[2:]
        else:
            sys.exit("report-check.py: bad argument " + args[0])

    events_in_file = [json.loads(l) for l in open(d + "/events.json")]
    # the analyses take events in time order (a recording holds them as the rings were drained)
    events = sorted(events_in_file, key=lambda e: e["time_ns"])
    stats = json.load(open(d + "/stats.json"))
    kinds = [(k["provider"], k["name"]) for k in stats["events"]]
    check(stats["total"] == len(events), "stats total %d == events %d" % (stats["total"], len(events)))
    roles = classifier(kinds, pairs)

    # ---- the reference pairing ----------------------------------------------------------
    stacks = {}  # tid -> [(pair, start_ns)]
    durations = {}  # pair -> [ns]
    unmatched_s, unmatched_e = {}, {}
    expect = []  # per event: "B", "E", "i" or "drop"
    for ev in events:
        r = roles.get((ev["provider"], ev["name"]))
        if not r:
            expect.append("i")
            continue
        pair, role = r
        st = stacks.setdefault(ev["tid"], [])
        if role == "start":
            st.append((pair, ev["time_ns"]))
            expect.append("B")
            continue
        for i in range(len(st) - 1, -1, -1):
            if st[i][0] == pair:
                durations.setdefault(pair, []).append(max(0, ev["time_ns"] - st[i][1]))
                del st[i]
                expect.append("E")
                break
        else:
            unmatched_e[pair] = unmatched_e.get(pair, 0) + 1
            expect.append("drop")
    for st in stacks.values():
        for pair, _ in st:
            unmatched_s[pair] = unmatched_s.get(pair, 0) + 1
    active = set(p for p, _ in roles.values())

    # ---- latency --------------------------------------------------------------------------
    lat = json.load(open(d + "/latency.json"))
    got = {p["name"]: p for p in lat["pairs"]}
    check(set(got) == active, "latency pairs %s == expected %s" % (sorted(got), sorted(active)))
    for name, p in got.items():
        vals = sorted(durations.get(name, []))
        check(p["count"] == len(vals), "%s: count %d == matched pairs %d" % (name, p["count"], len(vals)))
        check(p["unmatched_starts"] == unmatched_s.get(name, 0),
              "%s: unmatched_starts %d == %d" % (name, p["unmatched_starts"], unmatched_s.get(name, 0)))
        check(p["unmatched_ends"] == unmatched_e.get(name, 0),
              "%s: unmatched_ends %d == %d" % (name, p["unmatched_ends"], unmatched_e.get(name, 0)))
        check(sum(b["count"] for b in p["histogram"]) == p["count"],
              "%s: histogram buckets sum to the count" % name)
        for b in p["histogram"]:
            n = sum(1 for v in vals if b["low_ns"] <= v < b["high_ns"])
            check(b["count"] == n, "%s: bucket [%d, %d) %d == %d" % (name, b["low_ns"], b["high_ns"], b["count"], n))
        if not vals:
            check(p["min_ns"] is None and p["p50_ns"] is None, "%s: no numbers without pairs" % name)
            continue
        check(p["min_ns"] == vals[0] and p["max_ns"] == vals[-1],
              "%s: min/max %s/%s == %d/%d" % (name, p["min_ns"], p["max_ns"], vals[0], vals[-1]))
        check(abs(p["avg_ns"] - sum(vals) / len(vals)) <= 0.01 * max(1, sum(vals) / len(vals)),
              "%s: avg %s ~ %s" % (name, p["avg_ns"], sum(vals) / len(vals)))
        check(p["min_ns"] <= p["p50_ns"] <= p["p90_ns"] <= p["p99_ns"] <= p["max_ns"],
              "%s: min <= p50 <= p90 <= p99 <= max: %s" % (name, p))
        for key, pct in (("p50_ns", 50), ("p90_ns", 90), ("p99_ns", 99)):
            want = nearest_rank(vals, pct)
            ok = p[key] == want if want < 128 else abs(p[key] - want) * 128 <= want
            check(ok, "%s: %s %d within 1/128 of %d" % (name, key, p[key], want))

    # ---- chrome ---------------------------------------------------------------------------
    raw = open(d + "/chrome.json").read()
    doc = json.loads(raw)
    tes = doc["traceEvents"]
    check(not re.search(r'"ts":[^,}]*[eE]', raw), "chrome: no exponent in any ts")
    tss = re.findall(r'"ts":([^,}]*)', raw)
    check(all(re.fullmatch(r"\d+\.\d{3}", t) for t in tss), "chrome: every ts is fixed-point, 3 decimals")
    other = doc["otherData"]
    nmeta = sum(1 for t in tes if t["ph"] == "M")
    real = [t for t in tes if t["ph"] != "M" and "sdtrace" not in t.get("args", {})]
    synth = [t for t in tes if t["ph"] != "M" and "sdtrace" in t.get("args", {})]
    check(len(real) + expect.count("drop") == len(events),
          "chrome: events %d + dropped %d == report --json's %d" % (len(real), expect.count("drop"), len(events)))
    check(other["events"] == len(events), "chrome: otherData.events == %d" % len(events))
    check(other["dropped_ends"] == expect.count("drop"), "chrome: dropped_ends == %d" % expect.count("drop"))
    check(other["instants"] == expect.count("i"), "chrome: instants == %d" % expect.count("i"))
    check(other["closed_at_end"] == sum(unmatched_s.values()), "chrome: closed_at_end == unmatched starts")
    base = other["base_monotonic_ns"]
    check(not events or 0 <= events[0]["time_ns"] - base, "chrome: rebased, first ts >= 0")
    # event by event, in order
    it = iter(real)
    for ev, ph in zip(events, expect):
        if ph == "drop":
            continue
        t = next(it, None)
        if not check(t is not None, "chrome: an event for every recorded one"):
            break
        want_ts = "%d.%03d" % divmod(ev["time_ns"] - base, 1000)
        r = roles.get((ev["provider"], ev["name"]))
        want_name = r[0] if r else "%s:%s" % (ev["provider"], ev["name"])
        ok = (t["ph"] == ph and t["pid"] == ev["pid"] and t["tid"] == ev["tid"] and
              t["name"] == want_name and (ph != "i" or t.get("s") == "t") and
              list(t["args"].values()) == ev["args"] and
              abs(t["ts"] - float(want_ts)) < 0.0005)
        check(ok, "chrome: %s matches %s (ts %s)" % (t, ev, want_ts))
    # nesting, monotonic time and names per thread, in file order
    named_tids = set(ev["tid"] for ev in events if ev["comm"] is not None)
    open_ = {}
    last_ts = {}
    tname, pname = {}, {}
    comm_of = {}
    for t in tes:
        if t["ph"] == "M":
            (tname if t["name"] == "thread_name" else pname)[t["tid"] if t["name"] == "thread_name" else t["pid"]] = t["args"]["name"]
            continue
        key = (t["pid"], t["tid"])
        check(t["ts"] >= last_ts.get(key, 0), "chrome: ts monotonic on %s at %s" % (key, t))
        last_ts[key] = t["ts"]
        st = open_.setdefault(key, [])
        if t["ph"] == "B":
            st.append(t["name"])
        elif t["ph"] == "E":
            if check(st and st[-1] == t["name"], "chrome: E %s closes the innermost B on %s (%s)" % (t["name"], key, st)):
                st.pop()
        # a thread the recording has no name for (no comm) has no metadata: Perfetto numbers it
        if t["tid"] in named_tids:
            if check(t["tid"] in tname, "chrome: thread %d named before its events" % t["tid"]):
                comm_of.setdefault(t["tid"], set()).add(tname[t["tid"]])
            check(t["pid"] in pname, "chrome: process %d named before its events" % t["pid"])
    check(all(not s for s in open_.values()), "chrome: every B has its E at the end: %s" % open_)
    for ev in events:
        if ev["comm"] is not None:
            check(ev["comm"] in comm_of.get(ev["tid"], ()), "chrome: thread name %r of %d" % (ev["comm"], ev["tid"]))
            if ev["pid"] == ev["tid"]:
                check(pname.get(ev["pid"]) is not None, "chrome: process name of %d" % ev["pid"])
    check(len(synth) == 2 * other["split"] + other["closed_at_end"],
          "chrome: synthetic events are splits and ends at the end (%d)" % len(synth))

    # ---- csv ------------------------------------------------------------------------------
    with open(d + "/events.csv", newline="") as f:
        rows = list(csv.reader(f))
    head, rows = rows[0], rows[1:]
    nargs = max([len(ev["args"]) for ev in events] + [0])
    check(head[:10] == ["time_ns", "time_us", "cpu", "pid", "tid", "comm", "provider", "name", "path", "address"],
          "csv: header %s" % head)
    check(len(head) == 10 + nargs, "csv: %d argument columns (the widest event)" % nargs)
    check(len(rows) == len(events), "csv: %d rows == %d events" % (len(rows), len(events)))
    for row, ev in zip(rows, events_in_file):
        ok = (len(row) == len(head) and int(row[0]) == ev["time_ns"] and int(row[3]) == ev["pid"] and
              int(row[4]) == ev["tid"] and row[5] == (ev["comm"] or "") and row[6] == ev["provider"] and
              row[7] == ev["name"] and re.fullmatch(r"\d+\.\d{3}", row[1]))
        for i in range(nargs):
            cell = row[10 + i] if len(row) > 10 + i else None
            a = ev["args"][i] if i < len(ev["args"]) else None
            if a is None:  # not recorded, or a NaN/infinity (JSON has none)
                ok = ok and cell in ("", "nan", "inf", "-inf")
            elif isinstance(a, bool) or isinstance(a, str):
                ok = ok and cell == a
            elif isinstance(a, int):
                ok = ok and (cell == str(a) or (cell.startswith("0x") and int(cell, 16) == a))
            else:
                ok = ok and cell != "" and float(cell) == a
        check(ok, "csv: row %s == event %s" % (row, ev))

    print("report-check: %d events, %d pairs (%s), %d matched, %d unmatched starts, %d unmatched ends, "
          "%d chrome events, %d metadata, %d csv rows: %d problems"
          % (len(events), len(active), ", ".join(sorted(active)), sum(len(v) for v in durations.values()),
             sum(unmatched_s.values()), sum(unmatched_e.values()), len(tes), nmeta, len(rows), len(errors)))
    for e in errors[:30]:
        print("FAIL:", e[:600])
    sys.exit(1 if errors else 0)


main()
