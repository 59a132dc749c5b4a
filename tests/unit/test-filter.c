/* SPDX-License-Identifier: MIT */
/*
 * lib/trace/filter_*.c: the grammar and its errors (with columns), evaluation on decoded events
 * (integers of both signs, floats, strings, globs, masks, unavailable values, pid/tid/comm), and
 * the kernel's filter text for an event's fields.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sdtrace/sdtrace.h"

/* filt:req(s32 delta, string query, double ratio, u32 arg4) */
struct fixture {
	struct sdt_trace_event_desc *d;
	struct sdt_trace_decoder *dec;
};

static int setup(void **state)
{
	static struct fixture fx;
	struct sdt_arg_type delta = {.name = "delta", .kind = SDT_TYPE_DEFAULT};
	struct sdt_arg_type query = {.name = "query", .kind = SDT_TYPE_STRING, .size = 8};
	struct sdt_arg_type ratio = {.name = "ratio", .kind = SDT_TYPE_DEFAULT};

	assert_int_equal(sdt_trace_event_desc__new(0, "filt", "req", NULL, &fx.d), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(fx.d, "-4@%eax", &delta), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(fx.d, "8@%rdi", &query), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(fx.d, "8f@%xmm0", &ratio), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(fx.d, "4@%esi", NULL), 0);
	assert_int_equal(sdt_trace_decoder__new(&fx.dec), 0);
	assert_int_equal(sdt_trace_decoder__add_desc(fx.dec, fx.d), 0);
	assert_int_equal(sdt_trace_decoder__comm(fx.dec, 40, 41, "worker"), 0);
	*state = &fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	sdt_trace_decoder__free(fx->dec);
	sdt_trace_event_desc__free(fx->d);
	return 0;
}

/* One event: delta, query (NULL: unavailable), ratio, arg4, from thread 41 of process 40. */
static const struct sdt_trace_event *event(struct fixture *fx, int32_t delta, const char *query,
					   double ratio, uint32_t a4)
{
	struct sdt_trace_value v[4] = {
	    {.kind = SDT_VALUE_INT, .i = delta},
	    {.kind = query ? SDT_VALUE_STRING : SDT_VALUE_UNAVAILABLE,
	     .str = query,
	     .len = query ? strlen(query) : 0},
	    {.kind = SDT_VALUE_FLOAT, .f = ratio},
	    {.kind = SDT_VALUE_UINT, .u = a4},
	};
	static unsigned char raw[512];
	struct sdt_trace_sample s = {.time_ns = 1, .cpu = 1, .pid = 40, .tid = 41, .raw = raw};
	const struct sdt_trace_event *ev;
	int n = sdt_trace_event_desc__pack(fx->d, 0x1000, v, 4, raw, sizeof(raw));

	assert_true(n > 0);
	s.raw_size = (uint32_t)n;
	assert_int_equal(sdt_trace_decoder__sample(fx->dec, &s, &ev), 0);
	return ev;
}

static bool matches(const char *expr, const struct sdt_trace_event *ev)
{
	struct sdt_filter *f;
	bool m;

	if (sdt_filter__parse(expr, &f, NULL))
		fail_msg("%s: %s", expr, sdt_errmsg());
	m = sdt_filter__match(f, ev);
	sdt_filter__free(f);
	return m;
}

static void test_integers(void **state)
{
	const struct sdt_trace_event *ev = event(*state, -5, "SELECT 1", 0.5, 0xf0);

	assert_true(matches("delta == -5", ev));
	assert_true(matches("arg1 == -5", ev));
	assert_true(matches("delta < 0 && delta >= -5", ev));
	assert_false(matches("delta > 0", ev));
	assert_true(matches("delta", ev));
	assert_true(matches("arg4 == 0xf0 && arg4 == 240", ev));
	assert_true(matches("arg4 > -1", ev)); /* an unsigned value above any negative */
	assert_false(matches("arg4 < -1", ev));
	assert_true(matches("arg4 & 0x10", ev));
	assert_false(matches("arg4 & 0x0f", ev));
	assert_true(matches("arg4 & 0x30 == 0x30", ev));
	assert_true(matches("delta < 18446744073709551615", ev)); /* above INT64_MAX */
	assert_true(matches("ratio > 0.25 && ratio < 1", ev));
	assert_true(matches("ratio == 0.5", ev));
	assert_true(matches("delta < -4.5", ev));
	assert_true(matches("pid == 40 && tid == 41 && cpu == 1", ev));
}

static void test_strings(void **state)
{
	const struct sdt_trace_event *ev = event(*state, 7, "SELECT * FROM t", 0, 0);

	assert_true(matches("query == \"SELECT * FROM t\"", ev));
	assert_false(matches("query == \"SELECT\"", ev));
	assert_true(matches("query != 'SELECT'", ev));
	assert_true(matches("query ~ \"SELECT*\"", ev));
	assert_true(matches("query !~ \"INSERT*\"", ev));
	assert_true(matches("query ~ \"*FROM [st]\"", ev));
	assert_true(matches("comm == \"worker\" && comm ~ \"w*\"", ev));
	assert_false(matches("query == 7", ev)); /* a string is no number */
	assert_false(matches("delta == \"7\"", ev));
	assert_true(matches("!(query == 7)", ev));
	assert_true(matches("query", ev));
}

static void test_logic(void **state)
{
	const struct sdt_trace_event *ev = event(*state, 3, NULL, 0, 1);

	assert_false(matches("query == \"x\"", ev)); /* unavailable: false */
	assert_true(matches("!(query == \"x\")", ev));
	assert_false(matches("query ~ \"*\"", ev));
	assert_true(matches("delta == 1 || delta == 3", ev));
	assert_false(matches("(delta == 3 || delta == 2) && delta == 9", ev));
	assert_true(matches("delta == 3 || delta == 2 && delta == 9", ev)); /* && binds tighter */
	assert_true(matches("!!(delta == 3)", ev));
	assert_false(matches("!delta", ev));
	assert_false(matches("nosuch == 1", ev));
	assert_true(matches("!(nosuch == 1)", ev));
	assert_false(matches("arg5 == 0", ev)); /* out of range */
}

static void expect_error(const char *expr, size_t col, const char *what)
{
	struct sdt_filter *f = (struct sdt_filter *)1;
	size_t c = 0;

	assert_int_equal(sdt_filter__parse(expr, &f, &c), -EINVAL);
	assert_null(f);
	if (c != col)
		fail_msg("'%s': column %zu, expected %zu (%s)", expr, c, col, sdt_errmsg());
	if (!strstr(sdt_errmsg(), what))
		fail_msg("'%s': '%s' lacks '%s'", expr, sdt_errmsg(), what);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("", 1, "empty");
	expect_error("   ", 4, "empty");
	expect_error("delta >", 8, "ends where a value");
	expect_error("delta > > 3", 9, "expected a number");
	expect_error("delta == 3 &&", 14, "ends where a name");
	expect_error("(delta == 3", 1, "not closed");
	expect_error("delta == 3)", 11, "has no '('");
	expect_error("delta == 3 4", 12, "expected '&&'");
	expect_error("query == \"abc", 10, "string is not closed");
	expect_error("query ~ 3", 7, "glob");
	expect_error("query < \"a\"", 7, "compared with ==");
	expect_error("comm == 3", 6, "comm is compared");
	expect_error("pid == \"x\"", 5, "compared with numbers");
	expect_error("delta == 99999999999999999999", 10, "64 bits");
	expect_error("delta == 12ab", 12, "not a number");
	expect_error("query == \"a\\q\"", 12, "unknown escape");
	expect_error("3 == delta", 1, "expected an argument name");
	expect_error("delta & 0x1 == \"x\"", 13, "masked value");
	{
		char deep[200];

		memset(deep, '(', 100);
		strcpy(deep + 100, "delta");
		expect_error(deep, 65, "nested too deeply");
	}
	assert_true(strstr(sdt_errmsg(), "filter '((((") != NULL);
}

static void test_check_desc(void **state)
{
	struct fixture *fx = *state;
	struct sdt_filter *f;

	assert_int_equal(sdt_filter__parse("delta > 1 && arg4 == 2 && comm == \"x\"", &f, NULL), 0);
	assert_int_equal(sdt_filter__check_desc(f, fx->d), 0);
	sdt_filter__free(f);
	assert_int_equal(sdt_filter__parse("delta > 1 || latency > 2", &f, NULL), 0);
	assert_int_equal(sdt_filter__check_desc(f, fx->d), -ENOENT);
	assert_non_null(strstr(sdt_errmsg(), "filt:req has no argument 'latency'"));
	assert_non_null(strstr(sdt_errmsg(), "delta, query, ratio, arg4"));
	assert_string_equal(sdt_filter__text(f), "delta > 1 || latency > 2");
	sdt_filter__free(f);
}

static void expect_ftrace(struct fixture *fx, const char *expr, const char *want)
{
	struct sdt_filter *f;
	char *text;
	int err;

	assert_int_equal(sdt_filter__parse(expr, &f, NULL), 0);
	err = sdt_filter__ftrace(f, fx->d, &text);
	if (!want) {
		if (err != -ENOTSUP)
			fail_msg("'%s': %d, '%s'", expr, err, text ? text : "");
		assert_non_null(strstr(sdt_errmsg(), "the kernel's event filter"));
	} else {
		if (err)
			fail_msg("'%s': %s", expr, sdt_errmsg());
		assert_string_equal(text, want);
	}
	free(text);
	sdt_filter__free(f);
}

static void test_ftrace(void **state)
{
	struct fixture *fx = *state;

	expect_ftrace(fx, "delta > -3 && arg4 == 7", "(delta > -3 && arg4 == 7)");
	expect_ftrace(fx, "query ~ \"SEL*\" || !(tid == 5)",
		      "(query ~ \"SEL*\" || !(common_pid == 5))");
	expect_ftrace(fx, "query !~ 'x' && comm == \"py\"", "(!(query ~ \"x\") && COMM == \"py\")");
	expect_ftrace(fx, "arg4 & 0x10", "arg4 & 0x10");
	expect_ftrace(fx, "delta", "delta != 0");
	expect_ftrace(fx, "pid == 3", NULL);
	expect_ftrace(fx, "ratio > 1", NULL);
	expect_ftrace(fx, "arg4 & 3 == 1", NULL);
	expect_ftrace(fx, "arg4 == -1", NULL);
	expect_ftrace(fx, "nosuch == 1", NULL);
	expect_ftrace(fx, "query == 'a\"b'", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_integers),   cmocka_unit_test(test_strings),
	    cmocka_unit_test(test_logic),      cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_check_desc), cmocka_unit_test(test_ftrace),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
