/* SPDX-License-Identifier: MIT */
/*
 * The flame graph SVG (cli/flamegraph.c): totals, stacks merged by prefix, children sorted by
 * name at each level, frames narrower than 0.1 px left out with their counts kept in their
 * parents', hostile names escaped as XML, and the event as the root frame (or not).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../cli/flamegraph.c"

/* The SVG of @e[0..n) with @opts; *st gets the layout counters. */
static char *svg(const struct fg_entry *e, size_t n, const struct fg_opts *opts, struct fg_stats *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(flamegraph_write(fp, e, n, opts, st), 0);
	fclose(fp);
	return buf;
}

static size_t count_of(const char *hay, const char *needle)
{
	size_t k = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		k++;
	return k;
}

/* The data-s (first sample) of the frame whose title is exactly "@title (", or -1. */
static long long start_of(const char *s, const char *title)
{
	char want[256];
	const char *t;

	snprintf(want, sizeof(want), "<title>%s (", title);
	t = strstr(s, want);
	if (!t)
		return -1;
	while (t > s && strncmp(t, "data-s=\"", 8))
		t--;
	return strtoll(t + 8, NULL, 10);
}

static const char *const s_inner[] = {"main", "outer", "inner"};
static const char *const s_other[] = {"main", "outer", "other"};
static const char *const s_alpha[] = {"main", "alpha"};

static void test_counts_and_merge(void **state)
{
	struct fg_entry e[] = {{.frames = s_inner, .depth = 3, .count = 12},
			       {.frames = s_other, .depth = 3, .count = 3}};
	struct fg_stats st;
	char *s;

	(void)state;
	s = svg(e, 2, NULL, &st);
	assert_int_equal(st.total, 15);
	assert_int_equal(st.nodes, 5); /* all main outer inner other */
	assert_int_equal(st.drawn, 5);
	assert_int_equal(st.max_depth, 3);
	assert_non_null(strstr(s, "<title>all (15 samples, 100.00%)</title>"));
	assert_non_null(strstr(s, "<title>main (15 samples, 100.00%)</title>"));
	assert_non_null(strstr(s, "<title>outer (15 samples, 100.00%)</title>"));
	assert_non_null(strstr(s, "<title>inner (12 samples, 80.00%)</title>"));
	assert_non_null(strstr(s, "<title>other (3 samples, 20.00%)</title>"));
	assert_int_equal(count_of(s, "<g class=\"f\""), 5);
	assert_int_equal(count_of(s, "<title>outer "), 1); /* merged: one frame */
	assert_non_null(strstr(s, "data-total=\"15\""));
	free(s);
}

static void test_sorted_per_level(void **state)
{
	/* given out of order: alphabetical at each level, x follows */
	struct fg_entry e[] = {{.frames = s_other, .depth = 3, .count = 3},
			       {.frames = s_alpha, .depth = 2, .count = 5},
			       {.frames = s_inner, .depth = 3, .count = 12}};
	struct fg_stats st;
	char *s;

	(void)state;
	s = svg(e, 3, NULL, &st);
	assert_int_equal(st.total, 20);
	assert_int_equal(start_of(s, "alpha"), 0);
	assert_int_equal(start_of(s, "outer"), 5);
	assert_int_equal(start_of(s, "inner"), 5);
	assert_int_equal(start_of(s, "other"), 17);
	assert_true(strstr(s, "<title>alpha ") < strstr(s, "<title>outer "));
	assert_true(strstr(s, "<title>inner ") < strstr(s, "<title>other "));
	free(s);
}

static void test_self_time_and_duplicates(void **state)
{
	/* "main" on its own (self samples) and a repeated stack add up */
	static const char *const m[] = {"main"};
	struct fg_entry e[] = {{.frames = m, .depth = 1, .count = 4},
			       {.frames = s_inner, .depth = 3, .count = 2},
			       {.frames = s_inner, .depth = 3, .count = 5},
			       {.frames = s_alpha, .depth = 2, .count = 0}};
	struct fg_stats st;
	char *s;

	(void)state;
	s = svg(e, 4, NULL, &st);
	assert_int_equal(st.total, 11);
	assert_int_equal(st.nodes, 4); /* the zero count adds no frame */
	assert_non_null(strstr(s, "<title>main (11 samples,"));
	assert_non_null(strstr(s, "<title>inner (7 samples,"));
	assert_null(strstr(s, "<title>alpha "));
	free(s);
}

static void test_elision(void **state)
{
	static const char *const big[] = {"main", "big"};
	static const char *const tiny[] = {"main", "tiny", "tinier"};
	struct fg_entry e[] = {{.frames = big, .depth = 2, .count = 99999},
			       {.frames = tiny, .depth = 3, .count = 1}};
	struct fg_stats st;
	char *s;

	(void)state;
	/* 1 of 100000 on 1180 px: 0.0118 px, not drawn, nor its child */
	s = svg(e, 2, NULL, &st);
	assert_int_equal(st.nodes, 5);
	assert_int_equal(st.drawn, 3);
	assert_int_equal(st.total, 100000);
	assert_int_equal(count_of(s, "<g class=\"f\""), 3);
	assert_null(strstr(s, "tiny"));
	assert_null(strstr(s, "tinier"));
	assert_non_null(strstr(s, "<title>main (100000 samples, 100.00%)</title>"));
	free(s);
	/* a 0.01 px threshold draws tiny and tinier (0.0118 px each) */
	s = svg(e, 2, &(struct fg_opts){.min_px = 0.01}, &st);
	assert_int_equal(st.drawn, 5);
	free(s);
	/* a 1180 px threshold: the root and main (1180 px), not big (1179.99 px) */
	s = svg(e, 2, &(struct fg_opts){.min_px = 1180}, &st);
	assert_int_equal(st.drawn, 2);
	assert_int_equal(st.total, 100000);
	free(s);
	/* wide enough at 200,000 px: drawn */
	s = svg(e, 2, &(struct fg_opts){.width = 200000}, &st);
	assert_int_equal(st.drawn, 5);
	assert_non_null(strstr(s, "<title>tinier (1 sample, 0.00%)</title>"));
	free(s);
}

static void test_hostile_names(void **state)
{
	static const char *const h[] = {"<&\"'>", "a\x01" "b\x7f" "c", "bad\xff\xc3(", "ok\xc3\xa9"};
	struct fg_entry e[] = {{.frames = h, .depth = 4, .count = 1}};
	char *s;

	(void)state;
	s = svg(e, 1, &(struct fg_opts){.title = "<t>&"}, NULL);
	assert_non_null(strstr(s, "<title>&lt;&amp;&quot;&apos;&gt; (1 sample"));
	assert_non_null(strstr(s, "<title>a\xef\xbf\xbd" "b\xef\xbf\xbd" "c (1 sample"));
	assert_non_null(strstr(s, "<title>bad\xef\xbf\xbd\xef\xbf\xbd( (1 sample"));
	assert_non_null(strstr(s, "<title>ok\xc3\xa9 (1 sample"));
	assert_non_null(strstr(s, ">&lt;t&gt;&amp;</text>"));
	assert_null(strstr(s, "\x01"));
	assert_null(strstr(s, "\xff"));
	assert_null(strstr(s, "<&"));
	free(s);
}

static void test_xml_text_cut(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(fp);
	fg_xml_text(fp, "abcdefgh", 8, 5); /* 5 characters: "abc.." */
	fputc('|', fp);
	fg_xml_text(fp, "\xc3\xa9\xc3\xa9\xc3\xa9", 6, 3); /* fits: as it is */
	fputc('|', fp);
	fg_xml_text(fp, "<<<<<<", 6, 4);
	fclose(fp);
	assert_string_equal(buf, "abc..|\xc3\xa9\xc3\xa9\xc3\xa9|&lt;&lt;..");
	free(buf);
}

static void test_event_root(void **state)
{
	struct fg_entry e[] = {{.event = "p:a", .frames = s_inner, .depth = 3, .count = 12},
			       {.event = "p:b", .frames = s_other, .depth = 3, .count = 3}};
	struct fg_stats st;
	char *s;

	(void)state;
	/* every event: its name is the root frame of its stacks */
	s = svg(e, 2, NULL, &st);
	assert_int_equal(st.total, 15);
	assert_int_equal(st.max_depth, 4);
	assert_int_equal(st.nodes, 9); /* all, p:a main outer inner, p:b main outer other */
	assert_non_null(strstr(s, "<title>p:a (12 samples,"));
	assert_non_null(strstr(s, "<title>p:b (3 samples,"));
	assert_int_equal(count_of(s, "<title>main "), 2);
	free(s);
	/* one event: only its stacks, no event frame, its name in the title */
	s = svg(e, 2, &(struct fg_opts){.event = "p:b", .title = "T"}, &st);
	assert_int_equal(st.total, 3);
	assert_int_equal(st.max_depth, 3);
	assert_int_equal(st.nodes, 4);
	assert_null(strstr(s, "<title>p:b "));
	assert_null(strstr(s, "inner"));
	assert_non_null(strstr(s, ">T (p:b)</text>"));
	assert_non_null(strstr(s, "<title>other (3 samples, 100.00%)</title>"));
	free(s);
	/* an event nothing has: an empty graph, the root only */
	s = svg(e, 2, &(struct fg_opts){.event = "p:none"}, &st);
	assert_int_equal(st.total, 0);
	assert_int_equal(st.nodes, 1);
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_counts_and_merge), cmocka_unit_test(test_sorted_per_level),
	    cmocka_unit_test(test_self_time_and_duplicates), cmocka_unit_test(test_elision),
	    cmocka_unit_test(test_hostile_names),    cmocka_unit_test(test_xml_text_cut),
	    cmocka_unit_test(test_event_root),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
