#!/bin/sh
# SIGINT, SIGTERM and SIGHUP end a recording cleanly (events removed, exit 0); with a command, the
# command is terminated too. System-wide recording (-a) for a duration records a program started
# by someone else.
. "$(dirname "$0")/lib.sh"
need_tracefs
. "$(dirname "$0")/record-lib.sh"
# Only lines of probes on our own files ($T): other tests may run at the same time.
uprobes_guard "^[p-r]:[^ ]* $T/"

for sig in INT TERM HUP; do
	"$TARGET" 1 "$T/never-$sig" >/dev/null 2>&1 &
	tpid=$!
	at_exit "kill $tpid 2>/dev/null"
	$FOREGROUND "$REC" --ready "$T/ready-$sig" -e rt:fire "$TARGET" -p "$tpid" \
		>"$T/p-$sig.out" 2>&1 &
	rpid=$!
	at_exit "kill -9 $rpid 2>/dev/null"
	check "-p, SIG$sig: armed" wait_file "$T/ready-$sig"
	check_eq "-p, SIG$sig: group present while recording" 1 "$(left_by "$T/p-$sig.out")"
	kill -"$sig" "$rpid"
	wait "$rpid"
	check_eq "-p, SIG$sig: exit 0" 0 $?
	check_eq "-p, SIG$sig: events removed" 0 "$(left_by "$T/p-$sig.out")"
	check "-p, SIG$sig: the traced process is left running" kill -0 "$tpid"
	kill "$tpid"

	$FOREGROUND "$REC" --ready "$T/cready-$sig" -e rt:fire "$TARGET" -- "$TARGET" 1 \
		"$T/never-$sig" >"$T/c-$sig.out" 2>&1 &
	rpid=$!
	check "command, SIG$sig: armed" wait_file "$T/cready-$sig"
	kill -"$sig" "$rpid"
	wait "$rpid"
	check_eq "command, SIG$sig: exit 0" 0 $?
	check_eq "command, SIG$sig: the command was terminated" "status=sig:15" \
		"$(grep -o 'status=[^ ]*' "$T/c-$sig.out")"
	check_eq "command, SIG$sig: events removed" 0 "$(left_by "$T/c-$sig.out")"
done

"$REC" --ready "$T/aready" --duration 3000 -e rt:fire "$TARGET" -a >"$T/a.out" 2>&1 &
rpid=$!
at_exit "kill -9 $rpid 2>/dev/null"
check "-a: armed" wait_file "$T/aready"
"$TARGET" 77 >/dev/null
"$TARGET" 23 >/dev/null
wait "$rpid"
check_eq "-a: ends after its duration" 0 $?
check_eq "-a: both runs recorded" "samples=100 lost=0" "$(grep '^samples=' "$T/a.out" | cut -d' ' -f1,2)"
check_eq "-a: events removed" 0 "$(left_by "$T/a.out")"
uprobes_unchanged
finish
