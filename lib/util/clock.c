/* SPDX-License-Identifier: MIT */
/* The library's clock for timing its own work (util/internal.h). */
#include <time.h>

#include "util/internal.h"

uint64_t sdt_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
