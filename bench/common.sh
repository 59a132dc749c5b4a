# Shared helpers for the bench/b*.sh scripts (sourced). Every script gets a private temporary
# directory $tmp (removed at exit), perf always runs with a private HOME and build-id cache
# (`P ...` = `HOME=$tmp/home perf --buildid-dir $tmp/pc ...`), and every uprobe event the script
# creates through perf is deleted at exit, on every path (at_exit).
#
# Environment (from bench/run.sh): SDTRACE, BENCH_OUT, BENCH_MODE (quick|full),
# BENCH_WORK (a directory kept between runs for the generated corpus; default next to sdtrace).
set -eu
bench_dir=$(cd "$(dirname "$0")" && pwd)
: "${SDTRACE:=$bench_dir/../build/sdtrace}"
: "${BENCH_OUT:=/dev/null}"
: "${BENCH_MODE:=quick}"
: "${BENCH_WORK:=$(dirname "$SDTRACE")/bench-work}"
mkdir -p "$BENCH_WORK"
tmp=$(mktemp -d /tmp/sdtrace-bench.XXXXXX)
mkdir -p "$tmp/home"
_cleanups=""
at_exit() { _cleanups="$*; $_cleanups"; }
_on_exit() {
	eval "$_cleanups" 2>/dev/null || true
	rm -rf "$tmp"
}
trap _on_exit EXIT
trap 'exit 130' INT TERM HUP

perf_cmd="HOME=$tmp/home perf --buildid-dir $tmp/pc"
# perf with the private HOME but no --buildid-dir (for scripts that name their own cache dir)
perf_h="HOME=$tmp/home perf"
P() { HOME="$tmp/home" perf --buildid-dir "$tmp/pc" "$@"; }

# A peer tool that is installed but broken (perf 6.1.192 aborts in `perf record` of a uprobe
# under some build-id directory paths): peer_ok TOOL [BUILDID_DIR] records one uprobe with it
# (tests/e2e/peer-lib.sh), and when that fails the script says so in the tables: peer_broken
# TOOL emits a row whose peer column is "peer broken" with the tool's own error.
PEER_DIR=$tmp
PEER_PROG=$tmp/peer-prog
. "$bench_dir/../tests/e2e/peer-lib.sh"
peer_ok() {
	[ -x "$PEER_PROG" ] || printf 'int main(void) { return 0; }\n' | cc -x c -o "$PEER_PROG" -
	peer_works "$@"
}
peer_broken() {
	emit "$(basename "$0" .sh): the comparisons with $1" "n/a" "$1" "peer broken: $PEER_ERR" "n/a"
}

# Delete every perf probe event of group $1 at exit (only that group: ours).
perf_group_cleanup() {
	at_exit "P probe -q -d '$1:*' >/dev/null 2>&1"
}

# A figure computed by the script itself (not by abtime.py), one JSON line:
# figure ours peer_cmd peer ratio [target] [met]
emit() {
	python3 - "$@" >>"$BENCH_OUT" <<'PY'
import json, sys
k = ["figure", "ours", "peer_cmd", "peer", "ratio", "target", "met"]
print(json.dumps(dict(zip(k, sys.argv[1:]))))
PY
	printf '  %s: ours %s, peer %s (%s), ratio %s%s\n' "$1" "$2" "$4" "$3" "$5" "${6:+, target $6}"
}

# A row of a growth table: table x values...
emit_growth() {
	python3 - "$@" >>"$BENCH_OUT" <<'PY'
import json, sys
print(json.dumps({"growth": sys.argv[1], "x": sys.argv[2], "values": sys.argv[3:]}))
PY
	shift; printf "  %s\n" "$*"
}

# Milliseconds since some start, with a decimal: now_ms
now_ms() { python3 -c 'import time; print("%.3f" % (time.monotonic() * 1e3))'; }

# ratio A B (A/B, 3 decimals)
ratio() { python3 -c "import sys; a, b = float('$1'), float('$2'); print('%.3f' % (a / b) if b else 'n/a')"; }

# the bench loop program, built once into BENCH_WORK
loop_bin() {
	if [ ! -x "$BENCH_WORK/loop" ] || [ "$bench_dir/loop.c" -nt "$BENCH_WORK/loop" ]; then
		gcc -O2 -g -pthread -o "$BENCH_WORK/loop.tmp" "$bench_dir/loop.c" && mv "$BENCH_WORK/loop.tmp" "$BENCH_WORK/loop"
	fi
	echo "$BENCH_WORK/loop"
}

need_root_tracefs() {
	[ "$(id -u)" = 0 ] && [ -w /sys/kernel/tracing/uprobe_events ] && return 0
	echo "bench: SKIP $(basename "$0"): needs root and a mounted tracefs (/sys/kernel/tracing)"
	exit 0
}

# Wall time of one shell command in ms (its output discarded; a failure ends the script).
time_ms() {
	python3 - "$1" <<'PY'
import subprocess, sys, time
t0 = time.perf_counter()
r = subprocess.run(sys.argv[1], shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
t = time.perf_counter() - t0
if r.returncode:
    sys.exit("bench: command failed (%d): %s\n%s" % (r.returncode, sys.argv[1], r.stderr.decode(errors="replace")[-2000:]))
print("%.1f" % (t * 1e3))
PY
}

# median of the numbers on stdin
median() { python3 -c 'import statistics, sys; print("%.1f" % statistics.median(float(x) for x in sys.stdin.read().split()))'; }

# Every ELF file under DIR (not following symlinks), sorted by path, one per line.
elf_files() {
	python3 - "$1" <<'PY'
import os, sys
for root, dirs, files in os.walk(sys.argv[1]):
    dirs.sort()
    for f in sorted(files):
        p = os.path.join(root, f)
        try:
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            with open(p, "rb") as fh:
                if fh.read(4) == b"\x7fELF":
                    print(p)
        except OSError:
            pass
PY
}

# BCC (bpfcc-tools) compiles each tool's C program when it starts, against the running kernel's
# headers (/lib/modules/$(uname -r)/build, or /sys/kernel/kheaders.tar.xz). Debian has headers
# only for its own kernels; on another kernel (this VM's 6.18) bcc_headers lays a tree of
# symbolic links from Debian's newest linux-headers-*-amd64 and its -common in $tmp and points
# BCC_KERNEL_SOURCE at it: another kernel's headers, enough for a uprobe program (types and
# pt_regs, no kernel structure). BCC_HEADERS says which headers BCC used.
bcc_headers() {
	BCC_HEADERS="the running kernel's"
	[ -d "/lib/modules/$(uname -r)/build" ] && return 0
	_ba=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1)
	BCC_HEADERS=none
	[ -n "$_ba" ] && [ -d "${_ba%-amd64}-common" ] || return 1
	rm -rf "$tmp/kh"
	cp -as "${_ba%-amd64}-common" "$tmp/kh" && cp -asf "$_ba/." "$tmp/kh/" || return 1
	export BCC_KERNEL_SOURCE="$tmp/kh"
	BCC_HEADERS="Debian's ${_ba#/usr/src/linux-headers-} headers through BCC_KERNEL_SOURCE"
}
# bcc_check: BCC works here as installed, or with bcc_headers; else a "peer broken" row and the
# script's end. BCC_PLAIN_ERR: why it did not work as installed (empty when it did).
bcc_check() {
	BCC_PLAIN_ERR=
	peer_ok bcc && { BCC_HEADERS="the running kernel's"; return 0; }
	BCC_PLAIN_ERR=$PEER_ERR
	echo "  BCC as installed: $BCC_PLAIN_ERR"
	if bcc_headers && peer_ok bcc; then
		echo "  BCC runs with $BCC_HEADERS"
		return 0
	fi
	peer_broken bcc
	exit 0
}
