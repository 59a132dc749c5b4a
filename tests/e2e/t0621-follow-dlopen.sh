#!/bin/sh
# A library dlopen()ed from a path created after the recording started: prog-follow waits for
# the file, dlopen()s it, then (once sdtrace -v says it armed it) calls into it. The library at
# the new path is another inode than the one cached (a copy, same build-id): it is seen in an
# MMAP2 record and armed, and its hits are recorded (before: none). The same under -p. Both
# engines run it (e2e/ and e2e-bpf/: sdtrace record under each; the BPF engine links the new
# file at once).
# uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
need_tracefs
P=$PROGS_DIR
F=$P/prog-follow
L=$P/libprog-follow-lib.so
need_file "$F" "$L"
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ ($PROGS_DIR|$T)/"
for f in "$L" "$F"; do "$SDTRACE" cache add "$f" >/dev/null 2>&1 || fail "cache add" "cannot cache $f"; done

calls() { "$SDTRACE" report -i "$1" | grep -c 'follow_lib:call: arg1=[0-2]$'; }
# place_lib: the library appears at new/lib.so whole (a rename): prog-follow polls for the path
# and would dlopen() a file cp is still writing
place_lib() { cp "$L" new/.lib.so.part && mv new/.lib.so.part new/lib.so; }
# wait_armed OUT ERR: wait_grep for the new library's arming; on failure, what both said
wait_armed() {
	wait_grep "$2" "armed [0-9]+ events in '$T/new/lib.so'" && return 0
	echo "program:"; cat "$1"; echo "sdtrace:"; cat "$2"
	return 1
}

# the command
mkdir new
$FOREGROUND "$SDTRACE" -v record -o cmd.data -e '%follow_lib:*' -e '%follow:tick' -- \
	"$F" 3 "$T/new/lib.so" "$T/go" >cmd.out 2>cmd.err &
sd=$!
at_exit "kill $sd 2>/dev/null"
sleep 0.5
place_lib
check "command: the new library is armed" wait_armed cmd.out cmd.err
touch go
wait $sd
check_eq "command: exit status" 0 $?
check_eq "command: its 3 calls recorded" 3 "$(calls cmd.data)"
check "command: the end counts it" grep -q "1 binary armed during the run" cmd.err

# -p
rm -rf new go
mkdir new
"$F" 3 "$T/new/lib.so" "$T/go" >p.out 2>&1 &
pid=$!
at_exit "kill $pid 2>/dev/null"
$FOREGROUND "$SDTRACE" -v record -o p.data -e '%follow_lib:*' -e '%follow:tick' -p "$pid" \
	>pr.out 2>pr.err &
sd=$!
at_exit "kill $sd 2>/dev/null"
check "sdtrace armed" armed "$sd" "$F"
# the watch events that see the dlopen are enabled only then (a busy machine: later than armed)
check "sdtrace says it is armed" wait_grep pr.err "debug: armed: every probe placed and enabled"
place_lib
check "-p: the new library is armed" wait_armed p.out pr.err
touch go
wait $pid
wait $sd
check_eq "-p: its 3 calls recorded" 3 "$(calls p.data)"

uprobes_unchanged
finish
