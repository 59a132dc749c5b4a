/* SPDX-License-Identifier: MIT */
/*
 * sdt-list-lib: libsdtrace end to end, as a program outside the project uses it.
 *
 *	sdt-list-lib FILE [SPEC]
 *
 * 1. Scan FILE and print every SDT site with its arguments: the spec in the note and the uprobe
 *    fetcharg it becomes (or why it cannot be fetched).
 * 2. Add FILE to a cache in a temporary directory, resolve SPEC (default: every event of FILE's
 *    first provider) through the cache's event index, and print the binaries and sites found.
 *    The temporary cache is removed at the end.
 *
 * Build against an installed libsdtrace:
 *	cc -o sdt-list-lib sdt-list-lib.c $(pkg-config --cflags --libs libsdtrace)
 *	cc -o sdt-list-lib sdt-list-lib.c $(pkg-config --cflags --static --libs libsdtrace)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf, nftw */
#endif
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sdtrace/sdtrace.h>

static int print_sites(const struct sdt_file *f)
{
	size_t i, j;

	printf("%s: %zu sites, %s, build-id %s\n", sdt_file__path(f), sdt_file__site_count(f),
	       sdt_file__arch_name(f), sdt_file__build_id(f) ? sdt_file__build_id(f) : "none");
	for (i = 0; i < sdt_file__site_count(f); i++) {
		const struct sdt_site *s = sdt_file__site(f, i);

		printf("%%%s:%s address 0x%" PRIx64 " offset 0x%" PRIx64, sdt_site__provider(s),
		       sdt_site__name(s), sdt_site__address(s), sdt_site__file_offset(s));
		if (sdt_site__has_semaphore(s))
			printf(" semaphore 0x%" PRIx64, sdt_site__semaphore(s));
		putchar('\n');
		for (j = 0; j < sdt_site__arg_count(s); j++) {
			const struct sdt_arg *a = sdt_site__arg(s, j);

			if (sdt_arg__fetch(a))
				printf("  arg%zu: %s -> %s\n", j + 1, sdt_arg__spec(a),
				       sdt_arg__fetch(a));
			else
				printf("  arg%zu: %s (unavailable: %s)\n", j + 1, sdt_arg__spec(a),
				       sdt_arg__unavailable(a));
		}
	}
	/* notes the scan skipped (malformed, or names tracefs would not take) */
	for (i = 0; i < sdt_file__diag_count(f); i++)
		fprintf(stderr, "sdt-list-lib: warning: %s\n", sdt_file__diag(f, i));
	return 0;
}

/* Resolve @spec_text through a cache at @root that holds @path; print what it finds. */
static int resolve_in_cache(const char *root, const char *path, const char *spec_text)
{
	SDT_OPTS(sdt_cache_opts, co, .no_copy = true);
	SDT_OPTS(sdt_resolve_opts, ro, .all_matches = true);
	struct sdt_cache *c = NULL;
	struct sdt_spec *spec = NULL;
	struct sdt_targets *t = NULL;
	enum sdt_cache_result res;
	size_t i, j;
	int err;

	err = sdt_cache__open(root, &co, &c);
	if (!err)
		err = sdt_cache__add(c, path, &res);
	if (!err && res != SDT_CACHE_ADDED && res != SDT_CACHE_UNCHANGED) {
		fprintf(stderr, "sdt-list-lib: '%s' was not cached (result %d)\n", path, (int)res);
		err = -1;
		goto out;
	}
	if (!err)
		err = sdt_spec__parse(spec_text, &spec);
	if (!err)
		err = sdt_cache__resolve(c, &spec, 1, &ro, &t);
	if (err) {
		fprintf(stderr, "sdt-list-lib: %s\n", sdt_errmsg());
		goto out;
	}
	printf("'%s' in the cache %s: %zu binaries\n", spec_text, sdt_cache__root(c),
	       sdt_targets__count(t));
	for (i = 0; i < sdt_targets__count(t); i++) {
		const struct sdt_target *x = sdt_targets__target(t, i);
		const char *bid = sdt_target__build_id(x);

		printf("%s (%s): %zu sites\n", sdt_target__path(x), bid ? bid : "none",
		       sdt_target__site_count(x));
		for (j = 0; j < sdt_target__site_count(x); j++) {
			const struct sdt_site *s = sdt_target__site(x, j);

			printf("  %%%s:%s offset 0x%" PRIx64 "\n", sdt_site__provider(s),
			       sdt_site__name(s), sdt_site__file_offset(s));
		}
	}
out:
	sdt_targets__free(t);
	sdt_spec__free(spec);
	sdt_cache__free(c);
	return err ? -1 : 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int main(int argc, char **argv)
{
	char root[] = "/tmp/sdt-list-lib.XXXXXX";
	struct sdt_file *f = NULL;
	char *spec = NULL;
	int ret = 1;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: sdt-list-lib FILE [SPEC]   (libsdtrace %s)\n",
			sdt_version());
		return 2;
	}
	if (sdt_file__open(argv[1], NULL, &f) < 0) {
		fprintf(stderr, "sdt-list-lib: %s\n", sdt_errmsg());
		return 1;
	}
	print_sites(f);
	if (argc == 3) {
		spec = strdup(argv[2]);
	} else if (sdt_file__site_count(f) > 0) {
		const struct sdt_site *s = sdt_file__site(f, 0);

		if (asprintf(&spec, "%%%s:*", sdt_site__provider(s)) < 0)
			spec = NULL;
	} else {
		ret = 0; /* no probes: nothing to look up */
		goto out;
	}
	if (!spec) {
		fprintf(stderr, "sdt-list-lib: out of memory\n");
		goto out;
	}
	if (!mkdtemp(root)) {
		perror("sdt-list-lib: mkdtemp");
		goto out;
	}
	ret = resolve_in_cache(root, argv[1], spec) ? 1 : 0;
	if (nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS))
		perror("sdt-list-lib: removing the temporary cache");
out:
	free(spec);
	sdt_file__free(f);
	return ret;
}
