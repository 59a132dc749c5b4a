/* SPDX-License-Identifier: MIT */
/* Parsing tracefs event `format` files (lib/record/event_format.c): real layouts and hostile text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "record/tracefs/event_format.h"
#include "util/internal.h"

/* What kernel 6.18 prints for a uprobe with a u64, an s8, a :string and an x64 argument. */
static const char uprobe_format[] =
    "name: example_job__start\n"
    "ID: 1690\n"
    "format:\n"
    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
    "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
    "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
    "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
    "\n"
    "\tfield:unsigned long __probe_ip;\toffset:8;\tsize:8;\tsigned:0;\n"
    "\tfield:u64 arg1;\toffset:16;\tsize:8;\tsigned:0;\n"
    "\tfield:s8 arg3;\toffset:24;\tsize:1;\tsigned:1;\n"
    "\tfield:__data_loc char[] arg4;\toffset:28;\tsize:4;\tsigned:1;\n"
    "\tfield:x64 arg5;\toffset:32;\tsize:8;\tsigned:0;\n"
    "\tfield:s32 arg6[4];\toffset:40;\tsize:16;\tsigned:1;\n"
    "\n"
    "print fmt: \"(%lx) arg1=%llu arg3=%d\", REC->__probe_ip, REC->arg1, REC->arg3\n";

static int parse(const char *text, struct sdt_trace_field **f, size_t *n, int *ip)
{
	*f = NULL;
	*n = 0;
	*ip = -2;
	return sdt_event_format_parse(text, strlen(text), f, n, ip);
}

static void real_uprobe_format(void **state)
{
	struct sdt_trace_field *f;
	size_t n;
	int ip;

	(void)state;
	assert_int_equal(parse(uprobe_format, &f, &n, &ip), 0);
	assert_int_equal(n, 6); /* common_* dropped */
	assert_int_equal(ip, 0);
	assert_string_equal(f[0].name, "__probe_ip");
	assert_int_equal(f[0].offset, 8);
	assert_int_equal(f[0].size, 8);
	assert_false(f[0].is_signed);
	assert_string_equal(f[1].name, "arg1");
	assert_int_equal(f[1].offset, 16);
	assert_string_equal(f[2].name, "arg3");
	assert_int_equal(f[2].size, 1);
	assert_true(f[2].is_signed);
	assert_false(f[2].is_data_loc);
	assert_string_equal(f[3].name, "arg4");
	assert_true(f[3].is_data_loc);
	assert_int_equal(f[3].size, 4);
	assert_string_equal(f[4].name, "arg5");
	assert_string_equal(f[5].name, "arg6"); /* the array suffix is not part of the name */
	assert_int_equal(f[5].size, 16);
	sdt_trace_fields_free(f, n);
}

static void no_probe_ip(void **state)
{
	struct sdt_trace_field *f;
	size_t n;
	int ip;

	(void)state;
	assert_int_equal(
	    parse("format:\n\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n", &f, &n, &ip), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ip, -1);
	sdt_trace_fields_free(f, n);
	/* nothing at all: no fields, not an error */
	assert_int_equal(parse("", &f, &n, &ip), 0);
	assert_int_equal(n, 0);
	assert_null(f);
}

static void hostile(void **state)
{
	static const char *const bad[] = {
	    "\tfield:u64 arg1;\toffset:16;\tsize:8;\n",		  /* no signed: */
	    "\tfield:u64 arg1;\tsize:8;\tsigned:0;\n",		  /* no offset: */
	    "\tfield:u64 arg1\toffset:16;\tsize:8;\tsigned:0;\n", /* no ';' after decl */
	    "\tfield:u64 arg1;\toffset:99999999999999;\tsize:8;\tsigned:0;\n", /* huge */
	    "\tfield:u64 arg1;\toffset:65530;\tsize:8;\tsigned:0;\n",	       /* past 64 KiB */
	    "\tfield:u64 arg1;\toffset:8;\tsize:0;\tsigned:0;\n",	       /* empty */
	    "\tfield:u64 arg1;\toffset:8;\tsize:8;\tsigned:2;\n",	       /* signed is 0/1 */
	    "\tfield:u64 arg1;\toffset:-8;\tsize:8;\tsigned:0;\n",	       /* negative */
	    "\tfield:;\toffset:8;\tsize:8;\tsigned:0;\n",		       /* no name */
	    "\tfield:u64 ];\toffset:8;\tsize:8;\tsigned:0;\n",		       /* unbalanced */
	    "\tfield:__data_loc char[] s;\toffset:8;\tsize:8;\tsigned:0;\n",   /* data_loc is u32 */
	    "\tfield:u64 arg1;\toffset:8;\tsize:8;\tsigned:",		       /* truncated */
	};
	struct sdt_trace_field *f;
	size_t i, n;
	int ip;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int err = parse(bad[i], &f, &n, &ip);

		if (err != -EINVAL)
			fail_msg("case %zu: expected -EINVAL, got %d for '%s'", i, err, bad[i]);
		assert_non_null(strstr(sdt_errmsg(), "event format"));
	}
}

static void too_many_fields(void **state)
{
	struct sdt_buf b = {0};
	struct sdt_trace_field *f;
	size_t n, i;
	int ip;

	(void)state;
	for (i = 0; i <= SDT_FORMAT_MAX_FIELDS; i++)
		assert_int_equal(
		    sdt_buf_addf(&b, "\tfield:u8 a%zu;\toffset:%zu;\tsize:1;\tsigned:0;\n", i, i),
		    0);
	assert_int_equal(sdt_event_format_parse(b.buf, b.len, &f, &n, &ip), -EINVAL);
	/* one fewer is fine */
	b.len = (size_t)(strstr(b.buf, "\tfield:u8 a256;") - b.buf);
	assert_int_equal(sdt_event_format_parse(b.buf, b.len, &f, &n, &ip), 0);
	assert_int_equal(n, SDT_FORMAT_MAX_FIELDS);
	sdt_trace_fields_free(f, n);
	sdt_buf_free(&b);
}

static void not_nul_terminated(void **state)
{
	/* The parser must stay inside len: the text is cut in the middle of a number. */
	static const char text[] = "\tfield:u64 arg1;\toffset:16;\tsize:8;\tsigned:0;\n"
				   "\tfield:u64 arg2;\toffset:24;\tsize:8;\tsigned:0;\n";
	struct sdt_trace_field *f;
	size_t cut = strlen(text) - 4, n;
	char *copy = malloc(cut);
	int ip;

	(void)state;
	assert_non_null(copy);
	memcpy(copy, text, cut);
	assert_int_equal(sdt_event_format_parse(copy, cut, &f, &n, &ip), -EINVAL);
	free(copy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(real_uprobe_format),
	    cmocka_unit_test(no_probe_ip),
	    cmocka_unit_test(hostile),
	    cmocka_unit_test(too_many_fields),
	    cmocka_unit_test(not_nul_terminated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
