#!/bin/sh
# SPDX-License-Identifier: MIT
# `sdtrace list -x F --json` (F scanned now) and `sdtrace list --json` (after `cache add F`, found
# through the cache) print the same objects for the same sites, byte for byte: the same keys
# (semaphore, size/signed/float, n/name/type, typed_fetch...), the same names and types from
# the provider files (the shipped ones, --types) and from a typed pattern. Only "path" may
# differ by nature (-x shows the path as given, the cache the real path): the files are given by
# their real paths here, so that nothing differs. The text of -v is the same too, but for the
# build-id the cache's adds to each provider:event line.
. "$(dirname "$0")/lib.sh"
need_cmd python3
need_file "$PROGS_DIR/prog-inline" "$PROGS_DIR/prog-semaphore" "$PROGS_DIR/prog-forms-ld" \
	"$PROGS_DIR/prog-string"

# same NAME FILE [LIST-ARGS...]: list -x FILE --json and list --json (a cache of FILE only).
same() {
	_name=$1 _f=$(realpath "$2")
	shift 2
	export SDTRACE_CACHE_DIR="$T/cache-$(basename "$_f")"
	"$SDTRACE" cache add "$_f" >/dev/null 2>"$T/err" ||
		fail "$_name: cache add" "$(cat "$T/err")"
	"$SDTRACE" list -x "$_f" --json "$@" >"$T/x.json" 2>"$T/x.err"
	_rcx=$?
	"$SDTRACE" list --json "$@" >"$T/c.json" 2>"$T/c.err"
	_rcc=$?
	check_eq "$_name: both exit 0, nothing on stderr" "0 0 " "$_rcx $_rcc $(cat "$T/x.err" "$T/c.err")"
	check "$_name: some sites" python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))' \
		"$T/x.json"
	check "$_name: list -x --json and list --json (the cache) print the same" \
		cmp "$T/x.json" "$T/c.json"
	[ -s "$T/.out" ] && diff "$T/x.json" "$T/c.json" | cut -c 1-400 | sed "s/^/# /"
	# and the text of -v: the same lines, the cache's naming the build-id of each event
	"$SDTRACE" list -x "$_f" -v "$@" >"$T/x.txt" 2>&1
	"$SDTRACE" list -v "$@" 2>&1 | sed 's/  (build-id [0-9a-f]*)$//' >"$T/c.txt"
	check "$_name: list -x -v and list -v (the cache) print the same sites and arguments" \
		cmp "$T/x.txt" "$T/c.txt"
	[ -s "$T/.out" ] && diff "$T/x.txt" "$T/c.txt" | head -n 20 | sed "s/^/# /"
	return 0
}

same "prog-inline (three sites of one event)" "$PROGS_DIR/prog-inline"
same "prog-semaphore (semaphores and their offsets)" "$PROGS_DIR/prog-semaphore"
same "prog-longdouble (a long double on the stack)" "$PROGS_DIR/prog-longdouble"
same "prog-forms-ld (long doubles; one in %st cannot be fetched)" "$PROGS_DIR/prog-forms-ld"
same "prog-string" "$PROGS_DIR/prog-string"
# a typed pattern: names, types and typed fetches from the pattern, in both
ev=$("$SDTRACE" list -x "$PROGS_DIR/prog-string" | head -n 1 | sed 's/.*:%/%/')
same "prog-string, typed pattern '$ev(s:string)'" "$PROGS_DIR/prog-string" "$ev(s:string)"
# a type file of our own, given with --types to both
prov=${ev#%}
prov=${prov%%:*}
evname=${ev##*:}
printf 'provider %s {\n\tprobe %s(const char *text);\n};\n' "$prov" "$evname" >"$T/mine.d"
same "prog-string, --types FILE" "$PROGS_DIR/prog-string" --types "$T/mine.d"
check "--types FILE: its name is in the JSON" grep -q '"name":"text","type":"string"' "$T/x.json"
# the shipped provider files: python's names and types
if [ -f /usr/bin/python3.11 ]; then
	same "python3.11 (names and types of the shipped python.d)" /usr/bin/python3.11
	check "python3.11: names from python.d" grep -q '"name":"filename","type":"string"' \
		"$T/x.json"
else
	say "SKIP: no /usr/bin/python3.11 for the shipped type file"
fi
finish
