/* SPDX-License-Identifier: MIT */
/*
 * sdtrace.meta (lib/cache/meta.c): text fields escaped by runs (bytes <= ' ', '%' and >= 0x7f as
 * %XX, a lone "-" as %2D) and read back byte for byte, also for a path longer than the buffer's
 * first growth.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "scan/file.h"
#include "cache/meta.h"

static void roundtrip(const char *path, const char *escaped)
{
	struct sdt_file f = {.path = (char *)path, .build_id = (char *)"0123abcd"};
	struct stat st;
	struct sdt_buf b = {0};
	struct sdt_meta m;
	char line[4096];

	memset(&st, 0, sizeof(st));
	st.st_size = 42;
	assert_int_equal(sdt_meta_render(&f, path, &st, &b), 0);
	if (escaped) {
		snprintf(line, sizeof(line), "\npath %s\n", escaped);
		assert_non_null(strstr(b.buf, line));
	}
	assert_int_equal(sdt_meta_parse(b.buf, b.len, &m), 0);
	assert_string_equal(m.path, path);
	assert_string_equal(m.build_id, "0123abcd");
	assert_int_equal(m.size, 42);
	sdt_meta_release(&m);
	sdt_buf_free(&b);
}

static void escaping(void **state)
{
	char long_path[600];

	(void)state;
	roundtrip("/usr/bin/plain", "/usr/bin/plain");
	roundtrip("/tmp/a b%c\td\x7f\xc3\xa9/e", "/tmp/a%20b%25c%09d%7F%C3%A9/e");
	roundtrip("-", "%2D");
	roundtrip("%", "%25");
	roundtrip(" x ", "%20x%20");
	memset(long_path, 'p', sizeof(long_path) - 1);
	long_path[0] = '/';
	long_path[300] = ' ';
	long_path[sizeof(long_path) - 1] = '\0';
	roundtrip(long_path, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(escaping),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
