#!/bin/sh
# examples/sdt-record-spec.c, recording by event spec in one library call
# (sdt_recorder__add_specs()): the bundled example's %example:job__start counted from its
# first job, a spec that matches nothing refused with the reason, an event with no hit with
# the library's reason (sdt_recorder__silence()), a launcher whose execs have none of the event
# with what it ran (sdt_recorder__exec()), uprobe_events left as it was.
. "$(dirname "$0")/lib.sh"
need_tracefs
EX=$BUILD_DIR/examples/sdt-example
EXR=$BUILD_DIR/examples/sdt-record-spec
need_file "$EX" "$EXR"
uprobes_guard "^[p-r]:[^ ]+ $EX:"
cd "$T" || exit 1
# LeakSanitizer cannot run in a traced process (the command is followed): off in the command
cmd=$EX
[ -z "$(lsan_no_follow "$EX")" ] || cmd="env ASAN_OPTIONS=detect_leaks=0 $EX"

"$EXR" %example:job__start $cmd 3 >out 2>err
check_eq "the example records a command: exit 0" 0 $?
check_eq "every job__start counted, the first one included" "%example:job__start: 3 hits" \
	"$(grep '^%example' out)"
check_eq "nothing on stderr" "" "$(cat err)"

# the program itself, not `env` (a launcher, whose specs are looked up at its exec, later):
# LeakSanitizer off in both instead
nolsan=
[ -z "$(lsan_no_follow "$EX")" ] || nolsan="ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0"
env $nolsan "$EXR" '%example:job__strat' "$EX" 1 >out 2>err
check_eq "a spec that matches nothing fails" 1 $?
check "says why, with the near name" grep -q "no SDT event.*job__strat.*did you mean" err

# an event with no hit: the library's reason under its line
"$EXR" %example:job__start $cmd 0 >out 2>err
check_eq "no job: exit 0" 0 $?
check_eq "0 hits, then the reason" "%example:job__start: 0 hits
  not-run: mapped and $EX armed, no hit" "$(sed 's/, no hit:.*/, no hit/' out)"

# a launcher whose execs have none of the event: not silent, what it ran (issue 33)
env $nolsan "$EXR" %example:job__start sh -c 'exec /bin/true' >out 2>err
check_eq "a launcher that runs nothing with the event: exit 1" 1 $?
check "says the spec matches nothing the command ran, and what it ran" grep -qE \
	"^sdt-record-spec: '%example:job__start' matches nothing the command ran: /[^ ]+ -> /[^ ]*/true\$" err

"$EXR" >out 2>err
check_eq "no arguments: a usage error" 2 $?
uprobes_unchanged
finish
