/* SPDX-License-Identifier: MIT */
/*
 * sdt_recorder__add_specs()'s late-file policy (the recorder's opts.on_file): a file a
 * followed process exec'd or mapped gets the sites the specs match. The specs as they apply
 * then: whatever binary a spec named is dropped (a followed process that runs another file
 * with its event is probed there too: a shim that execs another python than the -x one, a copy
 * at a new inode); a glob for the binary is kept (it selects among the files). A file is
 * resolved as part of its process (its mappings, at an exec stop the libraries ld.so is about
 * to load), once per inode; a file whose process is gone is matched alone.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "record/specs.h"
#include "sdtrace/cache.h"
#include "sdtrace/proc.h"
#include "sdtrace/record.h"
#include "sdtrace/scan.h"
#include "sdtrace/spec.h"
#include "util/internal.h"

/* The specs for the files met during the run, parsed once. 0 or -ENOMEM. */
static int late_specs(struct sdt_rec_specs *s)
{
	size_t i;

	if (s->late_specs)
		return 0;
	s->late_specs = calloc(s->ntexts ? s->ntexts : 1, sizeof(*s->late_specs));
	if (!s->late_specs)
		return -ENOMEM;
	for (i = 0; i < s->ntexts; i++) {
		const char *text = s->texts[i];
		struct sdt_spec *sp = NULL;
		const char *path;

		if (sdt_spec__parse(text, &sp))
			continue;
		path = sdt_spec__path(sp);
		if (path && !strpbrk(path, "*?[") && !strncmp(text, path, strlen(path)) &&
		    text[strlen(path)] == ':') {
			size_t skip = strlen(path) + 1; /* path is the spec's: freed below */

			sdt_spec__free(sp);
			sp = NULL;
			if (sdt_spec__parse(text + skip, &sp))
				continue;
		}
		s->late_specs[s->nlate_specs++] = sp;
	}
	return 0;
}

static struct rec_late_file *late_find(struct sdt_rec_specs *s, uint64_t dev, uint64_t ino)
{
	size_t i;

	for (i = 0; i < s->nlate_files; i++)
		if (s->late_files[i].dev == dev && s->late_files[i].ino == ino)
			return &s->late_files[i];
	return NULL;
}

static int late_note(struct sdt_rec_specs *s, uint64_t dev, uint64_t ino,
		     const struct sdt_target *t)
{
	struct rec_late_file *lf;

	if (late_find(s, dev, ino))
		return 0;
	lf = realloc(s->late_files, (s->nlate_files + 1) * sizeof(*lf));
	if (!lf)
		return -ENOMEM;
	s->late_files = lf;
	lf += s->nlate_files++;
	lf->dev = dev;
	lf->ino = ino;
	lf->t = t;
	lf->handed = false;
	return 0;
}

/*
 * Process @pid's files resolved by the target, the target's files only: each file's answer
 * (its target, or none) noted in s->late_files, so that the later mappings of the process (its
 * libraries' MMAP2 records) are answered without another look. The files are listed before the
 * resolution: a file mapped between the two is not marked "nothing" without having been looked
 * at. 0 or -ENOMEM.
 */
static int late_resolve(struct sdt_rec_specs *s, pid_t pid)
{
	SDT_OPTS(sdt_resolve_opts, ro, .allow_empty = true, .target_only = true);
	SDT_OPTS(sdt_resolve_target, tg, .pids = &pid, .npids = 1);
	struct sdt_proc_file *files = NULL;
	struct sdt_targets *t = NULL, **nt;
	size_t nfiles = 0, i;
	struct stat st;
	int err;

	if ((err = late_specs(s)))
		return err;
	if (!s->late_cache && sdt_cache__open(s->cache_dir, NULL, &s->late_cache))
		return 0; /* told at the start already; nothing more to arm */
	if (sdt_proc__exec_files(pid, &files, &nfiles))
		return 0; /* gone */
	err = s->nlate_specs ? sdt_cache__resolve_target(s->late_cache, s->late_specs,
							 s->nlate_specs, &tg, &ro, &t)
			     : 0;
	if (err == -ENOMEM)
		goto out;
	err = 0;
	for (i = 0; t && i < sdt_targets__count(t) && !err; i++) {
		const struct sdt_target *one = sdt_targets__target(t, i);

		err = late_note(s, sdt_target__dev(one), sdt_target__ino(one), one);
	}
	for (i = 0; i < nfiles && !err; i++)
		if (!stat(files[i].open_path, &st))
			err = late_note(s, st.st_dev, st.st_ino, NULL);
	if (!err && t && sdt_targets__count(t)) {
		nt = realloc(s->late_targets, (s->nlate_targets + 1) * sizeof(*nt));
		if (!nt) {
			err = -ENOMEM;
			goto out;
		}
		s->late_targets = nt;
		s->late_targets[s->nlate_targets++] = t;
		t = NULL;
	}
out:
	sdt_targets__free(t);
	sdt_proc_files__free(files, nfiles);
	return err;
}

/* Does @spec's glob for the binary (if it has one) name @path (maybe /proc/PID/root/...)? */
static bool late_path_ok(const struct sdt_spec *spec, const char *path)
{
	const char *glob = sdt_spec__path(spec), *in = path;

	if (!glob)
		return true;
	if (!strncmp(path, "/proc/", 6) && (in = strstr(path + 6, "/root/")))
		in += 5;
	else
		in = path;
	return !fnmatch(glob, path, 0) || !fnmatch(glob, in, 0);
}

/* Adding a file met during the run failed: told, and the recording goes on without it. */
static void late_failed(const struct sdt_rec_specs *s)
{
	if (s->o.late_error)
		s->o.late_error(sdt_errmsg(), s->o.ctx);
}

/*
 * A file whose process could not be asked (it exited already: a short program started and
 * gone before its mapping was read): the specs matched against the file alone, its sites that
 * match handed to the recorder, the file kept until the recorder is freed. Its inode is armed
 * for the next process that maps it. 0 or -ENOMEM.
 */
static int late_alone(struct sdt_recorder *r, struct sdt_rec_specs *s, const char *open_path)
{
	SDT_OPTS(sdt_scan_opts, so);
	struct sdt_file *f = NULL, **nf;
	size_t n = 0, k, j, ns, *sites = NULL, *spec_of = NULL;
	int err = 0;

	if (sdt_file__open(open_path, &so, &f))
		return 0; /* not an ELF file we read: nothing to arm */
	ns = sdt_file__site_count(f);
	sites = calloc(ns ? ns : 1, sizeof(*sites));
	spec_of = calloc(ns ? ns : 1, sizeof(*spec_of));
	nf = realloc(s->late_own, (s->nlate_own + 1) * sizeof(*nf));
	if (!sites || !spec_of || !nf) {
		free(nf == s->late_own ? NULL : nf);
		err = -ENOMEM;
		goto out;
	}
	s->late_own = nf;
	for (k = 0; k < ns; k++) {
		const struct sdt_site *st = sdt_file__site(f, k);

		for (j = 0; j < s->nlate_specs; j++) {
			if (sdt_spec__match(s->late_specs[j], sdt_site__provider(st),
					    sdt_site__name(st)) &&
			    late_path_ok(s->late_specs[j], open_path)) {
				sites[n] = k;
				spec_of[n++] = j;
				break;
			}
		}
	}
	if (n) {
		s->late_own[s->nlate_own++] = f;
		if (sdt_rec_specs_add_sites(r, s, s->late_specs, s->nlate_specs, f, sites, spec_of,
					    n, NULL))
			late_failed(s);
		f = NULL;
	}
out:
	sdt_file__free(f);
	free(sites);
	free(spec_of);
	return err;
}

int sdt_rec_specs_on_file(void *ctx, struct sdt_recorder *r, pid_t pid, const char *open_path,
			  const char *build_id)
{
	struct sdt_rec_specs *s = ctx;
	struct rec_late_file *lf;
	struct stat st;
	int err;

	if (stat(open_path, &st))
		return 0; /* gone */
	/* system-wide: another user's binary with the same provider:event only if allowed */
	err = sdt_rec_specs_trust_late(r, s, open_path, &st, build_id);
	if (err <= 0)
		return err;
	lf = late_find(s, st.st_dev, st.st_ino);
	if (!lf) {
		err = late_resolve(s, pid);
		if (err)
			return err;
		lf = late_find(s, st.st_dev, st.st_ino);
	}
	if (!lf) {
		/* its process was not asked (gone), or did not list it: the file alone */
		err = late_specs(s);
		if (!err)
			err = late_note(s, st.st_dev, st.st_ino, NULL);
		return err ? err : late_alone(r, s, open_path);
	}
	if (!lf->t || lf->handed)
		return 0;
	lf->handed = true;
	if (sdt_rec_specs_add_target(r, s, s->late_specs, s->nlate_specs, lf->t))
		late_failed(s);
	return 0;
}

void sdt_rec_specs_late_release(struct sdt_rec_specs *s)
{
	size_t i;

	for (i = 0; i < s->nlate_targets; i++)
		sdt_targets__free(s->late_targets[i]);
	free(s->late_targets);
	free(s->late_files);
	for (i = 0; i < s->nlate_own; i++)
		sdt_file__free(s->late_own[i]);
	free(s->late_own);
	for (i = 0; i < s->nlate_specs; i++)
		sdt_spec__free(s->late_specs[i]);
	free(s->late_specs);
	sdt_cache__free(s->late_cache);
}
