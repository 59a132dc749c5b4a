#!/bin/sh
# record -a: a copy of the program (a new inode, the same build-id) started after the
# recording began is seen in an MMAP2 record, resolved and armed; its hits after the arming
# window are recorded (before: never armed), by both engines (e2e/, e2e-bpf/: sdtrace record
# under each). uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
need_tracefs
P=$PROGS_DIR
F=$P/prog-follow
need_file "$F"
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ ($PROGS_DIR|$T)/"


$FOREGROUND "$SDTRACE" -v record -o all.data -x "$F" -e '%follow:tick' -a >all.out 2>all.err &
sd=$!
at_exit "kill $sd 2>/dev/null"
check "sdtrace armed" armed "$sd" "$F"
sleep 0.5
cp "$F" "$T/copy"
FOLLOW_WAIT="$T/go" "$T/copy" 4 >copy.out 2>&1 &
cp=$!
at_exit "kill $cp 2>/dev/null"
check "the copy is armed" wait_grep all.err "armed [0-9]+ events in '[^']*$T/copy'"
touch go
wait $cp
check_eq "the copy ran" 0 $?
sleep 0.3
kill -INT $sd
wait $sd
check_eq "sdtrace: exit status" 0 $?
check_eq "the copy's 4 hits recorded" 4 \
	"$("$SDTRACE" report -i all.data | grep -c "copy .*follow:tick: arg1=[0-3]$")"
check "the end counts it" grep -Eq "[1-9][0-9]* binar(y|ies) armed during the run" all.err

uprobes_unchanged
finish
