#!/bin/sh
# Issue: `sdtrace list -x libjvm.so` vs `readelf -n` and `bpftrace -l 'usdt:PATH:*'`.
# Target: no slower than readelf -n.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
runs=9
[ "${BENCH_MODE:-quick}" = full ] && runs=21
for f in /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so /usr/lib/postgresql/15/bin/postgres /usr/bin/python3.11; do
	[ -e "$f" ] || { echo "bench: SKIP $f: missing"; continue; }
	set -- "$SDTRACE list -x $f" "readelf -n $f"
	command -v bpftrace >/dev/null && set -- "$@" "bpftrace -l 'usdt:$f:*'"
	python3 "$here/abtime.py" --runs $runs --warmup 2 --label "list $(basename "$f")" \
		--json "$BENCH_OUT" -- "$@"
done
