#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A recording read from Python, notebook style (python3-sdtrace; python3-pandas).

    sudo sdtrace record -o jobs.data -e '%example:job__start(id, name:string, prio)' \
            -e %example:job__done -- build/examples/sdt-example 50
    python3 examples/python-read.py jobs.data [BINARY]
"""
import sys

import sdtrace

path = sys.argv[1] if len(sys.argv) > 1 else "sdtrace.data"
rec = sdtrace.Recording(path)
print(f"{path}: {rec.cmdline!r} on {rec.hostname}, engine {rec.engine}")

# %% the events, one by one (typed arguments; None where one could not be fetched)
for i, ev in enumerate(rec):
    print(ev.time_ns, f"{ev.pid}/{ev.tid}", ev.comm, ev.event, ev.args)
    if i == 4:
        break

# %% every event as a DataFrame: one column per argument, typed
df = rec.to_pandas()
print(df.dtypes)
print(df["event"].value_counts())

# %% one event kind: its own columns only (names from the event spec or a provider file)
starts = rec.to_pandas(event="example:job__start")
if "name" in starts:
    print(starts.groupby("name").size())

# %% the pairs of `sdtrace report --latency`, one row each: the slowest, per job name
pairs = rec.latency()
print(pairs.sort_values("duration_ns", ascending=False).head())
if "name" in starts and len(pairs):
    named = pairs.merge(starts[["time_ns", "tid", "name"]],
                        left_on=["start_ns", "tid"], right_on=["time_ns", "tid"])
    print(named.groupby("name")["duration_ns"].describe())

# %% what a binary offers (the example's, or argv[2]), and what the cache knows
binary = sys.argv[2] if len(sys.argv) > 2 else "build/examples/sdt-example"
try:
    for p in sdtrace.probes(binary):
        print(p["event"], [a["spec"] for a in p["args"]])
except sdtrace.Error as e:
    print(f"probes: {e}")
print(len(sdtrace.cache_events()), "events in the cache")
