#!/bin/sh
# SPDX-License-Identifier: MIT
# A peer tool that is installed but broken (Debian's perf 6.1.192 aborts in `perf record` of a
# uprobe under some build-id directory paths: "assertion failed at util/build-id.c:1010") never
# fails a test and never lets one pass silently: a test that needs the peer says SKIP with the
# peer's own error (exit 77), a test that uses it for a part says "SKIP (part)" with it, and a
# benchmark's table says "peer broken". Here a fake perf and a fake bpftrace on PATH abort.
. "$(dirname "$0")/lib.sh"
need_cmd cc python3
mkdir -p "$T/bin"
for tool in perf bpftrace; do
	cat >"$T/bin/$tool" <<'EOF'
#!/bin/sh
echo "assertion failed at util/build-id.c:1010" >&2
echo "*** stack smashing detected ***: terminated" >&2
kill -ABRT $$
EOF
	chmod +x "$T/bin/$tool"
done
FAKEPATH=$T/bin:$PATH

# a test that needs perf: SKIP (77), loudly, with perf's message; nothing failed
PATH=$FAKEPATH sh "$SRC_DIR/tests/e2e/t0200-cache-perf-layout.sh" >"$T/t0200.out" 2>&1
check_eq "a test needing a broken perf exits 77 (SKIP)" 77 "$?"
check "... and says SKIP with perf's own error" \
	grep -q 'SKIP: perf is broken here.*assertion failed at util/build-id.c:1010' "$T/t0200.out"
check "... and no check failed" sh -c "! grep -q '^not ok' '$T/t0200.out'"

# the helpers themselves, as a test with an optional peer part uses them
PATH=$FAKEPATH SRC_DIR=$SRC_DIR PROGS_DIR=$PROGS_DIR sh -c '
	. "$SRC_DIR/tests/e2e/lib.sh"
	if peer_works bpftrace; then echo "WORKS"; else peer_skip_part bpftrace "the comparison"; fi
' >"$T/part.out" 2>&1
check "an optional bpftrace part says SKIP (part) with bpftrace's error" \
	grep -q 'SKIP (part): the comparison: bpftrace is broken here.*stack smashing' "$T/part.out"

# the real perf, where it works: the check passes (it says nothing when the peer works)
if command -v perf >/dev/null 2>&1; then
	if peer_works perf; then
		pass "the real perf records a uprobe in $T"
	else
		say "note: the real perf is broken here too: $PEER_ERR"
	fi
fi

# a benchmark's table: "peer broken"
PATH=$FAKEPATH SRC_DIR=$SRC_DIR BENCH_OUT="$T/bench.json" BENCH_WORK="$T/bw" SDTRACE="$SDTRACE" sh -c '
	set -eu
	. "$SRC_DIR/bench/common.sh"
	peer_ok perf || peer_broken perf
' "$SRC_DIR/bench/b99-fake.sh" >"$T/bench.out" 2>&1
check "a benchmark emits a 'peer broken' row with perf's error" \
	grep -q '"peer": "peer broken: perf is broken here.*build-id.c:1010' "$T/bench.json"
python3 "$SRC_DIR/bench/report.py" "$T/bench.json" >"$T/table.md" 2>&1
check "... which the table shows" grep -q 'peer broken' "$T/table.md"
finish
