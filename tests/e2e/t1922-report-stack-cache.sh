#!/bin/sh
# report -g when the recorded program is gone: its frames come from a copy found by build-id,
# in the cache named by --cache-dir (or $SDTRACE_CACHE_DIR), or as a separate debug file in a
# directory of $SDTRACE_DEBUG_DIR (lib/stack/symbolizer.c: path, cache copy, debug directories,
# debuginfod). A copy of prog-stack-fp in the test's directory is recorded with -g, cached by
# `sdtrace --cache-dir MINE cache add`, and deleted: without the cache the program's frames are
# [FILE+0xOFF] (kept, not dropped) and inner, outer, main are not named; with --cache-dir
# (overriding an empty $SDTRACE_CACHE_DIR) or $SDTRACE_CACHE_DIR naming it, report -g names
# them (fire inlined, inner, outer, main, each at every hit). The same for a stripped copy
# recorded and deleted, with only its debug file (make-debug-file.sh) left under
# $SDTRACE_DEBUG_DIR. No debuginfod: $DEBUGINFOD_URLS is unset.
# engine: tracefs (report's lookup is tested; the recording's engine does not change it: t1911)
. "$(dirname "$0")/lib.sh"
need_file "$PROGS_DIR/prog-stack-fp" "$PROGS_DIR/libprog-stack-lib-fp.so"
need_tracefs
need_cmd readelf objcopy strip
uprobes_guard
cd "$T" || exit 1
unset DEBUGINFOD_URLS

mkdir bin && cp "$PROGS_DIR/prog-stack-fp" "$PROGS_DIR/libprog-stack-lib-fp.so" bin/ || exit 1
P=$T/bin/prog-stack-fp
BID=$(readelf -n "$P" | sed -n 's/.*Build ID: //p')
TAB=$(printf '\t')
# named FILE: how many of FILE's frames name the program's functions (4 a hit)
named() {
	grep -Ec "^$TAB *[0-9a-f]+ (fire \(inlined\)|(inner|outer|main)\+0x[0-9a-f]+) \($P\)$" "$1"
}

LD_LIBRARY_PATH=$T/bin "$SDTRACE" record -g -o g.sdt -e '%stack:hit' -- "$P" 20 >/dev/null 2>r.err
check_eq "record -g: exit 0" 0 $?
"$SDTRACE" --cache-dir "$T/mine" cache add "$P" >/dev/null 2>c.err
check_eq "cache add into --cache-dir: exit 0" 0 $?
rm "$P"

export SDTRACE_DEBUG_DIR=$T/nowhere
SDTRACE_CACHE_DIR=$T/empty "$SDTRACE" report -g -i g.sdt >none.txt 2>none.err
check_eq "gone, no cache: exit 0" 0 $?
check_eq "gone, no cache: 20 events" 20 "$(grep -c 'stack:hit' none.txt)"
check_eq "gone, no cache: the program's 3 frames a hit as [FILE+0xOFF]" 60 \
	"$(grep -c "^$TAB *[0-9a-f]* \[$(basename "$P")+0x[0-9a-f]*\] ($P)$" none.txt)"
check_eq "gone, no cache: none of its functions named" 0 "$(named none.txt)"
check_eq "gone, no cache: the library's frame still named" 20 \
	"$(grep -c "stack_lib_mid+0x[0-9a-f]* ($T/bin/libprog-stack-lib-fp.so)$" none.txt)"

SDTRACE_CACHE_DIR=$T/empty "$SDTRACE" --cache-dir "$T/mine" report -g -i g.sdt >cd.txt 2>cd.err
check_eq "gone, --cache-dir: exit 0" 0 $?
check_eq "gone, --cache-dir: fire, inner, outer, main named at the 20 hits" 80 "$(named cd.txt)"
check_eq "gone, --cache-dir: no frame by build-id" 0 "$(grep -c "\[$BID+" cd.txt)"
SDTRACE_CACHE_DIR=$T/mine "$SDTRACE" report -g -i g.sdt >env.txt 2>env.err
check_eq "gone, \$SDTRACE_CACHE_DIR: exit 0" 0 $?
check "gone, \$SDTRACE_CACHE_DIR: the same as --cache-dir" cmp -s cd.txt env.txt

# a stripped copy, recorded, then deleted: only its debug file is left
sh "$SRC_DIR/tests/progs/make-debug-file.sh" "$PROGS_DIR/prog-stack-fp" "$T/stripped" "$T/debug" ||
	fail "make-debug-file.sh"
chmod +x "$T/stripped"
# its library beside it: the test programs find theirs by RUNPATH $ORIGIN
cp "$PROGS_DIR/libprog-stack-lib-fp.so" "$T/" || exit 1
"$SDTRACE" record -g -x "$T/stripped" -o s.sdt -e '%stack:hit' -- "$T/stripped" 20 >/dev/null 2>s.err
check_eq "record -g of the stripped copy: exit 0" 0 $?
rm "$T/stripped"
P=$T/stripped
SDTRACE_CACHE_DIR=$T/empty "$SDTRACE" report -g -i s.sdt >snone.txt 2>snone.err
check_eq "stripped, gone, no debug directory: exit 0" 0 $?
check_eq "stripped, gone, no debug directory: 3 frames a hit by file and offset" 60 \
	"$(grep -c "^$TAB *[0-9a-f]* \[$(basename "$P")+0x[0-9a-f]*\] ($P)$" snone.txt)"
SDTRACE_CACHE_DIR=$T/empty SDTRACE_DEBUG_DIR=$T/nowhere:$T/debug "$SDTRACE" report -g -i s.sdt \
	>sdbg.txt 2>sdbg.err
check_eq "stripped, gone, \$SDTRACE_DEBUG_DIR: exit 0" 0 $?
check_eq "stripped, gone, \$SDTRACE_DEBUG_DIR: fire, inner, outer, main at the 20 hits" 80 \
	"$(named sdbg.txt)"
uprobes_unchanged
finish
