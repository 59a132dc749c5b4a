#!/bin/sh
# report --latency, --format=chrome and --format=csv on synthetic recordings (no tracefs, no
# root): every pairing case (an end before any start, nesting, recursion, every naming convention,
# crossing pairs, starts never ended, a renamed thread, strings with commas and quotes), checked
# by report-check.py against report --json, and the exact numbers of the scenario checked here.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/report-lib.sh"
need_cmd python3
: "${HELPER_DIR:=$BUILD_DIR/tests/helper}"
PAIRS=$HELPER_DIR/sdtrace-test-pairs
need_file "$PAIRS"
cd "$T" || exit 1

check "write the pairs scenario" "$PAIRS" -o pairs.data pairs
exports pairs.data auto
exports pairs.data explicit --pair '%app:req__start,%app:req__done' --pair '%app:io_*t,app:io_end'

# the numbers of the scenario, known by construction
check "latency: exact numbers of each pair" python3 -c '
import json
got = {p["name"]: p for p in json.load(open("auto/latency.json"))["pairs"]}
assert sorted(got) == ["app:fn", "app:io", "app:req", "app:step"], sorted(got)
r = got["app:req"]
assert (r["count"], r["min_ns"], r["max_ns"], r["unmatched_starts"], r["unmatched_ends"]) == \
    (2, 2301, 8770, 1, 1), r
s = got["app:step"]
assert (s["count"], s["min_ns"], s["max_ns"], s["unmatched_starts"]) == (3, 300, 2050, 1), s
assert abs(s["p50_ns"] - 710) * 128 <= 710, s  # step 2: 4880 - 4170
f = got["app:fn"]
assert (f["count"], f["min_ns"], f["max_ns"]) == (3, 70, 330), f
assert abs(f["p50_ns"] - 190) * 128 <= 190, f  # within the stated precision
assert got["app:io"]["count"] == 1 and got["app:io"]["min_ns"] == 1520, got["app:io"]
assert "lonely" not in json.dumps(got)
'
check "latency --pair: only the pairs named" python3 -c '
import json
got = {p["name"]: p for p in json.load(open("explicit/latency.json"))["pairs"]}
assert sorted(got) == ["%app:io_*t,app:io_end", "%app:req__start,%app:req__done"], sorted(got)
assert got["%app:req__start,%app:req__done"]["count"] == 2
'
check_eq "--pair: a spec's typed list may hold commas" 2 "$("$SDTRACE" report -i pairs.data \
	--latency --json --pair '%app:req__start(id, url:string),%app:req__done' |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["pairs"][0]["count"])')"
check "chrome: the crossing io/req is split, the unmatched end dropped" python3 -c '
import json
o = json.load(open("auto/chrome.json"))["otherData"]
assert (o["split"], o["dropped_ends"], o["closed_at_end"], o["instants"]) == (1, 1, 3, 4), o
'
check "chrome: stderr counts what was dropped and closed" \
	grep -q "1 pair ends without their start" auto/chrome.err
check "chrome: the renamed thread is named again" \
	grep -q '"name":"thread_name","pid":500,"tid":501,"args":{"name":"pairs-renamed"}' \
	auto/chrome.json
check "csv: a string with a comma and quotes is quoted (RFC 4180)" \
	grep -q '"/a,""quoted"""' auto/events.csv
check "csv: lines end in CRLF" sh -c 'head -n 1 auto/events.csv | od -c | grep -q "\\\\r  \\\\n"'

# a thread's events out of time order in the file (two CPUs' rings): paired in time order
check "write the migrate scenario" "$PAIRS" -o migrate.data migrate
exports migrate.data migrate
check "migrate: both pairs matched in time order, nothing unmatched" python3 -c '
import json
p = json.load(open("migrate/latency.json"))["pairs"]
assert [(x["name"], x["count"], x["min_ns"], x["max_ns"], x["unmatched_starts"], x["unmatched_ends"])
        for x in p] == [("mig:work", 2, 300, 400, 0, 0)], p
o = json.load(open("migrate/chrome.json"))["otherData"]
assert (o["dropped_ends"], o["closed_at_end"]) == (0, 0), o
'

# the text: every pair, its unmatched counts, histogram bars fitted to $COLUMNS
check_eq "latency text: one block per pair" "4" "$(grep -c '^app:' auto/latency.txt)"
check "latency text: unmatched are reported" grep -q "unmatched: 1 starts (never ended), 1 ends" \
	auto/latency.txt
check_eq "latency text: bars fit COLUMNS=100" "100" \
	"$(grep '|$' auto/latency.txt | awk '{ if (length($0) > m) m = length($0) } END { print m }')"
check_eq "latency text: COLUMNS=60" "60" \
	"$(COLUMNS=60 "$SDTRACE" report -i pairs.data --latency | grep '|$' |
		awk '{ if (length($0) > m) m = length($0) } END { print m }')"
check_eq "latency text: not a tty, no COLUMNS: 80" "80" \
	"$(env -u COLUMNS "$SDTRACE" report -i pairs.data --latency | grep '|$' |
		awk '{ if (length($0) > m) m = length($0) } END { print m }')"

# a recording without pairs: an empty list, and a hint on stderr
check "write a recording without pairs" "$HELPER_DIR/sdtrace-test-write" -o ints.data ints
check_eq "no pairs: --latency --json lists none" "[]" \
	"$("$SDTRACE" report -i ints.data --latency --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["pairs"])')"
check "no pairs: --latency says so" sh -c \
	'"$SDTRACE" report -i ints.data --latency 2>&1 >/dev/null | grep -q "no probe pairs"'
exports ints.data ints
# every other synthetic scenario through the exports (strings, floats, unavailable args, ...)
check "write the other scenarios" "$HELPER_DIR/sdtrace-test-write" -o mixed.data ints floats \
	strings unavailable rebase many lost
exports mixed.data mixed

# usage errors: exit 2, nothing on stdout; -o leaves no file behind on failure
for bad in "--format=xml" "--pair nocomma --latency" "--pair a,b" "--format=chrome --json" \
	"--format=csv --latency" "--latency --stats" "--pair %a:x,%b:y,%c:z --latency"; do
	# shellcheck disable=SC2086
	"$SDTRACE" report -i pairs.data $bad >bad.out 2>bad.err
	check_eq "usage error: report $bad exits 2" "2" "$?"
	check_eq "usage error: report $bad prints nothing on stdout" "" "$(cat bad.out)"
done
"$SDTRACE" report -i missing.data --format=chrome -o out.json 2>/dev/null
check_eq "a missing input: exit 1" "1" "$?"
check "a missing input: -o FILE not created" test ! -e out.json
check_eq "a missing input: no temporary file left" "" "$(ls out.json.tmp.* 2>/dev/null)"
echo keep >old.json
"$SDTRACE" report -i missing.data --format=chrome -o old.json 2>/dev/null
check_eq "a failed report leaves an existing -o FILE as it was" "keep" "$(cat old.json)"
check "-o also for the text report" "$SDTRACE" report -i pairs.data -o text.out
check_eq "-o: the text report in the file" "26" "$(wc -l <text.out)"

# --help documents it all
"$SDTRACE" report --help >help.txt
for word in --latency --pair --format=FMT chrome csv "-o, --output" p99 __begin "ui.perfetto.dev" \
	"within 1/128"; do
	check "report --help mentions $word" grep -q -e "$word" help.txt
done
finish
