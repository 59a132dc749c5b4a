/* SPDX-License-Identifier: MIT */
/*
 * The target model: struct sdt_target (a binary to probe and its matching sites) and struct
 * sdt_targets (a resolution's list), their lifecycle and the accessors of include/sdtrace/cache.h.
 * Apart from its two producers, the SDT lookup (resolve.c) and the user probes
 * (userprobe_resolve.c), so that both build on it and neither calls the other for it.
 */
#include <string.h>

#include "cache/target.h"
#include "scan/file.h"
#include "util/internal.h"

void sdt_target_release(struct sdt_target *t)
{
	size_t k;

	free(t->path);
	free(t->build_id);
	sdt_file__free(t->file);
	for (k = 0; t->types && k < t->nsites; k++)
		sdt_arg_types__free(t->types[k], t->ntypes[k]);
	free(t->types);
	free(t->ntypes);
	free(t->sites);
	free(t->spec);
	memset(t, 0, sizeof(*t));
}

void sdt_target_array_free(struct sdt_target *t, size_t n)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < n; i++)
		sdt_target_release(&t[i]);
	free(t);
}

int sdt_targets_wrap(struct sdt_target *t, size_t n, struct sdt_targets **out)
{
	struct sdt_targets *l = calloc(1, sizeof(*l));

	*out = NULL;
	if (!l) {
		sdt_target_array_free(t, n);
		return sdt_err(-ENOMEM, "out of memory");
	}
	l->t = t;
	l->n = t ? n : 0;
	*out = l;
	return 0;
}

void sdt_targets__free(struct sdt_targets *l)
{
	if (!l)
		return;
	sdt_target_array_free(l->t, l->n);
	free(l);
}

size_t sdt_targets__count(const struct sdt_targets *l)
{
	return l ? l->n : 0;
}

const struct sdt_target *sdt_targets__target(const struct sdt_targets *l, size_t i)
{
	return l && i < l->n ? &l->t[i] : NULL;
}

const char *sdt_target__path(const struct sdt_target *t)
{
	return t->path;
}

const char *sdt_target__build_id(const struct sdt_target *t)
{
	return t->build_id;
}

const struct sdt_file *sdt_target__file(const struct sdt_target *t)
{
	return t->file;
}

size_t sdt_target__site_count(const struct sdt_target *t)
{
	return t->nsites;
}

const size_t *sdt_target__sites(const struct sdt_target *t)
{
	return t->sites;
}

const struct sdt_site *sdt_target__site(const struct sdt_target *t, size_t k)
{
	return k < t->nsites ? sdt_file__site(t->file, t->sites[k]) : NULL;
}

size_t sdt_target__spec(const struct sdt_target *t, size_t k)
{
	return k < t->nsites ? t->spec[k] : SIZE_MAX;
}

bool sdt_target__rescanned(const struct sdt_target *t)
{
	return t->rescanned;
}

struct sdt_arg_type *const *sdt_target__types(const struct sdt_target *t)
{
	return t->types;
}

size_t sdt_target__type_count(const struct sdt_target *t, size_t k)
{
	return t->types && k < t->nsites ? t->ntypes[k] : 0;
}

uint64_t sdt_target__dev(const struct sdt_target *t)
{
	return t->dev;
}

uint64_t sdt_target__ino(const struct sdt_target *t)
{
	return t->ino;
}

uint64_t sdt_target__size(const struct sdt_target *t)
{
	return t->size;
}

void sdt_target__mtime(const struct sdt_target *t, int64_t *sec, int64_t *nsec)
{
	*sec = t->mtime_sec;
	*nsec = t->mtime_nsec;
}
