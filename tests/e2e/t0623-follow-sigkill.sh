#!/bin/sh
# SIGKILL of sdtrace while it follows the command (traced with ptrace, a late-armed group in
# uprobe_events): the command goes on, untraced (TracerPid 0), and ends normally; the next
# sdtrace removes both of the dead session's groups (the one armed before the start and the
# one armed at the copy's exec), which it can only do once no perf event holds them.
# engine: tracefs (it checks the tracefs groups of sets armed late; the BPF engine's links are
# file descriptors: t0620-t0622 run under both)
. "$(dirname "$0")/lib.sh"
need_tracefs
P=$PROGS_DIR
F=$P/prog-follow
need_file "$F"
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ ($PROGS_DIR|$T)/"
cp "$F" "$T/copy"
exec_shim shim-copy.sh "$T/copy"

FOLLOW_WAIT="$T/go" "$SDTRACE" record -o k.data -x "$F" -e '%follow:*' -- ./shim-copy.sh 3 \
	>k.out 2>k.err &
sd=$!
at_exit "kill -9 $sd 2>/dev/null"
wait_grep "$TRACEFS/uprobe_events" "^p:[^ ]* $T/copy:" 10
check "the copy is armed at its exec (a group of its own)" \
	grep -q "^p:[^ ]* $T/copy:" "$TRACEFS/uprobe_events"
groups=$(grep -E "^p:[^ ]+ ($F|$T/copy):" "$TRACEFS/uprobe_events" | sed 's/^p:\([^/]*\)\/.*/\1/' | sort -u)
check_eq "two groups: before the start, and at the exec" 2 "$(echo "$groups" | grep -c .)"
cpid=$(pgrep -f "^$T/copy 3" | head -n 1)
check "the copy runs" test -n "$cpid"
check_eq "and is traced by sdtrace" "$sd" "$(awk '/^TracerPid/ {print $2}' /proc/$cpid/status)"

kill -9 $sd
wait $sd 2>/dev/null
check_eq "after the SIGKILL, the copy is untraced" 0 \
	"$(awk '/^TracerPid/ {print $2}' /proc/$cpid/status 2>/dev/null)"
touch go
n=0
while kill -0 "$cpid" 2>/dev/null && [ "$n" -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
check "it went on to its end" grep -q "^done" k.out

"$SDTRACE" record -o n.data -x "$F" -e '%follow:first' -- "$F" 1 >n.out 2>n.err
check "the next sdtrace removes both dead groups" \
	grep -q "removed 2 uprobe groups left by a killed sdtrace" n.err
for g in $groups; do
	check_eq "group $g is gone" 0 "$(grep -c "^p:$g/" "$TRACEFS/uprobe_events")"
done

uprobes_unchanged
finish
