#!/bin/sh
# Where record writes: the default ./sdtrace.data (report reads it by default), an existing one
# kept as sdtrace.data.old (one generation), -o FILE leaving sdtrace.data alone, -o into a
# missing directory failing before any probe is placed. A recording describes itself: report
# gives every value after the probed binaries and the cache were deleted, without tracefs.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
P=$PROGS_DIR
need_file "$P/prog-sizes" "$P/prog-globals-nopie"
mkdir -p "$T/work" && cd "$T/work" || exit 1
uprobes_guard "^[p-r]:[^ ]+ ($PROGS_DIR|$T)/"
CMP="$SRC_DIR/tests/e2e/rec-compare.py"

rec() { # ROUNDS [record options]: record prog-sizes ROUNDS times
	_r=$1
	shift
	"$SDTRACE" record "$@" -x "$P/prog-sizes" -e '%sizes:min' -- "$P/prog-sizes" "$_r" \
		>/dev/null 2>rec.err
}
count() { "$SDTRACE" report "$@" 2>/dev/null | grep -c 'sizes:min'; }

rec 1
check_eq "default: exit 0" 0 $?
check "default: ./sdtrace.data written" test -s sdtrace.data
check "default: the summary names it" grep -q "recorded in 'sdtrace.data'" rec.err
check_eq "default: report reads ./sdtrace.data" 1 "$(count)"
check "default: no .old the first time" test ! -e sdtrace.data.old
cp sdtrace.data first.copy
rec 2
check_eq "again: the new recording is sdtrace.data" 2 "$(count)"
check "again: the previous one is sdtrace.data.old, as it was" cmp -s sdtrace.data.old first.copy
cp sdtrace.data second.copy
rec 3
check_eq "a third time: the new recording" 3 "$(count)"
check "a third time: .old is the second one" cmp -s sdtrace.data.old second.copy
check_eq "a third time: report -i sdtrace.data.old" 2 "$(count -i sdtrace.data.old)"

rec 4 -o custom.data
check_eq "-o: exit 0" 0 $?
check_eq "-o: written there" 4 "$(count -i custom.data)"
check_eq "-o: sdtrace.data untouched" 3 "$(count)"
check "-o: sdtrace.data.old untouched" cmp -s sdtrace.data.old second.copy
rec 5 --output=custom.data
check_eq "--output=: the same" 5 "$(count -i custom.data)"
check_eq "--output=: the previous one kept as custom.data.old" 4 "$(count -i custom.data.old)"

rec 1 -o "$T/nosuch/x.data"
check_eq "-o into a missing directory: exit 1" 1 $?
check "-o into a missing directory: says so" grep -q "^sdtrace: error: .*$T/nosuch/x.data" rec.err
check_eq "-o into a missing directory: one line" 1 "$(grep -c . rec.err)"
uprobes_unchanged "-o into a missing directory: uprobe_events unchanged"

# self-describing: the binaries and the cache are gone when report runs
mkdir "$T/bin"
cp "$P/prog-sizes" "$P/prog-globals-nopie" "$T/bin/"
for b in prog-sizes prog-globals-nopie; do
	"$SDTRACE" list --json -x "$T/bin/$b" >"$b.list"
	"$SDTRACE" record -o "$b.data" -x "$T/bin/$b" -e '%*:*' -- "$T/bin/$b" 3 >"$b.out" 2>"$b.err"
	check_eq "$b copy: recorded" 0 $?
done
rm -rf "$T/bin" "$SDTRACE_CACHE_DIR"
for b in prog-sizes prog-globals-nopie; do
	"$SDTRACE" report -i "$b.data" --json >"$b.json" 2>"$b.rerr"
	check_eq "$b deleted: report exits 0" 0 $?
	check "$b deleted: every value, the path of the deleted binary" \
		python3 "$CMP" --list "$b.list" "$b.out" "$b.json"
done
if command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
	unshare -m sh -c 'mount -t tmpfs -o ro none /sys/kernel && exec "$@"' sh \
		"$SDTRACE" report -i prog-sizes.data --json >notracefs.json 2>notracefs.err
	check_eq "no tracefs: report exits 0" 0 $?
	check "no tracefs: the same report" cmp -s notracefs.json prog-sizes.json
fi
uprobes_unchanged
finish
