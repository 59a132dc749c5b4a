#!/bin/sh
# Issue 3: add each of the 4 real SDT binaries to an EMPTY cache, one command per binary:
#   ours: sdtrace --cache-dir D cache add BIN
#   peer: HOME=H perf --buildid-dir D buildid-cache --add BIN     (16-26 ms each in perf-anchor.md)
# Both commands start from an empty cache every run (the rm -rf is inside both timed commands),
# and both hard-link the ELF into the cache (same filesystem). Target: <= 0.1x perf.
. "$(dirname "$0")/common.sh"
runs=9
[ "$BENCH_MODE" = full ] && runs=21
for f in /usr/bin/python3.11 /usr/lib/postgresql/15/bin/postgres \
	/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so /usr/lib/x86_64-linux-gnu/libstdc++.so.6; do
	[ -e "$f" ] || { echo "bench: SKIP $f: missing"; continue; }
	python3 "$bench_dir/abtime.py" --runs $runs --warmup 2 --label "cache add $(basename "$f") (empty cache)" \
		--json "$BENCH_OUT" -- \
		"rm -rf $tmp/s && $SDTRACE --cache-dir $tmp/s cache add $f" \
		"rm -rf $tmp/p && $perf_h --buildid-dir $tmp/p buildid-cache --add $f"
done
