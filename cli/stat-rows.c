/* SPDX-License-Identifier: MIT */
/* The counts of a counting run per provider:event (stat-rows.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stat-rows.h"

int stat_names_add(struct stat_names *sn, const struct sdt_trace_event_desc *d)
{
	uint32_t index = sdt_trace_event_desc__index(d);
	size_t need = (size_t)index + 1;

	if (need > sn->n) {
		char **p = realloc(sn->provider, need * sizeof(*p));
		char **q, **r;

		if (!p)
			return -ENOMEM;
		sn->provider = p;
		q = realloc(sn->name, need * sizeof(*q));
		if (!q)
			return -ENOMEM;
		sn->name = q;
		r = realloc(sn->path, need * sizeof(*r));
		if (!r)
			return -ENOMEM;
		sn->path = r;
		memset(sn->provider + sn->n, 0, (need - sn->n) * sizeof(*p));
		memset(sn->name + sn->n, 0, (need - sn->n) * sizeof(*q));
		memset(sn->path + sn->n, 0, (need - sn->n) * sizeof(*r));
		sn->n = need;
	}
	free(sn->provider[index]);
	free(sn->name[index]);
	free(sn->path[index]);
	sn->provider[index] = strdup(sdt_trace_event_desc__provider(d));
	sn->name[index] = strdup(sdt_trace_event_desc__name(d));
	sn->path[index] = strdup(sdt_trace_event_desc__path(d) ? sdt_trace_event_desc__path(d) : "?");
	return sn->provider[index] && sn->name[index] && sn->path[index] ? 0 : -ENOMEM;
}

void stat_names_free(struct stat_names *sn)
{
	size_t i;

	for (i = 0; i < sn->n; i++) {
		free(sn->provider[i]);
		free(sn->name[i]);
		free(sn->path[i]);
	}
	free(sn->provider);
	free(sn->name);
	free(sn->path);
	sn->provider = sn->name = sn->path = NULL;
	sn->n = 0;
}

static int cmp_row(const void *a, const void *b)
{
	const struct stat_row *x = a, *y = b;
	int c = strcmp(x->provider, y->provider);

	c = c ? c : strcmp(x->name, y->name);
	return c || !x->path || !y->path ? c : strcmp(x->path, y->path);
}

static size_t collect(const struct stat_names *sn, const struct sdt_recorder *rec,
		      struct stat_row *rows, bool paths)
{
	size_t i, j, n = 0;

	for (i = 0; i < sn->n && i < sdt_recorder__event_count(rec); i++) {
		if (!sn->provider[i])
			continue;
		for (j = 0; j < n; j++) {
			if (!strcmp(rows[j].provider, sn->provider[i]) &&
			    !strcmp(rows[j].name, sn->name[i]) &&
			    (!paths || !strcmp(rows[j].path, sn->path[i])))
				break;
		}
		if (j == n) {
			rows[n].provider = sn->provider[i];
			rows[n].name = sn->name[i];
			rows[n].path = paths ? sn->path[i] : NULL;
			rows[n].count = 0;
			n++;
		}
		rows[j].count += sdt_recorder__count(rec, i);
	}
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(rows, n, sizeof(*rows), cmp_row);
	return n;
}

size_t stat_rows_collect(const struct stat_names *sn, const struct sdt_recorder *rec,
			 struct stat_row *rows)
{
	return collect(sn, rec, rows, false);
}

size_t stat_rows_collect_paths(const struct stat_names *sn, const struct sdt_recorder *rec,
			       struct stat_row *rows)
{
	return collect(sn, rec, rows, true);
}
