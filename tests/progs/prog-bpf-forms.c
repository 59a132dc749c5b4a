/* SPDX-License-Identifier: MIT */
/*
 * The argument forms no tracefs fetcharg expresses and the BPF engine fetches, written as
 * assembler operands (STAP_PROBE_ASM) so that the notes carry exactly these forms:
 *	forms:indexed  -8@(%rdi,%rsi,8)  -8@16(%rdi,%rsi,8)  -4@(%rdi,%rsi,4)  8@%rsi
 *	               (base + index * scale, with a displacement, a 4-byte element, the index)
 *	forms:tls      -8@%fs:t_long@tpoff  -4@%fs:t_int@tpoff  -8@%rdx
 *	               (thread-local variables of the executable: local exec, x86_64)
 * Built -O2, PIE (the indexed operands need no symbol, the TLS ones are thread-pointer relative).
 * With the tracefs engine arguments 1-3 of indexed and 1-2 of tls are unavailable (null).
 *
 * Output, per round (see prog.h); ROUND from 0, I = ROUND % 4:
 *	probe forms:indexed arg1=A[I] arg2=A[I+2] arg3=<low int of A at I*4 bytes> arg4=I
 *	probe forms:tls arg1=ROUND*1000-7 arg2=-ROUND arg3=ROUND
 */
#include <string.h>
#include <sys/sdt.h>

#include "prog.h"

static long arr[8];
__thread long t_long;
__thread int t_int;

__attribute__((noinline)) static void fire_indexed(long *a, long i)
{
	__asm__ volatile("nop\n" STAP_PROBE_ASM(forms, indexed,
						  -8@(%%rdi,%%rsi,8) -8@16(%%rdi,%%rsi,8)
						      -4@(%%rdi,%%rsi,4) 8@%%rsi)
			 :
			 : "D"(a), "S"(i)
			 : "memory");
}

__attribute__((noinline)) static void fire_tls(long round)
{
	__asm__ volatile("nop\n" STAP_PROBE_ASM(forms, tls,
						  -8@%%fs:t_long@tpoff -4@%%fs:t_int@tpoff
						      -8@%%rdx)
			 :
			 : "d"(round)
			 : "memory");
}

int main(int argc, char **argv)
{
	long r, n = prog_rounds(argc, argv);
	int k;

	for (r = 0; r < n; r++) {
		long i = r % 4;
		int low;

		for (k = 0; k < 8; k++)
			arr[k] = (r + 1) * 100 + k - (k % 2 ? 1000 : 0);
		memcpy(&low, (char *)arr + i * 4, sizeof(low));
		printf("probe forms:indexed arg1=%ld arg2=%ld arg3=%d arg4=%ld\n", arr[i],
		       arr[i + 2], low, i);
		fflush(stdout);
		fire_indexed(PROG_OPAQUE(&arr[0]), PROG_OPAQUE(i));
		t_long = r * 1000 - 7;
		t_int = (int)-r;
		printf("probe forms:tls arg1=%ld arg2=%d arg3=%ld\n", t_long, t_int, r);
		fflush(stdout);
		fire_tls(PROG_OPAQUE(r));
	}
	return 0;
}
