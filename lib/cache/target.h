/* SPDX-License-Identifier: MIT */
/*
 * The target model behind include/sdtrace/cache.h's accessors (target.c): struct sdt_target, one
 * binary to probe and the sites of it that matched, and struct sdt_targets, what one
 * sdt_cache__resolve() hands out. Both producers (resolve.c, userprobe_resolve.c) fill arrays
 * of struct sdt_target; the resolution wraps the joined array once at the end.
 */
#ifndef SDT_CACHE_TARGET_H
#define SDT_CACHE_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sdtrace/cache.h"

struct sdt_target {
	char *path;	       /* real path */
	char *build_id;	       /* of the file on disk */
	struct sdt_file *file; /* owned by the target */
	size_t *sites;	       /* indices into sdt_file__site(), ascending, owned */
	size_t *spec;	       /* for each site: index of the first spec it matched, owned */
	size_t nsites;
	bool rescanned; /* the file differed from its cache entry (the cache was updated) */
	/* the identity of the file that was scanned (fstat of the descriptor it was read from) */
	uint64_t dev, ino, size;
	int64_t mtime_sec, mtime_nsec;
	/*
	 * User probes: their sites are appended to @file, and for each site the names of its
	 * arguments: ntypes[k] entries of types[k]. NULL for a target of SDT events only. Owned.
	 */
	struct sdt_arg_type **types;
	size_t *ntypes;
};

struct sdt_targets {
	struct sdt_target *t;
	size_t n;
};

/* Free what a target owns (not the struct). */
void sdt_target_release(struct sdt_target *t);
/* Free the @n targets of the array @t and the array (NULL: nothing). */
void sdt_target_array_free(struct sdt_target *t, size_t n);
/*
 * Hand the array @t of @n targets over to a new struct sdt_targets (*out): 0, or -ENOMEM with the
 * array freed. An empty result is a list of 0 targets, not NULL.
 */
int sdt_targets_wrap(struct sdt_target *t, size_t n, struct sdt_targets **out);

#endif
