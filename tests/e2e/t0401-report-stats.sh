#!/bin/sh
# sdtrace report --stats and many events: counts per event, lost events per CPU (never silent),
# the exit status, the size of a sample in the file (at most 32 bytes for a one-argument event,
# perf.data takes 80), and a report that streams (its memory does not grow with the events).
. "$(dirname "$0")/lib.sh"
need_cmd python3
: "${HELPER_DIR:=$BUILD_DIR/tests/helper}"
WRITE=$HELPER_DIR/sdtrace-test-write
need_file "$WRITE"
cd "$T" || exit 1

check "write 200000 events of 4 threads on 2 CPUs, then lost events, exit status 7" \
	"$WRITE" -o many.data -x 7 -n 200000 many lost
check "report --stats" sh -c '"$0" report -i many.data --stats >stats.out 2>stats.err' "$SDTRACE"
check_eq "stats: counts per event, total, lost per CPU, exit status" \
	"      events  provider:event  binary|      200000  test:hot  /usr/bin/test-prog|           3  test:lossy  /usr/bin/test-prog|      200003  total|          12  lost (cpu 0: 5) (cpu 3: 7)|command exit status: 7" \
	"$(paste -sd'|' stats.out)"
check "lost events are said on stderr too" grep -q "warning: 12 events were lost" stats.err

check "report --stats --json" sh -c '"$0" report -i many.data --stats --json >stats.json' "$SDTRACE"
check "stats JSON" python3 -c '
import json, sys
s = json.load(open("stats.json"))
assert s["events"] == [
    {"provider": "test", "name": "hot", "path": "/usr/bin/test-prog", "count": 200000},
    {"provider": "test", "name": "lossy", "path": "/usr/bin/test-prog", "count": 3}], s["events"]
assert s["total"] == 200003 and s["lost"] == 12, s
assert s["lost_per_cpu"] == {"0": 5, "3": 7}, s["lost_per_cpu"]
assert s["truncated"] is False and s["exit_status"] == 7, s
'

check "report (text) of every event" sh -c '"$0" report -i many.data >all.out 2>all.err' "$SDTRACE"
check_eq "one line per event" 200003 "$(wc -l <all.out | tr -d ' ')"
check "text: the lost events are not silent" grep -q "warning: 12 events were lost" all.err
check_eq "text: thread names from the comm records" \
	"hot-main 4000/4000 [000]|hot-worker1 4000/4001 [001]|hot-worker2 4000/4002 [000]|hot-worker3 4000/4003 [001]" \
	"$(awk '{print $1, $2, $3}' all.out | sed -n '1p;17p;33p;49p' | paste -sd'|')"
check_eq "text: the last hot event" "arg1=199999" "$(grep test:hot all.out | tail -n 1 | awk '{print $6}')"

check "report --json of every event" sh -c '"$0" report -i many.data --json >all.json' "$SDTRACE"
check "JSON: every line one object, values in order" python3 -c '
import json
n = 0
for i, l in enumerate(open("all.json")):
    e = json.loads(l)
    if e["name"] == "hot":
        assert e["args"] == [n], (i, e)
        assert e["tid"] == 4000 + (n // 16) % 4, e
        n += 1
assert n == 200000, n
'

# the size of a sample: file bytes per event (header, session and event records included)
check "write 1000000 events of a one-argument event" "$WRITE" -o big.data -n 1000000 many
size=$(wc -c <big.data | tr -d ' ')
say "data file: $size bytes for 1000000 events ($((size / 10000)) bytes per 100 events; perf.data: 8000)"
check "at most 32 bytes per one-argument event (0.4 x perf's 80)" test "$size" -le 32000000

# streaming: the report's peak memory must not depend on the number of events
if command -v /usr/bin/time >/dev/null 2>&1; then
	/usr/bin/time -f %M "$SDTRACE" report -i big.data --json >/dev/null 2>big.rss
	/usr/bin/time -f %M "$SDTRACE" report -i many.data --json >/dev/null 2>small.rss
	big_kb=$(tail -n 1 big.rss)
	small_kb=$(tail -n 1 small.rss)
	say "report --json peak RSS: ${big_kb} KB for 1000000 events, ${small_kb} KB for 200003"
	check "report streams: 5x the events, not 2x the memory (${big_kb} KB vs ${small_kb} KB)" \
		test "$big_kb" -lt $((small_kb * 2))
	check "report of 1M events in under 50 MB" test "$big_kb" -lt 51200
else
	say "SKIP: streaming check: /usr/bin/time is not installed"
fi
finish
