#!/bin/sh
# SPDX-License-Identifier: MIT
# A reader that goes away (`| head`) is no error, as with perf and git: `sdtrace trace ... | head
# -1` (text and --json, with a command and with -p) and `sdtrace report ... | head -1` (text,
# --json, csv, chrome) end with status 0 and nothing on stderr; trace removes its uprobes on that
# path (uprobe_events unchanged), stops the command it started and leaves a -p process running.
. "$(dirname "$0")/lib.sh"
need_tracefs
need_cmd cc python3
cd "$T" || exit 1
uprobes_guard

# a program firing pipe:fire often enough that the pipe is seen closed at once (a few seconds)
cat >loop.c <<'CEOF'
#include <stdio.h>
#include <sys/sdt.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? 200000 : 20000;

	if (argc > 1) {
		FILE *f = fopen(argv[1], "w");

		fprintf(f, "%ld\n", (long)getpid());
		fclose(f);
	}
	for (i = 0; i < n; i++) {
		STAP_PROBE1(pipe, fire, i);
		if (i % 100 == 0)
			usleep(1000);
	}
	return 0;
}
CEOF
cc -O2 -o loop loop.c || skip "cannot compile the target program"

# piped NAME ARGS...: `sdtrace ARGS | head -1`: sdtrace's status in $T/rc, stderr in $T/err,
# the line head kept in $T/first.
piped() {
	_n=$1
	shift
	{
		"$SDTRACE" "$@" 2>"$T/err"
		echo $? >"$T/rc"
	} | head -n 1 >"$T/first"
	check_eq "$_n | head -1: exit 0" 0 "$(cat "$T/rc")"
	check_eq "$_n | head -1: nothing on stderr" "" "$(cat "$T/err")"
	check_eq "$_n | head -1: one line" 1 "$(wc -l <"$T/first" | tr -d ' ')"
}

piped "trace -- CMD" trace -x ./loop -e %pipe:fire -- ./loop
check "trace: the line is an event" grep -q 'pipe:fire: arg1=' "$T/first"
uprobes_unchanged "trace -- CMD | head -1: uprobe_events unchanged"
piped "trace --json -- CMD" trace --json -x ./loop -e %pipe:fire -- ./loop
check "trace --json: the line is a JSON event" python3 -c '
import json, sys
e = json.loads(open(sys.argv[1]).read())
assert (e["provider"], e["name"]) == ("pipe", "fire"), e' "$T/first"
uprobes_unchanged "trace --json | head -1: uprobe_events unchanged"

# -p: the process is not sdtrace's, it goes on
./loop "$T/loop.pid" &
lp=$!
at_exit "kill $lp 2>/dev/null"
wait_for 5 test -s "$T/loop.pid"
piped "trace -p" trace -x ./loop -e %pipe:fire -p "$lp"
check "trace -p | head -1: the process still runs" kill -0 "$lp"
uprobes_unchanged "trace -p | head -1: uprobe_events unchanged"
kill "$lp" 2>/dev/null
wait "$lp" 2>/dev/null

check "record" "$SDTRACE" record -o rec.data -x ./loop -e %pipe:fire -- ./loop
piped "report" report -i rec.data
piped "report --json" report -i rec.data --json
piped "report --format=csv" report -i rec.data --format=csv
piped "report --format=chrome" report -i rec.data --format=chrome
piped "report --header" report -i rec.data --header
uprobes_unchanged
finish
