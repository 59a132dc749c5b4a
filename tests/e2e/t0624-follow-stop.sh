#!/bin/sh
# Following, the other ways a run ends and the other targets:
#  - Ctrl-C (SIGINT to sdtrace) while a set armed at an exec is live: every group removed at
#    once (no stale sweep needed), the command sent SIGTERM, the hits before recorded;
#  - the exec'd program killed (SIGKILL) while followed: sdtrace ends with its status, nothing
#    left in uprobe_events;
#  - -p of a shell whose child (fork + exec) runs a copy of the program (another inode): the
#    child is seen and armed, its hits recorded;
#  - record -a --no-follow: a copy started later is not armed (0 of its hits, no "armed");
#  - with --filter a file met during the run is not armed, and a warning says why.
# uprobe_events is left as it was after each case.
# Both engines (e2e/, e2e-bpf/: sdtrace record under each): under bpf, armed means sdtrace holds a
# link on the file, and its links go with it.
. "$(dirname "$0")/lib.sh"
need_tracefs
P=$PROGS_DIR
F=$P/prog-follow
need_file "$F"
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ ($PROGS_DIR|$T)/"
cp "$F" "$T/copy"
exec_shim shim-copy.sh "$T/copy"
"$SDTRACE" cache add "$F" >/dev/null 2>&1 || fail "cache add" "cannot cache $F"

ours() { grep -cE "^p:[^ ]+ ($F|$T/copy):" "$TRACEFS/uprobe_events"; }
# placed: sdtrace $sd has placed its probes on $F (its group in uprobe_events, or its link)
placed() {
	if tracefs_engine; then
		grep -q "^p:[^ ]* $F:" "$TRACEFS/uprobe_events"
	else
		bpf_armed "$sd" "$F"
	fi
}
copy_armed() {
	if tracefs_engine; then
		grep -q "^p:[^ ]* $T/copy:" "$TRACEFS/uprobe_events"
	else
		bpf_armed "$sd" "$T/copy"
	fi
}
ticks() { "$SDTRACE" report -i "$1" | grep -c "$2 .*follow:tick: arg1=[0-9]*$"; }

# ---- Ctrl-C while a late set is armed ----
FOLLOW_WAIT="$T/never" $FOREGROUND "$SDTRACE" record -o int.data -x "$F" -e '%follow:*' -- \
	./shim-copy.sh 2 >int.out 2>int.err &
sd=$!
at_exit "kill -9 $sd 2>/dev/null"
check "Ctrl-C: the copy is armed at its exec" wait_for 10 copy_armed
wait_for 10 pgrep -f "^$T/copy 2" >/dev/null
sleep 0.2 # its stdout is a file (buffered): past its first probe by now
cpid=$(pgrep -f "^$T/copy 2" | head -n 1)
kill -INT $sd
wait $sd
check_eq "Ctrl-C: exit status (the command's: SIGTERM)" 143 $?
check_eq "Ctrl-C: no uprobe of ours left, at once" 0 "$(ours)"
check "Ctrl-C: the command was ended" sh -c "! kill -0 '$cpid' 2>/dev/null"
check_eq "Ctrl-C: its first hit recorded" 1 \
	"$("$SDTRACE" report -i int.data | grep -c 'follow:first: arg1=2$')"

# ---- the followed program killed ----
FOLLOW_WAIT="$T/never" "$SDTRACE" record -o kill.data -x "$F" -e '%follow:*' -- \
	./shim-copy.sh 2 >kill.out 2>kill.err &
sd=$!
at_exit "kill -9 $sd 2>/dev/null"
wait_for 10 copy_armed
wait_for 10 pgrep -f "^$T/copy 2" >/dev/null
sleep 0.2
cpid=$(pgrep -f "^$T/copy 2" | head -n 1)
check "SIGKILL of the program: it runs" test -n "$cpid"
kill -9 "$cpid"
wait $sd
check_eq "SIGKILL of the program: sdtrace's status is the command's" 137 $?
check_eq "SIGKILL of the program: no uprobe of ours left" 0 "$(ours)"
check "SIGKILL of the program: the end says so" grep -q "killed by signal\|SIGKILL\|signal 9" kill.err

# ---- -p: a child of the process runs a copy ----
# (it waits after its first probe until it is armed: a hit in the arming window is missed)
rm -f go go2
sh -c "while [ ! -e '$T/go' ]; do sleep 0.05; done; FOLLOW_WAIT='$T/go2' '$T/copy' 3" \
	>p.out 2>&1 &
pid=$!
at_exit "kill $pid 2>/dev/null"
$FOREGROUND "$SDTRACE" -v record -o p.data -x "$F" -e '%follow:tick' -p "$pid" >pr.out 2>pr.err &
sd=$!
at_exit "kill $sd 2>/dev/null"
wait_for 10 placed
sleep 0.3
touch go
check "-p, a child runs a copy: armed" wait_for 10 grep -q "armed [0-9]* events in '$T/copy'" pr.err
touch go2
wait $pid
sleep 0.3
kill -INT $sd
wait $sd
check_eq "-p, a child runs a copy: exit status" 0 $?
check_eq "-p, a child runs a copy: its 3 hits recorded" 3 "$(ticks p.data copy)"
check "-p: the end counts it" grep -q "1 binary armed during the run" pr.err
check_eq "-p: no uprobe of ours left" 0 "$(ours)"

# ---- -a --no-follow ----
rm -f go
$FOREGROUND "$SDTRACE" -v record --no-follow -o nf.data -x "$F" -e '%follow:tick' -a \
	>nf.out 2>nf.err &
sd=$!
at_exit "kill $sd 2>/dev/null"
wait_for 10 placed
sleep 0.5
cp "$F" "$T/copy2"
"$T/copy2" 3 >copy2.out 2>&1
sleep 0.5
kill -INT $sd
wait $sd
check_eq "-a --no-follow: exit status" 0 $?
check "-a --no-follow: nothing armed late" sh -c "! grep -q 'armed [0-9]* events' nf.err"
check_eq "-a --no-follow: none of the copy's hits" 0 "$(ticks nf.data copy2)"
check "-a --no-follow: the end counts no late binary" sh -c "! grep -q 'armed during the run' nf.err"

# ---- --filter: a file met during the run is not armed (filters cover the first set only) ----
exec_shim shim.sh "$F"
export SDTRACE_CACHE_DIR="$T/cache-filter"
"$SDTRACE" record -o flt.data --filter 'arg1 > 0' -e '%follow:tick' -- ./shim.sh 3 \
	>flt.out 2>flt.err
check_eq "--filter, a shim: exit status" 0 $?
check "--filter, a shim: the exec'd program not armed, said so" \
	grep -q "cannot arm '$F' .*filters are not applied to files armed during the run" flt.err

uprobes_unchanged
finish
