/* SPDX-License-Identifier: MIT */
/* The semaphore-gated probe of libprog-lib.so: a semaphore in a shared library's .probes. */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#include "prog-lib.h"

unsigned short lib_gated_semaphore __attribute__((section(".probes")));

void prog_lib_gated(long round)
{
	if (__builtin_expect(lib_gated_semaphore != 0, 0)) {
		int neg = (int)-round;

		printf("probe lib:gated arg1=%ld arg2=%d\n", round, neg);
		fflush(stdout);
		STAP_PROBE2(lib, gated, round, neg);
	}
}
