/* SPDX-License-Identifier: MIT */
/*
 * sdt_recorder__add_specs() (sdtrace/record_specs.h): recording by event spec in one call. The
 * specs resolved at the start (specs_start.c), their sites added with names and types
 * (specs_sites.c), and the late-file policy installed as the recorder's opts.on_file
 * (specs_late.c). The state is the recorder's, freed with it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/recorder.h"
#include "record/specs.h"
#include "sdtrace/cache.h"
#include "util/internal.h"

/* Copy @v[0..n) into *@out (strings duplicated). */
static int copy_strings(char ***out, const char *const *v, size_t n)
{
	size_t i;

	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!((*out)[i] = sdt_strdup(v[i])))
			return -ENOMEM;
	return 0;
}

int sdt_recorder__add_specs(struct sdt_recorder *r, const char *const *specs, size_t n,
			    const struct sdt_specs_opts *opts)
{
	struct sdt_rec_specs *s;
	size_t i;
	int err, ret;

	if (!r || (n && !specs))
		return sdt_err(-EINVAL, "sdt_recorder__add_specs: no recorder or no specs");
	if (r->ext)
		return sdt_err(-EALREADY, "sdt_recorder__add_specs: called twice");
	s = calloc(1, sizeof(*s));
	if (!s)
		return sdt_err(-ENOMEM, "out of memory");
	/* freed with the recorder (after its sites: they point into its files), whatever
	 * happens below */
	r->ext = s;
	r->ext_free = sdt_rec_specs_free;
	err = SDT_OPTS_COPY(&s->o, opts, sdt_specs_opts);
	if (err)
		return err;
	s->ntexts = n;
	s->npaths = s->o.npaths;
	if (copy_strings(&s->texts, specs, n) || copy_strings(&s->paths, s->o.paths, s->npaths) ||
	    (s->o.cache_dir && !(s->cache_dir = sdt_strdup(s->o.cache_dir))))
		return sdt_err(-ENOMEM, "out of memory");
	s->o.paths = NULL;
	s->o.cache_dir = NULL;
	ret = sdt_rec_specs_resolve(s, r->o.argv, r->o.pids, r->o.npids, !r->o.no_follow);
	if (ret < 0)
		return ret;
	if (!r->o.no_follow && !r->o.on_file) {
		r->o.on_file = sdt_rec_specs_on_file;
		r->o.on_file_ctx = s;
	}
	for (i = 0; i < sdt_targets__count(s->targets); i++) {
		err = sdt_rec_specs_add_target(r, s, s->specs, s->nspecs,
					       sdt_targets__target(s->targets, i));
		if (err)
			return err;
	}
	return ret;
}

void sdt_rec_specs_free(void *ext)
{
	struct sdt_rec_specs *s = ext;
	size_t i;

	if (!s)
		return;
	sdt_rec_specs_late_release(s);
	sdt_rec_specs_trust_release(s);
	sdt_targets__free(s->targets);
	for (i = 0; s->specs && i < s->nspecs; i++)
		sdt_spec__free(s->specs[i]);
	free(s->specs);
	for (i = 0; s->texts && i < s->ntexts; i++)
		free(s->texts[i]);
	free(s->texts);
	for (i = 0; s->paths && i < s->npaths; i++)
		free(s->paths[i]);
	free(s->paths);
	free(s->cache_dir);
	free(s);
}
