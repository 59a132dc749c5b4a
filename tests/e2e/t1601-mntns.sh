#!/bin/sh
# A program in another mount namespace (a container's view): prog-wait copied onto a tmpfs
# mounted over a directory in a private mount namespace (unshare -m), so that from here the
# directory is empty. list -p names its file by /proc/PID/root/PATH (the path it has there
# would name nothing, or another file, here), and each line pastes back into record -e and
# trace -e; record -p PID with no path, and record, stat and trace with -x /proc/PID/root/PATH,
# count every hit (uprobe_events takes
# such a path: the kernel resolves it to the file the process runs). The cache keeps the
# binary under the path inside the namespace (as perf does): the build-id is the key.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd unshare mount readelf
W=$PROGS_DIR/prog-wait
need_file "$W"
D=$T/hidden
mkdir -p "$D"
unshare -m true 2>/dev/null || skip "cannot make a mount namespace (unshare -m)"
uprobes_guard "^[p-r]:[^ ]+ (/proc/[0-9]+/root)?($T|$PROGS_DIR)/"
cd "$T" || exit 1

# ticks N: N rounds of the prog-wait ($wpid) writing w.out
ticks() { prog_wait_ticks "$wpid" w.out "$1"; }
# rec NAME N ARGS...: record ARGS for N rounds of the program, stopped with SIGTERM
rec() {
	_name=$1
	_n=$2
	shift 2
	"$SDTRACE" record -o "$_name.data" -p "$wpid" "$@" >"$_name.out" 2>"$_name.err" &
	_r=$!
	if ! armed "$_r"; then
		kill -TERM "$_r" 2>/dev/null
		wait "$_r"
		fail "$_name: armed" "$(cat "$_name.err")"
		return
	fi
	# tracefs names the /proc/PID/root path; a BPF link names the file as its own mount
	# namespace sees it ($D/prog-wait, which the host's $D does not have)
	if tracefs_engine; then
		check "$_name: the uprobe is on the /proc/PID/root path" armed "$_r" "$inside"
	else
		check "$_name: the link is on the namespace's file" armed "$_r" "$D/prog-wait"
		check "  ... which the host does not have" test ! -e "$D/prog-wait"
	fi
	ticks "$_n"
	kill -TERM "$_r"
	wait "$_r"
	check_eq "$_name: exit 0" 0 $?
	check_eq "$_name: every hit" "$_n" \
		"$("$SDTRACE" report -i "$_name.data" | grep -c ' wait:tick: ')"
}

unshare -m sh -c "mount -t tmpfs none '$D' && cp '$W' '$D/prog-wait' &&
	ln -s '$D/prog-wait' '$D/via' &&
	exec '$D/prog-wait' '$T/w.pid'" >w.out 2>&1 &
wpid=$!
at_exit "kill -9 $wpid 2>/dev/null"
check "the program runs in its mount namespace" wait_file "$T/w.pid"
check_eq "its pid" "$wpid" "$(cat "$T/w.pid")"
check "from here its directory is empty" test ! -e "$D/prog-wait"
inside=/proc/$wpid/root$D/prog-wait

# ---- list -p: a path that pastes back ------------------------------------------------------
"$SDTRACE" list -p "$wpid" >p.list 2>p.err
check_eq "list -p: exit 0" 0 $?
check_eq "list -p: its file by /proc/PID/root/PATH" "$inside:%wait:tick" \
	"$(grep ':%wait:tick$' p.list)"
check "list -p: a file this namespace shares keeps its own path" \
	grep -q "^$PROGS_DIR/libprog-lib.so:%lib:call$" p.list
"$SDTRACE" list -x "$inside" >x.list 2>x.err
check_eq "list -x /proc/PID/root/PATH: its probe" "$inside:%wait:tick" "$(cat x.list)"
# an absolute link inside the namespace is read from its root, not from ours (where $D is empty)
"$SDTRACE" list -x "/proc/$wpid/root$D/via" >via.list 2>via.err
check_eq "list -x /proc/PID/root/LINK: the link resolved inside that root" \
	"/proc/$wpid/root$D/via:%wait:tick" "$(cat via.list)"
rec by-link 1 -x "/proc/$wpid/root$D/via" -e %wait:tick

# ---- record: pasted back, -p alone, -x /proc/PID/root/PATH ---------------------------------
rec pasted 3 -e "$(grep ':%wait:tick$' p.list)"
rec by-pid 2 -e %wait:tick
rec by-x 2 -x "$inside" -e %wait:tick

# live NAME N CMD ARGS...: sdtrace CMD -p PID ARGS for N rounds, stopped with SIGTERM
live() {
	_name=$1
	_n=$2
	shift 2
	"$SDTRACE" "$@" -p "$wpid" >"$_name.out" 2>"$_name.err" &
	_r=$!
	if ! armed "$_r"; then
		kill -TERM "$_r" 2>/dev/null
		wait "$_r"
		fail "$_name: armed" "$(cat "$_name.err")"
		return 1
	fi
	ticks "$_n"
	kill -TERM "$_r"
	wait "$_r"
	check_eq "$_name: exit 0" 0 $?
}
if live stat-x 3 stat -x "$inside" -e %wait:tick; then
	check "stat -x /proc/PID/root/PATH: 3 hits" \
		grep -Eq 'wait:tick.* 3( |$)|^ *3 .*wait:tick' stat-x.out
fi
if live trace-x 2 trace -x "$inside" -e %wait:tick; then
	check_eq "trace -x /proc/PID/root/PATH: every hit" 2 "$(grep -c ' wait:tick: ' trace-x.out)"
fi
if live trace-pasted 2 trace -e "$(grep ':%wait:tick$' p.list)"; then
	check_eq "trace, list -p's line pasted back: every hit" 2 \
		"$(grep -c ' wait:tick: ' trace-pasted.out)"
fi

# ---- the cache: under the path inside the namespace, by build-id -----------------------------
"$SDTRACE" cache list >cache.list 2>&1
bid=$(readelf -n "$W" 2>/dev/null | sed -n 's/.*Build ID: //p' | head -n 1)
check "cached under the path inside its namespace" grep -q " $D/prog-wait$" cache.list
check "with its build-id" grep -q "^$bid " cache.list
check "not under a /proc path" sh -c "! grep -q '/proc/' '$T/cache.list'"

kill -TERM "$wpid"
wait "$wpid"
uprobes_unchanged
finish
