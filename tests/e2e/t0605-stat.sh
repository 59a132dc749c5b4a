#!/bin/sh
# sdtrace stat: the count of each event is the number of times the program says it fired it
# (integer sizes, three inlined sites of one name added up, semaphore-gated probes, a shared
# library's probes, 12 args); --json parses, with the command's exit status; the text table says
# the same. uprobe_events is left as it was.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd python3
P=$PROGS_DIR
need_file "$P/prog-sizes"
cd "$T" || exit 1
uprobes_guard "^[p-r]:[^ ]+ $PROGS_DIR/"

# expected PROG.out: "provider name count" lines, sorted, from the program's own lines
expected() {
	sed -n 's/^probe \([^:]*\):\([^ ]*\).*/\1 \2/p' "$1" | sort | uniq -c |
		awk '{print $2, $3, $1}'
}
# from_json FILE: the same from stat --json (its last line: the command prints before it)
from_json() {
	tail -n 1 "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for e in d["events"]:
    assert type(e["count"]) is int, e
    print(e["provider"], e["name"], e["count"])
print("exit_status", d["exit_status"])' 2>&1
}
# stat NAME ROUNDS PROG SPEC...: stat --json, then stat (text), compare both with the program
stat() {
	tn=$1
	rounds=$2
	prog=$3
	shift 3
	"$SDTRACE" stat --json "$@" -- "$P/$prog" "$rounds" >"$tn.json" 2>"$tn.err"
	check_eq "$tn: stat --json exits 0" 0 $?
	grep '^probe ' "$tn.json" >"$tn.out"
	check "$tn: the program fired" test -s "$tn.out"
	check_eq "$tn: --json counts are the program's" \
		"$(expected "$tn.out"; echo "exit_status 0")" "$(from_json "$tn.json")"
	"$SDTRACE" stat "$@" -- "$P/$prog" "$rounds" >"$tn.txt" 2>"$tn.terr"
	check_eq "$tn: stat exits 0" 0 $?
	check_eq "$tn: the table's counts are the program's" "$(expected "$tn.out")" \
		"$(sed -n 's/^ *\([0-9][0-9]*\)  %\([^:]*\):\(.*\)$/\2 \3 \1/p' "$tn.txt")"
	check_eq "$tn: stderr quiet" "" "$(grep -v 'left by a killed sdtrace' "$tn.err" "$tn.terr")"
}

stat sizes 1000 prog-sizes -x "$P/prog-sizes" -e '%sizes:*'
stat inline 7 prog-inline -x "$P/prog-inline" -e '%inline:*'
check_eq "inline: the three sites of inline:hit are added up" "inline hit 21" \
	"$(from_json inline.json | grep hit)"
stat sem 5 prog-semaphore -x "$P/prog-semaphore" -e '%sem:*'
check_eq "sem: the gated probes fired (semaphores raised)" "sem first 5" \
	"$(from_json sem.json | grep first)"
stat sem-one 5 prog-semaphore -x "$P/prog-semaphore" -e '%sem:always' -e '%sem:second'
check_eq "sem-one: only the probed gate is raised (mask 2)" 5 "$(grep -c 'sem:always .* arg2=2$' sem-one.out)"
stat lib 4 prog-uselib -e "$P/prog-uselib:%uselib:*" -e "$P/libprog-lib.so:%lib:*"
stat many 3 prog-many-args -x "$P/prog-many-args" -e '%many:*'

# the command's exit status
"$SDTRACE" stat --json -x "$P/prog-sizes" -e '%sizes:min' -- \
	sh -c "'$P/prog-sizes' 2 >/dev/null; exit 3" >exit.json 2>exit.err
check_eq "exit status: stat exits with the command's" 3 $?
check_eq "exit status: --json has the command's" "sizes min 2
exit_status 3" "$(from_json exit.json)"
"$SDTRACE" stat -x "$P/prog-sizes" -e '%sizes:min' -- sh -c "'$P/prog-sizes' 2 >/dev/null; exit 3" \
	>exit.txt 2>exit.err
check_eq "exit status: the text form says it" "sdtrace: the command exited with status 3" \
	"$(grep -v 'left by a killed sdtrace' exit.err)"
uprobes_unchanged
finish
