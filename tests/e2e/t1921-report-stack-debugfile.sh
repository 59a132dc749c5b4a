#!/bin/sh
# report -g and --format=folded of a stripped program, still at its path, whose symbols are only
# in its separate debug file (make-debug-file.sh: DEBUGROOT/.build-id/xx/rest.debug): without
# the debug directory the program's frames print as [FILE+0xOFF]; with $SDTRACE_DEBUG_DIR
# naming it, report finds the debug file by build-id and names main, outer and inner, exactly
# as for the unstripped build (the library's frame is named either way).
# engine: tracefs
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-stack-fp
need_file "$P"
need_tracefs
need_cmd objcopy
need_cmd strip
uprobes_guard
cd "$T" || exit 1

sh "$SRC_DIR/tests/progs/make-debug-file.sh" "$P" "$T/stripped" "$T/debug" ||
	fail "make-debug-file.sh"
chmod +x "$T/stripped"
check_fails "the stripped program has no symbol table" sh -c "readelf -S '$T/stripped' | grep -q '\.symtab'"

"$SDTRACE" record -g -x "$T/stripped" -o s.sdt -e '%stack:hit' -- "$T/stripped" 20 >/dev/null 2>r.err
check_eq "record -g of the stripped program: exit 0" 0 $?

SDTRACE_DEBUG_DIR=$T/nowhere "$SDTRACE" report --format=folded -i s.sdt >plain.txt 2>plain.err
check_eq "folded without its debug file: exit 0" 0 $?
check "folded without its debug file: the program's frames unknown, by file and offset" \
	grep -Eq '^stack:hit;.*\[stripped\+0x[0-9a-f]+\].* 20$' plain.txt
check_fails "folded without its debug file: outer is not named" grep -q ';outer;' plain.txt

SDTRACE_DEBUG_DIR=$T/nowhere:$T/debug "$SDTRACE" report --format=folded -i s.sdt >dbg.txt 2>dbg.err
check_eq "folded with \$SDTRACE_DEBUG_DIR: exit 0" 0 $?
check_eq "folded with the debug file: the chain by name, 20" 1 \
	"$(grep -c '^stack:hit;.*main;outer;stack_lib_mid;inner;fire 20$' dbg.txt)"

"$SDTRACE" record -g -o u.sdt -e '%stack:hit' -- "$P" 20 >/dev/null 2>&1
check_eq "the same stack as the unstripped build" \
	"$("$SDTRACE" report --format=folded -i u.sdt | sed 's/.*;main;/main;/')" \
	"$(sed 's/.*;main;/main;/' dbg.txt)"

SDTRACE_DEBUG_DIR=$T/debug "$SDTRACE" report -g -i s.sdt >g.txt 2>g.err
check_eq "report -g with the debug file: exit 0" 0 $?
check_eq "report -g: outer named at each of the 20 hits" 20 \
	"$(grep -Ec '^[[:space:]]+[0-9a-f]+ outer\+0x[0-9a-f]+ \(.*/stripped\)$' g.txt)"
uprobes_unchanged
finish
