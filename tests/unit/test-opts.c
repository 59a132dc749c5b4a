/* SPDX-License-Identifier: MIT */
/* sdt_opts_copy() (lib/util/opts.c): shorter structs zero-filled, longer ones only if zero-tailed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "util/internal.h"

struct v1 {
	size_t sz;
	int a;
};
struct v2 {
	size_t sz;
	int a;
	int b;
	long c;
};

static void test_null_is_defaults(void **state)
{
	struct v2 o;

	(void)state;
	memset(&o, 0x55, sizeof(o));
	assert_int_equal(SDT_OPTS_COPY(&o, NULL, v2), 0);
	assert_int_equal(o.sz, sizeof(o));
	assert_int_equal(o.a, 0);
	assert_int_equal(o.b, 0);
	assert_int_equal(o.c, 0);
}

static void test_older_caller_zero_fills(void **state)
{
	struct v1 in;
	struct v2 o;

	(void)state;
	memset(&in, 0, sizeof(in)); /* as SDT_OPTS() does: the padding too */
	in.sz = sizeof(in);
	in.a = 7;
	memset(&o, 0x55, sizeof(o));
	assert_int_equal(SDT_OPTS_COPY(&o, &in, v2), 0);
	assert_int_equal(o.sz, sizeof(o));
	assert_int_equal(o.a, 7);
	assert_int_equal(o.b, 0);
	assert_int_equal(o.c, 0);
}

static void test_newer_caller_zero_tail_accepted(void **state)
{
	struct v2 in = {.sz = sizeof(in), .a = 3};
	struct v1 o;

	(void)state;
	assert_int_equal(SDT_OPTS_COPY(&o, &in, v1), 0);
	assert_int_equal(o.sz, sizeof(o));
	assert_int_equal(o.a, 3);
}

static void test_newer_caller_unknown_option_refused(void **state)
{
	struct v2 in = {.sz = sizeof(in), .a = 3, .c = 1};
	struct v1 o;

	(void)state;
	assert_int_equal(SDT_OPTS_COPY(&o, &in, v1), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "struct v1"));
	assert_non_null(strstr(sdt_errmsg(), "newer header"));
}

static void test_sz_too_small_refused(void **state)
{
	struct v2 in = {.sz = 3};
	struct v2 o;

	(void)state;
	assert_int_equal(SDT_OPTS_COPY(&o, &in, v2), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_is_defaults),
		cmocka_unit_test(test_older_caller_zero_fills),
		cmocka_unit_test(test_newer_caller_zero_tail_accepted),
		cmocka_unit_test(test_newer_caller_unknown_option_refused),
		cmocka_unit_test(test_sz_too_small_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
