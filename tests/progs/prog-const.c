/* SPDX-License-Identifier: MIT */
/*
 * Constants: the compiler writes the values into the note ("-4@$5", "8@$-1"); no register or
 * memory is read. Built -O2.
 *
 * Output, per round (see prog.h):
 *	probe const:values arg1=5 arg2=-1 arg3=255 arg4=-32768 arg5=-2147483648
 *	      arg6=4294967295 arg7=-9223372036854775808 arg8=18446744073709551615   (one line)
 *	probe const:zero arg1=0
 * Argument types of const:values: s32 s8 u8 s16 s32 u32 s64 u64.
 */
#include <stdint.h>
#include <sys/sdt.h>

#include "prog.h"

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);

	for (i = 0; i < n; i++) {
		printf("probe const:values arg1=5 arg2=-1 arg3=255 arg4=-32768 arg5=-2147483648 "
		       "arg6=4294967295 arg7=-9223372036854775808 arg8=18446744073709551615\n");
		fflush(stdout);
		STAP_PROBE8(const, values, (int32_t)5, (int8_t)-1, (uint8_t)255, (int16_t)INT16_MIN,
			    (int32_t)INT32_MIN, (uint32_t)UINT32_MAX, (int64_t)INT64_MIN,
			    (uint64_t)UINT64_MAX);
		printf("probe const:zero arg1=0\n");
		fflush(stdout);
		STAP_PROBE1(const, zero, (long)0);
	}
	return 0;
}
