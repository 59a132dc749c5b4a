#!/bin/sh
# The cache never follows a symlink planted inside it when writing: one planted at every level of
# an entry's directory, at .build-id and .build-id/xx, at the entry's link, its files, the index
# and its lock, each pointing at a file (or directory) outside that must not change. Also: files
# are created with the user's umask, and under sudo the cache's owner is said once on stderr.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cache-lib.sh"
need_cmd readelf

mkdir -p "$T/bin"
build_prog "$T/bin/prog" h8sym
P=$(cd "$T/bin" && pwd -P)/prog
bid=$(readelf -n "$P" | sed -n 's/.*Build ID: *//p')
[ -n "$bid" ] || skip "the test program has no build-id"
xx=$(printf %s "$bid" | cut -c1-2)
rest=$(printf %s "$bid" | cut -c3-)

echo "VICTIM" >"$T/victim"
mkdir "$T/victimdir"
chmod 666 "$T/victim"
victim_sum=$(cksum <"$T/victim")

# plant CACHE REL TARGET: a symlink at CACHE/REL (parents created as real directories)
plant() {
	mkdir -p "$1/$(dirname "$2")"
	ln -s "$3" "$1/$2"
}
# the victims are untouched, and nothing was created through a link
victims_ok() {
	[ "$(cksum <"$T/victim")" = "$victim_sum" ] && [ -z "$(ls -A "$T/victimdir")" ]
}

n=0
try() {
	rel=$1
	target=$2
	n=$((n + 1))
	C="$T/c$n"
	mkdir -p "$C"
	plant "$C" "$rel" "$target"
	"$SDTRACE" --cache-dir "$C" cache add "$P" >"$T/out" 2>"$T/err"
	rc=$?
	say "link at $rel: exit $rc: $(head -c 200 "$T/err")"
	check "link at $rel: no write through it (exit $rc)" victims_ok
	check "link at $rel: exit 0 or 1, with a message when 1" \
		sh -c "[ $rc -eq 0 ] || { [ $rc -eq 1 ] && grep -q error '$T/err'; }"
	# a second command on the same cache must not write through it either
	"$SDTRACE" --cache-dir "$C" list '%h8sym:*' >/dev/null 2>&1
	"$SDTRACE" --cache-dir "$C" cache check --repair >/dev/null 2>&1
	check "link at $rel: list and check --repair do not write through it" victims_ok
}

# every level of the entry's directory ROOT/<real path>/<build-id>
rel=""
old_ifs=$IFS
IFS=/
for comp in ${P#/}; do
	IFS=$old_ifs
	rel="${rel:+$rel/}$comp"
	try "$rel" "$T/victimdir"
	IFS=/
done
IFS=$old_ifs
try "${P#/}/$bid" "$T/victimdir"
for f in elf probes sdtrace.meta; do
	try "${P#/}/$bid/$f" "$T/victim"
done
try ".build-id" "$T/victimdir"
try ".build-id/$xx" "$T/victimdir"
try ".build-id/$xx/$rest" "$T/victim"
try ".sdtrace-index.cdb" "$T/victim"
try ".sdtrace-index.lock" "$T/victim"
try ".sdtrace-entries.lock" "$T/victim"

# umask: what the cache creates carries no more than the umask allows
for m in 077 022; do
	C="$T/umask$m"
	(umask $m && "$SDTRACE" --cache-dir "$C" cache add "$P" >/dev/null 2>&1)
	if [ "$m" = 077 ]; then
		# (elf is a hard link to the program itself when on the same filesystem: not created)
		bad=$(find "$C" -mindepth 1 \( -type d -o -type f -links 1 \) -perm /077 -print | head -n 3)
		check_eq "umask 077: nothing group or world accessible" "" "$bad"
	else
		bad=$(find "$C" -mindepth 1 \( -type d -o -type f -links 1 \) -perm /022 -print | head -n 3)
		check_eq "umask 022: nothing group or world writable" "" "$bad"
		check "umask 022: the probes file is world readable" \
			test -n "$(find "$C" -name probes -perm -044 -print)"
	fi
done

# sudo: SUDO_USER set and a cache owned by root -> said once; not said without sudo
if [ "$(id -u)" = 0 ]; then
	C="$T/rootcache"
	SUDO_USER=nobody "$SDTRACE" --cache-dir "$C" cache add "$P" >/dev/null 2>"$T/sudo.err"
	check_eq "sudo: root's cache is named once on stderr" 1 "$(grep -c "using root's cache '$C'" "$T/sudo.err")"
	check "sudo: the invoking user is named" grep -q "'nobody'" "$T/sudo.err"
	"$SDTRACE" --cache-dir "$C" cache list >/dev/null 2>"$T/nosudo.err"
	check_eq "without sudo: nothing said" "" "$(cat "$T/nosudo.err")"
else
	say "SKIP (part): not root: the sudo note is not tested"
fi
finish
