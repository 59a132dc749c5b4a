#!/bin/sh
# Issue 18: "latency per query text" on a 1,000,000-event recording (tests/progs/prog-filter,
# 500,000 job__start(id, query) / job__done(id) pairs, 4 query texts):
#   ours: sdtrace report -i F --latency --by query --json
#   peer: sdtrace report -i F --json | python3 PAIR.py   (the way it was done before: pair each
#         thread's start with its next done, group by the start's query, exact percentiles)
# Both answers are compared (counts per query equal); wall time and peak RSS, medians of 3 (quick)
# or 5 (full) alternating runs.
. "$(dirname "$0")/common.sh"
need_root_tracefs
prog=$(dirname "$SDTRACE")/tests/progs/prog-filter
[ -x "$prog" ] || { echo "bench: no $prog (build the tests)" >&2; exit 1; }
runs=3
[ "$BENCH_MODE" = full ] && runs=5
f=$tmp/by.data
$SDTRACE --cache-dir "$tmp/sc" record -o "$f" -e "$prog:%filt:job__start(id:s32,query:string)" \
	-e "$prog:%filt:job__done(id:s32)" -- "$prog" 500000 >/dev/null 2>"$tmp/rec.err"
events=$($SDTRACE report -i "$f" --stats | awk '$2 == "total" { print $1 }')
cat >"$tmp/pair.py" <<'PY'
import json, sys, math, collections
open_ = {}
groups = collections.defaultdict(list)
for line in sys.stdin:
    e = json.loads(line)
    if e["name"] == "job__start":
        open_.setdefault(e["tid"], []).append((e["time_ns"], e["args"][1]))
    elif e["name"] == "job__done" and open_.get(e["tid"]):
        t, q = open_[e["tid"]].pop()
        groups[q].append(e["time_ns"] - t)
out = {}
for q, d in groups.items():
    d.sort()
    pct = lambda p: d[max(1, math.ceil(p / 100 * len(d))) - 1]
    out[q] = {"count": len(d), "p50": pct(50), "p99": pct(99), "max": d[-1]}
print(json.dumps(out, sort_keys=True))
PY
for i in $(seq $runs); do
	/usr/bin/time -o "$tmp/m" -f '%e %M' $SDTRACE report -i "$f" --latency --by query --json >"$tmp/ours.json"
	cat "$tmp/m" >>"$tmp/ours.t"
	/usr/bin/time -o "$tmp/m" -f '%e %M' sh -c "$SDTRACE report -i '$f' --json | python3 '$tmp/pair.py'" >"$tmp/peer.json"
	cat "$tmp/m" >>"$tmp/peer.t"
done
same=$(python3 - "$tmp/ours.json" "$tmp/peer.json" <<'PY'
import json, sys
o = json.load(open(sys.argv[1]))["pairs"][0]["groups"]
p = json.load(open(sys.argv[2]))
print(sorted((g["key"][0], g["count"]) for g in o) == sorted((k, v["count"]) for k, v in p.items()))
PY
)
echo "  $events events; the answers agree on the counts per query: $same"
ot=$(awk '{ print $1 }' "$tmp/ours.t" | median)
pt=$(awk '{ print $1 }' "$tmp/peer.t" | median)
om=$(awk '{ print $2 }' "$tmp/ours.t" | median)
pm=$(awk '{ print $2 }' "$tmp/peer.t" | median)
emit "report --latency --by query, $events events: wall time (median of $runs)" "$ot s" \
	"sdtrace report --json | python3 pair.py" "$pt s" "$(ratio "$ot" "$pt")" "<= 0.2"
emit "report --latency --by query, $events events: peak RSS" "$om KiB" \
	"the pipeline's largest process (python)" "$pm KiB" "$(ratio "$om" "$pm")" "<= 1.0"
