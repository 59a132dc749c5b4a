/* SPDX-License-Identifier: MIT */
/* Fetching binaries by build-id from debuginfod, with a progress line on a terminal. */
#ifndef SDTRACE_FETCH_H
#define SDTRACE_FETCH_H

#include "sdtrace/sdtrace.h"

/* Fetch @build_id and cache it; prints one line of result. Returns 0 or EXIT_RUNTIME. */
int cli_fetch_to_cache(struct sdt_cache *c, const char *build_id);
/* Fetch @build_id: 0 and *path (and *orig, the server's path, or NULL), or -errno (message set). */
int cli_fetch(const char *build_id, char **path, char **orig);

/*
 * The file of @build_id: from the local cache (the file it was cached from, or the cached copy),
 * else fetched from debuginfod. *open_path is where to read it, *shown the path to show (both
 * malloc'ed). 0 or -errno (message set).
 */
int cli_find_build_id(const char *build_id, char **open_path, char **shown);

/*
 * For a recording from another host: with $DEBUGINFOD_URLS set, fetch into the cache the binaries
 * of the recorded build-ids that are neither cached nor on disk here, and say which could not be
 * found. Without it, nothing is asked of the network (the recording needs no binary to be read).
 */
void cli_fetch_recorded(const struct sdt_trace_reader *r);

#endif
