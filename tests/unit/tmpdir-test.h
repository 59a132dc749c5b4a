/* SPDX-License-Identifier: MIT */
/*
 * A unit test's temporary directory: TMPDIR_FIXTURE(NAME) defines `dir` (made by setup() as
 * /tmp/sdtrace-test-NAME.XXXXXX) and the group's setup() and teardown(), which removes it with
 * what it holds.
 */
#ifndef SDTRACE_TESTS_TMPDIR_TEST_H
#define SDTRACE_TESTS_TMPDIR_TEST_H

#include <stdio.h>
#include <stdlib.h>

#define TMPDIR_FIXTURE(NAME)                                                           \
	static char dir[64];                                                           \
                                                                                       \
	static int setup(void **state)                                                 \
	{                                                                              \
		(void)state;                                                           \
		snprintf(dir, sizeof(dir), "/tmp/sdtrace-test-" NAME ".XXXXXX");       \
		return mkdtemp(dir) ? 0 : -1;                                          \
	}                                                                              \
                                                                                       \
	static int teardown(void **state)                                              \
	{                                                                              \
		char cmd[128];                                                         \
                                                                                       \
		(void)state;                                                           \
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);                        \
		return system(cmd);                                                    \
	}

#endif
