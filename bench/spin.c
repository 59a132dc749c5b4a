/* SPDX-License-Identifier: MIT */
/*
 * The arming window benchmark's late starter (bench/b71-follow.sh): from the first instruction
 * of main, fires h9bench:spin(i, t0) for MS milliseconds (i = 0, 1, ...; t0 is CLOCK_MONOTONIC
 * in ns at main's start), one hit every GAP_NS nanoseconds (busy-waiting between hits), or in
 * a tight loop when GAP_NS is 0. The first i recorded is the number of hits missed before
 * arming; the first recorded hit's time minus t0 is the time from main to armed.
 *
 * Usage: spin [MS [GAP_NS]]    (defaults: 300 ms, 0)
 */
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long t0 = now_ns(), end = t0 + (argc > 1 ? atoll(argv[1]) : 300) * 1000000LL;
	long long gap = argc > 2 ? atoll(argv[2]) : 0, next = t0, t;
	long i;

	for (i = 0;; i++) {
		STAP_PROBE2(h9bench, spin, i, t0);
		if (gap) {
			next += gap;
			while ((t = now_ns()) < next)
				;
			if (t >= end)
				break;
		} else if (!(i & 1023) && now_ns() >= end) {
			break;
		}
	}
	return 0;
}
