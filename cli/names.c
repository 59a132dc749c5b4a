/* SPDX-License-Identifier: MIT */
/* -x NAME and a spec's binary as the user means them. See names.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "names.h"
#include "sdtrace/cache.h"
#include "sdtrace/find.h"
#include "sdtrace/sdtrace.h"

/* The cached binaries whose file name is @name: "; cached: A, B", or "" (malloc'ed). */
static char *cached_named(const char *name)
{
	struct sdt_cache_entries *l = NULL;
	struct sdt_cache *c = NULL;
	char *s = NULL, *t;
	size_t i, shown = 0;

	if (sdt_cache__open(cli.cache_dir, NULL, &c) || sdt_cache__entries(c, &l)) {
		sdt_cache__free(c);
		return NULL;
	}
	for (i = 0; i < sdt_cache_entries__count(l) && shown < 4; i++) {
		const char *p = sdt_cache_entry__path(sdt_cache_entries__entry(l, i));
		const char *base = strrchr(p, '/');

		if (strcmp(base ? base + 1 : p, name))
			continue;
		if (s && strstr(s, p)) /* one path, several build-ids */
			continue;
		if (asprintf(&t, "%s%s%s", s ? s : "", s ? ", " : "", p) < 0)
			break;
		free(s);
		s = t;
		shown++;
	}
	sdt_cache_entries__free(l);
	sdt_cache__free(c);
	return s;
}

int cli_find_binary(const char *name, char **out)
{
	bool suggested;
	char *cached;
	int err;

	*out = NULL;
	if (strpbrk(name, "*?[")) {
		*out = strdup(name);
		if (!*out)
			cli_error("out of memory");
		return *out ? 0 : -1;
	}
	err = sdt_find_binary(name, NULL, out);
	if (err == 0)
		return 0;
	if (strchr(name, '/') || err != -ENOENT) {
		cli_error("%s", sdt_errmsg());
		return -1;
	}
	/* before the cache is read: opening it sets a message of its own */
	cli_error("%s", sdt_errmsg());
	suggested = strstr(sdt_errmsg(), "the ld.so cache has") != NULL;
	cached = cached_named(name);
	if (cached)
		fprintf(stderr, "  sdtrace's cache has %s: give the full path\n", cached);
	else if (!suggested)
		fprintf(stderr, "  give its full path: a file outside those places is found by its "
				"path alone\n");
	free(cached);
	return -1;
}

const char *cli_reachable_path(const char *path, const char *open_path)
{
	struct stat a, b;

	if (!stat(path, &a) && !stat(open_path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return path;
	return open_path;
}
