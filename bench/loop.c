// The traced program of the per-event cost benchmarks: N hits of one SDT probe, with 1 or 4
// arguments (or "s": a short string and its length, tickS) and optionally W ns of busy work
// between hits, in T threads at once (default 1, each doing N hits). It times its own loop with
// clock_gettime (so start-up and probe arming are excluded) and writes
// "loop_ns=T n=N args=A work_ns=W threads=T" to OUTFILE (stdout if "-").
// ARGS "p": N flat pairs (pair__start, pair__done: 2 N hits); "r": the same N pairs as
// recursions 16 deep (rec__entry, rec__return), to time stat --latency's stack of open starts.
// usage: loop N ARGS(1|4|s|p|r) WORK_NS OUTFILE [THREADS]
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>

static long n, nargs;
static int strings, pairs, recursion;
static unsigned long long work_ns;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void work(unsigned long long ns)
{
	unsigned long long end = now_ns() + ns;

	while (now_ns() < end)
		;
}

static void rec(long i, int depth)
{
	STAP_PROBE1(h9bench, rec__entry, i);
	if (depth > 1)
		rec(i, depth - 1);
	STAP_PROBE1(h9bench, rec__return, i);
}

static void *hits(void *arg)
{
	long i;

	(void)arg;
	if (pairs) {
		for (i = 0; i < n; i++) {
			STAP_PROBE1(h9bench, pair__start, i);
			STAP_PROBE1(h9bench, pair__done, i);
		}
	} else if (recursion) {
		for (i = 0; i < n / 16; i++)
			rec(i, 16);
	} else if (strings) {
		/* a short string, as a query__start passes it: "SELECT ... aid = I;" */
		char q[96];

		for (i = 0; i < n; i++) {
			int len = snprintf(q, sizeof(q),
					   "SELECT abalance FROM pgbench_accounts WHERE aid = %ld;", i);

			STAP_PROBE2(h9bench, tickS, q, len);
			if (work_ns)
				work(work_ns);
		}
	} else if (nargs == 4) {
		for (i = 0; i < n; i++) {
			STAP_PROBE4(h9bench, tick4, i, i * 3, (int)i, (short)i);
			if (work_ns)
				work(work_ns);
		}
	} else {
		for (i = 0; i < n; i++) {
			STAP_PROBE1(h9bench, tick1, i);
			if (work_ns)
				work(work_ns);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long long t0, t1;
	pthread_t th[64];
	long threads = 1, k;
	FILE *out;

	if (argc != 5 && argc != 6)
		return 2;
	n = atol(argv[1]);
	nargs = atol(argv[2]);
	strings = argv[2][0] == 's';
	pairs = argv[2][0] == 'p';
	recursion = argv[2][0] == 'r';
	work_ns = strtoull(argv[3], NULL, 10);
	if (argc == 6)
		threads = atol(argv[5]);
	if (threads < 1 || threads > 64)
		return 2;
	t0 = now_ns();
	if (threads == 1) {
		hits(NULL);
	} else {
		for (k = 0; k < threads; k++)
			if (pthread_create(&th[k], NULL, hits, NULL))
				return 1;
		for (k = 0; k < threads; k++)
			pthread_join(th[k], NULL);
	}
	t1 = now_ns();
	out = argv[4][0] == '-' ? stdout : fopen(argv[4], "w");
	if (!out)
		return 1;
	fprintf(out, "loop_ns=%llu n=%ld args=%ld work_ns=%llu threads=%ld\n", t1 - t0, n, nargs,
		work_ns, threads);
	return fclose(out) ? 1 : 0;
}
