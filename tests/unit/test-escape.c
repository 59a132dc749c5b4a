/* SPDX-License-Identifier: MIT */
/*
 * The text report's strings (cli/escape.c): valid UTF-8 as it is, control characters (C0, DEL,
 * C1) and bytes that are not UTF-8 escaped, byte for byte; the truncation's "…".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../cli/escape.c"
#include "../../cli/json.c"

static char *quoted(const char *s, size_t len, bool cut)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&buf, &n);

	assert_non_null(fp);
	text_put_quoted(fp, s, len, cut);
	fclose(fp);
	return buf;
}

#define CHECK(in, want)                                                                   \
	do {                                                                              \
		char *got = quoted(in, sizeof(in) - 1, false);                            \
		assert_string_equal(got, want);                                           \
		free(got);                                                                \
	} while (0)

static void test_utf8_as_is(void **state)
{
	(void)state;
	CHECK("plain", "\"plain\"");
	CHECK("héllo wörld ✓ 日本語", "\"héllo wörld ✓ 日本語\"");
	CHECK("\xf0\x9f\x98\x80 emoji", "\"\xf0\x9f\x98\x80 emoji\"");
	CHECK("U+00A0:\xc2\xa0 U+FFFD:\xef\xbf\xbd U+10FFFF:\xf4\x8f\xbf\xbf",
	      "\"U+00A0:\xc2\xa0 U+FFFD:\xef\xbf\xbd U+10FFFF:\xf4\x8f\xbf\xbf\"");
}

static void test_controls(void **state)
{
	(void)state;
	CHECK("a\"b\\c", "\"a\\\"b\\\\c\"");
	CHECK("\n\t\r", "\"\\n\\t\\r\"");
	CHECK("\x01\x1b[31m\x7f", "\"\\x01\\x1b[31m\\x7f\"");
	/* C1 controls are valid UTF-8, and a terminal acts on them (U+009B is CSI) */
	CHECK("\xc2\x9b" "2J \xc2\x85", "\"\\xc2\\x9b" "2J \\xc2\\x85\"");
}

static void test_invalid(void **state)
{
	(void)state;
	CHECK("\xff\xfe", "\"\\xff\\xfe\"");
	/* a 日 cut after two of its three bytes, then ASCII */
	CHECK("\xe6\x97" "a", "\"\\xe6\\x97a\"");
	/* overlong '/', a surrogate (U+D800), beyond U+10FFFF, a lone continuation byte */
	CHECK("\xc0\xaf", "\"\\xc0\\xaf\"");
	CHECK("\xed\xa0\x80", "\"\\xed\\xa0\\x80\"");
	CHECK("\xf4\x90\x80\x80", "\"\\xf4\\x90\\x80\\x80\"");
	CHECK("\x80", "\"\\x80\"");
	/* a sequence cut by the end of the string (its NUL) */
	CHECK("ok\xe2\x9c", "\"ok\\xe2\\x9c\"");
}

static void test_length_and_cut(void **state)
{
	char *got;

	(void)state;
	/* only @len bytes (the string is NUL-terminated there), even in a sequence */
	got = quoted("abc\xe2\x9c\x93", 4, false);
	assert_string_equal(got, "\"abc\\xe2\"");
	free(got);
	got = quoted("SELECT", 6, true);
	assert_string_equal(got, "\"SELECT…\"");
	free(got);
	got = quoted("", 0, false);
	assert_string_equal(got, "\"\"");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_utf8_as_is),
	    cmocka_unit_test(test_controls),
	    cmocka_unit_test(test_invalid),
	    cmocka_unit_test(test_length_and_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
