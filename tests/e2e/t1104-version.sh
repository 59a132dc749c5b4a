#!/bin/sh
# SPDX-License-Identifier: MIT
# sdtrace --version: the version of CMakeLists.txt's project(... VERSION ...) (the one place it
# is written), then "features:" with +NAME for each feature compiled in and -NAME for each left
# out: every sdtrace_feature() line of CMakeLists.txt, in its order, and nothing else.
. "$(dirname "$0")/lib.sh"
CM=$SRC_DIR/CMakeLists.txt
need_file "$CM"

want=$(sed -n 's/^project(sdtrace VERSION \([0-9][0-9.]*\).*/\1/p' "$CM")
check "CMakeLists.txt has project(sdtrace VERSION X.Y.Z)" test -n "$want"
"$SDTRACE" --version >"$T/out" 2>"$T/err"
check_eq "exit 0" 0 $?
check_eq "nothing on stderr" "" "$(cat "$T/err")"
check_eq "two lines" 2 "$(wc -l <"$T/out" | tr -d ' ')"
check_eq "the version" "sdtrace $want" "$(sed -n 1p "$T/out")"
features=$(sed -n '2s/^features: //p' "$T/out")
check "a features line" test -n "$features"
# the names of the sdtrace_feature(NAME ...) lines, and what the binary says about each
names=$(sed -n 's/^[[:space:]]*sdtrace_feature(\([a-z0-9_-]*\)[[:space:]].*/\1/p' "$CM" | tr '\n' ' ' | sed 's/ $//')
check "CMakeLists.txt declares features" test -n "$names"
check_eq "one +NAME or -NAME per sdtrace_feature(), in order" "$names" \
	"$(echo "$features" | tr ' ' '\n' | sed 's/^[+-]//' | tr '\n' ' ' | sed 's/ $//')"
for f in libelf cdb zstd; do
	check "+$f: the library is always built with it" sh -c "echo ' $features ' | grep -q ' +$f '"
done
check_eq "--version after a global option" "sdtrace $want" \
	"$("$SDTRACE" --cache-dir "$T/c" --version | sed -n 1p)"
if [ -f "$BUILD_DIR/libsdtrace.pc" ]; then
	check_eq "libsdtrace.pc has the same version" "$want" \
		"$(sed -n 's/^Version: //p' "$BUILD_DIR/libsdtrace.pc")"
fi
finish
