#!/bin/sh
# record --call-graph=dwarf at %postgresql:query__start of PostgreSQL 15 (Debian's: no .symtab)
# under pgbench: a throw-away cluster in $T as t1000 makes it
# (stopped on every path), `record -a -x postgres` while `pgbench -n -c 1 -t 20` runs. Each of
# our backend's queries (its pid from the server's log) is unwound to
#	main;PostmasterMain;...;PostgresMain;[exec_simple_query, static: FILE+0xOFF]
# checked by the exported names (exec_simple_query and ServerLoop are static: without .symtab or
# a debug file they print as [FILE+0xOFF]); what -g (fp) gives on the same run is said (on
# this machine's postgres 15 fp reaches main too: 142 of 142 queries, without libc's frames).
# engine: tracefs
. "$(dirname "$0")/pg-lib.sh"
# our backends forked since log line $1 (log_connections, log_line_prefix %p:)
backends() { tail -n "+$1" "$PGT/log" | sed -n 's/^\([0-9]*\):.*connection authorized.*/\1/p' | sort -u; }

# record MODE OUT: record -a -x postgres with MODE while pgbench runs 20 transactions
pg_record() {
	from=$(($(log_lines) + 1))
	$FOREGROUND "$SDTRACE" record $1 -o "$2" -a -x "$PG_BIN/postgres" \
		-e %postgresql:query__start >"$2.out" 2>"$2.err" &
	rp=$!
	at_exit "kill -INT $rp 2>/dev/null; wait $rp 2>/dev/null"
	if check "record $1 is armed" armed "$rp"; then
		"$PG_BIN/pgbench" -n -c 1 -t 20 >"$2.pgbench" 2>&1
		check_eq "pgbench -c 1 -t 20 ($1)" 0 $?
	fi
	kill -INT "$rp"
	wait "$rp"
	check_eq "record $1: SIGINT ends it, exit 0" 0 $?
	backends "$from" >"$2.pids"
}

pg_record --call-graph=dwarf d.sdt
"$SDTRACE" report --format=folded -i d.sdt >d.txt 2>d.err
check_eq "report --format=folded: exit 0" 0 $?
# pgbench's script: 7 statements a transaction, plus its few setup queries
"$SDTRACE" report -g -i d.sdt >d.g 2>&1
python3 - d.g d.sdt.pids >d.checks <<'EOF2'
import re, sys
pids = {l.strip() for l in open(sys.argv[2]) if l.strip()}
events, cur = [], None
for line in open(sys.argv[1]):
    if not line.startswith("\t"):
        m = re.search(r"\s(\d+)/\d+\s", line)
        cur = {"pid": m.group(1) if m else None, "frames": []}
        events.append(cur)
    elif cur is not None and line.strip():
        cur["frames"].append(line.split()[1].split("+0x")[0])
ours = [e for e in events if e["pid"] in pids]
good = [e for e in ours if e["frames"] and "PostgresMain" in e["frames"]
        and "PostmasterMain" in e["frames"] and e["frames"][-1] in ("main", "_start")]
print(len(ours), len(good))
EOF2
read -r ours good <d.checks
check "dwarf: our backend's queries recorded (${ours:-?})" test "${ours:-0}" -ge 140
check_eq "dwarf: each of them under main;PostmasterMain;...;PostgresMain" "${ours:-x}" "${good:-y}"
[ "${ours:-x}" = "${good:-y}" ] || say "the stacks: $(sort -k2 -n d.txt | tail -n 3 | cut -c 1-1500)"
check "dwarf: folded holds main;PostmasterMain;...;PostgresMain;" \
	grep -Eq '(^|;)main;PostmasterMain;([^;]+;)*PostgresMain;' d.txt

pg_record -g f.sdt
"$SDTRACE" report --format=folded -i f.sdt >f.txt 2>&1
# what frame pointers give on the same build: said, not asserted (some of postgres's functions
# keep %rbp as a frame pointer, so a walk may get through by chance)
say "fp on the same run: $(awk '/main;PostmasterMain;/ { n += $NF } { t += $NF } END { printf "%d of %d", n, t }' f.txt) queries under main;PostmasterMain; its stacks: $(sort -k2 -n f.txt | tail -n 2 | cut -c 1-600)"
real_unchanged "$rp"
finish
