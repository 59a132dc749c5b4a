#!/bin/sh
# Recording a command: every firing arrives with the right raw values, from the first one; the
# command's exit status is reported; every path (normal end, crash, exec failure, an error after
# the probes were created) leaves uprobe_events as it was.
. "$(dirname "$0")/lib.sh"
need_tracefs
. "$(dirname "$0")/record-lib.sh"
# Only lines of probes on our own files ($T): other tests may run at the same time.
uprobes_guard "^[p-r]:[^ ]* $T/"

check "record 1000 firings of a command" "$REC" -e rt:fire "$TARGET" -- "$TARGET" 1000
cp "$T/.out" "$T/rec.out"
check_eq "every firing recorded" "samples=1000 lost=0 status=0" \
	"$(grep '^samples=' "$T/rec.out" | sed 's/ method=.*//')"
expected_fire 1000 >"$T/expected"
actual_fire "$T/rec.out" >"$T/actual"
check "arguments: s8, s32, s64, u64 and a global, all values right" cmp -s "$T/expected" "$T/actual"
check_eq "the first firing is recorded (the command starts stopped)" \
	"arg1=0 arg2=-1 arg3=-7 arg4=0 arg5=1" \
	"$(grep -m1 '^sample rt:fire ' "$T/rec.out" | sed 's/.* tid=[0-9]* //')"
check "the event description names the session group (pid, start time, sequence, pid namespace)" \
	grep -Eq '^event rt:fire sdtrace_[0-9]+_[0-9]+_[0-9]+_[0-9]+/rt_fire sites=1 args=5' "$T/rec.out"
check "the command's name arrives as a comm record" grep -q '^comm pid=[0-9]* tid=[0-9]* rt-target' \
	"$T/rec.out"
check_eq "nothing of the session left" 0 "$(left_by "$T/rec.out")"

check "exit status 3 is reported" "$REC" -e rt:fire "$TARGET" -- "$TARGET" 5 "" 3
check_eq "status=3" "samples=5 lost=0 status=3" "$(grep '^samples=' "$T/.out" | sed 's/ method=.*//')"
check "a crashing command" "$REC" -e rt:fire "$TARGET" -- "$TARGET" 7 "" -1
check_eq "status=sig:6 after abort()" "samples=7 lost=0 status=sig:6" \
	"$(grep '^samples=' "$T/.out" | sed 's/ method=.*//')"
check_fails "a command that does not exist" "$REC" -e rt:fire "$TARGET" -- "$T/no-such-command"
cp "$T/.out" "$T/nocmd.out"
check_eq "exec failure: nothing left" 0 "$(left_by "$T/nocmd.out")"
check "says why" grep -q "cannot run '$T/no-such-command'" "$T/nocmd.out"
check_fails "an error after the probes were created (the sink fails)" \
	"$REC" --fail-after 3 -e rt:fire "$TARGET" -- "$TARGET" 100
check_eq "sink failure: nothing left" 0 "$(left_by "$T/.out")"

check "counting mode" "$REC" --count -e rt:fire "$TARGET" -- "$TARGET" 321
check_eq "the kernel counted every firing" "count 0 321" "$(grep '^count ' "$T/.out")"

check "several events in one session" "$REC" -e rt:fire -e rt:gated "$TARGET" -- "$TARGET" 50
check_eq "two events described" 2 "$(grep -c '^event ' "$T/.out")"

uprobes_unchanged "uprobe_events: every line on our files as before"
finish
