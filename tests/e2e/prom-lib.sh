# Helpers of the stat --serve tests (after lib.sh, whose wait_for they use): a port, a real
# Prometheus.

# a port free on 127.0.0.1 now (another program may take it before we do: rare, then a failure)
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# need_prometheus: skip without prometheus and promtool
need_prometheus() {
	command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1 ||
		skip "prometheus and promtool are not installed (apt-get install prometheus, or scripts/install-deps.sh test)"
}
# prom_start PORT...: a Prometheus on 127.0.0.1:$PPORT (set here), its data in $T, scraping
# 127.0.0.1:PORT every second; stopped at exit. Fails the test when not ready within 60 s.
prom_start() {
	PPORT=$(free_port)
	{
		printf 'global:\n  scrape_interval: 1s\n  scrape_timeout: 900ms\n'
		printf 'scrape_configs:\n  - job_name: sdtrace\n    static_configs:\n      - targets:\n'
		for _p in "$@"; do printf "          - '127.0.0.1:%s'\n" "$_p"; done
	} >prometheus.yml
	prometheus --config.file=prometheus.yml --storage.tsdb.path="$T/tsdb" \
		--web.listen-address="127.0.0.1:$PPORT" --log.level=warn >prometheus.log 2>&1 &
	_prom=$!
	at_exit "kill $_prom; wait $_prom"
	if ! wait_for 60 curl -sf "http://127.0.0.1:$PPORT/-/ready"; then
		fail "prometheus is ready on 127.0.0.1:$PPORT" "$(tail -n 20 prometheus.log)"
		finish
	fi
}
# prom_json EXPR: the instant query's result list, as JSON
prom_json() {
	curl -s -G --data-urlencode "query=$1" "http://127.0.0.1:$PPORT/api/v1/query" |
		python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin)["data"]["result"]))'
}
# prom_query EXPR: the value of the one series of an instant query, "none" or "N series"
prom_query() {
	prom_json "$1" | python3 -c '
import json, sys
r = json.load(sys.stdin)
print(r[0]["value"][1] if len(r) == 1 else "none" if not r else "%d series" % len(r))' 2>&1
}
