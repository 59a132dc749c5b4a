/* SPDX-License-Identifier: MIT */
/*
 * sdt_recorder__new() without a kernel: its options read as every `_opts` struct is
 * (sdt_opts_copy(): older callers get defaults, a newer caller's unknown option is refused),
 * and the options it refuses before anything starts.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sdtrace/record.h"
#include "sdtrace/sdtrace.h"

static char *argv_true[] = {"true", NULL};

/* A caller built against a newer header: one more option after ours. */
struct newer_opts {
	struct sdt_recorder_opts o;
	uint64_t option_we_do_not_know;
};

static void test_newer_caller_unknown_option_refused(void **state)
{
	struct newer_opts n;
	struct sdt_recorder *r = NULL;

	(void)state;
	memset(&n, 0, sizeof(n));
	n.o.sz = sizeof(n);
	n.o.argv = argv_true;
	n.option_we_do_not_know = 1;
	assert_int_equal(sdt_recorder__new(&n.o, &r), -EINVAL);
	assert_null(r);
	assert_non_null(strstr(sdt_errmsg(), "sdt_recorder_opts"));
	assert_non_null(strstr(sdt_errmsg(), "newer header"));
}

static void test_newer_caller_zero_tail_accepted(void **state)
{
	struct newer_opts n;
	struct sdt_recorder *r = NULL;

	(void)state;
	memset(&n, 0, sizeof(n));
	n.o.sz = sizeof(n);
	n.o.argv = argv_true;
	assert_int_equal(sdt_recorder__new(&n.o, &r), 0);
	assert_non_null(r);
	sdt_recorder__free(r);
}

static void test_older_caller_gets_defaults(void **state)
{
	SDT_OPTS(sdt_recorder_opts, o, .argv = argv_true, .ring_pages = 3);
	struct sdt_recorder *r = NULL;

	(void)state;
	/* a caller that knew only sz, argv, pids, npids: ring_pages (3, refused) is beyond it */
	o.sz = offsetof(struct sdt_recorder_opts, system_wide);
	assert_int_equal(sdt_recorder__new(&o, &r), 0);
	assert_non_null(r);
	sdt_recorder__free(r);
}

static void test_sz_too_small_refused(void **state)
{
	SDT_OPTS(sdt_recorder_opts, o, .argv = argv_true);
	struct sdt_recorder *r = NULL;

	(void)state;
	o.sz = 3;
	assert_int_equal(sdt_recorder__new(&o, &r), -EINVAL);
	assert_null(r);
}

static void test_bad_options_refused(void **state)
{
	static const pid_t pids[] = {1};
	SDT_OPTS(sdt_recorder_opts, two, .argv = argv_true, .system_wide = true);
	SDT_OPTS(sdt_recorder_opts, pages, .pids = pids, .npids = 1, .ring_pages = 3);
	SDT_OPTS(sdt_recorder_opts, poke, .system_wide = true, .semaphore = SDT_SEMAPHORE_POKE);
	struct sdt_recorder *r = NULL;

	(void)state;
	assert_int_equal(sdt_recorder__new(NULL, &r), -EINVAL); /* no target */
	assert_int_equal(sdt_recorder__new(&two, &r), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "exactly one target"));
	assert_int_equal(sdt_recorder__new(&pages, &r), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "power of two"));
	assert_int_equal(sdt_recorder__new(&poke, &r), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "system-wide"));
	assert_null(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_newer_caller_unknown_option_refused),
		cmocka_unit_test(test_newer_caller_zero_tail_accepted),
		cmocka_unit_test(test_older_caller_gets_defaults),
		cmocka_unit_test(test_sz_too_small_refused),
		cmocka_unit_test(test_bad_options_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
