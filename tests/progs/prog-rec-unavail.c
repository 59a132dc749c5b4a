/* SPDX-License-Identifier: MIT */
/*
 * Arguments no uprobe fetcharg can express, between arguments that can be fetched: an indexed
 * global ("-8@g_arr(,%rdi,8)", non-PIE) and a thread-local variable ("-8@%fs:t_tls@tpoff").
 * sdtrace marks them unavailable (null in `report --json`); the others must keep their places.
 * Built -O2, non-PIE.
 *
 * Output, per round (see prog.h); ROUND from 0:
 *	probe unavail:mixed arg1=ROUND arg2=ROUND*7 arg3=-ROUND arg4=ROUND-5 arg5=ROUND+1000
 *	      (one line; arg2 is indexed and arg4 thread-local: both unavailable; all s64)
 */
#include <sys/sdt.h>

#include "prog.h"

long g_arr[8];
__thread long t_tls;

__attribute__((noinline)) static void fire(long i, long round)
{
	STAP_PROBE5(unavail, mixed, round, g_arr[i], -round, t_tls, round + 1000);
}

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);

	for (i = 0; i < n; i++) {
		g_arr[i % 8] = i * 7;
		t_tls = i - 5;
		printf("probe unavail:mixed arg1=%ld arg2=%ld arg3=%ld arg4=%ld arg5=%ld\n", i,
		       g_arr[i % 8], -i, t_tls, i + 1000);
		fflush(stdout);
		fire(PROG_OPAQUE(i % 8), i);
	}
	return 0;
}
