/* SPDX-License-Identifier: MIT */
/*
 * The cache on this very test program, which carries SDT notes of its own (h4test:*): layout,
 * resolve (names, globs, perf's form), ambiguity between builds, stale and vanished files,
 * remove/purge, check/repair, and symlinks planted inside the cache.
 */
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cache/cache_internal.h"
#include "cache/index.h"
#include "cache/meta.h"
#include "sdtrace/debuginfod.h"
#include "tmpdir-test.h"

static char tmp[256], root[300], self[PATH_MAX];

/* The probes the tests look for; never called, the notes are what matters. */
void h4test_fire(int x);
void h4test_fire(int x)
{
	STAP_PROBE1(h4test, one, x);
	STAP_PROBE2(h4test, two, x, x + 1);
	STAP_PROBE(h4test, one);
}

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static char *build_id_of(const char *path)
{
	char *bid;

	assert_int_equal(sdt_cache_file_build_id(path, &bid), 0);
	assert_non_null(bid);
	return bid;
}

/* Copy this program to @dst with the last byte of its build-id changed: another "build". */
static char *copy_as_other_build(const char *dst, unsigned char delta)
{
	char *bid = build_id_of(self);
	size_t len, blen = strlen(bid) / 2, i;
	unsigned char raw[64];
	char *buf = slurp(self, &len), *p = NULL, *nb;
	FILE *f;

	for (i = 0; i < blen; i++)
		sscanf(bid + 2 * i, "%2hhx", &raw[i]);
	for (i = 0; i + blen <= len; i++) {
		if (!memcmp(buf + i, raw, blen)) {
			p = buf + i;
			break;
		}
	}
	assert_non_null(p);
	p[blen - 1] = (char)(p[blen - 1] + delta);
	f = fopen(dst, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(buf, 1, len, f), len);
	fclose(f);
	chmod(dst, 0755);
	free(buf);
	free(bid);
	nb = build_id_of(dst);
	return nb;
}

static int setup(void **state)
{
	(void)state;
	if (tmpdir_make(tmp, sizeof(tmp), "cache"))
		return -1;
	snprintf(root, sizeof(root), "%s/cache", tmp);
	assert_non_null(realpath("/proc/self/exe", self));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove(tmp);
}

/* Resolve @text: the list in *t, its count in *n. */
static int resolve1(struct sdt_cache *c, const char *text, const struct sdt_resolve_opts *o,
		    struct sdt_targets **t, size_t *n)
{
	struct sdt_spec *s;
	int err;

	assert_int_equal(sdt_spec__parse(text, &s), 0);
	err = sdt_cache__resolve(c, &s, 1, o, t);
	*n = sdt_targets__count(*t);
	sdt_spec__free(s);
	return err;
}

/* The cache's entries: the list in *l, its count in *n. */
static int entries(struct sdt_cache *c, struct sdt_cache_entries **l, size_t *n)
{
	int err = sdt_cache__entries(c, l);

	*n = sdt_cache_entries__count(*l);
	return err;
}

/* Entry @i of @l */
static const struct sdt_cache_entry *en(const struct sdt_cache_entries *l, size_t i)
{
	const struct sdt_cache_entry *e = sdt_cache_entries__entry(l, i);

	assert_non_null(e);
	return e;
}

/* Target @i of @t */
static const struct sdt_target *tg(const struct sdt_targets *t, size_t i)
{
	const struct sdt_target *x = sdt_targets__target(t, i);

	assert_non_null(x);
	return x;
}

static void test_layout(void **state)
{
	enum sdt_cache_result res;
	struct sdt_cache *c;
	char *bid = build_id_of(self), path[PATH_MAX * 2], target[PATH_MAX];
	struct stat a, b;
	ssize_t n;

	(void)state;
	assert_int_equal(sdt_cache__open(root, NULL, &c), 0);
	assert_int_equal(sdt_cache__add(c, self, &res), 0);
	assert_int_equal(res, SDT_CACHE_ADDED);
	/* .build-id/xx/rest -> ../../<abs path>/<bid> */
	snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", root, bid, bid + 2);
	n = readlink(path, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = '\0';
	snprintf(path, sizeof(path), "../..%s/%s", self, bid);
	assert_string_equal(target, path);
	/* elf: the same inode when on one filesystem, else a copy of the same size */
	snprintf(path, sizeof(path), "%s%s/%s/elf", root, self, bid);
	assert_int_equal(stat(path, &a), 0);
	assert_int_equal(stat(self, &b), 0);
	if (a.st_dev == b.st_dev)
		assert_int_equal(a.st_ino, b.st_ino);
	assert_int_equal(a.st_size, b.st_size);
	/* probes: one header per name, "one" has two sites */
	{
		size_t len;
		char *text;

		snprintf(path, sizeof(path), "%s%s/%s/probes", root, self, bid);
		text = slurp(path, &len);
		assert_non_null(strstr(text, "%sdt_h4test:one=one\np:sdt_h4test/one "));
		assert_non_null(strstr(text, "%sdt_h4test:two=two\np:sdt_h4test/two "));
		assert_null(strstr(strstr(text, "%sdt_h4test:two"), "%sdt_h4test:one"));
		free(text);
	}
	/* our sibling file, with its magic */
	snprintf(path, sizeof(path), "%s%s/%s/" SDT_META_NAME, root, self, bid);
	{
		size_t len;
		char *text = slurp(path, &len);

		assert_int_equal(strncmp(text, "sdtrace-meta 1\n", 15), 0);
		free(text);
	}
	/* again: unchanged */
	assert_int_equal(sdt_cache__add(c, self, &res), 0);
	assert_int_equal(res, SDT_CACHE_UNCHANGED);
	assert_int_equal(sdt_cache__check(c, false, NULL, NULL), 0);
	sdt_cache__free(c);
	free(bid);
}

static void test_resolve(void **state)
{
	SDT_OPTS(sdt_resolve_opts, o);
	struct sdt_targets *t;
	struct sdt_cache *c;
	size_t n;

	(void)state;
	assert_int_equal(sdt_cache__open(root, NULL, &c), 0);
	assert_int_equal(sdt_cache__add(c, self, NULL), 0);

	assert_int_equal(resolve1(c, "%h4test:one", &o, &t, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(sdt_target__path(tg(t, 0)), self);
	assert_int_equal(sdt_target__site_count(tg(t, 0)), 2);
	assert_false(sdt_target__rescanned(tg(t, 0)));
	{
		struct stat st;
		int64_t sec, nsec;

		assert_int_equal(stat(self, &st), 0);
		assert_int_equal(sdt_target__ino(tg(t, 0)), st.st_ino);
		assert_int_equal(sdt_target__size(tg(t, 0)), st.st_size);
		sdt_target__mtime(tg(t, 0), &sec, &nsec);
		assert_int_equal(nsec, st.st_mtim.tv_nsec);
	}
	assert_string_equal(sdt_site__name(sdt_target__site(tg(t, 0), 0)), "one");
	sdt_targets__free(t);

	assert_int_equal(resolve1(c, "sdt_h4test:two", &o, &t, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(sdt_target__site_count(tg(t, 0)), 1);
	sdt_targets__free(t);

	assert_int_equal(resolve1(c, "h4test:*", &o, &t, &n), 0);
	assert_int_equal(sdt_target__site_count(tg(t, 0)), 3);
	sdt_targets__free(t);

	assert_int_equal(resolve1(c, "h4t*:t?o", &o, &t, &n), 0);
	assert_int_equal(sdt_target__site_count(tg(t, 0)), 1);
	sdt_targets__free(t);

	assert_int_equal(resolve1(c, "%h4test:nothere", &o, &t, &n), -ENOENT);
	assert_null(t);
	assert_int_equal(resolve1(c, "%nothere", &o, &t, &n), -ENOENT);
	sdt_cache__free(c);
}

static void test_ambiguity(void **state)
{
	SDT_OPTS(sdt_resolve_opts, o);
	SDT_OPTS(sdt_resolve_opts, all, .all_matches = true);
	struct sdt_targets *t;
	struct sdt_cache *c;
	char other[PATH_MAX], spec[PATH_MAX + 32], *bid2;
	size_t n;

	(void)state;
	snprintf(other, sizeof(other), "%s/other-build", tmp);
	bid2 = copy_as_other_build(other, 1);
	assert_int_equal(sdt_cache__open(root, NULL, &c), 0);
	assert_int_equal(sdt_cache__add(c, self, NULL), 0);
	assert_int_equal(sdt_cache__add(c, other, NULL), 0);

	assert_int_equal(resolve1(c, "%h4test:one", &o, &t, &n), -ENOTUNIQ);
	assert_non_null(strstr(sdt_errmsg(), self));
	assert_non_null(strstr(sdt_errmsg(), other));
	assert_non_null(strstr(sdt_errmsg(), bid2));
	assert_non_null(strstr(sdt_errmsg(), "name one"));
	assert_int_equal(resolve1(c, "h4test:*", &o, &t, &n), -ENOTUNIQ);

	/* naming the binary settles it */
	snprintf(spec, sizeof(spec), "%s:%%h4test:one", other);
	assert_int_equal(resolve1(c, spec, &o, &t, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(sdt_target__path(tg(t, 0)), other);
	assert_string_equal(sdt_target__build_id(tg(t, 0)), bid2);
	sdt_targets__free(t);

	/* listing wants them all */
	assert_int_equal(resolve1(c, "%h4test:one", &all, &t, &n), 0);
	assert_int_equal(n, 2);
	sdt_targets__free(t);
	sdt_cache__free(c);
	free(bid2);
}

static int notified;
static void on_notify(const char *msg, void *ctx)
{
	(void)ctx;
	(void)msg;
	notified++;
}

static void test_stale_and_vanished(void **state)
{
	SDT_OPTS(sdt_resolve_opts, o, .notify = on_notify);
	struct sdt_cache_entries *e;
	struct sdt_targets *t;
	struct sdt_cache *c;
	char bin[PATH_MAX], next[PATH_MAX], *bid1, *bid2;
	size_t n;

	(void)state;
	snprintf(bin, sizeof(bin), "%s/bin", tmp);
	snprintf(next, sizeof(next), "%s/bin.new", tmp);
	bid1 = copy_as_other_build(bin, 2);
	assert_int_equal(sdt_cache__open(root, NULL, &c), 0);
	assert_int_equal(sdt_cache__add(c, bin, NULL), 0);

	/* a new build renamed into place: resolve scans the new file, never the cached offsets */
	bid2 = copy_as_other_build(next, 3);
	assert_int_equal(rename(next, bin), 0);
	notified = 0;
	assert_int_equal(resolve1(c, "%h4test:one", &o, &t, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(sdt_target__build_id(tg(t, 0)), bid2);
	assert_true(sdt_target__rescanned(tg(t, 0)));
	assert_int_equal(notified, 1);
	sdt_targets__free(t);

	/* the new build was cached; the old entry is changed, and purge drops it */
	assert_int_equal(entries(c, &e, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(sdt_cache_entry__state(en(e, 0)) == SDT_ENTRY_OK,
			 !strcmp(sdt_cache_entry__build_id(en(e, 0)), bid2));
	assert_int_equal(sdt_cache_entry__state(en(e, 1)) == SDT_ENTRY_OK,
			 !strcmp(sdt_cache_entry__build_id(en(e, 1)), bid2));
	sdt_cache_entries__free(e);
	assert_int_equal(sdt_cache__purge(c, NULL, NULL), 1);

	/* vanished: an error, or skipped when asked */
	assert_int_equal(unlink(bin), 0);
	assert_int_equal(resolve1(c, "%h4test:one", &o, &t, &n), -ENOENT);
	assert_non_null(strstr(sdt_errmsg(), "gone"));
	{
		SDT_OPTS(sdt_resolve_opts, skip, .skip_missing = true, .allow_empty = true);

		assert_int_equal(resolve1(c, "%h4test:one", &skip, &t, &n), 0);
		assert_int_equal(n, 0);
		sdt_targets__free(t);
	}
	assert_int_equal(sdt_cache__purge(c, NULL, NULL), 1);
	assert_int_equal(entries(c, &e, &n), 0);
	assert_int_equal(n, 0);
	sdt_cache_entries__free(e);
	sdt_cache__free(c);
	free(bid1);
	free(bid2);
}

static void test_remove(void **state)
{
	struct sdt_cache *c;
	char *bid = build_id_of(self), prefix[16], path[PATH_MAX * 2];
	struct stat st;

	(void)state;
	assert_int_equal(sdt_cache__open(root, NULL, &c), 0);
	assert_int_equal(sdt_cache__add(c, self, NULL), 0);
	assert_int_equal(sdt_cache__remove(c, self), 1);
	assert_int_equal(sdt_cache__remove(c, self), 0);
	snprintf(path, sizeof(path), "%s%s", root, self);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(sdt_cache__add(c, self, NULL), 0);
	snprintf(prefix, sizeof(prefix), "%.10s", bid);
	assert_int_equal(sdt_cache__remove(c, prefix), 1);
	assert_int_equal(sdt_cache__check(c, false, NULL, NULL), 0);
	sdt_cache__free(c);
	free(bid);
}

static void test_check_repair(void **state)
{
	struct sdt_cache *c;
	char *bid = build_id_of(self);

	(void)state;
	assert_int_equal(sdt_cache__open(root, NULL, &c), 0);
	assert_int_equal(sdt_cache__add(c, self, NULL), 0);
	/* broken links, foreign files, a leftover temporary, a corrupt meta */
	sh("mkdir -p '%s/.build-id/ab' && ln -s ../../nowhere/abab '%s/.build-id/ab/ab' && "
	   "ln -s /etc/passwd '%s/.build-id/ab/cdcdcdcdcdcdcd' && touch '%s/.build-id/NOTES' "
	   "'%s/x' "
	   "'%s%s/%s/.sdtrace-tmp.probes.1.1' && echo junk > '%s%s/%s/sdtrace.meta'",
	   root, root, root, root, root, root, self, bid, root, self, bid);
	assert_true(sdt_cache__check(c, false, NULL, NULL) >= 3);
	assert_true(sdt_cache__check(c, true, NULL, NULL) >= 3);
	assert_int_equal(sdt_cache__check(c, false, NULL, NULL), 0);
	sh("test -f '%s/x' && test -f '%s/.build-id/NOTES'", root, root); /* foreign files kept */
	sdt_cache__free(c);
	free(bid);
}

/*
 * perf's own entries that are not about SDT: its pseudo-files and the DSOs `perf record` cached
 * (an elf, no probes). Listed or not, they are not broken, and purge never drops them.
 */
static void test_perf_foreign_entries(void **state)
{
	struct sdt_cache_entries *e;
	struct sdt_cache *c;
	size_t n;

	(void)state;
	sh("mkdir -p '%s/.build-id/aa' '%s/[kernel.kallsyms]/aaaa0000' '%s/gone/lib.so/aaaa1111' "
	   "&& "
	   "ln -s '../../[kernel.kallsyms]/aaaa0000' '%s/.build-id/aa/aa0000' && "
	   "ln -s ../../gone/lib.so/aaaa1111 '%s/.build-id/aa/aa1111' && "
	   "echo elf > '%s/gone/lib.so/aaaa1111/elf' && echo k > "
	   "'%s/[kernel.kallsyms]/aaaa0000/kallsyms'",
	   root, root, root, root, root, root, root);
	assert_int_equal(sdt_cache__open(root, NULL, &c), 0);
	assert_int_equal(entries(c, &e, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(sdt_cache_entry__path(en(e, 0)), "/gone/lib.so");
	assert_int_equal(sdt_cache_entry__event_count(en(e, 0)), 0);
	assert_int_equal(sdt_cache_entry__state(en(e, 0)), SDT_ENTRY_GONE);
	sdt_cache_entries__free(e);
	assert_int_equal(sdt_cache__purge(c, NULL, NULL), 0);
	assert_int_equal(sdt_cache__update(c, NULL, NULL), 0);
	assert_int_equal(sdt_cache__check(c, true, NULL, NULL), 0);
	sh("test -L '%s/.build-id/aa/aa1111' && test -f '%s/gone/lib.so/aaaa1111/elf' && "
	   "test -L '%s/.build-id/aa/aa0000'",
	   root, root, root);
	sdt_cache__free(c);
}

/* A symlink planted inside the cache is never followed for writing. */
static void test_planted_symlink(void **state)
{
	struct sdt_cache *c;
	char *first = sdt_strdup(self), *slash;

	(void)state;
	slash = strchr(first + 1, '/');
	if (slash)
		*slash = '\0';
	/* ROOT/<first component of self's path> -> a directory outside the cache */
	sh("mkdir -p '%s/outside' '%s' && ln -s '%s/outside' '%s%s'", tmp, root, tmp, root, first);
	assert_int_equal(sdt_cache__open(root, NULL, &c), 0);
	assert_true(sdt_cache__add(c, self, NULL) < 0);
	sh("test -z \"$(ls -A '%s/outside')\"", tmp);
	sdt_cache__free(c);
	free(first);
}

/*
 * The cache's _opts are read as every _opts struct is (util/opts.c): a caller's longer struct
 * with a byte set that this library does not know is refused, never silently ignored; a shorter
 * one (an older caller) is zero-filled.
 */
static void test_opts_read(void **state)
{
	struct {
		struct sdt_cache_opts o;
		char newer[8];
	} co = {.o = {.sz = sizeof(co)}, .newer = {1}};
	struct {
		struct sdt_resolve_opts o;
		char newer[8];
	} ro = {.o = {.sz = sizeof(ro)}, .newer = {1}};
	struct {
		struct sdt_cache_add_opts o;
		char newer[8];
	} ao = {.o = {.sz = sizeof(ao)}, .newer = {1}};
	struct {
		struct sdt_debuginfod_opts o;
		char newer[8];
	} dbo = {.o = {.sz = sizeof(dbo)}, .newer = {1}};
	struct sdt_cache_opts older = {.sz = sizeof(size_t)};
	char *fetched = NULL;
	struct sdt_targets *t = (struct sdt_targets *)1;
	struct sdt_cache *c = NULL;
	const char *paths[] = {self};
	size_t n = 1;

	(void)state;
	assert_int_equal(sdt_cache__open(root, &co.o, &c), -EINVAL);
	assert_null(c);
	assert_non_null(strstr(sdt_errmsg(), "sdt_cache_opts"));
	assert_int_equal(sdt_cache__open(root, &older, &c), 0);
	assert_int_equal(sdt_cache__add_paths(c, paths, 1, &ao.o, NULL), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "sdt_cache_add_opts"));
	assert_int_equal(sdt_cache__add(c, self, NULL), 0);
	assert_int_equal(resolve1(c, "%h4test:one", &ro.o, &t, &n), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "sdt_resolve_opts"));
	assert_null(t);
	assert_int_equal(n, 0);
	/* the same, unset: accepted */
	co.newer[0] = ro.newer[0] = 0;
	assert_int_equal(resolve1(c, "%h4test:one", &ro.o, &t, &n), 0);
	assert_int_equal(n, 1);
	sdt_targets__free(t);
	sdt_cache__free(c);
	assert_int_equal(sdt_cache__open(root, &co.o, &c), 0);
	sdt_cache__free(c);
	/* before any server is asked (or found missing) */
	assert_int_equal(sdt_debuginfod__find_executable("571d98e01096d5c1c32420d229a6731a0a50d2a0",
							 &dbo.o, &fetched, NULL),
			 -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "sdt_debuginfod_opts"));
	assert_null(fetched);
}

/*
 * A cache that creates nothing (list, cache list): a missing directory is an empty cache and
 * stays missing (writes fail); an existing one without an index gets none on disk (one is built
 * in memory); an existing index is kept up to date. A miss says how near it came: "did you mean"
 * from the index, else how to add binaries.
 */
static void test_no_create(void **state)
{
	SDT_OPTS(sdt_cache_opts, ro, .no_create = true);
	SDT_OPTS(sdt_resolve_opts, quiet, .allow_empty = true);
	struct sdt_cache_entries *l = NULL;
	struct sdt_targets *t = NULL;
	struct sdt_cache *c = NULL;
	char path[400], **names = NULL;
	struct stat st;
	size_t n = 0;

	(void)state;
	assert_int_equal(sdt_cache__open(root, &ro, &c), 0);
	assert_int_equal(entries(c, &l, &n), 0);
	assert_int_equal(n, 0);
	sdt_cache_entries__free(l);
	assert_int_equal(sdt_cache__event_names(c, &names, &n), 0);
	assert_int_equal(n, 0);
	sdt_cache_names__free(names, n);
	assert_int_equal(resolve1(c, "%h4test:one", NULL, &t, &n), -ENOENT);
	assert_non_null(strstr(sdt_errmsg(), "add binaries"));
	sdt_targets__free(t);
	assert_int_equal(resolve1(c, "%h4test:one", &quiet, &t, &n), 0);
	assert_int_equal(n, 0);
	sdt_targets__free(t);
	assert_int_equal(sdt_cache__check(c, false, NULL, NULL), 0);
	assert_true(sdt_cache__add(c, self, NULL) < 0);
	assert_int_equal(sdt_cache__reindex(c), -EROFS);
	sdt_cache__free(c);
	assert_int_equal(stat(root, &st), -1);

	/* cached, its index removed: read-only lookups find it and write no index */
	assert_int_equal(sdt_cache__open(root, NULL, &c), 0);
	assert_int_equal(sdt_cache__add(c, self, NULL), 0);
	sdt_cache__free(c);
	snprintf(path, sizeof(path), "%s/" SDT_INDEX_NAME, root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(sdt_cache__open(root, &ro, &c), 0);
	assert_int_equal(resolve1(c, "%h4test:one", NULL, &t, &n), 0);
	assert_int_equal(n, 1);
	sdt_targets__free(t);
	assert_int_equal(sdt_cache__event_names(c, &names, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "h4test:one");
	assert_string_equal(names[1], "h4test:two");
	sdt_cache_names__free(names, n);
	assert_int_equal(resolve1(c, "%h4test:on", NULL, &t, &n), -ENOENT);
	assert_non_null(strstr(sdt_errmsg(), "did you mean %h4test:one?"));
	assert_null(strstr(sdt_errmsg(), "add binaries"));
	sdt_targets__free(t);
	assert_int_equal(resolve1(c, "%h4test:nothing_like_it", NULL, &t, &n), -ENOENT);
	assert_non_null(strstr(sdt_errmsg(), "it has provider 'h4test'"));
	sdt_targets__free(t);
	assert_int_equal(stat(path, &st), -1);
	assert_int_equal(sdt_cache__reindex(c), -EROFS);
	assert_int_equal(stat(path, &st), -1);
	sdt_cache__free(c);

	/* an index that is there is kept up to date, also by a reader */
	assert_int_equal(sdt_cache__open(root, NULL, &c), 0);
	assert_int_equal(sdt_cache__reindex(c), 0);
	sdt_cache__free(c);
	assert_int_equal(truncate(path, 10), 0);
	assert_int_equal(sdt_cache__open(root, &ro, &c), 0);
	assert_int_equal(resolve1(c, "%h4test:one", NULL, &t, &n), 0);
	sdt_targets__free(t);
	assert_int_equal(sdt_cache__check(c, false, NULL, NULL), 0);
	sdt_cache__free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_layout, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resolve, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ambiguity, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_stale_and_vanished, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_remove, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_check_repair, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_planted_symlink, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_perf_foreign_entries, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_opts_read, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_no_create, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
