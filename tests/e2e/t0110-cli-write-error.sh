#!/bin/sh
# SPDX-License-Identifier: MIT
# Every command ends in main(), which flushes stdout once: output that cannot be written (here
# /dev/full) is one "cannot write output" error and exit 1, whichever command wrote it (--help of
# each command and subcommand, --version, list, cache list, probe list; list exits 2, as grep
# does on an error), and a usage error keeps its exit code 2. With a writable stdout the exit
# code is 0.
. "$(dirname "$0")/lib.sh"
need_file /dev/full
INLINE=$PROGS_DIR/prog-inline
need_file "$INLINE"

# full NAME EXPECTED-RC ARGS...: sdtrace ARGS >/dev/full exits EXPECTED-RC with one error line.
full() {
	_name=$1 _want=$2
	shift 2
	"$SDTRACE" "$@" >/dev/full 2>"$T/err"
	_rc=$?
	check_eq "$_name >/dev/full: exit $_want" "$_want" "$_rc"
	check_eq "$_name >/dev/full: one 'cannot write output' line" \
		"sdtrace: error: cannot write output: No space left on device" "$(cat "$T/err")"
}

full "--help" 1 --help
full "--version" 1 --version
full "help" 1 help
for cmd in list record trace stat report cache probe; do
	want=1
	[ "$cmd" = list ] && want=2
	full "$cmd --help" $want "$cmd" --help
	full "help $cmd" $want help "$cmd"
	check_eq "$cmd --help to a file: exit 0" 0 "$("$SDTRACE" "$cmd" --help >"$T/out" 2>&1; echo $?)"
done
for sub in add remove list purge update check; do
	full "cache $sub --help" 1 cache "$sub" --help
done
for sub in add list remove; do
	full "probe $sub --help" 1 probe "$sub" --help
done
full "list -x" 2 list -x "$INLINE"
full "list -x --json" 2 list -x "$INLINE" --json
full "list -x -v" 2 list -x "$INLINE" -v
"$SDTRACE" cache add "$INLINE" >/dev/null 2>&1
full "list (the cache)" 2 list
full "cache list" 1 cache list
full "cache list --json" 1 cache list --json
full "probe list" 1 probe list --json

# A usage error says so (exit 2); the write error does not turn it into 1.
"$SDTRACE" list --no-such-option >/dev/full 2>"$T/err"
check_eq "usage error >/dev/full: still exit 2" 2 "$?"
finish
