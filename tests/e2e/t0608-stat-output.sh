#!/bin/sh
# sdtrace stat -o FILE keeps the counts out of the command's stdout; -x takes a relative path;
# trace prints forked processes and new threads under their parent's name, in time order.
. "$(dirname "$0")/lib.sh"

need_tracefs
need_cmd gcc
uprobes_guard

cat >"$T/fk.c" <<'C'
#include <pthread.h>
#include <stdio.h>
#include <sys/sdt.h>
#include <sys/wait.h>
#include <unistd.h>
static void *th(void *a) { STAP_PROBE1(fk, hit, 2); return a; }
int main(void)
{
	pthread_t t;

	printf("program output\n");
	fflush(stdout);
	STAP_PROBE1(fk, hit, 1);
	pthread_create(&t, 0, th, 0);
	pthread_join(t, 0);
	if (fork() == 0) {
		STAP_PROBE1(fk, hit, 3);
		_exit(0);
	}
	wait(0);
	return 0;
}
C
gcc -O1 -pthread -o "$T/fk" "$T/fk.c" || skip "cannot compile the test program"

cd "$T" || exit 1
"$SDTRACE" stat -x fk -e '%fk:hit' -o "$T/counts.json" --json -- ./fk >"$T/stdout" 2>"$T/stderr"
check_eq "stat -o: exit 0" 0 $?
check_eq "stat -o: stdout is the command's alone" "program output" "$(cat "$T/stdout")"
check "stat -o: the counts are in the file" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["events"] == [{"provider": "fk", "name": "hit", "count": 3}], d
assert d["exit_status"] == 0' "$T/counts.json"
check_fails "stat -o into a missing directory fails" "$SDTRACE" stat -x fk -e '%fk:hit' -o "$T/no/such/dir" -- ./fk

"$SDTRACE" trace -x ./fk -e '%fk:hit' --json -- ./fk >"$T/trace.json" 2>"$T/trace.err"
check_eq "trace: exit 0" 0 $?
check "trace: three hits in time order, all named fk" python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
assert [e["args"][0] for e in ev] == [1, 2, 3], ev
assert all(e["comm"] == "fk" for e in ev), [e["comm"] for e in ev]
t = [e["time_ns"] for e in ev]
assert t == sorted(t), t
assert ev[2]["pid"] != ev[0]["pid"], "the third hit is from the forked child"
assert ev[1]["tid"] != ev[1]["pid"], "the second is from a thread"' "$T/trace.json"
uprobes_unchanged
finish
