#!/bin/sh
# SPDX-License-Identifier: MIT
# The global -v: the library's debug lines (sdt_set_print()) on stderr as "sdtrace: debug: ...",
# naming what was done: the cache entry chosen for a binary, each event resolved to its binary,
# build-id, address, file offset and semaphore offset, each line written to uprobe_events and
# each removed. `sdtrace -v list` (the cache) and `sdtrace -v record ... -- prog` give them;
# without -v there is not one, and stdout is the same with and without.
# engine: tracefs (the uprobe_events lines; t1800 has the BPF engine's -v lines)
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
need_file "$PROGS_DIR/prog-semaphore"
P=$T/prog-sem
cp "$PROGS_DIR/prog-semaphore" "$P"
uprobes_guard "^[p-r]:[^ ]+ $T/"

# The offsets the debug lines must name, from list --json.
"$SDTRACE" list -x "$P" --json '%sem:first' >"$T/j" || fail "list -x --json"
eval "$(python3 -c 'import json,sys
s = json.load(sys.stdin)[0]
print("BID=%s FO=%x SO=%x ADDR=%x" % (s["build_id"], s["file_offset"], s["semaphore_offset"],
                                       s["address"]))' <"$T/j")"
RESOLVED="sdtrace: debug: %sem:first -> '$P' (build-id $BID): address 0x$ADDR, file offset 0x$FO, semaphore at file offset 0x$SO"

# ---- list, from the cache --------------------------------------------------------------------
"$SDTRACE" cache add "$P" >/dev/null 2>&1
"$SDTRACE" -v list '%sem:first' >"$T/out" 2>"$T/err"
check_eq "-v list: exit 0" 0 $?
check_eq "-v list: stdout as without -v" "$P:%sem:first" "$(cat "$T/out")"
check "-v list: the cache entry chosen" grep -qxF \
	"sdtrace: debug: '$P': cache entry $BID, the file's build-id $BID" "$T/err"
check "-v list: the event, its binary, build-id, address, file and semaphore offsets" \
	grep -qxF "$RESOLVED" "$T/err"
check_eq "-v list: every stderr line is a debug line" 0 "$(grep -vc '^sdtrace: debug: ' "$T/err")"
"$SDTRACE" list '%sem:first' >"$T/out" 2>"$T/err"
check_eq "list without -v: the same stdout" "$P:%sem:first" "$(cat "$T/out")"
check_eq "list without -v: nothing on stderr" "" "$(cat "$T/err")"
"$SDTRACE" --verbose list '%sem:first' >/dev/null 2>"$T/err"
check "--verbose is -v" grep -qxF "$RESOLVED" "$T/err"

# ---- record a command ------------------------------------------------------------------------
"$SDTRACE" -v record -o "$T/v.data" -x "$P" -e '%sem:first' -- "$P" 3 >"$T/rec.out" 2>"$T/rec.err"
check_eq "-v record: exit 0" 0 $?
check "-v record: the resolved offsets" grep -qxF "$RESOLVED" "$T/rec.err"
check "-v record: the uprobe definition written, at the file offset, with the semaphore's" \
	grep -Eq "^sdtrace: debug: uprobe_events: add p:sdtrace_[0-9_]+/sem_first $P:0x$FO\(0x$SO\) " \
	"$T/rec.err"
grp=$(sed -n 's/^sdtrace: debug: uprobe_events: add p:\([^/]*\)\/sem_first .*/\1/p' "$T/rec.err")
check "-v record: its removal" grep -qxF "sdtrace: debug: uprobe_events: remove -:$grp/sem_first" \
	"$T/rec.err"
check "-v record: the recording summary still there" grep -q "recorded in '$T/v.data'" "$T/rec.err"
check "-v record: the command ran" grep -q '^probe sem:first arg1=2$' "$T/rec.out"
"$SDTRACE" record -o "$T/q.data" -x "$P" -e '%sem:first' -- "$P" 3 >/dev/null 2>"$T/rec.err"
check_eq "record without -v: exit 0" 0 $?
check_eq "record without -v: no debug line" 0 "$(grep -c 'debug' "$T/rec.err")"
events() { "$SDTRACE" report -i "$1" | sed 's/.* sem:first: /sem:first: /'; }
check_eq "the two recordings hold the same events" "$(events "$T/q.data")" "$(events "$T/v.data")"
check_eq "... the three firings" 3 "$(events "$T/v.data" | grep -c '^sem:first: ')"

uprobes_unchanged "uprobe_events: every line on our files as before"
finish
