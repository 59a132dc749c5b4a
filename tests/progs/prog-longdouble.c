/* SPDX-License-Identifier: MIT */
/*
 * A long double argument as gcc -O0 writes it ("16f@-32(%rbp)"): sdtrace fetches its 16 bytes as
 * an array (-32(%bp):x64[2]) and report decodes the x87 value; perf 6.1 drops every probe of a
 * file that has one. Kept apart from prog-float so that the other float probes stay comparable
 * with perf. Built -O0 (at -O2 gcc cannot put a long double in the asm operand at all). More
 * values and forms: prog-forms-ld.
 *
 * Output, per round (see prog.h):
 *	probe longdouble:value arg1=2.5 arg2=7     (long double printed with %.21Lg, then an int)
 */
#include <sys/sdt.h>

#include "prog.h"

volatile long double v_ld = 2.5L;
volatile int v_i = 7;

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);

	for (i = 0; i < n; i++) {
		long double ld = v_ld;
		int k = v_i;

		printf("probe longdouble:value arg1=%.21Lg arg2=%d\n", ld, k);
		fflush(stdout);
		STAP_PROBE2(longdouble, value, ld, k);
	}
	return 0;
}
