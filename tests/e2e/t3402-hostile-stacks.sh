#!/bin/sh
# Stacks over files a local user controls (issue 34, defects 2, 5 and 6). A copy of prog-stack-fp
# is recorded with -g, then:
# - names: a copy whose symbols were renamed by objcopy --redefine-sym (inner with a newline and
#   a forged "...;fake_frame 999999" line, outer with ESC and a C1 control) is recorded: report -g
#   is safe for a terminal (text-safe.py), the folded output has one line per stack, each
#   ending in its count, none forged, and the names' ';' and line breaks escaped;
# - FIFOs: the recorded program replaced by a FIFO, a FIFO at the cache's .build-id entry and in
#   the debug directory: report -g, folded and flamegraph end (bounded by timeout) with the
#   program's frames as [FILE+0xOFF];
# - deep DWARF: the recorded program replaced by a copy (same build-id) whose debug info nests
#   50,000 DW_TAG_inlined_subroutine entries (deep-dwarf.py): report -g, folded and flamegraph
#   end with exit 0 (libdw's recursive dwarf_getscopes() overflowed the stack), inlined frames
#   truncated;
# - the recording cut at every length: report --format=folded exits 0 or 1, with no sanitizer
#   report (UBSan: qsort(NULL, 0) in lib/stack/folded.c, seen in the ASan+UBSan build).
. "$(dirname "$0")/lib.sh"
need_file "$PROGS_DIR/prog-stack-fp" "$PROGS_DIR/libprog-stack-lib-fp.so"
need_tracefs
need_cmd readelf objcopy nm python3 timeout mkfifo
uprobes_guard
cd "$T" || exit 1
unset DEBUGINFOD_URLS
export SDTRACE_CACHE_DIR=$T/empty SDTRACE_DEBUG_DIR=$T/nowhere
SAFE="python3 $SRC_DIR/tests/e2e/text-safe.py"
LIMIT=${HOSTILE_LIMIT:-60}

mkdir bin && cp "$PROGS_DIR/prog-stack-fp" "$PROGS_DIR/libprog-stack-lib-fp.so" bin/ || exit 1
export LD_LIBRARY_PATH=$T/bin

# ---- hostile names
NL='
'
ESC=$(printf '\033')
C1=$(printf '\302\233')
objcopy --redefine-sym "inner=inner${NL}fake_frame 999999${NL}x;y" \
	--redefine-sym "outer=outer${ESC}]0;owned${C1}2J" "$PROGS_DIR/prog-stack-fp" bin/named ||
	fail "objcopy --redefine-sym"
chmod +x bin/named
"$SDTRACE" record -g -o n.sdt -e '%stack:hit' -- bin/named 5 >/dev/null 2>n.err
check_eq "names: record -g exit 0" 0 $?
"$SDTRACE" report -g -i n.sdt >n.txt 2>n.rep.err
check_eq "names: report -g exit 0" 0 $?
check "names: report -g is safe for a terminal" $SAFE n.txt n.rep.err
check "names: the newline of inner's name as \\n" \
	grep -qF 'inner\nfake_frame 999999\nx;y+0x' n.txt
check "names: outer's ESC and C1 as \\x1b, \\xc2\\x9b" grep -qF 'outer\x1b]0;owned\xc2\x9b2J+0x' n.txt
"$SDTRACE" report --format=folded -i n.sdt >n.folded 2>n.f.err
check_eq "names: folded exit 0" 0 $?
check "names: folded is safe for a terminal" $SAFE n.folded
check_eq "names: one folded line, ending in its count 5" "1 1" \
	"$(wc -l <n.folded | tr -d ' ') $(grep -cE ' 5$' n.folded)"
check_eq "names: no forged line" 0 "$(grep -c '^fake_frame' n.folded)"
check "names: inner's ';' not a frame separator (folded.c makes it ':')" grep -qF 'inner\nfake_frame 999999\nx:y;fire 5' n.folded

# ---- FIFOs
P=$T/bin/prog-stack-fp
BID=$(readelf -n "$P" | sed -n 's/.*Build ID: //p')
"$SDTRACE" record -g -o g.sdt -e '%stack:hit' -- "$P" 5 >/dev/null 2>g.err
check_eq "record -g exit 0" 0 $?
cp "$P" saved
rm "$P" && mkfifo "$P"
B2=$(echo "$BID" | cut -c1-2)
BR=$(echo "$BID" | cut -c3-)
mkdir -p "$T/cache/.build-id/$B2/$BR" "$T/debug/.build-id/$B2"
mkfifo "$T/cache/.build-id/$B2/$BR/elf" "$T/debug/.build-id/$B2/$BR.debug"
for f in "report -g" "report --format=folded" "report --format=flamegraph -o f.svg"; do
	# shellcheck disable=SC2086
	SDTRACE_DEBUG_DIR=$T/debug timeout "$LIMIT" "$SDTRACE" --cache-dir "$T/cache" $f -i g.sdt \
		>fifo.out 2>fifo.err
	check_eq "FIFOs: $f ends, exit 0" 0 $?
done
SDTRACE_DEBUG_DIR=$T/debug timeout "$LIMIT" "$SDTRACE" --cache-dir "$T/cache" report -g -i g.sdt \
	>fifo.txt 2>&1
check_eq "FIFOs: the program's 3 frames of each hit unknown, as [FILE+0xOFF]" 15 \
	"$(grep -c "\[prog-stack-fp+0x[0-9a-f]*\] ($P)$" fifo.txt)"

# ---- the recording cut at every length: folded ends with no sanitizer report (the ASan+UBSan
# build saw qsort(NULL, 0) in lib/stack/folded.c when no stack was read)
mv "$P" fifo.aside # the program gone: its frames by build-id
size=$(wc -c <g.sdt)
bad=0
n=64
while [ "$n" -lt "$size" ]; do
	head -c "$n" g.sdt >cut.sdt
	timeout "$LIMIT" "$SDTRACE" report --format=folded -i cut.sdt >/dev/null 2>cut.err
	rc=$?
	if [ "$rc" -gt 1 ] || grep -qE 'runtime error|AddressSanitizer' cut.err; then
		bad=$n
		break
	fi
	n=$((n + 1))
done
check_eq "cut recordings: folded ends cleanly at every length (first bad length)" 0 "$bad"
mv fifo.aside "$P"

# ---- deep DWARF
rm "$P"
set -- $(nm -S saved | awk '$4 == "inner" {print $1, $2}')
mkdir dd && python3 "$SRC_DIR/tests/e2e/deep-dwarf.py" dd "$1" "$2" || fail "deep-dwarf.py"
objcopy --remove-section='.debug_*' --add-section .debug_info=dd/debug_info \
	--add-section .debug_abbrev=dd/debug_abbrev --add-section .debug_aranges=dd/debug_aranges \
	saved "$P" || fail "objcopy --add-section"
check_eq "deep: the copy keeps the build-id" "$BID" \
	"$(readelf -n "$P" | sed -n 's/.*Build ID: //p')"
for f in "report -g" "report --format=folded" "report --format=flamegraph -o d.svg"; do
	# shellcheck disable=SC2086
	timeout "$LIMIT" "$SDTRACE" $f -i g.sdt >deep.out 2>deep.err
	check_eq "deep: $f exit 0 (no stack overflow)" 0 $?
done
timeout "$LIMIT" "$SDTRACE" report -g -i g.sdt >deep.txt 2>&1
check "deep: the outermost inlined frames named" grep -qF 'deep_0 (inlined)' deep.txt
check "deep: inner named under them" grep -qE 'inner\+0x[0-9a-f]+ ' deep.txt
uprobes_unchanged
finish
