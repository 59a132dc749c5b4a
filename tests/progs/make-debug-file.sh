#!/bin/sh
# SPDX-License-Identifier: MIT
# make-debug-file.sh BINARY STRIPPED DEBUGROOT: STRIPPED is BINARY without its symbol tables
# (strip --strip-all), and DEBUGROOT/.build-id/xx/rest.debug its separate debug file
# (objcopy --only-keep-debug), where gdb and perf look for it by build-id.
set -eu
bin=$1
out=$2
root=$3
id=$(LC_ALL=C readelf -n "$bin" | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p' | head -n 1)
[ -n "$id" ] || { echo "make-debug-file.sh: $bin has no build-id" >&2; exit 1; }
dir=$root/.build-id/$(printf %s "$id" | cut -c1-2)
mkdir -p "$dir"
objcopy --only-keep-debug "$bin" "$dir/$(printf %s "$id" | cut -c3-).debug"
strip --strip-all -o "$out.tmp" "$bin"
mv "$out.tmp" "$out"
