/* SPDX-License-Identifier: MIT */
/*
 * The user probe object: struct sdt_user_probe and struct sdt_user_probes, their lifecycle and
 * the accessors of include/sdtrace/probe.h. Apart from what makes one (the definition in
 * userprobe.c, the cache's entries) and what uses one (userprobe_resolve.c, userprobe_verify.c,
 * maint.c), which all build on it.
 */
#include <string.h>

#include "cache/userprobe.h"
#include "util/internal.h"
#include "sdtrace/probe.h"

void sdt_userprobe_release(struct sdt_user_probe *p)
{
	size_t i;

	if (!p)
		return;
	free(p->name);
	free(p->group);
	free(p->path);
	free(p->build_id);
	free(p->location);
	for (i = 0; i < p->nargs; i++)
		free(p->args[i]);
	free(p->args);
	free(p->header);
	for (i = 0; i < p->nlines; i++)
		free(p->lines[i]);
	free(p->lines);
	memset(p, 0, sizeof(*p));
}

void sdt_userprobe_array_free(struct sdt_user_probe *p, size_t n)
{
	size_t i;

	for (i = 0; p && i < n; i++)
		sdt_userprobe_release(&p[i]);
	free(p);
}

void sdt_user_probe__free(struct sdt_user_probe *p)
{
	sdt_userprobe_release(p);
	free(p);
}

size_t sdt_user_probes__count(const struct sdt_user_probes *l)
{
	return l ? l->n : 0;
}

const struct sdt_user_probe *sdt_user_probes__probe(const struct sdt_user_probes *l, size_t i)
{
	return l && i < l->n ? &l->p[i] : NULL;
}

void sdt_user_probes__free(struct sdt_user_probes *l)
{
	if (!l)
		return;
	sdt_userprobe_array_free(l->p, l->n);
	free(l);
}

const char *sdt_user_probe__name(const struct sdt_user_probe *p)
{
	return p->name;
}

const char *sdt_user_probe__group(const struct sdt_user_probe *p)
{
	return p->group;
}

const char *sdt_user_probe__path(const struct sdt_user_probe *p)
{
	return p->path;
}

const char *sdt_user_probe__build_id(const struct sdt_user_probe *p)
{
	return p->build_id;
}

const char *sdt_user_probe__location(const struct sdt_user_probe *p)
{
	return p->location;
}

size_t sdt_user_probe__arg_count(const struct sdt_user_probe *p)
{
	return p->nargs;
}

const char *sdt_user_probe__arg(const struct sdt_user_probe *p, size_t i)
{
	return i < p->nargs ? p->args[i] : NULL;
}

bool sdt_user_probe__is_return(const struct sdt_user_probe *p)
{
	return p->is_return;
}

const char *sdt_user_probe__header(const struct sdt_user_probe *p)
{
	return p->header;
}

size_t sdt_user_probe__line_count(const struct sdt_user_probe *p)
{
	return p->nlines;
}

const char *sdt_user_probe__line(const struct sdt_user_probe *p, size_t i)
{
	return i < p->nlines ? p->lines[i] : NULL;
}
