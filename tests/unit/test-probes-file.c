/* SPDX-License-Identifier: MIT */
/* perf's probes file: rendering byte for byte as perf 6.1 writes it, and parsing hostile text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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

/* A user probe's p:/r: line, split where perf's parser would split it; hostile ones refused. */
static void test_user_lines(void **state)
{
	struct sdt_probes_line l;

	(void)state;
	assert_true(sdt_probes_parse_line("p:probe_up/work /usr/bin/up:0x1139 n=%di:u64", &l));
	assert_int_equal(l.kind, 'p');
	assert_int_equal(l.plen, strlen("/usr/bin/up"));
	assert_memory_equal(l.path, "/usr/bin/up", l.plen);
	assert_int_equal(l.off, 0x1139);
	assert_false(l.has_ref);
	assert_string_equal(l.args, "n=%di:u64");
	/* a semaphore, no arguments; a path holding ":0x" (the last one is the offset) */
	assert_true(sdt_probes_parse_line("r:g/n /opt/a:0x1/b:0xAbC(0x3f0)", &l));
	assert_int_equal(l.kind, 'r');
	assert_memory_equal(l.path, "/opt/a:0x1/b", l.plen);
	assert_int_equal(l.plen, strlen("/opt/a:0x1/b"));
	assert_int_equal(l.off, 0xabc);
	assert_true(l.has_ref);
	assert_int_equal(l.ref, 0x3f0);
	assert_string_equal(l.args, "");
	assert_false(sdt_probes_parse_line("x:g/n /b:0x1", &l));
	assert_false(sdt_probes_parse_line("p:g/n", &l));
	assert_false(sdt_probes_parse_line("p:g/n /b:1", &l));
	assert_false(sdt_probes_parse_line("p:g/n :0x1", &l));
	assert_false(sdt_probes_parse_line("p:g/n /b:0x", &l));
	assert_false(sdt_probes_parse_line("p:g/n /b:0x11112222333344445", &l));
	assert_false(sdt_probes_parse_line("p:g/n /b:0x1z", &l));
	assert_false(sdt_probes_parse_line("p:g/n /b:0x1(0x2", &l));
	assert_false(sdt_probes_parse_line("p:g/n /b:0x1(2)", &l));
}

/* A user probe's header: its name (one tracefs takes), location and arguments. */
static void test_user_header(void **state)
{
	struct sdt_probes_header h;
	char *group, *name;
	size_t i;

	(void)state;
	name = sdt_probes_header_name("probe_up:work=do_work+4 n=%di:u64  s=+0(%si):string",
				      &group);
	assert_string_equal(name, "work");
	assert_string_equal(group, "probe_up");
	free(name);
	free(group);
	assert_null(sdt_probes_header_name("no colon", &group));
	assert_null(group);
	assert_null(sdt_probes_header_name("g:bad-name=x", &group));
	assert_null(group);
	assert_int_equal(sdt_probes_parse_header("work=do_work+4 n=%di:u64  s=+0(%si):string", &h),
			 0);
	assert_string_equal(h.location, "do_work+4");
	assert_false(h.is_return);
	assert_int_equal(h.nargs, 2);
	assert_string_equal(h.args[0], "n=%di:u64");
	assert_string_equal(h.args[1], "s=+0(%si):string");
	for (i = 0; i < h.nargs; i++)
		free(h.args[i]);
	free(h.args);
	free(h.location);
	assert_int_equal(sdt_probes_parse_header("ret=do_work%return", &h), 0);
	assert_true(h.is_return);
	assert_int_equal(h.nargs, 0);
	free(h.location);
	assert_int_equal(sdt_probes_parse_header("work", &h), 0);
	assert_null(h.location);
	assert_int_equal(h.nargs, 0);
}

/* `cache check`'s reading of a '#' entry: its header and that every line is of that probe. */
static void test_user_entry_problem(void **state)
{
	char *ok_lines[] = {"p:probe_up/work /b:0x10 n=%di:u64", "r:probe_up/work__return /b:0x20"};
	char *bad_lines[] = {"p:probe_up/other /b:0x10"};
	struct sdt_probes_entry e = {.kind = '#', .header = "probe_up:work=f", .lines = ok_lines,
				     .nlines = 2};

	(void)state;
	assert_null(sdt_probes_entry_problem(&e));
	e.lines = bad_lines;
	e.nlines = 1;
	assert_non_null(strstr(sdt_probes_entry_problem(&e), "not p:GROUP/NAME"));
	e.nlines = 0;
	assert_string_equal(sdt_probes_entry_problem(&e), "no p: or r: line");
	e.header = "bad group:work=f";
	assert_non_null(strstr(sdt_probes_entry_problem(&e), "GROUP:NAME"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_render_python_lines),
	    cmocka_unit_test(test_render_grouping_and_gaps),
	    cmocka_unit_test(test_render_refuses_bad_path),
	    cmocka_unit_test(test_parse_sdt_and_user_entries),
	    cmocka_unit_test(test_parse_hostile),
	    cmocka_unit_test(test_user_lines),
	    cmocka_unit_test(test_user_header),
	    cmocka_unit_test(test_user_entry_problem),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
