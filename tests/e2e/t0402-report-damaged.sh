#!/bin/sh
# Damaged recordings: a file cut anywhere reads up to its last complete event and says it was
# truncated (exit 0); a recorder killed by SIGKILL loses at most its last 100 ms; a corrupt or
# foreign file fails with a clear message and exit 1, nothing on stdout; a missing file is an
# error naming it; bad options are usage errors (exit 2).
. "$(dirname "$0")/lib.sh"
: "${HELPER_DIR:=$BUILD_DIR/tests/helper}"
WRITE=$HELPER_DIR/sdtrace-test-write
need_file "$WRITE"
cd "$T" || exit 1

check "write a recording" "$WRITE" -o full.data ints floats strings unavailable rebase
full=$("$SDTRACE" report -i full.data | wc -l | tr -d ' ')
check_eq "21 events in the full file" 21 "$full"
size=$(wc -c <full.data | tr -d ' ')

# cut at many places: never an error after the header, never more events, always the warning
bad=0
prev=0
cut=200 # past the header and the session record
while [ "$cut" -lt "$size" ]; do
	head -c "$cut" full.data >cut.data
	if ! "$SDTRACE" report -i cut.data >cut.out 2>cut.err; then
		bad=1
		fail "cut at $cut: report failed" "$(cat cut.err)"
		break
	fi
	n=$(wc -l <cut.out | tr -d ' ')
	if [ "$n" -lt "$prev" ] || [ "$n" -gt "$full" ] || ! grep -q "is truncated" cut.err; then
		bad=1
		fail "cut at $cut: $n events (before: $prev)" "$(cat cut.err)"
		break
	fi
	prev=$n
	cut=$((cut + 37))
done
[ "$bad" = 0 ] && pass "a file cut at every 37th byte reads cleanly, with a warning"
head -c 40 full.data >cut.data
"$SDTRACE" report -i cut.data >bad.out 2>bad.err
check_eq "cut inside the session record: exit 1" 1 "$?"
check "cut inside the session record: says so" grep -q "truncated recording (no session record)" bad.err
head -c $((size - 5)) full.data >cut.data
check "cut inside the END record: exit 0" "$SDTRACE" report -i cut.data
check_eq "every event before it" 21 "$("$SDTRACE" report -i cut.data 2>/dev/null | wc -l | tr -d ' ')"
check "and the warning" sh -c '"$0" report -i cut.data 2>&1 >/dev/null | grep -q "sdtrace: warning: .cut.data. is truncated"' "$SDTRACE"
check "--stats of a cut file: exit status unknown" \
	sh -c '"$0" report -i cut.data --stats 2>/dev/null | grep -q "exit status: unknown"' "$SDTRACE"

# a recorder killed by SIGKILL: 1000 events 1 ms apart, flushed every 100 ms of sample time
"$WRITE" -o killed.data -n 1000 kill 2>/dev/null
check_eq "the helper was killed" 137 "$?"
check "a killed recording reads" sh -c '"$0" report -i killed.data >killed.out 2>killed.err' "$SDTRACE"
n=$(wc -l <killed.out | tr -d ' ')
check "at most the last 100 ms lost ($n of 1000 events read)" test "$n" -ge 900 -a "$n" -lt 1000
check "says it was truncated" grep -q "is truncated" killed.err

# corrupt files: exit 1, one clear error, nothing on stdout
printf 'this is not a recording at all\n' >text.data
"$SDTRACE" report -i text.data >bad.out 2>bad.err
check_eq "not a recording: exit 1" 1 "$?"
check_eq "not a recording: nothing on stdout" "" "$(cat bad.out)"
check_eq "not a recording: says so" "sdtrace: error: 'text.data': not a sdtrace recording (bad magic)" "$(cat bad.err)"
: >empty.data
"$SDTRACE" report -i empty.data >bad.out 2>bad.err
check_eq "empty file: exit 1" 1 "$?"
check "empty file: says so" grep -q "empty file" bad.err
# version from the future
python3 -c '
import sys
b = bytearray(open("full.data", "rb").read()); b[8] = 9
open("future.data", "wb").write(b)' 2>/dev/null || cp full.data future.data
"$SDTRACE" report -i future.data >bad.out 2>bad.err
check_eq "a newer format version: exit 1" 1 "$?"
check "a newer format version: says so" grep -q "format version 9 is newer" bad.err
# a corrupt record in the middle: the events before it, then the error naming the byte
python3 -c '
b = bytearray(open("full.data", "rb").read())
# records: session, ints event, comm, 4 samples, floats event: give the 8th an unknown type
off, n = 16, 0
while True:
    t = b[off]; off += 1; ln = 0; sh = 0
    while True:
        c = b[off]; off += 1; ln |= (c & 0x7f) << sh; sh += 7
        if not c & 0x80: break
    n += 1
    if n == 8:
        b[start] = 63  # below REC_FIRST_OPTIONAL (64), no type of the format
        break
    start = off + ln
    off += ln
open("corrupt.data", "wb").write(b)
print(start)' >corrupt.at
"$SDTRACE" report -i corrupt.data >bad.out 2>bad.err
check_eq "a corrupt record: exit 1" 1 "$?"
check_eq "a corrupt record: one error naming the offset" \
	"sdtrace: error: 'corrupt.data': corrupt recording at byte $(cat corrupt.at): unknown record type" \
	"$(cat bad.err)"
check_eq "a corrupt record: the events before it are printed" 4 "$(wc -l <bad.out | tr -d ' ')"
"$SDTRACE" report -i corrupt.data --json >bad.out 2>/dev/null
check_eq "a corrupt record: --json exit 1 too" 1 "$?"

# missing file, usage errors
"$SDTRACE" report -i nonexistent.data >bad.out 2>bad.err
check_eq "missing file: exit 1" 1 "$?"
check_eq "missing file: names it" "sdtrace: error: cannot open 'nonexistent.data': No such file or directory" "$(cat bad.err)"
"$SDTRACE" report --no-such-option >/dev/null 2>bad.err
check_eq "unknown option: exit 2" 2 "$?"
"$SDTRACE" report extra-arg >/dev/null 2>bad.err
check_eq "unexpected argument: exit 2" 2 "$?"
check "unexpected argument: named" grep -q "unexpected argument 'extra-arg'" bad.err
finish
