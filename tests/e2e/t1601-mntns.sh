#!/bin/sh
# A program in another mount namespace (a container's view): prog-wait copied onto a tmpfs
# mounted over a directory in a private mount namespace (unshare -m), so that from here the
# directory is empty. list -p names its file by /proc/PID/root/PATH (the path it has there
# would name nothing, or another file, here), and each line pastes back into record -e; record
# -p PID with no path, and with -x /proc/PID/root/PATH, record its hits (uprobe_events takes
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

wait_file() {
	n=0
	while [ ! -s "$1" ] && [ "$n" -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ -s "$1" ]
}
# armed SDTRACE_PID: its group is in uprobe_events and its perf events are open
armed() {
	n=0
	while [ "$n" -lt 100 ]; do
		if grep -q "^p:sdtrace_$1_" "$TRACEFS/uprobe_events" &&
			ls -l "/proc/$1/fd" 2>/dev/null | grep -q 'perf_event'; then
			sleep 0.3 # enabling follows opening
			return 0
		fi
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}
# ticks N: N rounds of prog-wait, each after the previous one was printed
ticks() {
	_have=$(grep -c '^probe wait:tick' w.out)
	_i=0
	while [ "$_i" -lt "$1" ]; do
		kill -USR1 "$wpid"
		_i=$((_i + 1))
		n=0
		while [ "$(grep -c '^probe wait:tick' w.out)" -lt $((_have + _i)) ] && [ "$n" -lt 100 ]; do
			sleep 0.05
			n=$((n + 1))
		done
	done
}
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
	check "$_name: the uprobe is on the /proc/PID/root path" \
		grep -q "^p:sdtrace_${_r}_[^ ]* $inside:" "$TRACEFS/uprobe_events"
	ticks "$_n"
	kill -TERM "$_r"
	wait "$_r"
	check_eq "$_name: exit 0" 0 $?
	check_eq "$_name: every hit" "$_n" \
		"$("$SDTRACE" report -i "$_name.data" | grep -c ' wait:tick: ')"
}

unshare -m sh -c "mount -t tmpfs none '$D' && cp '$W' '$D/prog-wait' &&
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

# ---- record: pasted back, -p alone, -x /proc/PID/root/PATH ---------------------------------
rec pasted 3 -e "$(grep ':%wait:tick$' p.list)"
rec by-pid 2 -e %wait:tick
rec by-x 2 -x "$inside" -e %wait:tick
"$SDTRACE" stat -p "$wpid" -x "$inside" -e %wait:tick --duration 0.2 >stat.out 2>&1
check_eq "stat -p -x /proc/PID/root/PATH: exit 0" 0 $?

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
