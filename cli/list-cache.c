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
	size_t i; /* index into the target's matched sites */
};

static int cmp_row(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	const struct sdt_site *x = sdt_target__site(a->t, a->i);
	const struct sdt_site *y = sdt_target__site(b->t, b->i);
	const char *ab = sdt_target__build_id(a->t), *bb = sdt_target__build_id(b->t);
	int c = strcmp(sdt_target__path(a->t), sdt_target__path(b->t));

	if (!c)
		c = strcmp(ab ? ab : "", bb ? bb : "");
	if (!c)
		c = strcmp(sdt_site__provider(x), sdt_site__provider(y));
	if (!c)
		c = strcmp(sdt_site__name(x), sdt_site__name(y));
	if (!c)
		c = sdt_target__sites(a->t)[a->i] < sdt_target__sites(b->t)[b->i] ? -1 : 1;
	return c;
}

/* Site @k of target @t, with the argument names of a user probe. */
static struct list_site row_site(const struct sdt_target *t, size_t k)
{
	struct sdt_arg_type *const *types = sdt_target__types(t);

	return (struct list_site){
	    .path = sdt_target__path(t),
	    .build_id = sdt_target__build_id(t),
	    .f = sdt_target__file(t),
	    .s = sdt_target__site(t, k),
	    .probe_types = types ? types[k] : NULL,
	    .nprobe_types = sdt_target__type_count(t, k),
	};
}

/* What matched nothing: an empty cache says so; a pattern, with the nearest names of the index. */
static void say_unmatched(struct list_opts *o, struct sdt_cache *c)
{
	char **names = NULL, where[4096];
	size_t n = 0, i;
	bool all = !o->nspecs;

	for (i = 0; i < o->nspecs && o->matched[i]; i++)
		;
	if (!all && i == o->nspecs)
		return;
	if (all && o->listed)
		return;
	if (sdt_cache__event_names(c, &names, &n)) {
		cli_error("%s", sdt_errmsg());
		o->errors = true;
		return;
	}
	if (!n && !o->listed) {
		cli_note("the cache '%s' is empty: add binaries with 'sdtrace cache add PATH'",
			 sdt_cache__root(c));
	} else if (!all) {
		snprintf(where, sizeof(where), "in the cache '%s'", sdt_cache__root(c));
		list_say_unmatched(o, (const char *const *)names, n, where, true);
	}
	sdt_cache_names__free(names, n);
}

int list_cache(struct list_opts *o)
{
	struct sdt_spec **specs = o->specs;
	size_t nspecs = o->nspecs;
	SDT_OPTS(sdt_resolve_opts, ro, .all_matches = true, .skip_missing = true,
		 .allow_empty = true, .notify = notify);
	/* only looking: a missing cache is an empty one, and nothing is created */
	SDT_OPTS(sdt_cache_opts, co, .no_create = true);
	struct sdt_spec *all = NULL;
	struct sdt_targets *t = NULL;
	struct sdt_cache *c = NULL;
	struct row *rows = NULL;
	size_t nrows = 0, i, j, site_no = 0;
	int ret = 0;

	if (sdt_cache__open(cli.cache_dir, &co, &c)) {
		cli_error("%s", sdt_errmsg());
		return LIST_ERROR;
	}
	if (!nspecs) {
		if (sdt_spec__parse("*:*", &all)) {
			cli_error("%s", sdt_errmsg());
			ret = LIST_ERROR;
			goto out;
		}
		specs = &all;
		nspecs = 1;
	}
	if (sdt_cache__resolve(c, specs, nspecs, &ro, &t)) {
		cli_error("%s", sdt_errmsg());
		ret = LIST_ERROR;
		goto out;
	}
	for (i = 0; i < sdt_targets__count(t); i++)
		nrows += sdt_target__site_count(sdt_targets__target(t, i));
	rows = calloc(nrows ? nrows : 1, sizeof(*rows));
	if (!rows) {
		cli_error("out of memory");
		ret = LIST_ERROR;
		goto out;
	}
	nrows = 0;
	for (i = 0; i < sdt_targets__count(t); i++) {
		const struct sdt_target *ti = sdt_targets__target(t, i);

		for (j = 0; j < sdt_target__site_count(ti); j++)
			rows[nrows++] = (struct row){ti, j};
	}
	if (nrows > 1) /* qsort(NULL, 0) is undefined */
		qsort(rows, nrows, sizeof(*rows), cmp_row);
	if (o->json) {
		json_init(&o->j, stdout, false);
		json_begin_array(&o->j);
	}
	for (i = 0; i < nrows; i++) {
		const struct sdt_target *tt = rows[i].t;
		const struct sdt_site *s = sdt_target__site(tt, rows[i].i);
		const struct sdt_site *p =
		    i && rows[i - 1].t == tt ? sdt_target__site(tt, rows[i - 1].i) : NULL;
		const char *bid = sdt_target__build_id(tt);

		struct list_site ls = row_site(tt, rows[i].i);

		/* which patterns matched, for those that did not (a user probe's by its name) */
		list_wanted(o, sdt_site__provider(s), sdt_site__name(s), NULL);
		if (o->nspecs)
			o->matched[sdt_target__spec(tt, rows[i].i)] = true;
		if (o->json) {
			list_site_json(o, &ls);
			o->listed++;
			continue;
		}
		if (!p || strcmp(sdt_site__provider(p), sdt_site__provider(s)) ||
		    strcmp(sdt_site__name(p), sdt_site__name(s))) {
			o->listed++;
			cli_put_escaped(stdout, sdt_target__path(tt));
			printf(":%%%s:%s", sdt_site__provider(s), sdt_site__name(s));
			if (o->verbose)
				printf("  (build-id %s)", bid ? bid : "none");
			putchar('\n');
			if (o->verbose)
				list_probe_notes(o, sdt_site__provider(s), sdt_site__name(s));
			site_no = 0;
		}
		if (o->verbose)
			list_site_text(o, &ls, ++site_no);
	}
	if (o->json) {
		json_end_array(&o->j);
		json_newline(&o->j);
	}
	say_unmatched(o, c);
	ret = o->errors ? LIST_ERROR : o->listed ? LIST_FOUND : LIST_NOTHING;
out:
	free(rows);
	sdt_targets__free(t);
	sdt_spec__free(all);
	sdt_cache__free(c);
	return ret;
}
