#!/bin/sh
# SPDX-License-Identifier: MIT
# sdtrace list when nothing matches, and what looking leaves on disk. The exit status is grep's
# (0 something listed, 1 nothing matched, 2 an error); what matched nothing is said on stderr: an
# empty cache, a pattern with the nearest names of the cache or of the file ("did you mean"),
# "add binaries" only when the cache has nothing of the provider. The commands that only look
# (list, cache list, cache check, probe list) never create the cache directory or its index.
. "$(dirname "$0")/lib.sh"
INLINE=$PROGS_DIR/prog-inline
need_file "$INLINE" "$PROGS_DIR/prog-nonotes"

# run ARGS...: sdtrace's stdout in $T/out, stderr in $T/err, exit code in $rc.
run() {
	"$SDTRACE" "$@" >"$T/out" 2>"$T/err"
	rc=$?
}
# outcome NAME RC STDOUT STDERR: the last run gave exactly these.
outcome() {
	check_eq "$1: exit $2" "$2" "$rc"
	check_eq "$1: stdout" "$3" "$(cat "$T/out")"
	check_eq "$1: stderr" "$4" "$(cat "$T/err")"
}

# ---- a cache that does not exist: an empty one, and still not there afterwards ---------------
C=$T/nocache
EMPTY="sdtrace: the cache '$C' is empty: add binaries with 'sdtrace cache add PATH'"
run --cache-dir "$C" list
outcome "empty cache: list" 1 "" "$EMPTY"
run --cache-dir "$C" list --json
outcome "empty cache: list --json" 1 "[]" "$EMPTY"
run --cache-dir "$C" list '%inline:*'
outcome "empty cache: list PATTERN" 1 "" "$EMPTY"
for args in "list" "list -v %inline:hit" "list --json" "cache list" "cache list --json" \
	"cache check" "probe list" "probe list --json" "list --build-id 0123456789abcdef0123"; do
	# shellcheck disable=SC2086
	run --cache-dir "$C" $args
	check "empty cache: '$args' creates no cache directory" test ! -e "$C"
done
run --cache-dir "$C" cache list
check_eq "empty cache: cache list, exit 0" "0:" "$rc:$(cat "$T/out")"
run --cache-dir "$C" cache check
check_eq "empty cache: cache check, exit 0" 0 "$rc"

# ---- a cache without its index (perf made it, or it was removed): read, never written --------
C=$T/c
check "cache add" "$SDTRACE" --cache-dir "$C" cache add "$INLINE"
rm -f "$C/.sdtrace-index.cdb" "$C/.sdtrace-index.lock"
(cd "$C" && find . | sort) >"$T/before"
run --cache-dir "$C" list
outcome "no index: list" 0 "$INLINE:%inline:hit
$INLINE:%inline:once" ""
for args in "list" "list -v %inline:*" "list %inline:hti" "list --json" "cache list" \
	"cache check" "probe list"; do
	# shellcheck disable=SC2086
	run --cache-dir "$C" $args
	(cd "$C" && find . | sort) >"$T/after"
	check "no index: '$args' writes nothing into the cache" cmp -s "$T/before" "$T/after"
done

# ---- typos in the cache: the nearest names --------------------------------------------------
run --cache-dir "$C" list '%inline:hti'
outcome "typo: list %inline:hti" 1 "" \
	"sdtrace: no SDT event matches '%inline:hti' in the cache '$C'; did you mean %inline:hit?"
run --cache-dir "$C" list 'sdt_inlin:once'
outcome "typo: perf's form" 1 "" \
	"sdtrace: no SDT event matches 'sdt_inlin:once' in the cache '$C'; did you mean %inline:once?"
run --cache-dir "$C" list '%inlin:*'
outcome "typo: provider, with a glob" 1 "" \
	"sdtrace: no SDT event matches '%inlin:*' in the cache '$C'; did you mean %inline:*?"
run --cache-dir "$C" list '%inline:nothing_like_it'
outcome "no such event of a cached provider: no 'add binaries'" 1 "" \
	"sdtrace: no SDT event matches '%inline:nothing_like_it' in the cache '$C'"
run --cache-dir "$C" list '%zzz:q'
outcome "unknown provider: add binaries" 1 "" \
	"sdtrace: no SDT event matches '%zzz:q' in the cache '$C' (add binaries with 'sdtrace cache add PATH')"
run --cache-dir "$C" list '%inline:hit' '%inline:onse'
outcome "one of two patterns matches: exit 0, the other said" 0 "$INLINE:%inline:hit" \
	"sdtrace: no SDT event matches '%inline:onse' in the cache '$C'; did you mean %inline:once?"
run --cache-dir "$C" list --json '%inline:hti'
check_eq "typo, --json: an empty array, exit 1" "1:[]" "$rc:$(tr -d ' \n' <"$T/out")"

# ---- files: the nearest names of the file ---------------------------------------------------
run list -x "$INLINE" '%inline:onc'
outcome "-x typo" 1 "" \
	"sdtrace: no SDT event matches '%inline:onc' in '$INLINE'; did you mean %inline:once?"
run list "$INLINE:%inline:hti"
outcome "typo with the binary inline" 1 "" \
	"sdtrace: no SDT event matches '$INLINE:%inline:hti' in '$INLINE'; did you mean %inline:hit?"
run list -x "$PROGS_DIR/prog-nonotes"
outcome "-x a file without probes" 1 "" "sdtrace: '$PROGS_DIR/prog-nonotes' has no SDT probes"
run list -x "$T/missing"
check_eq "-x a missing file: exit 2" 2 "$rc"
run list -x "$T/missing" -x "$INLINE"
check_eq "an error and a listing: exit 2" 2 "$rc"

# ---- -p: the nearest names of the files the process maps -----------------------------------
W=$PROGS_DIR/prog-wait
if [ -x "$W" ]; then
	"$W" "$T/w.pid" >"$T/w.out" 2>&1 &
	wpid=$!
	at_exit "kill -9 $wpid 2>/dev/null"
	wait_for 5 test -s "$T/w.pid"
	run --cache-dir "$T/nocache" list -p "$wpid" '%wait:tik'
	outcome "-p typo of the executable's event" 1 "" \
		"sdtrace: no SDT event matches '%wait:tik' in the files process $wpid maps; did you mean %wait:tick?"
	run --cache-dir "$T/nocache" list -p "$wpid" '%lib:cal'
	outcome "-p typo of a library's event" 1 "" \
		"sdtrace: no SDT event matches '%lib:cal' in the files process $wpid maps; did you mean %lib:call?"
	run --cache-dir "$T/nocache" list -p "$wpid" '%zzz:q'
	outcome "-p, nothing close" 1 "" \
		"sdtrace: no SDT event matches '%zzz:q' in the files process $wpid maps"
	check "-p: no cache directory created" test ! -e "$T/nocache"
	kill "$wpid" 2>/dev/null
	wait "$wpid" 2>/dev/null
else
	say "no $W: the -p cases are not run"
fi

# ---- documented ------------------------------------------------------------------------------
run list --help
check "list --help: the exit status" grep -q "^Exit status: 0 .*, 1 .*, 2 " "$T/out"
check "sdtrace-list(1): the exit status, as grep's" sh -c \
	"sed -n '/^# EXIT STATUS/,/^# /p' '$SRC_DIR/man/sdtrace-list.1.scd' | tr '\n' ' ' |
	grep -q 'grep\\*(1): 0 when something was listed, 1 when nothing matched.* 2 on an error'"
finish
