/* SPDX-License-Identifier: MIT */
/*
 * Every integer size and sign at its extremes, in registers (built -O2).
 *
 * Output, per round (see prog.h):
 *	probe sizes:min arg1=-128 arg2=255 arg3=-32768 arg4=65535 arg5=-2147483648
 *	      arg6=4294967295 arg7=-9223372036854775808 arg8=18446744073709551615   (one line)
 *	probe sizes:max arg1=127 arg2=0 arg3=32767 arg4=0 arg5=2147483647 arg6=0
 *	      arg7=9223372036854775807 arg8=0                                      (one line)
 *	probe sizes:small arg1=-1 arg2=1 arg3=-1 arg4=1 arg5=-1 arg6=1 arg7=-1 arg8=1   (one line)
 * Argument order: s8 u8 s16 u16 s32 u32 s64 u64.
 */
#include <inttypes.h>
#include <stdint.h>
#include <sys/sdt.h>

#include "prog.h"

static void fire(const char *name, int8_t a, uint8_t b, int16_t c, uint16_t d, int32_t e,
		 uint32_t f, int64_t g, uint64_t h)
{
	a = PROG_OPAQUE(a);
	b = PROG_OPAQUE(b);
	c = PROG_OPAQUE(c);
	d = PROG_OPAQUE(d);
	e = PROG_OPAQUE(e);
	f = PROG_OPAQUE(f);
	g = PROG_OPAQUE(g);
	h = PROG_OPAQUE(h);
	printf("probe sizes:%s arg1=%d arg2=%u arg3=%d arg4=%u arg5=%" PRId32 " arg6=%" PRIu32
	       " arg7=%" PRId64 " arg8=%" PRIu64 "\n",
	       name, a, b, c, d, e, f, g, h);
	fflush(stdout);
	switch (name[1]) {
	case 'i':
		STAP_PROBE8(sizes, min, a, b, c, d, e, f, g, h);
		break;
	case 'a':
		STAP_PROBE8(sizes, max, a, b, c, d, e, f, g, h);
		break;
	default:
		STAP_PROBE8(sizes, small, a, b, c, d, e, f, g, h);
		break;
	}
}

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);

	for (i = 0; i < n; i++) {
		fire("min", INT8_MIN, UINT8_MAX, INT16_MIN, UINT16_MAX, INT32_MIN, UINT32_MAX,
		     INT64_MIN, UINT64_MAX);
		fire("max", INT8_MAX, 0, INT16_MAX, 0, INT32_MAX, 0, INT64_MAX, 0);
		fire("small", -1, 1, -1, 1, -1, 1, -1, 1);
	}
	return 0;
}
