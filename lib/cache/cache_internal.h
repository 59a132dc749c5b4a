/* SPDX-License-Identifier: MIT */
/*
 * What the cache's files share: the layout and entry writes (cache.c), adding (add.c), the
 * list of entries (entries.c) and its maintenance (maint.c), lookups by name (resolve.c, with
 * userprobe_resolve.c). See include/sdtrace/cache.h for the on-disk layout.
 */
#ifndef SDT_CACHE_INTERNAL_H
#define SDT_CACHE_INTERNAL_H

#include <pthread.h>
#include <stdbool.h>
#include <sys/stat.h>

#include "util/internal.h"
#include "sdtrace/cache.h"

/*
 * What an entry write created or changed (its files, its directory, the parents it created and
 * the directory they were created in), to fsync before the entry's link is written: open
 * descriptors, owned by the set. With @keep false nothing is kept (descriptors given to the set
 * are closed at once): a large batch makes its files durable with one syncfs() instead.
 */
#define SDT_SYNC_SET_MAX 256
struct sdt_sync_set {
	int *fd; /* the files first (fd[0..nfiles)), then the directories */
	size_t n, nfiles, cap;
	bool keep;
	int err; /* first error of a descriptor fsync'ed early (the set was full) */
};

/*
 * Take @fd (ignored when < 0), a regular file when @file, else a directory: kept, or fsync'ed
 * now when the set is full, or closed (!keep).
 */
void sdt_sync_set_add(struct sdt_sync_set *s, int fd, bool file);
/*
 * fsync every descriptor (EINVAL: a file system that cannot, ignored) and close it, the files
 * first: their writeback changes metadata, which the first fsync then commits together with the
 * directories' (on a journalling file system the directories' fsyncs find it done). 0 or -errno.
 */
int sdt_sync_set_flush(struct sdt_sync_set *s);
/* Close every descriptor unsynced and free the set (it can be used again). */
void sdt_sync_set_drop(struct sdt_sync_set *s);

/*
 * Entries written by a batch add, linked once their files are on disk (see cache_add.c). A small
 * batch (files.keep) gathers the descriptors of what its entries wrote and fsyncs exactly those;
 * a large one (or one that would hold more than SDT_SYNC_SET_MAX descriptors) calls syncfs().
 */
struct sdt_deferred_link {
	char *bid, *rel;
};

struct sdt_deferred {
	pthread_mutex_t lock;
	struct sdt_deferred_link *links;
	size_t n, cap;
	struct sdt_sync_set files;
};

struct sdt_cache {
	char *root;
	int rootfd; /* -1: a read-only cache whose directory does not exist (empty) */
	bool no_copy;
	bool no_create; /* sdt_cache_opts.no_create: no directory, no index file is created */
	/* set during sdt_cache__add_paths(): write entries without fsync and link them later */
	struct sdt_deferred *defer;
};

/*
 * The entries lock. Writing an entry is several steps (its directory, its files, then its link)
 * and so is removing one (its link, its files, its directory and the empty parents): a removal
 * in the middle of a write left a link to a directory it had emptied or removed (`ok 0 events`,
 * lookups missing it silently). Writers hold the lock shared, from reading the entry's link to
 * writing it (a batch holds it until its deferred links are written); a removal holds it alone.
 * It is the innermost lock: nothing else is taken while it is held (the index lock and the user
 * probes' lock are taken before it, or after it is released). Returns the fd or -errno.
 */
#define SDT_ENTRIES_LOCK ".sdtrace-entries.lock"
int sdt_cache_lock_entries(const struct sdt_cache *c, bool exclusive);
/*
 * Take lock file @name of the cache root (sdt_lock_take()): every writer of the cache takes one
 * first, so a no_create cache without a directory refuses them all here (-ENOENT). The fd or
 * -errno.
 */
int sdt_cache_lock(const struct sdt_cache *c, const char *name, bool exclusive);

#define SDT_BUILD_ID_DIR ".build-id"
/* Longest build-id we accept, in hex (perf's BUILD_ID_SIZE is 20 bytes; allow some room). */
#define SDT_BUILD_ID_HEX_MAX 128

/* A build-id as lowercase hex, 4..SDT_BUILD_ID_HEX_MAX digits, even length. */
bool sdt_valid_build_id(const char *s);

/*
 * Open @rel (relative to the cache root, no leading '/') without following any symlink on the
 * way (openat2 RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS, else component by component). -errno.
 */
int sdt_cache_openat(const struct sdt_cache *c, const char *rel, int flags);

/* "usr/bin/python3.11/<bid>": the entry directory of @path (absolute) and @bid. NULL: ENOMEM. */
char *sdt_cache_entry_rel(const char *path, const char *bid);

/*
 * The path a `.build-id/xx/rest` link points to: "../../<abs path>/<bid>" -> "/<abs path>".
 * NULL when the target is not of that form (a foreign or planted link) or has ".." in it.
 */
char *sdt_cache_link_path(const char *target, const char *bid);
/* Read the link of @bid; 0 and *path, -ENOENT, or -EINVAL (malformed). */
int sdt_cache_read_link(const struct sdt_cache *c, const char *bid, char **path);

/* Read the entry's probes / meta file; 0 or -errno. */
int sdt_cache_read_entry_file(const struct sdt_cache *c, const char *path, const char *bid,
			      const char *name, char **text, size_t *len);

/*
 * Scan the regular file at @path (already a real path): opened O_NONBLOCK|O_NOFOLLOW, so a FIFO
 * or device never blocks. Returns 0 with *f and *st, -ENOEXEC (not ELF), -EBADF (not a regular
 * file), or -errno.
 */
int sdt_cache_scan(const char *path, struct sdt_file **f, struct stat *st, int *fd_out);

/*
 * Write (or refresh) the entry of the scanned @f; @fd is the open source file. Takes the entries
 * lock (shared), unless in a batch (c->defer: the batch holds it). A @path under /proc/PID/root
 * is cached under the rest of it, the path inside that process's root.
 */
int sdt_cache_write_entry(struct sdt_cache *c, const struct sdt_file *f, const char *path,
			  const struct stat *st, int fd, enum sdt_cache_result *res);

/* Scan and cache the file at the real path @real; 0 with *res, or -errno (message set). */
int sdt_cache_add_one(struct sdt_cache *c, const char *real, enum sdt_cache_result *res,
		      bool *is_elf, bool *has_sdt);

/* One entry of the cache as listed (maint.c), behind the accessors of sdtrace/cache.h. */
struct sdt_cache_entry {
	char *build_id;
	char *path;
	size_t nevents; /* provider:event names */
	size_t nsites;	/* p: lines */
	bool ours;	/* has our sdtrace.meta (else written by perf) */
	enum sdt_entry_state state;
	char **probes; /* the names of its user probes ('#' entries: sdtrace/probe.h) */
	size_t nprobes;
};

struct sdt_cache_entries {
	struct sdt_cache_entry *e;
	size_t n;
};

/* The entries a walk of the links collects (entries.c), unsorted, without their state. */
struct sdt_collect {
	struct sdt_cache_entry *e;
	size_t n, cap;
};
/* sdt_walk_links()'s callback that collects into the struct sdt_collect @ctx. */
int sdt_cache_collect_link(const char *bid, const char *path, void *ctx);

/* Every entry, sorted (sdt_cache__entries()), as an array: free with sdt_cache_entry_array_free. */
int sdt_cache_entries_read(struct sdt_cache *c, struct sdt_cache_entry **out, size_t *n);
void sdt_cache_entry_array_free(struct sdt_cache_entry *e, size_t n);

/* The build-id of the file at @path, read from the file now (NULL when it has none). */
int sdt_cache_file_build_id(const char *path, char **bid);

/*
 * The .build-id link of @bid to "../../@rel"; kept when it exists (perf: the first wins). The
 * directories it changed join @s (NULL: none kept); the caller fsyncs them.
 */
int sdt_cache_write_link(const struct sdt_cache *c, const char *bid, const char *rel,
			 struct sdt_sync_set *s);

/*
 * Remove the entry (path, bid): link first, then its directory and empty parents, holding the
 * entries lock alone (the caller must not hold it).
 */
int sdt_cache_remove_entry(struct sdt_cache *c, const char *path, const char *bid);

/* Can @spec name a user probe (NAME, GROUP:NAME with GROUP "probe_...")? */
bool sdt_userprobe_spec(const struct sdt_spec *spec);
/*
 * The user probes @specs name (userprobe_resolve.c), found through @idx (the resolution's event
 * index, open when a spec can name a user probe): targets for them in *out, and handled[k] set
 * for each spec that named user probes (the SDT lookup skips those). 0 or -errno.
 */
struct sdt_index;
struct sdt_target;
int sdt_userprobe_resolve(struct sdt_cache *c, struct sdt_index *idx,
			  struct sdt_spec *const *specs, size_t nspecs,
			  const struct sdt_resolve_opts *o, bool *handled, struct sdt_target **out,
			  size_t *nout);

#endif
