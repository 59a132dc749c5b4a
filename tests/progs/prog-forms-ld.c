/* SPDX-License-Identifier: MIT */
/*
 * 16-byte floats (x87 long double), written by hand into the note (prog-asm.h): a global
 * "16f@g_ld(%rip)", a stack slot "16f@(%rsp)" ... through a register base "16f@(%rdi)" and
 * "16f@16(%rdi)", and one in the x87 register stack "16f@%st" (no engine reads x87 registers:
 * unavailable), between register arguments. Values: exact in binary or not (pi, 1/3), the sign
 * of zero, a denormal, the largest and the smallest normal long double.
 *
 * Output, per round (see prog.h); ROUND counts from 0, V = vals[ROUND % 8], W the next one:
 *	probe ld:mem arg1=ROUND arg2=V arg3=V arg4=W arg5=V arg6=ROUND+1000
 *	      (s64, then g_ld, (%rdi), 16(%rdi), %st: long double, then s64)
 * Long doubles are printed with %.21Lg (21 digits tell every x87 value apart).
 */
#include <float.h>

#include "prog.h"
#include "prog-asm.h"

volatile long double vals[8] = {
    2.5L,	  -0.0L,       3.14159265358979323846264338327950288L,
    -1.0L / 3.0L, 0x1p-16400L,			 /* a denormal */
    LDBL_MAX,	  LDBL_MIN,    -1e300L * 1e300L, /* beyond a double */
};

long double g_ld;
long double pair[2];

__attribute__((noinline)) static void fire(long round, long double *p, long double st)
{
	long last = round + 1000;

	PROG_ASM_PROBE(
	    ld, mem, "-8@%%rdx 16f@g_ld(%%rip) 16f@(%%rdi) 16f@16(%%rdi) 16f@%%st -8@%%rcx",
	    "d"(round), "D"(p), "c"(last), "t"(st), "m"(g_ld), "m"(*(long double(*)[2])p));
}

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);

	for (i = 0; i < n; i++) {
		long double v = vals[i % 8], w = vals[(i + 1) % 8];

		g_ld = v;
		pair[0] = v;
		pair[1] = w;
		printf("probe ld:mem arg1=%ld arg2=%.21Lg arg3=%.21Lg arg4=%.21Lg arg5=%.21Lg "
		       "arg6=%ld\n",
		       i, v, v, w, v, i + 1000);
		fflush(stdout);
		fire(PROG_OPAQUE(i), PROG_OPAQUE(&pair[0]), v);
	}
	return 0;
}
