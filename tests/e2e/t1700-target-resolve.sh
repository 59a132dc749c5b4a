#!/bin/sh
# SPDX-License-Identifier: MIT
# Resolution by the target: with -p PID or -- CMD, a spec without a binary (or with a glob for
# one) is looked up in the files the target runs, not in the cache alone:
#  - a copy of a cached program at another path (CMD and -p) records its own hits;
#  - two builds of one provider, both cached: CMD and -p each pick their own; -a without a
#    binary is the ambiguity error listing both; a glob for the binary records both;
#  - an executable and its library with the same provider:event, both cached: CMD records both;
#  - a library found through DT_NEEDED only (not cached) is probed from the first event (CMD);
#  - -p of a process whose library with probes is not cached: stat and record find it;
#  - a library the command dlopen()s (no file names it): the cached one, with a warning;
#  - a spec nothing of the target matches: an error naming what the target runs.
# Real uprobes; a private cache; uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd cc python3
P=$PROGS_DIR
need_file "$P/prog-uselib" "$P/prog-wait" "$P/libprog-lib.so"
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ $T/"

# tick N [GO]: waits for the file GO (when given), fires myapp:tick N times (arg1 = VARIANT),
# then exits. Built twice with another VARIANT: two builds of one provider, other build-ids.
cat >tick.c <<'CEOF'
#include <stdlib.h>
#include <sys/sdt.h>
#include <unistd.h>
#ifndef VARIANT
#define VARIANT 1
#endif
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3, i;

	while (argc > 2 && access(argv[2], F_OK))
		usleep(5000);
	for (i = 0; i < n; i++)
		STAP_PROBE1(myapp, tick, VARIANT);
	return 0;
}
CEOF
# libdup.so and dupmain: the same provider:event dup:hit in the executable and its library
cat >dup-lib.c <<'CEOF'
#include <sys/sdt.h>
void dup_lib(int i) { STAP_PROBE1(dup, hit, 100 + i); }
CEOF
cat >dup-main.c <<'CEOF'
#include <stdlib.h>
#include <sys/sdt.h>
void dup_lib(int i);
int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3, i;

	for (i = 0; i < n; i++) {
		STAP_PROBE1(dup, hit, i);
		dup_lib(i);
	}
	return 0;
}
CEOF
# dlmain LIB N: dlopen()s LIB, calls its dlp_hit() N times (dlp:hit): a library no file names
cat >dlp-lib.c <<'CEOF'
#include <sys/sdt.h>
#ifndef X
#define X 0
#endif
void dlp_hit(int i) { STAP_PROBE1(dlp, hit, i + X); }
CEOF
cat >dlmain.c <<'CEOF'
#include <dlfcn.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
	void *h = dlopen(argv[1], RTLD_NOW);
	void (*f)(int) = h ? (void (*)(int))dlsym(h, "dlp_hit") : NULL;
	int i, n = argc > 2 ? atoi(argv[2]) : 3;

	for (i = 0; f && i < n; i++)
		f(i);
	return f ? 0 : 1;
}
CEOF
mkdir -p a b blue lib
# a/tick from its own copy of the source: the same code as tick, but another build-id (built
# from tick.c it is the same file, which the cache keeps under one path: tick's or a/tick's,
# as the threads of cache add finish)
cp tick.c a/tick.c
cc -O1 -g -o tick tick.c -DVARIANT=1 && cc -O1 -g -o a/tick a/tick.c -DVARIANT=1 &&
	cc -O1 -g -o b/tick tick.c -DVARIANT=2 &&
	cc -O1 -g -fPIC -shared -o lib/libdup.so dup-lib.c &&
	cc -O1 -g -o dupmain dup-main.c -Llib -ldup -Wl,-rpath,"$T/lib" &&
	cc -O1 -g -fPIC -shared -o lib/libdlp.so dlp-lib.c && cc -O1 -g -o lib/dlmain dlmain.c -ldl &&
	cc -O1 -g -fPIC -shared -DX=7 -o b/libdlp.so dlp-lib.c ||
	skip "cannot compile the test programs"
cp tick blue/tick

# count FILE EVENT: the count stat printed for EVENT ("       5  %myapp:tick")
count() {
	awk -v e="$2" '$2 == e { s += $1 } END { print s + 0 }' "$1"
}
# stat_pid NAME PROG N [SPEC]: start PROG N GO, stat -p it, release it; stat's output in NAME.out
stat_pid() {
	rm -f "$T/$1.go"
	"$2" "$3" "$T/$1.go" &
	_tp=$!
	at_exit "kill -9 $_tp 2>/dev/null"
	# the pid is the shell's fork until it execs PROG: -p would resolve against the shell
	_n=0
	while [ "$(readlink "/proc/$_tp/exe")" != "$(readlink -f "$2")" ] && [ "$_n" -lt 100 ]; do
		sleep 0.05
		_n=$((_n + 1))
	done
	"$SDTRACE" stat -p "$_tp" -e "${4:-%myapp:tick}" >"$1.out" 2>"$1.err" &
	_sp=$!
	if armed "$_sp" "$(readlink -f "$2")"; then
		touch "$T/$1.go"
	else
		say "$1: sdtrace did not arm $2: $(cat "$1.err")"
		kill "$_tp" 2>/dev/null
	fi
	wait "$_tp"
	wait "$_sp"
	_rc=$?
	rm -f "$T/$1.go"
	return "$_rc"
}

"$SDTRACE" cache add tick a/tick b/tick dupmain lib/libdup.so >/dev/null 2>&1
check "the originals are cached" "$SDTRACE" list "%myapp:tick"

# ---- a copy at another path ------------------------------------------------------------------
"$SDTRACE" stat -e '%myapp:tick' -- blue/tick 4 >copy.out 2>copy.err
check_eq "copy, CMD: exit 0" 0 $?
check_eq "copy, CMD: its 4 hits" 4 "$(count copy.out %myapp:tick)"
stat_pid copy-p blue/tick 5
check_eq "copy, -p: exit 0" 0 $?
check_eq "copy, -p: its 5 hits" 5 "$(count copy-p.out %myapp:tick)"

# ---- two builds of one provider, both cached -------------------------------------------------
"$SDTRACE" stat -e '%myapp:tick' -- a/tick 2 >ab1.out 2>ab1.err
check_eq "two builds, CMD a: exit 0 (no ambiguity)" 0 $?
check_eq "two builds, CMD a: its 2 hits" 2 "$(count ab1.out %myapp:tick)"
"$SDTRACE" record -o ab2.data -e '%myapp:tick' -- b/tick 3 >ab2.out 2>ab2.err
check_eq "two builds, record CMD b: exit 0" 0 $?
check_eq "two builds, record CMD b: 3 hits of b's build (arg1=2)" "2 2 2" \
	"$("$SDTRACE" report -i ab2.data --json | python3 -c '
import json, sys
print(*[json.loads(l)["args"][0] for l in sys.stdin])')"
stat_pid ab3 a/tick 3
check_eq "two builds, -p a: exit 0" 0 $?
check_eq "two builds, -p a: its 3 hits" 3 "$(count ab3.out %myapp:tick)"
"$SDTRACE" stat -a --duration 0.1 -e '%myapp:tick' >ab4.out 2>ab4.err
check "two builds, -a without a binary: an error" test $? -ne 0
check "two builds, -a: the error lists both builds" \
	sh -c "grep -q '$T/a/tick' ab4.err && grep -q '$T/b/tick' ab4.err && grep -q 'is in' ab4.err"
# a glob for the binary: both (system-wide, each run after the probes are armed)
$FOREGROUND "$SDTRACE" stat -a --duration 30 -e "$T/[ab]/tick:%myapp:tick" >ab5.out 2>ab5.err &
sp=$!
at_exit "kill -9 $sp 2>/dev/null"
if armed "$sp" "$T/a/tick" && armed "$sp" "$T/b/tick"; then
	a/tick 2
	b/tick 3
fi
kill -INT "$sp"
wait "$sp"
check_eq "two builds, -a with a glob for the binary: 5 hits of both" 5 \
	"$(count ab5.out %myapp:tick)"
"$SDTRACE" list "*/[ab]/tick:%myapp:tick" >ab6.out 2>&1
check_eq "two builds: list with a glob for the binary lists both" \
	"$T/a/tick:%myapp:tick
$T/b/tick:%myapp:tick" "$(cat ab6.out)"

# ---- an executable and its library with one provider:event, both cached ----------------------
"$SDTRACE" stat -e '%dup:hit' -- ./dupmain 3 >dup.out 2>dup.err
check_eq "exe + lib, CMD: exit 0 (no ambiguity)" 0 $?
check_eq "exe + lib, CMD: 3 hits in each" 6 "$(count dup.out %dup:hit)"

# ---- a library the command dlopen()s: not among its files, found in the cache, and said so ----
# two builds of it cached: the one beside the executable ($T/lib/) is picked, not b/'s
"$SDTRACE" cache add lib/libdlp.so b/libdlp.so >/dev/null 2>&1
"$SDTRACE" stat -e '%dlp:hit' -- lib/dlmain "$T/lib/libdlp.so" 3 >dl.out 2>dl.err
check_eq "dlopen, CMD: exit 0" 0 $?
check_eq "dlopen, CMD: the cached library's 3 hits" 3 "$(count dl.out %dlp:hit)"
check "dlopen, CMD: told the library beside the executable came from the cache" \
	grep -q "dlopen.*$T/lib/libdlp.so" dl.err

# ---- a library found through DT_NEEDED alone, not cached ---------------------------------------
rm -rf "$SDTRACE_CACHE_DIR"
"$SDTRACE" record -o need.data -e '%lib:call' -- "$P/prog-uselib" 3 >need.out 2>need.err
check_eq "DT_NEEDED, CMD: exit 0" 0 $?
check_eq "DT_NEEDED, CMD: every call from the first (rounds 0 1 2)" "0 1 2" \
	"$("$SDTRACE" report -i need.data --json | python3 -c '
import json, sys
print(*[json.loads(l)["args"][0] for l in sys.stdin])')"

# ---- -p of a process whose library with probes is not cached -----------------------------------
"$P/prog-wait" "$T/w.pid" >w.out 2>&1 &
wpid=$!
at_exit "kill -9 $wpid 2>/dev/null"
wait_file w.pid
$FOREGROUND "$SDTRACE" stat -p "$wpid" -e '%lib:call' >wp.out 2>wp.err &
sp=$!
if armed "$sp" "$(readlink -f "$P/libprog-lib.so")"; then
	kill -USR1 "$wpid"
	sleep 0.5
	kill -USR1 "$wpid"
	sleep 0.5
fi
kill -INT "$sp"
wait "$sp"
check_eq "-p, library not cached: stat exit 0" 0 $?
check_eq "-p, library not cached: stat counts 2 calls" 2 "$(count wp.out %lib:call)"
$FOREGROUND "$SDTRACE" record -o wp.data -p "$wpid" -e '%lib:call' >wr.out 2>wr.err &
sp=$!
if armed "$sp" "$(readlink -f "$P/libprog-lib.so")"; then
	kill -USR1 "$wpid"
	sleep 0.5
fi
kill -INT "$sp"
wait "$sp"
check_eq "-p, library not cached: record exit 0" 0 $?
check_eq "-p, library not cached: record has the call" 1 \
	"$("$SDTRACE" report -i wp.data --json | grep -c .)"
"$SDTRACE" list -p "$wpid" >wl.out 2>&1
check "-p: list -p shows the library's probe too" grep -q "libprog-lib.so:%lib:call" wl.out
kill -TERM "$wpid"
wait "$wpid"

# ---- nothing of the target matches -----------------------------------------------------------
"$SDTRACE" stat -e '%nothere:at_all' -- "$P/prog-uselib" 1 >none.out 2>none.err
check "no match: an error" test $? -ne 0
check "no match: the error names the target's files with notes" \
	sh -c "grep -q 'prog-uselib' none.err && grep -q 'libprog-lib.so' none.err"
check "no match: the error counts the files without notes" grep -q ' without' none.err
check "no match: not the cache's advice" sh -c "! grep -q 'cache add' none.err"

uprobes_unchanged
finish
