#!/bin/sh
# A corrupt, truncated, empty or foreign index is detected and rebuilt, never trusted; a cache
# with broken symlinks and foreign files still works, `cache check` reports them and --repair
# fixes them; a symlink planted inside the cache is never followed for writing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cache-lib.sh"

build_prog "$T/prog"
mkbuilds "$T/prog" "$T/bins" 20 3
check "add 20 builds" sdt cache add "$T/bins"
IDX="$T/sdt/.sdtrace-index.cdb"
want=$(sdt list '%h4cache:ev1')
check_eq "20 found" 20 "$(echo "$want" | wc -l)"
size=$(stat -c %s "$IDX")

for how in truncate garbage empty zeros; do
	case $how in
	truncate) truncate -s $((size / 2)) "$IDX" ;;
	garbage) head -c "$size" /dev/urandom >"$IDX" ;;
	empty) : >"$IDX" ;;
	zeros) head -c "$size" /dev/zero >"$IDX" ;;
	esac
	sdt cache check >"$T/c.$how" 2>&1
	check_eq "$how index: check says so (exit 1)" 1 "$?"
	check "$how index: reported corrupt" grep -q "index is corrupt" "$T/c.$how"
	check_eq "$how index: lookups still right" "$want" "$(sdt list '%h4cache:ev1')"
	check "$how index: rebuilt, check is clean" sdt cache check
done

# an index older than the cache (an entry added behind its back, perf-style)
mkbuilds "$T/prog" "$T/more" 1 4
mkdir -p "$T/sdt$T/more/bin-0000"
bid=$("$SDTRACE" list -x "$T/more/bin-0000" --json | sed -n 's/.*"build_id":"\([0-9a-f]*\)".*/\1/p' | head -n 1)
d="$T/sdt$T/more/bin-0000/$bid"
mkdir -p "$d" "$T/sdt/.build-id/$(echo "$bid" | cut -c1-2)"
printf '%%sdt_h4cache:ev1=ev1\np:sdt_h4cache/ev1 %s:0x1190\n' "$T/more/bin-0000" >"$d/probes"
ln -s "../..$T/more/bin-0000/$bid" "$T/sdt/.build-id/$(echo "$bid" | cut -c1-2)/$(echo "$bid" | cut -c3-)"
check_eq "an entry added behind the index's back is found" 21 "$(sdt list '%h4cache:ev1' | wc -l)"

# broken symlinks and foreign files in the cache
mkdir -p "$T/sdt/.build-id/zz" "$T/sdt/.build-id/ab"
ln -s ../../nowhere/abab "$T/sdt/.build-id/ab/abababab"
ln -s /etc/passwd "$T/sdt/.build-id/ab/cdcdcdcd"
echo hello >"$T/sdt/.build-id/README"
echo hello >"$T/sdt/foreign-file"
ln -s /nonexistent "$T/sdt/dangling"
check_eq "lookups work in a dirty cache" 21 "$(sdt list '%h4cache:ev1' | wc -l)"
check "cache list works" sdt cache list
sdt cache check >"$T/c.dirty" 2>&1
check_eq "check finds the broken links (exit 1)" 1 "$?"
check "names them" grep -q "malformed link '.build-id/ab/abababab'" "$T/c.dirty"
check "repair" sdt cache check --repair
check "clean after repair" sdt cache check
check "foreign files are left alone" test -f "$T/sdt/foreign-file" -a -f "$T/sdt/.build-id/README" -a -L "$T/sdt/dangling"
check_eq "still 21" 21 "$(sdt list '%h4cache:ev1' | wc -l)"

# a cache this user cannot write (another user's): lookups still work, with a private index
# (as nobody, running a copy of sdtrace it can reach: lib.sh, nobody_prepare)
if nobody_prepare; then
	rm -f "$IDX"   # missing, and nobody may write a new one
	chmod -R a+rX "$T"
	chmod 0444 "$T/sdt/.sdtrace-index.lock" 2>/dev/null
	out=$(as_nobody "$NB_SDTRACE" --cache-dir "$T/sdt" list '%h4cache:ev1' 2>"$T/ro.err")
	check_eq "read-only cache: lookups work" 21 "$(echo "$out" | grep -c ev1)"
	check_eq "read-only cache: no error" "" "$(cat "$T/ro.err")"
	check "read-only cache: nothing written" test ! -e "$IDX"
else
	say "note: not root, or no setpriv or nobody: the read-only cache is not tested"
fi

# a symlink planted inside the cache is never followed for writing
mkdir -p "$T/victim" "$T/planted/$(dirname "$T" | cut -c2-)"
ln -s "$T/victim" "$T/planted$T"
"$SDTRACE" --cache-dir "$T/planted" cache add "$T/prog" >/dev/null 2>"$T/err"
check_eq "adding through a planted symlink fails" 1 "$?"
check_eq "nothing written through it" "" "$(ls -A "$T/victim")"
ln -s /etc "$T/planted/.sdtrace-index.lock.x" 2>/dev/null
rm -f "$T/planted/.sdtrace-index.cdb" && ln -s "$T/victim/idx" "$T/planted/.sdtrace-index.cdb"
"$SDTRACE" --cache-dir "$T/planted" list >/dev/null 2>&1
check "the index is never written through a planted link" test ! -e "$T/victim/idx"
finish
