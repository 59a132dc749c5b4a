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
		char **q;

		if (!p)
			return -ENOMEM;
		sn->provider = p;
		q = realloc(sn->name, need * sizeof(*q));
		if (!q)
			return -ENOMEM;
		sn->name = q;
		memset(sn->provider + sn->n, 0, (need - sn->n) * sizeof(*p));
		memset(sn->name + sn->n, 0, (need - sn->n) * sizeof(*q));
		sn->n = need;
	}
	free(sn->provider[index]);
	free(sn->name[index]);
	sn->provider[index] = strdup(sdt_trace_event_desc__provider(d));
	sn->name[index] = strdup(sdt_trace_event_desc__name(d));
	return sn->provider[index] && sn->name[index] ? 0 : -ENOMEM;
}

void stat_names_free(struct stat_names *sn)
{
	size_t i;

	for (i = 0; i < sn->n; i++) {
		free(sn->provider[i]);
		free(sn->name[i]);
	}
	free(sn->provider);
	free(sn->name);
	sn->provider = sn->name = NULL;
	sn->n = 0;
}

static int cmp_row(const void *a, const void *b)
{
	const struct stat_row *x = a, *y = b;
	int c = strcmp(x->provider, y->provider);

	return c ? c : strcmp(x->name, y->name);
}

size_t stat_rows_collect(const struct stat_names *sn, const struct sdt_recorder *rec,
			 struct stat_row *rows)
{
	size_t i, j, n = 0;

	for (i = 0; i < sn->n && i < sdt_recorder__event_count(rec); i++) {
		if (!sn->provider[i])
			continue;
		for (j = 0; j < n; j++) {
			if (!strcmp(rows[j].provider, sn->provider[i]) &&
			    !strcmp(rows[j].name, sn->name[i]))
				break;
		}
		if (j == n) {
			rows[n].provider = sn->provider[i];
			rows[n].name = sn->name[i];
			rows[n].count = 0;
			n++;
		}
		rows[j].count += sdt_recorder__count(rec, i);
	}
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(rows, n, sizeof(*rows), cmp_row);
	return n;
}
