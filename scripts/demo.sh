#!/bin/sh
# The tour that `make demo` runs on the bundled example (examples/sdt-example, a tiny job runner
# with SDT probes): list its probes, cache it, record it, report the events, the latency of its
# job__start/job__done pairs, and a timeline for ui.perfetto.dev.
# Usage: scripts/demo.sh [BUILD_DIR]   (default: build)
# Everything it writes is under BUILD_DIR/demo, or $DEMO_OUT (its own cache, never ~/.debug). Recording places
# uprobes: that needs root and tracefs; without them the tour says so and shows the rest.
set -u
build=${1:-build}
sdtrace="$build/sdtrace"
example="$build/examples/sdt-example"
out=${DEMO_OUT:-$build/demo}

for f in "$sdtrace" "$example"; do
	[ -x "$f" ] || { echo "demo: '$f' is not built (run: make build)" >&2; exit 1; }
done
rm -rf "$out"
mkdir -p "$out" || exit 1
export SDTRACE_CACHE_DIR="$out/cache"
[ -n "${COLUMNS:-}" ] || COLUMNS=$(tput cols 2>/dev/null || echo 80)
export COLUMNS

if [ -t 1 ]; then bold='\033[1m' dim='\033[2m' off='\033[0m'; else bold='' dim='' off=''; fi
# q ARG...: the arguments as one would type them (single-quoted where the shell would need it)
q() {
	for a in "$@"; do
		case $a in
		*[!A-Za-z0-9_./:=,%@+-]* | '') printf " '%s'" "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")" ;;
		*) printf ' %s' "$a" ;;
		esac
	done
}
step() { printf "\n${bold}\$%s${off}\n" "$(q "$@")"; }
note() { printf "${dim}# %s${off}\n" "$*"; }
# run CMD...: print it, run it; a failure is said and the tour goes on
run() {
	step "$@"
	"$@" || { note "(exit status $?)"; return 1; }
}

note "$("$sdtrace" --version 2>/dev/null | head -n 1) on $(uname -sr); the cache is $SDTRACE_CACHE_DIR"

note "1. What probes does the program have? (read from its .note.stapsdt, no root needed)"
run "$sdtrace" list -x "$example"
run "$sdtrace" list -x "$example" -v '%example:job__*'

note "2. Cache it (perf's build-id cache layout): then its events resolve by name alone"
run "$sdtrace" cache add "$example"
run "$sdtrace" list '%example:*'

note "3. Record every probe of a run, with its arguments: named here, and the two strings typed so"
note "   that their text is fetched (a provider .d file does this for a whole provider: --types)"
if [ "$(id -u)" != 0 ]; then
	note "recording places uprobes: that needs root (and tracefs). Skipped: run 'sudo make demo'."
	exit 0
fi
# an example built with LeakSanitizer (the sanitized build) cannot be followed: LSan stops its
# own threads with ptrace at exit, and fails when they are traced already (sdtrace-record(1))
follow=
readelf -d "$example" 2>/dev/null | grep -q 'NEEDED.*libasan' && follow=--no-follow
if ! run "$sdtrace" record $follow -o "$out/example.data" -e '%example:job__start(id, name:string, prio)' \
	-e '%example:debug(msg:string, len)' -e '%example:job__done(id, status, seconds)' -e '%example:tick' \
	-- "$example" 8; then
	note "recording failed (see above: tracefs with uprobe_events is needed:"
	note "mount -t tracefs nodev /sys/kernel/tracing). The listing and cache parts worked."
	exit 0
fi

note "4. The events, as perf script prints them (the first 12)"
printf "\n${bold}\$%s | head -n 12${off}\n" "$(q "$sdtrace" report -i "$out/example.data")"
"$sdtrace" report -i "$out/example.data" | head -n 12
run "$sdtrace" report -i "$out/example.data" --stats

note "5. How long each job took: job__start -> job__done on the same thread"
run "$sdtrace" report -i "$out/example.data" --latency

note "6. A timeline: the pairs as slices, the other events as instants"
run "$sdtrace" report -i "$out/example.data" --format=chrome -o "$out/example.trace.json" &&
	note "timeline: $(cd "$out" && pwd)/example.trace.json: open it in https://ui.perfetto.dev or chrome://tracing"

note "7. Only the counts, kept in the kernel (no ring buffer, no file)"
run "$sdtrace" stat $follow -e '%example:*' -- "$example" 3

note "Everything above is in $out. Next: sdtrace list -p PID, sdtrace trace -e SPEC -- CMD, man sdtrace."
