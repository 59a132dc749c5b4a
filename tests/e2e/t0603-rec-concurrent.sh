#!/bin/sh
# Two sdtrace record sessions at once on the same events of one process (-p) both get every
# event, and leave nothing behind; `perf probe` events made before on the same program (the SDT
# event wait:tick at the same offset, and a function probe) are left untouched by both, then
# deleted by this test with `perf probe -d` (perf with a private cache and HOME).
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
need_peer perf
W=$PROGS_DIR/prog-wait
need_file "$W"
cd "$T" || exit 1
PAT="^[p-r]:[^ ]+ $PROGS_DIR/"
uprobes_guard "$PAT"
grep -q '^p:sdt_wait/tick ' "$TRACEFS/uprobe_events" &&
	skip "a perf probe sdt_wait:tick exists already (another test run?)"

# perf's events, first
FN=t0603_$$
perf_private buildid-cache --add "$W" >perf.out 2>&1
# (perf probe takes 5-15 s a call here: one call adds both, one deletes both)
at_exit "grep -q '^p:probe_prog/$FN ' $TRACEFS/uprobe_events &&
	perf_private probe -q -d sdt_wait:tick -d probe_prog:$FN >/dev/null 2>&1"
perf_private probe -x "$W" -a sdt_wait:tick -a "$FN=main" >>perf.out 2>&1
grep -E "^[p-r]:(sdt_wait/tick|probe_prog/$FN) " "$TRACEFS/uprobe_events" >perf.lines
check_eq "perf probe made its two events" 2 "$(grep -c . perf.lines)"

"$W" "$T/w.pid" >w.out 2>&1 &
wpid=$!
at_exit "kill -9 $wpid 2>/dev/null"
for s in a b; do
	"$SDTRACE" record -o "$s.data" -p "$wpid" -e "$W:%wait:tick" \
		-e "$PROGS_DIR/libprog-lib.so:%lib:*" >"$s.out" 2>"$s.err" &
	eval "r_$s=\$!"
	eval "at_exit \"kill -9 \$r_$s 2>/dev/null\""
done
# shellcheck disable=SC2154
check "session a armed" armed "$r_a" "$W"
check "session b armed" armed "$r_b" "$W"
if tracefs_engine; then
	check_eq "two groups of ours on the program" 2 \
		"$(grep -E "^p:sdtrace_($r_a|$r_b)_" "$TRACEFS/uprobe_events" | grep " $W:" |
			sed 's/\/.*//' | sort -u | wc -l)"
fi
i=0
while [ "$i" -lt 5 ]; do
	kill -USR1 "$wpid"
	i=$((i + 1))
	n=0
	while [ "$(grep -c '^probe wait:tick' w.out)" -lt "$i" ] && [ "$n" -lt 100 ]; do
		sleep 0.05
		n=$((n + 1))
	done
done
kill -TERM "$wpid"
wait "$wpid"
check_eq "the program ended" 0 $?
for s in a b; do
	eval "r=\$r_$s"
	wait "$r"
	check_eq "session $s: ends with the process, exit 0" 0 $?
	"$SDTRACE" report -i "$s.data" --json >"$s.json"
	"$SDTRACE" list --json -x "$W" >w.list
	"$SDTRACE" list --json -x "$PROGS_DIR/libprog-lib.so" >lib.list
	check "session $s: every event with its values (5 x wait:tick, lib:call, lib:gated)" \
		python3 "$SRC_DIR/tests/e2e/rec-compare.py" --list w.list --list lib.list w.out \
		"$s.json"
	[ "$(grep -c '^probe lib:gated' w.out)" = 5 ] ||
		fail "the gated probe fired each round" "$(cat w.out)"
done
check_eq "perf's events untouched" "$(cat perf.lines)" \
	"$(grep -E "^[p-r]:(sdt_wait/tick|probe_prog/$FN) " "$TRACEFS/uprobe_events")"
perf_private probe -d sdt_wait:tick -d "probe_prog:$FN" >>perf.out 2>&1
check_eq "perf probe -d deleted perf's events" "" \
	"$(grep -E "^[p-r]:(sdt_wait/tick|probe_prog/$FN) " "$TRACEFS/uprobe_events")"
uprobes_unchanged
finish
