#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Reading a recording into a pandas DataFrame, three ways (BENCHMARKS.md, "Python"):
the module (libsdtrace's reader), `sdtrace report --json` into pandas.read_json(lines=True),
and `perf script` into pandas (the common way today: its text, split by a regex).
usage: python-read.py SDTRACE RECORDING PERF_DATA|-   (times in s, best of 3)
"""
import io
import subprocess
import sys
import time

import pandas as pd

import sdtrace

sdt, rec, perf_data = sys.argv[1:4]


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


for name, fn in (("report (text, to /dev/null)", report_text),
                 ("report --json (to /dev/null)", report_json),
                 ("module: Recording.to_pandas()", module),
                 ("report --json | pandas.read_json(lines=True)", via_json)) + \
        ((("perf script | pandas (regex)", via_perf),) if perf_data != "-" else ()):
    t, out = best(fn, 1 if "perf" in name or "read_json" in name else 3)
    rows = "" if out is None else " (%d rows x %d columns)" % out.shape
    print("%-48s %6.2f s%s" % (name, t, rows), flush=True)
