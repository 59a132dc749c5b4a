# SPDX-License-Identifier: MIT
"""The Python module against the command: recordings of tests/progs programs (and the bundled
example, for pairs) read through `import sdtrace` and through `sdtrace report`.

Run by CTest (python/pytest: tests/CMakeLists.txt), which sets SDTRACE (the build tree's command),
SDTRACE_LIBRARY (its libsdtrace.so.0), PROGS_DIR and BUILD_DIR. Recording places uprobes: root
and tracefs, else the recording tests SKIP (said loudly by pytest -rs).
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys

import pytest

import sdtrace

SDTRACE = os.environ.get("SDTRACE", "sdtrace")
PROGS = os.environ.get("PROGS_DIR", "")
BUILD = os.environ.get("BUILD_DIR", "")


def can_record():
    if os.geteuid() != 0:
        return "not root: recording places uprobes"
    if not os.path.exists("/sys/kernel/tracing/uprobe_events"):
        return "no tracefs at /sys/kernel/tracing"
    return None


needs_record = pytest.mark.skipif(can_record() is not None, reason=str(can_record()))


def run(*args, **kw):
    return subprocess.run([SDTRACE, *args], check=True, capture_output=True, text=True, **kw)


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    d = tmp_path_factory.mktemp("sdtrace-py")
    # the cache of a recording's lookups: never the real ~/.debug
    os.environ["SDTRACE_CACHE_DIR"] = str(d / "cache")
    os.environ["HOME"] = str(d)
    return d


def record(tmp, name, events, cmd, *opts):
    out = tmp / (name + ".data")
    args = ["record", *opts, "-o", str(out)]
    for e in events:
        args += ["-e", e]
    run(*args, "--", *cmd)
    return out


@pytest.fixture(scope="module")
def sizes(tmp):
    """prog-sizes: every integer size and sign at its extremes; -g: stacks."""
    return record(tmp, "sizes", ["%sizes:*"], [os.path.join(PROGS, "prog-sizes"), "3"], "-g")


@pytest.fixture(scope="module")
def floats(tmp):
    return record(tmp, "floats", ["%float:*"], [os.path.join(PROGS, "prog-float"), "2"])


@pytest.fixture(scope="module")
def strings(tmp):
    """prog-string: a counted string (msg, msg_len: the count cuts it) and a literal, typed."""
    return record(tmp, "strings", ["%string:message(msg:string, msg_len:s32)",
                                   "%string:literal(text:string)"],
                  [os.path.join(PROGS, "prog-string"), "3"])


@pytest.fixture(scope="module")
def longstr(tmp):
    """prog-longstr: strings of 4095 to 10000 bytes (truncated ones), text that is not UTF-8."""
    return record(tmp, "longstr", ["%str:text(s:string, n:s32)", "%str:utf8(s:string, n:s32)"],
                  [os.path.join(PROGS, "prog-longstr"), "1"])


@pytest.fixture(scope="module")
def longdouble(tmp):
    return record(tmp, "longdouble", ["%longdouble:*"],
                  [os.path.join(PROGS, "prog-longdouble"), "2"])


@pytest.fixture(scope="module")
def synthetic(tmp):
    """tests/helper's writer, no root needed: integers at their extremes, floats with NaN and
    infinities, strings with quotes, control and non-UTF-8 bytes, one not read, arguments not
    recorded, an address immediate."""
    out = tmp / "synthetic.data"
    subprocess.run([os.path.join(BUILD, "tests", "helper", "sdtrace-test-write"), "-o", str(out),
                    "ints", "floats", "strings", "unavailable", "rebase"], check=True)
    return out


@pytest.fixture(scope="module")
def jobs(tmp):
    """The bundled example: job__start/job__done pairs, a typed string argument."""
    return record(tmp, "jobs", ["%example:job__start(id, name:string, prio)",
                                "%example:job__done", "%example:tick"],
                  [os.path.join(BUILD, "examples", "sdt-example"), "12"])


def report_json(path):
    out = run("report", "-i", str(path), "--json").stdout
    return [json.loads(line) for line in out.splitlines()]


def as_json(v):
    """A value of the module as report --json writes it: JSON has no NaN or infinities (it
    writes "nan", "inf", "-inf"), nor bytes that are not UTF-8 (U+FFFD for each; the module
    keeps them as surrogate escapes, so that str.encode("utf-8", "surrogateescape") gives the
    recorded bytes back)."""
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return "nan" if math.isnan(v) else "inf" if v > 0 else "-inf"
    if isinstance(v, str):
        return re.sub("[\udc80-\udcff]", "\ufffd", v)
    return v


def same(a, b):
    """The module's value @a is report --json's @b: the same type and value (-0.0 too)."""
    a = as_json(a)
    if isinstance(a, float) and isinstance(b, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b and type(a) is type(b)


def check_events(path):
    """Every event of the module (file order) against report --json's, field for field."""
    want = report_json(path)
    got = list(sdtrace.Recording(path))
    # both in the file's order
    assert len(got) == len(want) > 0
    for g, w in zip(got, want):
        assert g.time_ns == w["time_ns"]
        assert g.cpu == w["cpu"]
        assert g.pid == w["pid"] and g.tid == w["tid"]
        assert g.comm == w["comm"]
        assert (g.provider, g.name) == (w["provider"], w["name"])
        assert g.address == w.get("address")
        vals = list(g.args.values())
        assert len(vals) == len(w["args"])
        for a, b in zip(vals, w["args"]):
            assert same(a, b), (g, w)
        if "fields" in w:
            assert list(w["fields"]) == [n for n in g.args if n in w["fields"]]
            for n, b in w["fields"].items():
                assert same(g.args[n], b), (n, g, w)
        # the recorded walk is report's chain here: prog-sizes' probes are in functions with
        # frames, nothing inlined (Event.stack says when they differ)
        assert ["0x%x" % ip for ip in g.stack] == w.get("stack", [])
        assert (g.stack_id != 0) == bool(g.stack)
        assert g.truncated == w.get("truncated", {}), (g, w)
    return got


def check_frame(path):
    """to_pandas() holds the values of the events in time order: its own code path (columns
    from the batches) against iteration's (objects from them)."""
    import pandas as pd

    df = sdtrace.Recording(path).to_pandas()
    evs = list(sdtrace.Recording(path).events(time_order=True))
    assert len(df) == len(evs) > 0
    assert list(df["time_ns"]) == [e.time_ns for e in evs]
    assert list(df["event"]) == [e.event for e in evs]
    assert list(df["comm"]) == [e.comm for e in evs]
    for i, e in enumerate(evs):
        for name, v in e.args.items():
            d = df[name if name not in sdtrace.COLUMNS else "arg_" + name].iloc[i]
            if v is None:
                assert d is None or pd.isna(d), (i, name, d)
            elif isinstance(v, float):
                assert isinstance(d, float), (i, name, d)
                assert (math.isnan(v) and math.isnan(d)) or \
                    (v == d and math.copysign(1, v) == math.copysign(1, d)), (i, name, d, v)
            else:
                assert d == v and isinstance(d, str) == isinstance(v, str), (i, name, d, v)


def test_values_match_report_json_synthetic(synthetic):
    got = check_events(synthetic)
    by = {}
    for g in got:
        by.setdefault(g.event, []).append(g)
    # what the recording holds, so that the comparison above is not of two empty lists
    assert {"test:ints", "test:floats", "test:strings", "test:unavailable"} <= set(by)
    floats = [v for g in by["test:floats"] for v in g.args.values()]
    assert any(math.isnan(v) for v in floats) and math.inf in floats and -math.inf in floats
    strs = [g.args["arg1"] for g in by["test:strings"]]
    assert None in strs and "" in strs and "caf\udce9 \udcff" in strs
    assert any(v is None for g in by["test:unavailable"] for v in g.args.values())
    check_frame(synthetic)


@needs_record
@pytest.mark.parametrize("which", ["sizes", "floats", "jobs", "strings", "longstr",
                                   "longdouble"])
def test_events_match_report_json(which, request):
    path = request.getfixturevalue(which)
    got = check_events(path)
    if which == "longstr":
        # strings the kernel did not hand back whole: their first bytes, and how long they were
        cut = [g for g in got if g.truncated]
        assert len(cut) >= 3 and all(len(g.args["s"]) < g.truncated["s"] <= g.args["n"] + 1
                                     for g in cut)
        assert any("\udcff" in g.args["s"] for g in got if g.name == "utf8")
    if which == "strings":
        assert all(g.args["msg"] is None or len(g.args["msg"]) == g.args["msg_len"]
                   for g in got if g.name == "message")
        assert any(isinstance(g.args.get("text"), str) for g in got)
    if which == "longdouble":
        assert [g.args["arg1"] for g in got] == [2.5, 2.5]
    check_frame(path)


@needs_record
def test_stack_ids(sizes):
    evs = list(sdtrace.Recording(sizes))
    by_id = {}
    for e in evs:
        assert e.stack_id and e.stack
        by_id.setdefault(e.stack_id, set()).add(e.stack)
    # equal stacks have equal ids, and one id is one stack
    assert all(len(s) == 1 for s in by_id.values())
    assert len({next(iter(s)) for s in by_id.values()}) == len(by_id)


@needs_record
def test_dataframe_dtypes(sizes, jobs):
    df = sdtrace.Recording(sizes).to_pandas()
    assert len(df) == 9
    fixed = {"time_ns": "uint64", "cpu": "uint32", "pid": "uint32", "tid": "uint32",
             "comm": "object", "event": "category", "stack_id": "uint32"}
    for c, t in fixed.items():
        assert str(df[c].dtype) == t, c
    # s8 u8 s16 u16 s32 u32 s64 u64: signed columns int64, unsigned uint64, exact extremes
    for i, t in enumerate(["int64", "uint64"] * 4):
        assert str(df["arg%d" % (i + 1)].dtype) == t, df.dtypes
    mins = df[df["event"] == "sizes:min"].iloc[0]
    assert mins["arg7"] == -2**63 and mins["arg8"] == 2**64 - 1
    assert df["time_ns"].is_monotonic_increasing
    assert [e.time_ns for e in sdtrace.Recording(sizes).events(time_order=True)] == \
        list(df["time_ns"])

    one = sdtrace.Recording(jobs).to_pandas(event="example:job__start")
    assert list(one.columns)[7:] == ["id", "name", "prio"]
    assert (str(one["id"].dtype), str(one["name"].dtype), str(one["prio"].dtype)) == \
        ("uint64", "object", "int64")
    # a string the kernel could not read (its page not in yet) is None, as report gives null
    names = ["fetch", "parse", "index", "compress", "upload"]
    got = list(one["name"])
    assert all(n is None or n == names[i % 5] for i, n in enumerate(got)), got
    assert sum(n is not None for n in got) >= len(got) // 2, got
    done = sdtrace.Recording(jobs).to_pandas(event="example:job__done")
    assert str(done["arg3"].dtype) == "float64"
    # every kind at once: a column some kinds lack is nullable
    every = sdtrace.Recording(jobs).to_pandas()
    assert str(every["name"].dtype) == "object" and every["name"].isna().any()
    assert str(every["prio"].dtype) == "Int64"
    assert set(every["event"].cat.categories) >= {"example:job__start", "example:job__done"}


@needs_record
def test_latency_equals_report(jobs):
    rec = sdtrace.Recording(jobs)
    pairs = rec.latency()
    want = json.loads(run("report", "-i", str(jobs), "--latency", "--json").stdout)["pairs"]
    stats = rec.latency_stats()
    assert [s["name"] for s in stats] == [p["name"] for p in want]
    for s, w in zip(stats, want):
        for k in ("start", "end", "count", "min_ns", "avg_ns", "p50_ns", "p90_ns", "p99_ns",
                  "max_ns", "unmatched_starts", "unmatched_ends", "key_mismatches"):
            assert s[k] == w[k], k
    # the pairs themselves: as many as report counts, their durations' extremes its own
    job = pairs[pairs["pair"] == "example:job"]
    assert len(job) == 12 == want[0]["count"]
    assert job["duration_ns"].min() == want[0]["min_ns"]
    assert job["duration_ns"].max() == want[0]["max_ns"]
    assert (job["end_ns"] - job["start_ns"] == job["duration_ns"]).all()
    # and the slowest pairs are those of report --latency --top
    top = json.loads(run("report", "-i", str(jobs), "--latency", "--top", "3",
                         "--json").stdout)
    slow = top["slowest"]
    assert len(slow) == 3
    got = job.sort_values("duration_ns", ascending=False).head(3)
    assert list(got["duration_ns"]) == [t["duration_ns"] for t in slow]
    assert list(got["start_ns"]) == [t["start_ns"] for t in slow]
    assert list(got["tid"]) == [t["tid"] for t in slow]


def read_in_child(path):
    """to_pandas() in another process: a crash is a failure, not the end of the test run."""
    code = ("import sdtrace, sys\n"
            "try:\n"
            "    df = sdtrace.Recording(sys.argv[1]).to_pandas()\n"
            "except sdtrace.TruncatedError as e:\n"
            "    print('truncated', len(e.frame), e.frame.attrs.get('truncated'), e)\n"
            "except sdtrace.Error as e:\n"
            "    print('error', e.errno, e)\n"
            "else:\n"
            "    print('frame', len(df))\n")
    p = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True)
    assert p.returncode == 0, (p.returncode, p.stderr)
    return p.stdout.strip()


@needs_record
def test_corrupt_recording_raises(sizes, tmp):
    data = bytearray(sizes.read_bytes())
    bad = tmp / "corrupt.data"
    # a record's header in the middle overwritten: the reader must refuse it, not decode it
    mid = len(data) // 2
    data[mid:mid + 64] = b"\xff" * 64
    bad.write_bytes(bytes(data))
    out = read_in_child(bad)
    assert out.startswith("error 22 ") and "corrupt.data" in out, out
    with pytest.raises(sdtrace.Error) as ei:
        list(sdtrace.Recording(bad))
    assert not isinstance(ei.value, sdtrace.TruncatedError)
    # not a recording at all
    junk = tmp / "junk.data"
    junk.write_bytes(b"\0" * 4096)
    assert read_in_child(junk).startswith("error 22 ")


@needs_record
def test_truncated_recording(sizes, tmp):
    data = sizes.read_bytes()
    cut = tmp / "cut.data"
    cut.write_bytes(data[:len(data) * 2 // 3])
    out = read_in_child(cut)
    assert out.startswith("truncated ") and " True " in out, out
    n = int(out.split()[1])
    assert 0 <= n < 9
    df = sdtrace.Recording(cut).to_pandas(truncated=True)
    assert df.attrs["truncated"] and len(df) == n
    with pytest.raises(sdtrace.TruncatedError):
        sdtrace.Recording(cut).latency()


def test_open_errors(tmp):
    with pytest.raises(sdtrace.Error) as ei:
        sdtrace.Recording(tmp / "nonexistent.data")
    assert ei.value.errno == 2 and "nonexistent.data" in str(ei.value)
    with pytest.raises(sdtrace.Error) as ei:
        sdtrace.probes(tmp / "nonexistent")
    assert ei.value.errno == 2


def test_probes_match_list_json():
    prog = os.path.join(PROGS, "prog-sizes")
    got = sdtrace.probes(prog)
    want = json.loads(run("list", "-x", prog, "--json").stdout)
    assert len(got) == len(want) == 3
    got.sort(key=lambda p: (p["event"], p["address"]))
    want.sort(key=lambda w: (w["provider"] + ":" + w["name"], w["address"]))
    for p, w in zip(got, want):
        assert (p["provider"], p["name"]) == (w["provider"], w["name"])
        assert p["file_offset"] == w["file_offset"]
        assert p["address"] == w["address"]
        assert [a["spec"] for a in p["args"]] == [a["spec"] for a in w["args"]]


def test_cache_events(tmp):
    root = tmp / "pycache-root"
    assert sdtrace.cache_events(root) == []
    run("cache", "add", os.path.join(PROGS, "prog-sizes"), env={**os.environ,
                                                                 "SDTRACE_CACHE_DIR": str(root)})
    assert "sizes:min" in sdtrace.cache_events(root)
    entries = sdtrace.cache_entries(root)
    assert [e["path"] for e in entries] == [os.path.realpath(os.path.join(PROGS, "prog-sizes"))]
    assert entries[0]["events"] == 3
