/* SPDX-License-Identifier: MIT */
/*
 * A shared library with probes (libprog-lib.so, built -O2 -fPIC): lib:call here, without a
 * semaphore, and lib:gated with one in prog-lib-sem.c. The output format is in prog-lib.h.
 */
#include <sys/sdt.h>

#include "prog-lib.h"

static const char *volatile lib_name = "libprog";

void prog_lib_call(long round)
{
	const char *name = lib_name;

	printf("probe lib:call arg1=%ld arg2=%s\n", round, name);
	fflush(stdout);
	STAP_PROBE2(lib, call, round, name);
	prog_lib_gated(round);
}
