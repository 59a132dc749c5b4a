#!/usr/bin/env python3
"""Time several shell commands side by side, alternating A B C A B C ... after a warm-up.

Prints each command's median, min and max wall time and the ratio of every command to the first,
pair by pair (the ratio of run i of A to run i of B, then the median of those ratios), so that a
comparison holds when the shared machine's speed drifts during the run.

usage: abtime.py [--runs N] [--warmup N] [--json FILE] [--label LABEL] -- CMD_A CMD_B [CMD_C...]
Each CMD is one shell string; its output is discarded; a non-zero exit is an error.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time


def run_once(cmd):
    t0 = time.perf_counter()
    r = subprocess.run(cmd, shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t = time.perf_counter() - t0
    if r.returncode != 0:
        sys.exit(f"abtime: command failed ({r.returncode}): {cmd}\n{r.stderr.decode(errors='replace')[-2000:]}")
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--json", help="append one JSON object with the results to this file")
    ap.add_argument("--label", default="")
    ap.add_argument("cmds", nargs="+")
    a = ap.parse_args()

    for _ in range(a.warmup):
        for c in a.cmds:
            run_once(c)
    times = [[] for _ in a.cmds]
    for _ in range(a.runs):
        for i, c in enumerate(a.cmds):
            times[i].append(run_once(c))

    base = times[0]
    rows = []
    for i, c in enumerate(a.cmds):
        ratios = [t / b for t, b in zip(times[i], base)]
        rows.append({
            "cmd": c,
            "median_ms": statistics.median(times[i]) * 1e3,
            "min_ms": min(times[i]) * 1e3,
            "max_ms": max(times[i]) * 1e3,
            "ratio_to_first": statistics.median(ratios),
        })
    print(f"{a.label}  ({a.runs} runs each, alternating, after {a.warmup} warm-up rounds)")
    for r in rows:
        print(f"  {r['median_ms']:9.2f} ms  [{r['min_ms']:.2f} .. {r['max_ms']:.2f}]  "
              f"x{r['ratio_to_first']:.3f}  {r['cmd']}")
    if a.json:
        with open(a.json, "a") as f:
            f.write(json.dumps({"label": a.label, "runs": a.runs, "rows": rows}) + "\n")


if __name__ == "__main__":
    main()
