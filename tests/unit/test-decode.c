/* SPDX-License-Identifier: MIT */
/* Decoding recorded arguments: sign and size from the spec, floats, strings, rebasing, sites. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "trace/decode.h"

/* A desc with __probe_ip at 8 and one argument field at 16 (size @fsize, sign @fsigned). */
struct one {
	struct sdt_trace_event_desc d;
	struct sdt_trace_field f[2];
	struct sdt_trace_arg a;
	uint8_t raw[64];
};

static void one_init(struct one *o, unsigned int size, bool is_signed, unsigned int fsize,
		     bool fsigned)
{
	memset(o, 0, sizeof(*o));
	o->f[0] = (struct sdt_trace_field){.name = (char *)"__probe_ip", .offset = 8, .size = 8};
	o->f[1] = (struct sdt_trace_field){
	    .name = (char *)"arg1", .offset = 16, .size = fsize, .is_signed = fsigned};
	o->a = (struct sdt_trace_arg){
	    .name = (char *)"arg1", .size = (uint8_t)size, .is_signed = is_signed, .field = 1};
	o->d.provider = (char *)"p";
	o->d.name = (char *)"n";
	o->d.fields = o->f;
	o->d.nfields = 2;
	o->d.ip_field = 0;
	o->d.args = &o->a;
	o->d.nargs = 1;
}

static void put(struct one *o, uint64_t v, unsigned int size)
{
	uint8_t b8 = (uint8_t)v;
	uint16_t b16 = (uint16_t)v;
	uint32_t b32 = (uint32_t)v;

	switch (size) {
	case 1:
		memcpy(o->raw + 16, &b8, 1);
		break;
	case 2:
		memcpy(o->raw + 16, &b16, 2);
		break;
	case 4:
		memcpy(o->raw + 16, &b32, 4);
		break;
	default:
		memcpy(o->raw + 16, &v, 8);
		break;
	}
}

static struct sdt_trace_value decode(struct one *o)
{
	struct sdt_trace_value v;

	sdt_decode_arg(&o->d, 0, o->raw, 24, false, false, 0, &v);
	return v;
}

static void test_uint_and_swap(void **state)
{
	const uint8_t b[8] = {1, 2, 3, 4, 5, 6, 7, 8};

	(void)state;
	assert_int_equal(sdt_decode_uint(b, 1, false), 1);
	assert_int_equal(sdt_decode_uint(b, 1, true), 1);
	if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
		assert_int_equal(sdt_decode_uint(b, 2, false), 0x0201);
		assert_int_equal(sdt_decode_uint(b, 2, true), 0x0102);
		assert_int_equal(sdt_decode_uint(b, 4, false), 0x04030201);
		assert_int_equal(sdt_decode_uint(b, 4, true), 0x01020304);
		assert_true(sdt_decode_uint(b, 8, false) == 0x0807060504030201ull);
		assert_true(sdt_decode_uint(b, 8, true) == 0x0102030405060708ull);
	}
	assert_int_equal(sdt_decode_sext(0xfb, 1), -5);
	assert_int_equal(sdt_decode_sext(0x7f, 1), 127);
	assert_int_equal(sdt_decode_sext(0x8000, 2), -32768);
	assert_int_equal(sdt_decode_sext(0xffffffff, 4), -1);
	assert_int_equal(sdt_decode_sext(0xffffffff, 8), 0xffffffff);
	assert_true(sdt_decode_sext(0x8000000000000000ull, 8) == INT64_MIN);
}

/* Every size and sign at its extremes, the field as wide as the spec. */
static void test_int_extremes(void **state)
{
	static const struct {
		unsigned int size;
		bool is_signed;
		uint64_t bits;
		int64_t i;  /* when signed */
		uint64_t u; /* when unsigned */
	} t[] = {
	    {1, true, 0xfb, -5, 0},
	    {1, true, 0x80, -128, 0},
	    {1, true, 0x7f, 127, 0},
	    {1, false, 0xff, 0, 255},
	    {2, true, 0x8000, -32768, 0},
	    {2, true, 0xffff, -1, 0},
	    {2, false, 0xffff, 0, 65535},
	    {4, true, 0x80000000, INT32_MIN, 0},
	    {4, true, 0x7fffffff, INT32_MAX, 0},
	    {4, false, 0xffffffff, 0, UINT32_MAX},
	    {8, true, 0x8000000000000000ull, INT64_MIN, 0},
	    {8, true, 0x7fffffffffffffffull, INT64_MAX, 0},
	    {8, false, UINT64_MAX, 0, UINT64_MAX},
	    {8, false, 0, 0, 0},
	};
	struct one o;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct sdt_trace_value v;

		one_init(&o, t[i].size, t[i].is_signed, t[i].size, t[i].is_signed);
		put(&o, t[i].bits, t[i].size);
		v = decode(&o);
		assert_int_equal(v.size, t[i].size);
		if (t[i].is_signed) {
			assert_int_equal(v.kind, SDT_VALUE_INT);
			assert_true(v.i == t[i].i);
		} else {
			assert_int_equal(v.kind, SDT_VALUE_UINT);
			assert_true(v.u == t[i].u);
		}
	}
}

/* The spec decides sign and size, whatever the fetch type was (perf script prints 251). */
static void test_spec_decides(void **state)
{
	struct sdt_trace_value v;
	struct one o;

	(void)state;
	/* -1@ fetched unsigned (u8): still -5 */
	one_init(&o, 1, true, 1, false);
	put(&o, 0xfb, 1);
	v = decode(&o);
	assert_int_equal(v.kind, SDT_VALUE_INT);
	assert_int_equal(v.i, -5);
	/* -1@ fetched as 64 bits with garbage above: low byte, sign-extended */
	one_init(&o, 1, true, 8, false);
	put(&o, 0x12345678abcdeffbull, 8);
	assert_int_equal(decode(&o).i, -5);
	/* 2@ fetched as s64: low 16 bits, unsigned */
	one_init(&o, 2, false, 8, true);
	put(&o, (uint64_t)-2, 8);
	v = decode(&o);
	assert_int_equal(v.kind, SDT_VALUE_UINT);
	assert_int_equal(v.u, 65534);
	/* a field narrower than the spec widens by the field's sign: s32 -5 as -8@ */
	one_init(&o, 8, true, 4, true);
	put(&o, 0xfffffffb, 4);
	assert_int_equal(decode(&o).i, -5);
	/* ... and u32 0xffffffff as -8@ stays 4294967295 */
	one_init(&o, 8, true, 4, false);
	put(&o, 0xffffffff, 4);
	assert_int_equal(decode(&o).i, 4294967295ll);
}

static void test_floats(void **state)
{
	struct sdt_trace_value v;
	struct one o;
	uint32_t b32;
	uint64_t b64;
	float f = -1.25f;
	double d = -0.1;

	(void)state;
	memcpy(&b32, &f, 4);
	memcpy(&b64, &d, 8);
	one_init(&o, 4, false, 4, false);
	o.a.is_float = true;
	put(&o, b32, 4);
	v = decode(&o);
	assert_int_equal(v.kind, SDT_VALUE_FLOAT);
	assert_true(v.f == -1.25);
	/* 4f@ fetched as :x64: the high half is ignored */
	one_init(&o, 4, false, 8, false);
	o.a.is_float = true;
	put(&o, 0xdeadbeef00000000ull | b32, 8);
	assert_true(decode(&o).f == -1.25);
	one_init(&o, 8, false, 8, false);
	o.a.is_float = true;
	put(&o, b64, 8);
	assert_true(decode(&o).f == -0.1);
	/* NaN stays NaN */
	put(&o, 0x7ff8000000000000ull, 8);
	assert_true(isnan(decode(&o).f));
	/* a double in a 4-byte field has lost bits: unavailable, not a wrong number */
	one_init(&o, 8, false, 4, false);
	o.a.is_float = true;
	v = decode(&o);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
	assert_non_null(v.unavailable);
}

static void set_loc(struct one *o, uint32_t len, uint32_t off)
{
	uint32_t loc = len << 16 | off;

	memcpy(o->raw + 16, &loc, 4);
}

static void test_strings(void **state)
{
	struct sdt_trace_value v;
	struct one o;

	(void)state;
	one_init(&o, 8, false, 4, false);
	o.f[1].is_data_loc = true;
	o.a.is_string = true;
	memcpy(o.raw + 20, "hello", 6);
	set_loc(&o, 6, 20);
	sdt_decode_arg(&o.d, 0, o.raw, 26, false, false, 0, &v);
	assert_int_equal(v.kind, SDT_VALUE_STRING);
	assert_string_equal(v.str, "hello");
	assert_int_equal(v.len, 5);
	/* an embedded NUL ends the string */
	memcpy(o.raw + 20, "he\0lo", 6);
	sdt_decode_arg(&o.d, 0, o.raw, 26, false, false, 0, &v);
	assert_int_equal(v.len, 2);
	/* a fault: length 0 */
	set_loc(&o, 0, 20);
	sdt_decode_arg(&o.d, 0, o.raw, 26, false, false, 0, &v);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
	/* past the record's end, by offset or by length */
	set_loc(&o, 6, 21);
	sdt_decode_arg(&o.d, 0, o.raw, 26, false, false, 0, &v);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
	set_loc(&o, 0xffff, 0xffff);
	sdt_decode_arg(&o.d, 0, o.raw, 26, false, false, 0, &v);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
	/* no NUL inside the stated length */
	memcpy(o.raw + 20, "hello!", 6);
	set_loc(&o, 6, 20);
	sdt_decode_arg(&o.d, 0, o.raw, 26, false, false, 0, &v);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
	/* the location itself outside the record */
	sdt_decode_arg(&o.d, 0, o.raw, 18, false, false, 0, &v);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
}

static void test_unavailable_and_bounds(void **state)
{
	struct sdt_trace_value v;
	struct one o;

	(void)state;
	one_init(&o, 16, false, 8, false);
	o.a.field = -1;
	o.a.unavailable = (char *)"16-byte argument";
	v = decode(&o);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
	assert_string_equal(v.unavailable, "16-byte argument");
	o.a.unavailable = NULL;
	assert_non_null(decode(&o).unavailable);
	/* a field index beyond the desc */
	o.a.field = 7;
	assert_int_equal(decode(&o).kind, SDT_VALUE_UNAVAILABLE);
	/* a field beyond the record */
	one_init(&o, 8, false, 8, false);
	sdt_decode_arg(&o.d, 0, o.raw, 23, false, false, 0, &v);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
	/* an argument beyond the desc */
	sdt_decode_arg(&o.d, 1, o.raw, 24, false, false, 0, &v);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
}

static void test_rebase(void **state)
{
	struct sdt_trace_value v;
	struct one o;

	(void)state;
	one_init(&o, 8, false, 8, false);
	o.a.rebase = true;
	put(&o, 0x4010, 8);
	sdt_decode_arg(&o.d, 0, o.raw, 24, false, true, 0x7f0000000000ull, &v);
	assert_int_equal(v.kind, SDT_VALUE_UINT);
	assert_true(v.is_address);
	assert_true(v.u == 0x7f0000004010ull);
	/* without a bias: unknown rather than a link-time address passed off as runtime */
	sdt_decode_arg(&o.d, 0, o.raw, 24, false, false, 0, &v);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
}

static void test_swapped(void **state)
{
	struct sdt_trace_value v;
	struct one o;
	uint64_t ip = __builtin_bswap64(0x401136);

	(void)state;
	one_init(&o, 2, true, 2, true);
	o.raw[16] = 0xff; /* big-endian 0xfffb = -5 */
	o.raw[17] = 0xfb;
	memcpy(o.raw + 8, &ip, 8);
	sdt_decode_arg(&o.d, 0, o.raw, 24, true, false, 0, &v);
	assert_int_equal(v.i, -5);
	assert_true(sdt_decode_probe_ip(&o.d, o.raw, 24, true, &ip));
	assert_true(ip == 0x401136);
}

static void test_sites(void **state)
{
	uint64_t sites[3] = {0x1130, 0x2248, 0x3130}, bias = 0x7f1234560000ull, ip;
	struct one o;

	(void)state;
	one_init(&o, 8, false, 8, false);
	assert_int_equal(sdt_decode_site(&o.d, 0x1234, false, 0), -1); /* no sites */
	o.d.site_addrs = sites;
	o.d.nsites = 1;
	assert_int_equal(sdt_decode_site(&o.d, 0x1234, false, 0), 0); /* one: it */
	o.d.nsites = 3;
	assert_int_equal(sdt_decode_site(&o.d, 0x3130, false, 0), 2);	      /* non-PIE: exact */
	assert_int_equal(sdt_decode_site(&o.d, bias + 0x2248, false, 0), 1);  /* unique low bits */
	assert_int_equal(sdt_decode_site(&o.d, bias + 0x3130, false, 0), -1); /* 0x1130 or 0x3130 */
	assert_int_equal(sdt_decode_site(&o.d, bias + 0x3130, true, bias), 2);
	assert_int_equal(sdt_decode_site(&o.d, bias + 0x3130, true, bias + 0x2000), 0);
	assert_int_equal(sdt_decode_site(&o.d, bias + 0x3131, false, 0), -1); /* none */
	/* the probe ip comes from the __probe_ip field; none without it */
	ip = 0x401136;
	memcpy(o.raw + 8, &ip, 8);
	ip = 0;
	assert_true(sdt_decode_probe_ip(&o.d, o.raw, 24, false, &ip));
	assert_true(ip == 0x401136);
	assert_false(sdt_decode_probe_ip(&o.d, o.raw, 12, false, &ip));
	o.d.ip_field = -1;
	assert_false(sdt_decode_probe_ip(&o.d, o.raw, 24, false, &ip));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_uint_and_swap), cmocka_unit_test(test_int_extremes),
	    cmocka_unit_test(test_spec_decides),  cmocka_unit_test(test_floats),
	    cmocka_unit_test(test_strings),	  cmocka_unit_test(test_unavailable_and_bounds),
	    cmocka_unit_test(test_rebase),	  cmocka_unit_test(test_swapped),
	    cmocka_unit_test(test_sites),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
