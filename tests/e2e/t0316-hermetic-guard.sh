#!/bin/sh
# SPDX-License-Identifier: MIT
# The suite is hermetic: lib.sh's uprobes_unchanged ("uprobe_events unchanged") compares only
# what the test's own sdtrace sessions created, so another tracer on the machine never fails a
# test. Here, during a test probing prog-wait: another sdtrace session probes the same binary
# (still running at the end) and another tool's uprobe event (a group of its own) is on it too;
# the guard passes, with a pattern naming the file (as the tests on python3.11 and the JVM use)
# and with the default one. A group left behind by a session of the test (a dead sdtrace PID
# not there before) still fails it. Before, every line on the file was compared.
. "$(dirname "$0")/lib.sh"
need_tracefs
W=$PROGS_DIR/prog-wait
need_file "$W"
cd "$T" || exit 1
off=$("$SDTRACE" list -x "$W" --json '%wait:tick' | sed -n 's/.*"file_offset":\([0-9]*\).*/\1/p')
check "prog-wait's wait:tick has a file offset" test -n "$off"
off=$(printf '0x%x' "$off")

# guard_says PATTERN: run the guard around the other tracers' activity and one session of ours;
# prints "ok" or "not ok" (the guard's own verdict, in a subshell: not counted here)
guard_says() {
	(
		uprobes_guard "$@"
		# another sdtrace, probing the same binary, running on past our end
		"$W" "$T/w.pid" >/dev/null 2>&1 &
		wpid=$!
		wait_for 10 test -s "$T/w.pid"
		"$SDTRACE" stat -x "$W" -e '%wait:tick' -p "$wpid" >/dev/null 2>&1 &
		other=$!
		wait_grep "$TRACEFS/uprobe_events" "^p:sdtrace_${other}_" 10
		# another tool's event on the same binary, in a group of its own
		printf 'p:other_%s/tick %s:%s\n' $$ "$W" "$off" >>"$TRACEFS/uprobe_events"
		# a session of ours, which ends
		"$SDTRACE" record -o "$T/r.data" -x "$W" -e '%wait:tick' -- "$W" >/dev/null 2>&1 &
		mine=$!
		wait_grep "$TRACEFS/uprobe_events" "^p:sdtrace_${mine}_" 20
		kill -TERM "$mine"
		wait "$mine"
		[ -n "${LEAK:-}" ] &&
			printf 'p:sdtrace_%s_1/tick %s:%s\n' "$LEAK" "$W" "$off" >>"$TRACEFS/uprobe_events"
		uprobes_unchanged "guard" | sed -n 's/^\(ok\|not ok\) .*/\1/p'
		# the other tracers end after the guard's check
		[ -n "${LEAK:-}" ] && printf -- '-:sdtrace_%s_1/tick\n' "$LEAK" >>"$TRACEFS/uprobe_events"
		printf -- '-:other_%s/tick\n' $$ >>"$TRACEFS/uprobe_events"
		kill -TERM "$other" "$wpid" 2>/dev/null
		wait
	)
}
at_exit "printf -- '-:other_%s/tick\n' $$ >>$TRACEFS/uprobe_events"

check_eq "another sdtrace and another tool on the same file: the file-pattern guard passes" ok \
	"$(guard_says "^[p-r]:[^ ]+ $W:")"
check_eq "... and the default guard passes" ok "$(guard_says)"
LEAK=$(sh -c 'echo $$')
at_exit "printf -- '-:sdtrace_%s_1/tick\n' $LEAK >>$TRACEFS/uprobe_events"
check_eq "a group left behind by a session that ended still fails the guard" "not ok" \
	"$(LEAK=$LEAK guard_says "^[p-r]:[^ ]+ $W:")"
check_eq "nothing of the other tool is left" 0 "$(grep -c "^p:other_$$/" "$TRACEFS/uprobe_events")"
finish
