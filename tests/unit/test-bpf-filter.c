/* SPDX-License-Identifier: MIT */
/*
 * A filter compiled for the BPF program (lib/record/bpf/filter.c): the steps it writes
 * for string tests (a recorded string, comm; equal, TEXT*, *TEXT, *, negations), what it decides
 * at compile time, and what it refuses with the reason (other globs, long literals, a fifth
 * literal). The program's evaluation of these steps is checked end to end by t1906.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "record/bpf/engine.h"
#include "sdtrace/sdtrace.h"

static struct sdt_trace_event_desc *d; /* filt:req(s32 delta, string query) */

static int setup(void **state)
{
	struct sdt_arg_type delta = {.name = "delta", .kind = SDT_TYPE_DEFAULT};
	struct sdt_arg_type query = {.name = "query", .kind = SDT_TYPE_STRING, .size = 8};

	(void)state;
	if (sdt_trace_event_desc__new(0, "filt", "req", NULL, &d) ||
	    sdt_trace_event_desc__add_arg(d, "-4@%eax", &delta) ||
	    sdt_trace_event_desc__add_arg(d, "8@%rdi", &query))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sdt_trace_event_desc__free(d);
	return 0;
}

/* @expr compiled into @out; its return value. */
static int compile(const char *expr, struct sdt_bpf_filter *out)
{
	struct sdt_filter *f;
	int err;

	if (sdt_filter__parse(expr, &f, NULL))
		fail_msg("%s: %s", expr, sdt_errmsg());
	err = sdt_rec_bpf_filter_compile(f, d, out);
	sdt_filter__free(f);
	return err;
}

/* @expr compiles to one string test @cmp of literal @lit, negated or not. */
static void one_test(const char *expr, enum sdt_bpf_fsrc src, enum sdt_bpf_fcmp cmp,
		     const char *lit, int negate)
{
	struct sdt_bpf_filter out;

	assert_int_equal(compile(expr, &out), 0);
	assert_int_equal(out.n, 1);
	assert_int_equal(out.steps[0].op, SDT_BPF_FOP_TEST);
	assert_int_equal(out.steps[0].src, src);
	assert_int_equal(out.steps[0].cmp, cmp);
	assert_int_equal(out.steps[0].negate, negate);
	assert_int_equal(out.comm, src == SDT_BPF_FSRC_COMM);
	if (lit) {
		assert_int_equal(out.steps[0].mask, strlen(lit));
		assert_int_equal(out.steps[0].value, 0);
		assert_string_equal((const char *)out.strs[0], lit);
	}
}

static void test_forms(void **state)
{
	(void)state;
	one_test("query == \"SELECT 1\"", SDT_BPF_FSRC_STR, SDT_BPF_FCMP_SEQ, "SELECT 1", 0);
	one_test("query != \"x\"", SDT_BPF_FSRC_STR, SDT_BPF_FCMP_SEQ, "x", 1);
	one_test("query ~ \"SEL*\"", SDT_BPF_FSRC_STR, SDT_BPF_FCMP_SPRE, "SEL", 0);
	one_test("query ~ \"SEL**\"", SDT_BPF_FSRC_STR, SDT_BPF_FCMP_SPRE, "SEL", 0);
	one_test("query !~ \"*_c\"", SDT_BPF_FSRC_STR, SDT_BPF_FCMP_SSUF, "_c", 1);
	one_test("query ~ \"plain\"", SDT_BPF_FSRC_STR, SDT_BPF_FCMP_SEQ, "plain", 0);
	one_test("query ~ \"*\"", SDT_BPF_FSRC_STR, SDT_BPF_FCMP_SANY, NULL, 0);
	one_test("query", SDT_BPF_FSRC_STR, SDT_BPF_FCMP_SNZ, NULL, 0);
	one_test("comm == \"prog-filter\"", SDT_BPF_FSRC_COMM, SDT_BPF_FCMP_SEQ, "prog-filter", 0);
	one_test("comm ~ \"prog*\"", SDT_BPF_FSRC_COMM, SDT_BPF_FCMP_SPRE, "prog", 0);
}

/* Literals get their own slots, in order; a string against a number is false. */
static void test_literals(void **state)
{
	struct sdt_bpf_filter out;

	(void)state;
	assert_int_equal(compile("query == \"a\" || (query ~ \"bc*\" && comm != \"def\") || "
				 "query ~ \"*ghij\"",
				 &out),
			 0);
	assert_string_equal((const char *)out.strs[0], "a");
	assert_string_equal((const char *)out.strs[1], "bc");
	assert_string_equal((const char *)out.strs[2], "def");
	assert_string_equal((const char *)out.strs[3], "ghij");
	assert_int_equal(out.steps[0].value, 0);
	assert_int_equal(out.steps[1].value, 1);
	assert_int_equal(out.steps[2].value, 2);
	assert_int_equal(out.comm, 1);

	assert_int_equal(compile("query > 5", &out), 0); /* a string is never a number */
	assert_int_equal(out.n, 1);
	assert_int_equal(out.steps[0].op, SDT_BPF_FOP_CONST);
	assert_int_equal(out.steps[0].value, 0);
	assert_int_equal(compile("query == 5", &out), 0);
	assert_int_equal(out.steps[0].op, SDT_BPF_FOP_CONST);
	assert_int_equal(out.strs[0][0], 0);
}

/* What the program cannot say: refused, with the reason, for user space. */
static void refused(const char *expr, const char *why)
{
	struct sdt_bpf_filter out;

	assert_int_equal(compile(expr, &out), -ENOTSUP);
	if (!strstr(sdt_errmsg(), why))
		fail_msg("%s: '%s' lacks '%s'", expr, sdt_errmsg(), why);
}

static void test_refused(void **state)
{
	char lit[80], expr[128];

	(void)state;
	refused("query ~ \"*EL*\"", "takes globs of the forms TEXT, TEXT*, *TEXT and * only");
	refused("query ~ \"S?L*\"", "takes globs of the forms");
	refused("query ~ \"[ab]*\"", "takes globs of the forms");
	refused("query == \"a\" || query == \"b\" || query == \"c\" || query == \"d\" || "
		"comm == \"e\"",
		"takes at most 4 strings");
	memset(lit, 'x', 64);
	lit[64] = 0;
	snprintf(expr, sizeof(expr), "query == \"%s\"", lit);
	refused(expr, "compares strings of at most 63 bytes");
	lit[63] = 0; /* 63 bytes: taken */
	snprintf(expr, sizeof(expr), "query ~ \"%s*\"", lit);
	one_test(expr, SDT_BPF_FSRC_STR, SDT_BPF_FCMP_SPRE, lit, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_forms),
	    cmocka_unit_test(test_literals),
	    cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
