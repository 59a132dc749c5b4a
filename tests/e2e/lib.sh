# Shared helpers for the end-to-end tests (tests/e2e/tNNNN-*.sh), sourced with `. "$(dirname "$0")/lib.sh"`.
#
# Environment (set by CTest, see tests/CMakeLists.txt; defaults for a manual run from the repo):
#   SDTRACE    the sdtrace binary        PROGS_DIR  the built tests/progs programs
#   SRC_DIR    the source tree           BUILD_DIR  the build tree
#
# A test calls `check NAME COMMAND...` / `check_eq NAME EXPECTED ACTUAL` for each assertion and
# ends with `finish`, which prints "N passed, N failed, N skipped" and exits 0 or 1. A missing
# prerequisite ends the test with `skip REASON` (exit 77, which CTest reports as skipped).
# Every test runs in its own temporary directory ($T), removed on exit, and its cache is
# SDTRACE_CACHE_DIR=$T/cache, never the real ~/.debug.

set -u
: "${SRC_DIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${BUILD_DIR:=$SRC_DIR/build}"
: "${SDTRACE:=$BUILD_DIR/sdtrace}"
: "${PROGS_DIR:=$BUILD_DIR/tests/progs}"
TEST_NAME=$(basename "$0" .sh)

T=$(mktemp -d "/tmp/sdtrace-$TEST_NAME.XXXXXX")
export SDTRACE_CACHE_DIR="$T/cache"
export HOME="$T/home"
mkdir -p "$HOME"

# `$FOREGROUND CMD... &`: CMD with SIGINT at its default, as a job of an interactive shell has
# it. A non-interactive shell starts `CMD &` with SIGINT and SIGQUIT ignored, and sdtrace (as
# every POSIX utility) leaves an ignored SIGINT ignored: a test that stops it with SIGINT, as
# Ctrl-C would, starts it this way.
FOREGROUND="env --default-signal=INT"

# The engine the CLI records with by default in this run (tests/CMakeLists.txt: the e2e-bpf pass
# sets SDTRACE_ENGINE=bpf). A check of tracefs itself (uprobe lines, groups) is for tracefs only.
ENGINE=${SDTRACE_ENGINE:-tracefs}
tracefs_engine() { [ "$ENGINE" = tracefs ]; }
# bpf_armed PID [PATH]: process PID holds a uprobe link (the BPF engine placed its sites), on
# PATH if given (a uprobe_multi link's fdinfo names its file; the perf-event fallback's does not)
bpf_armed() {
	if [ $# -lt 2 ]; then
		grep -qsE '^link_type:[[:space:]]*(uprobe_multi|perf)' /proc/"$1"/fdinfo/* 2>/dev/null
		return
	fi
	grep -qsxF "path:	$2" /proc/"$1"/fdinfo/* 2>/dev/null ||
		grep -qsE '^link_type:[[:space:]]*perf' /proc/"$1"/fdinfo/* 2>/dev/null
}
# armed SDTRACE_PID [PATH]: sdtrace has placed its probes (on PATH if given) and enabled them:
# under tracefs its group is in uprobe_events and its perf events are open (more than the
# CPUs' watch events), under bpf it holds the link. Waits up to 10 s; then 0.3 s more, for enabling follows opening.
armed() {
	_an=0
	while [ "$_an" -lt 100 ]; do
		if tracefs_engine; then
			# more perf events than CPUs: the watch events (one per CPU, opened first
			# when following) and the probes' own (so not for --no-follow)
			if grep -q "^p:sdtrace_$1_[^ ]* ${2:+$2:}" "$TRACEFS/uprobe_events" &&
				[ "$(ls -l "/proc/$1/fd" 2>/dev/null | grep -c 'perf_event')" -gt \
					"$(nproc)" ]; then
				sleep 0.3
				return 0
			fi
		elif bpf_armed "$@"; then
			sleep 0.3
			return 0
		fi
		sleep 0.1
		_an=$((_an + 1))
	done
	return 1
}

_passed=0
_failed=0
_cleanups=""

# wait_grep FILE REGEX [SECONDS]: wait (10 s by default) until FILE has a line matching REGEX
wait_grep() {
	_wn=0
	while ! grep -Eq "$2" "$1" 2>/dev/null && [ "$_wn" -lt "$((${3:-10} * 10))" ]; do
		sleep 0.1
		_wn=$((_wn + 1))
	done
	grep -Eq "$2" "$1"
}

# wait_file FILE [TENTHS]: wait (10 s by default) until FILE exists
wait_file() {
	_wf=0
	while [ ! -e "$1" ] && [ "$_wf" -lt "${2:-100}" ]; do
		sleep 0.1
		_wf=$((_wf + 1))
	done
	[ -e "$1" ]
}

# wait_for SECONDS CMD...: run CMD (its output discarded) until it succeeds, SECONDS at most
wait_for() {
	_wt=$(($1 * 10))
	shift
	while [ "$_wt" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		_wt=$((_wt - 1))
	done
	return 1
}

# prog_wait_ticks PID OUT N: N rounds of tests/progs/prog-wait (PID, its stdout in OUT): SIGUSR1,
# then wait (5 s at most) for the round's "probe wait:tick" line before the next one
prog_wait_ticks() {
	_pt_have=$(grep -c '^probe wait:tick' "$2")
	_pt_i=0
	while [ "$_pt_i" -lt "$3" ]; do
		kill -USR1 "$1"
		_pt_i=$((_pt_i + 1))
		_pt_n=0
		while [ "$(grep -c '^probe wait:tick' "$2")" -lt $((_pt_have + _pt_i)) ] &&
			[ "$_pt_n" -lt 100 ]; do
			sleep 0.05
			_pt_n=$((_pt_n + 1))
		done
	done
}

# exec_shim NAME PROGRAM: NAME, an executable shell script that execs PROGRAM with its arguments
# (what a pyenv shim or a wrapper script does)
exec_shim() {
	printf '#!/bin/sh\nexec "%s" "$@"\n' "$2" >"$1" && chmod +x "$1"
}

# Run a command at exit (LIFO), also when the test fails or is interrupted.
at_exit() { _cleanups="$*; $_cleanups"; }
_on_exit() {
	eval "$_cleanups" 2>/dev/null || true
	rm -rf "$T"
}
trap _on_exit EXIT
trap 'exit 130' INT TERM HUP

# --no-follow when FILE is built with LeakSanitizer (the sanitized build's examples): LSan stops
# its threads with ptrace at exit and fails when a follower traces them already
lsan_no_follow() { ! readelf -d "$1" 2>/dev/null | grep -q 'NEEDED.*libasan' || echo --no-follow; }
say() { printf '%s: %s\n' "$TEST_NAME" "$*"; }
skip() {
	printf '%s: SKIP: %s\n' "$TEST_NAME" "$*"
	exit 77
}
pass() {
	_passed=$((_passed + 1))
	printf 'ok %d - %s\n' "$((_passed + _failed))" "$1"
}
fail() {
	_failed=$((_failed + 1))
	printf 'not ok %d - %s\n' "$((_passed + _failed))" "$1"
	shift
	[ $# -gt 0 ] && printf '#   %s\n' "$@"
	return 0
}

# check NAME CMD...: CMD must succeed.
check() {
	name=$1
	shift
	if "$@" >"$T/.out" 2>&1; then
		pass "$name"
	else
		fail "$name" "command failed ($?): $*" "$(head -c 2000 "$T/.out")"
	fi
}
# check_fails NAME CMD...: CMD must fail.
check_fails() {
	name=$1
	shift
	if "$@" >"$T/.out" 2>&1; then
		fail "$name" "command succeeded but should fail: $*"
	else
		pass "$name"
	fi
}
check_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "expected: $2" "actual:   $3"
	fi
}

finish() {
	printf '%d passed, %d failed, 0 skipped\n' "$_passed" "$_failed"
	[ "$_failed" -eq 0 ]
	exit $?
}

# ---- prerequisites -----------------------------------------------------------------------
need_cmd() {
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "'$c' is not installed"
	done
}
need_file() {
	for f in "$@"; do
		[ -e "$f" ] || skip "'$f' does not exist on this machine"
	done
}
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

# Find (or mount, as root) tracefs; sets TRACEFS. Skips loudly when there is none.
need_tracefs() {
	need_root
	for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		if [ -w "$d/uprobe_events" ]; then
			TRACEFS=$d
			return 0
		fi
	done
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
	if [ -w /sys/kernel/tracing/uprobe_events ]; then
		TRACEFS=/sys/kernel/tracing
		return 0
	fi
	skip "no tracefs with uprobe_events (mount -t tracefs nodev /sys/kernel/tracing)"
}

# Snapshot uprobe_events now (uprobes_guard [PATTERN]); at the end, uprobes_unchanged asserts
# that this test's sdtrace left nothing behind. The test is hermetic: another tracer on the
# machine (an sdtrace -a session arming the same binaries, a perf probe on python3.11) never
# fails it. Of the lines matching PATTERN (an ERE; default: every sdtrace group), compared are:
#  - the groups of sdtrace sessions (sdtrace_PID_...), except those of a process still running
#    at the end (another session: this test's have ended) and those of sessions already there
#    before (dead ones: any sdtrace may remove them as stale);
#  - other groups (a perf probe group the test made itself) only when PATTERN names groups
#    ("^[p-r]:GROUP..."), not when it names files ("^[p-r]:[^ ]+ FILE"): on a file, another
#    tool's probes are not the test's.
uprobes_guard() {
	_uprobe_pat=${1:-'^[p-r]:sdtrace_'}
	grep -E "$_uprobe_pat" "$TRACEFS/uprobe_events" >"$T/.uprobes-before" 2>/dev/null || true
}
# _uprobes_ours FILE: FILE's lines that uprobes_unchanged compares (see above)
_uprobes_ours() {
	_skip=" "
	for _p in $(sed -n 's/^[p-r]:sdtrace_\([0-9]*\)_.*/\1/p' "$T/.uprobes-before" \
		"$T/.uprobes-after" | sort -u); do
		if kill -0 "$_p" 2>/dev/null || grep -q "^[p-r]:sdtrace_${_p}_" "$T/.uprobes-before"; then
			_skip="$_skip$_p "
		fi
	done
	case $_uprobe_pat in
	'^[p-r]:[^ ]'*) _others=0 ;;
	*) _others=1 ;;
	esac
	awk -v skip="$_skip" -v others="$_others" '{
		g = $1; sub(/^[p-r]:/, "", g); sub(/\/.*/, "", g)
		if (g ~ /^sdtrace_[0-9]+_/) { split(g, w, "_"); if (index(skip, " " w[2] " ")) next }
		else if (!others) next
		print }' "$1"
}
uprobes_unchanged() {
	grep -E "$_uprobe_pat" "$TRACEFS/uprobe_events" >"$T/.uprobes-after" 2>/dev/null || true
	_uprobes_ours "$T/.uprobes-before" >"$T/.uprobes-before.ours"
	_uprobes_ours "$T/.uprobes-after" >"$T/.uprobes-after.ours"
	if cmp -s "$T/.uprobes-before.ours" "$T/.uprobes-after.ours"; then
		pass "${1:-uprobe_events unchanged}"
	else
		fail "${1:-uprobe_events unchanged}" \
			"$(diff "$T/.uprobes-before.ours" "$T/.uprobes-after.ours" | head -n 20)"
	fi
}

# ---- as another user ---------------------------------------------------------------------
# nobody_prepare [FILE...]: for the part of a test run as the user nobody. Returns 1 (the caller
# says what it leaves out) when not root, or without setpriv or nobody. Nobody may be unable to
# reach the build: with a checkout in root's 0700 home (/root/sdtrace) every exec of it as
# nobody fails with 126, and a check wanting only a failure would pass. So sdtrace with the
# libsdtrace.so.0 beside it (found by its RUNPATH, $ORIGIN), the shipped provider type files
# (which a build-tree binary reads from the source tree) and each FILE are copied into NB, a
# root-owned 0755 directory of /tmp; NB_SDTRACE is the copy. That the copy runs as nobody is a
# check: the test fails loudly when it does not.
nobody_prepare() {
	[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1 ||
		return 1
	NB=$(mktemp -d "/tmp/sdtrace-$TEST_NAME-nobody.XXXXXX") || return 1
	at_exit "rm -rf '$NB'"
	if ! { cp "$SDTRACE" "$NB/sdtrace" && cp -P "${SDTRACE%/*}"/libsdtrace.so.* "$NB/" &&
		cp -R "$SRC_DIR/share/providers" "$NB/providers" &&
		{ [ $# -eq 0 ] || cp "$@" "$NB/"; } && chmod -R a+rX "$NB" && chmod 755 "$NB"; }; then
		fail "as nobody: cannot copy sdtrace and $* to $NB"
		return 1
	fi
	NB_SDTRACE=$NB/sdtrace
	check "as nobody: a copy of sdtrace runs ($NB_SDTRACE --version)" \
		as_nobody "$NB_SDTRACE" --version
}
# as_nobody [NAME=VALUE...] CMD...: CMD as nobody (its group, no other groups) with the copied
# provider files, killed after 300 s.
as_nobody() {
	timeout -s TERM 300 setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		env SDTRACE_PROVIDERS_DIR="$NB/providers" "$@"
}

# perf with a private cache and HOME: never ~/.debug.
perf_private() { HOME="$T/perfhome" perf --buildid-dir "$T/perfcache" "$@"; }

# ---- peer tools (perf, bpftrace): peer_works, need_peer, peer_skip_part (peer-lib.sh) -------
PEER_DIR=$T
PEER_PROG=$PROGS_DIR/prog-nonotes
. "$SRC_DIR/tests/e2e/peer-lib.sh"
need_peer() { peer_works "$@" || skip "$PEER_ERR"; }
peer_skip_part() { printf '%s: SKIP (part): %s: %s\n' "$TEST_NAME" "$2" "$PEER_ERR"; }
