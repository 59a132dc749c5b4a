/* SPDX-License-Identifier: MIT */
/*
 * What the test programs share. Every program prints one line per probe firing, before it fires:
 *
 *	probe PROVIDER:NAME arg1=VALUE arg2=VALUE ...
 *
 * Integers in decimal with the sign of their C type, floats as %.9g and doubles as %.17g (both
 * round-trip exactly), strings as they are (the programs use no spaces in them). A test that
 * records the probes compares its values with these lines. Every program takes an optional
 * argument: how many times to run its probes (default 1).
 */
#ifndef SDTRACE_TEST_PROG_H
#define SDTRACE_TEST_PROG_H

#include <stdio.h>
#include <stdlib.h>

static inline long prog_rounds(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1;

	return n > 0 ? n : 1;
}

/* Keep the compiler from knowing a value: at -O2 it then lives in a register, not a constant. */
#define PROG_OPAQUE(x)                                                                             \
	({                                                                                         \
		__typeof__(x) _v = (x);                                                            \
		__asm__ volatile("" : "+r"(_v));                                                   \
		_v;                                                                                \
	})

#endif
