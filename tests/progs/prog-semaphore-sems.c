/* SPDX-License-Identifier: MIT */
/*
 * The semaphore-gated half of prog-semaphore. <sys/sdt.h> gives every probe of a translation
 * unit a semaphore when _SDT_HAS_SEMAPHORES is defined there, so the gated probes live in this
 * file and the ungated ones in prog-semaphore.c. Each probe has its own semaphore: an unsigned
 * short in section .probes named PROVIDER_NAME_semaphore, which the kernel raises while a tracer
 * has the probe enabled.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#include "prog-semaphore.h"

unsigned short sem_first_semaphore __attribute__((section(".probes")));
unsigned short sem_second_semaphore __attribute__((section(".probes")));
unsigned short sem_third_semaphore __attribute__((section(".probes")));

unsigned int sem_enabled_mask(void)
{
	return (sem_first_semaphore ? 1u : 0u) | (sem_second_semaphore ? 2u : 0u) |
	       (sem_third_semaphore ? 4u : 0u);
}

void sem_fire(long round)
{
	if (__builtin_expect(sem_first_semaphore != 0, 0)) {
		printf("probe sem:first arg1=%ld\n", round);
		fflush(stdout);
		STAP_PROBE1(sem, first, round);
	}
	if (__builtin_expect(sem_second_semaphore != 0, 0)) {
		printf("probe sem:second arg1=%ld arg2=%d\n", round, -2);
		fflush(stdout);
		STAP_PROBE2(sem, second, round, -2);
	}
	if (__builtin_expect(sem_third_semaphore != 0, 0)) {
		int len = snprintf(NULL, 0, "round-%ld", round);

		printf("probe sem:third arg1=%ld arg2=%d\n", round, len);
		fflush(stdout);
		STAP_PROBE2(sem, third, round, len);
	}
}
