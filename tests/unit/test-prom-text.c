/* SPDX-License-Identifier: MIT */
/* The Prometheus text format writer of the CLI (cli/prom-text.c): label escapes, bad UTF-8, names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "../../cli/json.c"
#include "../../cli/prom-text.c"

/* What a sample with one label "v" of value @value looks like, and a counter at 3. */
static char *sample(const char *value)
{
	struct prom_label l[2] = {{"provider", "p"}, {"v", value}};
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	prom_sample_u64(fp, "m_total", l, 2, 3);
	fclose(fp);
	return buf;
}

static void test_escapes(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
	    {"/usr/bin/python3.11", "m_total{provider=\"p\",v=\"/usr/bin/python3.11\"} 3\n"},
	    /* the value a\\b (a backslash doubled), written a\\\\b */
	    {"a\\b", "m_total{provider=\"p\",v=\"a\\\\\\\\b\"} 3\n"},
	    {"say \"hi\"", "m_total{provider=\"p\",v=\"say \\\"hi\\\"\"} 3\n"},
	    {"two\nlines", "m_total{provider=\"p\",v=\"two\\nlines\"} 3\n"},
	    {"tab\there", "m_total{provider=\"p\",v=\"tab\there\"} 3\n"},
	    {"h\xc3\xa9", "m_total{provider=\"p\",v=\"h\xc3\xa9\"} 3\n"},		/* é kept */
	    /* not UTF-8: the value x\xff (four characters), written x\\xff */
	    {"x\xff", "m_total{provider=\"p\",v=\"x\\\\xff\"} 3\n"},
	    {"\xe6\x97", "m_total{provider=\"p\",v=\"\\\\xe6\\\\x97\"} 3\n"}, /* cut */
	    /* U+FFFD itself stays: distinct from the byte it used to replace */
	    {"x\xef\xbf\xbd", "m_total{provider=\"p\",v=\"x\xef\xbf\xbd\"} 3\n"},
	    /* the text \xff: its backslash doubled, so distinct from the byte 0xff */
	    {"x\\xff", "m_total{provider=\"p\",v=\"x\\\\\\\\xff\"} 3\n"},
	    {"", "m_total{provider=\"p\",v=\"\"} 3\n"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = sample(cases[i].in);

		assert_string_equal(s, cases[i].out);
		free(s);
	}
}

static void test_family_and_values(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(fp);
	prom_family(fp, "sdtrace_elapsed_seconds", "gauge", "Seconds \\ since\nthen.");
	prom_sample_double(fp, "sdtrace_elapsed_seconds", NULL, 0, 1.5);
	prom_sample_double(fp, "x", NULL, 0, 0.0 / 0.0);
	prom_sample_double(fp, "x", NULL, 0, -1.0 / 0.0);
	prom_sample_u64(fp, "big_total", NULL, 0, UINT64_MAX);
	fclose(fp);
	assert_string_equal(buf, "# HELP sdtrace_elapsed_seconds Seconds \\\\ since\\nthen.\n"
				 "# TYPE sdtrace_elapsed_seconds gauge\n"
				 "sdtrace_elapsed_seconds 1.5\n"
				 "x NaN\n"
				 "x -Inf\n"
				 "big_total 18446744073709551615\n");
	free(buf);
}

static void test_names(void **state)
{
	(void)state;
	assert_true(prom_name_ok("sdtrace_probe_hits_total"));
	assert_true(prom_name_ok("_x9"));
	assert_true(prom_name_ok("Query"));
	assert_false(prom_name_ok(""));
	assert_false(prom_name_ok(NULL));
	assert_false(prom_name_ok("9lives"));
	assert_false(prom_name_ok("a-b"));
	assert_false(prom_name_ok("a.b"));
	assert_false(prom_name_ok("caf\xc3\xa9"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_escapes),
	    cmocka_unit_test(test_family_and_values),
	    cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
