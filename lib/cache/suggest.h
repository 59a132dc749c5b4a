/* SPDX-License-Identifier: MIT */
/* What a lookup that found nothing says next (suggest.c). */
#ifndef SDT_SUGGEST_H
#define SDT_SUGGEST_H

#include <stddef.h>

#include "sdtrace/scan.h"
#include "sdtrace/spec.h"

struct sdt_index;

/*
 * The end of "no SDT event matches SPEC in WHERE" for @spec: "; did you mean %python:gc__start?"
 * with the nearest names of @files (the binary a spec named) or of @idx (the cache's index, for
 * a spec without a binary); else what to look at: "('sdtrace list -x PATH' lists its events)",
 * or "(it has provider 'P': ...)" when the cache has the provider, and only when it has nothing
 * close "(add binaries with 'sdtrace cache add PATH')". Malloc'ed; NULL when out of memory.
 */
char *sdt_miss_hint(const struct sdt_spec *spec, struct sdt_index *idx,
		    const struct sdt_file *const *files, size_t nfiles);

/*
 * The end of a miss by the target: "; did you mean %python:gc__start?" with the nearest names
 * of @files (the target's own files scanned for @spec) first, then of @idx (NULL: none; a cached
 * build the target runs was not decoded, its events are in the index), else "". Malloc'ed;
 * NULL when out of memory.
 */
char *sdt_miss_near(const struct sdt_spec *spec, struct sdt_index *idx,
		    const struct sdt_file *const *files, size_t nfiles);

#endif
