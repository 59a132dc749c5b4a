/* SPDX-License-Identifier: MIT */
/*
 * What a lookup that found nothing says next: the nearest event names (sdt_spec__suggest()) of
 * the binary the spec named, else of the cache's index; else whether the provider is cached at
 * all, and only when nothing is close, how to add binaries. See suggest.h.
 */
#include <stdio.h>
#include <string.h>

#include "cache/index.h"
#include "cache/suggest.h"
#include "util/internal.h"

/* "PROV:EVENT" of every site of @files, each once (sorted). */
static int file_names(const struct sdt_file *const *files, size_t nfiles, char ***out, size_t *n)
{
	char **v = NULL;
	size_t cap = 0, k = 0, i, j;

	*out = NULL;
	*n = 0;
	for (i = 0; i < nfiles; i++) {
		for (j = 0; j < sdt_file__site_count(files[i]); j++) {
			const struct sdt_site *s = sdt_file__site(files[i], j);
			char *name = sdt_asprintf("%s:%s", sdt_site__provider(s), sdt_site__name(s));

			if (!name || sdt_grow((void **)&v, &cap, k + 1, sizeof(*v))) {
				free(name);
				sdt_cache_names__free(v, k);
				return -ENOMEM;
			}
			v[k++] = name;
		}
	}
	*out = v;
	*n = k;
	return 0;
}

static int found(const char *val, size_t len, void *ctx)
{
	(void)val;
	(void)len;
	*(bool *)ctx = true;
	return 1;
}

/* Does the index know provider @prov (perf's "sdt_" group prefix stripped too)? */
static bool has_provider(struct sdt_index *idx, const char *prov)
{
	char key[SDT_MAX_EVENT_NAME + 8];
	bool yes = false;

	if (strpbrk(prov, "*?["))
		return false;
	snprintf(key, sizeof(key), "p:%s", prov);
	sdt_index_find(idx, key, found, &yes);
	if (!yes && !strncmp(prov, "sdt_", 4)) {
		snprintf(key, sizeof(key), "p:%s", prov + 4);
		sdt_index_find(idx, key, found, &yes);
	}
	return yes;
}

/* The names of @files, then those of @idx (when not NULL) after them: one array. */
static int both_names(const struct sdt_file *const *files, size_t nfiles, struct sdt_index *idx,
		      char ***out, size_t *n)
{
	char **a = NULL, **b = NULL, **v;
	size_t na = 0, nb = 0;
	int err;

	*out = NULL;
	*n = 0;
	err = file_names(files, nfiles, &a, &na);
	if (!err && idx)
		err = sdt_index_event_names(idx, &b, &nb);
	if (!err && nb) {
		v = realloc(a, (na + nb) * sizeof(*v));
		if (!v) {
			err = -ENOMEM;
		} else {
			memcpy(v + na, b, nb * sizeof(*v));
			free(b);
			b = NULL;
			a = v;
			na += nb;
			nb = 0;
		}
	}
	if (err) {
		sdt_cache_names__free(a, na);
		sdt_cache_names__free(b, nb);
		return err;
	}
	*out = a;
	*n = na;
	return 0;
}

char *sdt_miss_near(const struct sdt_spec *spec, struct sdt_index *idx,
		    const struct sdt_file *const *files, size_t nfiles)
{
	char **names = NULL, *near = NULL, *hint;
	size_t n = 0;
	int err;

	err = both_names(files, nfiles, idx, &names, &n);
	if (!err)
		err = sdt_spec__suggest(spec, (const char *const *)names, n, &near);
	sdt_cache_names__free(names, n);
	if (err == -ENOMEM)
		return NULL;
	hint = near ? sdt_asprintf("; did you mean %s?", near) : sdt_strdup("");
	free(near);
	return hint;
}

char *sdt_miss_hint(const struct sdt_spec *spec, struct sdt_index *idx,
		    const struct sdt_file *const *files, size_t nfiles)
{
	const char *path = sdt_spec__path(spec), *prov = sdt_spec__provider(spec);
	char **names = NULL, *near = NULL, *hint;
	size_t n = 0;
	int err;

	if (path || !idx)
		err = file_names(files, nfiles, &names, &n);
	else
		err = sdt_index_event_names(idx, &names, &n);
	if (!err)
		err = sdt_spec__suggest(spec, (const char *const *)names, n, &near);
	sdt_cache_names__free(names, n);
	if (err == -ENOMEM)
		return NULL;
	if (near)
		hint = sdt_asprintf("; did you mean %s?", near);
	else if (path)
		hint = sdt_asprintf(" ('sdtrace list -x %s' lists its events)", path);
	else if (idx && has_provider(idx, prov))
		hint = sdt_asprintf(" (it has provider '%s': 'sdtrace list %%%s:*' lists its events)",
				    prov, prov);
	else
		hint = sdt_strdup(" (add binaries with 'sdtrace cache add PATH')");
	free(near);
	return hint;
}
