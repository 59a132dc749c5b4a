/* SPDX-License-Identifier: MIT */
/* sdtrace list without -x/-p: the events of the cache, found through its event index. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
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

static void json_row(struct json *j, const struct sdt_target *t, const struct sdt_site *s)
{
	size_t i;

	json_begin_object(j);
	json_key(j, "provider");
	json_string(j, sdt_site__provider(s));
	json_key(j, "name");
	json_string(j, sdt_site__name(s));
	json_key(j, "path");
	json_string(j, t->path);
	json_key(j, "build_id");
	json_string(j, t->build_id);
	json_key(j, "address");
	json_uint(j, sdt_site__address(s));
	json_key(j, "file_offset");
	json_uint(j, sdt_site__file_offset(s));
	json_key(j, "semaphore_offset");
	if (sdt_site__has_semaphore(s) && sdt_site__has_semaphore_offset(s))
		json_uint(j, sdt_site__semaphore_offset(s));
	else
		json_null(j);
	json_key(j, "args");
	json_begin_array(j);
	for (i = 0; i < sdt_site__arg_count(s); i++) {
		const struct sdt_arg *a = sdt_site__arg(s, i);

		json_begin_object(j);
		json_key(j, "spec");
		json_string(j, sdt_arg__spec(a));
		json_key(j, "fetch");
		json_string(j, sdt_arg__fetch(a));
		if (!sdt_arg__fetch(a)) {
			json_key(j, "unavailable");
			json_string(j, sdt_arg__unavailable(a));
		}
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static void text_site(const struct sdt_site *s)
{
	size_t i;

	printf("  site: file offset 0x%llx", (unsigned long long)sdt_site__file_offset(s));
	if (sdt_site__has_semaphore(s) && sdt_site__has_semaphore_offset(s))
		printf(", semaphore at file offset 0x%llx",
		       (unsigned long long)sdt_site__semaphore_offset(s));
	putchar('\n');
	for (i = 0; i < sdt_site__arg_count(s); i++) {
		const struct sdt_arg *a = sdt_site__arg(s, i);

		printf("    arg%zu  %-20s ", i + 1, sdt_arg__spec(a));
		if (sdt_arg__fetch(a))
			printf("%s\n", sdt_arg__fetch(a));
		else
			printf("unavailable: %s\n", sdt_arg__unavailable(a));
	}
}

int list_cache(struct sdt_spec **specs, size_t nspecs, bool verbose, bool json)
{
	SDT_OPTS(sdt_resolve_opts, ro, .all_matches = true, .skip_missing = true,
		 .allow_empty = true, .notify = notify);
	struct sdt_spec *all = NULL;
	struct sdt_target *t = NULL;
	struct sdt_cache *c = NULL;
	struct row *rows = NULL;
	size_t n = 0, nrows = 0, i, j;
	struct json js;
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
	if (json) {
		json_init(&js, stdout, false);
		json_begin_array(&js);
	}
	for (i = 0; i < nrows; i++) {
		const struct sdt_target *tt = rows[i].t;
		const struct sdt_site *s = sdt_file__site(tt->file, tt->sites[rows[i].i]);
		const struct sdt_site *p = i && rows[i - 1].t == tt
					       ? sdt_file__site(tt->file, tt->sites[rows[i - 1].i])
					       : NULL;

		if (json) {
			json_row(&js, tt, s);
			continue;
		}
		if (!p || strcmp(sdt_site__provider(p), sdt_site__provider(s)) ||
		    strcmp(sdt_site__name(p), sdt_site__name(s))) {
			cli_put_escaped(stdout, tt->path);
			printf(":%%%s:%s", sdt_site__provider(s), sdt_site__name(s));
			if (verbose)
				printf("  (build-id %s)", tt->build_id ? tt->build_id : "none");
			putchar('\n');
		}
		if (verbose)
			text_site(s);
	}
	if (json) {
		json_end_array(&js);
		json_newline(&js);
	}
	ret = 0;
out:
	free(rows);
	sdt_targets_free(t, n);
	sdt_spec__free(all);
	sdt_cache__free(c);
	return ret;
}
