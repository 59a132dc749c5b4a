/* SPDX-License-Identifier: MIT */
/*
 * struct sdt_buf (lib/util/buf.c): sdt_buf_addf() formats in one pass when the text fits the room
 * left and in two when it must grow; either way the buffer holds exactly the text, NUL-terminated.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "util/internal.h"

static void addf_short_and_long(void **state)
{
	struct sdt_buf b = {0};
	char expect[20000], piece[700];
	size_t len = 0, i;

	(void)state;
	expect[0] = '\0';
	/* pieces of 1 to ~650 bytes: some fit the room left, some make the buffer grow */
	for (i = 0; i < 60; i++) {
		memset(piece, 'a' + (int)(i % 26), sizeof(piece));
		piece[(i * 37) % 650] = '\0';
		assert_int_equal(sdt_buf_addf(&b, "%zu:%s|", i, piece), 0);
		len += (size_t)snprintf(expect + len, sizeof(expect) - len, "%zu:%s|", i, piece);
		assert_int_equal(b.len, len);
		assert_int_equal(strlen(b.buf), len);
		assert_true(b.cap > b.len);
	}
	assert_string_equal(b.buf, expect);
	/* an empty text on an empty buffer */
	sdt_buf_free(&b);
	memset(&b, 0, sizeof(b));
	assert_int_equal(sdt_buf_addf(&b, "%s", ""), 0);
	assert_int_equal(b.len, 0);
	assert_string_equal(b.buf, "");
	sdt_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(addf_short_and_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
