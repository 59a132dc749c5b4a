/* SPDX-License-Identifier: MIT */
/*
 * The perf ring reader (lib/record/ring.c) on a ring built in memory: samples, COMM and LOST records,
 * records and headers that wrap around the end, malformed records, a handler that stops.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <linux/perf_event.h>

#include "record/ring.h"
#include "trace/trace_event.h"

#define PAGE 4096
#define DATA 4096

struct seen {
	int samples, comms, lost_calls;
	struct sdt_trace_sample last;
	unsigned char raw[256];
	uint32_t comm_pid, comm_tid;
	char comm[32];
	uint32_t lost_cpu;
	uint64_t lost;
	int fail_at; /* return an error on this sample (1-based), 0: never */
};

static int on_sample(void *c, struct sdt_trace_sample *s)
{
	struct seen *x = c;

	if (x->fail_at && x->samples + 1 == x->fail_at)
		return -ECANCELED;
	x->samples++;
	x->last = *s;
	assert_true(s->raw_size <= sizeof(x->raw));
	memcpy(x->raw, s->raw, s->raw_size);
	return 0;
}

static void on_comm(void *c, uint32_t pid, uint32_t tid, const char *comm)
{
	struct seen *x = c;

	x->comms++;
	x->comm_pid = pid;
	x->comm_tid = tid;
	snprintf(x->comm, sizeof(x->comm), "%s", comm);
}

static void on_lost(void *c, uint32_t cpu, uint64_t n)
{
	struct seen *x = c;

	x->lost_calls++;
	x->lost_cpu = cpu;
	x->lost += n;
}

struct fake {
	struct sdt_ring r;
	struct perf_event_mmap_page *meta;
	uint64_t head;
};

static void fake_init(struct fake *f, uint64_t start)
{
	memset(f, 0, sizeof(*f));
	f->r.base = aligned_alloc(PAGE, PAGE + DATA);
	assert_non_null(f->r.base);
	memset(f->r.base, 0xee, PAGE + DATA);
	f->meta = f->r.base;
	memset(f->meta, 0, sizeof(*f->meta));
	f->r.data = (unsigned char *)f->r.base + PAGE;
	f->r.data_size = DATA;
	f->r.scratch = malloc(65536);
	f->r.cpu = 3;
	f->r.fd = -1;
	f->meta->data_tail = start;
	f->head = start;
}

static void fake_free(struct fake *f)
{
	free(f->r.base);
	free(f->r.scratch);
}

/* Append @len bytes at head, wrapping like the kernel. */
static void put(struct fake *f, const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		f->r.data[(f->head + i) & (DATA - 1)] = b[i];
	f->head += len;
}

static void put_sample(struct fake *f, uint32_t pid, uint32_t tid, uint64_t time, uint32_t cpu,
		       const void *raw, uint32_t raw_size)
{
	struct perf_event_header h = {.type = PERF_RECORD_SAMPLE};
	uint32_t pt[2] = {pid, tid}, cr[2] = {cpu, 0};
	size_t size = sizeof(h) + 8 + 8 + 8 + 4 + raw_size;
	static const unsigned char zero[8];

	h.size = (uint16_t)((size + 7) & ~7ul);
	put(f, &h, sizeof(h));
	put(f, pt, 8);
	put(f, &time, 8);
	put(f, cr, 8);
	put(f, &raw_size, 4);
	put(f, raw, raw_size);
	put(f, zero, h.size - size);
}

static void publish(struct fake *f)
{
	f->meta->data_head = f->head;
}

static struct sdt_ring_ops ops_for(struct seen *x)
{
	const struct sdt_ring_ops o = {x, on_sample, on_comm, on_lost, NULL, NULL, NULL};

	return o;
}

static void samples_and_wrap(void **state)
{
	unsigned char raw[36];
	struct seen x = {0};
	struct sdt_ring_ops ops = ops_for(&x);
	struct fake f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(raw); i++)
		raw[i] = (unsigned char)(i * 7 + 1);
	/* start 24 bytes before the end: the first sample wraps in its middle */
	fake_init(&f, 10 * DATA - 24);
	put_sample(&f, 42, 43, 123456789ull, 1, raw, sizeof(raw));
	put_sample(&f, 44, 45, 5, 0, raw, 4);
	publish(&f);
	assert_int_equal(sdt_ring_drain(&f.r, &ops), 2);
	assert_int_equal(x.samples, 2);
	assert_int_equal(f.meta->data_tail, f.head); /* everything consumed and published */
	assert_int_equal(x.last.pid, 44);
	assert_int_equal(x.last.tid, 45);
	assert_int_equal(x.last.time_ns, 5);
	assert_int_equal(x.last.raw_size, 4);
	/* nothing new: nothing delivered */
	assert_int_equal(sdt_ring_drain(&f.r, &ops), 0);
	fake_free(&f);

	/* the wrapped one, checked byte for byte */
	memset(&x, 0, sizeof(x));
	fake_init(&f, DATA - 24);
	put_sample(&f, 42, 43, 123456789ull, 1, raw, sizeof(raw));
	publish(&f);
	assert_int_equal(sdt_ring_drain(&f.r, &ops), 1);
	assert_int_equal(x.last.pid, 42);
	assert_int_equal(x.last.tid, 43);
	assert_int_equal(x.last.time_ns, 123456789ull);
	assert_int_equal(x.last.cpu, 1);
	assert_int_equal(x.last.raw_size, sizeof(raw));
	assert_memory_equal(x.raw, raw, sizeof(raw));
	fake_free(&f);
}

static void header_wraps(void **state)
{
	unsigned char raw[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct seen x = {0};
	struct sdt_ring_ops ops = ops_for(&x);
	struct fake f;

	(void)state;
	fake_init(&f, DATA - 4); /* the 8-byte header itself is split */
	put_sample(&f, 7, 8, 9, 0, raw, sizeof(raw));
	publish(&f);
	assert_int_equal(sdt_ring_drain(&f.r, &ops), 1);
	assert_int_equal(x.last.pid, 7);
	assert_memory_equal(x.raw, raw, sizeof(raw));
	fake_free(&f);
}

static void comm_and_lost(void **state)
{
	struct perf_event_header h;
	struct seen x = {0};
	struct sdt_ring_ops ops = ops_for(&x);
	struct fake f;
	uint32_t pt[2] = {100, 101};
	uint64_t lost[2] = {77, 1234};
	char comm[16] = "rt-target";

	(void)state;
	fake_init(&f, 0);
	h.type = PERF_RECORD_COMM;
	h.misc = 0;
	h.size = sizeof(h) + 8 + sizeof(comm);
	put(&f, &h, sizeof(h));
	put(&f, pt, 8);
	put(&f, comm, sizeof(comm));
	h.type = PERF_RECORD_LOST;
	h.size = sizeof(h) + 16;
	put(&f, &h, sizeof(h));
	put(&f, lost, 16);
	put(&f, &h, sizeof(h));
	put(&f, lost, 16);
	h.type = PERF_RECORD_THROTTLE; /* others are skipped */
	h.size = sizeof(h) + 24;
	put(&f, &h, sizeof(h));
	put(&f, lost, 16);
	put(&f, lost, 8);
	publish(&f);
	assert_int_equal(sdt_ring_drain(&f.r, &ops), 0);
	assert_int_equal(x.comms, 1);
	assert_int_equal(x.comm_pid, 100);
	assert_int_equal(x.comm_tid, 101);
	assert_string_equal(x.comm, "rt-target");
	assert_int_equal(x.lost_calls, 2);
	assert_int_equal(x.lost_cpu, 3);
	assert_int_equal(x.lost, 2468);
	assert_int_equal(f.r.lost, 2468);
	assert_int_equal(f.meta->data_tail, f.head);
	fake_free(&f);
}

static void malformed(void **state)
{
	struct perf_event_header h = {.type = PERF_RECORD_SAMPLE, .size = 16};
	uint64_t junk = 0;
	uint32_t huge[8] = {1, 2, 0, 0, 0, 0, 0xffffff};
	struct seen x = {0};
	struct sdt_ring_ops ops = ops_for(&x);
	struct fake f;

	(void)state;
	fake_init(&f, 0);
	/* a sample too short for TID+TIME+CPU+RAW */
	put(&f, &h, sizeof(h));
	put(&f, &junk, 8);
	/* a sample whose raw size runs past the record */
	h.size = sizeof(h) + sizeof(huge);
	put(&f, &h, sizeof(h));
	put(&f, huge, sizeof(huge));
	/* a COMM without room for pid/tid */
	h.type = PERF_RECORD_COMM;
	h.size = sizeof(h);
	put(&f, &h, sizeof(h));
	publish(&f);
	assert_int_equal(sdt_ring_drain(&f.r, &ops), 2); /* counted as samples, not delivered */
	assert_int_equal(x.samples, 0);
	assert_int_equal(x.comms, 0);
	assert_int_equal(f.r.malformed, 3);
	fake_free(&f);

	/* a header claiming more than the ring holds: resynchronise at head, deliver nothing */
	memset(&x, 0, sizeof(x));
	fake_init(&f, 0);
	h.type = PERF_RECORD_SAMPLE;
	h.size = 4000;
	put(&f, &h, sizeof(h));
	put(&f, &junk, 8);
	publish(&f);
	assert_int_equal(sdt_ring_drain(&f.r, &ops), 0);
	assert_int_equal(f.meta->data_tail, f.head);
	fake_free(&f);
}

static void handler_stops(void **state)
{
	unsigned char raw[4] = {0};
	struct seen x = {.fail_at = 2};
	struct sdt_ring_ops ops = ops_for(&x);
	struct fake f;
	uint64_t second;

	(void)state;
	fake_init(&f, 0);
	put_sample(&f, 1, 1, 1, 0, raw, 4);
	second = f.head;
	put_sample(&f, 2, 2, 2, 0, raw, 4);
	put_sample(&f, 3, 3, 3, 0, raw, 4);
	publish(&f);
	assert_int_equal(sdt_ring_drain(&f.r, &ops), -ECANCELED);
	assert_int_equal(x.samples, 1);
	assert_int_equal(f.meta->data_tail, second); /* the refused record stays */
	x.fail_at = 0;
	assert_int_equal(sdt_ring_drain(&f.r, &ops), 2);
	assert_int_equal(x.last.pid, 3);
	fake_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(samples_and_wrap), cmocka_unit_test(header_wraps),
	    cmocka_unit_test(comm_and_lost),	cmocka_unit_test(malformed),
	    cmocka_unit_test(handler_stops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
