/* SPDX-License-Identifier: MIT */
/*
 * The bundled example for `make demo`: a tiny job runner with SDT probes.
 *
 *	example:job__start   (id u64, name char *, priority s8)
 *	example:job__done    (id u64, status s32, seconds double)
 *	example:tick         (jobs_done from a global, the constant 7)
 *	example:debug        (message char *, length u32), semaphore-gated: the message is only
 *	                     formatted while a tracer has the probe enabled (see sdt-example-sem.c)
 *
 * Usage: sdt-example [JOBS]   (default 5)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>

void example_debug(unsigned long id, const char *name);

static const char *const job_names[] = {"fetch", "parse", "index", "compress", "upload"};
long jobs_done;

static int run_job(unsigned long id, const char *name, signed char priority)
{
	struct timespec t0, t1;
	volatile unsigned long x = 0;
	unsigned long i;
	double seconds;
	int status;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	STAP_PROBE3(example, job__start, id, name, priority);
	example_debug(id, name);
	for (i = 0; i < 100000 * (id + 1); i++)
		x += i;
	status = (int)(x % 3) - 1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	STAP_PROBE3(example, job__done, id, status, seconds);
	jobs_done++;
	STAP_PROBE2(example, tick, jobs_done, 7);
	return status;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 5, i;

	for (i = 0; i < n; i++) {
		const char *name = job_names[i % (sizeof(job_names) / sizeof(job_names[0]))];
		int status = run_job(i, name, (signed char)(i % 5) - 2);

		printf("job %lu %s priority %d status %d\n", i, name, (int)(i % 5) - 2, status);
	}
	return 0;
}
