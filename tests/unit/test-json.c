/* SPDX-License-Identifier: MIT */
/* The streaming JSON writer of the CLI (cli/json.c): nesting, commas, escaping, bad UTF-8. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "../../cli/json.c"

static char *render(void (*fn)(struct json *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct json j;

	assert_non_null(fp);
	json_init(&j, fp, false);
	fn(&j);
	fclose(fp);
	return buf;
}

static void nested(struct json *j)
{
	json_begin_array(j);
	json_begin_object(j);
	json_key(j, "a");
	json_int(j, -5);
	json_key(j, "b");
	json_begin_array(j);
	json_uint(j, UINT64_MAX);
	json_int(j, INT64_MIN);
	json_null(j);
	json_bool(j, true);
	json_end_array(j);
	json_key(j, "c");
	json_begin_object(j);
	json_end_object(j);
	json_end_object(j);
	json_begin_array(j);
	json_end_array(j);
	json_double(j, 0.5);
	json_end_array(j);
}

static void test_nesting(void **state)
{
	char *s = render(nested);

	(void)state;
	assert_string_equal(s, "[{\"a\":-5,\"b\":[18446744073709551615,-9223372036854775808,null,"
			       "true],\"c\":{}},[],0.5]");
	free(s);
}

static void strings(struct json *j)
{
	json_begin_array(j);
	json_string(j, "quote\" back\\slash\nnl\ttab\x01");
	json_string(j, "caf\xc3\xa9 \xe2\x82\xac");    /* valid UTF-8 kept */
	json_string(j, "bad\xff\xc3(\xed\xa0\x80 end"); /* invalid bytes, a surrogate */
	json_string(j, NULL);
	json_end_array(j);
}

static void test_escaping(void **state)
{
	char *s = render(strings);

	(void)state;
	assert_string_equal(s, "[\"quote\\\" back\\\\slash\\nnl\\ttab\\u0001\","
			       "\"caf\xc3\xa9 \xe2\x82\xac\","
			       "\"bad\\ufffd\\ufffd(\\ufffd\\ufffd\\ufffd end\",null]");
	free(s);
}

static void special_doubles(struct json *j)
{
	json_begin_array(j);
	json_double(j, 1.0 / 0.0);
	json_double(j, -2.5);
	json_double(j, -1.0 / 0.0);
	json_double(j, NAN);
	json_long_double(j, -1.0L / 0.0L);
	json_long_double(j, (long double)NAN);
	json_end_array(j);
}

static void test_doubles(void **state)
{
	char *s = render(special_doubles);

	(void)state;
	/* non-finite values survive as strings, never null (json.c) */
	assert_string_equal(s, "[\"inf\",-2.5,\"-inf\",\"nan\",\"-inf\",\"nan\"]");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_escaping),
		cmocka_unit_test(test_doubles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
