#!/bin/sh
# The engines: --engine=bpf records what tracefs records (values, strings) and the header says
# "engine: bpf"; one uprobe_multi link per binary (SDTRACE_BPF_NO_MULTI=1: a perf-event link per
# site, the same values); --engine=auto takes bpf here, and tracefs when the BPF probe check
# fails (SDTRACE_BPF_PROBE_FAIL=1, test-only), which the header and -v say; auto is the
# default; SDTRACE_ENGINE is the default, --engine wins over it; `stat` counts in the program's per-CPU counters; the program
# wakes the reader when its ring fills (nothing is lost though the reader never drains unwoken).
# A SIGKILLed BPF session leaves no link, program or map, and never touches uprobe_events.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
need_cmd bpftool
P=$PROGS_DIR
need_file "$P/prog-sizes" "$P/prog-wait" "$P/prog-string"
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ $PROGS_DIR/"
CMP="$SRC_DIR/tests/e2e/rec-compare.py"
unset SDTRACE_ENGINE SDTRACE_BPF_PROBE_FAIL SDTRACE_BPF_NO_MULTI
"$SDTRACE" list --json -x "$P/prog-sizes" >sizes.list
"$SDTRACE" list --json -x "$P/prog-string" >string.list

# engine NAME DATA: the header's engine line
engine() { "$SDTRACE" report -i "$1" --header | sed -n 's/^# engine: //p'; }

# rec NAME "ENV=V ..." [RECORD-OPTION...]: record prog-sizes 3 rounds, compare the values
rec() {
	tn=$1
	envs=$2
	shift 2
	# shellcheck disable=SC2086
	env $envs "$SDTRACE" record "$@" -o "$tn.data" -x "$P/prog-sizes" -e '%sizes:*' -- \
		"$P/prog-sizes" 3 >"$tn.out" 2>"$tn.err"
	check_eq "$tn: record exits 0" 0 $?
	"$SDTRACE" report -i "$tn.data" --json >"$tn.json"
	check "$tn: every value as the program passed it" python3 "$CMP" --list sizes.list \
		"$tn.out" "$tn.json"
}

if ! "$SDTRACE" record --engine=bpf -o probe.data -x "$P/prog-sizes" -e '%sizes:min' -- \
	"$P/prog-sizes" >/dev/null 2>probe.err; then
	skip "the BPF engine cannot run here: $(cat probe.err)"
fi

rec bpf "" --engine=bpf
check_eq "bpf: the header says engine bpf" bpf "$(engine bpf.data)"
rec tracefs "" --engine=tracefs
check_eq "tracefs: the header says engine tracefs" tracefs "$(engine tracefs.data)"
rec default ""
check_eq "no --engine: auto, which takes bpf here (the header gives no reason)" bpf \
	"$(engine default.data)"
"$SDTRACE" -v record -o v.data -x "$P/prog-sizes" -e '%sizes:min' -- "$P/prog-sizes" >/dev/null 2>v.err
check "no --engine -v: says the engine" grep -qx 'sdtrace: engine bpf' v.err
SDTRACE_BPF_PROBE_FAIL=1 "$SDTRACE" -v record -o vf.data -x "$P/prog-sizes" -e '%sizes:min' \
	-- "$P/prog-sizes" >/dev/null 2>vf.err
check "no --engine, BPF check failing, -v: tracefs and why" \
	grep -q '^sdtrace: engine tracefs (auto: the BPF engine is turned off' vf.err
check "  ... and tracefs's limit on strings" grep -q '^sdtrace: the tracefs engine keeps the strings of a hit within one 4096-byte page' vf.err
check_eq "  ... and the header says why" \
	"tracefs (auto: the BPF engine is turned off (bpf_off in the recorder's options, for tests))" \
	"$(engine vf.data)"
rec env-bpf SDTRACE_ENGINE=bpf
check_eq "SDTRACE_ENGINE=bpf is the default engine" bpf "$(engine env-bpf.data)"
rec env-override SDTRACE_ENGINE=bpf --engine=tracefs
check_eq "--engine wins over SDTRACE_ENGINE" tracefs "$(engine env-override.data)"
rec auto "" --engine=auto
check_eq "auto: bpf when the kernel allows it" bpf "$(engine auto.data)"
rec auto-fallback SDTRACE_BPF_PROBE_FAIL=1 --engine=auto
check_eq "auto with the BPF check failing: tracefs, and the header says so" \
	"tracefs (auto: the BPF engine is turned off (bpf_off in the recorder's options, for tests))" \
	"$(engine auto-fallback.data)"
rec nomulti SDTRACE_BPF_NO_MULTI=1 --engine=bpf
check_eq "perf-event fallback: engine bpf" bpf "$(engine nomulti.data)"
check "a bad engine is a usage error" sh -c \
	'"$0" record --engine=ebpf -e %sizes:min -x "$1" -- "$1" 2>&1; [ $? -eq 2 ]' \
	"$SDTRACE" "$P/prog-sizes"
SDTRACE_BPF_PROBE_FAIL=1 "$SDTRACE" record --engine=bpf -o forced.data -x "$P/prog-sizes" \
	-e '%sizes:min' -- "$P/prog-sizes" >/dev/null 2>forced.err
check_eq "--engine=bpf with the check failing: an error, not tracefs" 1 $?
check "  ... that names the reason" grep -q 'BPF' forced.err

# strings: typed string arguments through the BPF engine
"$SDTRACE" record --engine=bpf -o str.data -x "$P/prog-string" \
	-e '%string:message(msg:string, n:s32)' -e '%string:literal(s:string)' -- \
	"$P/prog-string" 3 >str.out 2>str.err
check_eq "strings: record exits 0" 0 $?
"$SDTRACE" report -i str.data --json >str.json
check "strings: the strings as the program passed them" python3 "$CMP" --list string.list \
	str.out str.json

# stat: per-CPU counters, no records
"$SDTRACE" stat --engine=bpf -x "$P/prog-sizes" -e '%sizes:*' -- "$P/prog-sizes" 5 \
	>stat.out 2>stat.err
check_eq "stat: exits 0" 0 $?
check "stat: sizes:min counted 5 times" grep -Eq '^ *5 +%sizes:min' stat.out

# the program wakes the reader: 150,000 records (13 MB) through a 1 MiB ring that is drained only
# when woken (--interval 60000, longer than the run). Without the wake-ups what fits in the ring
# arrives (10,923 records in a build that never woke it); with them all of them here (the writer
# is slowed by wake-ups once half the ring waits), 49,171 under ASan, whose reader is slower
"$SDTRACE" trace --engine=bpf --interval 60000 -m 256 -x "$P/prog-sizes" -e '%sizes:*' -- \
	sh -c '"$1" 50000 >/dev/null' sh "$P/prog-sizes" >wake.out 2>wake.err
check_eq "wake-ups: trace exits 0" 0 $?
n=$(grep -c 'sizes:' wake.out)
check "wake-ups: more than twice what the ring holds arrives ($n of 150000; lost: \
$(grep -o '[0-9]* events LOST' wake.err))" test "$n" -ge 22000

# links while recording, and nothing left after a SIGKILL
ids() { bpftool -j prog list | python3 -c '
import json, sys
print(" ".join(str(p["id"]) for p in json.load(sys.stdin) if p.get("name") == "sdt_hit"))'; }
links() { bpftool -j link list | python3 -c '
import json, sys
ids = set(int(x) for x in sys.argv[1].split())
print(" ".join(str(l["type"]) for l in json.load(sys.stdin) if l.get("prog_id") in ids))' "$1"; }
maps_of() { for id in $1; do bpftool -j prog show id "$id" 2>/dev/null; done | python3 -c '
import json, sys
out = []
for line in sys.stdin:
    line = line.strip()
    if line:
        out += json.loads(line).get("map_ids", [])
print(" ".join(map(str, out)))'; }
wait_pidfile() { wait_for 10 test -s "$1"; }
# new IDS_BEFORE IDS_NOW: the ids of NOW not in BEFORE
# held_ids PID: the sdt_hit programs process PID holds (its fds' prog_id), not those of another
# BPF user that loaded its own meanwhile (another sdtrace, a test of another build)
held_ids() { sed -n 's/^prog_id:[[:space:]]*//p' /proc/"$1"/fdinfo/* 2>/dev/null | sort -u |
	python3 -c 'import sys; a=set(sys.stdin.read().split()); print(" ".join(x for x in sys.argv[1].split() if x in a))' "$(ids)"; }
still_ids() { python3 -c 'import sys; a=set(sys.argv[2].split()); print(" ".join(x for x in sys.argv[1].split() if x in a))' "$1" "$(ids)"; }

for mode in multi nomulti; do
	rm -f "wait.$mode.pid"
	if [ $mode = nomulti ]; then
		SDTRACE_BPF_NO_MULTI=1 "$SDTRACE" record --engine=bpf -o "kill.$mode.data" \
			-x "$P/prog-wait" -e '%wait:*' -e "$P/libprog-lib.so:%lib:*" -- "$P/prog-wait" "wait.$mode.pid" \
			>"kill.$mode.out" 2>"kill.$mode.err" &
	else
		"$SDTRACE" record --engine=bpf -o "kill.$mode.data" -x "$P/prog-wait" \
			-e '%wait:*' -e "$P/libprog-lib.so:%lib:*" -- "$P/prog-wait" "wait.$mode.pid" \
			>"kill.$mode.out" 2>"kill.$mode.err" &
	fi
	rec_pid=$!
	wait_pidfile "wait.$mode.pid"
	sleep 0.3
	mine=$(held_ids "$rec_pid")
	check "$mode: the session holds its program" test -n "$mine"
	types=$(links "$mine")
	maps=$(maps_of "$mine")
	if [ $mode = multi ]; then
		# bpftool 7.1 shows the uprobe_multi link type by its number, 12
		check_eq "$mode: one uprobe_multi link per binary (prog-wait, libprog-lib.so)" \
			"12 12" "$(echo "$types" | tr ' ' '\n' | grep -E '^(12|uprobe_multi)$' |
				tr '\n' ' ' | sed 's/ $//')"
	else
		check "$mode: perf-event links, none uprobe_multi" sh -c \
			'echo "$1" | grep -q perf_event && ! echo "$1" | grep -Eq "(^| )(12|uprobe_multi)( |$)"' \
			sh "$types"
	fi
	kill -USR1 "$(cat "wait.$mode.pid")"
	sleep 0.3
	kill -KILL "$rec_pid"
	wait "$rec_pid" 2>/dev/null
	sleep 0.5
	left=$(still_ids "$mine")
	check_eq "$mode: after SIGKILL no program of the session is left" "" "$left"
	check_eq "$mode: ... nor a link" "" "$(links "$mine")"
	gone=""
	for m in $maps; do
		bpftool map show id "$m" >/dev/null 2>&1 && gone="$gone $m"
	done
	check_eq "$mode: ... nor a map" "" "$gone"
	check "$mode: some maps were there while recording" test -n "$maps"
	kill -TERM "$(cat "wait.$mode.pid")" 2>/dev/null
done
uprobes_unchanged "uprobe_events as it was"
finish
