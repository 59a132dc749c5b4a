/* SPDX-License-Identifier: MIT */
/*
 * sdt_recorder__add_specs() (sdtrace/record_specs.h): the specs, what they resolved to at the
 * start (specs_start.c), and the answers for the files met during the run (specs_late.c). Owned by
 * the recorder (its ->ext), freed with it, after its sites: the files they point into.
 */
#ifndef SDTRACE_RECORD_SPECS_INTERNAL_H
#define SDTRACE_RECORD_SPECS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "sdtrace/record_specs.h"

struct sdt_arg_type;
struct sdt_cache;
struct sdt_file;
struct sdt_recorder;
struct sdt_spec;
struct sdt_target;
struct sdt_targets;

/* A file looked at during the run (device, inode): its target (borrowed), or none. */
struct rec_late_file {
	uint64_t dev, ino;
	const struct sdt_target *t;
	bool handed; /* its sites were given to the recorder */
};

struct sdt_rec_specs {
	struct sdt_specs_opts o; /* paths and cache_dir: copies (below) */
	char *cache_dir;
	char **paths;
	size_t npaths;
	char **texts; /* the specs as given */
	size_t ntexts;
	/* the start: parsed (with paths, one per spec and path), and what they resolved to */
	struct sdt_spec **specs;
	size_t nspecs;
	struct sdt_targets *targets;
	/* the run: the specs for files met then, and every such file's answer */
	struct sdt_cache *late_cache;
	struct sdt_targets **late_targets; /* their files must outlive the recorder */
	size_t nlate_targets;
	struct sdt_spec **late_specs;
	size_t nlate_specs;
	struct rec_late_file *late_files;
	size_t nlate_files;
	struct sdt_file **late_own; /* files read alone (their process was gone) */
	size_t nlate_own;
	/* system-wide with paths: their build-ids (specs_trust.c), read at the first late file */
	char **x_ids;
	size_t nx_ids;
	bool x_ids_read;
};

/*
 * Add @f's sites @sites[0..n) to @r with their names and types: @user_types when given (a user
 * probe's), else per site the types of spec @spec_of[k] (of @specs[0..nspecs)) or the provider
 * files'. 0 or -errno with the message set.
 */
int sdt_rec_specs_add_sites(struct sdt_recorder *r, const struct sdt_rec_specs *s,
			    struct sdt_spec *const *specs, size_t nspecs, const struct sdt_file *f,
			    const size_t *sites, const size_t *spec_of, size_t n,
			    struct sdt_arg_type *const *user_types);
/* sdt_rec_specs_add_sites() for target @t, each site's spec as the resolution found it. */
int sdt_rec_specs_add_target(struct sdt_recorder *r, const struct sdt_rec_specs *s,
			     struct sdt_spec *const *specs, size_t nspecs,
			     const struct sdt_target *t);
/*
 * specs_start.c: parse s->texts into s->specs and resolve them to s->targets for the target
 * (@argv or @pids; neither: system-wide). 0, SDT_SPECS_DEFERRED, or -errno.
 */
int sdt_rec_specs_resolve(struct sdt_rec_specs *s, char *const *argv, const pid_t *pids,
			  size_t npids, bool follow);
/* specs_late.c: the recorder's opts.on_file, @ctx the struct sdt_rec_specs. */
int sdt_rec_specs_on_file(void *ctx, struct sdt_recorder *r, pid_t pid, const char *open_path,
			  const char *build_id);
/* Frees what the run added (specs_late.c). */
void sdt_rec_specs_late_release(struct sdt_rec_specs *s);
/* specs.c: the recorder's ->ext_free; takes NULL. */
void sdt_rec_specs_free(void *ext);

/*
 * specs_trust.c: may file @path (@st its stat) be armed by @r? Only system-wide is anything
 * refused: with owner_only, a file another uid owns (said at SDT_INFO).
 */
bool sdt_rec_specs_owner_ok(const struct sdt_recorder *r, const struct sdt_rec_specs *s,
			    const char *path, const struct stat *st);
/*
 * The same for a file met during the run (@build_id its hex build-id, or NULL), which with
 * paths must also have one of their build-ids. 1 yes, 0 no (said at SDT_INFO), -ENOMEM.
 */
int sdt_rec_specs_trust_late(const struct sdt_recorder *r, struct sdt_rec_specs *s,
			     const char *path, const struct stat *st, const char *build_id);
void sdt_rec_specs_trust_release(struct sdt_rec_specs *s);

#endif
