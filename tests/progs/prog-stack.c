/* SPDX-License-Identifier: MIT */
/*
 * A probe under a known call chain, for record -g: ROUNDS times (argv[1], default 1)
 *	main -> outer -> stack_lib_mid (libprog-stack-lib-*.so) -> inner -> fire (always_inline)
 * where fire() holds the probe stack:hit(ROUND). Built -O2 twice: prog-stack-fp
 * (-fno-omit-frame-pointer) and prog-stack-nofp (-fomit-frame-pointer), each with its library.
 *
 * Output, per round:
 *	probe stack:hit arg1=ROUND
 */
#include <sys/sdt.h>

#include "prog-stack-lib.h"
#include "prog.h"

static inline __attribute__((always_inline)) void fire(long i)
{
	printf("probe stack:hit arg1=%ld\n", i);
	fflush(stdout);
	STAP_PROBE1(stack, hit, i);
}

__attribute__((noinline)) void inner(long i)
{
	fire(i);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void outer(long i)
{
	stack_lib_mid(inner, i);
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);

	for (i = 0; i < n; i++)
		outer(i);
	return 0;
}
