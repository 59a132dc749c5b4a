/* SPDX-License-Identifier: MIT */
/* sdtrace list without -x/-p: the events of the cache, found through its event index. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "list.h"
#include "sdtrace/sdtrace.h"

static void notify(const char *msg, void *ctx)
{
	(void)ctx;
	cli_warn("%s", msg);
}

struct row {
	const struct sdt_target *t;
	size_t i; /* index into t->sites */
};

static int cmp_row(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	const struct sdt_site *x = sdt_file__site(a->t->file, a->t->sites[a->i]);
	const struct sdt_site *y = sdt_file__site(b->t->file, b->t->sites[b->i]);
	int c = strcmp(a->t->path, b->t->path);

	if (!c)
		c = strcmp(a->t->build_id ? a->t->build_id : "",
			   b->t->build_id ? b->t->build_id : "");
	if (!c)
		c = strcmp(sdt_site__provider(x), sdt_site__provider(y));
	if (!c)
		c = strcmp(sdt_site__name(x), sdt_site__name(y));
	if (!c)
		c = a->t->sites[a->i] < b->t->sites[b->i] ? -1 : 1;
	return c;
}

/* Site @k of target @t, with the argument names of a user probe. */
static struct list_site row_site(const struct sdt_target *t, size_t k)
{
	return (struct list_site){
	    .path = t->path,
	    .build_id = t->build_id,
	    .f = t->file,
	    .s = sdt_file__site(t->file, t->sites[k]),
	    .probe_types = t->types ? t->types[k] : NULL,
	    .nprobe_types = t->types ? t->ntypes[k] : 0,
	};
}

int list_cache(struct list_opts *o)
{
	struct sdt_spec **specs = o->specs;
	size_t nspecs = o->nspecs;
	SDT_OPTS(sdt_resolve_opts, ro, .all_matches = true, .skip_missing = true,
		 .allow_empty = true, .notify = notify);
	struct sdt_spec *all = NULL;
	struct sdt_target *t = NULL;
	struct sdt_cache *c = NULL;
	struct row *rows = NULL;
	size_t n = 0, nrows = 0, i, j, site_no = 0;
	int ret = 0;

	if (sdt_cache__open(cli.cache_dir, NULL, &c)) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	if (!nspecs) {
		if (sdt_spec__parse("*:*", &all)) {
			cli_error("%s", sdt_errmsg());
			ret = EXIT_RUNTIME;
			goto out;
		}
		specs = &all;
		nspecs = 1;
	}
	if (sdt_cache__resolve(c, specs, nspecs, &ro, &t, &n)) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
		goto out;
	}
	for (i = 0; i < n; i++)
		nrows += t[i].nsites;
	rows = calloc(nrows ? nrows : 1, sizeof(*rows));
	if (!rows) {
		cli_error("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	nrows = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < t[i].nsites; j++)
			rows[nrows++] = (struct row){&t[i], j};
	}
	qsort(rows, nrows, sizeof(*rows), cmp_row);
	if (o->json) {
		json_init(&o->j, stdout, false);
		json_begin_array(&o->j);
	}
	for (i = 0; i < nrows; i++) {
		const struct sdt_target *tt = rows[i].t;
		const struct sdt_site *s = sdt_file__site(tt->file, tt->sites[rows[i].i]);
		const struct sdt_site *p = i && rows[i - 1].t == tt
					       ? sdt_file__site(tt->file, tt->sites[rows[i - 1].i])
					       : NULL;

		struct list_site ls = row_site(tt, rows[i].i);

		if (o->json) {
			list_site_json(o, &ls);
			continue;
		}
		if (!p || strcmp(sdt_site__provider(p), sdt_site__provider(s)) ||
		    strcmp(sdt_site__name(p), sdt_site__name(s))) {
			cli_put_escaped(stdout, tt->path);
			printf(":%%%s:%s", sdt_site__provider(s), sdt_site__name(s));
			if (o->verbose)
				printf("  (build-id %s)", tt->build_id ? tt->build_id : "none");
			putchar('\n');
			site_no = 0;
		}
		if (o->verbose)
			list_site_text(o, &ls, ++site_no);
	}
	if (o->json) {
		json_end_array(&o->j);
		json_newline(&o->j);
	}
	ret = o->errors ? EXIT_RUNTIME : 0;
out:
	free(rows);
	sdt_targets_free(t, n);
	sdt_spec__free(all);
	sdt_cache__free(c);
	return ret;
}
