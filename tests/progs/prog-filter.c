/* SPDX-License-Identifier: MIT */
/*
 * Events for filters and keys: a request with an id, a signed delta and a query text, and a job
 * pair whose start carries the query and whose end does not. Built -O2.
 *
 * Output, per round (see prog.h); ROUND counts from 0, QUERY is one of SELECT_a, INSERT_b,
 * UPDATE_c, SELECT_d_FROM_t by ROUND % 4, DELTA is (ROUND * 37) % 1000 - 200:
 *	probe filt:req arg1=ROUND arg2=DELTA arg3=QUERY
 *	probe filt:job__start arg1=ROUND arg2=QUERY
 *	probe filt:job__done arg1=ROUND
 *	probe filt:req2 arg1=ROUND arg2=DELTA arg3=QUERY       (odd rounds only)
 *	probe filt:op__start arg1=A arg2=ROUND
 *	probe filt:op__start arg1=B arg2=ROUND
 *	probe filt:op__done arg1=A arg2=ROUND
 *	probe filt:op__done arg1=B arg2=ROUND
 * req2 has req's argument layout: typed alike, the two share one tracefs event. The op pairs
 * cross (A ends while B is open), A lasting 20 us longer: pairing by key matters.
 */
#include <stdint.h>
#include <stdio.h>
#include <sys/sdt.h>
#include <time.h>

#include "prog.h"

static const char *volatile key_a = "A", *volatile key_b = "B";

/* Spin for @us microseconds (no sleep: the thread stays on its CPU). */
static void spin(long us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000 + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

static const char *const queries[] = {"SELECT_a", "INSERT_b", "UPDATE_c", "SELECT_d_FROM_t"};

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);

	for (i = 0; i < n; i++) {
		int32_t id = PROG_OPAQUE((int32_t)i);
		int64_t delta = PROG_OPAQUE((int64_t)((i * 37) % 1000 - 200));
		const char *q = queries[PROG_OPAQUE(i) % 4];

		printf("probe filt:req arg1=%d arg2=%lld arg3=%s\n", id, (long long)delta, q);
		printf("probe filt:job__start arg1=%d arg2=%s\n", id, q);
		printf("probe filt:job__done arg1=%d\n", id);
		fflush(stdout);
		STAP_PROBE3(filt, req, id, delta, q);
		STAP_PROBE2(filt, job__start, id, q);
		STAP_PROBE1(filt, job__done, id);
		if (i % 2) {
			printf("probe filt:req2 arg1=%d arg2=%lld arg3=%s\n", id, (long long)delta,
			       q);
			fflush(stdout);
			STAP_PROBE3(filt, req2, id, delta, q);
		}
		printf("probe filt:op__start arg1=A arg2=%d\nprobe filt:op__start arg1=B arg2=%d\n"
		       "probe filt:op__done arg1=A arg2=%d\nprobe filt:op__done arg1=B arg2=%d\n",
		       id, id, id, id);
		fflush(stdout);
		STAP_PROBE2(filt, op__start, key_a, id);
		spin(20);
		STAP_PROBE2(filt, op__start, key_b, id);
		STAP_PROBE2(filt, op__done, key_a, id);
		STAP_PROBE2(filt, op__done, key_b, id);
	}
	return 0;
}
