/* SPDX-License-Identifier: MIT */
/*
 * The library's messages (lib/util/print.c): nowhere until a callback is installed
 * (sdt_set_print(), which returns the previous one), then one call per line with its level,
 * errno unchanged across the callback; sdt_print_lines() splits a text into lines.
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

static char got[1024];
static size_t calls;
static enum sdt_print_level last_level;

static int record(enum sdt_print_level level, const char *fmt, va_list ap)
{
	size_t len = strlen(got);

	calls++;
	last_level = level;
	vsnprintf(got + len, sizeof(got) - len, fmt, ap);
	errno = EIO; /* a callback may change errno: the library's caller must not see it */
	return 0;
}

static int other(enum sdt_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void reset(void)
{
	got[0] = '\0';
	calls = 0;
}

static void nowhere_by_default(void **state)
{
	(void)state;
	assert_false(sdt_print_enabled());
	assert_null(sdt_set_print(NULL));
	sdt_debug("nobody reads this %d\n", 1);
	sdt_print_lines(SDT_DEBUG, "x ", "a\nb\n", 4);
}

static void set_returns_the_previous(void **state)
{
	(void)state;
	assert_null(sdt_set_print(record));
	assert_true(sdt_print_enabled());
	assert_ptr_equal(sdt_set_print(other), record);
	assert_ptr_equal(sdt_set_print(NULL), other);
	assert_false(sdt_print_enabled());
}

static void one_call_per_message(void **state)
{
	(void)state;
	reset();
	sdt_set_print(record);
	errno = ENOENT;
	sdt_debug("'%s': file offset 0x%x\n", "/bin/x", 0x1234);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(calls, 1);
	assert_int_equal(last_level, SDT_DEBUG);
	assert_string_equal(got, "'/bin/x': file offset 0x1234\n");
	reset();
	sdt_print(SDT_WARN, "careful\n");
	assert_int_equal(last_level, SDT_WARN);
	assert_string_equal(got, "careful\n");
	sdt_set_print(NULL);
}

static void lines_of_a_text(void **state)
{
	static const char defs[] = "p:g/a /bin/x:0x10 arg1=%di:s64\np:g/b /bin/x:0x20\n";

	(void)state;
	reset();
	sdt_set_print(record);
	sdt_print_lines(SDT_DEBUG, "uprobe_events: add ", defs, strlen(defs));
	assert_int_equal(calls, 2);
	assert_string_equal(got, "uprobe_events: add p:g/a /bin/x:0x10 arg1=%di:s64\n"
				 "uprobe_events: add p:g/b /bin/x:0x20\n");
	/* the last line without its newline, and only @len bytes of the text */
	reset();
	sdt_print_lines(SDT_DEBUG, "- ", "-:g/a\n-:g/b", 11);
	assert_int_equal(calls, 2);
	assert_string_equal(got, "- -:g/a\n- -:g/b\n");
	reset();
	sdt_print_lines(SDT_DEBUG, "- ", "-:g/a\n-:g/b\n", 3);
	assert_string_equal(got, "- -:g\n");
	reset();
	sdt_print_lines(SDT_DEBUG, "- ", "", 0);
	assert_int_equal(calls, 0);
	sdt_set_print(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(nowhere_by_default),
	    cmocka_unit_test(set_returns_the_previous),
	    cmocka_unit_test(one_call_per_message),
	    cmocka_unit_test(lines_of_a_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
