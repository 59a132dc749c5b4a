/* SPDX-License-Identifier: MIT */
/*
 * The SDT cache: scanned once, stored per build-id in the layout perf uses, found by name through
 * an event index.
 *
 * Root: the directory given to sdt_cache__open(), else $SDTRACE_CACHE_DIR, else $HOME/.debug
 * (perf's default, so that perf and sdtrace share one cache). Layout, byte-compatible with perf:
 *
 *	ROOT/.build-id/57/1d98e0...a0        -> ../../usr/bin/python3.11/571d98e0...a0
 *	ROOT/usr/bin/python3.11/571d...a0/elf           the binary (hard link, or a copy)
 *	ROOT/usr/bin/python3.11/571d...a0/probes        perf's: %sdt_P:E=E, p: lines
 *	ROOT/usr/bin/python3.11/571d...a0/sdtrace.meta  ours: size/mtime/inode, raw args
 *	ROOT/.sdtrace-index.cdb              ours: provider:event -> (build-id, path)
 *
 * Entries are keyed by the real path of the file (symlinks resolved), as perf keys them. Every
 * file is written crash-safely (temporary, fsync, rename); the `.build-id` link is written last,
 * so an entry exists once its link does. The index is rebuilt when it is missing, corrupt, or
 * older than the cache (perf added an entry behind our back): the directories are the truth.
 *
 * Thread safety: one struct sdt_cache may be used by one thread at a time. Several processes may
 * use one cache directory at once: writers of entries share a lock (ROOT/.sdtrace-entries.lock)
 * that a removal takes alone, so a removal waits for the adds under way and the other way round.
 *
 * Example (where a probe is, through the event index):
 *	struct sdt_cache *c;
 *	struct sdt_spec *spec;
 *	struct sdt_targets *t;
 *	if (sdt_cache__open(NULL, NULL, &c) || sdt_spec__parse("%python:gc__start", &spec))
 *		errx(1, "%s", sdt_errmsg());
 *	if (sdt_cache__resolve(c, &spec, 1, NULL, &t) == 0) {
 *		for (size_t i = 0; i < sdt_targets__count(t); i++) {
 *			const struct sdt_target *x = sdt_targets__target(t, i);
 *			printf("%s: %zu sites\n", sdt_target__path(x), sdt_target__site_count(x));
 *		}
 *		sdt_targets__free(t);
 *	}
 *	sdt_spec__free(spec);
 *	sdt_cache__free(c);
 */
#ifndef SDTRACE_CACHE_H
#define SDTRACE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <sdtrace/common.h>
#include <sdtrace/scan.h>
#include <sdtrace/spec.h>
#include <sdtrace/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sdt_cache;

/*
 * Most bytes one entry's `elf` may copy, when it cannot be a hard link (another file system):
 * the bytes of data, holes being copied as holes. A file with more is not cached (-EFBIG).
 */
#define SDT_CACHE_MAX_COPY (1ull << 30)

struct sdt_cache_opts {
	size_t sz;
	/* Do not store the binary as `elf` in new entries (perf's probes work without it). */
	bool no_copy;
	/*
	 * For a reader (list, cache list, check without repair): create nothing. A missing
	 * directory is an empty cache (and stays missing); a cache without an event index gets
	 * none on disk (one is built in memory for this process). What is there is kept up to date
	 * as by any lookup: an existing index out of date is rebuilt, a changed binary re-cached.
	 */
	bool no_create;
};

/*
 * Open (creating the directory if needed, unless no_create) the cache at @root, or the default
 * root when NULL. Returns 0 and *out (free with sdt_cache__free()), or -errno.
 */
SDT_API int sdt_cache__open(const char *root, const struct sdt_cache_opts *opts,
			    struct sdt_cache **out);
SDT_API void sdt_cache__free(struct sdt_cache *c);
/* The root directory; borrowed until sdt_cache__free(). */
SDT_API const char *sdt_cache__root(const struct sdt_cache *c);

/* ---- adding ------------------------------------------------------------------------------ */

enum sdt_cache_result {
	SDT_CACHE_ADDED,     /* a new entry was written */
	SDT_CACHE_UNCHANGED, /* already cached, the file unchanged */
	SDT_CACHE_NOT_ELF,   /* not an ELF file: skipped */
	SDT_CACHE_NO_SDT,    /* an ELF file without SDT notes: not cached */
	SDT_CACHE_SKIPPED, /* not a regular file (FIFO, device, socket): never opened for reading */
	SDT_CACHE_NO_BUILD_ID, /* SDT notes but no build-id: the cache cannot key it (perf neither)
				*/
};

/*
 * Add one file (its real path is cached) and update the index. Returns 0 with *res (may be NULL)
 * or -errno: -ENOENT, -EACCES, -EINVAL (corrupt ELF or a
 * path uprobe_events cannot take).
 */
SDT_API int sdt_cache__add(struct sdt_cache *c, const char *path, enum sdt_cache_result *res);

struct sdt_cache_summary {
	size_t seen;	    /* files looked at */
	size_t elf;	    /* ELF files among them */
	size_t with_sdt;    /* ELF files with SDT notes */
	size_t added;	    /* entries written */
	size_t unchanged;   /* already cached */
	size_t not_elf;	    /* skipped: not ELF */
	size_t skipped;	    /* skipped: not regular files */
	size_t errors;	    /* files that could not be read or cached */
	size_t no_build_id; /* ELF files with SDT notes but no build-id: not cached */
};

/* Called from worker threads, serialised (one call at a time). */
typedef void (*sdt_cache_progress_fn)(const struct sdt_cache_summary *s, const char *path,
				      void *ctx);
/* Called once per failed file with the message, serialised. */
typedef void (*sdt_cache_error_fn)(const char *path, int err, const char *msg, void *ctx);

struct sdt_cache_add_opts {
	size_t sz;
	bool recursive;	      /* walk directories (else a directory is an error) */
	unsigned int workers; /* threads; 0: the number of online CPUs (at most 16) */
	sdt_cache_progress_fn progress;
	sdt_cache_error_fn error;
	void *ctx;
	/*
	 * Walk into directories on other filesystems than the tree's top (mount points), as
	 * `find` without -xdev does. Off by default: `cache add -r /` stays on the root
	 * filesystem. Virtual filesystems (proc, sysfs, cgroup, tracefs, debugfs, ...) are never
	 * walked, either way.
	 */
	bool cross_mounts;
};

/*
 * Add files and directory trees. Directories are walked without following symlinks that lead
 * out of the given trees (a symlink to a file inside is cached under the file's real path), nor
 * into other filesystems (mount points: opts->cross_mounts) nor into virtual ones (proc, sysfs,
 * cgroup, tracefs, debugfs, ...: never), each skipped directory told at SDT_INFO (sdtrace -v);
 * FIFOs and devices are never opened. The index is rebuilt once at the end.
 * Returns 0 when every file was handled (files that failed are counted in ->errors and passed to
 * opts->error), or -errno when the walk itself failed.
 */
SDT_API int sdt_cache__add_paths(struct sdt_cache *c, const char *const *paths, size_t n,
				 const struct sdt_cache_add_opts *opts,
				 struct sdt_cache_summary *summary);

/* ---- entries and maintenance --------------------------------------------------------------- */

enum sdt_entry_state {
	SDT_ENTRY_OK,	   /* the file on disk is the one cached */
	SDT_ENTRY_CHANGED, /* the file changed (another build-id, or size/mtime/inode differ) */
	SDT_ENTRY_GONE,	   /* no file at the path */
	SDT_ENTRY_BROKEN,  /* the entry's probes file is unreadable or malformed */
};

/*
 * One entry of the cache (opaque), as sdt_cache__entries() found it, in a list (opaque) that owns
 * it: every pointer an entry gives is borrowed until sdt_cache_entries__free() of its list.
 */
struct sdt_cache_entry;
struct sdt_cache_entries;

/*
 * Every entry, sorted by path then build-id, in *out (free with sdt_cache_entries__free()). An
 * entry without a `probes` file (perf's cache of a DSO it recorded) has no events and is not
 * broken. 0 or -errno (then *out is NULL).
 */
SDT_API int sdt_cache__entries(struct sdt_cache *c, struct sdt_cache_entries **out);
SDT_API size_t sdt_cache_entries__count(const struct sdt_cache_entries *l);
/* Entry @i (< sdt_cache_entries__count()), or NULL. */
SDT_API const struct sdt_cache_entry *sdt_cache_entries__entry(const struct sdt_cache_entries *l,
							      size_t i);
/* Free the list and its entries (NULL: nothing). */
SDT_API void sdt_cache_entries__free(struct sdt_cache_entries *l);

SDT_API const char *sdt_cache_entry__build_id(const struct sdt_cache_entry *e);
/* The real path of the file it was cached from. */
SDT_API const char *sdt_cache_entry__path(const struct sdt_cache_entry *e);
/* Its provider:event names and their sites (the p: lines of its `%` entries). */
SDT_API size_t sdt_cache_entry__event_count(const struct sdt_cache_entry *e);
SDT_API size_t sdt_cache_entry__site_count(const struct sdt_cache_entry *e);
/* Has it our sdtrace.meta (else perf wrote it)? */
SDT_API bool sdt_cache_entry__ours(const struct sdt_cache_entry *e);
SDT_API enum sdt_entry_state sdt_cache_entry__state(const struct sdt_cache_entry *e);
/* The names of its user probes ('#' entries: sdtrace/probe.h): their count, name @i or NULL. */
SDT_API size_t sdt_cache_entry__probe_count(const struct sdt_cache_entry *e);
SDT_API const char *sdt_cache_entry__probe(const struct sdt_cache_entry *e, size_t i);

/*
 * Remove the entries of a path (every build-id cached for it) or of one build-id (full hex, or a
 * unique prefix of at least 8 digits). Returns the number removed (0: nothing matched) or -errno.
 */
SDT_API int sdt_cache__remove(struct sdt_cache *c, const char *path_or_build_id);

/* Told what maintenance did: one line per entry touched or problem found. */
typedef void (*sdt_cache_report_fn)(const char *msg, void *ctx);

/*
 * Drop entries whose file is gone or changed. Only entries with SDT events or written by sdtrace:
 * perf also caches every DSO it recorded (no `probes` events) for `perf report` of old data,
 * and perf's pseudo-files ([kernel.kallsyms], [vdso]) are never listed or touched.
 * Returns the number dropped or -errno.
 */
SDT_API int sdt_cache__purge(struct sdt_cache *c, sdt_cache_report_fn fn, void *ctx);
/*
 * Rescan files whose size/mtime/inode or build-id changed: a new build replaces the old entry,
 * the same build only refreshes the metadata. Returns the number rescanned or -errno.
 */
SDT_API int sdt_cache__update(struct sdt_cache *c, sdt_cache_report_fn fn, void *ctx);
/*
 * Verify every entry (link target, probes parse, meta matches its build-id, stray temporaries)
 * and the index. With @repair, fix what is wrong (remove broken links and temporaries, rewrite
 * bad entries from their file, rebuild the index). Returns the number of problems found (fixed
 * or not) or -errno.
 */
SDT_API int sdt_cache__check(struct sdt_cache *c, bool repair, sdt_cache_report_fn fn, void *ctx);
/* Rebuild the event index now. */
SDT_API int sdt_cache__reindex(struct sdt_cache *c);

/* ---- finding events ------------------------------------------------------------------------ */

/*
 * One binary to probe (opaque): a file on disk, scanned during sdt_cache__resolve() (so its
 * offsets are those of the file at its path now, never of another build), and the sites of it
 * that matched. Targets come in a struct sdt_targets, which owns them: every pointer a target
 * gives is borrowed until sdt_targets__free() of its list.
 */
struct sdt_target;
/* What one sdt_cache__resolve() found: a list of targets (opaque); sdt_targets__free() frees it. */
struct sdt_targets;

SDT_API size_t sdt_targets__count(const struct sdt_targets *t);
/* Target @i (< sdt_targets__count()), or NULL. */
SDT_API const struct sdt_target *sdt_targets__target(const struct sdt_targets *t, size_t i);
/* Free the list and its targets (NULL: nothing). */
SDT_API void sdt_targets__free(struct sdt_targets *t);

/* The real path of the binary, and its build-id (NULL: it has none). */
SDT_API const char *sdt_target__path(const struct sdt_target *t);
SDT_API const char *sdt_target__build_id(const struct sdt_target *t);
/*
 * The binary as scanned; its sites are those of its SDT notes, then (for user probes,
 * sdtrace/probe.h) those of the probes, provider = the probe's group, name = its name.
 */
SDT_API const struct sdt_file *sdt_target__file(const struct sdt_target *t);
/* The sites that matched: their count, their indices into sdt_file__site() (ascending). */
SDT_API size_t sdt_target__site_count(const struct sdt_target *t);
SDT_API const size_t *sdt_target__sites(const struct sdt_target *t);
/* Matched site @k (< sdt_target__site_count()) as a site of the file, or NULL. */
SDT_API const struct sdt_site *sdt_target__site(const struct sdt_target *t, size_t k);
/* The index into sdt_cache__resolve()'s @specs of the first spec matched site @k matched. */
SDT_API size_t sdt_target__spec(const struct sdt_target *t, size_t k);
/* Did the file differ from its cache entry (the cache was updated)? */
SDT_API bool sdt_target__rescanned(const struct sdt_target *t);
/*
 * User probes: for each matched site k, the names of its arguments (sdt_recorder__add_typed()'s
 * @types), sdt_target__type_count(t, k) entries of types[k]. NULL for a target of SDT events only.
 */
SDT_API struct sdt_arg_type *const *sdt_target__types(const struct sdt_target *t);
SDT_API size_t sdt_target__type_count(const struct sdt_target *t, size_t k);
/*
 * The identity of the file that was scanned (fstat of the descriptor it was read from). A uprobe
 * is placed by path: compare these with a stat() of the path right before registering, so that a
 * file replaced meanwhile is noticed (its offsets are not ours).
 */
SDT_API uint64_t sdt_target__dev(const struct sdt_target *t);
SDT_API uint64_t sdt_target__ino(const struct sdt_target *t);
SDT_API uint64_t sdt_target__size(const struct sdt_target *t);
SDT_API void sdt_target__mtime(const struct sdt_target *t, int64_t *sec, int64_t *nsec);

/*
 * Told about a changed file that was rescanned, (skip_missing) a vanished one, and each entry
 * whose probes file is damaged (a lookup by name misses the events it lost).
 */
typedef void (*sdt_resolve_notify_fn)(const char *msg, void *ctx);

struct sdt_resolve_opts {
	size_t sz;
	/* Return every binary with a matching event instead of failing on ambiguity (listing). */
	bool all_matches;
	/* Skip entries whose file vanished (told through notify) instead of failing. */
	bool skip_missing;
	/* No error when nothing matches (0 targets). */
	bool allow_empty;
	sdt_resolve_notify_fn notify;
	void *ctx;
	/*
	 * sdt_cache__resolve_target(): the target's files only, no look in the cache for an event
	 * none of them has (a caller that resolves again at each exec and each new mapping).
	 */
	bool target_only;
};

/*
 * Resolve @specs to the binaries and sites to probe. A spec naming a binary
 * (/path/bin:%prov:ev) is looked up in that file only, one whose binary is a glob in every cached
 * binary whose path it matches; the others through the event index.
 * A spec naming a user probe (NAME, or GROUP:NAME with GROUP "probe_...", see sdtrace/probe.h)
 * gives the sites of that probe, with their argument names in ->types; a probe whose binary is
 * another build now is an error (-ESTALE).
 * Errors: -ENOENT nothing matches (or a cached file vanished), -ENOTUNIQ a provider:event is in
 * more than one binary (the message lists each candidate and how to name one).
 * On success *out is the list of targets (free with sdt_targets__free()); on failure NULL.
 */
SDT_API int sdt_cache__resolve(struct sdt_cache *c, struct sdt_spec *const *specs, size_t nspecs,
			       const struct sdt_resolve_opts *opts, struct sdt_targets **out);

/*
 * What a resolution by the target resolves against: one of
 *  - @pids: running processes; the files each maps executable (its executable, ld.so, its
 *    libraries, what it dlopen()ed), and its executable's DT_NEEDED closure that it does not map
 *    yet (sdt_proc__exec_files(): at an exec stop, the libraries about to be loaded), read
 *    through /proc/PID/root;
 *  - @argv: a command not started yet; its executable as execvp() finds it (through $PATH of
 *    @envp), its interpreter and its DT_NEEDED closure (sdt_command__files()).
 */
struct sdt_resolve_target {
	size_t sz;
	const pid_t *pids;
	size_t npids;
	char *const *argv;
	char *const *envp; /* the command's environment (NULL: ours): PATH, LD_LIBRARY_PATH */
};

/*
 * Resolve @specs against the files @target runs. A spec without a binary, or whose binary is a
 * glob ("*:%hotspot:thread__start", "/opt/app-?/app:%app:tick"), is matched in those files only:
 * two binaries of the target with one event are both probed (no -ENOTUNIQ), binaries the target
 * does not run are never candidates. A spec naming its binary is resolved as by
 * sdt_cache__resolve(). The targets' paths are the paths the target sees when they reach the same
 * file from here, else /proc/PID/root/PATH or /proc/PID/map_files/RANGE (a process in another
 * mount namespace, a deleted file): a uprobe placed there is on the inode the target runs.
 * The cache is an accelerator: each file's notes are counted and its build-id read; a build it
 * holds whose events match none of the specs is not decoded. Nothing is written to the cache.
 * A spec without a binary that none of the target's files has (a library the target will
 * dlopen(), as java does libjvm.so) is looked up in the cache: the cached binary with the event
 * that shares the most leading directories with the target's executable is probed (notify says
 * so); two as near are -ENOTUNIQ, listing them. Not with opts->target_only.
 * Errors as sdt_cache__resolve(); -ENOENT for a spec that matches nothing names what the target
 * runs (the files with SDT notes, how many without); -ESRCH, -ENOENT for the target itself.
 */
SDT_API int sdt_cache__resolve_target(struct sdt_cache *c, struct sdt_spec *const *specs,
				      size_t nspecs, const struct sdt_resolve_target *target,
				      const struct sdt_resolve_opts *opts, struct sdt_targets **out);

/*
 * Every SDT event name of the cache ("python:gc__start"), from its event index: sorted, each
 * once, for a "did you mean" (sdt_spec__suggest()). 0 with *names (an array of *n strings;
 * free with sdt_cache_names__free()), or -errno. An empty cache has none (*n = 0).
 */
SDT_API int sdt_cache__event_names(struct sdt_cache *c, char ***names, size_t *n);
SDT_API void sdt_cache_names__free(char **names, size_t n);

#ifdef __cplusplus
}
#endif

#endif
