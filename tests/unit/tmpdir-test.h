/* SPDX-License-Identifier: MIT */
/*
 * A unit test's temporary directory, the one copy of the fixture every test that writes files
 * uses. TMPDIR_FIXTURE(NAME) defines `dir` (made by setup() as /tmp/sdtrace-test-NAME.XXXXXX)
 * and the group's or test's setup() and teardown(), which removes it with what it holds. A test
 * whose setup does more, or names its directory otherwise, calls tmpdir_make() and
 * tmpdir_remove() from its own.
 */
#ifndef SDTRACE_TESTS_TMPDIR_TEST_H
#define SDTRACE_TESTS_TMPDIR_TEST_H

#include <stdio.h>
#include <stdlib.h>

/* @dir (@size bytes) made as /tmp/sdtrace-test-@name.XXXXXX: 0, or -1 */
static inline int tmpdir_make(char *dir, size_t size, const char *name)
{
	if (snprintf(dir, size, "/tmp/sdtrace-test-%s.XXXXXX", name) >= (int)size)
		return -1;
	return mkdtemp(dir) ? 0 : -1;
}

/* @dir removed with what it holds: 0, or -1 */
static inline int tmpdir_remove(const char *dir)
{
	char cmd[512];

	if (snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir) >= (int)sizeof(cmd))
		return -1;
	return system(cmd) == 0 ? 0 : -1;
}

#define TMPDIR_FIXTURE(NAME)                                                                       \
	static char dir[64];                                                                       \
                                                                                                   \
	static int setup(void **state)                                                             \
	{                                                                                          \
		(void)state;                                                                       \
		return tmpdir_make(dir, sizeof(dir), NAME);                                        \
	}                                                                                          \
                                                                                                   \
	static int teardown(void **state)                                                          \
	{                                                                                          \
		(void)state;                                                                       \
		return tmpdir_remove(dir);                                                         \
	}

#endif
