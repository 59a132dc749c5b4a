/* SPDX-License-Identifier: MIT */
/* 16-byte floats from their bytes (see decode_float.h for the formats). */
#include <elf.h>
#include <math.h>
#include <string.h>

#include "trace/decode_float.h"

/* The 8 bytes at @p as an integer, in byte order @little. */
static uint64_t word(const uint8_t *p, bool little)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v |= (uint64_t)p[little ? i : 7 - i] << (8 * i);
	return v;
}

static long double x87(const uint8_t *p)
{
	uint64_t m = word(p, true);
	unsigned int se = (unsigned int)p[8] | (unsigned int)p[9] << 8;
	unsigned int e = se & 0x7fff;
	bool integer = m >> 63;
	long double v;

	if (e == 0x7fff)
		v = integer && !(m << 1) ? INFINITY : NAN; /* without the integer bit: pseudo */
	else if (e == 0)
		v = ldexpl((long double)m, 1 - 16383 - 63); /* zero, denormal, pseudo-denormal */
	else if (!integer)
		v = NAN; /* an unnormal: the 387 and later reject it as an invalid operand */
	else
		v = ldexpl((long double)m, (int)e - 16383 - 63);
	return se & 0x8000 ? -v : v;
}

static long double binary128(const uint8_t *p, bool little)
{
	uint64_t hi = word(little ? p + 8 : p, little), lo = word(little ? p : p + 8, little);
	uint64_t frac_hi = hi & ((UINT64_C(1) << 48) - 1);
	unsigned int e = (unsigned int)(hi >> 48) & 0x7fff;
	long double v;

	if (e == 0x7fff) {
		v = frac_hi || lo ? NAN : INFINITY;
	} else {
		if (e)
			frac_hi |= UINT64_C(1) << 48; /* the implicit integer bit */
		/* ldexpl is exact; the sum rounds once to the host's precision */
		v = ldexpl((long double)frac_hi, 64) + (long double)lo;
		v = ldexpl(v, (e ? (int)e : 1) - 16383 - 112);
	}
	return hi >> 63 ? -v : v;
}

static long double ibm128(const uint8_t *p, bool little)
{
	uint64_t hb = word(p, little), lb = word(p + 8, little);
	double hi, lo;

	memcpy(&hi, &hb, sizeof(hi));
	memcpy(&lo, &lb, sizeof(lo));
	/* -0.0 + 0.0 would be +0.0: the sign of a zero is the high double's */
	if (hi == 0)
		return (long double)hi;
	return (long double)hi + (long double)lo;
}

long double sdt_decode_float16(const uint8_t *p, enum sdt_float_format format, bool little)
{
	switch (format) {
	case SDT_FLOAT_X87:
		return x87(p);
	case SDT_FLOAT_IBM128:
		return ibm128(p, little);
	case SDT_FLOAT_IEEE:
	default:
		return binary128(p, little);
	}
}

enum sdt_float_format sdt_float_format_of(unsigned int machine)
{
	switch (machine) {
	case EM_X86_64:
	case EM_386:
		return SDT_FLOAT_X87;
	case EM_PPC64:
	case EM_PPC:
		/* gcc's default; -mabi=ieeelongdouble (binary128) leaves no mark in the note */
		return SDT_FLOAT_IBM128;
	default:
		return SDT_FLOAT_IEEE; /* aarch64, s390x, riscv64 */
	}
}

const char *sdt_float_format_name(enum sdt_float_format format)
{
	switch (format) {
	case SDT_FLOAT_X87:
		return "x87";
	case SDT_FLOAT_IBM128:
		return "double-double";
	default:
		return "binary128";
	}
}
