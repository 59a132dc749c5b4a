/* SPDX-License-Identifier: MIT */
/*
 * 16-byte floats from their bytes (lib/trace/decode_float.c), table-driven on known bit patterns:
 * x87 extended (x86 long double), IEEE binary128 (aarch64, s390x, riscv64) in both byte orders,
 * IBM double-double (ppc). The expected values are hex float literals, rounded by the compiler,
 * so that they do not come from the code under test. Exactness assumes an x87 host long double
 * (LDBL_MANT_DIG 64), as on the machines this runs on; elsewhere the test says so and skips.
 */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <elf.h>

#include "trace/decode.h"
#include "trace/decode_float.h"

enum want { VALUE, IS_NAN };

static void check(const char *what, long double got, enum want kind, long double want)
{
	if (kind == IS_NAN) {
		if (!isnan(got))
			fail_msg("%s: %La, expected a NaN", what, got);
		return;
	}
	/* == does not tell -0 from +0, nor compare NaNs: the sign bit too */
	if (!(got == want) || signbit(got) != signbit(want))
		fail_msg("%s: %La (%.21Lg), expected %La (%.21Lg)", what, got, got, want, want);
}

static void put64(uint8_t *p, uint64_t v, bool little)
{
	int i;

	for (i = 0; i < 8; i++)
		p[little ? i : 7 - i] = (uint8_t)(v >> (8 * i));
}

static const struct {
	const char *name;
	uint16_t se; /* sign and exponent */
	uint64_t m;  /* the significand, integer bit included */
	enum want kind;
	long double want;
} x87_cases[] = {
    {"0", 0x0000, 0, VALUE, 0.0L},
    {"-0", 0x8000, 0, VALUE, -0.0L},
    {"1", 0x3fff, 0x8000000000000000, VALUE, 1.0L},
    {"-2.5", 0xc000, 0xa000000000000000, VALUE, -2.5L},
    {"pi", 0x4000, 0xc90fdaa22168c235, VALUE, 0x1.921fb54442d18469898cc51701b8p+1L},
    {"-1/3", 0xbffd, 0xaaaaaaaaaaaaaaab, VALUE, -0x1.5555555555555555555555555555p-2L},
    {"smallest denormal", 0x0000, 1, VALUE, 0x1p-16445L},
    {"largest denormal", 0x0000, 0x7fffffffffffffff, VALUE, 0x1p-16382L - 0x1p-16445L},
    {"-denormal", 0x8000, 0x4000000000000000, VALUE, -0x1p-16383L},
    {"pseudo-denormal", 0x0000, 0x8000000000000000, VALUE, 0x1p-16382L},
    {"smallest normal", 0x0001, 0x8000000000000000, VALUE, 0x1p-16382L},
    {"largest", 0x7ffe, 0xffffffffffffffff, VALUE, 0x1.fffffffffffffffep+16383L},
    {"-largest", 0xfffe, 0xffffffffffffffff, VALUE, -0x1.fffffffffffffffep+16383L},
    {"inf", 0x7fff, 0x8000000000000000, VALUE, INFINITY},
    {"-inf", 0xffff, 0x8000000000000000, VALUE, -INFINITY},
    {"quiet nan", 0x7fff, 0xc000000000000000, IS_NAN, 0},
    {"-quiet nan", 0xffff, 0xc000000000000001, IS_NAN, 0},
    {"signalling nan", 0x7fff, 0x8000000000000001, IS_NAN, 0},
    {"pseudo-infinity", 0x7fff, 0, IS_NAN, 0},
    {"pseudo-nan", 0x7fff, 0x4000000000000000, IS_NAN, 0},
    {"unnormal", 0x3fff, 0x4000000000000000, IS_NAN, 0},
};

static void test_x87(void **state)
{
	size_t i;

	(void)state;
	if (LDBL_MANT_DIG != 64)
		skip();
	for (i = 0; i < sizeof(x87_cases) / sizeof(x87_cases[0]); i++) {
		uint8_t b[16];

		/* bytes 10-15 are padding: whatever they hold does not matter */
		memset(b, 0xa5, sizeof(b));
		put64(b, x87_cases[i].m, true);
		b[8] = (uint8_t)x87_cases[i].se;
		b[9] = (uint8_t)(x87_cases[i].se >> 8);
		/* x87 bytes are little-endian: the byte-order argument does not apply */
		check(x87_cases[i].name, sdt_decode_float16(b, SDT_FLOAT_X87, true),
		      x87_cases[i].kind, x87_cases[i].want);
		check(x87_cases[i].name, sdt_decode_float16(b, SDT_FLOAT_X87, false),
		      x87_cases[i].kind, x87_cases[i].want);
	}
}

static const struct {
	const char *name;
	uint64_t hi, lo; /* sign, exponent and the top 48 fraction bits; the low 64 */
	enum want kind;
	long double want;
} b128_cases[] = {
    {"0", 0, 0, VALUE, 0.0L},
    {"-0", 0x8000000000000000, 0, VALUE, -0.0L},
    {"1", 0x3fff000000000000, 0, VALUE, 1.0L},
    {"-2.5", 0xc000400000000000, 0, VALUE, -2.5L},
    /* 113 bits rounded to the host's 64, once */
    {"pi", 0x4000921fb54442d1, 0x8469898cc51701b8, VALUE, 0x1.921fb54442d18469898cc51701b8p+1L},
    {"1/3", 0x3ffd555555555555, 0x5555555555555555, VALUE, 0x1.5555555555555555555555555555p-2L},
    {"1 + 2^-63", 0x3fff000000000000, 0x0002000000000000, VALUE, 1.0L + 0x1p-63L},
    {"1 + 2^-64 (a tie, to even)", 0x3fff000000000000, 0x0001000000000000, VALUE, 1.0L},
    {"1 + 2^-64 + 2^-112 (above the tie)", 0x3fff000000000000, 0x0001000000000001, VALUE,
     1.0L + 0x1p-63L},
    {"smallest normal", 0x0001000000000000, 0, VALUE, 0x1p-16382L},
    {"denormal (x87 holds it)", 0x0000001000000000, 0, VALUE, 0x1p-16394L},
    {"smallest denormal (below x87's: 0)", 0, 1, VALUE, 0.0L},
    {"largest (rounds past x87's largest)", 0x7ffeffffffffffff, 0xffffffffffffffff, VALUE,
     INFINITY},
    {"x87's largest", 0x7ffeffffffffffff, 0xfffe000000000000, VALUE, 0x1.fffffffffffffffep+16383L},
    {"inf", 0x7fff000000000000, 0, VALUE, INFINITY},
    {"-inf", 0xffff000000000000, 0, VALUE, -INFINITY},
    {"nan", 0x7fff800000000000, 0, IS_NAN, 0},
    {"nan, low bits only", 0x7fff000000000000, 1, IS_NAN, 0},
};

static void test_binary128(void **state)
{
	size_t i;
	int order;

	(void)state;
	if (LDBL_MANT_DIG != 64)
		skip();
	for (i = 0; i < sizeof(b128_cases) / sizeof(b128_cases[0]); i++) {
		for (order = 0; order < 2; order++) {
			bool little = order == 0;
			uint8_t b[16];
			char what[96];

			/* little-endian: the low word first; big-endian: the high one */
			put64(little ? b + 8 : b, b128_cases[i].hi, little);
			put64(little ? b : b + 8, b128_cases[i].lo, little);
			snprintf(what, sizeof(what), "%s (%s-endian)", b128_cases[i].name,
				 little ? "little" : "big");
			check(what, sdt_decode_float16(b, SDT_FLOAT_IEEE, little),
			      b128_cases[i].kind, b128_cases[i].want);
		}
	}
}

static const struct {
	const char *name;
	double hi, lo;
	enum want kind;
	long double want;
} ibm_cases[] = {
    {"0", 0.0, 0.0, VALUE, 0.0L},
    {"-0", -0.0, 0.0, VALUE, -0.0L},
    {"1", 1.0, 0.0, VALUE, 1.0L},
    {"1 + 2^-60 (beyond a double)", 1.0, 0x1p-60, VALUE, 1.0L + 0x1p-60L},
    {"-3 - 2^-55", -3.0, -0x1p-55, VALUE, -3.0L - 0x1p-55L},
    {"largest double", DBL_MAX, 0.0, VALUE, (long double)DBL_MAX},
    {"inf", INFINITY, 0.0, VALUE, INFINITY},
    {"nan", NAN, 0.0, IS_NAN, 0},
};

static void test_ibm128(void **state)
{
	size_t i;
	int order;

	(void)state;
	if (LDBL_MANT_DIG != 64)
		skip();
	for (i = 0; i < sizeof(ibm_cases) / sizeof(ibm_cases[0]); i++) {
		for (order = 0; order < 2; order++) {
			bool little = order == 0;
			uint64_t h, l;
			uint8_t b[16];

			memcpy(&h, &ibm_cases[i].hi, 8);
			memcpy(&l, &ibm_cases[i].lo, 8);
			/* the high double first, each in the file's byte order */
			put64(b, h, little);
			put64(b + 8, l, little);
			check(ibm_cases[i].name, sdt_decode_float16(b, SDT_FLOAT_IBM128, little),
			      ibm_cases[i].kind, ibm_cases[i].want);
		}
	}
}

static void test_format_of(void **state)
{
	(void)state;
	assert_int_equal(sdt_float_format_of(EM_X86_64), SDT_FLOAT_X87);
	assert_int_equal(sdt_float_format_of(EM_386), SDT_FLOAT_X87);
	assert_int_equal(sdt_float_format_of(EM_AARCH64), SDT_FLOAT_IEEE);
	assert_int_equal(sdt_float_format_of(EM_S390), SDT_FLOAT_IEEE);
	assert_int_equal(sdt_float_format_of(EM_RISCV), SDT_FLOAT_IEEE);
	assert_int_equal(sdt_float_format_of(EM_PPC64), SDT_FLOAT_IBM128);
	assert_int_equal(sdt_float_format_of(EM_PPC), SDT_FLOAT_IBM128);
	assert_string_equal(sdt_float_format_name(SDT_FLOAT_X87), "x87");
	assert_string_equal(sdt_float_format_name(SDT_FLOAT_IEEE), "binary128");
	assert_string_equal(sdt_float_format_name(SDT_FLOAT_IBM128), "double-double");
}

/* A recorded sample: a 16-byte field at 16 decodes to ->ld (and ->f), by the field's format. */
static void test_decode_arg(void **state)
{
	struct sdt_trace_field f[2] = {
	    {.name = (char *)"__probe_ip", .offset = 8, .size = 8},
	    {.name = (char *)"arg1", .offset = 16, .size = 16, .float_format = SDT_FLOAT_X87},
	};
	struct sdt_trace_arg a = {.name = (char *)"arg1", .size = 16, .is_float = true, .field = 1};
	struct sdt_trace_event_desc d = {
	    .fields = f, .nfields = 2, .ip_field = 0, .args = &a, .nargs = 1};
	struct sdt_trace_value v;
	uint8_t raw[32] = {0};

	(void)state;
	if (LDBL_MANT_DIG != 64)
		skip();
	put64(raw + 16, 0xc90fdaa22168c235, true);
	raw[24] = 0x00;
	raw[25] = 0x40;
	sdt_decode_arg(&d, 0, raw, sizeof(raw), false, false, 0, &v);
	assert_int_equal(v.kind, SDT_VALUE_FLOAT);
	assert_int_equal(v.size, 16);
	check("pi", v.ld, VALUE, 0x1.921fb54442d18469898cc51701b8p+1L);
	assert_true(v.f == 0x1.921fb54442d18p+1);

	/* a record cut inside the field */
	sdt_decode_arg(&d, 0, raw, 24, false, false, 0, &v);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
	/* a 16-byte float in a narrower field: not decoded */
	f[1].size = 8;
	sdt_decode_arg(&d, 0, raw, sizeof(raw), false, false, 0, &v);
	assert_int_equal(v.kind, SDT_VALUE_UNAVAILABLE);
	assert_non_null(strstr(v.unavailable, "16-byte"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_x87),	       cmocka_unit_test(test_binary128),
	    cmocka_unit_test(test_ibm128),     cmocka_unit_test(test_format_of),
	    cmocka_unit_test(test_decode_arg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
