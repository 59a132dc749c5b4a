/* SPDX-License-Identifier: MIT */
/*
 * Resolution by the target without uprobes: a process stopped at its exec (ptrace), before ld.so
 * mapped a library, already has its DT_NEEDED libraries among its files (sdt_proc__exec_files()),
 * and sdt_cache__resolve_target() finds the library's probe in one call, with an empty cache;
 * the command form finds the same; a miss names what the target runs.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "sdtrace/sdtrace.h"
#include "tmpdir-test.h"

#ifndef PROGS_DIR
#define PROGS_DIR "."
#endif
#define USELIB PROGS_DIR "/prog-uselib"

static char cache_dir[64];

static bool maps_file(pid_t pid, const char *name)
{
	char path[64], line[4096];
	bool found = false;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (!found && fgets(line, sizeof(line), fp))
		found = strstr(line, name) != NULL;
	fclose(fp);
	return found;
}

/* prog-uselib started and stopped at its exec: ld.so has not run. */
static pid_t start_at_exec(void)
{
	pid_t pid = fork();
	int st;

	assert_true(pid >= 0);
	if (!pid) {
		char *argv[] = {(char *)USELIB, (char *)"1", NULL};

		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execv(USELIB, argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP);
	return pid;
}

static void stop(pid_t pid)
{
	int st;

	kill(pid, SIGKILL);
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	waitpid(pid, &st, 0);
}

static bool has_target(struct sdt_targets *t, const char *base, size_t nsites)
{
	for (size_t i = 0; i < sdt_targets__count(t); i++) {
		const struct sdt_target *x = sdt_targets__target(t, i);
		const char *p = sdt_target__path(x), *s = strrchr(p, '/');

		if (s && !strcmp(s + 1, base) && sdt_target__site_count(x) == nsites)
			return true;
	}
	return false;
}

static void test_pid_at_exec(void **state)
{
	struct sdt_proc_file *files;
	struct sdt_cache *c;
	struct sdt_spec *spec;
	struct sdt_targets *t;
	size_t n, i;
	bool lib = false;
	pid_t pid;

	(void)state;
	if (access(USELIB, X_OK)) {
		skip();
		return;
	}
	pid = start_at_exec();
	assert_false(maps_file(pid, "libprog-lib.so")); /* not mapped yet */
	assert_int_equal(sdt_proc__exec_files(pid, &files, &n), 0);
	for (i = 0; i < n; i++)
		lib |= strstr(files[i].path, "libprog-lib.so") != NULL;
	assert_true(lib); /* but among its files: its DT_NEEDED closure */
	sdt_proc_files__free(files, n);

	assert_int_equal(sdt_cache__open(cache_dir, NULL, &c), 0);
	assert_int_equal(sdt_spec__parse("%lib:call", &spec), 0);
	{
		SDT_OPTS(sdt_resolve_target, tg, .pids = &pid, .npids = 1);

		assert_int_equal(sdt_cache__resolve_target(c, &spec, 1, &tg, NULL, &t), 0);
	}
	assert_int_equal(sdt_targets__count(t), 1);
	assert_true(has_target(t, "libprog-lib.so", 1));
	sdt_targets__free(t);
	sdt_spec__free(spec);
	sdt_cache__free(c);
	stop(pid);
}

static void test_command_and_miss(void **state)
{
	char *argv[] = {(char *)USELIB, NULL};
	struct sdt_cache *c;
	struct sdt_spec *specs[2];
	struct sdt_targets *t;
	SDT_OPTS(sdt_resolve_target, tg, .argv = argv);

	(void)state;
	if (access(USELIB, X_OK)) {
		skip();
		return;
	}
	assert_int_equal(sdt_cache__open(cache_dir, NULL, &c), 0);
	assert_int_equal(sdt_spec__parse("%lib:*", &specs[0]), 0);
	assert_int_equal(sdt_spec__parse("%uselib:main", &specs[1]), 0);
	assert_int_equal(sdt_cache__resolve_target(c, specs, 2, &tg, NULL, &t), 0);
	assert_int_equal(sdt_targets__count(t), 2);
	assert_true(has_target(t, "libprog-lib.so", 2));
	assert_true(has_target(t, "prog-uselib", 1));
	sdt_targets__free(t);
	sdt_spec__free(specs[0]);
	sdt_spec__free(specs[1]);

	assert_int_equal(sdt_spec__parse("%nothere:at_all", &specs[0]), 0);
	assert_int_equal(sdt_cache__resolve_target(c, specs, 1, &tg, NULL, &t), -ENOENT);
	assert_null(t);
	assert_non_null(strstr(sdt_errmsg(), "libprog-lib.so"));
	assert_non_null(strstr(sdt_errmsg(), "without"));
	sdt_spec__free(specs[0]);

	/* neither a command nor processes, or both */
	{
		SDT_OPTS(sdt_resolve_target, none);

		assert_int_equal(sdt_spec__parse("%lib:call", &specs[0]), 0);
		assert_int_equal(sdt_cache__resolve_target(c, specs, 1, &none, NULL, &t), -EINVAL);
		sdt_spec__free(specs[0]);
	}
	sdt_cache__free(c);
}

static int setup(void **state)
{
	(void)state;
	return tmpdir_make(cache_dir, sizeof(cache_dir), "resolve-target");
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove(cache_dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pid_at_exec),
		cmocka_unit_test(test_command_and_miss),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
