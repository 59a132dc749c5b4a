#!/bin/sh
# The cache layout is perf's, byte for byte: `sdtrace cache add` and `perf buildid-cache --add`
# of the same binaries give the same directory tree (plus sdtrace's own files) and the same
# probes files (sdtrace's may carry arguments perf drops: constants, globals).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cache-lib.sh"
need_peer perf

build_prog "$T/prog"
EXAMPLE="$BUILD_DIR/examples/sdt-example"
bins="$T/prog"
[ -x "$EXAMPLE" ] && bins="$bins $EXAMPLE"
for b in /usr/bin/python3.11 /usr/lib/postgresql/15/bin/postgres \
	/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so; do
	if [ -e "$b" ]; then bins="$bins $b"; else say "note: $b not installed, not compared"; fi
done

for b in $bins; do
	perf_private buildid-cache --add "$b" >/dev/null 2>&1 || fail "perf buildid-cache --add $b"
	check "sdtrace cache add $(basename "$b")" sdt cache add "$b"
done

tree() {
	(cd "$1" && find . ! -name sdtrace.meta ! -name '.sdtrace-index.*' \
		! -name '.sdtrace-entries.lock' -printf '%y %p %l\n' | sort)
}
tree "$T/perfcache" >"$T/perf.tree"
tree "$T/sdt" >"$T/sdt.tree"
check_eq "same directory tree and link targets as perf" "$(cat "$T/perf.tree")" "$(cat "$T/sdt.tree")"
check "tree is not empty" grep -q '^l ./.build-id/' "$T/sdt.tree"

for p in $(cd "$T/perfcache" && find . -name probes); do
	name=$(echo "$p" | cut -d/ -f2- | sed 's,/[0-9a-f]*/probes$,,')
	if out=$(cmp_probes "$T/perfcache/$p" "$T/sdt/$p" 2>&1); then
		pass "probes of /$name as perf writes them"
	else
		fail "probes of /$name as perf writes them" "$out"
	fi
	check "sdtrace.meta of /$name has its magic" grep -q '^sdtrace-meta 1$' "$T/sdt/$(dirname "$p")/sdtrace.meta"
done

# the elf is a hard link on the same filesystem (a copy across filesystems)
bid=$(ls "$T/sdt$T/prog")
if [ "$(stat -c %d "$T/prog")" = "$(stat -c %d "$T/sdt")" ]; then
	check_eq "elf is a hard link to the binary" "$(stat -c %i "$T/prog")" "$(stat -c %i "$T/sdt$T/prog/$bid/elf")"
fi
check "elf has the binary's bytes" cmp "$T/prog" "$T/sdt$T/prog/$bid/elf"

# sdtrace's extra args: the constant of ev1 (perf drops `-4@$7`)
check "sdtrace keeps the constant perf drops" grep -q 'p:sdt_h4cache/ev1 .* arg2=\\7:s32' "$T/sdt$T/prog/$bid/probes"
perf_ev1=$(grep '^p:sdt_h4cache/ev1 ' "$T/perfcache$T/prog/$bid/probes")
check_eq "perf dropped it (so the comparison above is not vacuous)" "" "$(echo "$perf_ev1" | grep 'arg2=')"
# a file is created with the user's umask
check "files follow the umask (0644 under umask 022)" sh -c "umask 022; rm -rf '$T/u'; '$SDTRACE' --cache-dir '$T/u' cache add '$T/prog' >/dev/null && test \"\$(stat -c %a '$T/u$T/prog/$bid/probes')\" = 644"
finish
