#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Reading a recording into a pandas DataFrame, three ways (BENCHMARKS.md, "Python"):
the module (libsdtrace's reader), `sdtrace report --json` into pandas.read_json(lines=True),
and `perf script` into pandas (the common way today: its text, split by a regex); and the
module's event iteration.
usage: python-read.py SDTRACE RECORDING PERF_DATA|- [WAYS]   (times in s, best of 3)
WAYS: a comma-separated subset of report,json,module,iterate,read_json,perf (default: all; perf
only with a PERF_DATA), for A/B runs of a few (farm-bench).
"""
import io
import subprocess
import sys
import time

import pandas as pd

import sdtrace

sdt, rec, perf_data = sys.argv[1:4]
ways = sys.argv[4].split(",") if len(sys.argv) > 4 else \
    ["report", "json", "module", "iterate", "read_json", "perf"]


def best(fn, n=3):
    ts = []
    for _ in range(n):
        t = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t)
    return min(ts), out


def report_text():
    subprocess.run([sdt, "report", "-i", rec], check=True, stdout=subprocess.DEVNULL)


def report_json():
    subprocess.run([sdt, "report", "-i", rec, "--json"], check=True, stdout=subprocess.DEVNULL)


def module():
    return sdtrace.Recording(rec).to_pandas()


def iterate():
    for _ in sdtrace.Recording(rec):
        pass


def via_json():
    p = subprocess.run([sdt, "report", "-i", rec, "--json"], check=True, capture_output=True)
    return pd.read_json(io.BytesIO(p.stdout), lines=True)


def via_perf():
    p = subprocess.run(["perf", "script", "-i", perf_data], check=True, capture_output=True)
    df = pd.Series(p.stdout.decode().splitlines()).str.extract(
        r"^\s*(?P<comm>\S+)\s+(?P<tid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?P<time>[\d.]+):\s+"
        r"(?P<event>\S+):\s+\((?P<ip>[0-9a-f]+)\)(?P<args>.*)$")
    args = df.pop("args").str.extractall(r"(\w+)=(\S+)")
    args = args.reset_index().pivot(index="level_0", columns=0, values=1)
    df = df.join(args)
    for c in ("tid", "cpu") + tuple(args.columns):
        df[c] = pd.to_numeric(df[c])
    df["time"] = pd.to_numeric(df["time"])
    return df


for way, name, fn in (("report", "report (text, to /dev/null)", report_text),
                      ("json", "report --json (to /dev/null)", report_json),
                      ("module", "module: Recording.to_pandas()", module),
                      ("iterate", "module: for event in Recording(...)", iterate),
                      ("read_json", "report --json | pandas.read_json(lines=True)", via_json),
                      ("perf", "perf script | pandas (regex)", via_perf)):
    if way not in ways or (way == "perf" and perf_data == "-"):
        continue
    t, out = best(fn, 1 if "perf" in name or "read_json" in name else 3)
    rows = "" if out is None else " (%d rows x %d columns)" % out.shape
    print("%-48s %6.2f s%s" % (name, t, rows), flush=True)
