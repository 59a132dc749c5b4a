/* SPDX-License-Identifier: MIT */
/*
 * Recording by event spec: the sites of `[PATH:]%provider:event` (globs in any part) found and
 * added to a recorder in one call, as libbpf's bpf_program__attach_usdt() finds its binary; and
 * the files the targets exec or map during the run armed by the same specs.
 *
 * Where a spec without a binary is looked up: with a command or processes (the recorder's
 * opts.argv, opts.pids), in the files the target runs (its executable, interpreter and the
 * libraries ld.so loads for it, or what the processes map), cached or not; system-wide, in the
 * cache. A spec naming a binary is scanned and cached first. With opts.paths (`-x`), a spec
 * without a binary is looked up in each of those files and must match in at least one.
 *
 * Following (unless the recorder's opts.no_follow): when the caller gave no opts.on_file, the
 * recorder gets this one. A file a followed process execs or maps is resolved as part of that
 * process (once per inode), and its sites that the specs match are armed; the binary a spec
 * named is dropped for those files (a shim that execs another python than the -x one, a copy
 * at another inode), a glob for the binary is kept.
 *
 * Example (a command's %example:job__start, its hits counted):
 *	SDT_OPTS(sdt_recorder_opts, o, .argv = argv, .count_only = true);
 *	const char *spec = "%example:job__start";
 *	struct sdt_recorder *r;
 *	if (sdt_recorder__new(&o, &r) || sdt_recorder__add_specs(r, &spec, 1, NULL) < 0 ||
 *	    sdt_recorder__run(r, NULL))
 *		fprintf(stderr, "%s\n", sdt_errmsg());
 *	sdt_recorder__free(r);
 */
#ifndef SDTRACE_RECORD_SPECS_H
#define SDTRACE_RECORD_SPECS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <sdtrace/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sdt_recorder;
struct sdt_types;

/* A message for the caller to show: a warning, or (late_error) a file met during the run that
 * could not be added (the recording goes on without it). */
typedef void (*sdt_specs_notify_fn)(const char *msg, void *ctx);

struct sdt_specs_opts {
	size_t sz;
	/* The cache (sdt_cache__open()'s root; NULL: its default). */
	const char *cache_dir;
	/* Look the specs without a binary up in these files (`-x`); copied. */
	const char *const *paths;
	size_t npaths;
	/*
	 * Names and types of the arguments where a spec has no "(name:type, ...)" list
	 * (sdt_types__resolve()); NULL: the notes' own. Borrowed: it must outlive the recorder.
	 */
	const struct sdt_types *types;
	/* A changed file rescanned, a vanished one, a damaged probes file (may be NULL). */
	sdt_specs_notify_fn notify;
	/* A file met during the run whose sites could not be added (may be NULL). */
	sdt_specs_notify_fn late_error;
	void *ctx;
	/*
	 * System-wide (the recorder's opts.system_wide), where any local user may start a program
	 * whose notes name the same provider:event: with @owner_only, only the files owned by uid
	 * @owner are armed (at the start and during the run). And with @paths, a file met during
	 * the run is armed only when it has the build-id of one of them (an upgrade or a copy,
	 * never another binary). A file passed over is said at SDT_INFO.
	 */
	bool owner_only;
	uid_t owner;
};

/* sdt_recorder__add_specs() found nothing yet: the command is a launcher (below). */
#define SDT_SPECS_DEFERRED 1

/*
 * Find the sites of @specs[0..n) (event spec texts, spec.h) for @r's target and add them with
 * their argument names and types; install the late-file policy (above). Once per recorder,
 * before sdt_recorder__run(). Returns 0; SDT_SPECS_DEFERRED when nothing matched but the
 * command (followed) has no SDT notes of its own (a script, env, sh -c: what it execs is looked
 * up then); or -errno with the message set: -EINVAL a spec that does not parse (the message is
 * sdt_spec__parse()'s), -ENOENT nothing matches (with "did you mean" when a name is near),
 * -ENOTUNIQ an event in two cached binaries, -EALREADY a second call, the errors of
 * sdt_cache__add(), sdt_cache__resolve() and sdt_recorder__add_typed().
 */
SDT_API int sdt_recorder__add_specs(struct sdt_recorder *r, const char *const *specs, size_t n,
				    const struct sdt_specs_opts *opts);

#ifdef __cplusplus
}
#endif

#endif
