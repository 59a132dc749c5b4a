#!/bin/sh
# sdtrace record removes its uprobes on every ending, and uprobe_events is byte-identical before
# and after each: a normal end; SIGINT, SIGTERM and SIGHUP to sdtrace (the command is ended, the
# events so far are in the file); the command crashing (SIGSEGV, SIGABRT); an error after the
# probes were created (a ring too large to map). After a SIGKILL of sdtrace its group stays; the
# next sdtrace invocation removes it and says so.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
W=$PROGS_DIR/prog-wait
need_file "$W" "$PROGS_DIR/prog-sizes"
cd "$T" || exit 1
# our probes are the ones on our programs: other test runs may record meanwhile
PAT="^[p-r]:[^ ]+ $PROGS_DIR/"
uprobes_guard "$PAT"
ulimit -c 0

ours() { grep -Ec "$PAT" "$TRACEFS/uprobe_events"; }
# tick PIDFILE N: N rounds of the prog-wait whose pid is in PIDFILE (its stdout: PIDFILE.out)
tick() { prog_wait_ticks "$(cat "$1")" "$1.out" "$2"; }
before=$(ours)

# normal end
"$SDTRACE" record -o normal.data -x "$PROGS_DIR/prog-sizes" -e '%sizes:*' -- \
	"$PROGS_DIR/prog-sizes" 2 >/dev/null 2>normal.err
check_eq "normal end: exit 0" 0 $?
check_eq "normal end: events removed" "$before" "$(ours)"
uprobes_unchanged "normal end: uprobe_events unchanged"

# a signal to sdtrace while it records a command that waits (prog-wait: wait:tick, lib:*)
for sig in INT TERM HUP; do
	$FOREGROUND "$SDTRACE" record -o "$sig.data" -e "$W:%wait:tick" \
		-e "$PROGS_DIR/libprog-lib.so:%lib:*" -- "$W" "$T/$sig.pid" >"$T/$sig.pid.out" \
		2>"$sig.err" &
	rpid=$!
	at_exit "kill -9 $rpid 2>/dev/null; [ -s $T/$sig.pid ] && kill -9 \$(cat $T/$sig.pid)"
	if ! check "SIG$sig: the command runs (armed)" wait_file "$sig.pid"; then
		kill -9 "$rpid"
		continue
	fi
	if tracefs_engine; then
		check "SIG$sig: the events are in uprobe_events while recording" test "$(ours)" -gt "$before"
	else
		check_eq "SIG$sig ($ENGINE): nothing in uprobe_events while recording" "$before" "$(ours)"
	fi
	tick "$sig.pid" 2
	kill -"$sig" "$rpid"
	wait "$rpid"
	check_eq "SIG$sig: exit 0" 0 $?
	check_eq "SIG$sig: events removed" "$before" "$(ours)"
	uprobes_unchanged "SIG$sig: uprobe_events unchanged"
	check "SIG$sig: the command was ended" sh -c "! kill -0 $(cat "$sig.pid") 2>/dev/null"
	check_eq "SIG$sig: the events before the signal are in the file" \
		"wait:tick 0 lib:call 0 lib:gated 0 wait:tick 1 lib:call 1 lib:gated 1 " \
		"$("$SDTRACE" report -i "$sig.data" --json | python3 -c '
import json, sys
# by time: report prints the file order, each CPU ring as drained (see t0606)
for e in sorted((json.loads(l) for l in sys.stdin), key=lambda e: e["time_ns"]):
    print("%s:%s %d" % (e["provider"], e["name"], e["args"][0]), end=" ")' 2>&1)"
	check "SIG$sig: says how many were recorded" grep -q "^sdtrace: 6 events recorded" "$sig.err"
done

# the command crashes
for sig in SEGV:11 ABRT:6; do
	num=${sig#*:}
	sig=${sig%:*}
	"$SDTRACE" record -o "$sig.data" -e "$W:%wait:tick" -- "$W" "$T/$sig.pid" \
		>"$T/$sig.pid.out" 2>"$sig.err" &
	rpid=$!
	at_exit "kill -9 $rpid 2>/dev/null; [ -s $T/$sig.pid ] && kill -9 \$(cat $T/$sig.pid)"
	if ! check "command SIG$sig: armed" wait_file "$sig.pid"; then
		kill -9 "$rpid"
		continue
	fi
	tick "$sig.pid" 1
	kill -"$sig" "$(cat "$sig.pid")"
	wait "$rpid"
	check_eq "command SIG$sig: exit 128 + $num, the command's status" $((128 + num)) $?
	check_eq "command SIG$sig: events removed" "$before" "$(ours)"
	uprobes_unchanged "command SIG$sig: uprobe_events unchanged"
	check "command SIG$sig: says the command was killed" \
		grep -q "; the command was killed by signal $num\$" "$sig.err"
	check_eq "command SIG$sig: the event before the crash is in the file" 1 \
		"$("$SDTRACE" report -i "$sig.data" | grep -c 'wait:tick: arg1=0')"
done

# an error after the probes were created: a ring of 2^20 pages per CPU cannot be mapped
"$SDTRACE" record -m 1048576 -o big.data -x "$PROGS_DIR/prog-sizes" -e '%sizes:*' -- \
	"$PROGS_DIR/prog-sizes" 1 >big.out 2>big.err
check_eq "error after creating the probes: exit 1" 1 $?
check "error after creating the probes: says why" grep -q '^sdtrace: error: .*ring' big.err
check_eq "error after creating the probes: the program did not run" "" "$(cat big.out)"
check_eq "error after creating the probes: one line on stderr" 1 "$(grep -c . big.err)"
check "error after creating the probes: no data file left" test ! -e big.data
check_eq "error after creating the probes: events removed" "$before" "$(ours)"
uprobes_unchanged "error after creating the probes: uprobe_events unchanged"

# SIGKILL: nothing can clean up; the next invocation removes the dead session's group
"$SDTRACE" record -o kill.data -e "$W:%wait:tick" -- "$W" "$T/kill.pid" >"$T/kill.pid.out" \
	2>kill.err &
rpid=$!
at_exit "kill -9 $rpid 2>/dev/null; [ -s $T/kill.pid ] && kill -9 \$(cat $T/kill.pid)"
if check "SIGKILL: armed" wait_file kill.pid; then
	group=$(grep -E "$PAT" "$TRACEFS/uprobe_events" | grep " $W:" | sed 's/^p:\([^/]*\)\/.*/\1/' |
		sort -u)
	kill -9 "$rpid"
	wait "$rpid" 2>/dev/null
	if tracefs_engine; then
		check_eq "SIGKILL: one group of ours left behind" 1 \
			"$(echo "$group" | grep -c "^sdtrace_$rpid")"
	else
		check_eq "SIGKILL ($ENGINE): no group at all" 0 "$(echo "$group" | grep -c "^sdtrace_")"
		group=sdtrace_no_group_of_a_bpf_session
	fi
	# Its events stay, until any sdtrace removes dead sessions' groups: one of another test run
	# may come first.
	present=$(grep -c "^p:$group/" "$TRACEFS/uprobe_events")
	"$SDTRACE" stat -x "$PROGS_DIR/prog-sizes" -e '%sizes:min' -- "$PROGS_DIR/prog-sizes" \
		>next.out 2>next.err
	check_eq "SIGKILL: the next sdtrace succeeds" 0 $?
	kill -9 "$(cat kill.pid)"
	if [ "$present" -gt 0 ]; then
		check "SIGKILL: the next sdtrace says it removed the dead session's group" \
			grep -q "^sdtrace: warning: removed [0-9]* uprobe groups\{0,1\} left by a killed sdtrace: .*$group" \
			next.err
	else
		say "the dead session's group was removed by another sdtrace first: not checked"
	fi
	check "SIGKILL: the group is gone" sh -c "! grep -q '^p:$group/' $TRACEFS/uprobe_events"
fi
check_eq "at the end: events removed" "$before" "$(ours)"
uprobes_unchanged
finish
