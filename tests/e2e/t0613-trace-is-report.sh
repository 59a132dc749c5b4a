#!/bin/sh
# SPDX-License-Identifier: MIT
# `sdtrace trace` prints what `sdtrace record` + `sdtrace report` print for the same run of a
# program: the text lines and the JSON Lines, byte for byte but for what differs from one run to
# the next (pid, tid, cpu, time). trace decodes in the recorder's sink (sdt_trace_decoder), report
# from the file: integers of every size and sign, floats, globals rebased in a PIE, strings, a
# shared library's probes, one name inlined at three sites, unavailable arguments, names and
# types from a spec (hex, string).
# uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
uprobes_guard "^[p-r]:[^ ]+ $PROGS_DIR/"
cd "$T" || exit 1

# the variable parts of a text line: "comm pid/tid [cpu] secs.nsecs: ..."
MASK_TEXT='s/  *[0-9][0-9]*\/[0-9][0-9]*  *\[[0-9]*\]  *[0-9]*\.[0-9]*: / P\/T [C] S.N: /'
# ... and of a JSON line
mask_json() {
	python3 -c '
import json, sys
for line in sys.stdin:
    if not line.startswith("{"):
        continue
    ev = json.loads(line)
    for k in ("time_ns", "cpu", "pid", "tid"):
        ev[k] = 0
    print(json.dumps(ev, sort_keys=False))'
}

# same NAME PROG ARGS...: trace and record + report PROG with ARGS (-x, -e), text and JSON
same() {
	tn=$1
	prog=$PROGS_DIR/$2
	shift 2
	need_file "$prog"
	"$SDTRACE" trace "$@" -- "$prog" 2 >"$tn.trace" 2>"$tn.trace.err"
	check_eq "$tn: trace exits 0" 0 $?
	"$SDTRACE" trace --json "$@" -- "$prog" 2 >"$tn.tjson" 2>"$tn.tjson.err"
	check_eq "$tn: trace --json exits 0" 0 $?
	"$SDTRACE" record -o "$tn.data" "$@" -- "$prog" 2 >/dev/null 2>"$tn.rec.err"
	check_eq "$tn: record exits 0" 0 $?
	"$SDTRACE" report -i "$tn.data" >"$tn.report" 2>"$tn.report.err"
	check_eq "$tn: report exits 0" 0 $?
	"$SDTRACE" report -i "$tn.data" --json >"$tn.rjson" 2>"$tn.rjson.err"
	check_eq "$tn: report --json exits 0" 0 $?
	# the program's own lines ("probe ...") are on trace's stdout too
	grep -v '^probe ' "$tn.trace" | sed "$MASK_TEXT" >"$tn.trace.m"
	sed "$MASK_TEXT" "$tn.report" >"$tn.report.m"
	mask_json <"$tn.tjson" >"$tn.tjson.m"
	mask_json <"$tn.rjson" >"$tn.rjson.m"
	check "$tn: events were printed" test -s "$tn.report.m"
	check_eq "$tn: trace's text is report's" "" "$(diff "$tn.report.m" "$tn.trace.m")"
	check_eq "$tn: trace's JSON is report's" "" "$(diff "$tn.rjson.m" "$tn.tjson.m")"
}

same sizes prog-sizes -x "$PROGS_DIR/prog-sizes" -e '%sizes:*'
same float prog-float-O0 -x "$PROGS_DIR/prog-float-O0" -e '%float:*'
same inline prog-inline -x "$PROGS_DIR/prog-inline" -e '%*:*'
same globals prog-globals-pie -x "$PROGS_DIR/prog-globals-pie" -e '%globals:*'
same unavail prog-rec-unavail -x "$PROGS_DIR/prog-rec-unavail" -e '%*:*'
same lib prog-uselib -x "$PROGS_DIR/prog-uselib" -x "$PROGS_DIR/libprog-lib.so" \
	-e '%uselib:*' -e '%lib:gated' -e '%lib:call(round:s64, name:string)'
same typed prog-string -x "$PROGS_DIR/prog-string" \
	-e '%string:message(msg:string, len:x32)' -e '%string:literal(text:string)'
finish
