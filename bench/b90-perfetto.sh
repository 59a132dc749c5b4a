#!/bin/sh
# Issue 19: the size and the time of the timeline exports for 1,000,000 events:
#   ours: sdtrace report -i F --format=perfetto -o F.pftrace   (protobuf TrackEvent, interned names)
#   peer: sdtrace report -i F --format=chrome -o F.json        (Chrome trace-event JSON)
# on two recordings: a real one, 1,000,000 hits of bench/loop.c's %h9bench:tick4 (4 arguments,
# no pairs: all instants), and a synthetic one of pairs (tests/helper/sdtrace-test-pairs -n
# 1000000 load: slices nested two deep and instants on 8 threads, 1 or 2 arguments). Wall time,
# medians of 3 (quick) or 5 (full) alternating runs; sizes in bytes.
. "$(dirname "$0")/common.sh"
need_root_tracefs
loop=$(loop_bin)
pairs=$(dirname "$SDTRACE")/tests/helper/sdtrace-test-pairs
runs=3
[ "$BENCH_MODE" = full ] && runs=5
$SDTRACE --cache-dir "$tmp/sc" record -x "$loop" -e '%h9bench:tick4' -o "$tmp/loop.data" -- \
	"$loop" 1000000 4 0 /dev/null >/dev/null 2>"$tmp/rec.err"
set -- loop "$tmp/loop.data"
if [ -x "$pairs" ]; then
	"$pairs" -o "$tmp/pairs.data" -n 1000000 load
	set -- "$@" pairs "$tmp/pairs.data"
fi
while [ $# -gt 0 ]; do
	name=$1 f=$2
	shift 2
	events=$($SDTRACE report -i "$f" --stats | awk '$2 == "total" { print $1 }')
	: >"$tmp/pf.t"
	: >"$tmp/ch.t"
	for i in $(seq $runs); do
		time_ms "$SDTRACE report -i '$f' --format=perfetto -o '$tmp/t.pftrace'" >>"$tmp/pf.t"
		time_ms "$SDTRACE report -i '$f' --format=chrome -o '$tmp/t.json'" >>"$tmp/ch.t"
	done
	pt=$(median <"$tmp/pf.t")
	ct=$(median <"$tmp/ch.t")
	ps=$(stat -c %s "$tmp/t.pftrace")
	cs=$(stat -c %s "$tmp/t.json")
	emit "report --format=perfetto, $name, $events events: file size" "$ps B" \
		"sdtrace report --format=chrome" "$cs B" "$(ratio "$ps" "$cs")" "<= 0.5"
	emit "report --format=perfetto, $name, $events events: wall time (median of $runs)" \
		"$pt ms" "sdtrace report --format=chrome" "$ct ms" "$(ratio "$pt" "$ct")" "<= 1.0"
done
