#!/bin/sh
# stat --serve, scraped by a real Prometheus: a Prometheus on 127.0.0.1 (its own config, scraping
# every second, its data in $T) scrapes `sdtrace stat --serve` while prog-filter fires 777
# filt:req hits; Prometheus's query API then gives 777 for the series, with the provider, event
# and binary labels, and up == 1; the page passes `promtool check metrics`; / points to /metrics,
# other paths are 404; the command does not inherit the listening socket. A port in use fails
# (exit 1, the address and strerror) before any probe is placed or the command started; a bad
# ADDR:PORT is a usage error. The example Prometheus config scrapes the address the example
# service listens on. Prometheus is stopped on every path.
. "$(dirname "$0")/lib.sh"
P=$PROGS_DIR/prog-filter
need_file "$P"
need_cmd python3 curl
command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1 ||
	skip "prometheus and promtool are not installed (apt-get install prometheus, or scripts/install-deps.sh test)"
need_tracefs
uprobes_guard
cd "$T" || exit 1

# a port free on 127.0.0.1 now (another program may take it before we do: rare, then a failure)
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# prom_query EXPR: the value of the one series of an instant query, "none" or "N series"
prom_query() {
	curl -s -G --data-urlencode "query=$1" "http://127.0.0.1:$PPORT/api/v1/query" |
		python3 -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
print(r[0]["value"][1] if len(r) == 1 else "none" if not r else "%d series" % len(r))' 2>&1
}

SPORT=$(free_port)
PPORT=$(free_port)
cat >prometheus.yml <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 900ms
scrape_configs:
  - job_name: sdtrace
    static_configs:
      - targets: ['127.0.0.1:$SPORT']
EOF
check "promtool check config" promtool check config prometheus.yml
check "examples/prometheus-sdtrace.yml is a valid config" \
	promtool check config "$SRC_DIR/examples/prometheus-sdtrace.yml"
# the example scrapes the address the example service listens on (before: db1.example.internal)
SERVICE_ADDR=$(sed -n 's/^ExecStart=.* --serve \([^ ]*\) .*/\1/p' "$SRC_DIR/examples/sdtrace-stat-serve.service")
check "examples/prometheus-sdtrace.yml scrapes the service's $SERVICE_ADDR" \
	grep -qF -e "- '$SERVICE_ADDR'" "$SRC_DIR/examples/prometheus-sdtrace.yml"
prometheus --config.file=prometheus.yml --storage.tsdb.path="$T/tsdb" \
	--web.listen-address="127.0.0.1:$PPORT" --log.level=warn >prometheus.log 2>&1 &
PROM=$!
at_exit "kill $PROM; wait $PROM"
ready() { curl -sf "http://127.0.0.1:$PPORT/-/ready"; }
if ! wait_for 60 ready; then
	fail "prometheus is ready on 127.0.0.1:$PPORT" "$(tail -n 20 prometheus.log)"
	finish
fi
pass "prometheus is ready on 127.0.0.1:$PPORT"

# The command fires its hits, then waits for the test to say it has seen them (at most about 2 minutes).
cat >run.sh <<'EOF'
"$1" 777 >/dev/null
ls -l /proc/$$/fd/ >fds.txt
n=0
while [ ! -e seen ] && [ "$n" -lt 1200 ]; do sleep 0.1; n=$((n + 1)); done
EOF
"$SDTRACE" stat --serve "127.0.0.1:$SPORT" -e "$P:%filt:req" -- sh run.sh "$P" >stat.out 2>stat.err &
SD=$!
at_exit "touch '$T/seen'; wait $SD"
listening() { grep -q "^sdtrace: serving metrics on http://127.0.0.1:$SPORT/metrics$" stat.err; }
check "the address is said once listening" wait_for 20 listening
fired() { [ -s fds.txt ]; }
check "the command ran" wait_for 20 fired
check "the command does not hold the listening socket" sh -c '! grep -q socket: fds.txt'

Q="sdtrace_probe_hits_total{provider=\"filt\",event=\"req\",binary=\"$P\"}"
seen() { [ "$(prom_query "$Q")" = 777 ]; }
wait_for 30 seen
check_eq "prometheus has scraped the 777 hits" 777 "$(prom_query "$Q")"
check_eq "the target is up" 1 "$(prom_query 'up{job="sdtrace"}')"
check_eq "one series per provider, event and binary" 1 "$(prom_query 'count(sdtrace_probe_hits_total)')"
check_eq "nothing lost" 0 "$(prom_query 'sdtrace_lost_total')"
check_eq "armed" 1 "$(prom_query 'sdtrace_armed')"
check "the seconds elapsed are more than 0" python3 -c 'import sys; sys.exit(not float(sys.argv[1]) > 0)' \
	"$(prom_query sdtrace_elapsed_seconds)"

M="http://127.0.0.1:$SPORT"
curl -s -D metrics.hdr -o metrics.txt "$M/metrics"
check "promtool check metrics passes" sh -c 'promtool check metrics <metrics.txt'
check "a HELP and TYPE line" sh -c 'grep -qx "# TYPE sdtrace_probe_hits_total counter" metrics.txt &&
	grep -q "^# HELP sdtrace_probe_hits_total " metrics.txt'
check "the sample" grep -qxF "sdtrace_probe_hits_total{provider=\"filt\",event=\"req\",binary=\"$P\"} 777" metrics.txt
check "the text format's content type" grep -qi '^content-type: text/plain; version=0.0.4' metrics.hdr
check_eq "/nope: 404" 404 "$(curl -s -o /dev/null -w '%{http_code}' "$M/nope")"
check_eq "/: 200" 200 "$(curl -s -o /dev/null -w '%{http_code}' "$M/")"
check "/: points to /metrics" sh -c "curl -s '$M/' | grep -q /metrics"
check_eq "POST: 405" 405 "$(curl -s -o /dev/null -w '%{http_code}' -X POST "$M/metrics")"

touch seen
wait $SD
check_eq "stat --serve: exit 0 when the command ends" 0 $?
check "the table at the end" grep -Eq '^ +777  %filt:req$' stat.out
check "the server is gone" sh -c "! curl -s '$M/metrics'"
check_eq "stderr: only the address" "sdtrace: serving metrics on http://127.0.0.1:$SPORT/metrics" \
	"$(grep -v 'left by a killed sdtrace' stat.err)"

# a port in use: refused before anything is placed (the command never runs: it would print)
python3 -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen()
print(s.getsockname()[1], flush=True)
time.sleep(60)' >busy.port &
BUSY=$!
at_exit "kill $BUSY"
busy() { [ -s busy.port ]; }
wait_for 10 busy
BPORT=$(cat busy.port)
"$SDTRACE" stat --serve "127.0.0.1:$BPORT" -e "$P:%filt:req" -- "$P" 5 >inuse.out 2>inuse.err
check_eq "a port in use: exit 1" 1 $?
check_eq "a port in use: the address and strerror" \
	"sdtrace: error: cannot serve metrics on '127.0.0.1:$BPORT': Address already in use" \
	"$(grep -v 'left by a killed sdtrace' inuse.err)"
check_eq "a port in use: the command was not started, nothing on stdout" "" "$(cat inuse.out)"

for bad in 9464 127.0.0.1 127.0.0.1:65536 ::1:9464 '[::1]' 'nohost:9464' '127.0.0.1:94x'; do
	"$SDTRACE" stat --serve "$bad" -e "$P:%filt:req" -- "$P" 1 >bad.out 2>bad.err
	check_eq "--serve '$bad': exit 2" 2 $?
	check "--serve '$bad': the message names it" grep -qF "'$bad' is not ADDR:PORT" bad.err
done
uprobes_unchanged
finish
