/* SPDX-License-Identifier: MIT */
/*
 * Thread-local variables, written by hand into the note (prog-asm.h): "-8@%fs:t_long@tpoff"
 * (local-exec, as gcc writes a __thread variable of a non-PIE executable), a 4-byte one, and an
 * assembler-local label "8@$.Lforms_label" whose address no symbol table keeps, between register
 * arguments. Each probe fires in the main thread and then in a second thread, with other values
 * in each thread's variables: the value must come from the thread that hit the probe (its %fs
 * base). Under tracefs the thread-local arguments are unavailable ("thread-local variable ..."),
 * and the label's under every engine ("... assembler-local label ..."). Built -O2, non-PIE.
 *
 * Output, per round and thread (see prog.h); ROUND counts from 0, T is 0 (main) or 1:
 *	probe tls:vars arg1=ROUND arg2=t_long arg3=t_int arg4=T      (s64 s64 s32 s64)
 *	probe tls:label arg1=ADDRESS arg2=ROUND                      (u64: the label's address)
 * where t_long = ROUND*1000 + T*7 - 5 and t_int = -(ROUND + T*100). The threads run one after
 * the other, never at once.
 */
#include <pthread.h>
#include <stdint.h>

#include "prog.h"
#include "prog-asm.h"

__thread long t_long;
__thread int t_int;

/* A string behind an assembler-local label, in .rodata: its address is in no symbol table. */
__asm__(".pushsection .rodata\n"
	".Lforms_label: .asciz \"label\"\n"
	".popsection\n");

static long rounds;

__attribute__((noinline)) static void fire(long round, long t)
{
	uintptr_t label;

	__asm__ volatile("lea .Lforms_label(%%rip), %0" : "=r"(label));
	printf("probe tls:vars arg1=%ld arg2=%ld arg3=%d arg4=%ld\n", round, t_long, t_int, t);
	printf("probe tls:label arg1=%lu arg2=%ld\n", (unsigned long)label, round);
	fflush(stdout);
	PROG_ASM_PROBE(tls, vars, "-8@%%rdx -8@%%fs:t_long@tpoff -4@%%fs:t_int@tpoff -8@%%rcx",
		       "d"(round), "c"(t), "m"(t_long), "m"(t_int));
	PROG_ASM_PROBE(tls, label, "8@$.Lforms_label -8@%%rdx", "d"(round));
}

static void run(long t)
{
	long i;

	for (i = 0; i < rounds; i++) {
		t_long = i * 1000 + t * 7 - 5;
		t_int = (int)-(i + t * 100);
		fire(PROG_OPAQUE(i), PROG_OPAQUE(t));
	}
}

static void *thread_main(void *arg)
{
	(void)arg;
	run(1);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th;

	rounds = prog_rounds(argc, argv);
	run(0);
	if (pthread_create(&th, NULL, thread_main, NULL) || pthread_join(th, NULL))
		return 1;
	return 0;
}
