/* SPDX-License-Identifier: MIT */
/*
 * One probe name, several sites: an always_inline function with a probe, called from three
 * places, gives three notes for inline:hit (each with its own address and maybe its own
 * operands). inline:once has one site. Built -O2.
 *
 * Output, per round (see prog.h); the sites fire in the order 1, 2, 3:
 *	probe inline:hit arg1=SITE arg2=ROUND     (SITE 1..3, ROUND from 0; s32 s64)
 *	probe inline:once arg1=ROUND
 */
#include <sys/sdt.h>

#include "prog.h"

static inline __attribute__((always_inline)) void hit(int site, long round)
{
	printf("probe inline:hit arg1=%d arg2=%ld\n", site, round);
	fflush(stdout);
	STAP_PROBE2(inline, hit, site, round);
}

__attribute__((noinline)) static void second(long round)
{
	hit(PROG_OPAQUE(2), round);
}

__attribute__((noinline)) static void third(long round)
{
	hit(PROG_OPAQUE(3), round * 1);
}

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);

	for (i = 0; i < n; i++) {
		hit(PROG_OPAQUE(1), i);
		second(i);
		third(i);
		printf("probe inline:once arg1=%ld\n", i);
		fflush(stdout);
		STAP_PROBE1(inline, once, i);
	}
	return 0;
}
