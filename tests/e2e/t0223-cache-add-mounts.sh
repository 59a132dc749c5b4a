#!/bin/sh
# SPDX-License-Identifier: MIT
# `cache add -r /` walked /proc and /sys (4,614 errors, 1.7 GB copied). Now a walk never enters
# a virtual filesystem (proc here) and stays on the filesystem of the tree given (a tmpfs
# mounted inside is another one) unless --cross-mounts; -v names each directory left out.
# And `list -x DIR` lists the binaries in DIR (it said "is a directory").
. "$(dirname "$0")/lib.sh"
need_root
need_cmd mount umount
P=$PROGS_DIR
need_file "$P/prog-sizes" "$P/prog-wait"
D=$T/tree
mkdir -p "$D/proc" "$D/tmp" "$D/bin"
cp "$P/prog-sizes" "$D/bin/"
mount -t proc proc "$D/proc" || skip "cannot mount proc"
at_exit "umount '$D/proc'"
mount -t tmpfs tmpfs "$D/tmp" || skip "cannot mount tmpfs"
at_exit "umount '$D/tmp'"
cp "$P/prog-wait" "$D/tmp/"

"$SDTRACE" -v --cache-dir "$T/c1" cache add -r "$D" >"$T/add1.out" 2>"$T/add1.err"
check_eq "cache add -r over a proc mount: success" 0 $?
check "no errors" grep -q ', 0 errors$' "$T/add1.out"
check "the tree's own binary is cached" sh -c "'$SDTRACE' --cache-dir '$T/c1' cache list | grep -q '$D/bin/prog-sizes'"
check "the other filesystem's is not (no --cross-mounts)" \
	sh -c "! '$SDTRACE' --cache-dir '$T/c1' cache list | grep -q '$D/tmp/prog-wait'"
check "-v: proc is named as another filesystem, not walked" \
	grep -q "'$D/proc' is another filesystem: not walked" "$T/add1.err"
check "-v: so is the tmpfs" grep -q "'$D/tmp' is another filesystem: not walked" "$T/add1.err"

"$SDTRACE" -v --cache-dir "$T/c2" cache add -r --cross-mounts "$D" >"$T/add2.out" 2>"$T/add2.err"
check_eq "--cross-mounts: success" 0 $?
check "--cross-mounts: no errors" grep -q ', 0 errors$' "$T/add2.out"
check "--cross-mounts: the tmpfs's binary is cached" \
	sh -c "'$SDTRACE' --cache-dir '$T/c2' cache list | grep -q '$D/tmp/prog-wait'"
check "--cross-mounts: proc, a virtual filesystem, is still not walked" \
	grep -q "'$D/proc' is a virtual filesystem: not walked" "$T/add2.err"
check_eq "--cross-mounts: 2 binaries with notes, nothing of proc" 2 \
	"$("$SDTRACE" --cache-dir "$T/c2" cache list | grep -c "$D/")"
"$SDTRACE" -v --cache-dir "$T/c3" cache add -r "$D/proc" >"$T/add3.out" 2>"$T/add3.err"
check_eq "a proc mount given itself: not walked, no error" 0 $?
check "... says so" grep -q "'$D/proc' is a virtual filesystem: not walked" "$T/add3.err"

# list -x DIR
echo "not a binary" >"$D/bin/notes.txt"
cp "$P/prog-wait" "$D/bin/"
"$SDTRACE" list -x "$D/bin" >"$T/list.out" 2>"$T/list.err"
check_eq "list -x DIR: success" 0 $?
check_eq "list -x DIR: the events of both binaries, by file name" \
	"$("$SDTRACE" list -x "$D/bin/prog-sizes"; "$SDTRACE" list -x "$D/bin/prog-wait")" \
	"$(cat "$T/list.out")"
check_eq "list -x DIR: nothing said of the text file" "" "$(cat "$T/list.err")"
check_eq "list -x DIR PATTERN" "$D/bin/prog-wait:%wait:tick" \
	"$("$SDTRACE" list -x "$D/bin" '%wait:tick')"
finish
