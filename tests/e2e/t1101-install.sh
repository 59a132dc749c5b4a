#!/bin/sh
# SPDX-License-Identifier: MIT
# Installing: `cmake --install` of this build tree into a temporary DESTDIR gives exactly the
# expected files (binary, libsdtrace.so with its soname links, libsdtrace.a, the public headers,
# libsdtrace.pc, the provider type files, the man pages, the bash completion); the installed
# library exports only its sdt_ API (every SDT_API function of the headers, nothing else); each
# installed header compiles alone (C and C++); examples/sdt-list-lib.c builds through
# `pkg-config --cflags --libs libsdtrace` (PKG_CONFIG_PATH and PKG_CONFIG_SYSROOT_DIR into the
# DESTDIR), dynamically and statically (--static), and runs: it lists, resolves through a cache,
# and writes a recording and reads it back; `make uninstall` removes it all.
# Nothing is installed into the real system.
. "$(dirname "$0")/lib.sh"
need_cmd cmake pkg-config cc make nm readelf
PROG=$PROGS_DIR/prog-inline
need_file "$PROG" "$BUILD_DIR/CMakeCache.txt"

# cachevar NAME DEFAULT: a variable of the build tree's CMake cache
cachevar() {
	_v=$(sed -n "s/^$1:[A-Z]*=//p" "$BUILD_DIR/CMakeCache.txt")
	echo "${_v:-$2}"
}
prefix=$(cachevar CMAKE_INSTALL_PREFIX /usr/local)
bindir=$prefix/$(cachevar CMAKE_INSTALL_BINDIR bin)
libdir=$prefix/$(cachevar CMAKE_INSTALL_LIBDIR lib)
incdir=$prefix/$(cachevar CMAKE_INSTALL_INCLUDEDIR include)
datadir=$prefix/$(cachevar CMAKE_INSTALL_DATADIR share)
mandir=$prefix/$(cachevar CMAKE_INSTALL_MANDIR share/man)
version=$("$SDTRACE" --version | sed -n '1s/^sdtrace //p')
major=${version%%.*}
D=$T/dest

# ---- the file list ------------------------------------------------------------------------------
DESTDIR=$D cmake --install "$BUILD_DIR" >"$T/install.log" 2>&1
rc=$?
check_eq "cmake --install into a DESTDIR: exit 0" 0 "$rc"
[ $rc = 0 ] || cat "$T/install.log"

{
	echo "$bindir/sdtrace"
	echo "$libdir/libsdtrace.so"
	echo "$libdir/libsdtrace.so.$major"
	echo "$libdir/libsdtrace.so.$version"
	echo "$libdir/libsdtrace.a"
	echo "$libdir/pkgconfig/libsdtrace.pc"
	for h in "$SRC_DIR"/include/sdtrace/*.h; do echo "$incdir/sdtrace/${h##*/}"; done
	for d in "$SRC_DIR"/share/providers/*.d; do echo "$datadir/sdtrace/providers/${d##*/}"; done
	echo "$datadir/bash-completion/completions/sdtrace"
	if [ "$(cachevar SDTRACE_MAN ON)" = ON ]; then
		for p in sdtrace sdtrace-list sdtrace-cache sdtrace-record sdtrace-trace \
			sdtrace-stat sdtrace-top sdtrace-report; do
			echo "$mandir/man1/$p.1"
		done
		for p in "$SRC_DIR"/man/*.scd; do
			p=${p##*/}
			p=${p%.scd}
			echo "$mandir/man${p##*.}/$p"
		done
	else
		say "NOTE: this build has SDTRACE_MAN=OFF: no man pages expected"
	fi
} | sort -u >"$T/expected"
(cd "$D" && find . ! -type d | sed 's/^\.//' | sort) >"$T/installed"
check_eq "the installed files are exactly the expected ones" "" \
	"$(diff "$T/expected" "$T/installed" | grep '^[<>]')"
check_eq "install_manifest.txt lists the same files" "" \
	"$(sort "$BUILD_DIR/install_manifest.txt" | diff "$T/expected" - | grep '^[<>]')"
check_eq "libsdtrace.so -> the soname" "libsdtrace.so.$major" "$(readlink "$D$libdir/libsdtrace.so")"
check_eq "the soname -> the versioned file" "libsdtrace.so.$version" \
	"$(readlink "$D$libdir/libsdtrace.so.$major")"
check_eq "the library's SONAME" "libsdtrace.so.$major" \
	"$(readelf -d "$D$libdir/libsdtrace.so.$version" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
# The command links the shared library (a package of it depends on the library's package), in
# the build tree and installed; installed into a DESTDIR it finds it through LD_LIBRARY_PATH.
check_eq "the build tree's sdtrace needs libsdtrace.so.$major" "libsdtrace.so.$major" \
	"$(readelf -d "$SDTRACE" | sed -n 's/.*(NEEDED).*\[\(libsdtrace[^]]*\)\]/\1/p')"
check_eq "the installed sdtrace needs libsdtrace.so.$major" "libsdtrace.so.$major" \
	"$(readelf -d "$D$bindir/sdtrace" | sed -n 's/.*(NEEDED).*\[\(libsdtrace[^]]*\)\]/\1/p')"
check_eq "the installed sdtrace runs and tells its version" "sdtrace $version" \
	"$(LD_LIBRARY_PATH="$D$libdir" "$D$bindir/sdtrace" --version | head -n 1)"
check "the completion file is valid bash" bash -n "$D$datadir/bash-completion/completions/sdtrace"
if [ -f "$D$mandir/man1/sdtrace-list.1" ] && command -v man >/dev/null; then
	check "man -l renders sdtrace-list(1)" sh -c \
		"MANWIDTH=80 man -l '$D$mandir/man1/sdtrace-list.1' 2>&1 | grep -q '^NAME'"
fi

# ---- the exported symbols ---------------------------------------------------------------------
nm -D --defined-only "$D$libdir/libsdtrace.so.$version" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' |
	sort -u >"$T/exported"
sed -n 's/^SDT_API [^(]*[ *]\([a-z_0-9]*\)(.*/\1/p' "$SRC_DIR"/include/sdtrace/*.h | sort -u >"$T/declared"
check "the headers declare SDT_API functions" test -s "$T/declared"
check_eq "every SDT_API function is exported" "" "$(comm -23 "$T/declared" "$T/exported")"
check_eq "nothing else is exported" "" "$(comm -13 "$T/declared" "$T/exported")"

# ---- each installed header alone --------------------------------------------------------------
bad=
for h in "$D$incdir"/sdtrace/*.h; do
	printf '#include <sdtrace/%s>\n' "${h##*/}" |
		cc -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$D$incdir" -x c - \
			>>"$T/hdr.log" 2>&1 || bad="$bad ${h##*/}"
done
check_eq "each installed header compiles alone (C11)" "" "$bad"
if command -v c++ >/dev/null; then
	bad=
	for h in "$D$incdir"/sdtrace/*.h; do
		printf '#include <sdtrace/%s>\n' "${h##*/}" |
			c++ -Wall -Wextra -Werror -fsyntax-only -I"$D$incdir" -x c++ - \
				>>"$T/hdr.log" 2>&1 || bad="$bad ${h##*/}"
	done
	check_eq "each installed header compiles alone (C++)" "" "$bad"
fi
[ -z "$bad" ] || head -n 20 "$T/hdr.log"

# ---- a program built against the installed library through pkg-config ------------------------
export PKG_CONFIG_PATH="$D$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D"
cflags=$(pkg-config --cflags libsdtrace)
libs=$(pkg-config --libs libsdtrace)
slibs=$(pkg-config --static --libs libsdtrace)
check_eq "pkg-config: the version" "$version" "$(pkg-config --modversion libsdtrace)"
check "pkg-config --cflags points into the DESTDIR" sh -c "echo '$cflags' | grep -q -- '-I$D$incdir'"
check "pkg-config --libs: -L into the DESTDIR, -lsdtrace" \
	sh -c "echo '$libs' | grep -q -- '-L$D$libdir' && echo '$libs' | grep -q -- '-lsdtrace'"
check "pkg-config --static --libs adds libelf, libcdb, libzstd" \
	sh -c "echo '$slibs' | grep -q -- -lelf && echo '$slibs' | grep -q -- -lcdb && echo '$slibs' | grep -q -- -lzstd"
# A sanitizer build's library needs the sanitizer runtime in the program too.
san=
[ "$(cachevar SDTRACE_SANITIZE OFF)" = ON ] && san="-fsanitize=address,undefined"

# shellcheck disable=SC2086 # the flags are words
cc $san -o "$T/list-shared" "$SRC_DIR/examples/sdt-list-lib.c" $cflags $libs >"$T/cc.log" 2>&1
check_eq "sdt-list-lib builds against the installed libsdtrace.so" 0 $?
# the static archive, while libc and the libraries it needs stay shared
# shellcheck disable=SC2086
cc $san -o "$T/list-static" "$SRC_DIR/examples/sdt-list-lib.c" $cflags \
	$(echo "$slibs" | sed 's/-lsdtrace/-Wl,-Bstatic -lsdtrace -Wl,-Bdynamic/') >>"$T/cc.log" 2>&1
check_eq "sdt-list-lib builds against the installed libsdtrace.a (pkg-config --static)" 0 $?
[ -s "$T/cc.log" ] && head -n 20 "$T/cc.log"
check "the shared build needs libsdtrace.so.$major" \
	sh -c "readelf -d '$T/list-shared' | grep -q 'NEEDED.*\\[libsdtrace.so.$major\\]'"
check "the static build does not need libsdtrace.so" \
	sh -c "! readelf -d '$T/list-static' | grep -q 'NEEDED.*libsdtrace'"
check "the shared build loads the installed library" \
	sh -c "LD_LIBRARY_PATH='$D$libdir' ldd '$T/list-shared' | grep -q 'libsdtrace.so.$major => $D$libdir/'"

# Its probes are the ones sdtrace lists; the cache part finds every site.
"$SDTRACE" list -x "$PROG" | sed 's/.*:%/%/' | sort -u >"$T/want"
nsites=$("$SDTRACE" list -x "$PROG" --json | grep -o '"file_offset"' | wc -l | tr -d ' ')
check "prog-inline has several sites" test "$nsites" -gt 1
for kind in shared static; do
	LD_LIBRARY_PATH="$D$libdir" "$T/list-$kind" "$PROG" >"$T/out-$kind" 2>"$T/err-$kind"
	check_eq "$kind: exit 0" 0 $?
	check_eq "$kind: nothing on stderr" "" "$(cat "$T/err-$kind")"
	check_eq "$kind: the events sdtrace lists" "$(cat "$T/want")" \
		"$(grep '^%' "$T/out-$kind" | cut -d' ' -f1 | sort -u)"
	check_eq "$kind: one line per site" "$nsites" "$(grep -c '^%' "$T/out-$kind")"
	check "$kind: arguments with their fetchargs" grep -q '^  arg1: .* -> ' "$T/out-$kind"
	check_eq "$kind: the spec resolved through the cache, every site" \
		"$nsites" "$(grep -c '^  %.* offset 0x' "$T/out-$kind")"
	check "$kind: a recording written in the temporary directory" \
		grep -q '^recording /tmp/sdt-list-lib\.[A-Za-z0-9]*/example\.data (sdt-list-lib):$' \
		"$T/out-$kind"
	check_eq "$kind: the recording read back, its values decoded" \
		"$(printf '%s\n' '  sdt_list_lib:tick tid 1001 n=-5 word="hello"' \
			'  sdt_list_lib:tick tid 1002 n=42 word="world"' \
			'  2 events of 1 kind(s), complete, exit status 0')" \
		"$(sed -n '/^recording /,$p' "$T/out-$kind" | tail -n +2)"
	sed 's|/tmp/sdt-list-lib\.[A-Za-z0-9]*|TMP|' "$T/out-$kind" >"$T/masked-$kind"
done
check_eq "shared and static builds print the same (but the temporary cache's name)" "" \
	"$(diff "$T/masked-shared" "$T/masked-static")"
LD_LIBRARY_PATH="$D$libdir" "$T/list-shared" "$T/nonexistent" >"$T/out" 2>"$T/err"
check_eq "a missing file: exit 1" 1 $?
check "a missing file: the library's message names it" grep -q "nonexistent" "$T/err"

# ---- make uninstall -----------------------------------------------------------------------------
mkdir -p "$T/fakebuild"
cp "$BUILD_DIR/install_manifest.txt" "$T/fakebuild/"
make -s -C "$SRC_DIR" uninstall BUILD="$T/fakebuild" DESTDIR="$D" >"$T/uninstall.log" 2>&1
check_eq "make uninstall: exit 0" 0 $?
check_eq "make uninstall removes every installed file" "" "$(cd "$D" && find . ! -type d)"
check "make uninstall removes include/sdtrace and share/sdtrace" \
	sh -c "[ ! -e '$D$incdir/sdtrace' ] && [ ! -e '$D$datadir/sdtrace' ]"
check "make uninstall leaves the shared directories (lib/, share/man/man1/)" \
	sh -c "[ -d '$D$libdir' ]"
finish
