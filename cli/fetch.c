/* SPDX-License-Identifier: MIT */
/* Fetching binaries by build-id from debuginfod, for `cache add --build-id`, `list --build-id`. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fetch.h"

struct fetch_progress {
	const char *build_id;
	bool shown;
};

static void on_progress(long done, long total, void *ctx)
{
	struct fetch_progress *p = ctx;

	if (total > 0)
		fprintf(stderr, "\rsdtrace: downloading %.16s...: %ld of %ld KiB  ", p->build_id,
			done / 1024, total / 1024);
	else
		fprintf(stderr, "\rsdtrace: downloading %.16s...: %ld KiB  ", p->build_id,
			done / 1024);
	p->shown = true;
}

int cli_fetch(const char *build_id, char **path, char **orig)
{
	struct fetch_progress p = {.build_id = build_id};
	SDT_OPTS(sdt_debuginfod_opts, o, .ctx = &p);
	int err;

	if (isatty(2))
		o.progress = on_progress;
	err = sdt_debuginfod__find_executable(build_id, &o, path, orig);
	if (p.shown)
		fputc('\n', stderr);
	return err;
}

int cli_fetch_to_cache(struct sdt_cache *c, const char *build_id)
{
	struct fetch_progress p = {.build_id = build_id};
	SDT_OPTS(sdt_debuginfod_opts, o, .ctx = &p);
	enum sdt_cache_result res;
	int err;

	if (isatty(2))
		o.progress = on_progress;
	err = sdt_cache__add_build_id(c, build_id, &o, &res);
	if (p.shown)
		fputc('\n', stderr);
	if (err) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	switch (res) {
	case SDT_CACHE_ADDED: printf("build-id %s: added\n", build_id); break;
	case SDT_CACHE_UNCHANGED: printf("build-id %s: already cached\n", build_id); break;
	default: printf("build-id %s: no SDT notes: not cached\n", build_id); break;
	}
	return 0;
}

/* Does the file at @path have build-id @bid now? */
static bool file_has_build_id(const char *path, const char *bid)
{
	struct sdt_file *f;
	bool yes;

	if (sdt_file__open(path, NULL, &f))
		return false;
	yes = sdt_file__build_id(f) && !strcmp(sdt_file__build_id(f), bid);
	sdt_file__free(f);
	return yes;
}

int cli_find_build_id(const char *build_id, char **open_path, char **shown)
{
	SDT_OPTS(sdt_cache_opts, ro, .no_create = true); /* only looking: it creates nothing */
	struct sdt_cache_entries *l = NULL;
	struct sdt_cache *c = NULL;
	char *path = NULL, *orig = NULL;
	size_t i;
	int err;

	*open_path = *shown = NULL;
	/* the local cache first: the file it was cached from, else the cached copy */
	if (!sdt_cache__open(cli.cache_dir, &ro, &c) && !sdt_cache__entries(c, &l)) {
		for (i = 0; i < sdt_cache_entries__count(l); i++) {
			const struct sdt_cache_entry *e = sdt_cache_entries__entry(l, i);
			const char *bid = sdt_cache_entry__build_id(e);

			if (!bid || strcmp(bid, build_id))
				continue;
			if (sdt_cache_entry__state(e) == SDT_ENTRY_OK) {
				*open_path = strdup(sdt_cache_entry__path(e));
			} else if (asprintf(open_path, "%s%s/%s/elf", sdt_cache__root(c),
					    sdt_cache_entry__path(e), build_id) < 0 ||
				   access(*open_path, R_OK)) {
				free(*open_path);
				*open_path = NULL;
				continue;
			}
			/* a cache file says which file this is: it must be that build */
			if (!*open_path || !file_has_build_id(*open_path, build_id)) {
				if (*open_path)
					cli_warn("'%s' is not the binary of build-id %s: not used "
						 "(run 'sdtrace cache check --repair')",
						 *open_path, build_id);
				free(*open_path);
				*open_path = NULL;
				continue;
			}
			*shown = strdup(sdt_cache_entry__path(e));
			break;
		}
	}
	sdt_cache_entries__free(l);
	sdt_cache__free(c);
	if (*open_path && *shown)
		return 0;
	free(*open_path);
	free(*shown);
	*open_path = *shown = NULL;
	/* then the debuginfod servers */
	err = cli_fetch(build_id, &path, &orig);
	if (err)
		return err;
	*open_path = path;
	*shown = orig ? orig : strdup(path);
	return *shown ? 0 : -ENOMEM;
}

void cli_fetch_recorded(const struct sdt_trace_reader *r)
{
	struct sdt_cache_entries *l = NULL;
	struct sdt_cache *c = NULL;
	const char *urls = getenv("DEBUGINFOD_URLS");
	size_t i, j;


	/* No servers, no network: the recording describes itself, nothing is needed. */
	if (!urls || !*urls || !sdt_debuginfod__enabled())
		return;
	if (sdt_cache__open(cli.cache_dir, NULL, &c))
		return;
	/* an empty cache has no entries to list: not a reason to stop */
	if (sdt_cache__entries(c, &l))
		l = NULL;
	for (i = 0; i < sdt_trace_reader__kind_count(r); i++) {
		const struct sdt_trace_kind *k = sdt_trace_reader__kind(r, i);
		const char *bid = sdt_trace_event_desc__build_id(sdt_trace_kind__desc(k)),
			   *path = sdt_trace_event_desc__path(sdt_trace_kind__desc(k));
		enum sdt_cache_result res;
		bool have = false;

		if (!bid)
			continue;
		for (j = 0; j < i && !have; j++)
			have = sdt_trace_event_desc__build_id(
				   sdt_trace_kind__desc(sdt_trace_reader__kind(r, j))) &&
			       !strcmp(sdt_trace_event_desc__build_id(
					   sdt_trace_kind__desc(sdt_trace_reader__kind(r, j))),
				       bid);
		for (j = 0; j < sdt_cache_entries__count(l) && !have; j++) {
			const char *b = sdt_cache_entry__build_id(sdt_cache_entries__entry(l, j));

			have = b && !strcmp(b, bid);
		}
		if (have || (path && file_has_build_id(path, bid)))
			continue;
		if (sdt_cache__add_build_id(c, bid, NULL, &res)) {
			fprintf(stderr, "sdtrace: note: the binary of build-id %s (%s) is not here: %s\n",
				bid, path ? path : "?", sdt_errmsg());

		}
	}
	sdt_cache_entries__free(l);
	sdt_cache__free(c);
}
