#!/bin/sh
# Run every fuzz target of build dir $1 for $2 seconds each, over its seed corpus in
# fuzz/corpus/<target>/ (new inputs go to a scratch copy, the committed corpus is not touched).
# Prints the executions each reached; any crash, leak or sanitizer report fails.
set -eu
build=$1
seconds=${2:-10}
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT INT TERM
fail=0
for t in "$build"/fuzz/fuzz-*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	mkdir -p "$scratch/$name"
	if [ -d "$here/corpus/$name" ]; then
		cp -r "$here/corpus/$name/." "$scratch/$name/"
	fi
	log="$scratch/$name.log"
	if "$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$scratch/$name-" "$scratch/$name" >"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		echo "fuzz: $name: ${runs:-?} executions in ${seconds}s, no finding"
	else
		echo "fuzz: $name: FAILED" >&2
		tail -n 60 "$log" >&2
		for a in "$scratch/$name"-*; do
			[ -f "$a" ] && echo "fuzz: reproducer: $(od -An -c "$a" | head -n 5)" >&2
		done
		fail=1
	fi
done
exit $fail
