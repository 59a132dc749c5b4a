/* SPDX-License-Identifier: MIT */
/*
 * Many arguments: probes with 6, 7 (one more than bpftrace 0.17 accepts) and 12 (the most
 * <sys/sdt.h> allows), of mixed sizes, partly in registers and partly spilled. Built -O2.
 *
 * Output, per round (see prog.h); argument K has the value K * 11 * (ROUND + 1) with the sign
 * and type below, ROUND from 0:
 *	probe many:args6 arg1=.. arg6=..    types: s64 s32 s16 s8 u64 u32
 *	probe many:args7 arg1=.. arg7=..    types: s64 s32 s16 s8 u64 u32 u16
 *	probe many:args12 arg1=.. arg12=..  types: s64 s32 s16 s8 u64 u32 u16 u8 s64 s32 s64 u64
 * Odd-numbered signed arguments are negated: arg1=-11, arg3=-33, ... (for ROUND 0).
 */
#include <inttypes.h>
#include <stdint.h>
#include <sys/sdt.h>

#include "prog.h"

int main(int argc, char **argv)
{
	long r, n = prog_rounds(argc, argv);

	for (r = 0; r < n; r++) {
		int64_t m = PROG_OPAQUE(11 * (r + 1));
		int64_t a1 = -1 * m;
		int32_t a2 = (int32_t)(2 * m);
		int16_t a3 = (int16_t)(-3 * m);
		int8_t a4 = (int8_t)(4 * m);
		uint64_t a5 = (uint64_t)(5 * m);
		uint32_t a6 = (uint32_t)(6 * m);
		uint16_t a7 = (uint16_t)(7 * m);
		uint8_t a8 = (uint8_t)(8 * m);
		int64_t a9 = -9 * m;
		int32_t a10 = (int32_t)(10 * m);
		int64_t a11 = -11 * m;
		uint64_t a12 = (uint64_t)(12 * m);

		printf("probe many:args6 arg1=%" PRId64 " arg2=%d arg3=%d arg4=%d arg5=%" PRIu64
		       " arg6=%u\n",
		       a1, a2, a3, a4, a5, a6);
		fflush(stdout);
		STAP_PROBE6(many, args6, a1, a2, a3, a4, a5, a6);
		printf("probe many:args7 arg1=%" PRId64 " arg2=%d arg3=%d arg4=%d arg5=%" PRIu64
		       " arg6=%u arg7=%u\n",
		       a1, a2, a3, a4, a5, a6, a7);
		fflush(stdout);
		STAP_PROBE7(many, args7, a1, a2, a3, a4, a5, a6, a7);
		printf("probe many:args12 arg1=%" PRId64 " arg2=%d arg3=%d arg4=%d arg5=%" PRIu64
		       " arg6=%u arg7=%u arg8=%u arg9=%" PRId64 " arg10=%d arg11=%" PRId64
		       " arg12=%" PRIu64 "\n",
		       a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12);
		fflush(stdout);
		STAP_PROBE12(many, args12, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12);
	}
	return 0;
}
