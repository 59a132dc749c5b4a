#!/bin/sh
# A small `cache add` (at most 32 files) makes exactly what it wrote durable with fsync instead of
# syncfs(): every entry ends up linked with its files in place, each link written only after
# fsyncs of the entry, the links fsync'ed too; a refresh of a linked entry, a copy (cache on
# another file system) and a SIGKILL at any moment leave a cache that `cache check` accepts.
# A larger add still calls syncfs().
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cache-lib.sh"

build_prog "$T/prog"
mkbuilds "$T/prog" "$T/few" 5 11
mkbuilds "$T/prog" "$T/many" 40 12

entry_ok() { # DIR: elf, probes and sdtrace.meta of each entry under DIR, linked
	n=0
	for l in "$1"/.build-id/*/*; do
		[ -e "$l" ] || [ -L "$l" ] || continue # no link in this directory (yet)
		[ -L "$l" ] || return 1
		d=$(cd "$(dirname "$l")" && cd "$(readlink "$l")" && pwd) || return 1
		[ -f "$d/elf" ] && [ -s "$d/probes" ] && [ -s "$d/sdtrace.meta" ] || return 1
		n=$((n + 1))
	done
	echo "$n"
}

out=$(sdt cache add "$T/prog" 2>&1)
check_eq "one file added" "1 files seen, 1 ELF, 1 with SDT notes, 1 added, 0 unchanged, 0 not ELF, 0 skipped (not regular files), 0 errors" "$out"
check_eq "its entry is linked, with elf, probes and meta" 1 "$(entry_ok "$T/sdt")"
check "cache check accepts it" sdt cache check
check_eq "found through the index" "$T/prog:%h4cache:multi" "$(sdt list '%h4cache:multi')"
check_eq "no temporaries left" "" "$(find "$T/sdt" -name '.sdtrace-tmp.*')"

# a refresh of the linked entry (same build-id, the file changed: its meta differs)
touch -d '2001-01-01' "$T/prog"
out=$(sdt cache add "$T/prog" 2>&1)
check_eq "the touched file is added again" "1 files seen, 1 ELF, 1 with SDT notes, 1 added, 0 unchanged, 0 not ELF, 0 skipped (not regular files), 0 errors" "$out"
check "cache check accepts the refreshed entry" sdt cache check
check_eq "still one entry" 1 "$(entry_ok "$T/sdt")"

# the order of the syncs, when strace can show it
if command -v strace >/dev/null 2>&1 &&
	strace -f -qq -o "$T/st0" -e trace=fsync true >/dev/null 2>&1; then
	strace -f -qq -o "$T/st" -e trace=fsync,fdatasync,syncfs,symlinkat \
		"$SDTRACE" --cache-dir "$T/st-cache" cache add "$T/few" >/dev/null 2>&1
	check_eq "small add: no syncfs" 0 "$(grep -c 'syncfs(' "$T/st")"
	check_eq "small add: 5 links" 5 "$(grep -c 'symlinkat(' "$T/st")"
	first=$(grep -n 'symlinkat(' "$T/st" | head -n 1 | cut -d: -f1)
	synced=$(head -n "$((first - 1))" "$T/st" | grep -c 'fsync(')
	# per entry at least its 2 files and its directory, plus the directory they live in
	check "small add: >= 16 fsyncs before the first link ($synced)" test "$synced" -ge 16
	check "small add: the links fsync'ed after them" \
		sh -c "tail -n +$first '$T/st' | grep -q 'fsync('"
	check_eq "small add: 5 entries linked with their files" 5 "$(entry_ok "$T/st-cache")"

	strace -f -qq -o "$T/st2" -e trace=syncfs \
		"$SDTRACE" --cache-dir "$T/st-many" cache add "$T/many" >/dev/null 2>&1
	check_eq "large add (40 files): syncfs twice" 2 "$(grep -c 'syncfs(' "$T/st2")"
	check_eq "large add: 40 entries linked with their files" 40 "$(entry_ok "$T/st-many")"
else
	say "strace cannot run here: the sync order is not checked"
fi

# a copy instead of a hard link: a cache on another file system
if [ -d /dev/shm ] && [ -w /dev/shm ] &&
	[ "$(stat -c %d /dev/shm)" != "$(stat -c %d "$T")" ]; then
	shm=$(mktemp -d /dev/shm/sdtrace-t0207.XXXXXX)
	at_exit "rm -rf '$shm'"
	check "add to a cache on another file system" \
		"$SDTRACE" --cache-dir "$shm/c" cache add "$T/few"
	check_eq "5 copied entries" 5 "$(entry_ok "$shm/c")"
	e=$(ls -d "$shm"/c"$T"/few/bin-0000/*)
	check "the copy is the file" cmp "$T/few/bin-0000" "$e/elf"
	check "cache check accepts the copies" "$SDTRACE" --cache-dir "$shm/c" cache check
else
	say "no /dev/shm on another file system: the copy path is not checked"
fi

# SIGKILL at many moments of a small add: nothing half-linked
i=0
killed=0
while [ $i -lt "${SIGKILL_RUNS:-25}" ]; do
	rm -rf "$T/k"
	"$SDTRACE" --cache-dir "$T/k" cache add "$T/few" >/dev/null 2>&1 &
	pid=$!
	# 0-19 ms: a small add of 5 files takes about 10 ms
	sleep "$(printf '0.%03d' $(( (i * 7) % 20 )))" 2>/dev/null || sleep 1
	kill -9 "$pid" 2>/dev/null && killed=$((killed + 1))
	wait "$pid" 2>/dev/null
	if [ -d "$T/k" ] && ! "$SDTRACE" --cache-dir "$T/k" cache check >"$T/check$i" 2>&1; then
		fail "cache check accepts the cache after kill $i" "$(head -n 20 "$T/check$i")"
	else
		pass "cache check accepts the cache after kill $i"
	fi
	if [ -d "$T/k/.build-id" ]; then
		n=$(entry_ok "$T/k") || n="a link without its files"
		check "every link of kill $i has its files ($n)" test "$n" -ge 0
	fi
	check "an add after kill $i completes" "$SDTRACE" --cache-dir "$T/k" cache add "$T/few"
	check_eq "5 entries after kill $i" 5 "$(entry_ok "$T/k")"
	i=$((i + 1))
done
check "at least one add was killed mid-way ($killed)" test "$killed" -ge 1
finish
