/* SPDX-License-Identifier: MIT */
/*
 * The event index: one CDB file at the cache root, `.sdtrace-index.cdb`, derived from the
 * build-id directories (which stay the truth). Version 2 adds "u:NAME" (user probes), version 3
 * "x:BUILD-ID" "PATH\0WHY": an entry whose probes file is damaged or unreadable, so that a
 * lookup says its events may be missing instead of missing them in silence.
 * Records (several values per key):
 *
 *	"\1magic"       SDT_INDEX_MAGIC
 *	"\1stamp"       the mtimes of .build-id/ and its xx/ directories when it was built
 *	"e:PROV:EVENT"  "BUILD-ID\0PATH"  every entry with that event
 *	"p:PROV"        "BUILD-ID\0PATH"  every entry with that provider (for wildcards)
 *	"u:NAME"        "BUILD-ID\0PATH"  every entry with a user probe NAME
 *	"f:PATH"        "BUILD-ID"        every build-id cached for that path
 *	"b:BUILD-ID"    "PATH"            every entry
 *	"B:BUILD-ID"    its events, as read from its probes file (reused while that is unchanged)
 *	"x:BUILD-ID"    "PATH\0WHY"       every entry whose probes file is damaged or unreadable
 *	"\1end"         record count (written last: a truncated file lacks it)
 *
 * Freshness, in time that does not grow with the cache: a link added or removed in
 * .build-id/xx/ (what both perf and sdtrace do to add or remove an entry) changes that
 * directory's mtime, and a new xx/ changes .build-id/'s. So the index is fresh when those <= 257
 * mtimes equal the stamp. A change within the same timestamp tick as the build is caught by the
 * stamp's entry count and name hash, re-read only for directories modified within a second of
 * the build ("racy", as git calls its index).
 *
 * The index is replaced atomically under the lock `.sdtrace-index.lock` (flock: a SIGKILL
 * releases it); readers do not lock.
 */
#ifndef SDT_INDEX_H
#define SDT_INDEX_H

#include <stdbool.h>
#include <stddef.h>

struct sdt_cache;
struct sdt_index;

#define SDT_INDEX_NAME	".sdtrace-index.cdb"
#define SDT_INDEX_LOCK	".sdtrace-index.lock"
#define SDT_INDEX_MAGIC "sdtrace-index 3"

/* Call @fn for each `.build-id` link with a well-formed target; stop on a non-zero return. */
typedef int (*sdt_link_fn)(const char *bid, const char *path, void *ctx);
/* Links that are malformed are passed to @bad (may be NULL) as "xx/rest". */
typedef int (*sdt_bad_link_fn)(const char *rel, const char *target, void *ctx);
int sdt_walk_links(const struct sdt_cache *c, sdt_link_fn fn, sdt_bad_link_fn bad, void *ctx);

/*
 * Open the index, rebuilding it first when it is missing, corrupt or out of date.
 * *rebuilt (may be NULL) tells whether it was. 0 or -errno.
 */
int sdt_index_open(struct sdt_cache *c, struct sdt_index **out, bool *rebuilt);
void sdt_index_close(struct sdt_index *idx);
/*
 * Rebuild unconditionally (under the lock). The events of entries the previous index already
 * held are taken from it (a build-id's notes never change), so only new entries are read;
 * _full reads every entry's probes file (check --repair, reindex).
 */
int sdt_index_rebuild(struct sdt_cache *c);
int sdt_index_rebuild_full(struct sdt_cache *c);
/* Is the index on disk present, well-formed and fresh? 0 yes, -ESTALE/-EINVAL/-ENOENT no. */
int sdt_index_verify(struct sdt_cache *c);
/* Does the index hold exactly what a rebuild would write? 0 yes, -ESTALE no. */
int sdt_index_compare(struct sdt_cache *c);

/* Each value of @key; @fn gets the value and its length. Stops on non-zero return. */
typedef int (*sdt_value_fn)(const char *val, size_t len, void *ctx);
int sdt_index_find(struct sdt_index *idx, const char *key, sdt_value_fn fn, void *ctx);
/* Each record whose key starts with @prefix. */
typedef int (*sdt_record_fn)(const char *key, size_t klen, const char *val, size_t vlen, void *ctx);
int sdt_index_each(struct sdt_index *idx, const char *prefix, sdt_record_fn fn, void *ctx);
/* Every "PROV:EVENT" of the "e:" records, sorted, each once (sdt_cache__event_names()). */
int sdt_index_event_names(struct sdt_index *idx, char ***names, size_t *n);

#endif
