/* SPDX-License-Identifier: MIT */
/* What every public header of libsdtrace shares. See sdtrace.h for the conventions. */
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
