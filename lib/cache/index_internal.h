/* SPDX-License-Identifier: MIT */
/*
 * What the files of the event index share (index.h is what the rest of the cache uses): the
 * open index, the walk with its stamp (index_walk.c), the reading (index_read.c) and the
 * building (index_build.c). index.c opens it, fresh or rebuilt.
 */
#ifndef SDT_INDEX_INTERNAL_H
#define SDT_INDEX_INTERNAL_H

#include <cdb.h>
#include <stdbool.h>
#include <stddef.h>

#include "cache/index.h"

struct sdt_buf;

struct sdt_index {
	int fd;
	struct cdb cdb;
};

/* index_walk.c */
/* sdt_walk_links(), and the stamp of the directories walked into @stamp (may be NULL). */
int sdt_index_walk(const struct sdt_cache *c, sdt_link_fn fn, sdt_bad_link_fn bad, void *ctx,
		   struct sdt_buf *stamp);
/*
 * Is the index with @stamp still the cache's? 0 fresh, -ESTALE not, -EINVAL malformed, and
 * -EAGAIN: fresh, but racy (index_walk.c says when).
 */
int sdt_index_check_stamp(const struct sdt_cache *c, const char *stamp, size_t len);

/* index_read.c */
/* The value of @key in *@val, *@len: 0 or -EINVAL (none, or unreadable). */
int sdt_index_get_value(struct cdb *cdb, const char *key, const char **val, unsigned *len);
/* Open the index file and check magic, end marker and (@check_fresh) stamp. 0 or -errno. */
int sdt_index_try_open(const struct sdt_cache *c, struct sdt_index **out, bool check_fresh);
/* Open the index if it is fresh, racy or not (for checks: racy is not a problem). */
int sdt_index_try_open_any(const struct sdt_cache *c, struct sdt_index **out);

/* index_build.c */
/* Write the index anew (@reuse: the old index's records of the entries it knew). 0 or -errno. */
int sdt_index_write(const struct sdt_cache *c, bool reuse);
/* The index of @c built in an anonymous file, for this process only. 0 or -errno. */
int sdt_index_open_private(const struct sdt_cache *c, struct sdt_index **out);
/* May the index file be written? Not by a no_create cache where there is none yet. */
bool sdt_index_may_create(const struct sdt_cache *c);

#endif
