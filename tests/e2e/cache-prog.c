/* SPDX-License-Identifier: MIT */
/*
 * A tiny SDT program for the cache tests (tests/e2e/t02*.sh), compiled by each test with cc:
 * provider PROV (default h4cache) with a register arg, a constant (perf drops it), a float, and
 * an event at two sites. Runs its probes N times (argv[1], default 3).
 */
#include <stdlib.h>
#include <sys/sdt.h>

#ifndef PROV
#define PROV h4cache
#endif

static volatile double ratio = 2.5;

__attribute__((noinline)) static void fire(long i)
{
	STAP_PROBE2(PROV, ev1, i, 7);
	STAP_PROBE2(PROV, ev2, i, ratio);
}

__attribute__((noinline)) static void twice(long i)
{
	STAP_PROBE1(PROV, multi, i);
	if (i & 1)
		STAP_PROBE1(PROV, multi, i * 2);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3, i;

	for (i = 0; i < n; i++) {
		fire(i);
		twice(i);
	}
	return 0;
}
