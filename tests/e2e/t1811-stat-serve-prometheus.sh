#!/bin/sh
# stat --serve with --by and --latency (BPF engine), scraped by a real Prometheus on 127.0.0.1.
# prog-keys' six keys differ only in bytes a label cannot carry as they are: "q\xff", "q\xfe"
# (not UTF-8), "q\xef\xbf\xbd" (U+FFFD itself), "q\\xff" (a backslash), "q\\" and "q". They stay
# six series, and the query gives each key's count, read back from its label by the escaping
# of sdtrace-stat(1) (before: both invalid bytes became U+FFFD, one label set for three keys,
# and Prometheus kept one sample of them, silently). The page passes promtool.
# The work pair's durations (50 us, 400 us one round in 5) are a histogram (_bucket, _sum,
# _count): histogram_quantile() over the buckets summed by le, at 0.5 and 0.9, is within a
# bucket (a factor of 2) of stat's own p50 and p90 of the same run (before: a summary, no
# bucket to aggregate). Prometheus is stopped on every path.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/prom-lib.sh"
K=$PROGS_DIR/prog-keys
need_file "$K"
need_cmd python3 curl
need_prometheus
need_tracefs
uprobes_guard
cd "$T" || exit 1

S1=$(free_port)
S2=$(free_port)
prom_start "$S1" "$S2"
pass "prometheus is ready on 127.0.0.1:$PPORT"

# the program's rounds, then the test's word that it has seen them (at most about 2 minutes)
cat >run.sh <<'EOS'
"$1" "$2" >/dev/null
n=0
while [ ! -e seen ] && [ "$n" -lt 1200 ]; do sleep 0.1; n=$((n + 1)); done
EOS
"$SDTRACE" stat --engine=bpf --serve "127.0.0.1:$S1" --by key -o keys.txt \
	-e "$K:%keys:req(key:string)" -- sh run.sh "$K" 10 2>keys.err &
SD1=$!
"$SDTRACE" stat --engine=bpf --serve "127.0.0.1:$S2" --latency -o lat.txt \
	-e "$K:%keys:work__*" -- sh run.sh "$K" 200 2>lat.err &
SD2=$!
at_exit "touch '$T/seen'; wait $SD1 $SD2"

all_keys() { [ "$(prom_query 'sum(sdtrace_probe_key_hits_total)')" = 210 ]; }
wait_for 60 all_keys
check_eq "prometheus has every hit of the 6 keys" 210 "$(prom_query 'sum(sdtrace_probe_key_hits_total)')"
check_eq "6 series, one per key" 6 "$(prom_query 'count(sdtrace_probe_key_hits_total)')"
prom_json 'sdtrace_probe_key_hits_total' >keys.json
cat >keys.py <<'EOP'
import json, re, sys
want = {b"q\xff": "10", b"q\xfe": "20", b"q\xef\xbf\xbd": "30", b"q\\xff": "40",
        b"q\\": "50", b"q": "60"}
def unescape(v):
    # the value is UTF-8, where \\ is a backslash and \xHH the byte HH
    return re.sub(rb"\\(\\|x([0-9a-f]{2}))",
                  lambda m: b"\\" if m.group(1) == b"\\" else bytes([int(m.group(2), 16)]),
                  v.encode())
got = {unescape(r["metric"]["key"]): r["value"][1] for r in json.load(open("keys.json"))}
print("got", got, file=sys.stderr)
sys.exit(got != want)
EOP
check "each key's count, its bytes read back from the label" python3 keys.py
curl -s "http://127.0.0.1:$S1/metrics" >keys.page
check "promtool check metrics passes" sh -c 'promtool check metrics <keys.page'
check "the page: a byte not UTF-8 as \\\\xff" grep -qF 'key="q\\xff"} 10' keys.page
check "the page: a backslash doubled" grep -qF 'key="q\\\\xff"} 40' keys.page

pairs() { [ "$(prom_query 'sum(sdtrace_pair_duration_seconds_count)')" = 200 ]; }
wait_for 60 pairs
check_eq "prometheus has the 200 pairs" 200 "$(prom_query 'sum(sdtrace_pair_duration_seconds_count)')"
check_eq "a histogram: 27 buckets (26 bounds and +Inf)" 27 \
	"$(prom_query 'count(sdtrace_pair_duration_seconds_bucket)')"
check_eq "the +Inf bucket holds every pair" 200 \
	"$(prom_query 'sdtrace_pair_duration_seconds_bucket{le="+Inf"}')"
Q50=$(prom_query 'histogram_quantile(0.5, sum by (le) (sdtrace_pair_duration_seconds_bucket))')
Q90=$(prom_query 'histogram_quantile(0.9, sum by (le) (sdtrace_pair_duration_seconds_bucket))')

touch seen
wait $SD1
check_eq "stat --by: exit 0" 0 $?
wait $SD2
check_eq "stat --latency: exit 0" 0 $?
say "histogram_quantile: p50 $Q50 s, p90 $Q90 s; stat: $(grep -m1 ' count 200 ' lat.txt)"
# stat's own percentiles ("p50 ~52.74us"), against Prometheus's within a bucket: a factor of 2
within() {
	python3 - "$1" "$2" lat.txt <<'EOP'
import re, sys
units = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
m = re.search(r"\b%s ~([0-9.]+)(ns|us|ms|s)\b" % sys.argv[1], open(sys.argv[3]).read())
stat = float(m.group(1)) * units[m.group(2)]
prom = float(sys.argv[2])
print(sys.argv[1], "stat", stat, "prometheus", prom, file=sys.stderr)
sys.exit(not (stat / 2 <= prom <= stat * 2))
EOP
}
check "histogram_quantile(0.5) is within a bucket of stat's p50" within p50 "$Q50"
check "histogram_quantile(0.9) is within a bucket of stat's p90" within p90 "$Q90"
uprobes_unchanged
finish
