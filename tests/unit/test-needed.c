/* SPDX-License-Identifier: MIT */
/*
 * A program's DT_NEEDED closure (scan/needed.c) against what ldd says on real files, and the
 * ld.so cache reader (scan/ldcache.c) on the real /etc/ld.so.cache and damaged copies.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "scan/ldcache.h"
#include "scan/needed.h"

#ifndef PROGS_DIR
#define PROGS_DIR ""
#endif

/* The real paths ldd prints for @prog ("=> PATH" and the interpreter), up to @max. */
static size_t ldd_paths(const char *prog, char **out, size_t max)
{
	char cmd[PATH_MAX + 32], line[PATH_MAX * 2];
	size_t n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ldd '%s' 2>/dev/null", prog);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p) && n < max) {
		char *arrow = strstr(line, "=> "), *s = arrow ? arrow + 3 : line, *e, *real;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s != '/')
			continue; /* linux-vdso.so.1, "not found" */
		e = strstr(s, " (");
		if (e)
			*e = '\0';
		s[strcspn(s, "\n")] = '\0';
		real = realpath(s, NULL);
		if (real)
			out[n++] = real;
	}
	pclose(p);
	return n;
}

static bool has(struct sdt_needed_file *f, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(f[i].path, path))
			return true;
	}
	return false;
}

/* The closure of @prog is what ldd lists (plus the executable itself), in any order. */
static void check_like_ldd(const char *prog)
{
	struct sdt_needed_file *f;
	char *want[256], *real;
	size_t n, nwant, i;

	real = realpath(prog, NULL);
	if (!real || access(real, X_OK)) {
		free(real);
		print_message("skipped: %s is not here\n", prog);
		return;
	}
	nwant = ldd_paths(real, want, 256);
	assert_true(nwant > 0);
	assert_int_equal(sdt_needed_closure(real, NULL, &f, &n), 0);
	assert_string_equal(f[0].path, real); /* the executable first */
	assert_int_equal(n, nwant + 1);
	for (i = 0; i < nwant; i++) {
		if (!has(f, n, want[i]))
			fail_msg("%s: ldd lists %s, the closure does not", prog, want[i]);
		free(want[i]);
	}
	for (i = 1; i < n && !f[i].interp; i++)
		;
	assert_true(i < n); /* the interpreter is there, and marked */
	sdt_needed_files_free(f, n);
	free(real);
}

static void test_closure_like_ldd(void **state)
{
	(void)state;
	check_like_ldd("/usr/bin/python3.11"); /* libm, libz, libexpat, libc, ld.so */
	check_like_ldd("/bin/ls");
	/* a build-tree program: RUNPATH to the build directory (cmake's) for libprog-lib.so */
	if (PROGS_DIR[0])
		check_like_ldd(PROGS_DIR "/prog-uselib");
}

static void test_closure_root_and_errors(void **state)
{
	struct sdt_needed_opts o = {.root = "/proc/self/root"};
	struct sdt_needed_file *f;
	size_t n;

	(void)state;
	/* read through a process's root: paths as the program sees them, open paths under root */
	assert_int_equal(sdt_needed_closure("/bin/sh", &o, &f, &n), 0);
	assert_true(n >= 2);
	assert_string_equal(f[0].path, "/bin/sh");
	assert_string_equal(f[0].open_path, "/proc/self/root/bin/sh");
	sdt_needed_files_free(f, n);

	assert_int_equal(sdt_needed_closure("/etc/passwd", NULL, &f, &n), -ENOEXEC);
	assert_int_equal(sdt_needed_closure("/nonexistent/prog", NULL, &f, &n), -ENOEXEC);

	/* LD_LIBRARY_PATH comes before the ld.so cache: an empty directory changes nothing */
	o.root = NULL;
	o.ld_library_path = "/nonexistent:/tmp";
	assert_int_equal(sdt_needed_closure("/bin/ls", &o, &f, &n), 0);
	assert_true(n >= 3);
	sdt_needed_files_free(f, n);
}

static void test_ldcache_real(void **state)
{
	struct sdt_ldcache *c;
	const char *p;

	(void)state;
	if (access(SDT_LDCACHE_DEFAULT, R_OK)) {
		skip();
		return;
	}
	assert_int_equal(sdt_ldcache__open(NULL, &c), 0);
	assert_true(sdt_ldcache__count(c) > 10);
	p = sdt_ldcache__lookup(c, "libc.so.6", sdt_ldcache_flags_for(62 /* EM_X86_64 */, 2));
	assert_non_null(p);
	assert_int_equal(access(p, R_OK), 0);
	assert_null(sdt_ldcache__lookup(c, "libnot-a-library.so.99", SDT_LDCACHE_ANY));
	assert_non_null(sdt_ldcache__entry(c, 0));
	assert_null(sdt_ldcache__entry(c, sdt_ldcache__count(c)));
	sdt_ldcache__free(c);
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* A new-format cache with one entry "libx.so.1" -> "/lib/libx.so.1" (48 + 24 + strings). */
static size_t make_cache(unsigned char *buf)
{
	static const char strings[] = "libx.so.1\0/lib/libx.so.1";

	memset(buf, 0, 128);
	memcpy(buf, "glibc-ld.so.cache1.1", 20);
	put32(buf + 20, 1);
	put32(buf + 24, sizeof(strings));
	put32(buf + 48, 0x0303);
	put32(buf + 52, 72);
	put32(buf + 56, 72 + 10);
	memcpy(buf + 72, strings, sizeof(strings));
	return 72 + sizeof(strings);
}

static void test_ldcache_damaged(void **state)
{
	unsigned char buf[128];
	struct sdt_ldcache *c;
	size_t len = make_cache(buf), cut;

	(void)state;
	assert_int_equal(sdt_ldcache__from_mem(buf, len, &c), 0);
	assert_string_equal(sdt_ldcache__lookup(c, "libx.so.1", 0x0303), "/lib/libx.so.1");
	assert_null(sdt_ldcache__lookup(c, "libx.so.1", 0x0003)); /* another ABI */
	sdt_ldcache__free(c);
	/* every truncation is refused whole, none read past the end (ASan watches) */
	for (cut = 0; cut < len; cut++)
		assert_int_equal(sdt_ldcache__from_mem(buf, cut, &c), -EINVAL);
	/* a string offset outside the file */
	put32(buf + 56, 4000);
	assert_int_equal(sdt_ldcache__from_mem(buf, len, &c), -EINVAL);
	/* an entry count that does not fit */
	len = make_cache(buf);
	put32(buf + 20, 0x40000000);
	assert_int_equal(sdt_ldcache__from_mem(buf, len, &c), -EINVAL);
	/* a real copy, truncated: refused, or (cut after the strings it uses) read */
	{
		FILE *fp = fopen(SDT_LDCACHE_DEFAULT, "rb");
		static unsigned char big[1 << 20];
		size_t got;

		if (!fp)
			return;
		got = fread(big, 1, sizeof(big), fp);
		fclose(fp);
		for (cut = 0; cut < got; cut += got / 97 + 1) {
			int err = sdt_ldcache__from_mem(big, cut, &c);

			assert_true(err == 0 || err == -EINVAL);
			if (!err)
				sdt_ldcache__free(c);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_closure_like_ldd),
		cmocka_unit_test(test_closure_root_and_errors),
		cmocka_unit_test(test_ldcache_real),
		cmocka_unit_test(test_ldcache_damaged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
