/* SPDX-License-Identifier: MIT */
/*
 * The user probe object: struct sdt_user_probe's lifecycle. Apart from what makes one (the
 * definition in userprobe.c, the cache's entries) and what uses one (userprobe_resolve.c,
 * userprobe_verify.c, maint.c), which all build on it.
 */
#include <string.h>

#include "util/internal.h"
#include "sdtrace/probe.h"

void sdt_user_probe_release(struct sdt_user_probe *p)
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

void sdt_user_probes_free(struct sdt_user_probe *p, size_t n)
{
	size_t i;

	for (i = 0; p && i < n; i++)
		sdt_user_probe_release(&p[i]);
	free(p);
}
