#!/bin/sh
# A session killed with SIGKILL cannot clean up: its group stays in uprobe_events. The next
# sdtrace recognises the dead owner (pid + start time in the group name) and removes the group,
# and says so; a live session's group is not touched.
. "$(dirname "$0")/lib.sh"
need_tracefs
. "$(dirname "$0")/record-lib.sh"
# Only lines of probes on our own files ($T): other tests may run at the same time.
uprobes_guard "^[p-r]:[^ ]* $T/"

"$TARGET" 5 "$T/go" >/dev/null 2>&1 &
tpid=$!
at_exit "kill $tpid 2>/dev/null"
"$REC" --ready "$T/ready" -e rt:fire -e rt:gated "$TARGET" -p "$tpid" >"$T/victim.out" 2>&1 &
victim=$!
at_exit "kill -9 $victim 2>/dev/null"
check "victim armed" wait_file "$T/ready"
group=$(sed -n 's/^event rt:fire \([^/]*\)\/.*/\1/p' "$T/victim.out")
check "victim's group is known" test -n "$group"

# A live session at the same time: it must survive the cleanup.
"$TARGET" 5 "$T/go2" >/dev/null 2>&1 &
tpid2=$!
at_exit "kill $tpid2 2>/dev/null"
"$REC" --ready "$T/ready2" -e rt:fire "$TARGET" -p "$tpid2" >"$T/live.out" 2>&1 &
live=$!
at_exit "kill $live 2>/dev/null"
check "live session armed" wait_file "$T/ready2"
livegroup=$(sed -n 's/^event rt:fire \([^/]*\)\/.*/\1/p' "$T/live.out")

kill -9 "$victim"
wait "$victim" 2>/dev/null
check_eq "the killed session left its 2 events" 2 "$(grep -c "^p:$group/" "$TRACEFS/uprobe_events")"

check "the next sdtrace removes stale groups" "$REC" --remove-stale
cp "$T/.out" "$T/stale.out"
check "and says which" grep -q "removed 1 stale group(s): $group\$" "$T/stale.out"
check_eq "the dead session's events are gone" 0 "$(grep -c "^p:$group/" "$TRACEFS/uprobe_events")"
check_eq "the live session's event is still there" 1 \
	"$(grep -c "^p:$livegroup/" "$TRACEFS/uprobe_events")"
check "a second cleanup finds nothing" "$REC" --remove-stale
check_eq "nothing more" "removed 0 stale group(s)" "$(cat "$T/.out")"

touch "$T/go2"
wait "$live"
check_eq "the live session ends normally" 0 $?
check_eq "and got its events" "samples=5" "$(grep '^samples=' "$T/live.out" | cut -d' ' -f1)"
kill "$tpid" 2>/dev/null
uprobes_unchanged
finish
