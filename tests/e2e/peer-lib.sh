# Is a peer tool working? Sourced by tests/e2e/lib.sh and bench/common.sh, which set
# PEER_DIR (a private temporary directory) and PEER_PROG (an ELF program with a main()).
# Safe under `set -e`.
#
# A peer tool may be installed and still broken: Debian's perf 6.1.192 aborts in `perf record`
# of a uprobe event when its build-id directory has some paths and not others ("assertion failed
# at util/build-id.c:1010", "stack smashing detected"). A test never fails sdtrace for a peer's
# crash, and never passes silently either: before using the peer, it records one uprobe (on
# main() of a copy of PEER_PROG, in PEER_DIR) with the peer, as the test will use it.
#   peer_works perf [BUILDID_DIR]   0 when perf probe + perf record + perf probe -d work, with
#                                   a build-id directory of BUILDID_DIR's length and place
#                                   (default $PEER_DIR/perfcache); else 1, and PEER_ERR says why
#   peer_works bpftrace             0 when bpftrace records a uprobe; else 1 and PEER_ERR
#   peer_works bcc                  0 when BCC (python3-bpfcc) counts a uprobe; else 1 and PEER_ERR
# In tests (lib.sh):
#   need_peer TOOL [BUILDID_DIR]    skip the whole test loudly, with the peer's own error
#   peer_skip_part TOOL WHAT        say loudly that the part WHAT is skipped (after peer_works)
PEER_ERR=
peer_works() {
	_pt=$1
	if [ "$_pt" = bcc ]; then # BCC's Python module, of the system's Python
		/usr/bin/python3 -c 'import bcc' >/dev/null 2>&1
	else
		command -v "$_pt" >/dev/null 2>&1
	fi || {
		PEER_ERR="'$_pt' is not installed (bcc: Debian's bpfcc-tools)"
		return 1
	}
	_pd=$(mktemp -d "$PEER_DIR/.peer-$_pt.XXXXXX") || return 1
	cp "$PEER_PROG" "$_pd/peer" 2>"$_pd/err" || true
	case $_pt in
	perf)
		# the same path length as the test's directory, beside it (the abort depends on it)
		_pb=${2:-$PEER_DIR/perfcache}
		_pb=${_pb%?}
		[ "${2:-$PEER_DIR/perfcache}" = "${_pb}Q" ] && _pb=${_pb}R || _pb=${_pb}Q
		_pg=peerck_$$
		_pp() { HOME="$_pd/home" perf --buildid-dir "$_pb" "$@"; }
		if _pp probe -q -x "$_pd/peer" -a "$_pg:main=main" >>"$_pd/err" 2>&1 &&
			(cd "$_pd" && _pp record -q -e "$_pg:main" -o "$_pd/p.data" -- "$_pd/peer") \
				>>"$_pd/err" 2>&1 &&
			_pp script -i "$_pd/p.data" 2>>"$_pd/err" | grep -q "$_pg:main"; then
			_pr=0
		else
			_pr=1
		fi
		_pp probe -q -d "$_pg:*" >/dev/null 2>&1 || true
		rm -rf "$_pb"
		;;
	bpftrace)
		timeout 60 bpftrace -q -e "uprobe:$_pd/peer:main { printf(\"peer-ok\\n\"); exit(); }" \
			-c "$_pd/peer" >"$_pd/out" 2>>"$_pd/err" || true
		if grep -q peer-ok "$_pd/out"; then _pr=0; else _pr=1; fi
		;;
	bcc)
		# BCC (bpfcc-tools, Python): compiles a counter into a uprobe on main() (it compiles
		# against the kernel's headers: /lib/modules/$(uname -r)/build or $BCC_KERNEL_SOURCE)
		# (its "Unable to find kernel headers" goes to stdout: both to err, for PEER_ERR)
		timeout 120 /usr/bin/python3 - "$_pd/peer" >>"$_pd/err" 2>&1 <<'PY' || true
import subprocess, sys
from bcc import BPF
b = BPF(text="BPF_ARRAY(n, u64, 1); int hit(void *ctx) { int k = 0; u64 *v = n.lookup(&k); "
             "if (v) __sync_fetch_and_add(v, 1); return 0; }")
b.attach_uprobe(name=sys.argv[1], sym="main", fn_name="hit")
subprocess.run([sys.argv[1]])
print("peer-ok" if b["n"][0].value == 1 else "no hit")
PY
		if grep -q peer-ok "$_pd/err"; then _pr=0; else _pr=1; fi
		;;
	*)
		PEER_ERR="no check for '$_pt'"
		_pr=1
		;;
	esac
	[ "$_pr" = 0 ] ||
		PEER_ERR="$_pt is broken here (a one-line uprobe recording failed): $(grep -v '^$' "$_pd/err" | head -n 4 | tr '\n' ' ')"
	rm -rf "$_pd"
	return "$_pr"
}
