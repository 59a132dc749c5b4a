#!/bin/sh
# SPDX-License-Identifier: MIT
# One lookup by name opens the event index once: the damaged-entries notice, the user probes and
# the SDT events of one resolution share it (each open checks the index is fresh: a stat of every
# .build-id/xx directory). A spec naming its binary needs no index at all.
. "$(dirname "$0")/lib.sh"
need_cmd strace
need_file "$PROGS_DIR/prog-userprobe"
need_file "$PROGS_DIR/prog-semaphore"

cp "$PROGS_DIR/prog-userprobe" "$PROGS_DIR/prog-semaphore" "$T/"
check "cache add" "$SDTRACE" cache add "$T/prog-userprobe" "$T/prog-semaphore"
check "probe add" "$SDTRACE" probe add -x "$T/prog-userprobe" work=up_add

# index_opens ARGS...: how many times `sdtrace list ARGS` opens the index (its output in
# $T/list). LeakSanitizer cannot run under ptrace: off for these runs of an ASan build.
index_opens() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=openat -o "$T/strace" "$SDTRACE" list "$@" >"$T/list" \
		2>"$T/list.err"
	grep -c 'sdtrace-index\.cdb"' "$T/strace"
}

check_eq "a user probe: the index opened once" 1 "$(index_opens work)"
check "  and found" grep -q "^$T/prog-userprobe:%probe_prog:work\$" "$T/list"
check_eq "an SDT event: the index opened once" 1 "$(index_opens %sem:first)"
check "  and found" grep -q "^$T/prog-semaphore:%sem:first\$" "$T/list"
check_eq "both in one lookup: the index opened once" 1 "$(index_opens work %sem:first)"
check_eq "  both found" 2 "$(wc -l <"$T/list")"
check_eq "an event of a named binary: no index" 0 "$(index_opens "$T/prog-semaphore:%sem:first")"
check "  and found" grep -q "^$T/prog-semaphore:%sem:first\$" "$T/list"
finish
