/* SPDX-License-Identifier: MIT */
/*
 * Samples decoded live (sdt_trace_decoder, what `sdtrace trace` prints) are the events the reader
 * gives back once the same samples were written to a file: every accessor and every argument
 * value, thread names cut as the file cuts them, sites and load biases, a counted string, a
 * string in a record with PERF_SAMPLE_RAW padding. The public accessors of a desc; the decoder's
 * refusals. Descriptions and samples built by hand (trace_writer.h) read back as they were made.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "sdtrace/sdtrace.h"
#include "trace/trace_file.h"
#include "tmpdir-test.h"

TMPDIR_FIXTURE("trace-live")

/* Event 0: __probe_ip, s8, u64, a rebased address; one site in a non-PIE binary. */
static struct sdt_trace_field f0[] = {
    {.name = (char *)"__probe_ip", .offset = 8, .size = 8},
    {.name = (char *)"arg1", .offset = 16, .size = 1, .is_signed = true},
    {.name = (char *)"arg2", .offset = 24, .size = 8},
    {.name = (char *)"arg3", .offset = 32, .size = 8},
};
static struct sdt_trace_arg a0[] = {
    {.name = (char *)"arg1", .spec = (char *)"-1@%al", .size = 1, .is_signed = true, .field = 1},
    {.name = (char *)"arg2", .spec = (char *)"8@%rdx", .size = 8, .field = 2},
    {.name = (char *)"arg3", .spec = (char *)"8@$g", .size = 8, .rebase = true, .field = 3},
};
static uint64_t sites0[] = {0x401136};
static struct sdt_trace_event_desc d0 = {
    .index = 0,
    .provider = (char *)"prov",
    .name = (char *)"ev",
    .path = (char *)"/usr/bin/prog",
    .build_id = (char *)"abcd",
    .site_addrs = sites0,
    .nsites = 1,
    .fields = f0,
    .nfields = 4,
    .ip_field = 0,
    .args = a0,
    .nargs = 3,
};

/* Event 5: a counted string NAME + NAME_len, a double, an unavailable arg; two PIE sites. */
static struct sdt_trace_field f1[] = {
    {.name = (char *)"__probe_ip", .offset = 8, .size = 8},
    {.name = (char *)"name", .offset = 16, .size = 4, .is_data_loc = true},
    {.name = (char *)"name_len", .offset = 20, .size = 4, .is_signed = true},
    {.name = (char *)"arg3", .offset = 24, .size = 8},
};
static struct sdt_trace_arg a1[] = {
    {.name = (char *)"name",
     .spec = (char *)"8@%rdi",
     .size = 8,
     .is_string = true,
     .named = true,
     .type = SDT_TYPE_STRING,
     .field = 1},
    {.name = (char *)"name_len",
     .spec = (char *)"-4@%esi",
     .size = 4,
     .is_signed = true,
     .named = true,
     .field = 2},
    {.name = (char *)"arg3", .spec = (char *)"8f@%xmm0", .size = 8, .is_float = true, .field = 3},
    {.name = (char *)"arg4", .spec = (char *)"8@(%rax,%rbx,8)", .size = 8, .field = -1},
};
static uint64_t sites1[] = {0x1130, 0x2248};
static struct sdt_trace_event_desc d1 = {
    .index = 5,
    .provider = (char *)"prov",
    .name = (char *)"named",
    .path = (char *)"/usr/lib/lib.so",
    .site_addrs = sites1,
    .nsites = 2,
    .fields = f1,
    .nfields = 4,
    .ip_field = 0,
    .args = a1,
    .nargs = 4,
};

/* Sample @i of the sequence: raw bytes and task, laid out as tracefs would. */
static struct sdt_trace_sample make_sample(unsigned int i, uint8_t *raw)
{
	static const char *names[] = {"java/lang/ObjectJUNK", "short", "x"};
	struct sdt_trace_sample s = {.time_ns = 1000 + 10 * i - (i == 3 ? 25 : 0),
				     .cpu = i % 2,
				     .pid = 40 + i / 3,
				     .tid = 40 + i / 2};

	memset(raw, 0xaa, 128); /* bytes no field covers */
	if (i % 2 == 0) {
		uint64_t ip = 0x401136, v2 = UINT64_MAX - i, v3 = 0x4000 + i;
		int8_t v1 = (int8_t)(-5 - (int)i);

		s.event = 0;
		memcpy(raw + 8, &ip, 8);
		memcpy(raw + 16, &v1, 1);
		memcpy(raw + 24, &v2, 8);
		memcpy(raw + 32, &v3, 8);
		s.raw_size = 40 + 4; /* PERF_SAMPLE_RAW padding */
	} else {
		const char *n = names[(i / 2) % 3];
		uint32_t len = (uint32_t)strlen(n) + 1, loc = len << 16 | 32;
		int32_t count = i == 1 ? 16 : 99;
		uint64_t ip = 0x7f0000000000ull + sites1[i % 4 == 1], bits;
		double f = -0.25 * i;

		s.event = 5;
		memcpy(&bits, &f, 8);
		memcpy(raw + 8, &ip, 8);
		memcpy(raw + 16, &loc, 4);
		memcpy(raw + 20, &count, 4);
		memcpy(raw + 24, &bits, 8);
		memcpy(raw + 32, n, len);
		s.raw_size = 32 + len + 4;
	}
	return s;
}

#define NSAMPLES 9

/* Every public fact of two events (one from the file, one live) is the same. */
static void assert_same_event(const struct sdt_trace_event *a, const struct sdt_trace_event *b)
{
	uint64_t x, y;
	size_t i;

	assert_true(sdt_trace_event__time_ns(a) == sdt_trace_event__time_ns(b));
	assert_int_equal(sdt_trace_event__cpu(a), sdt_trace_event__cpu(b));
	assert_int_equal(sdt_trace_event__pid(a), sdt_trace_event__pid(b));
	assert_int_equal(sdt_trace_event__tid(a), sdt_trace_event__tid(b));
	assert_true(!sdt_trace_event__comm(a) == !sdt_trace_event__comm(b));
	if (sdt_trace_event__comm(a))
		assert_string_equal(sdt_trace_event__comm(a), sdt_trace_event__comm(b));
	assert_string_equal(sdt_trace_event__provider(a), sdt_trace_event__provider(b));
	assert_string_equal(sdt_trace_event__name(a), sdt_trace_event__name(b));
	assert_string_equal(sdt_trace_event__path(a), sdt_trace_event__path(b));
	x = y = 1;
	assert_int_equal(sdt_trace_event__address(a, &x), sdt_trace_event__address(b, &y));
	assert_true(x == y);
	x = y = 1;
	assert_int_equal(sdt_trace_event__ip(a, &x), sdt_trace_event__ip(b, &y));
	assert_true(x == y);
	assert_int_equal(sdt_trace_event__arg_count(a), sdt_trace_event__arg_count(b));
	for (i = 0; i < sdt_trace_event__arg_count(a); i++) {
		struct sdt_trace_value u, v;

		assert_int_equal(sdt_trace_event__arg(a, i, &u), 0);
		assert_int_equal(sdt_trace_event__arg(b, i, &v), 0);
		assert_int_equal(u.kind, v.kind);
		assert_int_equal(u.size, v.size);
		assert_int_equal(u.is_address, v.is_address);
		assert_true(u.i == v.i && u.u == v.u);
		assert_memory_equal(&u.f, &v.f, sizeof(u.f));
		assert_int_equal(u.len, v.len);
		if (u.kind == SDT_VALUE_STRING)
			assert_memory_equal(u.str, v.str, u.len + 1);
		if (u.kind == SDT_VALUE_UNAVAILABLE)
			assert_string_equal(u.unavailable, v.unavailable);
	}
	assert_string_equal(
	    sdt_trace_event_desc__name(sdt_trace_kind__desc(sdt_trace_event__kind(a))),
	    sdt_trace_event_desc__name(sdt_trace_kind__desc(sdt_trace_event__kind(b))));
}

/* The thread names the sequence gives before sample @i, to the writer or to the decoder. */
static void names_before(unsigned int i, struct sdt_trace_writer *w, struct sdt_trace_decoder *dec)
{
	static const char *comm[] = {"worker-with-a-long-name", "", "b", NULL};

	if (i == 0 || i > 4)
		return;
	if (w)
		assert_int_equal(sdt_trace_writer__comm(w, 40, 40 + i, comm[i - 1]), 0);
	if (dec)
		assert_int_equal(sdt_trace_decoder__comm(dec, 40, 40 + i, comm[i - 1]), 0);
}

static void test_live_is_file(void **state)
{
	const struct sdt_trace_event *fev, *lev;
	struct sdt_trace_decoder *dec;
	struct sdt_trace_writer *w;
	struct sdt_trace_reader *r;
	struct sdt_trace_sample s;
	uint8_t raw[128];
	char path[128];
	unsigned int i;

	(void)state;
	snprintf(path, sizeof(path), "%s/live.data", dir);
	assert_int_equal(sdt_trace_writer__open(path, NULL, &w), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d0), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d1), 0);
	for (i = 0; i < NSAMPLES; i++) {
		s = make_sample(i, raw);
		s.raw = raw;
		names_before(i, w, NULL);
		assert_int_equal(sdt_trace_writer__sample(w, &s), 0);
	}
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);

	assert_int_equal(sdt_trace_reader__open(path, NULL, &r), 0);
	assert_int_equal(sdt_trace_decoder__new(&dec), 0);
	assert_int_equal(sdt_trace_decoder__add_desc(dec, &d0), 0);
	assert_int_equal(sdt_trace_decoder__add_desc(dec, &d1), 0);
	for (i = 0; i < NSAMPLES; i++) {
		s = make_sample(i, raw);
		s.raw = raw;
		names_before(i, NULL, dec);
		assert_int_equal(sdt_trace_decoder__sample(dec, &s, &lev), 0);
		memset(raw, 0x55, sizeof(raw)); /* the event keeps its own copy */
		assert_int_equal(sdt_trace_reader__next(r, &fev), 1);
		assert_same_event(fev, lev);
	}
	assert_int_equal(sdt_trace_reader__next(r, &fev), 0);
	sdt_trace_reader__free(r);
	sdt_trace_decoder__free(dec);
}

/* What the sequence above relies on is there to be compared: names cut, counted, rebased. */
static void test_live_values(void **state)
{
	const struct sdt_trace_event *ev;
	struct sdt_trace_decoder *dec;
	struct sdt_trace_value v;
	uint8_t raw[128];
	struct sdt_trace_sample s;
	uint64_t addr;

	(void)state;
	assert_int_equal(sdt_trace_decoder__new(&dec), 0);
	assert_int_equal(sdt_trace_decoder__add_desc(dec, &d0), 0);
	assert_int_equal(sdt_trace_decoder__add_desc(dec, &d1), 0);
	assert_int_equal(sdt_trace_decoder__comm(dec, 40, 40, "worker-with-a-long-name"), 0);
	s = make_sample(1, raw);
	s.raw = raw;
	assert_int_equal(sdt_trace_decoder__sample(dec, &s, &ev), 0);
	assert_string_equal(sdt_trace_event__comm(ev), "worker-with-a-l"); /* TASK_COMM_LEN */
	assert_true(sdt_trace_event__address(ev, &addr));
	assert_true(addr == 0x2248);
	assert_int_equal(sdt_trace_event__arg(ev, 0, &v), 0);
	assert_int_equal(v.kind, SDT_VALUE_STRING);
	assert_string_equal(v.str, "java/lang/Object"); /* counted by name_len */
	assert_int_equal(sdt_trace_event__arg(ev, 2, &v), 0);
	assert_int_equal(v.kind, SDT_VALUE_FLOAT);
	assert_true(v.f == -0.25);
	assert_int_equal(sdt_trace_event__arg(ev, 3, &v), 0);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
	assert_string_equal(v.unavailable, "not recorded");
	s = make_sample(0, raw);
	s.raw = raw;
	assert_int_equal(sdt_trace_decoder__sample(dec, &s, &ev), 0);
	assert_string_equal(sdt_trace_event__comm(ev), "worker-with-a-l"); /* still */
	assert_int_equal(sdt_trace_event__arg(ev, 0, &v), 0);
	assert_true(v.kind == SDT_VALUE_INT && v.i == -5);
	assert_int_equal(sdt_trace_event__arg(ev, 2, &v), 0);
	assert_true(v.kind == SDT_VALUE_UINT && v.is_address && v.u == 0x4000);
	assert_int_equal(sdt_trace_kind__samples(sdt_trace_event__kind(ev)), 1);
	sdt_trace_decoder__free(dec);
}

/* Undescribed events, short records, a second desc of one index, a bad desc: refused. */
static void test_live_refusals(void **state)
{
	struct sdt_trace_event_desc bad = d0;
	const struct sdt_trace_event *ev;
	struct sdt_trace_decoder *dec;
	uint8_t raw[128];
	struct sdt_trace_sample s;

	(void)state;
	sdt_trace_decoder__free(NULL);
	assert_int_equal(sdt_trace_decoder__new(&dec), 0);
	s = make_sample(0, raw);
	s.raw = raw;
	assert_int_equal(sdt_trace_decoder__sample(dec, &s, &ev), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "undescribed event 0"));
	assert_int_equal(sdt_trace_decoder__add_desc(dec, &d0), 0);
	assert_int_equal(sdt_trace_decoder__add_desc(dec, &d0), -EEXIST);
	bad.index = 1;
	bad.ip_field = 7;
	assert_int_equal(sdt_trace_decoder__add_desc(dec, &bad), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "__probe_ip"));
	s.raw_size = 39; /* the u64 at 32 needs 40 */
	assert_int_equal(sdt_trace_decoder__sample(dec, &s, &ev), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "fields need 40"));
	s.raw_size = 40;
	assert_int_equal(sdt_trace_decoder__sample(dec, &s, &ev), 0);
	sdt_trace_decoder__free(dec);
}

/* The opaque desc's accessors, and a kind's desc is the one recorded. */
static void test_desc_accessors(void **state)
{
	const struct sdt_trace_event_desc *d = &d1;

	(void)state;
	assert_int_equal(sdt_trace_event_desc__index(d), 5);
	assert_string_equal(sdt_trace_event_desc__provider(d), "prov");
	assert_string_equal(sdt_trace_event_desc__name(d), "named");
	assert_string_equal(sdt_trace_event_desc__path(d), "/usr/lib/lib.so");
	assert_null(sdt_trace_event_desc__build_id(d));
	assert_int_equal(sdt_trace_event_desc__site_count(d), 2);
	assert_true(sdt_trace_event_desc__site_address(d, 1) == 0x2248);
	assert_true(sdt_trace_event_desc__site_address(d, 2) == 0);
	assert_int_equal(sdt_trace_event_desc__arg_count(d), 4);
	assert_string_equal(sdt_trace_event_desc__arg_name(d, 0), "name");
	assert_string_equal(sdt_trace_event_desc__arg_spec(d, 2), "8f@%xmm0");
	assert_null(sdt_trace_event_desc__arg_name(d, 4));
	assert_true(sdt_trace_event_desc__arg_named(d, 1));
	assert_false(sdt_trace_event_desc__arg_named(d, 2));
	assert_false(sdt_trace_event_desc__arg_named(d, 9));
	assert_int_equal(sdt_trace_event_desc__arg_type(d, 0), SDT_TYPE_STRING);
	assert_int_equal(sdt_trace_event_desc__arg_type(d, 9), SDT_TYPE_DEFAULT);
	assert_null(sdt_trace_event_desc__arg_unavailable(d, 0));
	assert_string_equal(sdt_trace_event_desc__arg_unavailable(d, 3), "not recorded");
	assert_string_equal(sdt_trace_event_desc__arg_unavailable(&d0, 9) ?: "NULL", "NULL");
}

/* A description built by hand, its samples packed from values: written, read back, decoded. */
static void test_built(void **state)
{
	SDT_OPTS(sdt_trace_writer_opts, wo, .cmdline = "test-built");
	static const uint64_t sites[] = {0x1000, 0x3010};
	SDT_OPTS(sdt_trace_event_desc_opts, dopts, .path = "/bin/app", .site_addrs = sites,
		 .nsites = 2);
	struct sdt_arg_type tn = {.name = (char *)"n", .kind = SDT_TYPE_DEFAULT};
	struct sdt_arg_type ts = {.name = (char *)"s", .kind = SDT_TYPE_STRING, .size = 8};
	struct sdt_arg_type tc = {.kind = SDT_TYPE_CHAR, .size = 1};
	struct sdt_arg_type th = {.name = (char *)"flags", .kind = SDT_TYPE_HEX, .size = 2};
	struct sdt_trace_value in[6] = {
	    {.kind = SDT_VALUE_INT, .i = -5},
	    {.kind = SDT_VALUE_STRING, .str = "hello", .len = 5},
	    {.kind = SDT_VALUE_FLOAT, .f = 1.5},
	    {.kind = SDT_VALUE_INT, .i = 'A'},
	    {.kind = SDT_VALUE_UINT, .u = 0}, /* not recorded: ignored */
	    {.kind = SDT_VALUE_UINT, .u = 0xbeef},
	};
	const struct sdt_trace_event *ev, *lev;
	struct sdt_trace_event_desc *d = NULL;
	struct sdt_trace_decoder *dec;
	struct sdt_trace_writer *w;
	struct sdt_trace_reader *r;
	struct sdt_trace_value v;
	uint8_t raw[256];
	char path[128];
	uint64_t addr;
	int size, k;

	(void)state;
	assert_int_equal(sdt_trace_event_desc__new(3, "app", "tick", &dopts, &d), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "-4@%eax", &tn), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "8@%rdi", &ts), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "8f@%xmm0", NULL), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "1@%al", &tc), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "16@%st", NULL), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "2@%ax", &th), 0);
	assert_int_equal(sdt_trace_event_desc__arg_count(d), 6);
	assert_string_equal(sdt_trace_event_desc__arg_name(d, 2), "arg3");
	assert_true(sdt_trace_event_desc__arg_named(d, 0));
	assert_false(sdt_trace_event_desc__arg_named(d, 3));
	assert_int_equal(sdt_trace_event_desc__arg_type(d, 5), SDT_TYPE_HEX);
	assert_string_equal(sdt_trace_event_desc__arg_unavailable(d, 4),
			    "16-byte values are not recorded");

	size = sdt_trace_event_desc__pack(d, 0x7f0000003010ull, in, 6, raw, sizeof(raw));
	assert_true(size > 0);
	snprintf(path, sizeof(path), "%s/built.data", dir);
	assert_int_equal(sdt_trace_writer__open(path, &wo, &w), 0);
	assert_int_equal(sdt_trace_writer__event(w, d), 0);
	assert_int_equal(sdt_trace_decoder__new(&dec), 0);
	assert_int_equal(sdt_trace_decoder__add_desc(dec, d), 0);
	for (k = 0; k < 2; k++) {
		struct sdt_trace_sample s = {.time_ns = 100 + (uint64_t)k, .pid = 7, .tid = 8,
					     .event = 3, .raw = raw, .raw_size = (uint32_t)size};

		assert_int_equal(sdt_trace_writer__sample(w, &s), 0);
		assert_int_equal(sdt_trace_decoder__sample(dec, &s, &lev), 0);
	}
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	sdt_trace_event_desc__free(d);

	assert_int_equal(sdt_trace_reader__open(path, NULL, &r), 0);
	assert_string_equal(sdt_trace_reader__cmdline(r), "test-built");
	for (k = 0; k < 2; k++) {
		assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
		assert_string_equal(sdt_trace_event__provider(ev), "app");
		assert_string_equal(sdt_trace_event__path(ev), "/bin/app");
		assert_true(sdt_trace_event__address(ev, &addr) && addr == 0x3010);
		assert_int_equal(sdt_trace_event__arg(ev, 0, &v), 0);
		assert_true(v.kind == SDT_VALUE_INT && v.i == -5 && v.size == 4);
		assert_int_equal(sdt_trace_event__arg(ev, 1, &v), 0);
		assert_int_equal(v.kind, SDT_VALUE_STRING);
		assert_string_equal(v.str, "hello");
		assert_int_equal(sdt_trace_event__arg(ev, 2, &v), 0);
		assert_true(v.kind == SDT_VALUE_FLOAT && v.f == 1.5);
		assert_int_equal(sdt_trace_event__arg(ev, 3, &v), 0);
		assert_true(v.kind == SDT_VALUE_UINT && v.u == 'A');
		assert_int_equal(sdt_trace_event__arg(ev, 4, &v), 0);
		assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
		assert_int_equal(sdt_trace_event__arg(ev, 5, &v), 0);
		assert_true(v.kind == SDT_VALUE_UINT && v.u == 0xbeef);
		assert_int_equal(sdt_trace_event_desc__arg_type(
				     sdt_trace_kind__desc(sdt_trace_event__kind(ev)), 3),
				 SDT_TYPE_CHAR);
	}
	assert_same_event(ev, lev);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
	sdt_trace_reader__free(r);
	sdt_trace_decoder__free(dec);
}

/* What a built description or a packing refuses, leaving the description as it was. */
static void test_built_refusals(void **state)
{
	struct sdt_arg_type tbad = {.name = (char *)"common_pid"};
	struct sdt_arg_type tx = {.name = (char *)"x"};
	struct sdt_arg_type tstr = {.kind = SDT_TYPE_STRING};
	struct sdt_arg_type t4 = {.kind = SDT_TYPE_INT, .size = 4, .is_signed = true};
	struct sdt_trace_value vs[2] = {{.kind = SDT_VALUE_STRING, .str = "abc", .len = 3},
					{.kind = SDT_VALUE_STRING, .str = "", .len = 0}};
	struct sdt_trace_value vi[2] = {{.kind = SDT_VALUE_INT, .i = 1},
					{.kind = SDT_VALUE_UNAVAILABLE}};
	struct sdt_trace_event_desc *d = NULL;
	uint8_t raw[64];

	(void)state;
	sdt_trace_event_desc__free(NULL);
	assert_int_equal(sdt_trace_event_desc__new(0, NULL, "x", NULL, &d), -EINVAL);
	assert_int_equal(sdt_trace_event_desc__new(65536, "p", "x", NULL, &d), -EINVAL);
	assert_null(d);
	assert_int_equal(sdt_trace_event_desc__new(0, "p", "x", NULL, &d), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "%eax", NULL), -EINVAL);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "3@%eax", NULL), -EINVAL);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "-4@%eax", &tbad), -EINVAL);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "1@%al", &tstr), -EINVAL);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "8@%rax", &t4), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "size differs"));
	assert_int_equal(sdt_trace_event_desc__arg_count(d), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "8@%rdi", &tx), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "4@%esi", &tx), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "both named 'x'"));
	assert_int_equal(sdt_trace_event_desc__arg_count(d), 1);
	assert_int_equal(sdt_trace_event_desc__add_arg(d, "8@%rsi", &tstr), 0);

	assert_int_equal(sdt_trace_event_desc__pack(d, 0, vi, 1, raw, sizeof(raw)), -EINVAL);
	assert_int_equal(sdt_trace_event_desc__pack(d, 0, vs, 2, raw, sizeof(raw)), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "argument 1"));
	assert_int_equal(sdt_trace_event_desc__pack(d, 0, vi, 2, raw, 8), -ENOSPC);
	/* 16 ip + 8 x + 4 loc = 28 fixed; a fault adds nothing, "abc" 4 bytes */
	assert_int_equal(sdt_trace_event_desc__pack(d, 0, vi, 2, raw, sizeof(raw)), 28);
	vs[0] = vi[0];
	vs[1].str = "abc";
	vs[1].len = 3;
	assert_int_equal(sdt_trace_event_desc__pack(d, 0, vs, 2, raw, 31), -ENOSPC);
	assert_int_equal(sdt_trace_event_desc__pack(d, 0, vs, 2, raw, 32), 32);
	sdt_trace_event_desc__free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_live_is_file),
	    cmocka_unit_test(test_live_values),
	    cmocka_unit_test(test_live_refusals),
	    cmocka_unit_test(test_desc_accessors),
	    cmocka_unit_test(test_built),
	    cmocka_unit_test(test_built_refusals),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
