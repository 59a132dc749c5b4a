/* SPDX-License-Identifier: MIT */
/* Event specs: parsing ([PATH:][%]provider[:event]) and glob matching. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "sdtrace/sdtrace.h"

static struct sdt_spec *parse_ok(const char *text)
{
	struct sdt_spec *s = NULL;

	assert_int_equal(sdt_spec__parse(text, &s), 0);
	assert_non_null(s);
	return s;
}

static void test_forms(void **state)
{
	struct sdt_spec *s;

	(void)state;
	s = parse_ok("%python:gc__start");
	assert_string_equal(sdt_spec__provider(s), "python");
	assert_string_equal(sdt_spec__event(s), "gc__start");
	assert_null(sdt_spec__path(s));
	assert_false(sdt_spec__is_glob(s));
	assert_true(sdt_spec__match(s, "python", "gc__start"));
	assert_false(sdt_spec__match(s, "python", "gc__done"));
	assert_false(sdt_spec__match(s, "pythonx", "gc__start"));
	sdt_spec__free(s);

	s = parse_ok("python:gc__start");
	assert_true(sdt_spec__match(s, "python", "gc__start"));
	sdt_spec__free(s);

	/* perf's group name */
	s = parse_ok("sdt_python:gc__start");
	assert_true(sdt_spec__match(s, "python", "gc__start"));
	sdt_spec__free(s);

	/* a provider alone means every event of it */
	s = parse_ok("%python");
	assert_string_equal(sdt_spec__event(s), "*");
	assert_true(sdt_spec__is_glob(s));
	assert_true(sdt_spec__match(s, "python", "line"));
	assert_false(sdt_spec__match(s, "postgresql", "line"));
	sdt_spec__free(s);
}

static void test_globs(void **state)
{
	struct sdt_spec *s;

	(void)state;
	s = parse_ok("%python:gc__*");
	assert_true(sdt_spec__is_glob(s));
	assert_true(sdt_spec__match(s, "python", "gc__start"));
	assert_true(sdt_spec__match(s, "python", "gc__done"));
	assert_false(sdt_spec__match(s, "python", "line"));
	sdt_spec__free(s);

	s = parse_ok("*:gc__*");
	assert_true(sdt_spec__match(s, "hotspot", "gc__begin"));
	assert_true(sdt_spec__match(s, "python", "gc__start"));
	sdt_spec__free(s);

	s = parse_ok("%post*:query__?tart");
	assert_true(sdt_spec__match(s, "postgresql", "query__start"));
	assert_false(sdt_spec__match(s, "postgresql", "query__done"));
	sdt_spec__free(s);
}

static void test_inline_path(void **state)
{
	struct sdt_spec *s;

	(void)state;
	s = parse_ok("/usr/bin/python3.11:%python:gc__start");
	assert_string_equal(sdt_spec__path(s), "/usr/bin/python3.11");
	assert_string_equal(sdt_spec__provider(s), "python");
	assert_string_equal(sdt_spec__event(s), "gc__start");
	sdt_spec__free(s);

	/* without '%', the path ends at the second-to-last ':' */
	s = parse_ok("/opt/a:b/bin:python:gc__start");
	assert_string_equal(sdt_spec__path(s), "/opt/a:b/bin");
	assert_string_equal(sdt_spec__provider(s), "python");
	sdt_spec__free(s);

	s = parse_ok("./prog:%example:tick");
	assert_string_equal(sdt_spec__path(s), "./prog");
	sdt_spec__free(s);
}

static void test_bad(void **state)
{
	static const char *const bad[] = {
		"", "%", ":", "%python:", "%:ev", "a b:c", "py\nthon:x", "python:gc start",
		"/usr/bin/python3.11", "python:e/v", "p:e:f",
	};
	struct sdt_spec *s;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		s = (struct sdt_spec *)0x1;
		if (sdt_spec__parse(bad[i], &s) != -EINVAL)
			fail_msg("'%s' should be rejected", bad[i]);
		assert_null(s);
		assert_true(sdt_errmsg()[0] != '\0');
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forms),
		cmocka_unit_test(test_globs),
		cmocka_unit_test(test_inline_path),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
