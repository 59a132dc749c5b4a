/* SPDX-License-Identifier: MIT */
/*
 * A program linked with libprog-lib.so: its own probe uselib:main, then the library's.
 * Built -O2 (PIE).
 *
 * Output, per round (see prog.h and prog-lib.h); ROUND from 0:
 *	probe uselib:main arg1=ROUND
 *	probe lib:call arg1=ROUND arg2=libprog
 *	probe lib:gated arg1=ROUND arg2=-ROUND      (only when raised)
 */
#include <sys/sdt.h>

#include "prog-lib.h"
#include "prog.h"

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);

	for (i = 0; i < n; i++) {
		printf("probe uselib:main arg1=%ld\n", i);
		fflush(stdout);
		STAP_PROBE1(uselib, main, i);
		prog_lib_call(i);
	}
	return 0;
}
