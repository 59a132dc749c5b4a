#!/bin/sh
# SPDX-License-Identifier: MIT
# One rule for exit statuses (sdtrace(1), EXIT STATUS), followed by every command: 0 success;
# 1 a runtime error, after one "sdtrace: error:" line, including an event spec that matches
# nothing, whether that is known before the command starts (the command's files lack it) or only
# after it ran (nothing it exec'd had it); 2 a usage error; with a command, the command's own
# status otherwise (128 + N for signal N). Before, `stat -e %libc:setjmp -- true` warned and
# exited 0 while the same spec with `-- python3.11 -c pass` exited 1.
. "$(dirname "$0")/lib.sh"
need_tracefs
. "$(dirname "$0")/record-lib.sh"
uprobes_guard "^[p-r]:[^ ]* $T/"
cd "$T" || exit 1
NOTES=$PROGS_DIR/prog-nonotes
need_file "$NOTES"

# case EXPECTED NAME CMD...: CMD's exit status is EXPECTED; with 1 or 2, stderr has an error line
case_() {
	_want=$1 _name=$2
	shift 2
	"$@" >"$T/case.out" 2>"$T/case.err" </dev/null
	_got=$?
	check_eq "$_name: exit $_want" "$_want" "$_got"
	case $_want in
	1) check "$_name: says 'sdtrace: error:'" grep -q '^sdtrace: error: ' "$T/case.err" ;;
	2) check "$_name: says why (usage)" grep -q '^sdtrace: ' "$T/case.err" ;;
	esac
}

S=$SDTRACE
for c in record stat trace; do
	o=""
	[ $c = record ] && o="-o $T/r.data"
	# a spec nothing matches: known only after the run (a program without SDT notes)
	case_ 1 "$c -e %libc:setjmp -- prog-nonotes (nothing it ran has it)" $S $c $o -e '%libc:setjmp' -- "$NOTES"
	case_ 1 "$c -e %libc:setjmp -- sh -c 'exec prog-nonotes' (nor its exec chain)" \
		$S $c $o -e '%libc:setjmp' -- sh -c "exec '$NOTES'"
	# known before the start (the executable has notes, not these)
	case_ 1 "$c -e %rt:nosuch -- TARGET (its notes lack it)" $S $c $o -e '%rt:nosuch' -- "$TARGET" 1
	# the command's own status when sdtrace did its job
	case_ 0 "$c -e %rt:fire -- TARGET" $S $c $o -e '%rt:fire' -- "$TARGET" 2
	case_ 5 "$c -e %rt:fire -- TARGET ... exit 5" $S $c $o -e '%rt:fire' -- "$TARGET" 2 "" 5
	case_ 134 "$c -e %rt:fire -- TARGET ... abort()" $S $c $o -e '%rt:fire' -- "$TARGET" 2 "" -1
	# usage errors
	case_ 2 "$c --no-such-option" $S $c --no-such-option -e '%rt:fire' -- true
	case_ 2 "$c without -e" $S $c -- true
done
if [ -x /usr/bin/python3.11 ]; then
	case_ 1 "stat -e %libc:setjmp -- python3.11 -c pass" \
		$S stat -e '%libc:setjmp' -- /usr/bin/python3.11 -c pass
fi
case_ 2 "an unknown subcommand" $S recrod
# list exits as grep does: 1 for nothing listed, quietly (sdtrace-list(1))
$S list -x "$TARGET" '%rt:nosuch' >/dev/null 2>&1
check_eq "list of a spec that matches nothing (as grep): exit 1" 1 $?
case_ 0 "list of a spec that matches" $S list -x "$TARGET" '%rt:fire'
case_ 1 "report of a missing file" $S report -i "$T/no-such.data"
uprobes_unchanged
finish
