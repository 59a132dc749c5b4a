/* SPDX-License-Identifier: MIT */
/* perf's probes file: rendering byte for byte as perf 6.1 writes it, and parsing hostile text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "scan/file.h"
#include "cache/probes_file.h"

static struct sdt_arg mkarg(const char *spec, unsigned size, bool sign, bool flt, const char *fetch,
			    const char *unavail)
{
	struct sdt_arg a = {0};

	a.spec = (char *)spec;
	a.size = (uint8_t)size;
	a.is_signed = sign;
	a.is_float = flt;
	a.kind = SDT_ARG_REG;
	a.fetch = (char *)fetch;
	a.unavailable = (char *)unavail;
	return a;
}

/* python3.11's gc__start and audit lines, exactly as perf 6.1 wrote them (perf-anchor.md §1) */
static void test_render_python_lines(void **state)
{
	struct sdt_arg gc[1] = {mkarg("-4@112(%rsp)", 4, true, false, "+112(%sp):s32", NULL)};
	struct sdt_arg au[2] = {mkarg("8@%rbx", 8, false, false, "%bx:u64", NULL),
				mkarg("8@%r15", 8, false, false, "%r15:u64", NULL)};
	struct sdt_site sites[2] = {
	    {.provider = "python",
	     .name = "audit",
	     .file_offset = 0x2512a,
	     .semaphore = 1,
	     .semaphore_offset = 0x683276,
	     .has_semaphore_offset = true,
	     .args = au,
	     .nargs = 2},
	    {.provider = "python",
	     .name = "gc__start",
	     .file_offset = 0x287f3,
	     .semaphore = 1,
	     .semaphore_offset = 0x68326e,
	     .has_semaphore_offset = true,
	     .args = gc,
	     .nargs = 1},
	};
	struct sdt_file f = {.sites = sites, .nsites = 2};
	struct sdt_buf b = {0};

	(void)state;
	assert_int_equal(sdt_probes_render(&f, "/usr/bin/python3.11", &b), 0);
	assert_string_equal(b.buf, "%sdt_python:audit=audit\n"
				   "p:sdt_python/audit /usr/bin/python3.11:0x2512a(0x683276) "
				   "arg1=%bx:u64 arg2=%r15:u64\n"
				   "%sdt_python:gc__start=gc__start\n"
				   "p:sdt_python/gc__start /usr/bin/python3.11:0x287f3(0x68326e) "
				   "arg1=+112(%sp):s32\n");
	sdt_buf_free(&b);
}

/*
 * One header per name in first-note order, its sites in note order; unavailable args left out
 * without renumbering; floats typed as perf types them; no semaphore, no parentheses.
 */
static void test_render_grouping_and_gaps(void **state)
{
	struct sdt_arg a1[3] = {mkarg("8@%rax", 8, false, false, "%ax:u64", NULL),
				mkarg("-8@(%rdi,%rsi,8)", 8, true, false, NULL, "indexed"),
				mkarg("8f@%rcx", 8, false, true, "%cx:x64", NULL)};
	struct sdt_arg a2[1] = {mkarg("-4@$5", 4, true, false, "\\5:s32", NULL)};
	struct sdt_site sites[3] = {
	    {.provider = "p", .name = "multi", .file_offset = 0x10, .args = a1, .nargs = 3},
	    {.provider = "p", .name = "other", .file_offset = 0x20, .args = NULL, .nargs = 0},
	    {.provider = "p", .name = "multi", .file_offset = 0x30, .args = a2, .nargs = 1},
	};
	struct sdt_file f = {.sites = sites, .nsites = 3};
	struct sdt_buf b = {0};

	(void)state;
	assert_int_equal(sdt_probes_render(&f, "/bin/x", &b), 0);
	assert_string_equal(b.buf, "%sdt_p:multi=multi\n"
				   "p:sdt_p/multi /bin/x:0x10 arg1=%ax:u64 arg3=%cx:u64\n"
				   "p:sdt_p/multi /bin/x:0x30 arg1=\\5:s32\n"
				   "%sdt_p:other=other\n"
				   "p:sdt_p/other /bin/x:0x20\n");
	sdt_buf_free(&b);
}

static void test_render_refuses_bad_path(void **state)
{
	struct sdt_site s = {.provider = "p", .name = "e"};
	struct sdt_file f = {.sites = &s, .nsites = 1};
	struct sdt_buf b = {0};

	(void)state;
	assert_int_equal(sdt_probes_render(&f, "/tmp/a b", &b), -EINVAL);
	assert_int_equal(sdt_probes_render(&f, "/tmp/a\nb", &b), -EINVAL);
	assert_int_equal(sdt_probes_render(&f, "relative", &b), -EINVAL);
	sdt_buf_free(&b);
}

static void test_parse_sdt_and_user_entries(void **state)
{
	const char text[] = "%sdt_python:gc__start=gc__start\n"
			    "p:sdt_python/gc__start /usr/bin/python3.11:0x287f3(0x68326e) a\n"
			    "#probe_foo:bar=bar %di:s32\n"
			    "p:probe_foo/bar /usr/bin/foo:0x1270 %di:s32\n"
			    "%sdt_pg:two=two\n"
			    "p:sdt_pg/two /x:0x1\n"
			    "p:sdt_pg/two /x:0x2";
	struct sdt_probes p = {0};
	struct sdt_buf b = {0};

	(void)state;
	assert_int_equal(sdt_probes_parse(text, strlen(text), &p), 0);
	assert_int_equal(p.n, 3);
	assert_int_equal(p.bad_lines, 0);
	assert_int_equal(p.entries[0].kind, '%');
	assert_string_equal(p.entries[0].provider, "python");
	assert_string_equal(p.entries[0].event, "gc__start");
	assert_int_equal(p.entries[1].kind, '#');
	assert_int_equal(p.entries[1].nlines, 1);
	assert_int_equal(p.entries[2].nlines, 2);
	assert_string_equal(p.entries[2].lines[1], "p:sdt_pg/two /x:0x2");
	/* user probes survive a rewrite verbatim */
	assert_int_equal(sdt_probes_render_user(&p, &b), 0);
	assert_string_equal(
	    b.buf, "#probe_foo:bar=bar %di:s32\np:probe_foo/bar /usr/bin/foo:0x1270 %di:s32\n");
	sdt_buf_free(&b);
	sdt_probes_release(&p);
}

/* A crafted name (perf copies note strings unchecked) or stray text never becomes an entry. */
static void test_parse_hostile(void **state)
{
	const char text[] = "garbage line\n"
			    "p:orphan/line /x:0x1\n"
			    "%sdt_bad name:ev=ev\n"
			    "p:sdt_bad/ev /x:0x1\n"
			    "%nosdtprefix:ev=ev\n"
			    "%sdt_ok:ev=ev\n"
			    "p:sdt_ok/ev /x:0x1\n"
			    "\0p:hidden\n";
	struct sdt_probes p = {0};

	(void)state;
	assert_int_equal(sdt_probes_parse(text, sizeof(text) - 1, &p), 0);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.entries[0].provider, "ok");
	assert_int_equal(p.entries[0].nlines, 1);
	assert_true(p.bad_lines >= 5);
	sdt_probes_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_render_python_lines),
	    cmocka_unit_test(test_render_grouping_and_gaps),
	    cmocka_unit_test(test_render_refuses_bad_path),
	    cmocka_unit_test(test_parse_sdt_and_user_entries),
	    cmocka_unit_test(test_parse_hostile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
