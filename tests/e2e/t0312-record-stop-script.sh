#!/bin/sh
# SPDX-License-Identifier: MIT
# Stopping sdtrace from a script, as perf and bpftrace are stopped:
#  - `sh -c 'sdtrace record ... & pid=$!; ...; kill -INT $pid; wait $pid'`: a non-interactive
#    shell starts the background sdtrace with SIGINT ignored; kill -INT stops it all the same
#    (record and stat), and the recording is written;
#  - a command that ignores SIGTERM, or is stopped (SIGSTOP), does not keep sdtrace running: the
#    stopped one is sent SIGCONT with the SIGTERM and ends of it; the one ignoring SIGTERM is
#    killed (SIGKILL) after a few seconds, or at once at a second signal, and sdtrace says it
#    was killed by signal 9. Before, sdtrace ran on silently through every further signal.
. "$(dirname "$0")/lib.sh"
need_tracefs
. "$(dirname "$0")/record-lib.sh"
uprobes_guard "^[p-r]:[^ ]* $T/"
cd "$T" || exit 1
OPTS="-x $TARGET -e %rt:fire"

# ---- kill -INT of a background sdtrace, in a script --------------------------------------------
for cmd in record stat; do
	out=""
	[ $cmd = record ] && out="-o $T/bg.data"
	# the script waits for the command to run (every probe is armed before it starts), then
	# lets it fire 3 times, waits for that, sends SIGINT, and reports sdtrace's status.
	cat >"$T/bg-$cmd.sh" <<EOF
"$SDTRACE" $cmd $out $OPTS -- \
	sh -c "echo \\\$\\\$ >'$T/cmd-$cmd.pid'; exec '$TARGET' 3 '$T/go-$cmd' 0 '$T/never'" \
	>'$T/bg-$cmd.out' 2>'$T/bg-$cmd.err' &
pid=\$!
echo \$pid >'$T/sd-$cmd.pid'
n=0
while [ ! -s '$T/cmd-$cmd.pid' ] && [ \$n -lt 100 ]; do sleep 0.1; n=\$((n + 1)); done
touch '$T/go-$cmd'
while [ ! -e '$T/go-$cmd.fired' ] && [ \$n -lt 200 ]; do sleep 0.1; n=\$((n + 1)); done
kill -INT \$pid
wait \$pid
echo "status \$?" >'$T/bg-$cmd.status'
EOF
	sh "$T/bg-$cmd.sh" &
	shpid=$!
	at_exit "kill -9 \$(cat '$T/sd-$cmd.pid' '$T/cmd-$cmd.pid' 2>/dev/null) $shpid 2>/dev/null"
	check "$cmd &, kill -INT: sdtrace stops (the script's wait returns)" wait_gone "$shpid" 15
	check_eq "$cmd &, kill -INT: the command's SIGTERM is the status" "status 143" \
		"$(cat "$T/bg-$cmd.status" 2>/dev/null)"
done
check "record &, kill -INT: the recording is written" grep -q "^sdtrace: 3 events recorded" \
	"$T/bg-record.err"
check "stat &, kill -INT: the counts are printed" grep -q "3 *%rt:fire" "$T/bg-stat.out"

# ---- a command stopped (SIGSTOP) when sdtrace is asked to stop ------------------------------
$FOREGROUND "$SDTRACE" record -o "$T/stopped.data" $OPTS -- \
	sh -c "echo \$\$ >'$T/stopped.pid'; exec '$TARGET' 2 '$T/never'" >/dev/null 2>"$T/stopped.err" &
rp=$!
at_exit "kill -9 $rp \$(cat '$T/stopped.pid' 2>/dev/null) 2>/dev/null"
check "stopped: the command runs" wait_file "$T/stopped.pid"
cp=$(cat "$T/stopped.pid")
kill -STOP "$cp"
n=0
while ! ps -o stat= -p "$cp" | grep -q '^[Tt]' && [ $n -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
check "stopped: the command is stopped" sh -c "ps -o stat= -p $cp | grep -q '^[Tt]'"
kill -INT "$rp"
check "stopped command, SIGINT: sdtrace stops (SIGCONT with the SIGTERM)" wait_gone "$rp" 10
kill -9 "$rp" "$cp" 2>/dev/null
wait "$rp"
check_eq "stopped command: its SIGTERM is the status" 143 $?

# ---- a command that ignores SIGTERM ---------------------------------------------------------
for how in deadline second; do
	rm -f "$T/ign.pid"
	$FOREGROUND "$SDTRACE" record -o "$T/ign.data" $OPTS -- \
		sh -c "trap '' TERM; echo \$\$ >'$T/ign.pid'; exec '$TARGET' 2 '$T/never'" \
		>/dev/null 2>"$T/ign-$how.err" &
	rp=$!
	at_exit "kill -9 $rp \$(cat '$T/ign.pid' 2>/dev/null) 2>/dev/null"
	check "ignores SIGTERM ($how): the command runs" wait_file "$T/ign.pid"
	cp=$(cat "$T/ign.pid")
	kill -INT "$rp"
	# a second signal once sdtrace has sent SIGTERM (its uprobes are gone by then)
	if [ $how = second ]; then
		n=0
		while [ "$(grep -c "^p:sdtrace_${rp}_" "$TRACEFS/uprobe_events")" != 0 ] &&
			[ $n -lt 100 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		kill -TERM "$rp"
	fi
	check "ignores SIGTERM ($how): sdtrace stops all the same" wait_gone "$rp" 10
	kill -9 "$rp" "$cp" 2>/dev/null
	wait "$rp"
	check_eq "ignores SIGTERM ($how): killed, 128 + 9" 137 $?
	check "ignores SIGTERM ($how): says it was killed by signal 9" \
		grep -q "the command was killed by signal 9" "$T/ign-$how.err"
done
uprobes_unchanged
finish
