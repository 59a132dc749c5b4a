/* SPDX-License-Identifier: MIT */
/* lib/trace/latency.c: pairing rules, per-thread stacks, unmatched counts, histogram precision. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sdtrace/latency.h"

static struct sdt_latency_step ev(struct sdt_latency *l, const char *provider, const char *name,
				  unsigned int tid, uint64_t t)
{
	struct sdt_latency_step s;

	assert_int_equal(sdt_latency__event(l, provider, name, 1, tid, t, &s), 0);
	return s;
}

/* An auto pair counts once both of its sides are described. */
static void both(struct sdt_latency *l, const char *start, const char *end)
{
	assert_int_equal(sdt_latency__add_kind(l, "p", start), 0);
	assert_int_equal(sdt_latency__add_kind(l, "p", end), 0);
}

static size_t find_pair(const struct sdt_latency *l, const char *name)
{
	size_t i;

	for (i = 0; i < sdt_latency__pair_count(l); i++)
		if (!strcmp(sdt_latency__pair_name(l, i), name))
			return i;
	fail_msg("no pair %s", name);
	return 0;
}

static void test_conventions(void **state)
{
	static const char *const pairs[][2] = {
	    {"job__start", "job__done"},
	    {"gc__begin", "gc__end"},
	    {"function__entry", "function__return"},
	    {"read_start", "read_end"},
	    {"mixed__start", "mixed__end"},
	};
	struct sdt_latency *l;
	struct sdt_latency_step s;
	size_t i;

	(void)state;
	assert_int_equal(sdt_latency__new(&l), 0);
	for (i = 0; i < 5; i++) {
		assert_int_equal(sdt_latency__add_kind(l, "p", pairs[i][0]), 0);
		assert_int_equal(sdt_latency__add_kind(l, "p", pairs[i][1]), 0);
	}
	assert_int_equal(sdt_latency__add_kind(l, "p", "tick"), 0);
	/* only one side recorded: no pair */
	assert_int_equal(sdt_latency__add_kind(l, "p", "lonely__start"), 0);
	/* the same stem in another provider is another pair */
	assert_int_equal(sdt_latency__add_kind(l, "q", "job__done"), 0);
	for (i = 0; i < 5; i++) {
		s = ev(l, "p", pairs[i][0], 10, 100 * i);
		assert_int_equal(s.role, SDT_LATENCY_START);
		s = ev(l, "p", pairs[i][1], 10, 100 * i + 7 + i);
		assert_int_equal(s.role, SDT_LATENCY_END);
		assert_int_equal(s.duration_ns, 7 + i);
		assert_int_equal(s.start_ns, 100 * i);
	}
	assert_int_equal(ev(l, "p", "tick", 10, 1000).role, SDT_LATENCY_NONE);
	assert_int_equal(ev(l, "p", "lonely__start", 10, 1000).role, SDT_LATENCY_NONE);
	assert_int_equal(ev(l, "q", "job__done", 10, 1000).role, SDT_LATENCY_NONE);
	/* an event not described before is described by its first event */
	assert_int_equal(ev(l, "p", "x_start", 10, 2000).role, SDT_LATENCY_NONE);
	assert_int_equal(ev(l, "p", "__start", 10, 2000).role, SDT_LATENCY_NONE); /* no stem */

	assert_string_equal(sdt_latency__pair_name(l, find_pair(l, "p:job")), "p:job");
	assert_string_equal(sdt_latency__pair_start(l, find_pair(l, "p:job")), "p:job__start");
	assert_string_equal(sdt_latency__pair_end(l, find_pair(l, "p:read")), "p:read_end");
	assert_true(sdt_latency__pair_active(l, find_pair(l, "p:mixed")));
	assert_false(sdt_latency__pair_active(l, find_pair(l, "p:lonely")));
	assert_false(sdt_latency__pair_active(l, find_pair(l, "q:job")));
	for (i = 0; i < sdt_latency__pair_count(l); i++) {
		struct sdt_latency_stats st;

		sdt_latency__stats(l, i, &st);
		assert_int_equal(st.count, sdt_latency__pair_active(l, i) ? 1 : 0);
	}
	sdt_latency__free(l);
}

static void test_nesting_threads(void **state)
{
	struct sdt_latency *l;
	struct sdt_latency_stats st;
	struct sdt_latency_step s;
	size_t p;

	(void)state;
	assert_int_equal(sdt_latency__new(&l), 0);
	both(l, "f__entry", "f__return");
	/* recursion on thread 1, interleaved with thread 2 */
	ev(l, "p", "f__entry", 1, 100);
	ev(l, "p", "f__entry", 2, 105);
	assert_int_equal(sdt_latency__depth(l, 1), 1);
	assert_int_equal(sdt_latency__depth(l, 9), 0); /* never seen */
	ev(l, "p", "f__entry", 1, 110);
	assert_int_equal(sdt_latency__depth(l, 1), 2);
	assert_int_equal(sdt_latency__depth(l, 2), 1);
	s = ev(l, "p", "f__return", 1, 130); /* inner: 20 */
	assert_int_equal(sdt_latency__depth(l, 1), 1);
	assert_int_equal(s.role, SDT_LATENCY_END);
	assert_int_equal(s.duration_ns, 20);
	assert_int_equal(s.ncrossed, 0);
	s = ev(l, "p", "f__return", 2, 305); /* thread 2: 200 */
	assert_int_equal(s.duration_ns, 200);
	s = ev(l, "p", "f__return", 1, 1100); /* outer: 1000 */
	assert_int_equal(s.duration_ns, 1000);
	/* an end with nothing open on its thread */
	s = ev(l, "p", "f__return", 1, 1200);
	assert_int_equal(s.role, SDT_LATENCY_UNMATCHED);
	assert_true(s.is_end);
	s = ev(l, "p", "f__return", 3, 1200);
	assert_int_equal(s.role, SDT_LATENCY_UNMATCHED);
	p = find_pair(l, "p:f");
	sdt_latency__stats(l, p, &st);
	assert_int_equal(st.count, 3);
	assert_int_equal(st.min_ns, 20);
	assert_int_equal(st.max_ns, 1000);
	assert_true(st.avg_ns > 406.66 && st.avg_ns < 406.67);
	assert_int_equal(st.unmatched_ends, 2);
	assert_int_equal(st.unmatched_starts, 0);
	/* a clock that goes back is a zero duration */
	ev(l, "p", "f__entry", 4, 5000);
	s = ev(l, "p", "f__return", 4, 4000);
	assert_int_equal(s.duration_ns, 0);
	sdt_latency__free(l);
}

static int order[8], norder;

static int collect(void *ctx, unsigned int pid, unsigned int tid, const struct sdt_latency_open *o)
{
	(void)ctx;
	(void)pid;
	assert_true(norder < 8);
	order[norder++] = (int)(tid * 1000 + o->start_ns);
	return 0;
}

static void test_crossing_and_finish(void **state)
{
	struct sdt_latency *l;
	struct sdt_latency_stats st;
	struct sdt_latency_step s;
	size_t a, b;

	(void)state;
	assert_int_equal(sdt_latency__new(&l), 0);
	both(l, "a__start", "a__done");
	both(l, "b__start", "b__done");
	ev(l, "p", "a__start", 1, 10);
	ev(l, "p", "b__start", 1, 20);
	ev(l, "p", "b__start", 1, 30);
	s = ev(l, "p", "a__done", 1, 40); /* crosses both b's */
	assert_int_equal(s.role, SDT_LATENCY_END);
	assert_int_equal(s.duration_ns, 30);
	a = find_pair(l, "p:a");
	b = find_pair(l, "p:b");
	assert_int_equal(s.pair, a);
	assert_int_equal(s.ncrossed, 2);
	assert_int_equal(s.crossed[0].pair, b);
	assert_int_equal(s.crossed[0].start_ns, 20);
	assert_int_equal(s.crossed[1].start_ns, 30);
	/* the matched start was at depth 0: depth now 0 + ncrossed */
	assert_int_equal(sdt_latency__depth(l, 1), 2);
	s = ev(l, "p", "b__done", 1, 50); /* the most recent b */
	assert_int_equal(s.duration_ns, 20);
	assert_int_equal(s.ncrossed, 0);
	/* left open: b@20 on thread 1, a@60 and a@70 on thread 2 */
	ev(l, "p", "a__start", 2, 60);
	ev(l, "p", "a__start", 2, 70);
	norder = 0;
	assert_int_equal(sdt_latency__finish(l, collect, NULL), 0);
	assert_int_equal(norder, 3);
	assert_int_equal(order[0], 1020);
	assert_int_equal(order[1], 2070); /* the most recent first */
	assert_int_equal(order[2], 2060);
	sdt_latency__stats(l, a, &st);
	assert_int_equal(st.count, 1);
	assert_int_equal(st.unmatched_starts, 2);
	sdt_latency__stats(l, b, &st);
	assert_int_equal(st.count, 1);
	assert_int_equal(st.unmatched_starts, 1);
	sdt_latency__free(l);
}

static void test_explicit_pairs(void **state)
{
	struct sdt_latency *l;
	struct sdt_latency_stats st;
	struct sdt_latency_step s;

	(void)state;
	assert_int_equal(sdt_latency__new(&l), 0);
	assert_int_equal(sdt_latency__add_pair(l, "bad spec!", "%p:y"), -EINVAL);
	assert_int_equal(sdt_latency__pair_count(l), 0);
	assert_int_equal(sdt_latency__add_pair(l, "%p:req_in*", "%p:req_out*"), 0);
	assert_int_equal(sdt_latency__pair_count(l), 1);
	assert_string_equal(sdt_latency__pair_name(l, 0), "%p:req_in*,%p:req_out*");
	assert_true(sdt_latency__pair_active(l, 0));
	/* globs: any start with any end; conventions no longer apply */
	assert_int_equal(ev(l, "p", "req_in_fast", 1, 0).role, SDT_LATENCY_START);
	s = ev(l, "p", "req_out_slow", 1, 9);
	assert_int_equal(s.role, SDT_LATENCY_END);
	assert_int_equal(s.duration_ns, 9);
	assert_int_equal(ev(l, "p", "job__start", 1, 10).role, SDT_LATENCY_NONE);
	assert_int_equal(ev(l, "p", "job__done", 1, 11).role, SDT_LATENCY_NONE);
	assert_int_equal(ev(l, "q", "req_in", 1, 12).role, SDT_LATENCY_NONE);
	sdt_latency__stats(l, 0, &st);
	assert_int_equal(st.count, 1);
	sdt_latency__free(l);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The exact nearest-rank percentile of sorted @v. */
static uint64_t exact(const uint64_t *v, size_t n, double p)
{
	size_t rank = (size_t)(p / 100.0 * (double)n);

	if ((double)rank < p / 100.0 * (double)n)
		rank++;
	if (rank < 1)
		rank = 1;
	return v[rank - 1];
}

static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void test_percentile_precision(void **state)
{
	static const double ps[] = {1, 10, 25, 50, 75, 90, 99, 99.9, 100};
	enum { N = 20000 };
	uint64_t *v = malloc(N * sizeof(*v)), x = 88172645463325252ull;
	int dist;

	(void)state;
	assert_non_null(v);
	for (dist = 0; dist < 4; dist++) {
		struct sdt_latency *l;
		struct sdt_latency_stats st;
		uint64_t sum = 0, in_log2 = 0;
		size_t i, p;
		unsigned int b;

		assert_int_equal(sdt_latency__new(&l), 0);
		both(l, "x__start", "x__done");
		for (i = 0; i < N; i++) {
			uint64_t d;

			switch (dist) {
			case 0: /* small: exact */
				d = next_rand(&x) % 128;
				break;
			case 1: /* uniform over 1 us .. 10 ms */
				d = 1000 + next_rand(&x) % 10000000;
				break;
			case 2: /* log-uniform over 2^0 .. 2^40 */
				d = next_rand(&x) >> (24 + next_rand(&x) % 40);
				break;
			default: /* two modes */
				d = (i % 10 ? 50000 : 3000000) + next_rand(&x) % 1000;
				break;
			}
			v[i] = d;
			sum += d;
			ev(l, "p", "x__start", 1, 1000);
			ev(l, "p", "x__done", 1, 1000 + d);
		}
		qsort(v, N, sizeof(*v), cmp_u64);
		p = find_pair(l, "p:x");
		sdt_latency__stats(l, p, &st);
		assert_int_equal(st.count, N);
		assert_int_equal(st.min_ns, v[0]);
		assert_int_equal(st.max_ns, v[N - 1]);
		assert_true(st.avg_ns > (double)sum / N - 0.01 &&
			    st.avg_ns < (double)sum / N + 0.01);
		assert_true(st.min_ns <= st.p50_ns && st.p50_ns <= st.p90_ns &&
			    st.p90_ns <= st.p99_ns && st.p99_ns <= st.max_ns);
		for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
			uint64_t want = exact(v, N, ps[i]);
			uint64_t got = sdt_latency__percentile(l, p, ps[i]);
			uint64_t diff = got > want ? got - want : want - got;

			if (want < 128)
				assert_int_equal(got, want);
			else if (diff * 128 > want)
				fail_msg("dist %d p%g: %llu, exact %llu", dist, ps[i],
					 (unsigned long long)got, (unsigned long long)want);
		}
		/* log2 buckets are exact */
		for (b = 0; b < SDT_LATENCY_LOG2_BUCKETS; b++) {
			uint64_t lo = b ? 1ull << (b - 1) : 0, hi = b ? lo * 2 : 1, n = 0;

			for (i = 0; i < N; i++)
				n += v[i] >= lo && (b == 64 || v[i] < hi);
			assert_int_equal(sdt_latency__log2(l, p, b), n);
			in_log2 += n;
		}
		assert_int_equal(in_log2, N);
		sdt_latency__free(l);
	}
	free(v);
}

static void test_bucket_edges(void **state)
{
	static const uint64_t vals[] = {
	    0, 1, 2, 3, 127, 128, 129, 255, 256, 1023, 1024, UINT64_MAX / 2, UINT64_MAX};
	struct sdt_latency *l;
	size_t i, p;

	(void)state;
	assert_int_equal(sdt_latency__new(&l), 0);
	both(l, "e__start", "e__done");
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		struct sdt_latency_stats st;

		ev(l, "p", "e__start", 1, 0);
		ev(l, "p", "e__done", 1, vals[i]);
		p = find_pair(l, "p:e");
		/* one value alone: every percentile is it */
		sdt_latency__stats(l, p, &st);
		assert_int_equal(st.max_ns, vals[i]);
		assert_int_equal(sdt_latency__percentile(l, p, 100), vals[i]);
	}
	assert_int_equal(sdt_latency__log2(l, p, 0), 1);  /* 0 */
	assert_int_equal(sdt_latency__log2(l, p, 1), 1);  /* 1 */
	assert_int_equal(sdt_latency__log2(l, p, 2), 2);  /* 2, 3 */
	assert_int_equal(sdt_latency__log2(l, p, 7), 1);  /* 127 */
	assert_int_equal(sdt_latency__log2(l, p, 8), 3);  /* 128, 129, 255 */
	assert_int_equal(sdt_latency__log2(l, p, 9), 1);  /* 256 */
	assert_int_equal(sdt_latency__log2(l, p, 10), 1); /* 1023 */
	assert_int_equal(sdt_latency__log2(l, p, 11), 1); /* 1024 */
	assert_int_equal(sdt_latency__log2(l, p, 63), 1); /* 2^63 - 1 */
	assert_int_equal(sdt_latency__log2(l, p, 64), 1); /* 2^64 - 1 */
	assert_int_equal(sdt_latency__log2(l, p, 65), 0); /* out of range */
	sdt_latency__free(l);
}

static void test_depth_cap(void **state)
{
	struct sdt_latency *l;
	struct sdt_latency_stats st;
	size_t i;

	(void)state;
	assert_int_equal(sdt_latency__new(&l), 0);
	both(l, "d__start", "d__done");
	for (i = 0; i < SDT_LATENCY_MAX_DEPTH; i++)
		assert_int_equal(ev(l, "p", "d__start", 1, i).role, SDT_LATENCY_START);
	assert_int_equal(ev(l, "p", "d__start", 1, i).role, SDT_LATENCY_UNMATCHED);
	/* another thread is not affected */
	assert_int_equal(ev(l, "p", "d__start", 2, i).role, SDT_LATENCY_START);
	assert_int_equal(sdt_latency__finish(l, NULL, NULL), 0);
	sdt_latency__stats(l, find_pair(l, "p:d"), &st);
	assert_int_equal(st.unmatched_starts, SDT_LATENCY_MAX_DEPTH + 2);
	sdt_latency__free(l);
	sdt_latency__free(NULL);
}

static struct sdt_latency_step kev(struct sdt_latency *l, const char *name, const char *key,
				   uint64_t tag, enum sdt_latency_verdict verdict, uint64_t t)
{
	struct sdt_latency_event_opts o = {.sz = sizeof(o),
					   .keyed = key != NULL,
					   .key = key,
					   .key_len = key ? strlen(key) : 0,
					   .tag = tag,
					   .verdict = verdict};
	struct sdt_latency_step s;

	assert_int_equal(sdt_latency__event_opts(l, "p", name, 1, 1, t, &o, &s), 0);
	return s;
}

/*
 * Keyed pairing: an end takes the most recent start of its own key, passing over (and counting)
 * others; an end whose key no start has is unmatched; tags come back; skipped pairs pair but
 * do not count, nor do skipped starts left open.
 */
static void test_keys_and_skip(void **state)
{
	struct sdt_latency *l;
	struct sdt_latency_stats st;
	struct sdt_latency_step s;

	(void)state;
	assert_int_equal(sdt_latency__new(&l), 0);
	both(l, "function__entry", "function__return");
	kev(l, "function__entry", "a.py:f", 1, SDT_LATENCY_COUNT, 100);
	kev(l, "function__entry", "a.py:g", 2, SDT_LATENCY_COUNT, 200);
	s = kev(l, "function__return", "a.py:f", 0, SDT_LATENCY_COUNT,
		300); /* g is on top: a mismatch */
	assert_int_equal(s.role, SDT_LATENCY_END);
	assert_true(s.key_mismatch);
	assert_int_equal(s.start_tag, 1);
	assert_int_equal(s.duration_ns, 200);
	s = kev(l, "function__return", "a.py:g", 0, SDT_LATENCY_COUNT, 350);
	assert_int_equal(s.role, SDT_LATENCY_END);
	assert_false(s.key_mismatch);
	assert_int_equal(s.start_tag, 2);
	assert_int_equal(s.duration_ns, 150);
	s = kev(l, "function__return", "b.py:h", 0, SDT_LATENCY_COUNT, 400); /* no start at all */
	assert_int_equal(s.role, SDT_LATENCY_UNMATCHED);
	assert_false(s.key_mismatch);
	kev(l, "function__entry", "a.py:f", 3, SDT_LATENCY_COUNT, 500);
	s = kev(l, "function__return", "b.py:h", 0, SDT_LATENCY_COUNT,
		600); /* only another key is open */
	assert_int_equal(s.role, SDT_LATENCY_UNMATCHED);
	assert_true(s.key_mismatch);
	s = kev(l, "function__return", NULL, 0, SDT_LATENCY_COUNT,
		700); /* unkeyed: the most recent */
	assert_int_equal(s.role, SDT_LATENCY_END);
	assert_int_equal(s.start_tag, 3);
	/* skip on either side */
	kev(l, "function__entry", "k", 4, SDT_LATENCY_SKIP, 1000);
	s = kev(l, "function__return", "k", 0, SDT_LATENCY_COUNT, 1100);
	assert_int_equal(s.role, SDT_LATENCY_END);
	assert_true(s.skipped);
	kev(l, "function__entry", "k", 5, SDT_LATENCY_COUNT, 1200);
	s = kev(l, "function__return", "k", 0, SDT_LATENCY_SKIP, 1300);
	assert_true(s.skipped);
	s = kev(l, "function__return", "k", 0, SDT_LATENCY_SKIP,
		1400); /* a skipped unmatched end */
	assert_int_equal(s.role, SDT_LATENCY_UNMATCHED);
	kev(l, "function__entry", "k", 6, SDT_LATENCY_SKIP, 1500);  /* left open, skipped */
	kev(l, "function__entry", "k", 7, SDT_LATENCY_COUNT, 1600); /* left open */
	/* follow: counts as the other side says; both following: not counted */
	kev(l, "function__entry", "f", 8, SDT_LATENCY_FOLLOW, 2000);
	s = kev(l, "function__return", "f", 0, SDT_LATENCY_COUNT, 2010);
	assert_false(s.skipped);
	kev(l, "function__entry", "f", 9, SDT_LATENCY_FOLLOW, 2100);
	s = kev(l, "function__return", "f", 0, SDT_LATENCY_FOLLOW, 2110);
	assert_true(s.skipped);
	kev(l, "function__entry", "f", 9, SDT_LATENCY_FOLLOW, 2200);
	s = kev(l, "function__return", "f", 0, SDT_LATENCY_SKIP, 2210);
	assert_true(s.skipped);
	assert_int_equal(sdt_latency__finish(l, NULL, NULL), 0);
	sdt_latency__stats(l, find_pair(l, "p:function"), &st);
	assert_int_equal(st.count, 4);
	assert_int_equal(st.min_ns, 10);
	assert_int_equal(st.max_ns, 200);
	assert_int_equal(st.key_mismatches, 2);
	assert_int_equal(st.unmatched_ends, 2);
	assert_int_equal(st.unmatched_starts, 1);
	assert_int_equal(st.skipped, 4);
	sdt_latency__free(l);
}

/* A start without a key (its kind lacks the key's names) pairs with a keyed end, no mismatch. */
static void test_unkeyed_start(void **state)
{
	struct sdt_latency *l;
	struct sdt_latency_step s;

	(void)state;
	assert_int_equal(sdt_latency__new(&l), 0);
	both(l, "function__entry", "function__return");
	kev(l, "function__entry", NULL, 10, SDT_LATENCY_COUNT, 1700);
	s = kev(l, "function__return", "any", 0, SDT_LATENCY_COUNT, 1750);
	assert_int_equal(s.role, SDT_LATENCY_END);
	assert_int_equal(s.start_tag, 10);
	assert_false(s.key_mismatch);
	sdt_latency__free(l);
}

/* The conventions of php, sssd and others: every pair below, and the longest suffix wins. */
static void test_more_conventions(void **state)
{
	static const char *const pairs[][3] = {
	    {"request__startup", "request__shutdown", "p:request"},
	    {"save_begin", "save_end", "p:save"},
	    {"io_begin", "io_complete", "p:io"},
	    {"dp_req_send", "dp_req_done", "p:dp_req"},
	    {"search_send", "search_recv", "p:search"},
	    {"populate_pre", "populate_post", "p:populate"},
	    {"gc__mark__begin", "gc__mark__end", "p:gc__mark"},
	};
	struct sdt_latency *l;
	struct sdt_latency_step s;
	size_t i, n = sizeof(pairs) / sizeof(pairs[0]);

	(void)state;
	assert_int_equal(sdt_latency__new(&l), 0);
	for (i = 0; i < n; i++)
		both(l, pairs[i][0], pairs[i][1]);
	for (i = 0; i < n; i++) {
		s = ev(l, "p", pairs[i][0], 10, 100 * i);
		assert_int_equal(s.role, SDT_LATENCY_START);
		s = ev(l, "p", pairs[i][1], 10, 100 * i + 3 + i);
		assert_int_equal(s.role, SDT_LATENCY_END);
		assert_int_equal(s.duration_ns, 3 + i);
		assert_true(sdt_latency__pair_active(l, find_pair(l, pairs[i][2])));
	}
	/* "__startup" is not "_start" + "up", nor "_send" an "_end" */
	assert_int_equal(ev(l, "p", "startup", 10, 5000).role, SDT_LATENCY_NONE);
	assert_int_equal(ev(l, "p", "send", 10, 5000).role, SDT_LATENCY_NONE);
	sdt_latency__free(l);
}

/*
 * Rules (a provider file's `@sdtrace pair:`): differently named events pair, ahead of the
 * conventions, keyed as any pair; a kind described before the rule takes it; explicit pairs
 * leave them out.
 */
static void test_rules(void **state)
{
	struct sdt_latency *l;
	struct sdt_latency_stats st;
	struct sdt_latency_step s;
	size_t pair;

	(void)state;
	assert_int_equal(sdt_latency__new(&l), 0);
	/* described before the rule: no role by the conventions, then the rule's */
	assert_int_equal(sdt_latency__add_kind(l, "p", "msg_rx"), 0);
	assert_int_equal(sdt_latency__kind_role(l, "p", "msg_rx", &pair), SDT_LATENCY_NONE);
	assert_int_equal(sdt_latency__add_rule(l, "p", "msg_tx_queue", "msg_rx"), 0);
	assert_int_equal(sdt_latency__add_rule(l, "p", "msg_tx_queue", "msg_rx"), 0); /* again */
	assert_int_equal(sdt_latency__add_rule(l, "p", "msg_tx_queue", "msg_lost"), 0);
	/* a rule's start beats the conventions (obj_new has none; io_start would) */
	assert_int_equal(sdt_latency__add_rule(l, "p", "io_start", "io_gone"), 0);
	assert_int_equal(sdt_latency__add_rule(l, "p", "msg_rx", "other"), -EINVAL);
	assert_int_equal(sdt_latency__add_rule(l, "p", "same", "same"), -EINVAL);
	both(l, "msg_tx_queue", "msg_lost");
	both(l, "io_start", "io_gone");
	assert_int_equal(sdt_latency__add_kind(l, "p", "io_end"), 0);
	pair = find_pair(l, "p:msg");
	assert_true(sdt_latency__pair_active(l, pair));
	assert_string_equal(sdt_latency__pair_start(l, pair), "p:msg_tx_queue");
	assert_string_equal(sdt_latency__pair_end(l, pair), "p:msg_rx");
	assert_int_equal(sdt_latency__kind_role(l, "p", "msg_rx", &pair), SDT_LATENCY_END);
	/* interleaved on one thread, told apart by their key */
	kev(l, "msg_tx_queue", "client1:7", 1, SDT_LATENCY_COUNT, 100);
	kev(l, "msg_tx_queue", "client1:8", 2, SDT_LATENCY_COUNT, 110);
	s = kev(l, "msg_rx", "client1:7", 0, SDT_LATENCY_COUNT, 150);
	assert_int_equal(s.role, SDT_LATENCY_END);
	assert_int_equal(s.start_tag, 1);
	assert_int_equal(s.duration_ns, 50);
	s = kev(l, "msg_lost", "client1:8", 0, SDT_LATENCY_COUNT, 200); /* a second end */
	assert_int_equal(s.role, SDT_LATENCY_END);
	assert_int_equal(s.duration_ns, 90);
	/* io_start opens the rule's pair, and io_end (the convention's end) closes nothing */
	kev(l, "io_start", NULL, 3, SDT_LATENCY_COUNT, 300);
	assert_int_equal(kev(l, "io_end", NULL, 0, SDT_LATENCY_COUNT, 310).role, SDT_LATENCY_NONE);
	assert_int_equal(kev(l, "io_gone", NULL, 0, SDT_LATENCY_COUNT, 320).role, SDT_LATENCY_END);
	sdt_latency__stats(l, find_pair(l, "p:msg"), &st);
	assert_int_equal(st.count, 2);
	assert_int_equal(st.key_mismatches, 1); /* msg_rx passed over 8 to take 7 */
	sdt_latency__free(l);

	/* explicit pairs only: a rule adds nothing */
	assert_int_equal(sdt_latency__new(&l), 0);
	assert_int_equal(sdt_latency__add_pair(l, "p:a", "p:b"), 0);
	assert_int_equal(sdt_latency__add_rule(l, "p", "msg_tx_queue", "msg_rx"), 0);
	both(l, "msg_tx_queue", "msg_rx");
	assert_int_equal(sdt_latency__kind_role(l, "p", "msg_rx", &pair), SDT_LATENCY_NONE);
	sdt_latency__free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_conventions),
	    cmocka_unit_test(test_keys_and_skip),
	    cmocka_unit_test(test_unkeyed_start),
	    cmocka_unit_test(test_nesting_threads),
	    cmocka_unit_test(test_crossing_and_finish),
	    cmocka_unit_test(test_explicit_pairs),
	    cmocka_unit_test(test_percentile_precision),
	    cmocka_unit_test(test_bucket_edges),
	    cmocka_unit_test(test_depth_cap),
	    cmocka_unit_test(test_more_conventions),
	    cmocka_unit_test(test_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
