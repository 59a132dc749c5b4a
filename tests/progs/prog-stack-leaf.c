/* SPDX-License-Identifier: MIT */
/*
 * A probe in a leaf function without a frame of its own, for record -g (issue 33): ROUNDS times
 * (argv[1], default 1)
 *	main -> outer -> inner
 * where inner() is a leaf holding the probe stack:leaf(ROUND). Built -O2 -fno-omit-frame-pointer:
 * gcc gives main and outer a frame (push %rbp; mov %rsp,%rbp) but not the leaf inner, so at the
 * probe %rbp is still outer's and a frame-pointer walk goes from inner straight to main.
 *
 * Output, per round:
 *	probe stack:leaf arg1=ROUND
 */
#include <sys/sdt.h>

#include "prog.h"

long total;

__attribute__((noinline)) void inner(long i)
{
	STAP_PROBE1(stack, leaf, i);
	total += i;
}

__attribute__((noinline)) void outer(long i)
{
	printf("probe stack:leaf arg1=%ld\n", i);
	fflush(stdout);
	inner(PROG_OPAQUE(i));
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);

	for (i = 0; i < n; i++)
		outer(i);
	return 0;
}
