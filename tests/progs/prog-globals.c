/* SPDX-License-Identifier: MIT */
/*
 * Globals read where they live: "-8@g_long(%rip)" and a member of a global struct, written
 * "-8@8+g_pair(%rip)" in a PIE and "-8@g_pair+8(%rip)" when not. Built twice: prog-globals-pie
 * (-fPIE -pie) and prog-globals-nopie (-fno-pic -no-pie), both -O2.
 *
 * Output, per round (see prog.h); ROUND counts from 1 and is stored in the globals first:
 *	probe globals:scalars arg1=-ROUND*1000 arg2=ROUND arg3=ROUND*3   (s64 u32 s16)
 *	probe globals:pair arg1=ROUND arg2=-ROUND                      (g_pair.a, g_pair.b: s64)
 *	probe globals:array arg1=ROUND+100                             (g_arr[2]: s32)
 */
#include <stdint.h>
#include <sys/sdt.h>

#include "prog.h"

long g_long;
unsigned int g_uint;
short g_short;
struct {
	long a;
	long b;
} g_pair;
int g_arr[4];

/* Nothing else in this function, so that the compiler reads each global in the probe. */
__attribute__((noinline)) static void fire(void)
{
	STAP_PROBE3(globals, scalars, g_long, g_uint, g_short);
	STAP_PROBE2(globals, pair, g_pair.a, g_pair.b);
	STAP_PROBE1(globals, array, g_arr[2]);
}

int main(int argc, char **argv)
{
	long i, n = prog_rounds(argc, argv);

	for (i = 1; i <= n; i++) {
		g_long = -i * 1000;
		g_uint = (unsigned int)i;
		g_short = (short)(i * 3);
		g_pair.a = i;
		g_pair.b = -i;
		g_arr[2] = (int)i + 100;
		printf("probe globals:scalars arg1=%ld arg2=%u arg3=%d\n", g_long, g_uint, g_short);
		printf("probe globals:pair arg1=%ld arg2=%ld\n", g_pair.a, g_pair.b);
		printf("probe globals:array arg1=%d\n", g_arr[2]);
		fflush(stdout);
		fire();
	}
	return 0;
}
