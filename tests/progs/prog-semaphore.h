/* SPDX-License-Identifier: MIT */
/* The two translation units of prog-semaphore. */
#ifndef SDTRACE_TEST_PROG_SEMAPHORE_H
#define SDTRACE_TEST_PROG_SEMAPHORE_H

#include <stdio.h>

/* Bit 0, 1, 2: sem:first, sem:second, sem:third is enabled (its semaphore is not 0). */
unsigned int sem_enabled_mask(void);
/* Fire each gated probe whose semaphore is raised, printing its line first. */
void sem_fire(long round);

#endif
