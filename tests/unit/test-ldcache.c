/* SPDX-License-Identifier: MIT */
/*
 * lib/scan/ldcache.c: the real /etc/ld.so.cache (its count as `ldconfig -p` says, libc found, every
 * path a file, a 32-bit libc told from the native one), caches built here (new format alone,
 * after the old table, the old table alone: refused),
 * and damaged copies: truncated at every length, counts and string offsets out of bounds, a
 * string without its NUL. A damaged cache is refused whole, never read past its end (ASan).
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/internal.h"
#include "scan/ldcache.h"

static char *slurp(const char *path, size_t *size)
{
	FILE *fp = fopen(path, "rb");
	char *d;
	long n;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	rewind(fp);
	d = malloc((size_t)n + 1);
	assert_non_null(d);
	assert_int_equal(fread(d, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*size = (size_t)n;
	return d;
}

static void test_real_cache(void **state)
{
	struct sdt_ldcache *c;
	const char *libc;
	size_t i, n;
	FILE *fp;
	char line[256];
	unsigned long want = 0;

	(void)state;
	if (access(SDT_LDCACHE_DEFAULT, R_OK)) {
		skip();
		return;
	}
	assert_int_equal(sdt_ldcache__open(NULL, &c), 0);
	n = sdt_ldcache__count(c);
	assert_true(n > 0);
	/* ldconfig -p: "N libs found in cache `/etc/ld.so.cache'" */
	fp = popen("ldconfig -p 2>/dev/null || /sbin/ldconfig -p", "r");
	if (fp) {
		while (fgets(line, sizeof(line), fp))
			if (sscanf(line, "%lu libs found", &want) == 1)
				break;
		pclose(fp);
	}
	if (want)
		assert_int_equal(n, want);
	for (i = 0; i < n; i++) {
		const struct sdt_ldcache_entry *e = sdt_ldcache__entry(c, i);

		assert_non_null(e);
		assert_true(e->soname[0] != '\0');
		assert_true(e->path[0] == '/');
		assert_true((e->flags & SDT_LDCACHE_TYPE_MASK) != 0);
	}
	assert_null(sdt_ldcache__entry(c, n));
	libc = sdt_ldcache__lookup(c, "libc.so.6", sdt_ldcache_native_flags());
	assert_non_null(libc);
	assert_int_equal(access(libc, R_OK), 0);
	assert_non_null(strstr(libc, "libc.so.6"));
	assert_null(sdt_ldcache__lookup(c, "libno-such-library-here.so.9", SDT_LDCACHE_ANY));
	/* a 32-bit libc, where there is one (/lib32), is not the native one */
	libc = sdt_ldcache__lookup(c, "libc.so.6", sdt_ldcache_flags_for(EM_386, ELFCLASS32));
	if (libc && sdt_ldcache_native_flags() != sdt_ldcache_flags_for(EM_386, ELFCLASS32))
		assert_string_not_equal(
		    libc, sdt_ldcache__lookup(c, "libc.so.6", sdt_ldcache_native_flags()));
	sdt_ldcache__free(c);
}

/* A cache of @n entries "libtN.so.1" -> "/lib/libtN.so.1", after an old table of @nold. */
static char *build(size_t n, size_t nold, bool with_new, size_t *size)
{
	size_t old = nold || !with_new ? (16 + nold * 12 + 7) & ~(size_t)7 : 0, hdr, str, i;
	char *d = calloc(1, old + 48 + n * 24 + n * 40 + 16);
	char *b;
	uint32_t v;

	assert_non_null(d);
	if (old) {
		memcpy(d, "ld.so-1.7.0", 11);
		v = (uint32_t)nold;
		memcpy(d + 12, &v, 4);
	}
	if (!with_new) {
		*size = 16 + nold * 12;
		return d;
	}
	b = d + old;
	memcpy(b, "glibc-ld.so.cache1.1", 20);
	v = (uint32_t)n;
	memcpy(b + 20, &v, 4);
	hdr = 48;
	str = hdr + n * 24;
	for (i = 0; i < n; i++) {
		char *e = b + hdr + i * 24;
		int32_t flags = SDT_LDCACHE_ELF_LIBC6 | 0x0300;
		uint32_t key, val;
		int k;

		key = (uint32_t)str;
		k = sprintf(b + str, "libt%zu.so.1", i);
		str += (size_t)k + 1;
		val = (uint32_t)str;
		k = sprintf(b + str, "/lib/libt%zu.so.1", i);
		str += (size_t)k + 1;
		memcpy(e, &flags, 4);
		memcpy(e + 4, &key, 4);
		memcpy(e + 8, &val, 4);
	}
	*size = old + str;
	return d;
}

static void test_built(void **state)
{
	struct sdt_ldcache *c;
	size_t size;
	char *d;

	(void)state;
	d = build(3, 0, true, &size);
	assert_int_equal(sdt_ldcache__from_mem(d, size, &c), 0);
	assert_int_equal(sdt_ldcache__count(c), 3);
	assert_string_equal(sdt_ldcache__lookup(c, "libt1.so.1", SDT_LDCACHE_ANY),
			    "/lib/libt1.so.1");
	assert_string_equal(sdt_ldcache__lookup(c, "libt2.so.1", SDT_LDCACHE_ELF_LIBC6 | 0x0300),
			    "/lib/libt2.so.1");
	assert_null(sdt_ldcache__lookup(c, "libt2.so.1", SDT_LDCACHE_ELF_LIBC6 | 0x0a00));
	sdt_ldcache__free(c);
	free(d);

	/* after the old table, 8-aligned: strings from the new header */
	d = build(2, 3, true, &size);
	assert_int_equal(sdt_ldcache__from_mem(d, size, &c), 0);
	assert_int_equal(sdt_ldcache__count(c), 2);
	assert_string_equal(sdt_ldcache__lookup(c, "libt0.so.1", SDT_LDCACHE_ANY),
			    "/lib/libt0.so.1");
	sdt_ldcache__free(c);
	free(d);

	/* the old table alone (glibc stopped writing it in 2.32): refused */
	d = build(0, 2, false, &size);
	assert_int_equal(sdt_ldcache__from_mem(d, size, &c), -EINVAL);
	assert_null(c);
	free(d);

	/* an empty cache is a cache */
	d = build(0, 0, true, &size);
	assert_int_equal(sdt_ldcache__from_mem(d, size, &c), 0);
	assert_int_equal(sdt_ldcache__count(c), 0);
	assert_null(sdt_ldcache__lookup(c, "libc.so.6", SDT_LDCACHE_ANY));
	sdt_ldcache__free(c);
	free(d);
}

/* Every prefix of @d is refused or read whole within its bounds (ASan checks the reads). */
static void check_truncations(const char *d, size_t size, size_t step)
{
	size_t len;

	for (len = 0; len < size; len += (len < 4096 ? 1 : step)) {
		struct sdt_ldcache *c = NULL;
		int err = sdt_ldcache__from_mem(d, len, &c);

		if (err) {
			assert_int_equal(err, -EINVAL);
			assert_null(c);
			assert_true(strlen(sdt_errmsg()) > 0);
			continue;
		}
		/* only the data past the strings (the extension) may be cut and the rest read */
		for (size_t i = 0; i < sdt_ldcache__count(c); i++) {
			const struct sdt_ldcache_entry *e = sdt_ldcache__entry(c, i);

			assert_true(strlen(e->path) < len);
			(void)sdt_ldcache__lookup(c, e->soname, SDT_LDCACHE_ANY);
		}
		sdt_ldcache__free(c);
	}
}

static void test_truncated(void **state)
{
	size_t size;
	char *d;

	(void)state;
	d = build(5, 1, true, &size);
	check_truncations(d, size, 1);
	free(d);
	d = slurp(SDT_LDCACHE_DEFAULT, &size);
	if (d) {
		check_truncations(d, size, 7);
		free(d);
	}
}

static void put32(char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static void expect_refused(const char *d, size_t size)
{
	struct sdt_ldcache *c = (struct sdt_ldcache *)1;

	assert_int_equal(sdt_ldcache__from_mem(d, size, &c), -EINVAL);
	assert_null(c);
	assert_non_null(strstr(sdt_errmsg(), "ld.so cache"));
}

static void test_out_of_bounds(void **state)
{
	size_t size;
	char *d;

	(void)state;
	d = build(3, 0, true, &size);
	/* more entries than the file holds, up to the largest count */
	put32(d + 20, 1000);
	expect_refused(d, size);
	put32(d + 20, 0xffffffffu);
	expect_refused(d, size);
	put32(d + 20, 3);
	/* a soname, then a path, past the end */
	put32(d + 48 + 4, (uint32_t)size);
	expect_refused(d, size);
	put32(d + 48 + 4, 0xffffffffu);
	expect_refused(d, size);
	free(d);
	d = build(3, 0, true, &size);
	put32(d + 48 + 24 + 8, (uint32_t)size + 100);
	expect_refused(d, size);
	free(d);
	/* the last string without its NUL */
	d = build(3, 0, true, &size);
	d[size - 1] = 'x';
	expect_refused(d, size);
	free(d);
	/* an old table whose count runs past the end */
	d = build(1, 1, true, &size);
	put32(d + 12, 0x7fffffffu);
	expect_refused(d, size);
	free(d);
	/* not a cache at all */
	expect_refused("hello, world, this is no cache of ld.so at all....", 50);
	expect_refused("", 0);
}

static void test_open_errors(void **state)
{
	struct sdt_ldcache *c;

	(void)state;
	assert_int_equal(sdt_ldcache__open("/nonexistent/ld.so.cache", &c), -ENOENT);
	assert_null(c);
	assert_true(sdt_ldcache__open("/tmp", &c) < 0);
	assert_null(c);
	assert_int_equal(sdt_ldcache__open("/dev/null", &c), -EINVAL);
	sdt_ldcache__free(NULL);
	assert_int_equal(sdt_ldcache__count(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_real_cache),	cmocka_unit_test(test_built),
	    cmocka_unit_test(test_truncated),	cmocka_unit_test(test_out_of_bounds),
	    cmocka_unit_test(test_open_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
