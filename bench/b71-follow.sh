#!/bin/sh
# Issue 16: following the target.
# 1. The arming window for late starters: under `sdtrace record -a -x SPIN -e %h9bench:spin`, a
#    copy of SPIN at a new inode (cp: another file, the same build-id) started after the
#    recording began fires h9bench:spin from its first instruction for 300 ms (bench/spin.c),
#    one hit every 10 us (100,000 hits/s, busy-waiting between them); the copy is seen in an
#    MMAP2 record, resolved and armed. Per run: the hits missed before arming (the first i
#    recorded) and the time from main() to the first recorded hit (its time minus main's
#    CLOCK_MONOTONIC start, an argument of every hit). Median (and max) of 10 runs. Each
#    copy is a new inode of a build-id already known: what is measured is the MMAP2 record's
#    way to the reader, the resolution by the target and the arming (uprobe + perf events), each
#    part's median from sdtrace -v's "late:" lines.
# 2. What ptrace following costs the command (wall time, hyperfine when there, else the median
#    of 5): `java -version` (the JVM takes signals: each one is a ptrace stop) and a fork loop
#    (`sh -c 'for i in $(seq 300); do /bin/true; done'`: a fork, an exec and an exit per
#    iteration, each a ptrace stop), under `sdtrace stat -e %h9bench:spin` (armed in SPIN only:
#    the cost is following, not probes) with and without --no-follow, and bare.
# ENGINE=tracefs (default) or ENGINE=bpf: the engine of every sdtrace run (--engine=); under bpf
# the arming is seen as a link in sdtrace's fds, the figures are named "... (bpf)".
. "$(dirname "$0")/common.sh"
need_root_tracefs
: "${ENGINE:=tracefs}"
eng="--engine=$ENGINE"
tag=""
[ "$ENGINE" = tracefs ] || tag=" ($ENGINE)"
# armed_on PID PATH: sdtrace PID has placed its probes on PATH
armed_on() {
	if [ "$ENGINE" = tracefs ]; then
		grep -q " $2:" /sys/kernel/tracing/uprobe_events
	else
		grep -qsxF "path:	$2" /proc/"$1"/fdinfo/* 2>/dev/null
	fi
}
spin=$BENCH_WORK/spin
if [ ! -x "$spin" ] || [ "$bench_dir/spin.c" -nt "$spin" ]; then
	gcc -O2 -g -o "$spin.tmp" "$bench_dir/spin.c" && mv "$spin.tmp" "$spin"
fi
sc=$tmp/sc
n=300
gap=10000
runs=10

# 1. the arming window
$SDTRACE --cache-dir "$sc" -v record $eng -a -x "$spin" -e %h9bench:spin -o "$tmp/a.data" \
	>"$tmp/a.out" 2>"$tmp/a.err" &
sd=$!
at_exit "kill -TERM $sd 2>/dev/null"
i=0
while ! armed_on $sd "$spin" && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.5
r=0
while [ $r -lt $runs ]; do
	cp "$spin" "$tmp/spin-$r"
	"$tmp/spin-$r" $n $gap
	r=$((r + 1))
	sleep 0.3
done
sleep 0.5
kill -TERM $sd
wait $sd || true
$SDTRACE report -i "$tmp/a.data" --format=csv >"$tmp/a.csv"
python3 - "$tmp/a.csv" "$n" "$runs" >"$tmp/win" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
n, runs = int(sys.argv[2]), int(sys.argv[3])
first = {}
for r in rows:
    pid = r.get("pid")
    a1 = int(r.get("arg1") or r.get("args", "0").split()[0])
    a2 = int(r.get("arg2") or 0)
    t = int(r["time_ns"])
    if pid not in first or a1 < first[pid][0]:
        first[pid] = (a1, t - a2)
missed = [v[0] for v in first.values()]
ms = [v[1] / 1e6 for v in first.values()]
print("%d %d %.1f %.1f %d %d" % (statistics.median(missed) if missed else -1,
                                 max(missed) if missed else -1,
                                 statistics.median(ms) if ms else -1,
                                 max(ms) if ms else -1, len(first), runs))
PY
read missed maxmissed win maxwin armed total <"$tmp/win"
echo "  arming window (-a, a copy started later, a hit every $gap ns for $n ms from main's first instruction):"
echo "    runs armed: $armed/$total; hits missed before arming: median $missed (max $maxmissed);" \
	"main() to first recorded hit: median $win ms (max $maxwin)"
# where the window goes: sdtrace -v's "late:" line per copy (recorder_late.c)
python3 - "$tmp/a.err" <<'PY'
import re, statistics, sys
parts = [[], [], []]
for l in open(sys.argv[1]):
    m = re.search(r"read after ([\d.]+) ms, resolved in ([\d.]+) ms, armed in ([\d.]+) ms", l)
    for i in range(3 if m else 0):
        parts[i].append(float(m.group(i + 1)))
if parts[0]:
    print("    its parts (medians): the MMAP2 record read after %.2f ms, resolved in %.2f ms,"
          " armed in %.2f ms" % tuple(statistics.median(p) for p in parts))
PY
emit "follow: late starter, hits missed before arming (median of $runs)$tag" "$missed" \
	"sdtrace record -a -x SPIN -e %h9bench:spin; cp SPIN COPY; COPY $n $gap" "" ""
emit "follow: late starter, main() to armed, ms (median of $runs)$tag" "$win" \
	"first recorded hit time - main's CLOCK_MONOTONIC" "" ""

# 1b. the same program exec'd by a followed command (sh -c, another copy): armed at its exec
# stop, before its first instruction, so nothing is missed
cp "$spin" "$tmp/spin-cmd"
$SDTRACE --cache-dir "$sc" record $eng -e %h9bench:spin -o "$tmp/c.data" -- \
	sh -c "$tmp/spin-cmd 50 $gap" >/dev/null 2>"$tmp/c.err"
cmissed=$($SDTRACE report -i "$tmp/c.data" --format=csv | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
print(min(int(r.get("arg1") or 0) for r in rows) if rows else -1)')
echo "  exec chain (record -- sh -c COPY): hits missed before the first recorded: $cmissed"
emit "follow: exec'd by a followed command, hits missed$tag" "$cmissed" \
	"sdtrace record -e %h9bench:spin -- sh -c 'COPY 50 $gap'" "" ""

# 2. ptrace following overhead
java=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
forkloop="sh -c 'for i in \$(seq 300); do /bin/true; done'"
# wall CMD: median ms
wall() {
	if command -v hyperfine >/dev/null; then
		hyperfine -N -w 1 -r 5 --export-json "$tmp/h.json" "$1" >/dev/null 2>&1 &&
			python3 -c "import json; print('%.1f' % (json.load(open('$tmp/h.json'))['results'][0]['median'] * 1e3))"
	else
		for _ in 1 2 3 4 5; do time_ms "$1"; done | median
	fi
}
st="$SDTRACE --cache-dir $sc stat $eng -x $spin -e %h9bench:spin"
for w in java fork; do
	if [ $w = java ]; then
		[ -x "$java" ] || { echo "  (no $java: java skipped)"; continue; }
		c="$java -version"
	else
		c=$forkloop
	fi
	bare=$(wall "$c")
	nof=$(wall "$st --no-follow -- $c")
	fol=$(wall "$st -- $c")
	echo "  $w: bare $bare ms, stat --no-follow $nof ms, stat (following) $fol ms"
	emit "follow: ptrace following, $w, ms$tag" "$fol" "stat --no-follow -- $c" "$nof" "$(ratio "$fol" "$nof")"
done
