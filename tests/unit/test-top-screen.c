/* SPDX-License-Identifier: MIT */
/*
 * The frames of sdtrace top (cli/top-screen.c): the order of the rows, the cut to a width and a
 * height with the "... N more" line, -n, the key rows (the --by seam), hostile bytes shown as
 * '?', and the terminal form's cursor placing and clearing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../cli/top-screen.c"

static struct top_row rows[] = {
    {"p", "slow", 10, 100, 10.0},
    {"p", "fast", 500, 600, 500.0},
    {"p", "old", 0, 9000, 0.0},
    {"q", "mid", 50, 50, 50.0},
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

static char *frame(const struct top_key *keys, size_t nkeys, size_t max_rows, unsigned width,
		   unsigned height, bool ansi, unsigned *lines)
{
	struct top_header h = {.target = "-- sh \033[2Jx", .engine = "tracefs", .elapsed_s = 2.5,
			       .rate = 560, .lost = 3, .status = "q quit"};
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	unsigned n;

	assert_non_null(fp);
	top_rows_sort(rows, NROWS, TOP_SORT_RATE);
	n = top_render(fp, &h, rows, NROWS, max_rows, "key", keys, nkeys, width, height, ansi);
	fclose(fp);
	if (lines)
		*lines = n;
	return buf;
}

static void test_sort(void **state)
{
	(void)state;
	top_rows_sort(rows, NROWS, TOP_SORT_RATE);
	assert_string_equal(rows[0].name, "fast");
	assert_string_equal(rows[3].name, "old");
	top_rows_sort(rows, NROWS, TOP_SORT_TOTAL);
	assert_string_equal(rows[0].name, "old");
	assert_string_equal(rows[3].name, "mid");
	top_rows_sort(rows, NROWS, TOP_SORT_NAME);
	assert_string_equal(rows[0].name, "fast");
	assert_string_equal(rows[3].name, "mid");
	assert_string_equal(top_sort_name(TOP_SORT_TOTAL), "total");
}

static void test_plain_whole(void **state)
{
	unsigned lines;
	char *s = frame(NULL, 0, 0, 0, 0, false, &lines);

	(void)state;
	assert_int_equal(lines, 7);
	assert_non_null(strstr(s, "sdtrace top  2.5 s  tracefs  560.0 hits/s  lost 3  -- sh ?[2Jx\n"));
	assert_null(strchr(s, '\033')); /* the target's escape is shown as '?' */
	assert_non_null(strstr(s, "4 events, by rate    q quit\n"));
	assert_non_null(strstr(s, "       500.0        500            600  %p:fast\n"
				  "        50.0         50             50  %q:mid\n"));
	free(s);
}

static void test_cut(void **state)
{
	unsigned lines;
	char *s = frame(NULL, 0, 0, 20, 5, false, &lines), *p, *nl;

	(void)state;
	/* 5 lines: the header, its second line, the titles, one row, "... 3 more events" */
	assert_int_equal(lines, 5);
	for (p = s; (nl = strchr(p, '\n')); p = nl + 1)
		assert_true(nl - p <= 20);
	assert_non_null(strstr(s, "sdtrace top  2.5 s  \n"));
	assert_non_null(strstr(s, "\n             ... 3 m\n")); /* cut too */
	free(s);
	/* -n 2: two rows and the line that says how many more */
	s = frame(NULL, 0, 2, 0, 30, false, &lines);
	assert_int_equal(lines, 6);
	assert_non_null(strstr(s, "%q:mid\n             ... 2 more events\n"));
	free(s);
	/* too low for any row: the header alone */
	s = frame(NULL, 0, 0, 0, 2, false, &lines);
	assert_int_equal(lines, 2);
	free(s);
}

static void test_keys(void **state)
{
	static const struct top_key keys[] = {{"SELECT 1", 40}, {"UPDATE t", 7}, {"bad\x1b", 1}};
	unsigned lines;
	char *s = frame(keys, 3, 0, 0, 0, false, &lines);

	(void)state;
	/* the rows, a blank line, the title, the keys */
	assert_int_equal(lines, 7 + 1 + 1 + 3);
	assert_non_null(strstr(s, "%p:old\n\n         count  key\n"
				  "            40  SELECT 1\n             7  UPDATE t\n"
				  "             1  bad?\n"));
	free(s);
	/* in 12 lines: 4 of the 9 below the titles for the keys (a blank, the title, one key
	 * and a "more" line), the 4 rows above */
	s = frame(keys, 3, 0, 0, 12, false, &lines);
	assert_int_equal(lines, 3 + 4 + 1 + 1 + 2);
	assert_non_null(strstr(s, "            40  SELECT 1\n                ... 2 more keys\n"));
	free(s);
}

static void test_ansi(void **state)
{
	unsigned lines;
	char *s = frame(NULL, 0, 0, 60, 10, true, &lines);

	(void)state;
	assert_int_equal(lines, 7);
	assert_memory_equal(s, "\033[1;1Hsdtrace top", 17);
	assert_non_null(strstr(s, "\033[K\033[2;1H4 events"));
	assert_non_null(strstr(s, "\033[3;1H\033[7m      rate/s"));	  /* the titles' bar */
	assert_non_null(strstr(s, "\033[7;1H         0.0          0           9000  %p:old\033[K"));
	assert_string_equal(s + strlen(s) - 3, "\033[J"); /* what is below, cleared */
	free(s);
}

/* --per-process: busiest first, a column per category, cut to the height with "N more". */
static void test_procs(void **state)
{
	static const char *const cats[] = {"method", "gc"};
	struct top_proc p[3] = {
	    {.pid = 7, .comm = "idle", .all = 50},
	    {.pid = 9, .comm = "busy\033x", .rate = {300.0, 2.0}, .busy = 302.0, .all = 9},
	    {.pid = 8, .comm = "mid", .rate = {10.0, 1.5}, .busy = 11.5, .all = 20},
	};
	struct top_header h = {.target = "-a", .engine = "bpf", .elapsed_s = 1, .rate = 313.5};
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;
	unsigned n;

	(void)state;
	top_procs_sort(p, 3);
	assert_int_equal(p[0].pid, 9);
	assert_int_equal(p[1].pid, 8);
	assert_int_equal(p[2].pid, 7);
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	n = top_render_procs(fp, &h, p, 3, cats, 2, 0, 0, 0, false);
	fclose(fp);
	assert_int_equal(n, 6);
	assert_non_null(strstr(buf, "3 processes, busiest first\n"));
	assert_non_null(strstr(buf, "    PID COMM                method/s        gc/s\n"));
	assert_non_null(strstr(buf, "      9 busy?x                 300.0         2.0\n"));
	assert_null(strchr(buf, '\033'));
	free(buf);
	/* a height of 5: the header, the titles, one row, and what does not fit */
	buf = NULL;
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	n = top_render_procs(fp, &h, p, 3, cats, 2, 0, 0, 5, false);
	fclose(fp);
	assert_int_equal(n, 5);
	assert_non_null(strstr(buf, "... 2 more processes"));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sort),  cmocka_unit_test(test_procs),
	    cmocka_unit_test(test_plain_whole),
	    cmocka_unit_test(test_cut), cmocka_unit_test(test_keys), cmocka_unit_test(test_ansi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
