#!/bin/sh
# Adds and removals of one file at once never leave a link to a missing or emptied entry (before:
# `add F & remove F & add F` broke by round 38 of 100, every process exiting 0, and `cache list`
# then showed `ok 0 events` while lookups missed the file silently).
#  1. 200 rounds of `add F & remove F & add F`;
#  2. 100 rounds of `add -r D & add -r D & remove F & update` (F touched each round, so that the
#     adds rewrite its entry and update refreshes it);
# each followed by `cache check`, and by the index and the entries agreeing on F.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cache-lib.sh"

mkdir -p "$T/d"
build_prog "$T/d/prog"
mkbuilds "$T/d/prog" "$T/d" 3 5
F=$T/d/prog

# after a round: the cache is sound, and F is either cached whole or not at all
judge() {
	if ! sdt cache check >"$T/check" 2>&1; then
		broken=$((broken + 1))
		[ -n "$first" ] || first="round $1: $(head -n 5 "$T/check")"
		return
	fi
	e=$(sdt cache list | grep -c " ok  *3 events  *4 sites .* $F\$")
	l=$(sdt list '%h4cache:ev1' | grep -c "^$F:")
	if [ "$e" != "$l" ] || { [ "$e" = 0 ] && sdt cache list | grep -q " $F\$"; }; then
		broken=$((broken + 1))
		[ -n "$first" ] || first="round $1: index $l, entries $e: $(sdt cache list)"
	fi
}

check "F has 3 events" sh -c "'$SDTRACE' list -x '$F' | wc -l | grep -qx 3"
broken=0 first="" rcs=""
i=0
while [ $i -lt 200 ]; do
	sdt cache add "$F" >/dev/null 2>&1 &
	a=$!
	sdt cache remove "$F" >/dev/null 2>&1 &
	sdt cache add "$F" >/dev/null 2>&1 &
	b=$!
	wait $a
	ra=$?
	wait $b
	rcs="$rcs$ra$?"
	wait
	judge $i
	i=$((i + 1))
done
check_eq "add & remove & add, 200 rounds: every round left a sound cache" 0 "$broken"
[ -z "$first" ] || say "first broken $first"
check_eq "add & remove & add: every add succeeded" "" "$(printf '%s' "$rcs" | tr -d 0)"

broken=0 first="" rcs=""
i=0
while [ $i -lt 100 ]; do
	touch "$F"
	sdt cache add -r "$T/d" >/dev/null 2>&1 &
	a=$!
	sdt cache add -r "$T/d" >/dev/null 2>&1 &
	b=$!
	sdt cache remove "$F" >/dev/null 2>&1 &
	sdt cache update >/dev/null 2>&1 &
	u=$!
	wait $a
	ra=$?
	wait $b
	rb=$?
	wait $u
	rcs="$rcs$ra$rb$?"
	wait
	judge $i
	i=$((i + 1))
done
check_eq "add -r x2 & remove & update, 100 rounds: every round left a sound cache" 0 "$broken"
[ -z "$first" ] || say "first broken $first"
check_eq "add -r x2 & remove & update: every add and update succeeded" "" \
	"$(printf '%s' "$rcs" | tr -d 0)"
check_eq "the other builds stay cached" 3 "$(sdt cache list | grep -c ' ok .*/bin-000[0-2]$')"
finish
