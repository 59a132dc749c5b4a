#!/bin/sh
# Experiment behind BENCHMARKS.md's "remove" finding: the cost of closing the perf events of N
# uprobe trace events, sequentially versus from T threads. Creates N uprobe events in its own
# group (h9close_PID) on bench/loop.c's probe site, and deletes them on every path.
# usage: sh bench/x-close-cost.sh [N]
. "$(dirname "$0")/common.sh"
need_root_tracefs
n=${1:-100}
loop=$(loop_bin)
gcc -O2 -pthread -o "$tmp/close-cost" "$bench_dir/close-cost.c"
grp=h9close_$$
off=$(readelf -n "$loop" | awk '/Name: tick1/ { getline; print $2; exit }' | tr -d ,)
# the site's file offset (text is mapped at offset = vaddr in this PIE)
ue=/sys/kernel/tracing/uprobe_events
del() {
	i=0
	while [ $i -lt "$n" ]; do echo "-:$grp/e$i"; i=$((i + 1)); done >"$tmp/del"
	# one write per line: a line for an event that does not exist fails alone
	while read -r l; do echo "$l" >>$ue 2>/dev/null || true; done <"$tmp/del"
}
at_exit del
for t in 1 4 16 64; do
	i=0
	while [ $i -lt "$n" ]; do echo "p:$grp/e$i $loop:$off"; i=$((i + 1)); done >>$ue
	"$tmp/close-cost" "$grp" "$n" "$t"
	del
done
! grep -q "$grp" $ue || { echo "x-close-cost: events of $grp left behind" >&2; exit 1; }
