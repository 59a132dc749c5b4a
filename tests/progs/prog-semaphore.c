/* SPDX-License-Identifier: MIT */
/*
 * Semaphores: sem:first, sem:second and sem:third (prog-semaphore-sems.c) each have their own
 * semaphore and fire only while it is raised, that is while a tracer has them enabled.
 * sem:always (this file, no semaphore) fires every round and reports which were raised. Built -O2.
 *
 * Output, per round (see prog.h); ROUND from 0, MASK = bit 0/1/2 for first/second/third raised:
 *	probe sem:always arg1=ROUND arg2=MASK       (s64 u32)
 *	probe sem:first arg1=ROUND                  (only when raised; s64)
 *	probe sem:second arg1=ROUND arg2=-2         (only when raised; s64 s32)
 *	probe sem:third arg1=ROUND arg2=LENGTH      (only when raised; LENGTH of "round-ROUND")
 */
#include <sys/sdt.h>

#include "prog-semaphore.h"
#include "prog.h"

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);

	for (i = 0; i < n; i++) {
		unsigned int mask = sem_enabled_mask();

		printf("probe sem:always arg1=%ld arg2=%u\n", i, mask);
		fflush(stdout);
		STAP_PROBE2(sem, always, i, mask);
		sem_fire(i);
	}
	return 0;
}
