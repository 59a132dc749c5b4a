#!/bin/sh
# The cache never writes what its readers refuse, and a scan's memory is bounded per file:
#  - a file with 1,000,000 notes (more than SDT_SCAN_MAX_NOTES, 65536) is refused at add time,
#    naming the file, the count and the limit, and nothing of it is cached;
#  - one at the limit is cached whole and found;
#  - one at the limit whose probes file would exceed the readers' 64 MiB (32 arguments a note,
#    a 600-byte path) is refused at add time, and nothing of it is cached (before: "1 added",
#    then a `broken` entry that lookups silently skipped).
# The files are written by tests/hostile/gen.py's builders.
. "$(dirname "$0")/lib.sh"

need_cmd python3
S=$SDTRACE
LIMIT=65536

# gen N ARGS-PER-NOTE OUT: an ELF of N notes %hostile:many, each at its own address
gen() {
	python3 - "$SRC_DIR/tests/hostile" "$@" <<'EOF'
import sys
sys.path.insert(0, sys.argv[1])
import gen
n, nargs, out = int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
args = b" ".join([b"8@%rdi"] * nargs)
img = gen.build(lambda t, b, s: b"".join(gen.stapsdt(t + 4 + 4 * i, b, 0, b"hostile", b"many",
                                                      args) for i in range(n)))
open(out, "wb").write(img)
EOF
}

# no entry, no probes file, and a cache check that finds nothing wrong
nothing_cached() {
	check_eq "$1: no entry" "" "$("$S" cache list 2>&1)"
	check_eq "$1: no probes file" "" "$(find "$SDTRACE_CACHE_DIR" -name probes 2>/dev/null)"
	check "$1: cache check finds no problem" "$S" cache check
}

gen 1000000 1 "$T/million.elf" || skip "cannot write the test files with gen.py"
"$S" cache add "$T/million.elf" >"$T/add.out" 2>"$T/add.err"
check_eq "1,000,000 notes: cache add fails" 1 "$?"
check "1,000,000 notes: the message names the file, the count and the limit" \
	grep -q "'$T/million.elf': 1000000 SDT notes, more than the limit of $LIMIT per file" \
	"$T/add.err"
nothing_cached "1,000,000 notes"
"$S" list -x "$T/million.elf" >"$T/list.out" 2>"$T/list.err"
check_eq "1,000,000 notes: list fails (2: an error, as grep)" 2 "$?"
check "1,000,000 notes: list says why" grep -q "more than the limit of $LIMIT" "$T/list.err"

gen $((LIMIT + 1)) 1 "$T/over.elf"
"$S" cache add "$T/over.elf" >"$T/add.out" 2>"$T/add.err"
check_eq "$((LIMIT + 1)) notes: refused" 1 "$?"
check "$((LIMIT + 1)) notes: the count is told" grep -q "$((LIMIT + 1)) SDT notes" "$T/add.err"

gen $LIMIT 1 "$T/cap.elf"
"$S" list -x "$T/cap.elf" >"$T/list.out" 2>"$T/list.err"
check_eq "$LIMIT notes: listed" "0 $T/cap.elf:%hostile:many" "$? $(cat "$T/list.out")"
check_eq "$LIMIT notes: listed without a warning" "" "$(cat "$T/list.err")"
check "$LIMIT notes: cached" "$S" cache add "$T/cap.elf"
check "$LIMIT notes: one ok entry with every site" \
	sh -c "'$S' cache list | grep -q ' ok  *1 events $LIMIT sites .*$T/cap.elf\$'"
check_eq "$LIMIT notes: the index finds it" "$T/cap.elf:%hostile:many" "$("$S" list '%hostile:many')"
check "$LIMIT notes: cache check finds no problem" "$S" cache check
check "$LIMIT notes: removed" "$S" cache remove "$T/cap.elf"

# 600 bytes of directories: every probes line carries the path
long=$T/$(printf '%0200d' 0)/$(printf '%0200d' 1)/$(printf '%0200d' 2)
mkdir -p "$long"
gen $LIMIT 32 "$long/wide.elf"
"$S" cache add "$long/wide.elf" >"$T/add.out" 2>"$T/add.err"
check_eq "a probes file over 64 MiB: cache add fails" 1 "$?"
check "a probes file over 64 MiB: the message says which file and the limit" \
	grep -q "wide.elf' in '.*': its probes file would be [0-9]* bytes, more than the limit of 67108864" \
	"$T/add.err"
nothing_cached "a probes file over 64 MiB"
check_eq "a probes file over 64 MiB: nothing found" "" "$("$S" list '%hostile:many' 2>/dev/null)"
finish
