#!/bin/sh
# SPDX-License-Identifier: MIT
# Never a silent zero for a file named with -x (issue 33): two builds of one provider (tick,
# other paths and build-ids), `-x v1/tick -- a/tick`. The command runs a/tick, whose
# %myapp:tick is armed at its exec and hit; v1/tick, the file named, is never mapped. The end
# says so, with what the command ran and the file that has the event:
#	sdtrace: -x v1/tick: not-mapped: neither the command nor its children mapped .../v1/tick;
#	they ran .../a/tick; .../a/tick has %myapp:tick too: name .../a/tick with -x, or drop -x
# record, stat and trace alike, also when a child of the command runs it (sh -c 'a/tick; :'); no
# such line when -x names the file the command runs.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd cc
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ $T/"
cat >tick.c <<'CEOF'
#include <stdlib.h>
#include <sys/sdt.h>
#ifndef VARIANT
#define VARIANT 1
#endif
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3, i;

	for (i = 0; i < n; i++)
		STAP_PROBE1(myapp, tick, VARIANT);
	return 0;
}
CEOF
mkdir -p v1 a
cc -O2 -g -DVARIANT=1 -o v1/tick tick.c && cc -O2 -g -DVARIANT=2 -o a/tick tick.c ||
	skip "cannot compile tick.c (sys/sdt.h)"
id() { readelf -n "$1" | awk '/Build ID/ { print $3 }'; }
check "two builds: other build-ids" test "$(id v1/tick)" != "$(id a/tick)"
tail="name $T/a/tick with -x, or drop -x"

for cmd in record stat trace; do
	out=
	[ "$cmd" = record ] && out="-o $cmd.dat"
	"$SDTRACE" $cmd $out -x v1/tick -e %myapp:tick -- a/tick 3 >$cmd.out 2>$cmd.err
	check_eq "$cmd -x v1/tick -- a/tick: exit 0" 0 $?
	line=$(grep '^sdtrace: -x v1/tick: not-mapped: ' $cmd.err)
	check "$cmd: a line for the -x file" test -n "$line"
	case $line in
	*"neither the command nor its children mapped $T/v1/tick; they ran $T/a/tick; $T/a/tick has %myapp:tick too: $tail")
		pass "$cmd: never mapped, what ran, who has it, what to do" ;;
	*) fail "$cmd: never mapped, what ran, who has it, what to do" "$(cat $cmd.err)" ;;
	esac
	check_eq "$cmd: no 0-hit line (a/tick's hits count)" 0 "$(grep -c '0 hits' $cmd.err)"
done
check "record: a/tick's 3 hits recorded" grep -q "^sdtrace: 3 events recorded" record.err

# a child of the command runs it: the chain shows the shell, then the child's exec
"$SDTRACE" stat -x v1/tick -e %myapp:tick -- sh -c "'$T/a/tick' 2; :" >c.out 2>c.err
check_eq "stat -- sh -c 'a/tick; :': exit 0" 0 $?
check "a child's exec: the same line, the chain through the shell" grep -qE \
	"^sdtrace: -x v1/tick: not-mapped: neither the command nor its children mapped $T/v1/tick; they ran /[^ ]+ -> \\(pid [0-9]+\\) $T/a/tick; $T/a/tick has %myapp:tick too: $tail" \
	c.err

# -x names the file the command runs: nothing to say
"$SDTRACE" stat -x a/tick -e %myapp:tick -- a/tick 3 >g.out 2>g.err
check_eq "stat -x a/tick -- a/tick: exit 0" 0 $?
check_eq "no not-mapped line" 0 "$(grep -c 'not-mapped' g.err)"
uprobes_unchanged
finish
