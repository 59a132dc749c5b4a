#!/bin/sh
# report --filter on a real recording of prog-filter (200 rounds): each filter's events are the
# ones the program's own lines say pass it (awk over its output: the ground truth), in text,
# JSON, CSV and --stats; kinds without a name are left out with a warning (an error when all
# lack it); --latency counts the pairs whose start passes (the end has no query: it follows);
# a malformed filter is a usage error that points at its column.
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-filter
need_file "$P"
need_tracefs
uprobes_guard
cd "$T" || exit 1

"$SDTRACE" record -e "$P:%filt:req(id:s32,delta:s64,query:string)" \
	-e "$P:%filt:job__start(id:s32,query:string)" -e "$P:%filt:job__done" -- "$P" 200 \
	>prog.out 2>rec.err
check_eq "record: exit 0" 0 $?
check "record: 600 events" grep -q '600 events recorded' rec.err

# the program's own lines of filt:req, "ID DELTA QUERY", and of job__start
awk '$2 == "filt:req" { sub("arg1=", "", $3); sub("arg2=", "", $4); sub("arg3=", "", $5);
	print $3, $4, $5 }' prog.out >req.txt
check_eq "ground truth: 200 requests" 200 "$(wc -l <req.txt)"

# ids of the filt:req events `report --filter $1` prints, in order
ids() {
	"$SDTRACE" report --filter "$1" 2>f.err | grep ' filt:req: ' | sed 's/.* id=\([0-9]*\) .*/\1/'
}
truth() { awk "$1 { print \$1 }" req.txt; }

check_eq "delta > 100 && query ~ \"SELECT*\"" \
	"$(truth '$2 > 100 && $3 ~ /^SELECT/')" "$(ids 'delta > 100 && query ~ "SELECT*"')"
check "warns: job__start has no delta, left out" \
	grep -q "filt:job__start has no argument 'delta' (its arguments: id, query): its events were left out" f.err
check_eq "arg1 < 10 (by number)" "$(truth '$1 < 10')" "$(ids 'arg1 < 10 && arg2 > -1000')"
check_eq "!(query == \"INSERT_b\") && delta < 0" \
	"$(truth '$3 != "INSERT_b" && $2 < 0')" "$(ids '!(query == "INSERT_b") && delta < 0')"
check_eq "delta <= -126 || id == 199 || query !~ '*_*'" \
	"$(truth '$2 <= -126 || $1 == 199')" "$(ids "delta <= -126 || id == 199 || query !~ '*_*'")"
check_eq "id & 0x3 == 3 (mask)" "$(truth '$1 % 4 == 3')" "$(ids 'id & 0x3 == 3')"
check_eq "comm == \"prog-filter\"" 200 "$(ids 'comm == "prog-filter" && id >= 0' | wc -l)"
check_eq "comm ~ \"bash*\"" 0 "$(ids 'comm ~ "bash*" && id >= 0' | wc -l)"
pid=$("$SDTRACE" report --json | head -n 1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])')
check_eq "pid == PID && tid == PID" 200 "$(ids "pid == $pid && tid == $pid && id >= 0" | wc -l)"

# kinds lacking a name: an error when all lack it
"$SDTRACE" report --filter 'latency > 3' >n.out 2>n.err
check_eq "no kind has 'latency': exit 2" 2 $?
check "no kind has 'latency': said" grep -q 'no event of the recording has what the filter uses' n.err

# JSON, CSV, --stats
check_eq "--json: the same events" "$(truth '$2 > 600')" \
	"$("$SDTRACE" report --json --filter 'delta > 600' 2>/dev/null |
		python3 -c 'import json,sys; [print(json.loads(l)["args"][0]) for l in sys.stdin]')"
check_eq "--format=csv: a header and the rows" "$(($(truth '$2 > 600' | wc -l) + 1))" \
	"$("$SDTRACE" report --format=csv --filter 'delta > 600' 2>/dev/null | wc -l)"
"$SDTRACE" report --stats --filter 'query ~ "SELECT*"' >s.out 2>/dev/null
sel=$(truth '$3 ~ /^SELECT/' | wc -l)
check "--stats: filt:req counts the SELECTs" grep -Eq "^ +$sel  filt:req " s.out
check "--stats: job__start counts them too" grep -Eq "^ +$sel  filt:job__start " s.out
check "--stats: the rest filtered out" grep -Eq "^ +$((600 - 2 * sel))  filtered out" s.out

# --latency: job__done has no query and follows its start
"$SDTRACE" report --latency --json --filter 'query ~ "SELECT*"' >l.json 2>l.err
check_eq "--latency --filter: exit 0" 0 $?
check_eq "--latency: the SELECT jobs" "$sel" \
	"$(python3 -c 'import json,sys; print(json.load(open("l.json"))["pairs"][0]["count"])')"
check "--latency: job__done follows" grep -q "filt:job__done has no argument 'query'.*follow" l.err
check_eq "--latency without a filter: every job" 200 \
	"$("$SDTRACE" report --latency --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pairs"][0]["count"])')"

# errors
"$SDTRACE" report --filter 'delta >> 3' >e.out 2>e.err
check_eq "malformed: exit 2" 2 $?
check "malformed: the column" grep -q "filter 'delta >> 3': column 8: expected a number" e.err
check "malformed: a caret under it" grep -qx '         ^' e.err
"$SDTRACE" report --filter 'a == 1' --filter 'b == 2' >/dev/null 2>e2.err
check_eq "two --filter: exit 2" 2 $?
uprobes_unchanged
finish
