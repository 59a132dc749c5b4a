/* SPDX-License-Identifier: MIT */
/* libprog-lib.so: a shared library with SDT probes, used by prog-uselib and prog-wait. */
#ifndef SDTRACE_TEST_PROG_LIB_H
#define SDTRACE_TEST_PROG_LIB_H

#include <stdio.h>

/*
 * Print and fire lib:call (no semaphore), then lib:gated when its semaphore is raised:
 *	probe lib:call arg1=ROUND arg2=libprog     (s64, char *)
 *	probe lib:gated arg1=ROUND arg2=-ROUND     (only when raised; s64 s32)
 */
void prog_lib_call(long round);
/* Fire lib:gated if its semaphore is raised (prog-lib-sem.c). */
void prog_lib_gated(long round);

#endif
