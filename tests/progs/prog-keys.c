/* SPDX-License-Identifier: MIT */
/*
 * Keys that differ only in bytes a Prometheus label cannot carry as they are, and a pair with
 * known durations. Built -O2.
 *
 * Output, per round (see prog.h); ROUND counts from 0; the keys, K from 0 to 5, are
 * "q\xff", "q\xfe", "q\xef\xbf\xbd" (U+FFFD itself), "q\\xff" (a backslash, then "xff"), "q\\"
 * and "q"; key K fires K + 1 times a round (so its count names it), printed as the bytes are:
 *	probe keys:req arg1=KEY                     (K + 1 times for each K)
 *	probe keys:work__start arg1=ROUND
 *	probe keys:work__done arg1=ROUND            (50 us later; 400 us when ROUND % 10 >= 8)
 */
#include <sys/sdt.h>
#include <time.h>

#include "prog.h"

static const char *keys[] = {"q\xff", "q\xfe", "q\xef\xbf\xbd", "q\\xff", "q\\", "q"};

/* Spin for @us microseconds (no sleep: the thread stays on its CPU). */
static void spin(long us)
{
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000 + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);
	size_t k, j;

	for (i = 0; i < n; i++) {
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			for (j = 0; j <= k; j++) {
				const char *key = keys[k];

				key = PROG_OPAQUE(key);

				printf("probe keys:req arg1=%s\n", key);
				STAP_PROBE1(keys, req, key);
			}
		}
		printf("probe keys:work__start arg1=%ld\n", i);
		STAP_PROBE1(keys, work__start, PROG_OPAQUE(i));
		spin(i % 10 >= 8 ? 400 : 50);
		printf("probe keys:work__done arg1=%ld\n", i);
		STAP_PROBE1(keys, work__done, PROG_OPAQUE(i));
	}
	return 0;
}
