#!/bin/sh
# record, trace and stat -- CMD exit with CMD's status (128 + N when signal N killed it), as
# strace, perf and a shell's `time` do; sdtrace's own errors keep 1 and 2, after a line
# "sdtrace: error: ...". A background `sdtrace record &` of a script starts with SIGINT ignored,
# and `kill -INT` stops it all the same, as it stops perf and bpftrace; a SIGHUP ignored by nohup
# stays ignored; SIGTERM stops it. The command starts with the signal dispositions and mask sdtrace was started with, not
# sdtrace's own (no ignored SIGPIPE). After a SIGKILL of sdtrace the command goes on, untraced.
. "$(dirname "$0")/lib.sh"
need_tracefs
. "$(dirname "$0")/record-lib.sh"
# Only lines of probes on our own files ($T): other tests may run at the same time.
uprobes_guard "^[p-r]:[^ ]* $T/"
cd "$T" || exit 1
ulimit -c 0
OPTS="-o $T/r.data -x $TARGET -e %rt:fire"
SIGS='grep -E "^Sig(Blk|Ign)" /proc/self/status'

# ---- exit statuses ---------------------------------------------------------------------------
"$SDTRACE" record $OPTS -- "$TARGET" 5 >/dev/null 2>r0.err
check_eq "a command that exits 0: 0" 0 $?
check "its hits are recorded" grep -q "^sdtrace: 5 events recorded .*exited with status 0$" r0.err
"$SDTRACE" record $OPTS -- "$TARGET" 5 "" 7 >/dev/null 2>r7.err
check_eq "a command that exits 7 after 5 hits: 7" 7 $?
check "its hits are recorded, its status said" \
	grep -q "^sdtrace: 5 events recorded .*exited with status 7$" r7.err
check "and the recording is kept" "$SDTRACE" report -i "$T/r.data"
check_eq "with the 5 hits" 5 "$(grep -c 'rt:fire' "$T/.out")"
"$SDTRACE" record $OPTS -- sh -c 'exit 3' >/dev/null 2>r3.err
check_eq "record -- sh -c 'exit 3': 3" 3 $?
"$SDTRACE" record $OPTS -- sh -c 'kill -SEGV $$' >/dev/null 2>segv.err
check_eq "a command killed by SIGSEGV: 128 + 11" 139 $?
check "says so" grep -q "the command was killed by signal 11$" segv.err
"$SDTRACE" record $OPTS -- sh -c 'kill -KILL $$' >/dev/null 2>kill.err
check_eq "a command killed by SIGKILL: 128 + 9" 137 $?
"$SDTRACE" record $OPTS -- "$TARGET" 3 "" -1 >/dev/null 2>abrt.err
check_eq "a command that calls abort() after 3 hits: 128 + 6" 134 $?
check "its hits are recorded" grep -q "^sdtrace: 3 events recorded" abrt.err
"$SDTRACE" trace -x "$TARGET" -e %rt:fire -- sh -c 'exit 4' >/dev/null 2>&1
check_eq "trace -- sh -c 'exit 4': 4" 4 $?
"$SDTRACE" trace -x "$TARGET" -e %rt:fire -- sh -c 'kill -SEGV $$' >/dev/null 2>&1
check_eq "trace, a command killed by SIGSEGV: 139" 139 $?
"$SDTRACE" stat -x "$TARGET" -e %rt:fire -- sh -c 'exit 5' >/dev/null 2>&1
check_eq "stat -- sh -c 'exit 5': 5" 5 $?
"$SDTRACE" stat -x "$TARGET" -e %rt:fire -- sh -c 'kill -SEGV $$' >/dev/null 2>&1
check_eq "stat, a command killed by SIGSEGV: 139" 139 $?

# sdtrace's own errors: 1 (2 for usage), with a line that says so
"$SDTRACE" record -o "$T/e.data" -x "$TARGET" -e %rt:nosuch -- sh -c 'exit 3' >/dev/null \
	2>e1.err
check_eq "an event that matches nothing: 1, not the command's 3" 1 $?
check "says why" grep -q "^sdtrace: error: " e1.err
"$SDTRACE" record $OPTS --no-such-option -- sh -c 'exit 3' >/dev/null 2>e2.err
check_eq "a usage error: 2" 2 $?
"$SDTRACE" record $OPTS -- "$T/no-such-command" >/dev/null 2>e3.err
check_eq "a command that cannot be run: 1" 1 $?
check "says why" grep -q "^sdtrace: error: cannot run" e3.err
"$SDTRACE" record $OPTS -m 1048576 -- sh -c 'exit 3' >/dev/null 2>e4.err
check_eq "an error while arming (a ring too large): 1, the command never ran" 1 $?
check "says why" grep -q "^sdtrace: error: " e4.err

# ---- signals -------------------------------------------------------------------------------
# a background record of a script (`sdtrace record ... &`: SIGINT ignored at start, as a
# non-interactive shell starts it): kill -INT stops it, as it stops perf record and bpftrace
# (before, it recorded on until the command ended)
"$SDTRACE" record $OPTS -- sh -c "touch '$T/started1'; exec '$TARGET' 4 '$T/go1'" \
	>/dev/null 2>bg.err &
rp=$!
at_exit "kill -9 $rp 2>/dev/null"
check "background: the command runs" wait_file "$T/started1"
kill -INT "$rp"
check "background, SIGINT (ignored by the shell at start): sdtrace stops" wait_gone "$rp" 10
touch "$T/go1"
wait "$rp"
check_eq "background, SIGINT: the command's SIGTERM: 128 + 15" 143 $?
check "background: says so" grep -q "the command was killed by signal 15$" bg.err

# under nohup (SIGHUP ignored): SIGHUP is ignored, SIGTERM stops it
env --ignore-signal=HUP "$SDTRACE" record $OPTS -- \
	sh -c "touch '$T/started2'; exec '$TARGET' 1 '$T/never'" >/dev/null 2>hup.err &
rp=$!
at_exit "kill -9 $rp 2>/dev/null"
check "nohup: the command runs" wait_file "$T/started2"
kill -HUP "$rp"
sleep 0.5
check "nohup, SIGHUP: still recording" kill -0 "$rp"
kill -TERM "$rp"
wait "$rp"
check_eq "nohup, SIGTERM: stops, and sends the command SIGTERM: 128 + 15" 143 $?
check "nohup: says so" grep -q "the command was killed by signal 15$" hup.err

# SIGINT not ignored (a job of an interactive shell, Ctrl-C): stops
$FOREGROUND "$SDTRACE" record $OPTS -- sh -c "touch '$T/started3'; exec '$TARGET' 1 '$T/never'" \
	>/dev/null 2>int.err &
rp=$!
at_exit "kill -9 $rp 2>/dev/null"
check "foreground: the command runs" wait_file "$T/started3"
kill -INT "$rp"
wait "$rp"
check_eq "foreground, SIGINT: stops, the command's SIGTERM: 128 + 15" 143 $?

# the command's dispositions and mask are those sdtrace was started with
sh -c "$SIGS" >direct.txt
"$SDTRACE" record $OPTS -- sh -c "$SIGS" >child.txt 2>/dev/null
check "the command's ignored and blocked signals are sdtrace's at start" cmp direct.txt child.txt
"$SDTRACE" trace -x "$TARGET" -e %rt:fire -- sh -c "$SIGS" >trace-child.txt 2>/dev/null
check "trace's command too" cmp direct.txt trace-child.txt
sh -c "$SIGS" >direct-bg.txt &
wait $!
"$SDTRACE" record $OPTS -- sh -c "$SIGS" >child-bg.txt 2>/dev/null &
wait $!
check "in the background too (SIGINT and SIGQUIT ignored)" cmp direct-bg.txt child-bg.txt
env --ignore-signal=HUP sh -c "$SIGS" >direct-hup.txt
env --ignore-signal=HUP "$SDTRACE" record $OPTS -- sh -c "$SIGS" >child-hup.txt 2>/dev/null
check "under nohup too (SIGHUP ignored)" cmp direct-hup.txt child-hup.txt

# SIGKILL of sdtrace: the command goes on, untraced; the next sdtrace removes the probes
"$SDTRACE" record -o "$T/k.data" -x "$TARGET" -e %rt:fire -- \
	sh -c "touch '$T/started4'; exec '$TARGET' 3 '$T/go4'" >/dev/null 2>&1 &
rp=$!
at_exit "kill -9 $rp 2>/dev/null"
check "SIGKILL: the command runs" wait_file "$T/started4"
kill -9 "$rp"
wait "$rp" 2>/dev/null
if tracefs_engine; then
	check_eq "SIGKILL: the killed session's probes stay" 1 "$(grep -c "^p:sdtrace_${rp}_" \
		"$TRACEFS/uprobe_events")"
else
	# the BPF engine's links and maps went with its file descriptors
	check_eq "SIGKILL ($ENGINE): no uprobe line of the session" 0 \
		"$(grep -c "^p:sdtrace_${rp}_" "$TRACEFS/uprobe_events")"
fi
touch "$T/go4"
check "SIGKILL: the command goes on to its end" wait_file "$T/go4.fired"
check "the next sdtrace removes the probes" "$REC" --remove-stale
check_eq "they are gone" 0 "$(grep -c "^p:sdtrace_${rp}_" "$TRACEFS/uprobe_events")"
uprobes_unchanged
finish
