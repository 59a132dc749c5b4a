/* SPDX-License-Identifier: MIT */
/*
 * sdt_recorder__add_specs() before any run (no kernel needed): specs resolved by the command's
 * own files, by -x paths through a cache of our own, a launcher's lookup left to its execs
 * (SDT_SPECS_DEFERRED) unless it is not followed, and the refusals (a malformed spec, a second
 * call, a typo with the near name).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sdtrace/sdtrace.h"
#include "tmpdir-test.h"

#ifndef PROGS_DIR
#define PROGS_DIR "."
#endif
#define MANY   PROGS_DIR "/prog-many-args"
#define SIZES  PROGS_DIR "/prog-sizes"
#define NOTHIN PROGS_DIR "/prog-nonotes"

TMPDIR_FIXTURE("record-specs")

static char *argv_many[] = {MANY, NULL};
static char *argv_nonotes[] = {NOTHIN, NULL};

static int add(struct sdt_recorder_opts *ro, const char *spec, const char *const *paths,
	       size_t npaths, struct sdt_recorder **r)
{
	SDT_OPTS(sdt_specs_opts, so, .cache_dir = dir, .paths = paths, .npaths = npaths);

	assert_int_equal(sdt_recorder__new(ro, r), 0);
	return sdt_recorder__add_specs(*r, &spec, 1, &so);
}

static void test_by_command(void **state)
{
	SDT_OPTS(sdt_recorder_opts, ro, .argv = argv_many);
	SDT_OPTS(sdt_specs_opts, so, .cache_dir = dir);
	const char *again = "%many:args7";
	struct sdt_recorder *r;

	(void)state;
	assert_int_equal(add(&ro, "%many:args6", NULL, 0, &r), 0);
	assert_int_equal(sdt_recorder__file_count(r), 1);
	assert_int_equal(sdt_recorder__add_specs(r, &again, 1, &so), -EALREADY);
	sdt_recorder__free(r);
}

static void test_malformed(void **state)
{
	SDT_OPTS(sdt_recorder_opts, ro, .argv = argv_many);
	struct sdt_recorder *r;

	(void)state;
	assert_int_equal(add(&ro, "%python:", NULL, 0, &r), -EINVAL);
	assert_int_equal(sdt_recorder__file_count(r), 0);
	sdt_recorder__free(r);
}

/* A command without notes of its own (a launcher): what it execs is looked up then. */
static void test_launcher(void **state)
{
	SDT_OPTS(sdt_recorder_opts, ro, .argv = argv_nonotes);
	struct sdt_recorder *r;

	(void)state;
	assert_int_equal(add(&ro, "%many:args6", NULL, 0, &r), SDT_SPECS_DEFERRED);
	assert_int_equal(sdt_recorder__file_count(r), 0);
	sdt_recorder__free(r);
	ro.no_follow = true;
	assert_int_equal(add(&ro, "%many:args6", NULL, 0, &r), -ENOENT);
	sdt_recorder__free(r);
}

/* -x paths, system-wide: each spec must match in one of them; a typo names the near event. */
static void test_paths(void **state)
{
	SDT_OPTS(sdt_recorder_opts, ro, .system_wide = true);
	const char *paths[] = {MANY, SIZES};
	struct sdt_recorder *r;

	(void)state;
	assert_int_equal(add(&ro, "%sizes:min", paths, 2, &r), 0);
	assert_int_equal(sdt_recorder__file_count(r), 1);
	sdt_recorder__free(r);
	assert_int_equal(add(&ro, "%sizes:mni", paths, 2, &r), -ENOENT);
	assert_non_null(strstr(sdt_errmsg(), "in any of the 2 -x binaries"));
	assert_non_null(strstr(sdt_errmsg(), "did you mean %sizes:min?"));
	sdt_recorder__free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_by_command),
	    cmocka_unit_test(test_malformed),
	    cmocka_unit_test(test_launcher),
	    cmocka_unit_test(test_paths),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
