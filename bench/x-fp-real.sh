#!/bin/sh
# Issue 19, by hand (not in bench/run.sh): what `record -g` (frame pointers) shows at a probe of
# each of the four real binaries, as folded stacks: events, distinct stacks, depth (frames, the
# event left out) min/median/max, the share of frames printed unknown ([BUILDID+0xOFF], [0xIP],
# [//anon+0xIP]), whether the expected caller is named, and the most frequent stack.
#   bench/stack-loop.c built with -fno-omit-frame-pointer   %h9stack:hit       (the control)
#   /usr/bin/python3.11 -c 'import gc; gc.collect()'      %python:gc__start    (gc_collect_main)
#   postgres 15 under pgbench -T 3 (record -a -x postgres)   %postgresql:query__start (exec_simple_query)
#   java -version (libjvm.so)         %hotspot:thread__start, %hotspot:class__initialization__clinit
# usage: sudo flock /tmp/sdtrace-tracefs.lock env SDTRACE=build/sdtrace sh bench/x-fp-real.sh
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/pg-cluster.sh"
need_root_tracefs
sc=$tmp/sc
S() { "$SDTRACE" --cache-dir "$sc" "$@"; }
loop=$BENCH_WORK/stack-loop
if [ ! -x "$loop" ] || [ "$bench_dir/stack-loop.c" -nt "$loop" ]; then
	gcc -O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -fno-optimize-sibling-calls \
		-o "$loop.tmp" "$bench_dir/stack-loop.c" && mv "$loop.tmp" "$loop"
fi

# show KEY TITLE WANT: the summary of the folded stacks of $tmp/KEY.data
show() {
	S report -i "$tmp/$1.data" --format=folded >"$tmp/$1.folded" 2>"$tmp/$1.ferr" ||
		{ echo "== $2: no stacks: $(head -2 "$tmp/$1.ferr")"; return 0; }
	echo "== $2"
	python3 - "$tmp/$1.folded" "$3" <<'PY'
import statistics, sys
rows = []
for line in open(sys.argv[1]):
    stack, n = line.rstrip("\n").rsplit(" ", 1)
    rows.append((stack.split(";"), int(n)))
ev = sum(n for _, n in rows)
depths = [len(f) - 1 for f, n in rows for _ in range(n)]
frames = [x for f, n in rows for x in f[1:] for _ in range(n)]
unknown = sum(1 for x in frames if x.startswith("["))
want = sys.argv[2]
named = sum(n for f, n in rows if any(want in x for x in f[1:]))
top = max(rows, key=lambda r: r[1])
print("  %d events, %d distinct stacks, depth %d/%d/%d (min/median/max), %.0f %% of frames unknown"
      % (ev, len(rows), min(depths), statistics.median(depths), max(depths), 100.0 * unknown / len(frames)))
print("  %s named in %d of %d events" % (want, named, ev))
s = ";".join(top[0])
print("  most frequent (%d): %s" % (top[1], s if len(s) < 700 else s[:700] + "..."))
PY
}

# 1. the control: frame pointers everywhere but libc
S record -g -x "$loop" -e '%h9stack:hit' -o "$tmp/loop.data" -- "$loop" 6400 64 "$tmp/out" >/dev/null 2>&1
show loop "stack-loop (fp build)" l6_

# 2. python3.11 (Debian: no frame pointers, stripped, .gnu_debuglink only)
if [ -x /usr/bin/python3.11 ]; then
	S record -g -x /usr/bin/python3.11 -e '%python:gc__start' -o "$tmp/py.data" -- \
		/usr/bin/python3.11 -c 'import gc; gc.collect()' >/dev/null 2>&1
	show py "python3.11 %python:gc__start" gc_collect_main
fi

# 3. postgres under pgbench (system-wide on the binary: backends forked later are all seen)
pg_start
# (not through S: $! must be sdtrace's pid; SIGINT back to default, as a background job of a
# non-interactive shell starts with it ignored)
env --default-signal=INT "$SDTRACE" --cache-dir "$sc" record -g -a -x "$PG_BIN/postgres" \
	-e '%postgresql:query__start' -o "$tmp/pg.data" >/dev/null 2>"$tmp/pg.err" &
rp=$!
at_exit "kill -INT $rp 2>/dev/null; wait $rp 2>/dev/null"
i=0
until grep -q "^p:sdtrace_${rp}_" /sys/kernel/tracing/uprobe_events 2>/dev/null || [ $i -ge 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.5
pg_tps "$tmp/pgb.out" 3 >/dev/null
kill -INT $rp
wait $rp || true
show pg "postgres %postgresql:query__start" exec_simple_query

# 4. libjvm.so: java -version
jvm=/usr/lib/jvm/java-17-openjdk-amd64
if [ -x "$jvm/bin/java" ]; then
	S record -g -x "$jvm/lib/server/libjvm.so" -e '%hotspot:thread__start' \
		-e '%hotspot:class__initialization__clinit' -o "$tmp/jvm.data" -- "$jvm/bin/java" -version \
		>/dev/null 2>&1
	show jvm "libjvm.so %hotspot:thread__start + class__initialization__clinit" JavaMain
	grep '^hotspot:thread__start' "$tmp/jvm.folded" | head -3 | sed 's/^/  /'
	echo "  stacks through anonymous memory (interpreter, stubs, JIT code): $(grep -c '\[//anon' "$tmp/jvm.folded") of $(wc -l <"$tmp/jvm.folded")"
fi
