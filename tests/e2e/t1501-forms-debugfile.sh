#!/bin/sh
# Globals of a stripped program through its separate debug file, as gdb and perf find it by
# build-id: prog-globals-stripped (prog-globals-pie without .symtab) and its debug file under
# $PROGS_DIR/debug/.build-id/xx/rest.debug (tests/progs/make-debug-file.sh), the root given as
# SDTRACE_DEBUG_DIR (a ':'-separated list, like gdb's debug-file-directory).
#  - no debug file: every global argument is "unavailable: symbol '...': the file is stripped
#    and its debug file was not found (PATH TRIED; ...)", recorded as null, the probes still fire;
#  - the debug file found (also second in the list): the globals resolve, list gives the same
#    fetches as for the unstripped program, and real uprobes record the program's values;
#  - a debug file of another build-id at that path is not taken.
# uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/forms-lib.sh"
need_tracefs
need_cmd python3
S=$PROGS_DIR/prog-globals-stripped
need_file "$S" "$PROGS_DIR/debug"
uprobes_guard "^[p-r]:[^ ]+ $PROGS_DIR/"
cd "$T" || exit 1
id=$(LC_ALL=C readelf -n "$S" | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p' | head -n 1)
rest=$(printf %s "$id" | cut -c3-)
sub=$(printf %s "$id" | cut -c1-2)
check "the stripped program has no symbol table" sh -c "! LC_ALL=C readelf -S '$S' | grep -q '\.symtab'"
mkdir -p nodebug

# no debug file: unavailable, the path tried named
export SDTRACE_DEBUG_DIR="$T/nodebug"
"$SDTRACE" list -v -x "$S" >none.txt 2>&1
want="unavailable: symbol 'g_long': the file is stripped and its debug file was not found ($T/nodebug/.build-id/$sub/$rest.debug; \$SDTRACE_DEBUG_DIR sets the directories)"
if grep -qF -- "$want" none.txt; then
	pass "no debug file: the reason names the file tried"
else
	fail "no debug file: the reason names the file tried" "want: $want" "$(cat none.txt)"
fi
check_eq "no debug file: every global argument unavailable" 6 "$(grep -c 'unavailable: symbol' none.txt)"
forms_run none prog-globals-stripped 2 -x "$S" -e '%globals:*'
check_eq "no debug file: the 6 global arguments are null in each of 2 rounds" 12 "$FORMS_NULLS"

# the debug file, second in the list: the fetches of the unstripped program
export SDTRACE_DEBUG_DIR="$T/nodebug:$PROGS_DIR/debug"
"$SDTRACE" list -v -x "$S" | sed 1d >with.txt 2>&1
"$SDTRACE" list -v -x "$PROGS_DIR/prog-globals-pie" | sed 1d >full.txt 2>&1
check_eq "with the debug file: list gives the unstripped program's fetches" \
	"$(grep -v '^/\|^[a-z-]*:%' full.txt)" "$(grep -v '^/\|^[a-z-]*:%' with.txt)"
forms_run with prog-globals-stripped 3 -x "$S" -e '%globals:*'
check_eq "with the debug file: no argument is null" 0 "$FORMS_NULLS"

# a debug file of another build-id where this one's should be: refused
mkdir -p "other/.build-id/$sub"
objcopy --only-keep-debug "$PROGS_DIR/prog-globals-nopie" "other/.build-id/$sub/$rest.debug"
export SDTRACE_DEBUG_DIR="$T/other"
"$SDTRACE" list -v -x "$S" >other.txt 2>&1
check_eq "another build-id's debug file is not taken" 6 \
	"$(grep -c 'the file is stripped and its debug file was not found' other.txt)"

unset SDTRACE_DEBUG_DIR
uprobes_unchanged
finish
