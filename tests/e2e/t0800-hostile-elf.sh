#!/bin/sh
# Hostile ELF files (tests/hostile/gen.py writes them): names with spaces, newlines, ':', '/',
# '%', non-ASCII bytes and 10 KB strings; argument strings that try to add a `p:` line; short
# descs; note sizes that overflow; pc or semaphore outside every segment; 1,000,000 notes (more
# than a file may have: refused); a zero-byte file; the file cut at every header boundary; section
# tables past the end.
# For each: `sdtrace list -x`, `sdtrace cache add` and `sdtrace record -x` end with a clear error
# or cleanly (exit 0 or 1, a message on stderr when 1, never a signal, within a time bound), and
# nothing of them reaches uprobe_events. Last, a file that shrinks and grows while it is scanned.
. "$(dirname "$0")/lib.sh"

need_cmd python3 timeout
S=$SDTRACE
H=$T/hostile
MARK=sdtrace_hostile_inject
# Bound per command: every file here is listed in well under a second (ASan: ~4x slower).
LIMIT=${HOSTILE_LIMIT:-180}

python3 "$SRC_DIR/tests/hostile/gen.py" "$H" >"$T/gen.out" 2>&1 || {
	cat "$T/gen.out"
	fail "gen.py writes the hostile files"
	finish
}
n=$(ls "$H" | wc -l)
check "gen.py wrote the cases (at least 90: $n)" test "$n" -ge 90

# run NAME CMD...: exit status must be 0 or 1 (2 only for usage errors, which none of these is),
# stderr with an error when it is not 0, and stderr must show no sanitizer report. list exits
# as grep: 1 when it listed nothing (said on stderr, not an error), 2 on an error.
run() {
	_name=$1
	shift
	timeout -s TERM "$LIMIT" "$@" >"$T/run.out" 2>"$T/run.err"
	_rc=$?
	_max=1
	if [ "$2" = list ] && ! grep -q -- "--help'" "$T/run.err"; then
		_max=2
		if [ "$_rc" = 1 ] && [ -s "$T/run.err" ]; then
			_rc=0 # nothing listed, and it said so: checked as a success from here
		fi
	fi
	if [ "$_rc" -ge 124 ]; then
		fail "$_name" "exit status $_rc (timeout or signal): $*" "$(head -c 600 "$T/run.err")"
		return
	fi
	if [ "$_rc" -gt "$_max" ]; then
		fail "$_name" "exit status $_rc: $*" "$(head -c 600 "$T/run.err")"
		return
	fi
	if [ "$_rc" -ne 0 ] && ! grep -q 'error' "$T/run.err"; then
		fail "$_name" "failed without an error message: $*" "$(head -c 600 "$T/run.err")"
		return
	fi
	if grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$T/run.err"; then
		fail "$_name" "sanitizer report: $*" "$(head -c 2000 "$T/run.err")"
		return
	fi
	# what list prints is pasteable: never a raw control character or a marker line
	if grep -q "^p:$MARK" "$T/run.out"; then
		fail "$_name" "an injected line reached the output"
		return
	fi
	if grep -q '(null)' "$T/run.out" "$T/run.err"; then
		fail "$_name" "a NULL string was printed: $*" "$(grep '(null)' "$T/run.out" "$T/run.err" | head -n 3)"
		return
	fi
	pass "$_name"
}

# The uprobe_events lines naming our files or the marker: none before, none after (other tests
# may add their own meanwhile; they are not ours to compare).
have_tracefs=0
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	if [ "$(id -u)" = 0 ] && [ -w "$d/uprobe_events" ]; then
		TRACEFS=$d
		have_tracefs=1
		break
	fi
done
if [ "$have_tracefs" = 0 ] && [ "$(id -u)" = 0 ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
	if [ -w /sys/kernel/tracing/uprobe_events ]; then
		TRACEFS=/sys/kernel/tracing
		have_tracefs=1
	fi
fi
[ "$have_tracefs" = 1 ] || say "SKIP (part): no writable tracefs (needs root): record is not run"
ours() { grep -E "$H|$MARK" "$TRACEFS/uprobe_events" 2>/dev/null; }
if [ "$have_tracefs" = 1 ]; then
	check_eq "uprobe_events holds nothing of ours before" "" "$(ours)"
fi

for f in "$H"/*.elf; do
	c=$(basename "$f" .elf)
	run "$c: list -x" "$S" list -x "$f"
	run "$c: list -x -v --json" "$S" list -x "$f" -v --json
	run "$c: cache add" "$S" cache add "$f"
	if [ "$have_tracefs" = 1 ]; then
		run "$c: record -x" "$S" record -x "$f" -e '%*:*' -o "$T/rec.data" -- /bin/true
		now=$(ours)
		if [ -n "$now" ]; then
			fail "$c: nothing left in uprobe_events" "$(printf '%s\n' "$now" | head -n 5)"
		fi
	fi
done

# Specific outcomes (each can fail):
"$S" list -x "$H/valid.elf" >"$T/valid.out" 2>&1
check_eq "the valid file lists its two probes" \
	"$H/valid.elf:%hostile:gated
$H/valid.elf:%hostile:ok" "$(sort "$T/valid.out")"
"$S" list -x "$H/names-name-newline.elf" >"$T/nl.out" 2>"$T/nl.err"
check "a newline in a name is refused with the note named" grep -q "note 1 (hostile): probe name 'ev\\\\x0ap:" "$T/nl.err"
"$S" list -x "$H/args-newline-p.elf" >"$T/a.out" 2>"$T/a.err"
check "an argument string with a newline is refused" grep -q "argument string '8@%rdi\\\\x0ap:" "$T/a.err"
check_eq "no site of the injecting file is listed" "" "$(cat "$T/a.out")"
"$S" list -x "$H/notes-1000000.elf" >"$T/big.out" 2>"$T/big.err"
check "1,000,000 notes: refused, with the count and the limit" \
	grep -q "1000000 SDT notes, more than the limit of 65536 per file" "$T/big.err"
"$S" list -x "$H/zero-bytes.elf" >/dev/null 2>"$T/z.err"
check "a zero-byte file: not an ELF file" grep -q "not an ELF file" "$T/z.err"
"$S" list -x "$H/addr-sem-odd.elf" >/dev/null 2>"$T/odd.err"
check "an odd semaphore address is reported" grep -q "not 2-byte aligned" "$T/odd.err"
"$S" list -x "$H/second-note-section-past-end.elf" -v >"$T/two.out" 2>"$T/two.err"
check "an unreadable second note section: the first's args are still rendered" \
	grep -q "8@%rdi  *%di:u64" "$T/two.out"
check "an unreadable second note section is reported" grep -q "cannot be read" "$T/two.err"
"$S" cache list >"$T/cl.out" 2>&1
check "the cache holds no hostile name" sh -c "! grep -q \"$MARK\" '$T/cl.out'"
if [ -d "$SDTRACE_CACHE_DIR" ]; then
	check "no cached probes file carries the marker" \
		sh -c "! grep -rqs \"$MARK\" '$SDTRACE_CACHE_DIR' --include=probes"
fi
if [ "$have_tracefs" = 1 ]; then
	"$S" record -x "$H/notes-1000000.elf" -e '%*:*' -o "$T/rec.data" -- /bin/true \
		>/dev/null 2>"$T/rec.err"
	check "1,000,000 sites are refused before any uprobe" grep -q "more than" "$T/rec.err"
	"$S" record -x "$H/addr-sem-odd.elf" -e '%*:*' -o "$T/rec.data" -- /bin/true \
		>/dev/null 2>"$T/rec.err"
	check "an odd semaphore does not stop recording" grep -q "events recorded" "$T/rec.err"
fi

# A file rewritten in place (same inode) between full and cut while sdtrace scans it (60,000
# notes, under the limit of 65,536: a scan long enough to be cut in the middle, short enough to
# run it a few times).
python3 "$SRC_DIR/tests/hostile/gen.py" "$T/h2" --big 60000 >/dev/null 2>&1
B=$T/h2/notes-60000.elf
check "gen.py --big 60000" test -s "$B"
cp "$B" "$T/big.elf"
head -c 3000000 "$B" >"$T/big-cut"
(
	i=0
	while [ ! -e "$T/stop-writer" ] && [ $i -lt 2000 ]; do
		cat "$T/big-cut" >"$T/big.elf"
		cat "$B" >"$T/big.elf"
		: >"$T/big.elf"
		cat "$H/valid.elf" >"$T/big.elf"
		i=$((i + 1))
	done
) &
writer=$!
at_exit "touch '$T/stop-writer'; kill $writer 2>/dev/null; wait $writer 2>/dev/null"
i=0
while [ $i -lt 10 ]; do
	run "changing file, scan $i: list -x" "$S" list -x "$T/big.elf"
	run "changing file, scan $i: cache add" "$S" cache add "$T/big.elf"
	i=$((i + 1))
done
touch "$T/stop-writer"
wait "$writer" 2>/dev/null
if [ "$have_tracefs" = 1 ]; then
	check_eq "uprobe_events holds nothing of ours after" "" "$(ours)"
fi
finish
