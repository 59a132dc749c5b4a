#!/bin/sh
# `sdtrace cache add`: files and directories (-r), symlinks resolved to the real path and never
# followed out of the given trees, non-ELF files skipped and counted, FIFOs never block, the
# summary counts, and a second add changes nothing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cache-lib.sh"
need_cmd timeout mkfifo

D="$T/tree"
mkdir -p "$D/sub" "$T/outside/dir"
build_prog "$D/prog"
build_prog "$D/sub/prog-sub" h4sub
build_prog "$T/outside/prog-out" h4out
build_prog "$T/outside/dir/prog-outdir" h4outdir
cp /bin/true "$D/true"                         # ELF without SDT notes
echo "not an ELF file" >"$D/text.txt"
mkfifo "$D/fifo"
ln -s prog "$D/link-to-prog"                   # inside: the same real path, cached once
ln -s "$T/outside/prog-out" "$D/link-out"      # a file outside the tree: not followed
ln -s "$T/outside/dir" "$D/dir-out"            # a directory outside: not followed
ln -s "$D" "$D/sub/loop"                       # a loop: not followed

out=$(timeout 30 "$SDTRACE" --cache-dir "$T/sdt" cache add -r "$D" 2>&1)
rc=$?
check_eq "add -r exits 0 (and a FIFO does not block it)" 0 "$rc"
check_eq "summary" "5 files seen, 3 ELF, 2 with SDT notes, 2 added, 0 unchanged, 1 not ELF, 1 skipped (not regular files), 0 errors" "$out"
sdt cache list >"$T/list"
check_eq "two entries" 2 "$(wc -l <"$T/list")"
check "the file reached through an inside symlink is cached by its real path" grep -q " $D/prog\$" "$T/list"
check "the file in the subdirectory" grep -q " $D/sub/prog-sub\$" "$T/list"
check_eq "nothing from outside the tree" "" "$(grep outside "$T/list")"
check_eq "no link path cached" "" "$(grep link "$T/list")"
check_eq "sdtrace list from the cache" "$D/sub/prog-sub:%h4sub:ev1" "$(sdt list '%h4sub:ev1')"

out=$(sdt cache add -r "$D" 2>&1)
check_eq "a second add changes nothing" "5 files seen, 3 ELF, 2 with SDT notes, 0 added, 2 unchanged, 1 not ELF, 1 skipped (not regular files), 0 errors" "$out"

# without -r: the directory's own files only
out=$("$SDTRACE" --cache-dir "$T/flat" cache add "$D" 2>&1)
check_eq "add without -r stays at the top" "4 files seen, 2 ELF, 1 with SDT notes, 1 added, 0 unchanged, 1 not ELF, 1 skipped (not regular files), 0 errors" "$out"

# a named symlink is cached by its real path, as perf keys it
check "add through a symlink" "$SDTRACE" --cache-dir "$T/viasym" cache add "$D/link-out"
check "keyed by the real path" test -L "$T/viasym/.build-id/$(ls "$T/viasym/.build-id")/$(ls "$T/viasym/.build-id/"*)" -a -d "$T/viasym$T/outside/prog-out"

# a progress line on stderr when it is a terminal, none otherwise
if command -v script >/dev/null 2>&1; then
	script -qec "'$SDTRACE' --cache-dir '$T/tty' cache add -r '$D' 2>&1 >/dev/null" /dev/null >"$T/tty.out" 2>&1
	check "progress line on a terminal" grep -q 'files, .* ELF, .* with SDT notes, .* added' "$T/tty.out"
else
	say "note: no 'script' command: the progress line on a terminal is not tested"
fi
"$SDTRACE" --cache-dir "$T/notty" cache add -r "$D" 2>"$T/notty.err" >/dev/null
check_eq "no progress line when stderr is not a terminal" "" "$(cat "$T/notty.err")"

# errors: a missing file is counted, the others still added, exit 1, message on stderr only
"$SDTRACE" --cache-dir "$T/errcache" cache add "$T/nope" "$D/prog" >"$T/out" 2>"$T/err"
check_eq "exit 1 when a file failed" 1 "$?"
check "the error names the file" grep -q "error: cannot open '$T/nope'" "$T/err"
check_eq "the other file was added" "2 files seen, 1 ELF, 1 with SDT notes, 1 added, 0 unchanged, 0 not ELF, 0 skipped (not regular files), 1 errors" "$(cat "$T/out")"
# a truncated ELF file: an error that names it
head -c 100 "$D/prog" >"$T/trunc"
"$SDTRACE" --cache-dir "$T/tr" cache add "$T/trunc" >/dev/null 2>"$T/err"
check_eq "truncated ELF: exit 1" 1 "$?"
check "truncated ELF: the error names the file" grep -q "^sdtrace: error: '$T/trunc': .*truncated" "$T/err"

# SDT notes but no build-id: not cached (nothing could key it), said on stderr, not an error
cc -O2 -Wl,--build-id=none -o "$T/nobid" "$SRC_DIR/tests/e2e/cache-prog.c" || skip "cannot link without a build-id"
"$SDTRACE" --cache-dir "$T/nb" cache add "$T/nobid" >"$T/out" 2>"$T/err"
check_eq "no build-id: exit 0" 0 "$?"
check "no build-id: said on stderr" grep -q "1 ELF file with SDT notes but no build-id: not cached" "$T/err"
check_eq "no build-id: nothing cached" "" "$("$SDTRACE" --cache-dir "$T/nb" cache list)"
"$SDTRACE" cache add >/dev/null 2>&1
check_eq "no path: a usage error" 2 "$?"
check "cache --help has examples" sh -c "'$SDTRACE' cache --help | grep -q examples"
for sub in add remove list purge update check; do
	check "cache $sub --help" sh -c "'$SDTRACE' cache $sub --help | grep -q '^usage: sdtrace cache $sub'"
done
finish
