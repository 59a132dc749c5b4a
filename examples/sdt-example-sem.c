/* SPDX-License-Identifier: MIT */
/*
 * The semaphore-gated probe of the example. A semaphore is an unsigned short in section .probes
 * that the kernel raises while a tracer has the probe enabled (uprobe ref_ctr_offset); the program
 * tests it to skip work nobody is watching. <sys/sdt.h> applies _SDT_HAS_SEMAPHORES to every probe
 * of a translation unit, so the gated probe lives in a file of its own.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <stdio.h>
#include <string.h>
#include <sys/sdt.h>

void example_debug(unsigned long id, const char *name);

unsigned short example_debug_semaphore __attribute__((unused, section(".probes")));
#define EXAMPLE_DEBUG_ENABLED() __builtin_expect(example_debug_semaphore != 0, 0)

void example_debug(unsigned long id, const char *name)
{
	char msg[128];
	unsigned int len;

	if (!EXAMPLE_DEBUG_ENABLED())
		return;
	len = (unsigned int)snprintf(msg, sizeof(msg), "job %lu (%s) is starting", id, name);
	STAP_PROBE2(example, debug, msg, len);
}
