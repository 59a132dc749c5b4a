/* SPDX-License-Identifier: MIT */
/*
 * Strings the kernel does not hand back whole (lib/trace/decode.c, the room field of
 * lib/record/uprobe_defs.c, trace_file.h version 2), on records built as the kernel builds them:
 *  - a short string and the room both whole: the string unmarked; the room's bytes not stored;
 *  - a string of 4096 bytes or more took the room (came back empty): the string is its first
 *    bytes, marked truncated, at least 4096 bytes; live and through a file alike;
 *  - a string that faulted left the room whole: unavailable, "fault";
 *  - the string cut at the end of the kernel's page: marked, at least one byte more than kept;
 *  - a version-1 recording (tests/fixtures/v1-strings.data, made before version 2) reads as
 *    before; a room field that is no __data_loc, or an argument in it, is refused.
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

/* common header 8, __probe_ip 8 at 8, s (data_loc) 16, n (s32) 20, _sdt_room (data_loc) 24 */
#define FIXED_END 28

static struct sdt_trace_field fields[] = {
    {.name = (char *)"__probe_ip", .offset = 8, .size = 8},
    {.name = (char *)"s", .offset = 16, .size = 4, .is_data_loc = true},
    {.name = (char *)"n", .offset = 20, .size = 4, .is_signed = true},
    {.name = (char *)"_sdt_room", .offset = 24, .size = 4, .is_data_loc = true, .is_room = true},
};
static struct sdt_trace_arg args[] = {
    {.name = (char *)"s", .spec = (char *)"8@%rdi", .size = 8, .is_string = true, .field = 1},
    {.name = (char *)"n", .spec = (char *)"-4@%esi", .size = 4, .is_signed = true, .field = 2},
};
static uint64_t sites[] = {0x1130};
static struct sdt_trace_event_desc desc = {
    .provider = (char *)"p",
    .name = (char *)"str",
    .path = (char *)"/bin/p",
    .site_addrs = sites,
    .nsites = 1,
    .fields = fields,
    .nfields = 4,
    .ip_field = 0,
    .args = args,
    .nargs = 2,
};

static uint8_t raw[8192];

static void put_loc(size_t at, uint32_t len, uint32_t off)
{
	uint32_t loc = len << 16 | off;

	memcpy(raw + at, &loc, 4);
}

/*
 * A record as store_trace_args() leaves it: @s (@s_len bytes with its NUL, 0: none) at the end
 * of the fixed fields, then the room ("prog", 5 bytes) when @room.
 */
static size_t record(const char *s, uint32_t s_len, bool room, int32_t n)
{
	uint64_t ip = 0x1130;
	uint32_t off = FIXED_END;

	memset(raw, 0, sizeof(raw));
	memcpy(raw + 8, &ip, 8);
	memcpy(raw + 20, &n, 4);
	put_loc(16, s_len, off);
	if (s_len) {
		memcpy(raw + off, s, s_len - 1);
		off += s_len;
	}
	if (room) {
		memcpy(raw + off, "prog", 5);
		put_loc(24, 5, off);
		off += 5;
	} else {
		put_loc(24, 0, off);
	}
	return off;
}

static char page_text[4096];

/* The four cases, in order, checked on one event (live or read back). */
static void check(const struct sdt_trace_event *ev, int which)
{
	struct sdt_trace_value v;

	assert_int_equal(sdt_trace_event__arg(ev, 0, &v), 0);
	switch (which) {
	case 0:
		assert_int_equal(v.kind, SDT_VALUE_STRING);
		assert_string_equal(v.str, "SELECT 1");
		assert_false(v.truncated);
		break;
	case 1:
		assert_int_equal(v.kind, SDT_VALUE_STRING);
		assert_string_equal(v.str, "SELE");
		assert_true(v.truncated);
		assert_int_equal(v.min_len, 4096);
		break;
	case 2:
		assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
		assert_non_null(strstr(v.unavailable, "fault"));
		break;
	case 3:
		assert_int_equal(v.kind, SDT_VALUE_STRING);
		assert_int_equal(v.len, 4096 - (FIXED_END - 16) - 1);
		assert_true(v.truncated);
		assert_int_equal(v.min_len, v.len + 1);
		break;
	}
	assert_int_equal(sdt_trace_event__arg(ev, 1, &v), 0);
	assert_int_equal(v.i, which);
}

static size_t make(int which)
{
	switch (which) {
	case 0:
		return record("SELECT 1", 9, true, 0);
	case 1: /* the room's 5 bytes went to the string: 4 of it and a NUL */
		return record("SELECT * FROM t", 5, false, 1);
	case 2:
		return record(NULL, 0, true, 2);
	default: /* the page: 16 + 4096 is its end */
		return record(page_text, 4096 - (FIXED_END - 16), false, 3);
	}
}

static void test_live(void **state)
{
	struct sdt_trace_decoder *dec;
	const struct sdt_trace_event *ev;
	struct sdt_trace_sample s = {.pid = 9, .tid = 9, .raw = raw};
	int i;

	(void)state;
	memset(page_text, 'x', sizeof(page_text));
	assert_int_equal(sdt_trace_decoder__new(&dec), 0);
	assert_int_equal(sdt_trace_decoder__add_desc(dec, &desc), 0);
	for (i = 0; i < 4; i++) {
		s.raw_size = (uint32_t)make(i);
		assert_int_equal(sdt_trace_decoder__sample(dec, &s, &ev), 0);
		check(ev, i);
	}
	sdt_trace_decoder__free(dec);
}

static void test_file(void **state)
{
	const char *path = "/tmp/sdtrace-test-long-strings.data";
	struct sdt_trace_writer *w = NULL;
	struct sdt_trace_reader *r;
	const struct sdt_trace_event *ev;
	uint64_t before, after;
	int i;

	(void)state;
	memset(page_text, 'x', sizeof(page_text));
	unlink(path);
	assert_int_equal(sdt_trace_writer__open(path, NULL, &w), 0);
	assert_int_equal(sdt_trace_writer__event(w, &desc), 0);
	for (i = 0; i < 4; i++) {
		struct sdt_trace_sample s = {.time_ns = (uint64_t)i + 1,
					     .pid = 9,
					     .tid = 9,
					     .raw = raw,
					     .raw_size = (uint32_t)make(i)};

		sdt_trace_writer__flush(w);
		before = sdt_trace_writer__bytes(w);
		assert_int_equal(sdt_trace_writer__sample(w, &s), 0);
		sdt_trace_writer__flush(w);
		after = sdt_trace_writer__bytes(w);
		/* the room's bytes ("prog\0") are not stored: the fields and "SELECT 1\0" */
		if (i == 0)
			assert_true(after - before < 6 + (FIXED_END - 8) + 9 + 5);
	}
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	assert_int_equal(sdt_trace_reader__open(path, NULL, &r), 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(sdt_trace_reader__next(r, &ev), 1);
		check(ev, i);
	}
	assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
	sdt_trace_reader__free(r);
	unlink(path);
}

/* Room fields no reader could trust are refused. */
static void test_check(void **state)
{
	struct sdt_trace_field f[4];
	struct sdt_trace_arg a[2];
	struct sdt_trace_event_desc d = desc;
	struct sdt_trace_decoder *dec;

	(void)state;
	d.fields = f;
	d.args = a;
	assert_int_equal(sdt_trace_decoder__new(&dec), 0);
	memcpy(f, fields, sizeof(f));
	memcpy(a, args, sizeof(a));
	f[3].is_data_loc = false;
	assert_int_equal(sdt_trace_decoder__add_desc(dec, &d), -EINVAL);
	memcpy(f, fields, sizeof(f));
	a[1].field = 3;
	assert_int_equal(sdt_trace_decoder__add_desc(dec, &d), -EINVAL);
	memcpy(a, args, sizeof(a));
	f[1].is_room = true;
	assert_int_equal(sdt_trace_decoder__add_desc(dec, &d), -EINVAL);
	memcpy(f, fields, sizeof(f));
	assert_int_equal(sdt_trace_decoder__add_desc(dec, &d), 0);
	sdt_trace_decoder__free(dec);
}

/* A recording of the format before the room field (version 1) reads as it always did. */
static void test_v1(void **state)
{
	struct sdt_trace_reader *r;
	const struct sdt_trace_event *ev;
	struct sdt_trace_value v;
	int n = 0;

	(void)state;
	assert_int_equal(sdt_trace_reader__open(FIXTURES_DIR "/v1-strings.data", NULL, &r), 0);
	while (sdt_trace_reader__next(r, &ev) > 0) {
		assert_int_equal(sdt_trace_event__arg(ev, 0, &v), 0);
		assert_int_equal(v.kind, SDT_VALUE_STRING);
		assert_false(v.truncated);
		if (!strcmp(sdt_trace_event__name(ev), "message"))
			assert_string_equal(v.str, n == 0 ? "round-0" : "round-1");
		else
			assert_string_equal(v.str, "hello-sdt");
		n++;
	}
	assert_int_equal(n, 4);
	assert_false(sdt_trace_reader__truncated(r));
	sdt_trace_reader__free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_live),
	    cmocka_unit_test(test_file),
	    cmocka_unit_test(test_check),
	    cmocka_unit_test(test_v1),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
