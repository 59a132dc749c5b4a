#!/bin/sh
# Two sdtrace sessions on the same probe at the same time: each has its own group, both get every
# event, and a `perf probe` event created before (group sdt_rt) is left untouched.
. "$(dirname "$0")/lib.sh"
need_tracefs
. "$(dirname "$0")/record-lib.sh"
# Only lines of probes on our own files ($T): other tests may run at the same time.
uprobes_guard "^[p-r]:[^ ]* $T/"

have_perf=0
if ! peer_works perf; then
	peer_skip_part perf "the perf part"
elif perf_private buildid-cache --add "$TARGET" >/dev/null 2>&1 &&
	perf_private probe -x "$TARGET" sdt_rt:fire >"$T/perf-probe.out" 2>&1; then
	have_perf=1
	at_exit "HOME=$T/perfhome perf --buildid-dir $T/perfcache probe -d 'sdt_rt:*' >/dev/null 2>&1"
else
	say "NOTE: perf probe unavailable, the perf part is skipped: $(cat "$T/perf-probe.out" 2>/dev/null | head -n 3)"
fi
grep '^p:sdt_rt/' "$TRACEFS/uprobe_events" >"$T/perf-before" || true
[ "$have_perf" = 0 ] || check "perf's event exists" test -s "$T/perf-before"

go="$T/go"
"$TARGET" 500 "$go" >/dev/null 2>&1 &
tpid=$!
at_exit "kill $tpid 2>/dev/null"
"$REC" --ready "$T/ready1" -e rt:fire "$TARGET" -p "$tpid" >"$T/s1.out" 2>&1 &
r1=$!
"$REC" --ready "$T/ready2" -e rt:fire "$TARGET" -p "$tpid" >"$T/s2.out" 2>&1 &
r2=$!
at_exit "kill $r1 $r2 2>/dev/null"
check "session 1 armed" wait_file "$T/ready1"
check "session 2 armed" wait_file "$T/ready2"
check_eq "both sessions' events exist at once" 2 "$(left_by "$T/s1.out" "$T/s2.out")"
touch "$go"
wait "$tpid"
wait "$r1"
check_eq "session 1 ends when the process exits" 0 $?
wait "$r2"
check_eq "session 2 ends when the process exits" 0 $?
expected_fire 500 >"$T/expected"
check_eq "session 1 got every event" "samples=500 lost=0" "$(grep '^samples=' "$T/s1.out" | cut -d' ' -f1,2)"
check_eq "session 2 got every event" "samples=500 lost=0" "$(grep '^samples=' "$T/s2.out" | cut -d' ' -f1,2)"
actual_fire "$T/s1.out" >"$T/a1"
actual_fire "$T/s2.out" >"$T/a2"
check "session 1 values" cmp -s "$T/expected" "$T/a1"
check "session 2 values" cmp -s "$T/expected" "$T/a2"
g1=$(sed -n 's/^event rt:fire \([^/]*\)\/.*/\1/p' "$T/s1.out")
g2=$(sed -n 's/^event rt:fire \([^/]*\)\/.*/\1/p' "$T/s2.out")
check "the two groups differ" test -n "$g1" -a "$g1" != "$g2"

grep '^p:sdt_rt/' "$TRACEFS/uprobe_events" >"$T/perf-after" || true
check "perf's sdt_rt events untouched" cmp -s "$T/perf-before" "$T/perf-after"
check_eq "both sessions removed their events" 0 "$(left_by "$T/s1.out" "$T/s2.out")"
if [ "$have_perf" = 1 ]; then
	# and perf's event still works after ours came and went: recording with it still counts
	check "sdtrace records while perf's event exists" "$REC" -e rt:fire "$TARGET" -- "$TARGET" 9
	check_eq "all 9" "samples=9" "$(grep '^samples=' "$T/.out" | cut -d' ' -f1)"
	perf_private probe -d 'sdt_rt:*' >/dev/null 2>&1
fi
uprobes_unchanged
finish
