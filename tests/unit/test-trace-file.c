/* SPDX-License-Identifier: MIT */
/*
 * The data file: what the writer writes, the reader gives back; a cut file reads up to its last
 * complete record; corrupt and hostile files fail cleanly; the size of a sample.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "sdtrace/sdtrace.h"
#include "trace/trace_file.h"
#include "tmpdir-test.h"

TMPDIR_FIXTURE("trace-file")

static char *path_of(const char *name)
{
	static char p[128];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

/* Event 0: __probe_ip, -1@ (s8), 8@ (u64); event 1: a string and an unavailable arg. */
static struct sdt_trace_field f0[] = {
    {.name = (char *)"__probe_ip", .offset = 8, .size = 8},
    {.name = (char *)"arg1", .offset = 16, .size = 1, .is_signed = true},
    {.name = (char *)"arg2", .offset = 24, .size = 8},
};
static struct sdt_trace_arg a0[] = {
    {.name = (char *)"arg1", .spec = (char *)"-1@%al", .size = 1, .is_signed = true, .field = 1},
    {.name = (char *)"arg2", .spec = (char *)"8@%rdx", .size = 8, .field = 2},
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
    .tp_id = 1234,
    .group = (char *)"sdtrace",
    .event = (char *)"prov_ev",
    .fields = f0,
    .nfields = 3,
    .ip_field = 0,
    .args = a0,
    .nargs = 2,
};

static struct sdt_trace_field f1[] = {
    {.name = (char *)"__probe_ip", .offset = 8, .size = 8},
    {.name = (char *)"arg1", .offset = 16, .size = 4, .is_data_loc = true},
};
static struct sdt_trace_arg a1[] = {
    {.name = (char *)"arg1", .spec = (char *)"8@%rdi", .size = 8, .is_string = true, .field = 1},
    {.name = (char *)"arg2",
     .spec = (char *)"-8@(%rdi,%rsi,8)",
     .size = 8,
     .is_signed = true,
     .field = -1,
     .unavailable = (char *)"indexed"},
};
static uint64_t sites1[] = {0x1130, 0x2248};
static struct sdt_trace_event_desc d1 = {
    .index = 7, /* indexes need not be dense */
    .provider = (char *)"prov",
    .name = (char *)"str",
    .path = (char *)"/usr/lib/lib.so",
    .site_addrs = sites1,
    .nsites = 2,
    .fields = f1,
    .nfields = 2,
    .ip_field = 0,
    .args = a1,
    .nargs = 2,
};

static void sample0(struct sdt_trace_writer *w, uint64_t t, uint32_t tid, int8_t v1, uint64_t v2)
{
	uint8_t raw[36]; /* 32 bytes of fields + 4 of PERF_SAMPLE_RAW padding */
	uint64_t ip = 0x401136;
	struct sdt_trace_sample s = {.time_ns = t,
				     .cpu = 1,
				     .pid = 50,
				     .tid = tid,
				     .event = 0,
				     .raw = raw,
				     .raw_size = sizeof(raw)};

	memset(raw, 0xaa, sizeof(raw));
	memcpy(raw + 8, &ip, 8);
	memcpy(raw + 16, &v1, 1);
	memcpy(raw + 24, &v2, 8);
	assert_int_equal(sdt_trace_writer__sample(w, &s), 0);
}

static void sample1(struct sdt_trace_writer *w, uint64_t t, const char *str)
{
	uint8_t raw[64];
	uint64_t ip = 0x7f0000000000ull + 0x2248;
	uint32_t len = (uint32_t)strlen(str) + 1, loc = len << 16 | 20;
	struct sdt_trace_sample s = {.time_ns = t,
				     .cpu = 2,
				     .pid = 60,
				     .tid = 60,
				     .event = 7,
				     .raw = raw,
				     .raw_size = 20 + len};

	memset(raw, 0, sizeof(raw));
	memcpy(raw + 8, &ip, 8);
	memcpy(raw + 16, &loc, 4);
	memcpy(raw + 20, str, len);
	assert_int_equal(sdt_trace_writer__sample(w, &s), 0);
}

static const struct sdt_trace_writer_opts meta = {.sz = sizeof(meta),
						   .cmdline = "sdtrace record -- prog",
						   .hostname = "host1",
						   .kernel_release = "6.18.0",
						   .start_realtime_ns = 1700000000000000000ull,
						   .start_monotonic_ns = 5000};

/* The reference recording: 2 events, 4 samples, a comm, lost counts, exit status 3. */
static void write_reference(const char *path, bool finish)
{
	struct sdt_trace_writer *w;

	assert_int_equal(sdt_trace_writer__open(path, &meta, &w), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d0), 0);
	assert_int_equal(sdt_trace_writer__comm(w, 50, 51, "worker-with-a-long-name"), 0);
	sample0(w, 10000, 50, -5, UINT64_MAX);
	sample0(w, 9000, 51, 127, 1); /* time may go backwards between CPUs */
	assert_int_equal(sdt_trace_writer__event(w, &d1), 0);
	sample1(w, 11000, "hello");
	assert_int_equal(sdt_trace_writer__lost(w, 3, 17), 0);
	sample0(w, 12000, 51, -128, 0);
	assert_int_equal(sdt_trace_writer__samples(w), 4);
	if (finish)
		assert_int_equal(sdt_trace_writer__finish(w, 3), 0);
	else
		sdt_trace_writer__free(w);
}

static void check_sample0(const struct sdt_trace_event *ev, uint64_t t, uint32_t tid, int64_t v1,
			  uint64_t v2)
{
	struct sdt_trace_value v;
	uint64_t addr;

	assert_true(sdt_trace_event__time_ns(ev) == t);
	assert_int_equal(sdt_trace_event__cpu(ev), 1);
	assert_int_equal(sdt_trace_event__pid(ev), 50);
	assert_int_equal(sdt_trace_event__tid(ev), tid);
	assert_string_equal(sdt_trace_event__provider(ev), "prov");
	assert_string_equal(sdt_trace_event__name(ev), "ev");
	assert_string_equal(sdt_trace_event__path(ev), "/usr/bin/prog");
	assert_true(sdt_trace_event__address(ev, &addr));
	assert_true(addr == 0x401136);
	assert_int_equal(sdt_trace_event__arg_count(ev), 2);
	assert_int_equal(sdt_trace_event__arg(ev, 0, &v), 0);
	assert_int_equal(v.kind, SDT_VALUE_INT);
	assert_true(v.i == v1);
	assert_int_equal(sdt_trace_event__arg(ev, 1, &v), 0);
	assert_int_equal(v.kind, SDT_VALUE_UINT);
	assert_true(v.u == v2);
	assert_int_equal(sdt_trace_event__arg(ev, 2, &v), -ERANGE);
}

static void test_roundtrip(void **state)
{
	const struct sdt_trace_event *ev;
	struct sdt_trace_reader *r;
	struct sdt_trace_value v;
	const struct sdt_trace_kind *k;
	uint64_t addr;
	int status = -1;

	(void)state;
	write_reference(path_of("ref.data"), true);
	assert_int_equal(sdt_trace_reader__open(path_of("ref.data"), NULL, &r), 0);
	assert_string_equal(sdt_trace_reader__cmdline(r), "sdtrace record -- prog");
	assert_string_equal(sdt_trace_reader__hostname(r), "host1");
	assert_string_equal(sdt_trace_reader__kernel_release(r), "6.18.0");
	assert_true(sdt_trace_reader__start_realtime_ns(r) == 1700000000000000000ull);
	assert_true(sdt_trace_reader__start_monotonic_ns(r) == 5000);
	assert_int_equal(sdt_trace_reader__exit_status(r, &status), -ENODATA);

	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	check_sample0(ev, 10000, 50, -5, UINT64_MAX);
	assert_null(sdt_trace_event__comm(ev)); /* no name recorded for tid 50 */
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	check_sample0(ev, 9000, 51, 127, 1);
	assert_string_equal(sdt_trace_event__comm(ev), "worker-with-a-l"); /* TASK_COMM_LEN */

	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	assert_string_equal(sdt_trace_event__name(ev), "str");
	assert_int_equal(sdt_trace_event__pid(ev), 60);
	assert_int_equal(sdt_trace_event__cpu(ev), 2);
	assert_true(sdt_trace_event__address(ev, &addr));
	assert_true(addr == 0x2248);
	assert_int_equal(sdt_trace_event__arg(ev, 0, &v), 0);
	assert_int_equal(v.kind, SDT_VALUE_STRING);
	assert_string_equal(v.str, "hello");
	assert_int_equal(sdt_trace_event__arg(ev, 1, &v), 0);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
	assert_string_equal(v.unavailable, "indexed");
	assert_int_equal(sdt_trace_reader__lost(r), 0); /* not read yet */

	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	check_sample0(ev, 12000, 51, -128, 0);
	assert_int_equal(sdt_trace_reader__lost(r), 17);
	assert_int_equal(sdt_trace_reader__lost_cpus(r), 4);
	assert_int_equal(sdt_trace_reader__lost_on_cpu(r, 3), 17);
	assert_int_equal(sdt_trace_reader__lost_on_cpu(r, 0), 0);
	assert_int_equal(sdt_trace_reader__lost_on_cpu(r, 99), 0);

	assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
	assert_false(sdt_trace_reader__truncated(r));
	assert_int_equal(sdt_trace_reader__exit_status(r, &status), 0);
	assert_int_equal(status, 3);
	assert_int_equal(sdt_trace_reader__sample_count(r), 4);

	assert_int_equal(sdt_trace_reader__kind_count(r), 2);
	k = sdt_trace_reader__kind(r, 0);
	assert_string_equal(sdt_trace_event_desc__provider(sdt_trace_kind__desc(k)), "prov");
	assert_string_equal(sdt_trace_event_desc__name(sdt_trace_kind__desc(k)), "ev");
	assert_string_equal(sdt_trace_event_desc__path(sdt_trace_kind__desc(k)), "/usr/bin/prog");
	assert_string_equal(sdt_trace_event_desc__build_id(sdt_trace_kind__desc(k)), "abcd");
	assert_int_equal(sdt_trace_kind__samples(k), 3);
	assert_string_equal(sdt_trace_event_desc__arg_spec(sdt_trace_kind__desc(k), 0), "-1@%al");
	assert_null(sdt_trace_event_desc__arg_unavailable(sdt_trace_kind__desc(k), 0));
	k = sdt_trace_reader__kind(r, 1);
	assert_null(sdt_trace_event_desc__build_id(sdt_trace_kind__desc(k)));
	assert_int_equal(sdt_trace_kind__samples(k), 1);
	assert_string_equal(sdt_trace_event_desc__arg_unavailable(sdt_trace_kind__desc(k), 1),
			    "indexed");
	assert_null(sdt_trace_reader__kind(r, 2));
	sdt_trace_reader__free(r);
}

/*
 * opts.time_order: the events in time order (file order among equal times), their strings and
 * thread names their own while others are read; one that comes more than the window (1 s)
 * after a newer one was handed out is passed on, and counted late.
 */
static void test_time_order(void **state)
{
	SDT_OPTS(sdt_trace_open_opts, o, .time_order = true);
	const struct sdt_trace_event *ev;
	struct sdt_trace_reader *r;
	struct sdt_trace_writer *w;
	struct sdt_trace_value v;

	(void)state;
	write_reference(path_of("order.data"), true);
	assert_int_equal(sdt_trace_reader__open(path_of("order.data"), &o, &r), 0);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	check_sample0(ev, 9000, 51, 127, 1);
	assert_string_equal(sdt_trace_event__comm(ev), "worker-with-a-l");
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	check_sample0(ev, 10000, 50, -5, UINT64_MAX);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	assert_int_equal(sdt_trace_event__arg(ev, 0, &v), 0);
	assert_string_equal(v.str, "hello");
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	check_sample0(ev, 12000, 51, -128, 0);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
	assert_int_equal(sdt_trace_reader__late(r), 0);
	sdt_trace_reader__free(r);

	assert_int_equal(sdt_trace_writer__open(path_of("late.data"), &meta, &w), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d0), 0);
	sample0(w, 10000, 50, 1, 1);
	sample0(w, 2000010000ull, 50, 2, 2);
	sample0(w, 5000, 50, 3, 3); /* 2 s after a newer one: the first was let out already */
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	assert_int_equal(sdt_trace_reader__open(path_of("late.data"), &o, &r), 0);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	check_sample0(ev, 10000, 50, 1, 1);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	check_sample0(ev, 5000, 50, 3, 3);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	check_sample0(ev, 2000010000ull, 50, 2, 2);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
	assert_int_equal(sdt_trace_reader__late(r), 1);
	sdt_trace_reader__free(r);
}

static void *slurp(const char *path, size_t *len)
{
	struct stat st;
	void *buf;
	int fd = open(path, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

/* Read a whole recording from memory: events read, or the negative error. */
static long read_all(const void *buf, size_t len, bool *truncated)
{
	const struct sdt_trace_event *ev;
	struct sdt_trace_reader *r;
	struct sdt_trace_value v;
	long n = 0;
	int err;
	size_t i;

	err = sdt_trace_reader__open_mem(buf, len, NULL, &r);
	if (err)
		return err;
	while ((err = sdt_trace_reader__next(r, &ev)) > 0) {
		for (i = 0; i < sdt_trace_event__arg_count(ev); i++)
			sdt_trace_event__arg(ev, i, &v);
		n++;
	}
	if (truncated)
		*truncated = sdt_trace_reader__truncated(r);
	sdt_trace_reader__free(r);
	return err < 0 ? err : n;
}

/* Every prefix of a recording reads cleanly up to its last complete record, and says so. */
static void test_every_cut(void **state)
{
	size_t len, cut;
	uint8_t *buf;
	long prev = 0, n;
	bool trunc;

	(void)state;
	write_reference(path_of("cut.data"), true);
	buf = slurp(path_of("cut.data"), &len);
	for (cut = 0; cut < len; cut++) {
		n = read_all(buf, cut, &trunc);
		if (n < 0) {
			/* only before the session record is complete may opening fail */
			assert_int_equal(n, -EINVAL);
			assert_true(prev == 0);
			assert_true(cut < 80);
			continue;
		}
		assert_true(trunc);
		assert_true(n >= prev && n <= 4);
		prev = n;
	}
	assert_int_equal(prev, 4);
	assert_int_equal(read_all(buf, len, &trunc), 4);
	assert_false(trunc);
	free(buf);
}

/* A writer closed without finish (a killed recorder) leaves a readable, truncated file. */
static void test_no_end(void **state)
{
	size_t len;
	void *buf;
	bool trunc = false;

	(void)state;
	write_reference(path_of("noend.data"), false);
	buf = slurp(path_of("noend.data"), &len);
	assert_int_equal(read_all(buf, len, &trunc), 4);
	assert_true(trunc);
	free(buf);
}

/* Byte flips anywhere never crash the reader (ASan watches); most are caught. */
static void test_mutations(void **state)
{
	size_t len, i;
	uint8_t *buf;
	int bit;

	(void)state;
	write_reference(path_of("mut.data"), true);
	buf = slurp(path_of("mut.data"), &len);
	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit++) {
			buf[i] ^= (uint8_t)(1 << bit);
			(void)read_all(buf, len, NULL);
			buf[i] ^= (uint8_t)(1 << bit);
		}
	}
	/* the magic, the version, the byte order */
	buf[0] ^= 1;
	assert_int_equal(read_all(buf, len, NULL), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "not a sdtrace recording"));
	buf[0] ^= 1;
	buf[8] = 4; /* 3 is the stacks format now */
	assert_int_equal(read_all(buf, len, NULL), -ENOTSUP);
	assert_non_null(strstr(sdt_errmsg(), "version 4"));
	buf[8] = 0;
	assert_int_equal(read_all(buf, len, NULL), -EINVAL);
	buf[8] = 2;
	buf[12] = 9;
	assert_int_equal(read_all(buf, len, NULL), -EINVAL);
	free(buf);
}

/* Hand-made files: header, then records given as bytes. */
static size_t mkfile(uint8_t *out, const uint8_t *recs, size_t n)
{
	/* META: no strings, times 1 and 2, then two bytes a later version might add */
	static const uint8_t meta_rec[] = {1, 7, 0, 0, 0, 1, 2, 3, 4};

	memcpy(out, SDT_TRACE_MAGIC, 8);
	memset(out + 8, 0, 8);
	out[8] = 1;
	out[12] = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 1 : 2;
	memcpy(out + 16, meta_rec, sizeof(meta_rec));
	if (n)
		memcpy(out + 25, recs, n);
	return 25 + n;
}

static void test_hostile(void **state)
{
	uint8_t buf[256];
	size_t n;
	bool trunc;
	/* a minimal valid EVENT record body for index 0: provider "p", name "n", nothing else */
	static const uint8_t ev0[] = {2, 14, 0, 2, 'p', 2, 'n', 0, 0, 0, 0, 0, 0, 0, 1, 0};

	(void)state;
	/* the session alone: empty but valid, truncated (no END) */
	n = mkfile(buf, NULL, 0);
	assert_int_equal(read_all(buf, n, &trunc), 0);
	assert_true(trunc);
	/* END */
	n = mkfile(buf, (const uint8_t[]){7, 3, 6, 0, 0}, 5);
	assert_int_equal(read_all(buf, n, &trunc), 0);
	assert_false(trunc);
	/* a sample before its event */
	n = mkfile(buf, (const uint8_t[]){3, 5, 0, 0, 0, 0, 0}, 7);
	assert_int_equal(read_all(buf, n, NULL), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "corrupt recording at byte 25"));
	/* a same-task sample with no task before */
	memcpy(buf + 25, ev0, sizeof(ev0));
	memcpy(buf + 25 + sizeof(ev0), (const uint8_t[]){4, 2, 0, 0}, 4);
	assert_int_equal(read_all(buf, 25 + sizeof(ev0) + 4, NULL), -EINVAL);
	/* the event is fine with a full sample (no fields: empty payload) */
	memcpy(buf + 25 + sizeof(ev0), (const uint8_t[]){3, 5, 0, 0, 0, 0, 0}, 7);
	assert_int_equal(read_all(buf, 25 + sizeof(ev0) + 7, NULL), 1);
	/* described twice */
	memcpy(buf + 25 + sizeof(ev0), ev0, sizeof(ev0));
	assert_int_equal(read_all(buf, 25 + 2 * sizeof(ev0), NULL), -EINVAL);
	/* a record length beyond any bound, and one running past the end */
	n = mkfile(buf, (const uint8_t[]){3, 0xff, 0xff, 0xff, 0xff, 0x7f}, 6);
	assert_int_equal(read_all(buf, n, NULL), -EINVAL);
	n = mkfile(buf, (const uint8_t[]){3, 0x7f, 0, 0}, 4);
	assert_int_equal(read_all(buf, n, &trunc), 0);
	assert_true(trunc);
	/* unknown required record type; an optional one (>= 64) is skipped */
	n = mkfile(buf, (const uint8_t[]){9, 0}, 2);
	assert_int_equal(read_all(buf, n, NULL), -EINVAL);
	n = mkfile(buf, (const uint8_t[]){64, 2, 1, 2, 7, 3, 0, 0, 0}, 9);
	assert_int_equal(read_all(buf, n, &trunc), 0);
	assert_false(trunc);
	/* a site count far beyond the record */
	memcpy(buf + 25, ev0, sizeof(ev0));
	buf[25 + 2 + 10] = 0x7f; /* nsites */
	assert_int_equal(read_all(buf, 25 + sizeof(ev0), NULL), -EINVAL);
	/* a lost count on an absurd CPU: in the total, not in a per-CPU array of that size */
	n = mkfile(buf, (const uint8_t[]){6, 6, 0xff, 0xff, 0xff, 0xff, 0x0f, 9}, 8);
	assert_int_equal(read_all(buf, n, NULL), 0);
	{
		struct sdt_trace_reader *r;
		const struct sdt_trace_event *ev;

		assert_int_equal(sdt_trace_reader__open_mem(buf, n, NULL, &r), 0);
		assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
		assert_int_equal(sdt_trace_reader__lost(r), 9);
		assert_int_equal(sdt_trace_reader__lost_cpus(r), 0);
		sdt_trace_reader__free(r);
	}
	/* a CPU beyond 32 bits is corruption */
	n = mkfile(buf, (const uint8_t[]){6, 7, 0xff, 0xff, 0xff, 0xff, 0x1f, 0, 1}, 9);
	assert_int_equal(read_all(buf, n, NULL), -EINVAL);
	/* a thread name with a NUL inside, and one too long */
	n = mkfile(buf, (const uint8_t[]){5, 6, 1, 0, 4, 'a', 0, 'b'}, 8);
	assert_int_equal(read_all(buf, n, NULL), -EINVAL);
	n = mkfile(buf, (const uint8_t[]){5, 3, 1, 0, 40}, 5);
	assert_int_equal(read_all(buf, n, NULL), -EINVAL);
	/* no session record first */
	n = mkfile(buf, NULL, 0);
	buf[16] = 7;
	assert_int_equal(read_all(buf, n, NULL), -EINVAL);
	/* too short for a header; empty */
	assert_int_equal(read_all(buf, 10, NULL), -EINVAL);
	assert_int_equal(read_all(buf, 0, NULL), -EINVAL);
}

/*
 * USER_STACK (record --call-graph=dwarf): the registers and stack bytes reach the sample that
 * follows; a format this reader does not know is skipped; a record that does not parse, one cut
 * short, one not followed by its sample fail cleanly.
 */
static int first_user_stack(const uint8_t *buf, size_t n, struct sdt_trace_user_stack *us,
			    bool *has)
{
	const struct sdt_trace_event *ev;
	struct sdt_trace_reader *r;
	int err;

	*has = false;
	err = sdt_trace_reader__open_mem(buf, n, NULL, &r);
	if (err)
		return err;
	err = sdt_trace_reader__next(r, &ev);
	if (err > 0) {
		*has = sdt_trace_event__user_stack(ev, us);
		if (*has) {
			static uint64_t regs[2];
			static uint8_t bytes[8];

			/* copied out: borrowed until the reader goes */
			memcpy(regs, us->regs, sizeof(regs));
			memcpy(bytes, us->stack, us->stack_size < 8 ? us->stack_size : 8);
			us->regs = regs;
			us->stack = bytes;
		}
		assert_true(sdt_trace_reader__has_stacks(r) == *has);
		err = sdt_trace_reader__next(r, &ev) < 0 ? -EINVAL : 1;
	}
	sdt_trace_reader__free(r);
	return err;
}

static void test_user_stack(void **state)
{
	static const uint8_t ev0[] = {2, 14, 0, 2, 'p', 2, 'n', 0, 0, 0, 0, 0, 0, 0, 1, 0};
	static const uint8_t sample[] = {3, 5, 0, 0, 0, 0, 0};
	/* format 1, EM_X86_64, mask 0b11, regs 0x10 0x20, 4 bytes: 4 literal, 0 zeros */
	uint8_t ust[] = {65, 12, 1, 62, 3, 0x10, 0x20, 4, 4, 'a', 'b', 'c', 'd', 0};
	struct sdt_trace_user_stack us;
	uint8_t recs[128], buf[256];
	size_t n, k;
	bool has, trunc;

	(void)state;
	memcpy(recs, ev0, sizeof(ev0));
	memcpy(recs + sizeof(ev0), ust, sizeof(ust));
	memcpy(recs + sizeof(ev0) + sizeof(ust), sample, sizeof(sample));
	k = sizeof(ev0) + sizeof(ust) + sizeof(sample);
	n = mkfile(buf, recs, k);
	assert_int_equal(first_user_stack(buf, n, &us, &has), 1);
	assert_true(has);
	assert_int_equal(us.machine, 62);
	assert_int_equal(us.regs_mask, 3);
	assert_int_equal(us.nregs, 2);
	assert_int_equal(us.regs[0], 0x10);
	assert_int_equal(us.regs[1], 0x20);
	assert_int_equal(us.stack_size, 4);
	assert_memory_equal(us.stack, "abcd", 4);
	/* every cut: read up to the last complete record, never an error */
	for (size_t cut = 25; cut < n; cut++)
		assert_true(read_all(buf, cut, &trunc) >= 0 && trunc);
	/* a format this reader does not know: skipped, the sample has no stack */
	buf[25 + sizeof(ev0) + 2] = 2;
	assert_int_equal(first_user_stack(buf, n, &us, &has), 1);
	assert_false(has);
	buf[25 + sizeof(ev0) + 2] = 1;
	/* a run longer than the size */
	buf[25 + sizeof(ev0) + 8] = 5;
	assert_int_equal(read_all(buf, n, NULL), -EINVAL);
	buf[25 + sizeof(ev0) + 8] = 4;
	/* a size beyond the bytes there */
	buf[25 + sizeof(ev0) + 7] = 5;
	assert_int_equal(read_all(buf, n, NULL), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "bad user stack record"));
	buf[25 + sizeof(ev0) + 7] = 4;
	/* no register */
	buf[25 + sizeof(ev0) + 4] = 0;
	assert_int_equal(read_all(buf, n, NULL), -EINVAL);
	buf[25 + sizeof(ev0) + 4] = 3;
	/* a register cut short (a varint running into the size) */
	buf[25 + sizeof(ev0) + 6] = 0x80 | 0x20;
	assert_int_equal(read_all(buf, n, NULL), -EINVAL);
	buf[25 + sizeof(ev0) + 6] = 0x20;
	/* not followed by its sample: END, or a second one */
	memcpy(buf + 25 + sizeof(ev0) + sizeof(ust), (const uint8_t[]){7, 3, 0, 0, 0}, 5);
	assert_int_equal(read_all(buf, 25 + sizeof(ev0) + sizeof(ust) + 5, NULL), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "not followed by its sample"));
	memcpy(buf + 25 + sizeof(ev0) + sizeof(ust), ust, sizeof(ust));
	assert_int_equal(read_all(buf, 25 + sizeof(ev0) + 2 * sizeof(ust), NULL), -EINVAL);
}

/* The writer's USER_STACK: written before its sample, read back the same. */
static void test_user_stack_roundtrip(void **state)
{
	char *path = path_of("ustack.data");
	uint64_t regs[17], ip = 0x401136;
	uint8_t raw[36], stack[200];
	struct sdt_trace_writer *w;
	struct sdt_trace_reader *r;
	const struct sdt_trace_event *ev;
	struct sdt_trace_user_stack us;
	struct sdt_trace_sample s = {.time_ns = 1,
				     .cpu = 1,
				     .pid = 50,
				     .tid = 50,
				     .raw = raw,
				     .raw_size = sizeof(raw),
				     .user_machine = 62,
				     .user_regs_mask = 0xff01ff,
				     .user_regs = regs,
				     .user_stack = stack,
				     .user_stack_size = sizeof(stack)};
	size_t i;

	(void)state;
	memset(raw, 0, sizeof(raw));
	memcpy(raw + 8, &ip, 8);
	for (i = 0; i < 17; i++)
		regs[i] = 0x7ffd00000000ull + i;
	for (i = 0; i < sizeof(stack); i++)
		stack[i] = (uint8_t)i;
	/* zero runs: a long one (left out), a short one (literal), one at the end */
	memset(stack + 40, 0, 100);
	memset(stack + 150, 0, 5);
	memset(stack + 180, 0, 20);
	assert_int_equal(sdt_trace_writer__open(path, &meta, &w), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d0), 0);
	assert_int_equal(sdt_trace_writer__sample(w, &s), 0);
	s.user_regs = NULL;
	assert_int_equal(sdt_trace_writer__sample(w, &s), 0);
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	assert_int_equal(sdt_trace_reader__open(path, NULL, &r), 0);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	assert_true(sdt_trace_event__user_stack(ev, &us));
	assert_int_equal(us.nregs, 17);
	assert_memory_equal(us.regs, regs, sizeof(regs));
	assert_int_equal(us.stack_size, sizeof(stack));
	assert_memory_equal(us.stack, stack, sizeof(stack));
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	assert_false(sdt_trace_event__user_stack(ev, &us));
	assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
	sdt_trace_reader__free(r);

	/* 300 stacks of every length 0-299, zero-heavy at random (a fixed seed): the same back */
	srand(19);
	assert_int_equal(sdt_trace_writer__open(path, &meta, &w), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d0), 0);
	s.user_regs = regs;
	for (i = 0; i < 300; i++) {
		uint8_t st[300];
		size_t k;

		for (k = 0; k < i; k++)
			st[k] = rand() % 3 ? 0 : (uint8_t)(1 + rand() % 255);
		if (i % 7 == 0)
			memset(st, 0, i / 2);
		s.user_stack = st;
		s.user_stack_size = (uint32_t)i;
		assert_int_equal(sdt_trace_writer__sample(w, &s), 0);
	}
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	srand(19);
	assert_int_equal(sdt_trace_reader__open(path, NULL, &r), 0);
	for (i = 0; i < 300; i++) {
		uint8_t st[300];
		size_t k;

		for (k = 0; k < i; k++)
			st[k] = rand() % 3 ? 0 : (uint8_t)(1 + rand() % 255);
		if (i % 7 == 0)
			memset(st, 0, i / 2);
		assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
		assert_true(sdt_trace_event__user_stack(ev, &us));
		assert_int_equal(us.stack_size, i);
		if (i)
			assert_memory_equal(us.stack, st, i);
	}
	assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
	sdt_trace_reader__free(r);
}

static void test_writer_refuses(void **state)
{
	struct sdt_trace_event_desc bad = d0;
	struct sdt_trace_field badf[3];
	struct sdt_trace_writer *w;
	struct sdt_trace_reader *r;
	uint8_t raw[16] = {0};
	struct sdt_trace_sample s = {.event = 0, .raw = raw, .raw_size = sizeof(raw)};

	(void)state;
	assert_int_equal(sdt_trace_writer__open(path_of("refuse.data"), NULL, &w), 0);
	/* a sample before its event */
	assert_int_equal(sdt_trace_writer__sample(w, &s), -EINVAL);
	assert_int_equal(sdt_trace_writer__event(w, &d0), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d0), -EEXIST);
	/* a record shorter than the fields */
	assert_int_equal(sdt_trace_writer__sample(w, &s), -EINVAL);
	/* descs the reader would reject */
	memcpy(badf, f0, sizeof(badf));
	badf[1].size = 3;
	bad.index = 1;
	bad.fields = badf;
	assert_int_equal(sdt_trace_writer__event(w, &bad), -EINVAL);
	bad = d0;
	bad.index = 2;
	bad.ip_field = 5;
	assert_int_equal(sdt_trace_writer__event(w, &bad), -EINVAL);
	bad = d0;
	bad.index = SDT_TRACE_MAX_EVENTS;
	assert_int_equal(sdt_trace_writer__event(w, &bad), -EINVAL);
	bad = d0;
	bad.index = 3;
	bad.provider = NULL;
	assert_int_equal(sdt_trace_writer__event(w, &bad), -EINVAL);
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	/* the file is still good */
	assert_int_equal(sdt_trace_reader__open(path_of("refuse.data"), NULL, &r), 0);
	sdt_trace_reader__free(r);
}

/* A one-argument sample takes at most 32 bytes (perf.data: 80); the same task, fewer. */
static void test_sample_size(void **state)
{
	struct sdt_trace_writer *w;
	uint64_t before;

	(void)state;
	assert_int_equal(sdt_trace_writer__open(path_of("size.data"), NULL, &w), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d0), 0);
	sample0(w, 1000000000000ull, 50, 1, 2);
	before = sdt_trace_writer__bytes(w);
	sample0(w, 1000000001000ull, 51, 1, 2); /* another thread */
	/* header (type, length, event, time, cpu, pid, tid) + 24 payload bytes, no padding */
	assert_true(sdt_trace_writer__bytes(w) - before <= 32);
	before = sdt_trace_writer__bytes(w);
	sample0(w, 1000000002000ull, 51, 1, 2); /* the same thread */
	assert_true(sdt_trace_writer__bytes(w) - before <= 29);
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
}

/*
 * A counted string (HotSpot's pointer + length): a string argument NAME and an integer NAME_len;
 * the kernel read on to a NUL, the reader keeps NAME_len bytes (never more than it read).
 */
static void test_counted_string(void **state)
{
	static struct sdt_trace_field f[] = {
	    {.name = (char *)"__probe_ip", .offset = 8, .size = 8},
	    {.name = (char *)"name", .offset = 16, .size = 4, .is_data_loc = true},
	    {.name = (char *)"name_len", .offset = 20, .size = 4, .is_signed = true},
	};
	static struct sdt_trace_arg a[] = {
	    {.name = (char *)"name",
	     .spec = (char *)"8@%rdi",
	     .size = 8,
	     .is_string = true,
	     .named = true,
	     .field = 1},
	    {.name = (char *)"name_len",
	     .spec = (char *)"-4@%esi",
	     .size = 4,
	     .is_signed = true,
	     .named = true,
	     .field = 2},
	};
	static uint64_t sites[] = {0x1000};
	struct sdt_trace_event_desc d = {.index = 3,
					 .provider = (char *)"hotspot",
					 .name = (char *)"class__loaded",
					 .path = (char *)"/l.so",
					 .site_addrs = sites,
					 .nsites = 1,
					 .fields = f,
					 .nfields = 3,
					 .ip_field = 0,
					 .args = a,
					 .nargs = 2};
	static const struct {
		const char *bytes; /* what the kernel read, up to a NUL */
		int32_t len;
		const char *want;
	} cases[] = {
	    {"java/lang/ObjectJUNK", 16, "java/lang/Object"},
	    {"short", 40, "short"}, /* a length past what was read: all that was read */
	    {"abc", -1, "abc"},	    /* a negative length: ignored */
	    {"abc", 0, ""},
	};
	const struct sdt_trace_event *ev;
	struct sdt_trace_reader *r;
	struct sdt_trace_writer *w;
	struct sdt_trace_value v;
	size_t i;

	(void)state;
	assert_int_equal(sdt_trace_writer__open(path_of("counted.data"), &meta, &w), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t raw[64] = {0};
		uint64_t ip = 0x1000;
		uint32_t n = (uint32_t)strlen(cases[i].bytes) + 1, loc = n << 16 | 24;
		struct sdt_trace_sample smp = {.time_ns = 1000 + i,
					       .pid = 9,
					       .tid = 9,
					       .event = 3,
					       .raw = raw,
					       .raw_size = 24 + n};

		memcpy(raw + 8, &ip, 8);
		memcpy(raw + 16, &loc, 4);
		memcpy(raw + 20, &cases[i].len, 4);
		memcpy(raw + 24, cases[i].bytes, n);
		assert_int_equal(sdt_trace_writer__sample(w, &smp), 0);
	}
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	assert_int_equal(sdt_trace_reader__open(path_of("counted.data"), NULL, &r), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
		assert_int_equal(sdt_trace_event__arg(ev, 0, &v), 0);
		assert_int_equal(v.kind, SDT_VALUE_STRING);
		assert_string_equal(v.str, cases[i].want);
		assert_int_equal(v.len, strlen(cases[i].want));
		/* asking twice gives the same */
		assert_int_equal(sdt_trace_event__arg(ev, 0, &v), 0);
		assert_string_equal(v.str, cases[i].want);
		assert_int_equal(sdt_trace_event__arg(ev, 1, &v), 0);
		assert_int_equal(v.i, cases[i].len);
	}
	assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
	sdt_trace_reader__free(r);
}

/*
 * A long double (a 16-byte x64[2] field) goes through the file with its float format (field
 * flags bits 2-3): an x87 one and a binary128 one in one event read back as their values.
 */
static void test_long_double(void **state)
{
	static struct sdt_trace_field f[] = {
	    {.name = (char *)"__probe_ip", .offset = 8, .size = 8},
	    {.name = (char *)"x", .offset = 16, .size = 16, .float_format = SDT_FLOAT_X87},
	    {.name = (char *)"q", .offset = 32, .size = 16, .float_format = SDT_FLOAT_IEEE},
	};
	static struct sdt_trace_arg a[] = {
	    {.name = (char *)"x",
	     .spec = (char *)"16f@-32(%rbp)",
	     .size = 16,
	     .is_float = true,
	     .field = 1},
	    {.name = (char *)"q",
	     .spec = (char *)"16f@[sp, 32]",
	     .size = 16,
	     .is_float = true,
	     .field = 2},
	};
	static uint64_t sites[] = {0x1000};
	struct sdt_trace_event_desc d = {.index = 4,
					 .provider = (char *)"ld",
					 .name = (char *)"value",
					 .path = (char *)"/ld",
					 .site_addrs = sites,
					 .nsites = 1,
					 .fields = f,
					 .nfields = 3,
					 .ip_field = 0,
					 .args = a,
					 .nargs = 2};
	/* -2.5: x87 significand 0xa000000000000000, exponent 0xc000; binary128 0xc000400000000000 */
	uint64_t ip = 0x1000, xm = 0xa000000000000000ULL, qhi = 0xc000400000000000ULL, qlo = 0;
	uint16_t xse = 0xc000;
	uint8_t raw[48] = {0};
	struct sdt_trace_sample smp = {
	    .time_ns = 5, .pid = 2, .tid = 2, .event = 4, .raw = raw, .raw_size = sizeof(raw)};
	const struct sdt_trace_event *ev;
	struct sdt_trace_reader *r;
	struct sdt_trace_writer *w;
	struct sdt_trace_value v;

	(void)state;
	if (__BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__)
		skip();
	memcpy(raw + 8, &ip, 8);
	memcpy(raw + 16, &xm, 8);
	memcpy(raw + 24, &xse, 2);
	memcpy(raw + 32, &qlo, 8);
	memcpy(raw + 40, &qhi, 8);
	assert_int_equal(sdt_trace_writer__open(path_of("ld.data"), &meta, &w), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d), 0);
	assert_int_equal(sdt_trace_writer__sample(w, &smp), 0);
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	assert_int_equal(sdt_trace_reader__open(path_of("ld.data"), NULL, &r), 0);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	assert_int_equal(sdt_trace_event__arg(ev, 0, &v), 0);
	assert_int_equal(v.kind, SDT_VALUE_FLOAT);
	assert_int_equal(v.size, 16);
	assert_true(v.ld == -2.5L && v.f == -2.5);
	assert_int_equal(sdt_trace_event__arg(ev, 1, &v), 0);
	assert_int_equal(v.kind, SDT_VALUE_FLOAT);
	assert_true(v.ld == -2.5L);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
	sdt_trace_reader__free(r);
}

/*
 * The writer's options are read as every _opts struct is: a newer caller's unknown byte set is
 * refused before anything is renamed or created; an older caller's shorter struct is enough.
 */
static void test_writer_opts(void **state)
{
	struct {
		struct sdt_trace_writer_opts o;
		uint64_t newer;
	} big = {.o = {.sz = sizeof(big), .cmdline = "x"}, .newer = 1};
	struct sdt_trace_writer_opts old = {.sz = offsetof(struct sdt_trace_writer_opts, hostname),
					    .cmdline = "old caller"};
	struct sdt_trace_writer *w = NULL;
	struct sdt_trace_reader *r;
	struct stat st;

	(void)state;
	write_reference(path_of("opts.data"), true);
	assert_int_equal(sdt_trace_writer__open(path_of("opts.data"), &big.o, &w), -EINVAL);
	assert_null(w);
	assert_non_null(strstr(sdt_errmsg(), "sdt_trace_writer_opts"));
	assert_int_equal(stat(path_of("opts.data.old"), &st), -1); /* nothing renamed */
	assert_int_equal(sdt_trace_writer__open(path_of("opts-new.data"), &big.o, &w), -EINVAL);
	assert_int_equal(stat(path_of("opts-new.data"), &st), -1); /* nothing created */
	assert_int_equal(sdt_trace_writer__open(path_of("opts.data"), &old, &w), 0);
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	assert_int_equal(sdt_trace_reader__open(path_of("opts.data"), NULL, &r), 0);
	assert_string_equal(sdt_trace_reader__cmdline(r), "old caller");
	assert_non_null(sdt_trace_reader__hostname(r)); /* uname()'s: the field was not there */
	sdt_trace_reader__free(r);
}

/* An existing recording is kept as FILE.old, as perf keeps perf.data.old. */
static void test_old(void **state)
{
	struct sdt_trace_writer *w;
	struct stat st;
	size_t len;
	void *buf;

	(void)state;
	write_reference(path_of("sdtrace.data"), true);
	assert_int_equal(sdt_trace_writer__open(path_of("sdtrace.data"), NULL, &w), 0);
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	assert_int_equal(stat(path_of("sdtrace.data.old"), &st), 0);
	buf = slurp(path_of("sdtrace.data.old"), &len);
	assert_int_equal(read_all(buf, len, NULL), 4);
	free(buf);
	buf = slurp(path_of("sdtrace.data"), &len);
	assert_int_equal(read_all(buf, len, NULL), 0);
	free(buf);
}

static void test_open_errors(void **state)
{
	struct sdt_trace_reader *r = NULL;
	struct sdt_trace_writer *w = NULL;

	(void)state;
	assert_int_equal(sdt_trace_reader__open(path_of("missing.data"), NULL, &r), -ENOENT);
	assert_non_null(strstr(sdt_errmsg(), "missing.data"));
	assert_int_equal(sdt_trace_writer__open(path_of("no/such/dir.data"), NULL, &w), -ENOENT);
	assert_null(r);
	assert_null(w);
}

/* A recording from a host of the other byte order: payloads are swapped back. */
static void test_other_byte_order(void **state)
{
	struct sdt_trace_writer *w;
	const struct sdt_trace_event *ev;
	struct sdt_trace_reader *r;
	struct sdt_trace_value v;
	uint8_t raw[32] = {0}, *buf;
	uint64_t ip = __builtin_bswap64(0x401136), v2 = __builtin_bswap64(0x0102030405060708ull);
	struct sdt_trace_sample s = {.event = 0, .raw = raw, .raw_size = sizeof(raw)};
	size_t len;

	(void)state;
	memcpy(raw + 8, &ip, 8);
	raw[16] = 0xfb;
	memcpy(raw + 24, &v2, 8);
	assert_int_equal(sdt_trace_writer__open(path_of("swap.data"), NULL, &w), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d0), 0);
	assert_int_equal(sdt_trace_writer__sample(w, &s), 0);
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	buf = slurp(path_of("swap.data"), &len);
	buf[12] = buf[12] == 1 ? 2 : 1;
	assert_int_equal(sdt_trace_reader__open_mem(buf, len, NULL, &r), 0);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
	sdt_trace_event__arg(ev, 0, &v);
	assert_int_equal(v.i, -5);
	sdt_trace_event__arg(ev, 1, &v);
	assert_true(v.u == 0x0102030405060708ull);
	sdt_trace_reader__free(r);
	free(buf);
}

/*
 * The writer costs no allocation per record, and the reader's memory does not grow with the
 * events (what lets a report of 1M events stream). mallinfo2() counts the bytes in use.
 */
static void test_no_allocation_per_record(void **state)
{
	const struct sdt_trace_event *ev;
	struct sdt_trace_writer *w;
	struct sdt_trace_reader *r;
	struct sdt_trace_value v;
	size_t before;
	int i;

	(void)state;
	assert_int_equal(sdt_trace_writer__open(path_of("alloc.data"), NULL, &w), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d0), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d1), 0);
	assert_int_equal(sdt_trace_writer__comm(w, 50, 51, "w"), 0);
	sample0(w, 1, 50, 1, 2);
	sample1(w, 2, "warm-up");
	before = mallinfo2().uordblks;
	for (i = 0; i < 20000; i++) {
		/* 1 ms apart: the writer flushes on its own as it goes */
		sample0(w, 1000000ull * (uint64_t)i, (uint32_t)(50 + i % 2), (int8_t)i,
			(uint64_t)i);
		sample1(w, 1000000ull * (uint64_t)i + 1, "a string");
	}
	assert_int_equal(mallinfo2().uordblks, before);
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);

	assert_int_equal(sdt_trace_reader__open(path_of("alloc.data"), NULL, &r), 0);
	for (i = 0; i < 2; i++) {
		assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
		assert_int_equal(sdt_trace_event__arg(ev, 0, &v), 0);
	}
	before = mallinfo2().uordblks;
	for (i = 0; i < 40000; i++) {
		assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
		assert_int_equal(sdt_trace_event__arg(ev, 0, &v), 0);
	}
	assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
	assert_int_equal(mallinfo2().uordblks, before);
	sdt_trace_reader__free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roundtrip),
	    cmocka_unit_test(test_time_order),
	    cmocka_unit_test(test_every_cut),
	    cmocka_unit_test(test_no_end),
	    cmocka_unit_test(test_mutations),
	    cmocka_unit_test(test_hostile),
	    cmocka_unit_test(test_user_stack),
	    cmocka_unit_test(test_user_stack_roundtrip),
	    cmocka_unit_test(test_writer_refuses),
	    cmocka_unit_test(test_sample_size),
	    cmocka_unit_test(test_counted_string),
	    cmocka_unit_test(test_long_double),
	    cmocka_unit_test(test_writer_opts),
	    cmocka_unit_test(test_old),
	    cmocka_unit_test(test_open_errors),
	    cmocka_unit_test(test_other_byte_order),
	    cmocka_unit_test(test_no_allocation_per_record),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
