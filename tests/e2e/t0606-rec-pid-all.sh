#!/bin/sh
# record -p PID on a running program (prog-wait, which fires its probes and its library's on
# SIGUSR1): what it fires after the attach is recorded, with its values, and nothing from before;
# the recording stops when the process exits, or on SIGINT (the process is left running); a
# process that moved to another CPU has both events (report's order across CPUs is said).
# record -a --duration 1: system-wide, two runs of a program started by someone else are
# recorded, and it stops by itself. uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
P=$PROGS_DIR
W=$P/prog-wait
need_file "$W" "$P/prog-sizes"
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ $PROGS_DIR/"
CMP="$SRC_DIR/tests/e2e/rec-compare.py"
"$SDTRACE" list --json -x "$W" >w.list
"$SDTRACE" list --json -x "$P/libprog-lib.so" >lib.list
"$SDTRACE" list --json -x "$P/prog-sizes" >sizes.list

# tick OUT N: N rounds of the prog-wait ($wpid) writing OUT
tick() { prog_wait_ticks "$wpid" "$1" "$2"; }

# -p, ended by the process's exit
"$W" "$T/w1.pid" >w1.out 2>&1 &
wpid=$!
at_exit "kill -9 $wpid 2>/dev/null"
wait_file w1.pid
tick w1.out 1 # round 0: before the attach
"$SDTRACE" record -o p1.data -p "$wpid" -e "$W:%wait:tick" -e "$P/libprog-lib.so:%lib:*" \
	>p1.out 2>p1.err &
rpid=$!
at_exit "kill -9 $rpid 2>/dev/null"
check "-p: armed" armed "$rpid" "$W"
tick w1.out 3
kill -TERM "$wpid"
wait "$wpid"
wait "$rpid"
check_eq "-p: stops when the process exits, exit 0" 0 $?
"$SDTRACE" report -i p1.data --json >p1.json
grep -v 'arg1=0\( \|$\)' w1.out >w1.after
check_eq "-p: the program fired 3 rounds after the attach" 9 "$(grep -c '^probe' w1.after)"
check "-p: every event after the attach, with its values, none before" \
	python3 "$CMP" --list w.list --list lib.list w1.after p1.json
check "-p: says how many" grep -q "^sdtrace: 9 events recorded in 'p1.data'$" p1.err

# -p with the event named without a binary (found through /proc/PID/exe), ended by SIGINT
"$W" "$T/w2.pid" >w2.out 2>&1 &
wpid=$!
at_exit "kill -9 $wpid 2>/dev/null"
wait_file w2.pid
$FOREGROUND "$SDTRACE" record -o p2.data -p "$wpid" -e %wait:tick \
	-e "$P/libprog-lib.so:%lib:gated" >p2.out 2>p2.err &
rpid=$!
at_exit "kill -9 $rpid 2>/dev/null"
check "-p, SIGINT: armed" armed "$rpid" "$W"
tick w2.out 2
kill -INT "$rpid"
wait "$rpid"
check_eq "-p, SIGINT: exit 0" 0 $?
check "-p, SIGINT: the process is left running" kill -0 "$wpid"
"$SDTRACE" report -i p2.data --json >p2.json
grep -E '^probe (wait:tick|lib:gated)' w2.out >w2.ticks
check "-p, SIGINT: both rounds recorded" python3 "$CMP" --list w.list --list lib.list w2.ticks \
	p2.json
check_eq "-p, SIGINT: the library's gate was raised while recording" 2 \
	"$(grep -c '^probe lib:gated' w2.out)"
tick w2.out 1
check_eq "-p, SIGINT: the process still runs its rounds after" 3 \
	"$(grep -c '^probe wait:tick' w2.out)"
check_eq "-p, SIGINT: the gate is lowered again after" 2 "$(grep -c '^probe lib:gated' w2.out)"
kill -TERM "$wpid"
wait "$wpid"

# the process moves to another CPU between two rounds: both are recorded, on their CPUs
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
	taskset -c 1 "$W" "$T/w3.pid" >w3.out 2>&1 &
	wpid=$!
	at_exit "kill -9 $wpid 2>/dev/null"
	wait_file w3.pid
	$FOREGROUND "$SDTRACE" record -o p3.data -p "$wpid" -e "$W:%wait:tick" >p3.out 2>p3.err &
	rpid=$!
	at_exit "kill -9 $rpid 2>/dev/null"
	check "moved: armed" armed "$rpid" "$W"
	tick w3.out 1
	taskset -pc 0 "$wpid" >/dev/null
	tick w3.out 1
	kill -INT "$rpid"
	wait "$rpid"
	kill -TERM "$wpid"
	wait "$wpid"
	"$SDTRACE" report -i p3.data --json | python3 -c '
import json, sys
ev = [json.loads(l) for l in sys.stdin]
print(" ".join("%d:%d" % (e["args"][0], e["cpu"]) for e in ev))
print(" ".join("%d:%d" % (e["args"][0], e["cpu"]) for e in sorted(ev, key=lambda e: e["time_ns"])))
' >p3.order 2>&1
	check_eq "moved: two rounds, on CPU 1 then on CPU 0" "0:1 1:0" "$(sed -n 2p p3.order)"
	# Known: report (text, --json) prints the file order, each CPU's ring as it was drained;
	# only --latency and --format=chrome reorder by time. Said here, not failed on.
	[ "$(sed -n 1p p3.order)" = "0:1 1:0" ] ||
		say "NOTE: report gives the moved process's events out of time order: $(sed -n 1p p3.order)"
else
	say "taskset or a second CPU is missing: the CPU move is not tested"
fi

# -a --duration 1
start=$(date +%s)
"$SDTRACE" record -o all.data -a --duration 1 -e "$P/prog-sizes:%sizes:*" >all.out 2>all.err &
rpid=$!
at_exit "kill -9 $rpid 2>/dev/null"
check "-a: armed" armed "$rpid" "$P/prog-sizes"
"$P/prog-sizes" 2 >s1.out
"$P/prog-sizes" 3 >s2.out
wait "$rpid"
check_eq "-a --duration 1: exit 0" 0 $?
end=$(date +%s)
check "-a --duration 1: stopped by itself within 10 s" test $((end - start)) -le 10
cat s1.out s2.out >s.out
"$SDTRACE" report -i all.data --json >all.json
check "-a: both runs recorded, every value" python3 "$CMP" --unordered --list sizes.list s.out all.json
check_eq "-a: two processes" 2 "$(python3 -c '
import json
print(len({json.loads(l)["pid"] for l in open("all.json")}))')"
uprobes_unchanged
finish
