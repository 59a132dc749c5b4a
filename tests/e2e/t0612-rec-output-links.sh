#!/bin/sh
# Root writes its outputs where it is told, often in a directory others can write: record -o,
# report -o and stat -o must not write through what was planted at the name. A dangling symlink
# (it would create a file inside a root-only directory), a symlink to an existing file or to
# /dev/null, a FIFO (an open for writing would block forever), a directory and a character device
# node are each refused: exit 1, one error line naming the path and what is there, no probe
# placed, and the name, what it points to and any .old left exactly as they were. A regular file
# is still replaced (record keeps it as FILE.old), and a hard link's other name keeps its data.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd timeout mkfifo mknod
P=$PROGS_DIR
need_file "$P/prog-sizes"
W="$T/w"
mkdir -p "$W" "$T/rootonly" && chmod 700 "$T/rootonly" && cd "$W" || exit 1
uprobes_guard "^[p-r]:[^ ]+ ($PROGS_DIR|$T)/"

rec() { # FILE: record prog-sizes into FILE (timeout: a FIFO must not hang the test)
	timeout -s KILL 20 "$SDTRACE" record -o "$1" -x "$P/prog-sizes" -e '%sizes:min' -- \
		"$P/prog-sizes" 1 >out 2>err
}
rep() { timeout -s KILL 20 "$SDTRACE" report -i good.data -o "$1" >out 2>err; }
sta() { timeout -s KILL 20 "$SDTRACE" stat -o "$1" -x "$P/prog-sizes" -e '%sizes:min' -- \
	"$P/prog-sizes" 1 >out 2>err; }
# state PATH...: type, inode, size, link target and content of each (what "untouched" means)
state() {
	for f in "$@"; do
		stat -c '%F %i %s %Y' "$f" 2>&1
		[ -L "$f" ] && readlink "$f"
		[ -f "$f" ] && [ ! -L "$f" ] && cksum <"$f"
	done
}

rec good.data
check_eq "a regular file: recorded, exit 0" 0 $?
check "a regular file: written" test -s good.data

# refused CMD NAME KIND WATCHED...: CMD onto NAME is refused, NAME and WATCHED untouched
# (not $name, $cmd: check uses those)
refused() {
	_c=$1
	_n=$2
	_k=$3
	shift 3
	before=$(state "$_n" "$_n.old" "$@")
	$_c "$_n"
	check_eq "$_c onto $_k ${_n##*/}: exit 1 (not 137: it did not hang)" 1 $?
	check "$_c onto $_k ${_n##*/}: the error names it" \
		grep -q "^sdtrace: error: refusing to write '$_n': it is $_k" err
	check_eq "$_c onto $_k ${_n##*/}: one line on stderr" 1 "$(grep -c . err)"
	check_eq "$_c onto $_k ${_n##*/}: nothing on stdout" "" "$(cat out)"
	check_eq "$_c onto $_k ${_n##*/}: it and what it points to are untouched" "$before" \
		"$(state "$_n" "$_n.old" "$@")"
	check_eq "$_c onto $_k ${_n##*/}: no temporary left" "" "$(ls -a "$W" | grep '\.tmp\.')"
	uprobes_unchanged "$_c onto $_k ${_n##*/}: uprobe_events unchanged"
}

ln -s "$T/rootonly/created" dangling
echo victim >"$T/victim"
ln -s "$T/victim" link
ln -s /dev/null devnull
mkfifo fifo
mkdir dir
mknod chr c 1 3
for cmd in rec rep sta; do
	refused $cmd "$W/dangling" "a symbolic link" "$T/rootonly/created"
	check "$cmd onto a dangling link: nothing created where it points" \
		test ! -e "$T/rootonly/created"
	refused $cmd "$W/link" "a symbolic link" "$T/victim"
	check_eq "$cmd onto a link to a file: the file keeps its data" victim "$(cat "$T/victim")"
	refused $cmd devnull "a symbolic link"
	refused $cmd "$W/fifo" "a FIFO"
	refused $cmd "$W/dir" "a directory"
	check_eq "$cmd onto a directory: still empty" "" "$(ls -A dir)"
	refused $cmd "$W/chr" "a character device"
done

# a hard link: the recording replaces the name, the other name keeps the old data
cp good.data keep.data
ln good.data hard.data
rec hard.data
check_eq "a hard link: recorded, exit 0" 0 $?
check "a hard link: the other name keeps its data" cmp -s good.data keep.data
check "a hard link: the old one is hard.data.old" cmp -s hard.data.old keep.data
check_fails "a hard link: the new recording is a new file" test hard.data -ef good.data
rep report.txt
check_eq "report -o a new file: exit 0" 0 $?
check "report -o a new file: written" grep -q 'sizes:min' report.txt
sta counts.txt
check_eq "stat -o a new file: exit 0" 0 $?
check "stat -o a new file: written" grep -q 'sizes:min' counts.txt
uprobes_unchanged
finish
