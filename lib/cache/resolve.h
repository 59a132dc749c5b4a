/* SPDX-License-Identifier: MIT */
/*
 * What the files of a resolution share (resolve.c, resolve_scan.c, resolve_target.c): the
 * resolver's state through its stages, and the two pieces of resolution by the target below the
 * stages (resolve_scan.c: the target's files scanned) and above them (resolve_target.c: what the
 * target runs). Calls go one way: resolve_target.c -> resolve.c -> resolve_scan.c.
 */
#ifndef SDT_CACHE_RESOLVE_H
#define SDT_CACHE_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/stat.h>

#include "cache/target.h"
#include "util/internal.h"
#include "sdtrace/proc.h"

struct sdt_index;

struct cand {
	char *path;
	char *bid; /* NULL: named by the user, not from the cache */
	bool *specs;
};

/* What the target runs (sdt_cache__resolve_target()), and what its scan saw, for messages. */
struct target_files {
	const struct sdt_proc_file *f;
	size_t n;
	char *desc;	     /* "process 42 (python3.11)", "'./tick' (its executable and ...)" */
	struct sdt_buf with; /* the files with SDT notes, ", "-separated */
	size_t nwith, nwithout, nunread, nskipped;
};

struct resolver {
	struct sdt_cache *c;
	struct sdt_index *idx;	 /* NULL: none opened (every spec names its binary) */
	struct target_files *tf; /* NULL: by the cache alone */
	struct sdt_spec *const *specs;
	size_t nspecs;
	struct cand *cands;
	size_t ncands, cap;
	size_t cur_spec;
	const char *prov_glob;
};

struct work_target {
	struct sdt_target t;
	bool *specs;
};

/* The files scanned in stage 2, one per (path, build-id), and their matching sites (stage 3). */
struct scanned {
	struct work_target *wt;
	size_t n, cap;
};


/* Does the binary part @s of a spec have a glob (it then names several binaries)? */
static inline bool sdt_resolve_glob(const char *s)
{
	return s && strpbrk(s, "*?[") != NULL;
}

/* resolve_scan.c: stages 1 and 2 by the target, every file it runs scanned (or skipped) into @sc. */
int sdt_resolve_scan_target(struct resolver *r, struct sdt_index *idx, struct scanned *sc);
/* The work target of @sc that is the inode @st (a file reached twice: two pids, two paths). */
struct work_target *sdt_scanned_find_inode(struct scanned *sc, const struct stat *st);
/*
 * Add the scanned @f (of inode @st, wanted by the @nspecs flags *want, moved) to @sc, or merge
 * the flags into the work target of that inode (@f is then freed; it may be NULL). 0, -ENOMEM.
 */
int sdt_scanned_add(struct scanned *sc, struct sdt_file *f, const struct stat *st, bool **want,
		    size_t nspecs);

/* resolve.c: resolve @specs (by the target's files @tf when not NULL): the targets in *out. */
int sdt_resolve_specs(struct sdt_cache *c, struct sdt_spec *const *specs, size_t nspecs,
		      const struct sdt_resolve_opts *o, struct target_files *tf,
		      struct sdt_target **out, size_t *nout);

#endif
