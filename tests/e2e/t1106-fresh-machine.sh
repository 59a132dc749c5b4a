#!/bin/sh
# SPDX-License-Identifier: MIT
# `make` alone on a fresh machine says in one line what to run (scripts/install-deps.sh, or make
# demo), not CMake's "Package 'libelf' ... not found" nor make's "cmake: not found":
#  - a library missing (pkg-config finds none: PKG_CONFIG_LIBDIR is an empty directory);
#  - a build tool missing (cmake not on PATH).
. "$(dirname "$0")/lib.sh"
need_cmd cmake make
LINE_RE="^sdtrace: missing build .*: run scripts/install-deps.sh build .*, or 'make demo'"

mkdir -p "$T/empty"
PKG_CONFIG_LIBDIR=$T/empty cmake -S "$SRC_DIR" -B "$T/b1" -G Ninja >"$T/cmake.out" 2>&1
check "cmake without libelf fails" test $? -ne 0
check "... with one line naming libelf and what to run" \
	grep -q "$LINE_RE" "$T/cmake.out"
check "... that names libelf" grep -q "^sdtrace: missing build dependency 'libelf'" "$T/cmake.out"

# make without cmake on PATH: the tools a Makefile recipe needs, and no cmake
mkdir -p "$T/bin"
for t in make sh dash env; do
	p=$(command -v "$t") && ln -s "$p" "$T/bin/$t"
done
PATH=$T/bin make -C "$SRC_DIR" BUILD="$T/b2" >"$T/make.out" 2>&1
check "make without cmake fails" test $? -ne 0
check "... with one line naming cmake and what to run" grep -q "$LINE_RE" "$T/make.out"
check "... before trying cmake" sh -c "! grep -q 'cmake: not found\|cmake: No such file' '$T/make.out'"
finish
