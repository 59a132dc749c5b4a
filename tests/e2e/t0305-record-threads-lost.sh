#!/bin/sh
# -p covers every thread of a process, those running at attach time and those started later, and
# its children; a command's threads and children are covered too (inherit). A ring too small for
# the rate loses records, and says so: samples + lost = firings, never a silent gap.
. "$(dirname "$0")/lib.sh"
need_tracefs
. "$(dirname "$0")/record-lib.sh"
# Only lines of probes on our own files ($T): other tests may run at the same time.
uprobes_guard "^[p-r]:[^ ]* $T/"

cat >"$T/rt-threads.c" <<'CEOF'
#include <pthread.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <sys/wait.h>
#include <unistd.h>

static long n;
static const char *go;

static void wait_for(const char *path)
{
	while (path && access(path, F_OK) != 0)
		usleep(5000);
}

static void *worker(void *arg)
{
	long i, id = (long)arg;

	wait_for(go);
	for (i = 0; i < n; i++)
		STAP_PROBE2(rtt, hit, id, i);
	return NULL;
}

/* rt-threads N GO: 3 threads before GO, 2 threads after GO, and a child process (1 thread). */
int main(int argc, char **argv)
{
	pthread_t t[5];
	long i;
	pid_t child;

	n = atol(argv[1]);
	go = argc > 2 && argv[2][0] ? argv[2] : NULL;
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	wait_for(go);
	for (i = 3; i < 5; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	child = fork();
	if (child == 0) {
		worker((void *)9L);
		_exit(0);
	}
	for (i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	waitpid(child, NULL, 0);
	return 0;
}
CEOF
cc -O2 -pthread -o "$T/rt-threads" "$T/rt-threads.c" || skip "cannot compile the threaded target"
THR="$T/rt-threads"

# -p: attach while 3 threads wait; 2 more threads and a child come after.
"$THR" 200 "$T/go" &
tpid=$!
at_exit "kill $tpid 2>/dev/null"
sleep 0.2
"$REC" --ready "$T/ready" -e rtt:hit "$THR" -p "$tpid" >"$T/p.out" 2>&1 &
rpid=$!
at_exit "kill $rpid 2>/dev/null"
check "-p armed" wait_file "$T/ready"
touch "$T/go"
wait "$tpid"
wait "$rpid"
check_eq "-p: ends with the process" 0 $?
check_eq "-p: every thread's and the child's firings" "samples=1200 lost=0" \
	"$(grep '^samples=' "$T/p.out" | cut -d' ' -f1,2)"
check_eq "-p: 6 distinct threads seen" 6 \
	"$(grep '^sample ' "$T/p.out" | sed 's/.* tid=\([0-9]*\) .*/\1/' | sort -u | wc -l)"
check_eq "-p: 200 firings of each worker" "$(printf '200 %s\n' 0 1 2 3 4 9)" \
	"$(grep '^sample ' "$T/p.out" | sed 's/.* arg1=\([0-9]*\) .*/\1/' | sort -n | uniq -c |
		awk '{print $1, $2}')"
check "-p: the threads' names are known from the start" grep -q "^comm pid=$tpid tid=$tpid rt-threads" \
	"$T/p.out"
check_eq "-p: nothing left" 0 "$(left_by "$T/p.out")"

check "command with threads and a child" "$REC" -e rtt:hit "$THR" -- "$THR" 300
check_eq "command: every firing" "samples=1800 lost=0 status=0" \
	"$(grep '^samples=' "$T/.out" | cut -d' ' -f1-3)"

# A 1-page ring (4 KiB, ~70 samples) and 200000 firings: the kernel drops records.
"$REC" --quiet --pages 1 -e rt:fire "$TARGET" -- "$TARGET" 200000 >"$T/lost.out" 2>&1
check_eq "tiny ring: exit 0" 0 $?
samples=$(sed -n 's/^samples=\([0-9]*\) .*/\1/p' "$T/lost.out")
lost=$(sed -n 's/.* lost=\([0-9]*\) .*/\1/p' "$T/lost.out")
check_eq "tiny ring: samples + lost = firings" 200000 "$((samples + lost))"
if [ "$lost" -gt 0 ]; then
	check "tiny ring: each loss was handed to the sink" test "$(awk '/^lost /{split($3, a, "="); s += a[2]} END {print s}' "$T/lost.out")" = "$lost"
else
	say "NOTE: the reader kept up with a 1-page ring; no loss to check this time"
fi
check_eq "tiny ring: nothing left" 0 "$(left_by "$T/lost.out")"
uprobes_unchanged
finish
