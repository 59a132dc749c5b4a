/* SPDX-License-Identifier: MIT */
/*
 * The scanner on files that are not what they should be: missing, a directory, a FIFO, not ELF,
 * empty, truncated, and notes crafted to hurt (tests/fixtures, made by gen.sh). Each must give a
 * clean error with a message naming the file, or a diagnostic naming the note while the valid
 * notes are still returned; never a crash, a hang or a silent "no probes".
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "sdtrace/sdtrace.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *fixture(const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", FIXTURES_DIR, name);
	return buf;
}

static void *slurp(const char *path, size_t *len)
{
	struct stat st;
	void *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

/*
 * The message of the failure just returned: it names @subject, starts lowercase (or with the
 * quoted subject), is one line, and its first word after the subject is lowercase too.
 */
static void check_errmsg(const char *subject)
{
	const char *m = sdt_errmsg(), *after;

	assert_non_null(m);
	if (!strstr(m, subject))
		fail_msg("message '%s' does not name '%s'", m, subject);
	if (!(islower((unsigned char)m[0]) || m[0] == '\''))
		fail_msg("message '%s' does not start lowercase", m);
	assert_null(strchr(m, '\n'));
	after = strstr(m, "': ");
	if (after && isupper((unsigned char)after[3]) && m[0] == '\'')
		fail_msg("message '%s': what failed starts uppercase", m);
}

/* Open a fixture that must fail with @want; the message names it. */
static void expect_error(const char *name, int want)
{
	struct sdt_file *f = (struct sdt_file *)1;
	char path[4096];
	int err;

	fixture(name, path, sizeof(path));
	err = sdt_file__open(path, NULL, &f);
	if (err != want)
		fail_msg("%s: returned %d, expected %d (%s)", name, err, want, sdt_errmsg());
	assert_null(f);
	check_errmsg(path);
}

static void test_missing(void **state)
{
	(void)state;
	expect_error("does-not-exist.elf", -ENOENT);
	assert_non_null(strstr(sdt_errmsg(), "cannot open"));
}

static void test_directory(void **state)
{
	(void)state;
	expect_error("src", -EISDIR);
}

static void test_not_elf(void **state)
{
	(void)state;
	expect_error("text.txt", -ENOEXEC);
	assert_non_null(strstr(sdt_errmsg(), "not an ELF file"));
	expect_error("empty", -ENOEXEC);
}

/* A FIFO without a writer: the open must not block, and the file is refused. */
static void test_fifo(void **state)
{
	char dir[] = "/tmp/sdtrace-test-fifo.XXXXXX", path[64];
	struct sdt_file *f = NULL;
	int err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(10); /* a blocking open would hang: SIGALRM fails the test instead */
	err = sdt_file__open(path, NULL, &f);
	alarm(0);
	unlink(path);
	rmdir(dir);
	assert_int_equal(err, -ENOEXEC);
	assert_null(f);
	check_errmsg(path);
}

/* A character device is not read (/dev/zero would never end). */
static void test_device(void **state)
{
	struct sdt_file *f = NULL;

	(void)state;
	assert_int_equal(sdt_file__open("/dev/zero", NULL, &f), -ENOEXEC);
	assert_null(f);
	check_errmsg("/dev/zero");
}

/* libelf reports 0 sections for a cut section header table: that must not look like "no probes". */
static void test_truncated_shdrs(void **state)
{
	(void)state;
	expect_error("trunc-shdr.elf", -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "section header"));
}

static struct sdt_file *open_ok(const char *name)
{
	struct sdt_file *f = NULL;
	char path[4096];
	int err;

	err = sdt_file__open(fixture(name, path, sizeof(path)), NULL, &f);
	if (err)
		fail_msg("%s: %d %s", name, err, sdt_errmsg());
	return f;
}

/* Does some diagnostic of @f contain every string of the NULL-terminated list? */
static bool has_diag(const struct sdt_file *f, ...)
{
	size_t i;

	for (i = 0; i < sdt_file__diag_count(f); i++) {
		const char *d = sdt_file__diag(f, i), *s;
		bool all = true;
		va_list ap;

		va_start(ap, f);
		while ((s = va_arg(ap, const char *)))
			all = all && strstr(d, s);
		va_end(ap);
		if (all)
			return true;
	}
	return false;
}

/* Diagnostics are single lines without control characters: they name hostile bytes escaped. */
static void check_diags_clean(const struct sdt_file *f)
{
	size_t i;

	for (i = 0; i < sdt_file__diag_count(f); i++) {
		const char *d = sdt_file__diag(f, i);

		for (; *d; d++)
			if ((unsigned char)*d < 0x20 || *d == 0x7f)
				fail_msg("diag %zu has control character 0x%02x: %s", i, *d,
					 sdt_file__diag(f, i));
	}
}

static size_t count_sites(const struct sdt_file *f, const char *provider, const char *name)
{
	size_t i, n = 0;

	for (i = 0; i < sdt_file__site_count(f); i++) {
		const struct sdt_site *s = sdt_file__site(f, i);

		n += !strcmp(sdt_site__provider(s), provider) && !strcmp(sdt_site__name(s), name);
	}
	return n;
}

/* The real sites of the fixture (src/probes.c, sem.c), all still there. */
static void check_real_sites(const struct sdt_file *f)
{
	assert_int_equal(count_sites(f, "fix", "zero"), 1);
	assert_int_equal(count_sites(f, "fix", "ints"), 1);
	assert_int_equal(count_sites(f, "fix", "twice"), 2);
	assert_int_equal(count_sites(f, "fix", "gated"), 1);
}

/* .note.stapsdt runs past the end of the file: no sites, one diagnostic, no error. */
static void test_truncated_notes(void **state)
{
	struct sdt_file *f = open_ok("trunc-note.elf");

	(void)state;
	assert_int_equal(sdt_file__site_count(f), 0);
	assert_true(has_diag(f, ".note.stapsdt", NULL));
	assert_non_null(sdt_file__build_id(f));
	sdt_file__free(f);
}

/* sh_size cuts the last note: the seven before it are read, the cut is reported. */
static void test_cut_note(void **state)
{
	struct sdt_file *f = open_ok("cut-note.elf");

	(void)state;
	assert_int_equal(sdt_file__site_count(f), 7);
	assert_int_equal(count_sites(f, "fix", "regs"), 0);
	assert_true(has_diag(f, "truncated after note 7", NULL));
	sdt_file__free(f);
}

static void test_no_notes(void **state)
{
	struct sdt_file *f = open_ok("no-notes.elf");

	(void)state;
	assert_int_equal(sdt_file__site_count(f), 0);
	assert_int_equal(sdt_file__diag_count(f), 0);
	assert_string_equal(sdt_file__build_id(f), "001a2d6cbb3b1a8a301341da734b9678c2ed4717");
	sdt_file__free(f);
}

/* Notes 2-4 are too short or unterminated; notes 1 and 5.. are real. Both byte orders/classes. */
static void test_short_desc(void **state)
{
	static const char *const names[] = {"short-desc.elf", "short-desc-ppc.elf"};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		struct sdt_file *f = open_ok(names[i]);

		assert_int_equal(sdt_file__site_count(f), 8);
		check_real_sites(f);
		assert_int_equal(sdt_file__diag_count(f), 3);
		assert_true(has_diag(f, "note 2:", "too short", NULL));
		assert_true(has_diag(f, "note 3:", "too short", NULL));
		assert_true(has_diag(f, "note 4:", "not terminated", NULL));
		check_diags_clean(f);
		sdt_file__free(f);
	}
}

/*
 * Providers with a newline, a space, ':' and '/', an empty one, a name carrying a second
 * uprobe_events line, args with a newline: each rejected with a diagnostic naming the note, the
 * real notes all listed, and nothing with a bad byte reaches a site.
 */
static void test_hostile_names(void **state)
{
	struct sdt_file *f = open_ok("hostile-names.elf");
	size_t i;

	(void)state;
	assert_int_equal(sdt_file__site_count(f), 8);
	check_real_sites(f);
	assert_int_equal(sdt_file__diag_count(f), 7);
	assert_true(has_diag(f, "note 2:", "bad\\x0aprov", NULL));
	assert_true(has_diag(f, "note 3:", "'bad prov'", NULL));
	assert_true(has_diag(f, "note 4:", "'bad:prov'", NULL));
	assert_true(has_diag(f, "note 5:", "'bad/prov'", NULL));
	assert_true(has_diag(f, "note 6 ", "probe name", "x\\x0ap:sdt_evil", NULL));
	assert_true(has_diag(f, "note 7:", "provider name ''", NULL));
	assert_true(has_diag(f, "note 8 ", "evil:args", "argument string", NULL));
	check_diags_clean(f);
	for (i = 0; i < sdt_file__site_count(f); i++) {
		const struct sdt_site *s = sdt_file__site(f, i);

		assert_string_equal(sdt_site__provider(s), "fix");
		assert_null(strpbrk(sdt_site__name(s), "\n :/"));
		assert_null(strchr(sdt_site__args_text(s), '\n'));
	}
	sdt_file__free(f);
}

/* A pc in no segment drops that site; a semaphore in no segment keeps it, without an offset. */
static void test_pc_outside(void **state)
{
	struct sdt_file *f = open_ok("pc-outside.elf");
	size_t i;

	(void)state;
	assert_int_equal(sdt_file__site_count(f), 9);
	check_real_sites(f);
	assert_int_equal(count_sites(f, "fix", "outside"), 0);
	assert_int_equal(count_sites(f, "fix", "badsem"), 1);
	assert_int_equal(sdt_file__diag_count(f), 2);
	assert_true(
	    has_diag(f, "note 2 ", "fix:outside", "0x7fff0000", "no loadable segment", NULL));
	assert_true(has_diag(f, "note 3 ", "fix:badsem", "semaphore 0x7fff0000", NULL));
	for (i = 0; i < sdt_file__site_count(f); i++) {
		const struct sdt_site *s = sdt_file__site(f, i);

		if (strcmp(sdt_site__name(s), "badsem"))
			continue;
		assert_true(sdt_site__has_semaphore(s));
		assert_int_equal(sdt_site__semaphore(s), 0x7fff0000);
		assert_false(sdt_site__has_semaphore_offset(s));
		assert_int_equal(sdt_site__file_offset(s), 0x1d0);
	}
	sdt_file__free(f);
}

/* One scan from memory: an error must carry a message; a success must be sane. */
static void scan_mem(const void *buf, size_t len, const char *what, size_t at)
{
	struct sdt_file *f = (struct sdt_file *)1;
	int err;

	SDT_OPTS(sdt_scan_opts, opts, .name = "mutant");
	err = sdt_file__open_mem(buf, len, &opts, &f);
	if (err > 0 || (err < 0 && (f || !sdt_errmsg()[0])))
		fail_msg("%s at %zu: returned %d, file %p, message '%s'", what, at, err, (void *)f,
			 sdt_errmsg());
	if (!err) {
		if (!f || sdt_file__site_count(f) > 16)
			fail_msg("%s at %zu: %zu sites", what, at, f ? sdt_file__site_count(f) : 0);
		check_diags_clean(f);
		sdt_file__free(f);
	}
}

/*
 * Every prefix of a few fixtures, and every byte of them set to 0x00 and to 0xff: no crash (the
 * ASan build checks every access), an error with a message, or a sane result.
 */
static void test_mutants(void **state)
{
	static const char *const names[] = {"x86_64.elf", "ppc.elf", "s390x.elf", "libfix.so"};
	char path[4096];
	size_t i, at;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		unsigned char *buf, *copy;
		size_t len;

		buf = slurp(fixture(names[i], path, sizeof(path)), &len);
		copy = malloc(len);
		assert_non_null(copy);
		for (at = 0; at <= len; at++)
			scan_mem(buf, at, names[i], at);
		for (at = 0; at < len; at++) {
			memcpy(copy, buf, len);
			copy[at] = 0;
			scan_mem(copy, len, names[i], at);
			copy[at] = 0xff;
			scan_mem(copy, len, names[i], at);
		}
		free(copy);
		free(buf);
	}
}

static void test_open_mem_empty(void **state)
{
	struct sdt_file *f = NULL;

	(void)state;
	SDT_OPTS(sdt_scan_opts, opts, .name = "empty-image");
	assert_int_equal(sdt_file__open_mem("", 0, &opts, &f), -ENOEXEC);
	assert_null(f);
	check_errmsg("empty-image");
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_directory),
		cmocka_unit_test(test_not_elf),
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_device),
		cmocka_unit_test(test_truncated_shdrs),
		cmocka_unit_test(test_truncated_notes),
		cmocka_unit_test(test_cut_note),
		cmocka_unit_test(test_no_notes),
		cmocka_unit_test(test_short_desc),
		cmocka_unit_test(test_hostile_names),
		cmocka_unit_test(test_pc_outside),
		cmocka_unit_test(test_open_mem_empty),
		cmocka_unit_test(test_mutants),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
