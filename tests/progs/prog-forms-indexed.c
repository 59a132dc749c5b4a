/* SPDX-License-Identifier: MIT */
/*
 * Indexed addresses, written by hand into the note (prog-asm.h) so that every form is there
 * whatever the compiler would choose: base + index * scale + displacement, with and without a
 * base register, with a symbol, negative and positive displacements, scales 1 and 8, between
 * register arguments. No uprobe fetcharg adds two registers: under tracefs the indexed
 * arguments are unavailable ("indexed address ..."); the BPF engine fetches them. Built -O2,
 * non-PIE (g_arr(,%rsi,8) is an absolute address, as gcc writes it only for non-PIE code).
 *
 * Output, per round (see prog.h); ROUND counts from 0, IDX = ROUND % 6 + 1:
 *	probe indexed:base arg1=ROUND arg2=loc[IDX] arg3=loc[IDX-1] arg4=hi32(loc[IDX])
 *	      arg5=loc[IDX] (scale 1) arg6=ROUND+1000
 *	probe indexed:symbol arg1=ROUND arg2=g_arr[IDX] arg3=g_arr[IDX+1] arg4=ROUND+1000
 * (one line each). Forms:
 *	indexed:base    -8@%rdx  -8@(%rdi,%rsi,8)  -8@-8(%rdi,%rsi,8)  -4@4(%rdi,%rsi,8)
 *	                -8@(%rdi,%rcx)  -8@%rax
 *	indexed:symbol  -8@%rdx  -8@g_arr(,%rsi,8)  -8@g_arr+8(,%rsi,8)  -8@%rax
 * (%rcx holds IDX * 8 for the scale-1 form.)
 */
#include <stdint.h>
#include <string.h>

#include "prog.h"
#include "prog-asm.h"

long g_arr[8];

__attribute__((noinline)) static void fire(long *loc, long idx, long round)
{
	long bytes = idx * 8, last = round + 1000;

	PROG_ASM_PROBE(indexed, base,
		       "-8@%%rdx -8@(%%rdi,%%rsi,8) -8@-8(%%rdi,%%rsi,8) -4@4(%%rdi,%%rsi,8) "
		       "-8@(%%rdi,%%rcx) -8@%%rax",
		       "d"(round), "D"(loc), "S"(idx), "c"(bytes), "a"(last),
		       "m"(*(long(*)[8])loc));
	PROG_ASM_PROBE(indexed, symbol, "-8@%%rdx -8@g_arr(,%%rsi,8) -8@g_arr+8(,%%rsi,8) -8@%%rax",
		       "d"(round), "S"(idx), "a"(last), "m"(g_arr));
}

int main(int argc, char **argv)
{
	long i, k, n = prog_rounds(argc, argv);
	long loc[8];

	for (i = 0; i < n; i++) {
		long idx = i % 6 + 1;
		int32_t hi;

		for (k = 0; k < 8; k++) {
			/* the high half differs from the low one, and both have a sign */
			loc[k] = -(i * 0x100000000L + k * 0x1000 + 7) * (k % 2 ? 1 : -1);
			g_arr[k] = i * 100 + k;
		}
		memcpy(&hi, (char *)&loc[idx] + 4, sizeof(hi));
		printf("probe indexed:base arg1=%ld arg2=%ld arg3=%ld arg4=%d arg5=%ld arg6=%ld\n",
		       i, loc[idx], loc[idx - 1], hi, loc[idx], i + 1000);
		printf("probe indexed:symbol arg1=%ld arg2=%ld arg3=%ld arg4=%ld\n", i, g_arr[idx],
		       g_arr[idx + 1], i + 1000);
		fflush(stdout);
		fire(PROG_OPAQUE(&loc[0]), PROG_OPAQUE(idx), i);
	}
	return 0;
}
