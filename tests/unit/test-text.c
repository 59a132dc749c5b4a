/* SPDX-License-Identifier: MIT */
/*
 * The library's one escaper (include/sdtrace/text.h): what a terminal would act on (C0, DEL, C1)
 * and bytes that are not UTF-8 escaped, valid UTF-8 kept; the folded mode's ';'; snprintf-like
 * truncation that never cuts an escape or a character.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sdtrace/sdtrace.h"

static void check(const char *in, size_t len, unsigned int flags, const char *want)
{
	char buf[256];
	size_t n = sdt_escape(buf, sizeof(buf), in, len, flags);

	assert_string_equal(buf, want);
	assert_int_equal(n, strlen(want));
}

#define CHECK(in, flags, want) check(in, sizeof(in) - 1, flags, want)

static void test_terminal(void **state)
{
	(void)state;
	CHECK("héllo ✓ 日本語", 0, "héllo ✓ 日本語");
	CHECK("\x1b]0;owned\x07", 0, "\\x1b]0;owned\\x07");
	CHECK("a\nb\tc\rd\x7f", 0, "a\\nb\\tc\\rd\\x7f");
	CHECK("csi:\xc2\x9b" "2J", 0, "csi:\\xc2\\x9b2J");
	CHECK("nbsp:\xc2\xa0", 0, "nbsp:\xc2\xa0");
	CHECK("bad:\xff\xe6\x97", 0, "bad:\\xff\\xe6\\x97");
	CHECK("overlong:\xc0\xaf surrogate:\xed\xa0\x80", 0,
	      "overlong:\\xc0\\xaf surrogate:\\xed\\xa0\\x80");
	CHECK("nul:\0x", 0, "nul:\\x00x");
	CHECK("q\"b\\", 0, "q\"b\\");
	CHECK("q\"b\\", SDT_ESC_QUOTED, "q\\\"b\\\\");
}

static void test_folded(void **state)
{
	(void)state;
	CHECK("f;fake_frame 999999\nx", 0, "f;fake_frame 999999\\nx");
	CHECK("f;fake_frame 999999\nx", SDT_ESC_FOLDED, "f\\x3bfake_frame 999999\\nx");
	CHECK("operator()(int, long)", SDT_ESC_FOLDED, "operator()(int, long)");
}

static void test_truncation(void **state)
{
	char buf[8];
	size_t n;

	(void)state;
	n = sdt_escape(buf, sizeof(buf), "abc\x1b" "defgh", 8, 0);
	assert_int_equal(n, 11);
	assert_string_equal(buf, "abc\\x1b"); /* 7 bytes: the escape whole */
	n = sdt_escape(buf, 6, "abcd\x1b" "e", 6, 0);
	assert_string_equal(buf, "abcd"); /* no half escape, nothing after the cut */
	n = sdt_escape(buf, 5, "ab日", 5, 0);
	assert_string_equal(buf, "ab"); /* never half a character */
	assert_int_equal(sdt_escape(NULL, 0, "\x01", 1, 0), 4);
}

static void test_utf8_len(void **state)
{
	(void)state;
	assert_int_equal(sdt_utf8_len("a", 1), 1);
	assert_int_equal(sdt_utf8_len("日", 3), 3);
	assert_int_equal(sdt_utf8_len("日", 2), 0);
	assert_int_equal(sdt_utf8_len("\xf4\x90\x80\x80", 4), 0); /* beyond U+10FFFF */
	assert_int_equal(sdt_utf8_len("\x80", 1), 0);
	assert_int_equal(sdt_utf8_len("", 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_terminal),
	    cmocka_unit_test(test_folded),
	    cmocka_unit_test(test_truncation),
	    cmocka_unit_test(test_utf8_len),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
