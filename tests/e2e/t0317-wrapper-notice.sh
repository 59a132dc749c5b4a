#!/bin/sh
# SPDX-License-Identifier: MIT
# A wrapper (a shim, java's launcher, unshare, env, sh -c 'exec ...') has none of the events: the
# cached binary that has them is probed, and that is said once, not once per event, and without
# guessing "a library it loads with dlopen()?" as the cause: the wrapper most often execs the
# program. Here `sh -c 'exec prog-sizes'` with three events of prog-sizes, cached.
. "$(dirname "$0")/lib.sh"
need_tracefs
P=$PROGS_DIR/prog-sizes
need_file "$P"
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ $P:"
check "cache add prog-sizes" "$SDTRACE" cache add "$P"
"$SDTRACE" stat -e %sizes:min -e %sizes:max -e %sizes:small -- sh -c "exec '$P'" \
	>stat.out 2>stat.err
check_eq "stat through sh -c 'exec ...': the command's status" 0 $?
check_eq "one notice for the three events" 1 "$(grep -c "is in none of the files of 'sh'" stat.err)"
check "it names the cached binary probed" grep -q "probing the cached '$P'" stat.err
check "it says the wrapper may exec the program" grep -q "it may exec another program" stat.err
check_eq "no 'a library it loads with dlopen()?' guess" 0 \
	"$(grep -c 'a library it loads with dlopen()?' stat.err)"
uprobes_unchanged
finish
