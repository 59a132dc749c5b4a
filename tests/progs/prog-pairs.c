/* SPDX-License-Identifier: MIT */
/*
 * Pairs of known durations, for `trace --latency --min` (tests/e2e/t2205): 8 queries in a fixed
 * order, 5 fast (no wait) and 3 slow (a 200 ms sleep between start and done), each query's text
 * its start's and its done's argument. One slow text holds an ESC and a tab, to be escaped as
 * report escapes it. Built -O2.
 *
 * Output, per round (see prog.h), TEXT as it is:
 *	probe pairs:query__start arg1=TEXT
 *	probe pairs:query__done arg1=TEXT            (200 ms later for the slow ones)
 * for TEXT, in order: fast-1, slow-1, fast-2, fast-3, "slow-2 \x1b[31m\tred", fast-4, slow-3,
 * fast-5.
 */
#include <sys/sdt.h>
#include <time.h>

#include "prog.h"

static const char *queries[] = {
    "fast-1", "slow-1", "fast-2", "fast-3", "slow-2 \x1b[31m\tred", "fast-4", "slow-3", "fast-5",
};

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);
	size_t q;

	for (i = 0; i < n; i++) {
		for (q = 0; q < sizeof(queries) / sizeof(queries[0]); q++) {
			const char *text = PROG_OPAQUE(queries[q]);

			printf("probe pairs:query__start arg1=%s\n", text);
			fflush(stdout);
			STAP_PROBE1(pairs, query__start, text);
			if (text[0] == 's') {
				struct timespec ts = {0, 200 * 1000 * 1000};

				nanosleep(&ts, NULL);
			}
			printf("probe pairs:query__done arg1=%s\n", text);
			fflush(stdout);
			STAP_PROBE1(pairs, query__done, text);
		}
	}
	return 0;
}
