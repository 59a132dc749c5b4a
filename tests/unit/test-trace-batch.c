/* SPDX-License-Identifier: MIT */
/*
 * Events by the batch (sdt_trace_reader__read_batch): a recording written with the public writer
 * (integers, floats with inf/nan/-0, strings plain, empty, not UTF-8, unreadable; thread names;
 * stacks) read twice, event by event and by batches of a few events, gives the same events,
 * values and order; the options and the columns' sz are read as the library's other structs are.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sdtrace/sdtrace.h"
#include "tmpdir-test.h"

TMPDIR_FIXTURE("trace-batch")

#define NEVENTS 40

static char path[128];

static const char *const strs[] = {"hello", "", "bad\xff end", "caf\xc3\xa9", NULL};

/* Event 0 "p:nums" (s32, u64, double, float), event 1 "p:strs" (string, s64): NEVENTS samples. */
static void write_recording(bool finish)
{
	static const uint64_t sites[] = {0x1000, 0x2000};
	static const uint64_t chain[] = {0x401000, 0x402000, 0x403000};
	struct sdt_trace_event_desc_opts dopts = {.sz = sizeof(dopts), .path = "/bin/prog",
						  .site_addrs = sites, .nsites = 2};
	struct sdt_arg_type str = {.name = (char *)"s", .kind = SDT_TYPE_STRING, .size = 8};
	struct sdt_trace_writer_opts wo = {.sz = sizeof(wo), .cmdline = "prog"};
	struct sdt_trace_event_desc *d0, *d1;
	struct sdt_trace_writer *w;
	unsigned char raw[256];
	int i, size;

	snprintf(path, sizeof(path), "%s/batch.data", dir);
	assert_int_equal(sdt_trace_writer__open(path, &wo, &w), 0);
	assert_int_equal(sdt_trace_event_desc__new(0, "p", "nums", &dopts, &d0), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d0, "-4@%eax", NULL), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d0, "8@%rdx", NULL), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d0, "8f@%xmm0", NULL), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d0, "4f@%xmm1", NULL), 0);
	assert_int_equal(sdt_trace_event_desc__new(1, "p", "strs", &dopts, &d1), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d1, "8@%rdi", &str), 0);
	assert_int_equal(sdt_trace_event_desc__add_arg(d1, "-8@%rsi", NULL), 0);
	assert_int_equal(sdt_trace_writer__event(w, d0), 0);
	assert_int_equal(sdt_trace_writer__event(w, d1), 0);
	assert_int_equal(sdt_trace_writer__comm(w, 10, 10, "main"), 0);
	assert_int_equal(sdt_trace_writer__comm(w, 10, 11, "worker-1"), 0);
	for (i = 0; i < NEVENTS; i++) {
		static const double fs[] = {1.5, -0.0, INFINITY, -INFINITY, NAN, 1e-300};
		struct sdt_trace_sample s = {.time_ns = 1000 + (uint64_t)i * 10,
					     .cpu = (uint32_t)i % 3,
					     .pid = 10,
					     .tid = 10 + (uint32_t)i % 3, /* tid 12: no name */
					     .raw = raw};
		struct sdt_trace_value v[4];

		memset(v, 0, sizeof(v));
		if (i % 2 == 0) {
			v[0] = (struct sdt_trace_value){.kind = SDT_VALUE_INT, .i = -i * 1000};
			v[1] = (struct sdt_trace_value){.kind = SDT_VALUE_UINT,
							.u = UINT64_MAX - (uint64_t)i};
			v[2] = (struct sdt_trace_value){.kind = SDT_VALUE_FLOAT, .f = fs[i / 2 % 6]};
			v[3] = (struct sdt_trace_value){.kind = SDT_VALUE_FLOAT, .f = fs[(i / 2 + 1) % 6]};
			size = sdt_trace_event_desc__pack(d0, sites[i % 4 / 2], v, 4, raw, sizeof(raw));
			s.event = 0;
		} else {
			const char *t = strs[i / 2 % 5];

			v[0] = t ? (struct sdt_trace_value){.kind = SDT_VALUE_STRING, .str = t,
							    .len = strlen(t)}
				 : (struct sdt_trace_value){.kind = SDT_VALUE_UNAVAILABLE};
			v[1] = (struct sdt_trace_value){.kind = SDT_VALUE_INT, .i = INT64_MIN + i};
			size = sdt_trace_event_desc__pack(d1, 0x2000, v, 2, raw, sizeof(raw));
			s.event = 1;
			if (i % 3 == 0) {
				s.callchain = chain;
				s.callchain_nr = 1 + (uint32_t)i % 3;
			}
		}
		assert_true(size > 0);
		s.raw_size = (uint32_t)size;
		assert_int_equal(sdt_trace_writer__sample(w, &s), 0);
	}
	sdt_trace_event_desc__free(d0);
	sdt_trace_event_desc__free(d1);
	if (finish) {
		assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	} else {
		assert_int_equal(sdt_trace_writer__flush(w), 0);
		sdt_trace_writer__free(w);
	}
}

static struct sdt_trace_reader *open_reader(bool time_order)
{
	struct sdt_trace_open_opts o = {.sz = sizeof(o), .time_order = time_order};
	struct sdt_trace_reader *r;

	assert_int_equal(sdt_trace_reader__open(path, &o, &r), 0);
	return r;
}

/* Event @i of the columns @c equals @ev in every field and argument. */
static void same_event(const struct sdt_trace_reader *r, const struct sdt_trace_event *ev,
		       const struct sdt_trace_columns *c, size_t i)
{
	const uint64_t *ips = NULL;
	struct sdt_trace_value v;
	uint64_t addr, s, n;
	const char *comm;

	assert_int_equal(c->time_ns[i], sdt_trace_event__time_ns(ev));
	assert_int_equal(c->cpu[i], sdt_trace_event__cpu(ev));
	assert_int_equal(c->pid[i], sdt_trace_event__pid(ev));
	assert_int_equal(c->tid[i], sdt_trace_event__tid(ev));
	assert_ptr_equal(sdt_trace_reader__kind(r, c->kind[i]), sdt_trace_event__kind(ev));
	assert_int_equal(c->stack_id[i], sdt_trace_event__stack_id(ev));
	comm = sdt_trace_event__comm(ev);
	if (comm)
		assert_string_equal(c->strings + c->comm[i], comm);
	else
		assert_true(c->comm[i] == SDT_TRACE_NO_STRING);
	if (sdt_trace_event__address(ev, &addr)) {
		assert_true(c->flags[i] & SDT_TRACE_EVENT_ADDRESS);
		assert_int_equal(c->address[i], addr);
	} else {
		assert_false(c->flags[i] & SDT_TRACE_EVENT_ADDRESS);
	}
	n = sdt_trace_event__stack(ev, &ips);
	assert_int_equal(c->stack_first[i + 1] - c->stack_first[i], n);
	if (n)
		assert_memory_equal(c->ips + c->stack_first[i], ips, n * sizeof(*ips));
	assert_int_equal(c->arg_first[i + 1] - c->arg_first[i], sdt_trace_event__arg_count(ev));
	for (n = 0; n < sdt_trace_event__arg_count(ev); n++) {
		s = c->arg_first[i] + n;
		assert_int_equal(sdt_trace_event__arg(ev, n, &v), 0);
		assert_int_equal(c->arg_kind[s], v.kind);
		assert_int_equal(!!(c->arg_flags[s] & SDT_TRACE_ARG_ADDRESS), v.is_address);
		switch (v.kind) {
		case SDT_VALUE_INT:
			assert_int_equal((int64_t)c->arg_value[s], v.i);
			break;
		case SDT_VALUE_UINT:
			assert_int_equal(c->arg_value[s], v.u);
			break;
		case SDT_VALUE_FLOAT: /* bit for bit: nan, -0.0 */
			assert_memory_equal(&c->arg_value[s], &v.f, sizeof(v.f));
			break;
		case SDT_VALUE_STRING:
			assert_int_equal(c->arg_len[s], v.len);
			assert_memory_equal(c->strings + c->arg_value[s], v.str, v.len + 1);
			assert_int_equal(!!(c->arg_flags[s] & SDT_TRACE_ARG_TRUNCATED), v.truncated);
			assert_int_equal(c->arg_min_len[s], v.truncated ? v.min_len : 0);
			break;
		default:
			assert_int_equal(c->arg_value[s], 0);
			break;
		}
	}
}

/* The whole recording read both ways, by batches of @max (0: the default), in either order. */
static void compare(size_t max, bool time_order, size_t want_events, bool want_truncated)
{
	struct sdt_trace_batch_opts bo = {.sz = sizeof(bo), .max_events = max};
	struct sdt_trace_reader *ra = open_reader(time_order), *rb = open_reader(time_order);
	struct sdt_trace_columns c = {.sz = sizeof(c)};
	const struct sdt_trace_event *ev;
	struct sdt_trace_batch *b;
	size_t total = 0, i;
	int n;

	assert_int_equal(sdt_trace_batch__new(&bo, &b), 0);
	while ((n = sdt_trace_reader__read_batch(rb, b)) > 0) {
		sdt_trace_batch__columns(b, &c);
		assert_int_equal(c.count, (size_t)n);
		assert_true(max == 0 || (size_t)n <= max);
		assert_int_equal(c.stack_first[0], 0);
		assert_int_equal(c.arg_first[0], 0);
		assert_true(c.strings[c.strings_len] == '\0');
		for (i = 0; i < c.count; i++) {
			assert_int_equal(sdt_trace_reader__next(ra, &ev), 1);
			same_event(ra, ev, &c, i);
		}
		total += c.count;
	}
	assert_int_equal(n, 0);
	assert_int_equal(sdt_trace_reader__next(ra, &ev), 0);
	assert_int_equal(total, want_events);
	/* at the end it stays at the end, empty */
	assert_int_equal(sdt_trace_reader__read_batch(rb, b), 0);
	sdt_trace_batch__columns(b, &c);
	assert_int_equal(c.count, 0);
	assert_int_equal(sdt_trace_reader__truncated(ra), sdt_trace_reader__truncated(rb));
	assert_int_equal(sdt_trace_reader__truncated(rb), want_truncated);
	sdt_trace_batch__free(b);
	sdt_trace_reader__free(ra);
	sdt_trace_reader__free(rb);
}

static void test_same_as_next(void **state)
{
	(void)state;
	write_recording(true);
	compare(0, false, NEVENTS, false);
	compare(1, false, NEVENTS, false);
	compare(3, false, NEVENTS, false); /* 13 full batches and one of 1 */
	compare(NEVENTS, false, NEVENTS, false);
	compare(7, true, NEVENTS, false);
}

static void test_values(void **state)
{
	struct sdt_trace_reader *r;
	struct sdt_trace_columns c = {.sz = sizeof(c)};
	struct sdt_trace_batch *b;
	double f;

	(void)state;
	write_recording(true);
	r = open_reader(false);
	assert_int_equal(sdt_trace_batch__new(NULL, &b), 0);
	assert_int_equal(sdt_trace_reader__read_batch(r, b), NEVENTS);
	sdt_trace_batch__columns(b, &c);
	/* event 0: nums -0, UINT64_MAX, 1.5, -0.0 */
	assert_int_equal(c.arg_kind[0], SDT_VALUE_INT);
	assert_int_equal(c.arg_value[0], 0);
	assert_int_equal(c.arg_value[1], UINT64_MAX);
	memcpy(&f, &c.arg_value[2], sizeof(f));
	assert_true(f == 1.5);
	memcpy(&f, &c.arg_value[3], sizeof(f));
	assert_true(f == 0 && signbit(f));
	assert_string_equal(c.strings + c.comm[0], "main");
	/* event 1: strs "hello", tid 11 "worker-1" */
	assert_int_equal(c.arg_first[1], 4);
	assert_int_equal(c.arg_kind[4], SDT_VALUE_STRING);
	assert_string_equal(c.strings + c.arg_value[4], "hello");
	assert_int_equal(c.arg_len[4], 5);
	assert_int_equal((int64_t)c.arg_value[5], INT64_MIN + 1);
	assert_string_equal(c.strings + c.comm[1], "worker-1");
	/* event 2 (tid 12) has no name; the unreadable string (event 9) is UNAVAILABLE */
	assert_true(c.comm[2] == SDT_TRACE_NO_STRING);
	assert_int_equal(c.arg_kind[c.arg_first[9]], SDT_VALUE_UNAVAILABLE);
	/* event 3 has a stack (1 + 3 % 3 frames), event 0 none */
	assert_int_equal(c.stack_first[4] - c.stack_first[3], 1);
	assert_int_equal(c.stack_first[1], 0);
	assert_true(c.stack_id[3] != 0);
	/* a thread's name is stored once per batch */
	assert_int_equal(c.comm[0], c.comm[3]);
	sdt_trace_batch__free(b);
	sdt_trace_reader__free(r);
}

/* A recording cut short: the events up to its last complete record, then 0 and truncated. */
static void test_truncated(void **state)
{
	(void)state;
	write_recording(false);
	compare(4, false, NEVENTS, true);
}

static void test_opts(void **state)
{
	struct {
		struct sdt_trace_batch_opts o;
		int future;
	} big = {.o = {.sz = sizeof(big)}, .future = 1};
	struct sdt_trace_batch_opts bad = {.sz = 2};
	struct sdt_trace_columns c;
	struct sdt_trace_batch *b = NULL;
	struct sdt_trace_reader *r;

	(void)state;
	assert_int_equal(sdt_trace_batch__new(&big.o, &b), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "sdt_trace_batch_opts"));
	assert_int_equal(sdt_trace_batch__new(&bad, &b), -EINVAL);
	big.future = 0;
	assert_int_equal(sdt_trace_batch__new(&big.o, &b), 0);
	write_recording(true);
	r = open_reader(false);
	assert_int_equal(sdt_trace_reader__read_batch(r, b), NEVENTS);
	/* a caller that knows only sz and count: nothing past them is written */
	memset(&c, 0xee, sizeof(c));
	c.sz = offsetof(struct sdt_trace_columns, time_ns);
	sdt_trace_batch__columns(b, &c);
	assert_int_equal(c.count, NEVENTS);
	assert_true(c.time_ns == (const uint64_t *)(uintptr_t)0xeeeeeeeeeeeeeeeeull);
	sdt_trace_batch__free(b);
	sdt_trace_batch__free(NULL);
	sdt_trace_reader__free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_same_as_next, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_values, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_truncated, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_opts, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
