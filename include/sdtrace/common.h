/* SPDX-License-Identifier: MIT */
/*
 * What every public header of libsdtrace shares. See sdtrace.h for the conventions.
 *
 * Example (an options struct: zeroed, its size set, the fields named):
 *	SDT_OPTS(sdt_cache_add_opts, o, .recursive = true, .workers = 4);
 *	struct sdt_cache_summary sum;
 *	if (sdt_cache__add_paths(c, paths, n, &o, &sum) < 0)
 *		errx(1, "%s", sdt_errmsg());
 */
#ifndef SDTRACE_COMMON_H
#define SDTRACE_COMMON_H

#include <string.h>

#define SDT_API __attribute__((visibility("default")))

/* Declare and zero an options struct, setting its size: SDT_OPTS(sdt_scan_opts, o, .name = "x"); */
#define SDT_OPTS(TYPE, NAME, ...)                                                                  \
	struct TYPE NAME = ({                                                                      \
		memset(&NAME, 0, sizeof(struct TYPE));                                             \
		(struct TYPE){.sz = sizeof(struct TYPE), __VA_ARGS__};                             \
	})

#endif
