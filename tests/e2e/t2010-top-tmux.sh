#!/bin/sh
# sdtrace top in a real terminal: a detached tmux session (a private server: its own socket and
# config) runs top on a shell that fires filt:req, filt:job__start and filt:job__done in a loop.
# On the pane: the alternate screen with the cursor hidden, a header (engine, rate, lost, target)
# and a row per event with a nonzero rate; the frame follows the pane's size (a wider pane shows
# what a narrower one cut, a lower one shows as many rows as fit and how many more there are);
# `q` ends top promptly with 0 and stops the command. The terminal is then as it was (stty -g
# the same before and after, the main screen, the cursor shown) and the main screen keeps the
# last frame as plain lines. A second run ends with Ctrl-C (SIGINT of the terminal's group:
# status 130, as the shell's); a third ends with its command (its status, its 3000 hits).
# Standard output that is not a terminal is refused before any probe is placed.
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-filter
need_file "$P"
need_cmd tmux stty
need_tracefs
uprobes_guard
cd "$T" || exit 1

S=$T/tmux.sock
tm() { tmux -S "$S" "$@"; }
at_exit "tmux -S '$S' kill-server"
printf 'set -g remain-on-exit on\nset -g status off\n' >tmux.conf
printf 'while :; do "%s" 200 >/dev/null; sleep 0.05; done\n' "$P" >loop.sh

# The pane's program: top with this test's environment, between two `stty -g` (the terminal
# before and after), then its exit status. Its stderr goes to $T/NAME.err (NAME: the first
# argument), whole (the pane would cut it). SIGINT is caught (not ignored: top gets it at its
# default) so that the script outlives a Ctrl-C and reports; then the pane stays, for its flags.
cat >top.sh <<EOF
trap : INT
export SDTRACE_CACHE_DIR='$SDTRACE_CACHE_DIR' HOME='$HOME'
${SDTRACE_ENGINE:+export SDTRACE_ENGINE='$SDTRACE_ENGINE'}
before=\$(stty -g)
err=\$1.err
shift
'$SDTRACE' top "\$@" 2>"\$err"
rc=\$?
[ "\$(stty -g)" = "\$before" ] && echo stty-same || echo stty-differs
echo "top-exit=\$rc"
exec sleep 60
EOF

# wait_pane SESSION ERE [TENTHS]: the pane shows a line matching ERE (in $T/pane) within TENTHS
# tenths of a second (default 150)
wait_pane() {
	_w=0
	while [ "$_w" -lt "${3:-150}" ]; do
		tm capture-pane -p -t "$1" >"$T/pane" 2>/dev/null
		grep -Eq -- "$2" "$T/pane" && return 0
		sleep 0.1
		_w=$((_w + 1))
	done
	return 1
}
# longest SESSION: the longest line of the pane
longest() { tm capture-pane -p -t "$1" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'; }
flags() { tm display -p -t "$1" '#{alternate_on} #{cursor_flag}'; }
ROW=' +[1-9][0-9]*\.[0-9] +[0-9]+ +[1-9][0-9]*  %filt:req$'
EVENTS="-e $P:%filt:req -e $P:%filt:job__start -e $P:%filt:job__done"

# ---- 1: the screen, a resize, q ------------------------------------------------------------
tm -f "$T/tmux.conf" new-session -d -s top1 -x 60 -y 30 "sh $T/top.sh $T/top1 $EVENTS -- sh $T/loop.sh"
if wait_pane top1 "^$ROW"; then
	pass "a row of %filt:req with a nonzero rate"
else
	fail "a row of %filt:req with a nonzero rate" "$(cat "$T/pane")"
fi
check_eq "the alternate screen, the cursor hidden" "1 0" "$(flags top1)"
check "header: sdtrace top, elapsed, engine $ENGINE, rate, lost" \
	grep -Eq "^sdtrace top  [0-9]+\.[0-9] s  $ENGINE  [0-9]+\.[0-9] hits/s  lost 0  -- sh" "$T/pane"
check "the column titles" grep -Eq '^ +rate/s +interval +total  event$' "$T/pane"
check "three events, by rate" grep -q '^3 events, by rate    q quit  s sort$' "$T/pane"
check_eq "60 columns: the header is cut to them" 60 "$(longest top1)"
check "60 columns: the end of the target is cut" sh -c "! grep -q 'loop.sh' '$T/pane'"

tm resize-window -t top1 -x 150 -y 5
if wait_pane top1 'loop\.sh$' 30; then
	pass "150 columns: the whole target shows"
else
	fail "150 columns: the whole target shows" "$(cat "$T/pane")"
fi
wait_pane top1 '^ +\.\.\. 2 more events$' 30
check_eq "5 lines: header, titles, one row and '... 2 more events'" \
	"5 1" "$(grep -c . "$T/pane") $(grep -Ec "$ROW|job__" "$T/pane")"
tm send-keys -t top1 s
check "s: by total" wait_pane top1 '^3 events, by total ' 20

start=$(date +%s%N)
tm send-keys -t top1 q
if wait_pane top1 '^top-exit=' 50; then
	pass "q: top ends within 5 s ($((($(date +%s%N) - start) / 1000000)) ms)"
else
	fail "q: top ends within 5 s" "$(cat "$T/pane")"
fi
check "q: exit status 0" grep -qx 'top-exit=0' "$T/pane"
check "q: nothing on stderr" test ! -s "$T/top1.err"
check "q: the terminal's settings are restored (stty -g)" grep -qx 'stty-same' "$T/pane"
check_eq "q: the main screen, the cursor shown" "0 1" "$(flags top1)"
check "q: the last frame stays, as plain lines" grep -Eq "^$ROW" "$T/pane"
sleep 0.3
check "q: the command was stopped" sh -c "! pgrep -f '^sh $T/loop.sh' >/dev/null"

# ---- 2: Ctrl-C ------------------------------------------------------------------------------
tm new-session -d -s top2 -x 100 -y 30 "sh $T/top.sh $T/top2 $EVENTS -- sh $T/loop.sh"
if wait_pane top2 "^$ROW"; then
	pass "second run: a row with a nonzero rate"
else
	fail "second run: a row with a nonzero rate" "$(cat "$T/pane")"
fi
tm send-keys -t top2 C-c
if wait_pane top2 '^top-exit=' 50; then
	pass "Ctrl-C: top ends within 5 s"
else
	fail "Ctrl-C: top ends within 5 s" "$(cat "$T/pane")"
fi
check "Ctrl-C: the command's status, 130 (its SIGINT)" grep -qx 'top-exit=130' "$T/pane"
check_eq "Ctrl-C: stderr says how the command ended" \
	"sdtrace: the command was killed by signal 2" "$(cat "$T/top2.err")"
check "Ctrl-C: the terminal's settings are restored (stty -g)" grep -qx 'stty-same' "$T/pane"
check_eq "Ctrl-C: the main screen, the cursor shown" "0 1" "$(flags top2)"

# ---- 3: the command ends --------------------------------------------------------------------
tm new-session -d -s top3 -x 100 -y 30 \
	"sh $T/top.sh $T/top3 -I 100 -e $P:%filt:req -- sh -c '\"$P\" 3000 >/dev/null; sleep 0.5; exit 3'"
if wait_pane top3 '^top-exit=' 150; then
	pass "the command ends: so does top"
else
	fail "the command ends: so does top" "$(cat "$T/pane")"
fi
check "the command ends: its status, 3" grep -qx 'top-exit=3' "$T/pane"
check "the command ends: the last frame has its 3000 hits" \
	grep -Eq '^ +[0-9.]+ +[0-9]+ +3000  %filt:req$' "$T/pane"
check_eq "the command ends: said on stderr" "sdtrace: the command exited with status 3" \
	"$(cat "$T/top3.err")"
check "the command ends: the terminal's settings are restored" grep -qx 'stty-same' "$T/pane"

# ---- 4: --by, the keys counted in the kernel ------------------------------------------------
tm new-session -d -s top4 -x 100 -y 30 \
	"sh $T/top.sh $T/top4 -I 100 --by query -e '$P:%filt:req(id:s32,delta:s64,query:string)' -- sh -c '\"$P\" 3000 >/dev/null; sleep 0.5'"
if wait_pane top4 '^top-exit=' 150; then
	pass "--by: top ends with its command"
else
	fail "--by: top ends with its command" "$(cat "$T/pane")"
fi
check "--by: the keys' title" grep -Eq '^ +count  query$' "$T/pane"
check_eq "--by: the 4 query texts, 750 hits each" 4 \
	"$(grep -Ec '^ +750  %filt:req  query=(SELECT_a|INSERT_b|UPDATE_c|SELECT_d_FROM_t)$' "$T/pane")"
check "--by: exit 0" grep -qx 'top-exit=0' "$T/pane"

# ---- not a terminal ---------------------------------------------------------------------------
"$SDTRACE" top -e "$P:%filt:req" -- "$P" 1 >out 2>err
check_eq "stdout not a terminal: exit 2" 2 $?
check "stdout not a terminal: said" grep -q 'standard output is not a terminal' err
check "stdout not a terminal: nothing on stdout" test ! -s out
"$SDTRACE" top -I 50 -e "$P:%filt:req" -- "$P" 1 >/dev/null 2>err
check_eq "--interval 50: exit 2" 2 $?
"$SDTRACE" top -n 0 -e "$P:%filt:req" -- "$P" 1 >/dev/null 2>err
check_eq "--top 0: exit 2" 2 $?

uprobes_unchanged
finish
