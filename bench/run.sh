#!/bin/sh
# The benchmark suite: every comparison side by side with perf, bpftrace or readelf in one run.
# usage: bench/run.sh BUILD_DIR [quick|full]
# Results: printed, and appended as JSON lines to $BENCH_OUT (default BUILD_DIR/bench.jsonl);
# bench/report.py turns them into the table of BENCHMARKS.md.
set -eu
build=${1:-build}
mode=${2:-quick}
here=$(cd "$(dirname "$0")" && pwd)
export SDTRACE="$(cd "$build" && pwd)/sdtrace"
export BENCH_OUT=${BENCH_OUT:-$(cd "$build" && pwd)/bench.jsonl}
export BENCH_MODE=$mode
: >"$BENCH_OUT"
echo "bench: mode $mode, results in $BENCH_OUT"
start=$(date +%s)
for b in "$here"/b[0-9]*.sh; do
	echo "== $(basename "$b") ($(date -u +%H:%M:%S))"
	sh "$b"
done
echo "bench: $mode mode took $(($(date +%s) - start)) s"
python3 "$here/report.py" "$BENCH_OUT"
