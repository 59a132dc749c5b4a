#!/bin/sh
# SPDX-License-Identifier: MIT
# sdtrace list -p PID: the probes of a running process's executable and libraries (prog-wait,
# linked with libprog-lib.so), with paths as the process sees them (under /proc/PID/root when
# that path is not the same file here: another mount namespace); a process whose executable
# was deleted after it started ("(deleted)", still listed through /proc/PID/map_files); a pid
# that does not exist.
. "$(dirname "$0")/lib.sh"
WAIT=$PROGS_DIR/prog-wait
need_file "$WAIT" "$PROGS_DIR/libprog-lib.so" /proc/self/maps
need_cmd python3

# start_wait PROGRAM NAME: start PROGRAM in the background, killed at exit; sets $pid.
start_wait() {
	"$1" "$T/$2.pid" >"$T/$2.out" 2>&1 &
	pid=$!
	at_exit "kill $pid 2>/dev/null; wait $pid 2>/dev/null"
	wait_for 10 test -s "$T/$2.pid"
	[ -s "$T/$2.pid" ] || {
		fail "$2 started" "no pid file after 10 s: $(cat "$T/$2.out")"
		finish
	}
	check_eq "$2 wrote its pid" "$pid" "$(cat "$T/$2.pid")"
}

exe=$(readlink -f "$WAIT")
lib=$(readlink -f "$PROGS_DIR/libprog-lib.so")
start_wait "$WAIT" wait

"$SDTRACE" list -p "$pid" >"$T/out" 2>"$T/err"
check_eq "list -p: exit 0" 0 "$?"
check_eq "list -p: nothing on stderr" "" "$(cat "$T/err")"
check "list -p: the executable's probe, its path as the process sees it" \
	grep -qx "$exe:%wait:tick" "$T/out"
check "list -p: the library's probe lib:call" grep -qx "$lib:%lib:call" "$T/out"
check "list -p: the library's gated probe lib:gated" grep -qx "$lib:%lib:gated" "$T/out"
check "list -p: no /proc path shown" sh -c "! grep -q '^/proc/' '$T/out'"
check "list -p: the executable is listed before its library" \
	sh -c "grep -n . '$T/out' | grep -q '^1:$exe:'"
check_eq "list -p with a pattern" "$lib:%lib:call
$lib:%lib:gated" "$("$SDTRACE" list -p "$pid" '%lib:*')"
check_eq "list -p with perf's group name" "$exe:%wait:tick" \
	"$("$SDTRACE" list -p "$pid" sdt_wait:tick)"

"$SDTRACE" list -p "$pid" --json '%lib:*' '%wait:*' >"$T/j" 2>"$T/err"
check_eq "list -p --json: exit 0" 0 "$?"
check_eq "list -p --json: the paths, one per site" "$exe $lib $lib" \
	"$(python3 -c 'import json,sys; print(*[s["path"] for s in json.load(sys.stdin)])' <"$T/j")"
# The same sites and build-ids as listing the files themselves.
"$SDTRACE" list -x "$exe" -x "$lib" --json >"$T/jx"
check_eq "list -p --json: the same sites as list -x of the two files" \
	"$(python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), sort_keys=True))' <"$T/jx")" \
	"$(python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), sort_keys=True))' <"$T/j")"
"$SDTRACE" list -p "$pid" -v '%lib:gated' >"$T/v"
check "list -p -v: lib:gated has a semaphore with its file offset" \
	grep -Eq '^  site 1: .*semaphore 0x[0-9a-f]+ \(file offset 0x[0-9a-f]+\)' "$T/v"

# The process still works: one round of probes (untraced: the gated one stays quiet).
kill -USR1 "$pid"
wait_grep "$T/wait.out" 'lib:call' 5
check_eq "prog-wait fired its probes on SIGUSR1" "ready $pid
probe wait:tick arg1=0
probe lib:call arg1=0 arg2=libprog" "$(cat "$T/wait.out")"

# ---- an executable deleted after it started --------------------------------------------------
if [ "$(id -u)" != 0 ]; then
	say "SKIP: the deleted-executable checks read /proc/PID/map_files, which needs root"
else
	cp "$WAIT" "$T/prog-gone"
	start_wait "$T/prog-gone" gone
	rm "$T/prog-gone"
	check "the copy is gone" test ! -e "$T/prog-gone"
	"$SDTRACE" list -p "$pid" >"$T/out" 2>"$T/err"
	check_eq "deleted: exit 0" 0 "$?"
	check "deleted: listed as '(deleted)', with its probe" \
		grep -qx "$T/prog-gone (deleted):%wait:tick" "$T/out"
	check "deleted: the library is still listed" grep -qx "$lib:%lib:call" "$T/out"
	check "deleted: a warning names the file" grep -q "^sdtrace: warning: .*'$T/prog-gone'" "$T/err"
	"$SDTRACE" list -p "$pid" --json '%wait:*' >"$T/j" 2>/dev/null
	check_eq "deleted --json: the path and the same build-id as the original" \
		"$T/prog-gone (deleted) $("$SDTRACE" list -x "$WAIT" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["build_id"])')" \
		"$(python3 -c 'import json,sys; s=json.load(sys.stdin)[0]; print(s["path"], s["build_id"])' <"$T/j")"
fi

# ---- shared memory and memfds are "(deleted)" mappings too, but no files to warn of ----------
cat >"$T/shm.py" <<'EOS'
import mmap, os, sys, time
shm = mmap.mmap(-1, 1 << 20, mmap.MAP_SHARED)       # "/dev/zero (deleted)", like postgres
fd = os.memfd_create("jit")                          # "/memfd:jit (deleted)"
os.write(fd, b"not an ELF file".ljust(4096, b"\0"))
mfd = mmap.mmap(fd, 4096)
open(sys.argv[1] + ".tmp", "w").write(str(os.getpid()))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(60)
EOS
python3 "$T/shm.py" "$T/shm.pid" >"$T/shm.out" 2>&1 &
shm=$!
at_exit "kill $shm 2>/dev/null; wait $shm 2>/dev/null"
wait_for 10 test -s "$T/shm.pid"
check "shared memory and a memfd are mapped" \
	sh -c "grep -q '/dev/zero (deleted)' /proc/$shm/maps && grep -q '/memfd:jit (deleted)' /proc/$shm/maps"
"$SDTRACE" list -p "$shm" >"$T/out" 2>"$T/err"
rc=$?
# python3 may have SDT probes of its own (exit 0), or none (exit 1, said): never a warning
if [ -s "$T/out" ]; then
	check_eq "shared memory, memfd: exit 0" 0 "$rc"
	check_eq "shared memory, memfd: no warning, no error" "" "$(cat "$T/err")"
else
	check_eq "shared memory, memfd: nothing listed, exit 1" 1 "$rc"
	check_eq "shared memory, memfd: no warning, no error, only that" \
		"sdtrace: process $shm maps no file with SDT probes" "$(cat "$T/err")"
fi

# ---- an executable whose path has a space and a quote ---------------------------------------
mkdir -p "$T/a dir\"q"
cp "$WAIT" "$T/a dir\"q/prog wait"
start_wait "$T/a dir\"q/prog wait" odd
"$SDTRACE" list -p "$pid" '%wait:*' >"$T/out" 2>"$T/err"
check_eq "odd path: listed as the process sees it" "$T/a dir\"q/prog wait:%wait:tick" \
	"$(cat "$T/out" "$T/err")"
check_eq "odd path: --json path" "$T/a dir\"q/prog wait" \
	"$("$SDTRACE" list -p "$pid" --json '%wait:*' |
		python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["path"])')"

# ---- a newline in the executable's name: /proc/PID/maps writes it as "\012" ---------------------
NL="$T/new
line"
cp "$WAIT" "$NL"
start_wait "$NL" nl
"$SDTRACE" list -p "$pid" '%wait:*' >"$T/out" 2>"$T/err"
check_eq "newline in the path: exit 0, nothing on stderr" "0:" "$?:$(cat "$T/err")"
check_eq "newline in the path: escaped as \\n in text, as sdtrace-report(1) says" "$T/new\\nline:%wait:tick" "$(cat "$T/out")"
check_eq "newline in the path: the real name in --json" "$NL" "$("$SDTRACE" list -p "$pid" --json '%wait:*' |
	python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["path"])')"

# ---- a process in another mount namespace: read, and listed, through /proc/PID/root -----------
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null 2>&1; then
	say "SKIP: the mount-namespace checks need root and unshare"
else
	mkdir -p "$T/nsview"
	cat >"$T/ns.sh" <<EOS
mount -t tmpfs sdtrace-test "$T/nsview" && cp "$WAIT" "$T/nsview/prog-ns" &&
	exec "$T/nsview/prog-ns" "$T/ns.pid"
EOS
	unshare -m --propagation private sh "$T/ns.sh" >"$T/ns.out" 2>&1 &
	pid=$!
	at_exit "kill $pid 2>/dev/null; wait $pid 2>/dev/null"
	wait_for 10 test -s "$T/ns.pid"
	if [ "$(cat "$T/ns.pid" 2>/dev/null)" != "$pid" ]; then
		say "SKIP: cannot start a program in a mount namespace: $(cat "$T/ns.out")"
	else
		check "namespace: the program is not visible from here" test ! -e "$T/nsview/prog-ns"
		"$SDTRACE" list -p "$pid" '%wait:*' >"$T/out" 2>"$T/err"
		# the path it sees names nothing here: it is listed as reached from here, pasteable
		check_eq "namespace: listed by /proc/PID/root and the path the process sees" \
			"/proc/$pid/root$T/nsview/prog-ns:%wait:tick" "$(cat "$T/out" "$T/err")"
		check_eq "namespace: the line pastes back" "$(cat "$T/out")" \
			"$("$SDTRACE" list "$(cat "$T/out")" 2>&1)"
	fi
fi

# ---- a kernel thread maps no file: nothing to list (exit 1, as grep), no error ------------------
if [ "$(cat /proc/2/comm 2>/dev/null)" = kthreadd ]; then
	"$SDTRACE" list -p 2 >"$T/out" 2>"$T/err"
	check_eq "kernel thread: exit 1, nothing listed, said so" \
		"1::sdtrace: process 2 maps no file with SDT probes" \
		"$?:$(cat "$T/out"):$(cat "$T/err")"
else
	say "SKIP: pid 2 is not kthreadd here (a pid namespace?)"
fi

# ---- a process that does not exist --------------------------------------------------------------
sh -c 'exit 0' &
dead=$!
wait "$dead"
if [ -e "/proc/$dead" ]; then
	say "SKIP: pid $dead was reused at once"
else
	"$SDTRACE" list -p "$dead" >"$T/out" 2>"$T/err"
	check_eq "no such process: exit 2" 2 "$?"
	check_eq "no such process: nothing on stdout" "" "$(cat "$T/out")"
	check_eq "no such process: one error line" 1 "$(wc -l <"$T/err" | tr -d ' ')"
	check "no such process: a clear message with the pid" \
		grep -q "^sdtrace: error: .*$dead.*no such process" "$T/err"
fi
finish
