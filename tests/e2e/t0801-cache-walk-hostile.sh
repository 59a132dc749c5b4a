#!/bin/sh
# `sdtrace cache add -r` on a hostile tree (what t0202 does not cover): sockets, character and
# block device nodes, symlink chains that loop, a dangling link, a link to /, 500 levels of
# nesting and a tree deeper than PATH_MAX, and (as user nobody) unreadable files and
# directories. The walk never blocks, never leaves the tree, never opens a device, and reports
# what it skipped and what failed.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/cache-lib.sh"
need_cmd timeout python3

D="$T/tree"
mkdir -p "$D/sub"
build_prog "$D/prog" h8walk
build_prog "$D/sub/prog2" h8walk2

# a socket (bound, then the process exits: the node stays)
python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$D/sock" ||
	skip "cannot create a unix socket"
check "the socket exists" test -S "$D/sock"
ndev=0
if [ "$(id -u)" = 0 ]; then
	# /dev/zero would never end a read, a block device is a disk: neither may be opened
	mknod "$D/zero" c 1 5 && ndev=$((ndev + 1))
	mknod "$D/loopdev" b 7 0 && ndev=$((ndev + 1))
else
	say "not root: no device nodes in the tree"
fi
ln -s loop-b "$D/loop-a"
ln -s loop-a "$D/loop-b"     # a -> b -> a: ELOOP
ln -s nowhere "$D/dangling"  # ENOENT
ln -s / "$D/root-link"       # out of the tree: not followed
ln -s .. "$D/sub/up"         # inside (the tree itself): not walked twice

# 500 levels, a program at the bottom
deep="$D/deep"
i=0
p=$deep
while [ $i -lt 500 ]; do
	p="$p/d"
	i=$((i + 1))
done
mkdir -p "$p"
build_prog "$p/prog-deep" h8deep
# deeper than PATH_MAX (4096): built by descending, since no path can name the bottom
build_prog "$T/prog-abyss" h8abyss
python3 -c '
import os, shutil, sys
os.mkdir(sys.argv[1])
os.chdir(sys.argv[1])
for _ in range(2200):
    os.mkdir("d")
    os.chdir("d")
shutil.copy(sys.argv[2], "prog-abyss")
' "$D/abyss" "$T/prog-abyss" || skip "cannot build a tree deeper than PATH_MAX"

start=$(date +%s)
timeout -s TERM 300 "$SDTRACE" --cache-dir "$T/sdt" cache add -r "$D" >"$T/out" 2>"$T/err"
rc=$?
end=$(date +%s)
say "add -r took $((end - start)) s: $(cat "$T/out")"
check "add -r ends (no hang, no signal): exit $rc" test "$rc" -le 1
check "no sanitizer report" sh -c "! grep -qE 'AddressSanitizer|runtime error' '$T/err'"
check "the summary reports $((ndev + 1)) skipped non-regular files" \
	grep -q ", $((ndev + 1)) skipped (not regular files)" "$T/out"
sdt cache list >"$T/list" 2>&1
check "the top program is cached" grep -q " $D/prog\$" "$T/list"
check "the program 500 levels down is cached" grep -q "/d/d/d/prog-deep\$" "$T/list"
check_eq "nothing from outside the tree is cached" "" "$(grep -v " $D/" "$T/list")"
check_eq "the root link was not followed (no /usr, /bin entry)" "" "$(grep -E ' /(usr|bin|lib)' "$T/list")"
# the tree deeper than PATH_MAX cannot be walked to the bottom: said, not silently dropped
check_eq "add -r: exit 1 (the abyss could not be walked)" 1 "$rc"
check "the abyss is named on stderr" grep -q "error: .*$D/abyss/d/d" "$T/err"
check_eq "every error is about the abyss" "" "$(grep error "$T/err" | grep -v "$D/abyss")"
check "errors are counted in the summary" grep -qE ', [1-9][0-9]* errors' "$T/out"
check "the devices were never opened (the walk did not block on /dev/zero)" test $((end - start)) -lt 300

# A second add: nothing new
timeout -s TERM 300 "$SDTRACE" --cache-dir "$T/sdt" cache add -r "$D" >"$T/out2" 2>/dev/null
check "a second add adds nothing" grep -q ", 0 added," "$T/out2"

# As nobody: unreadable files and directories are reported, the rest is cached.
# A copy of sdtrace that nobody can reach (lib.sh: nobody_prepare), walking trees in $T.
if nobody_prepare; then
	U="$T/u"
	mkdir -p "$U/closed" "$U/open"
	cp "$D/prog" "$U/open/prog-open"
	cp "$D/prog" "$U/closed/prog-closed"
	cp "$D/prog" "$U/secret"
	chmod 000 "$U/secret"
	chmod 000 "$U/closed"
	mkdir -p "$U/noexec"
	cp "$D/prog" "$U/noexec/prog-noexec"
	chmod 644 "$U/noexec" # listable, not searchable
	chmod 755 "$T" "$U" "$U/open"
	mkdir "$T/nobody-cache"
	chown nobody:nogroup "$T/nobody-cache"
	NB_ENV="HOME=$T/nobody-cache SDTRACE_CACHE_DIR=$T/nobody-cache"
	# shellcheck disable=SC2086
	as_nobody $NB_ENV "$NB_SDTRACE" cache add -r "$U" >"$T/nout" 2>"$T/nerr"
	rc=$?
	say "as nobody: $(cat "$T/nout")"
	check_eq "as nobody: exit 1 (some files could not be read)" 1 "$rc"
	check "as nobody: the unreadable file is named" grep -q "'$U/secret'" "$T/nerr"
	check "as nobody: the unreadable directory is named" grep -q "'$U/closed'" "$T/nerr"
	check "as nobody: the unsearchable directory is named" grep -q "$U/noexec" "$T/nerr"
	check "as nobody: errors are counted" grep -qE ', [1-9][0-9]* errors' "$T/nout"
	# shellcheck disable=SC2086
	as_nobody $NB_ENV "$NB_SDTRACE" cache list >"$T/nlist" 2>&1
	check "as nobody: the readable program is cached" grep -q " $U/open/prog-open\$" "$T/nlist"
	check_eq "as nobody: nothing else" 1 "$(wc -l <"$T/nlist")"
	check_eq "as nobody: the cache belongs to nobody" "nobody" \
		"$(find "$T/nobody-cache" -newer "$T/nobody-cache/.." ! -user nobody -print | head -n 1)nobody"
	chmod 755 "$U/closed" "$U/noexec"
	chmod 644 "$U/secret"
else
	say "SKIP (part): not root, or no setpriv/nobody: the unreadable-tree part is not run"
fi
finish
