#!/bin/sh
# Semaphores get enabled by both methods: the kernel's (ref_ctr_offset) and sdtrace's own poke
# of /proc/PID/mem, for a started command and for a running process (-p); a poked semaphore is
# restored afterwards; uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
need_tracefs
. "$(dirname "$0")/record-lib.sh"
# Only lines of probes on our own files ($T): other tests may run at the same time.
uprobes_guard "^[p-r]:[^ ]* $T/"
grep -q ref_ctr_offset "$TRACEFS/README" || say "NOTE: kernel has no ref_ctr_offset: refctr cases will fail"

check "not traced: the gated probe stays off" "$REC" -e rt:fire "$TARGET" -- "$TARGET" 20
check_eq "rt:gated semaphore was 0 (only rt:fire traced)" "sem=0" "$(grep '^sem=' "$T/.out")"

for m in refctr poke; do
	check "command, --sem $m" "$REC" --sem "$m" -e rt:gated "$TARGET" -- "$TARGET" 40
	cp "$T/.out" "$T/cmd-$m.out"
	check_eq "command, $m: every gated firing recorded" "samples=40 lost=0 status=0 method=$m" \
		"$(grep '^samples=' "$T/cmd-$m.out")"
	check_eq "command, $m: the program saw its semaphore set" "sem=1" "$(grep '^sem=' "$T/cmd-$m.out")"
	check_eq "command, $m: values" "$(seq 0 39 | sed 's/^/arg1=/')" \
		"$(grep '^sample rt:gated' "$T/cmd-$m.out" | sed 's/.* tid=[0-9]* //')"

	# -p: the program waits for $go before firing and for $stop before printing its semaphore.
	go="$T/go-$m" stop="$T/stop-$m" ready="$T/ready-$m"
	"$TARGET" 30 "$go" 0 "$stop" >"$T/target-$m.out" 2>&1 &
	tpid=$!
	at_exit "kill $tpid 2>/dev/null"
	$FOREGROUND "$REC" --sem "$m" --ready "$ready" -e rt:gated "$TARGET" -p "$tpid" \
		>"$T/p-$m.out" 2>&1 &
	rpid=$!
	at_exit "kill $rpid 2>/dev/null"
	check "-p, $m: armed" wait_file "$ready"
	touch "$go"
	check "-p, $m: the program fired" wait_file "$go.fired"
	sleep 0.2
	kill -INT "$rpid"
	wait "$rpid"
	check_eq "-p, $m: recorder ends cleanly on SIGINT" 0 $?
	touch "$stop"
	wait "$tpid"
	check_eq "-p, $m: every gated firing recorded" "samples=30 lost=0 status=none method=$m" \
		"$(grep '^samples=' "$T/p-$m.out")"
	check_eq "-p, $m: semaphore back to 0 afterwards" "sem=0" "$(grep '^sem=' "$T/target-$m.out")"
	check_eq "-p, $m: nothing of the session left" 0 "$(left_by "$T/p-$m.out")"
	check_eq "command, $m: nothing of the session left" 0 "$(left_by "$T/cmd-$m.out")"
done

uprobes_unchanged
finish
