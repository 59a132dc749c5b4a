#!/bin/sh
# Stale entries are never probed: a replaced binary is rescanned (and the user told), a vanished
# one is reported; `cache list` shows the state, `cache update` and `cache purge` act on it;
# an event in two binaries is listed with both paths; remove by path and build-id.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cache-lib.sh"

build_prog "$T/prog"
mkdir -p "$T/a" "$T/b"
mkbuilds "$T/prog" "$T/a" 2 1      # a/bin-0000, a/bin-0001: two builds
mkbuilds "$T/prog" "$T/b" 1 2      # b/bin-0000: a third
A="$T/a/bin-0000"
B="$T/b/bin-0000"
check "add two binaries" sdt cache add "$A" "$B"
check_eq "an event in two binaries: both listed" "$A:%h4cache:ev1
$B:%h4cache:ev1" "$(sdt list '%h4cache:ev1')"
bidA=$(sdt cache list | awk -v p="$A" '$NF == p {print $1}')
bidB=$(sdt cache list | awk -v p="$B" '$NF == p {print $1}')
check "build-ids differ" test -n "$bidA" -a -n "$bidB" -a "$bidA" != "$bidB"

# a new build renamed over A: rescanned, the user told on stderr, the new build cached
cp "$T/a/bin-0001" "$T/a/new" && mv "$T/a/new" "$A"
newbid=$("$SDTRACE" list -x "$A" --json | sed -n 's/.*"build_id":"\([0-9a-f]*\)".*/\1/p' | head -n 1)
sdt cache list >"$T/l1"
check "cache list: A changed" grep -q "^$bidA changed .* $A\$" "$T/l1"
sdt list -v '%h4cache:ev1' >"$T/out" 2>"$T/err"
check_eq "list exits 0" 0 "$?"
check "the user is told" grep -q "warning: '$A' changed since it was cached (build-id $bidA, now $newbid)" "$T/err"
check "the listed build-id is the file's now" grep -q "^$A:%h4cache:ev1  (build-id $newbid)" "$T/out"
check_eq "never the old build" "" "$(grep "$bidA" "$T/out")"
check "the new build was cached" sh -c "'$SDTRACE' --cache-dir '$T/sdt' cache list | grep -q '^$newbid ok .* $A\$'"
check_eq "purge drops the old build" "removed '$A' ($bidA): the file changed
1 entry removed" "$(sdt cache purge)"

# touched (same build, new mtime): update refreshes, purge keeps
touch -d '2001-01-01' "$B"
check "cache list: B changed" sh -c "'$SDTRACE' --cache-dir '$T/sdt' cache list | grep -q '^$bidB changed'"
check_eq "update rescans it" "'$B': same build $bidB, metadata refreshed
1 file rescanned" "$(sdt cache update)"
check "B ok again" sh -c "'$SDTRACE' --cache-dir '$T/sdt' cache list | grep -q '^$bidB ok'"

# vanished: listed with a warning, skipped; purge drops it
rm "$B"
sdt list '%h4cache:ev1' >"$T/out" 2>"$T/err"
check "vanished: the user is told" grep -q "'$B' (build-id $bidB) is cached but the file is gone" "$T/err"
check_eq "vanished: not listed" "$A:%h4cache:ev1" "$(cat "$T/out")"
check "cache list: gone" sh -c "'$SDTRACE' --cache-dir '$T/sdt' cache list | grep -q '^$bidB gone'"
check "purge" sdt cache purge
check_eq "one entry left" 1 "$(sdt cache list | wc -l)"

# remove by path and by build-id prefix
check "remove by path" sdt cache remove "$A"
check_eq "empty" "" "$(sdt cache list)"
check "add again" sdt cache add "$A"
check "remove by build-id prefix" sdt cache remove "$(echo "$newbid" | cut -c1-12)"
check_eq "empty again" "" "$(sdt cache list)"
sdt cache remove "$A" >/dev/null 2>"$T/err"
check_eq "removing what is not cached: exit 1" 1 "$?"
check "and says so" grep -q "is not in the cache" "$T/err"
check "no directory left behind" test ! -e "$T/sdt$T"
finish
