/* SPDX-License-Identifier: MIT */
/*
 * Memory operands: built -O0, so every argument is read from the stack frame ("-4@-20(%rbp)")
 * (memory:locals); memory:fields reads members through a pointer. Sizes and signs as in
 * prog-sizes.
 *
 * Output, per round (see prog.h):
 *	probe memory:locals arg1=-128 arg2=255 arg3=-32768 arg4=65535 arg5=-2147483648
 *	      arg6=4294967295 arg7=-9223372036854775808 arg8=18446744073709551615   (one line)
 *	probe memory:fields arg1=ROUND arg2=-7 arg3=1234567890123                  (one line)
 * ROUND counts from 0.
 */
#include <inttypes.h>
#include <stdint.h>
#include <sys/sdt.h>

#include "prog.h"

struct rec {
	long round;
	int small;
	int64_t big;
};

static void fields(const struct rec *r)
{
	printf("probe memory:fields arg1=%ld arg2=%d arg3=%" PRId64 "\n", r->round, r->small,
	       r->big);
	fflush(stdout);
	STAP_PROBE3(memory, fields, r->round, r->small, r->big);
}

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);
	int8_t a = INT8_MIN;
	uint8_t b = UINT8_MAX;
	int16_t c = INT16_MIN;
	uint16_t d = UINT16_MAX;
	int32_t e = INT32_MIN;
	uint32_t f = UINT32_MAX;
	int64_t g = INT64_MIN;
	uint64_t h = UINT64_MAX;
	struct rec r = {0, -7, 1234567890123};

	for (i = 0; i < n; i++) {
		printf("probe memory:locals arg1=%d arg2=%u arg3=%d arg4=%u arg5=%" PRId32
		       " arg6=%" PRIu32 " arg7=%" PRId64 " arg8=%" PRIu64 "\n",
		       a, b, c, d, e, f, g, h);
		fflush(stdout);
		STAP_PROBE8(memory, locals, a, b, c, d, e, f, g, h);
		r.round = i;
		fields(&r);
	}
	return 0;
}
