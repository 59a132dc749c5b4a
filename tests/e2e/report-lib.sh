# Shared by the report analysis tests (t07*.sh), after lib.sh.
#
# exports DATA DIR [--pair START,END]...: every output report-check.py reads, made from DATA into
# DIR (events.json, stats.json, latency.json, latency.txt, chrome.json, events.csv), each
# command asserted to succeed; then report-check.py checks them all against events.json, and
# perfetto-check.py DIR/trace.pftrace (--format=perfetto, decoded by protoc) against chrome.json;
# its counts in DIR/perfetto.json.
need_cmd protoc
exports() {
	_data=$1
	_dir=$2
	shift 2
	_pairs=""
	for _a in "$@"; do
		[ "$_a" = --pair ] || _pairs="$_pairs --pair $_a"
	done
	mkdir -p "$_dir"
	check "$_dir: report --json" sh -c '"$SDTRACE" report -i "$0" --json >"$1/events.json"' \
		"$_data" "$_dir"
	check "$_dir: report --stats --json" \
		sh -c '"$SDTRACE" report -i "$0" --stats --json >"$1/stats.json"' "$_data" "$_dir"
	# shellcheck disable=SC2086
	check "$_dir: report --latency --json" \
		sh -c '"$SDTRACE" report -i "$0" --latency --json '"$_pairs"' >"$1/latency.json"' \
		"$_data" "$_dir"
	# shellcheck disable=SC2086
	check "$_dir: report --latency" \
		sh -c 'COLUMNS=100 "$SDTRACE" report -i "$0" --latency '"$_pairs"' >"$1/latency.txt"' \
		"$_data" "$_dir"
	# shellcheck disable=SC2086
	check "$_dir: report --format=chrome -o" \
		sh -c '"$SDTRACE" report -i "$0" --format=chrome '"$_pairs"' -o "$1/chrome.json" \
			2>"$1/chrome.err"' "$_data" "$_dir"
	# shellcheck disable=SC2086
	check "$_dir: report --format=perfetto -o" \
		sh -c '"$SDTRACE" report -i "$0" --format=perfetto '"$_pairs"' -o "$1/trace.pftrace" \
			2>"$1/perfetto.err"' "$_data" "$_dir"
	check "$_dir: perfetto's warnings are chrome's" cmp "$_dir/chrome.err" "$_dir/perfetto.err"
	check "$_dir: perfetto (decoded by protoc) has chrome's events (perfetto-check.py)" \
		sh -c 'python3 "$SRC_DIR/tests/e2e/perfetto-check.py" "$0" >"$0/perfetto.json"' "$_dir"
	check "$_dir: report --format=csv" \
		sh -c '"$SDTRACE" report -i "$0" --format=csv >"$1/events.csv"' "$_data" "$_dir"
	# shellcheck disable=SC2086
	check "$_dir: every export agrees with report --json (report-check.py)" \
		python3 "$SRC_DIR/tests/e2e/report-check.py" "$_dir" $_pairs
	say "$(head -n 12 "$T/.out")"
}
