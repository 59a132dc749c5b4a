// The traced program of the per-event cost benchmarks: N hits of one SDT probe, with 1 or 4
// arguments (or "s": a short string and its length, tickS) and optionally W ns of busy work
// between hits. It times its own loop with
// clock_gettime (so start-up and probe arming are excluded) and writes
// "loop_ns=T n=N args=A work_ns=W" to OUTFILE (stdout if "-").
// usage: loop N ARGS(1|4|s) WORK_NS OUTFILE
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>

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

int main(int argc, char **argv)
{
	unsigned long long t0, t1, work_ns;
	long n, i, nargs;
	FILE *out;

	if (argc != 5)
		return 2;
	n = atol(argv[1]);
	nargs = atol(argv[2]);
	work_ns = strtoull(argv[3], NULL, 10);
	t0 = now_ns();
	if (argv[2][0] == 's') {
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
	t1 = now_ns();
	out = argv[4][0] == '-' ? stdout : fopen(argv[4], "w");
	if (!out)
		return 1;
	fprintf(out, "loop_ns=%llu n=%ld args=%ld work_ns=%llu\n", t1 - t0, n, nargs, work_ns);
	return fclose(out) ? 1 : 0;
}
