#!/bin/sh
# Issue 16: the cost of resolution by the target. A process mapping ~100 libraries (a program
# linked against 100 small shared libraries, one with the probe manylibs:hit; gen-manylibs.sh):
#   warm: sdtrace --cache-dir WARM stat -p PID -e '%manylibs:hit' --duration 0.01
#         (the probed library and the program are cached)
#   cold: the same with an empty cache (a new directory each run)
#   peer: bpftrace -p PID -e 'usdt:*:manylibs:hit { @ = count(); } interval:ms:10 { exit(); }'
#         (bpftrace's own resolution against the process's files; also with the library named)
# Each is the whole command: find the target's files, resolve, attach, run 10 ms, detach.
# Also: the time of `sdtrace list -p PID` (the same files scanned, nothing attached), and of
# sdt_cache__resolve_target() alone, in-process (resolve-cost.c; min of 30 calls), warm and cold.
. "$(dirname "$0")/common.sh"
need_root_tracefs
peer_ok bpftrace || { peer_broken bpftrace; exit 0; }
runs=11
[ "$BENCH_MODE" = full ] && runs=21
ml=$BENCH_WORK/manylibs
sh "$bench_dir/gen-manylibs.sh" "$ml" 100
"$ml/manylibs" "$tmp/pid" >/dev/null 2>&1 &
mpid=$!
at_exit "kill $mpid"
while [ ! -s "$tmp/pid" ]; do sleep 0.05; done
nmaps=$(awk '$6 ~ /^\// && $2 ~ /x/ { print $6 }' /proc/$mpid/maps | sort -u | wc -l)
lib=$ml/libml50.so
"$SDTRACE" --cache-dir "$tmp/warm" cache add "$lib" "$ml/manylibs" >/dev/null
warm="$SDTRACE --cache-dir $tmp/warm stat -p $mpid -e '%manylibs:hit' --duration 0.01 -o $tmp/s.out"
cold="d=\$(mktemp -d $tmp/cold.XXXXXX) && $SDTRACE --cache-dir \$d stat -p $mpid -e '%manylibs:hit' --duration 0.01 -o $tmp/s.out"
peer="bpftrace -p $mpid -e 'usdt:*:manylibs:hit { @ = count(); } interval:ms:10 { exit(); }'"
peer_lib="bpftrace -p $mpid -e 'usdt:$lib:manylibs:hit { @ = count(); } interval:ms:10 { exit(); }'"
list="$SDTRACE --cache-dir $tmp/warm list -p $mpid '%manylibs:*'"
# each must find the probe in the library
sh -c "$list" | grep -qx "$lib:%manylibs:hit" || { echo "bench: list -p did not find the probe" >&2; exit 1; }
python3 "$bench_dir/abtime.py" --runs $runs --warmup 2 \
	--label "resolve by the target and attach, a process mapping $nmaps executable files" \
	--json "$tmp/t.json" -- "$warm" "$cold" "$peer" "$peer_lib" "$list"
cat "$tmp/t.json" >>"$BENCH_OUT"
read -r w c p pl l <<-EOT
$(python3 -c "import json; r = json.load(open('$tmp/t.json'))['rows']; print(' '.join('%.2f' % x['median_ms'] for x in r))")
EOT
emit "stat -p of a process mapping $nmaps files (100 libraries, 1 probed), warm cache, whole command" \
	"$w ms" "bpftrace -p PID -e 'usdt:*:manylibs:hit' (attach, 10 ms, exit; LIB named: $pl ms)" "$p ms" "$(ratio "$w" "$p")" ""
emit "the same, cold (empty) cache" "$c ms" "bpftrace, as above" "$p ms" "$(ratio "$c" "$p")" ""
emit "list -p of that process (its files found and scanned, nothing attached)" "$l ms" "" "" "" ""
# the resolution alone, in-process
gcc -O2 -I"$bench_dir/../include" -o "$tmp/resolve-cost" "$bench_dir/resolve-cost.c" \
	"$(dirname "$SDTRACE")/libsdtrace.a" -lelf -lcdb -lz -ldl -lpthread
rw=$("$tmp/resolve-cost" "$mpid" "$tmp/warm" '%manylibs:hit' 30 | sed 's/.*min \([0-9.]*\) ms.*/\1/')
rc=$("$tmp/resolve-cost" "$mpid" "$tmp/empty" '%manylibs:hit' 30 | sed 's/.*min \([0-9.]*\) ms.*/\1/')
emit "sdt_cache__resolve_target() alone for that process (in-process, min of 30), warm cache" \
	"$rw ms" "the same, empty cache" "$rc ms" "$(ratio "$rw" "$rc")" ""
