#!/bin/sh
# Issue 7: arm every SDT site of libjvm.so (531 sites: hotspot, hotspot_jni, hs_private) in one
# command, run a command, remove them all again.
#   ours: sdtrace record -x libjvm.so -e '%hotspot*:*' -e '%hs_private:*' -o F -- true
#   base: sdtrace record -x libjvm.so -e '%hotspot:vm__init__begin' -o F -- true      (1 site)
#   46:   sdtrace record -x libjvm.so -e '%hotspot:*' -o F -- true                     (46 sites)
#   peer: perf probe -x libjvm.so -a 'sdt_hotspot_jni:*'         (fails: E2BIG, shown once)
#         perf probe -x libjvm.so -a 'sdt_hotspot:*'; perf record -e 'sdt_hotspot:*' -- true;
#         perf probe -d 'sdt_hotspot:*'                             (each step timed)
#   stat: sdtrace stat -x libjvm.so -e '%hotspot*:*' -e '%hs_private:*' -- true  (whole command)
#   peer: perf stat -e 'sdt_hotspot:*' -- true                     (46 events, probes added)
# The split of our time into arming and removing comes from one run under strace -T:
# arm = the uprobe_events "p:" writes + perf_event_open; remove = close() of the perf events +
# the "-:" writes. Targets: arm <= 100 ms, remove <= 100 ms.
. "$(dirname "$0")/common.sh"
need_root_tracefs
jvm=/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
[ -e "$jvm" ] || { echo "bench: SKIP $(basename "$0"): $jvm missing"; exit 0; }
at_exit "P probe -q -d 'sdt_hotspot:*' >/dev/null 2>&1; P probe -q -d 'sdt_hotspot_jni:*' >/dev/null 2>&1"
# quick mode: one run of each (the 531-site run takes tens of seconds on this kernel, see
# BENCHMARKS.md); full mode: three
runs=1
[ "$BENCH_MODE" = full ] && runs=3
rec="$SDTRACE --cache-dir $tmp/sc record -x $jvm -o $tmp/r.data"
all="$rec -e '%hotspot*:*' -e '%hs_private:*' -- true"
one="$rec -e '%hotspot:vm__init__begin' -- true"
hs="$rec -e '%hotspot:*' -- true"
stat_all="$SDTRACE --cache-dir $tmp/sc stat -x $jvm -e '%hotspot*:*' -e '%hs_private:*' -o $tmp/s.out -- true"
sites="$($SDTRACE --cache-dir "$tmp/sc" list -x "$jvm" | wc -l) events ($(readelf -n "$jvm" | grep -c NT_STAPSDT) sites)"
for i in $(seq $runs); do
	time_ms "$all" >>"$tmp/all"
	time_ms "$one" >>"$tmp/one"
	time_ms "$hs" >>"$tmp/hs"
	time_ms "$stat_all" >>"$tmp/stat"
done
a=$(median <"$tmp/all")
o=$(median <"$tmp/one")
h=$(median <"$tmp/hs")
st=$(median <"$tmp/stat")
echo "  $sites sites: $a ms; 1 site: $o ms; 46 hotspot events: $h ms; stat of all: $st ms (median of $runs)"
# the split, from one run under strace
[ "$BENCH_MODE" = full ] || { echo "  quick mode: no strace split (full mode only)"; skip_split=1; }
[ -n "${skip_split:-}" ] || strace -f -T -e trace=write,perf_event_open,close -o "$tmp/strace" sh -c "$all" >/dev/null 2>&1
[ -e "$tmp/strace" ] || : >"$tmp/strace"
read -r arm rm_close rm_write nclose_slow <<-EOT
$(awk -F'<' '
	/perf_event_open\(/ { arm += $NF + 0 }
	/write\([0-9]+, "p:/ { arm += $NF + 0 }
	/write\([0-9]+, "-:/ { rmw += $NF + 0 }
	/ close\([0-9]+\)/ { rmc += $NF + 0; if ($NF + 0 > 0.01) slow++ }
	END { printf "%.1f %.1f %.1f %d\n", arm * 1e3, rmc * 1e3, rmw * 1e3, slow }' "$tmp/strace")
EOT
[ -n "${skip_split:-}" ] || echo "  under strace: arm $arm ms (p: writes + perf_event_open); remove: close() $rm_close ms ($nclose_slow closes > 10 ms), -: writes $rm_write ms"
# perf
peer_ok perf || { peer_broken perf; exit 0; }
P probe -x "$jvm" -a 'sdt_hotspot_jni:*' >"$tmp/e2big" 2>&1 && echo "  perf probe sdt_hotspot_jni:* succeeded" ||
	echo "  perf probe -x libjvm.so -a 'sdt_hotspot_jni:*': $(grep -m1 -i 'error\|E2BIG\|too\|fail' "$tmp/e2big")"
P probe -q -d 'sdt_hotspot_jni:*' >/dev/null 2>&1 || true
for i in $(seq $runs); do
	time_ms "$perf_cmd probe -q -x $jvm -a 'sdt_hotspot:*'" >>"$tmp/parm"
	time_ms "$perf_cmd record -q -e 'sdt_hotspot:*' -o $tmp/p.data -- true" >>"$tmp/prec"
	time_ms "$perf_cmd stat -e 'sdt_hotspot:*' -- true" >>"$tmp/pstat"
	time_ms "$perf_cmd probe -q -d 'sdt_hotspot:*'" >>"$tmp/pdel"
done
pa=$(median <"$tmp/parm")
pr=$(median <"$tmp/prec")
pd=$(median <"$tmp/pdel")
ps=$(median <"$tmp/pstat")
echo "  perf, 46 hotspot events: probe -a $pa ms, record -- true $pr ms, probe -d $pd ms (median of $runs)"
[ -n "${skip_split:-}" ] || emit "arm all of libjvm.so, $sites, (uprobe_events writes + perf_event_open, strace -T)" "$arm ms" \
	"perf probe -x libjvm.so -a 'sdt_hotspot:*' (46 events; 'sdt_hotspot_jni:*' fails)" "$pa ms" "$(ratio "$arm" "$pa")" "<= 100 ms"
[ -n "${skip_split:-}" ] || emit "remove all of libjvm.so, $sites, (close of the perf events + -: writes, strace -T)" \
	"$(python3 -c "print('%.1f' % ($rm_close + $rm_write))") ms" \
	"perf probe -d 'sdt_hotspot:*' (after perf record: $pr ms)" "$pd ms" \
	"$(ratio "$(python3 -c "print($rm_close + $rm_write)")" "$pd")" "<= 100 ms"
emit "sdtrace record of all of libjvm.so, $sites, -- true, whole command" "$a ms" \
	"the same with 1 site / 46 hotspot sites" "$o ms / $h ms" "$(ratio "$a" "$o")" ""
emit "sdtrace stat of all of libjvm.so, $sites, -- true, whole command" "$st ms" \
	"perf stat -e 'sdt_hotspot:*' -- true (46 events, probes already added)" "$ps ms" "$(ratio "$st" "$ps")" ""
