/* SPDX-License-Identifier: MIT */
/*
 * User probes: the fetcharg grammar (what may reach a `p:` line), perf's group names, locations
 * resolved from the symbol tables of this very test program, an SDT site under a short name, and
 * the round trip through a temporary cache (add, list, duplicate, remove).
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
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

#include "scan/sdt_elf.h"
#include "cache/userprobe.h"
#include "sdtrace/sdtrace.h"

__attribute__((noinline, used)) long userprobe_target(long a, long b);
__attribute__((noinline, used)) long userprobe_target(long a, long b)
{
	__asm__ volatile("" ::: "memory");
	return a * 3 + b;
}

static void test_grammar_accepts(void **state)
{
	static const char *const ok[] = {
	    "a=%di",
	    "size=%di:u64",
	    "n=%r15:s32",
	    "path=+0(%si):string",
	    "p=+0(%si):ustring",
	    "deep=+8(+0(-16(%bp))):x64",
	    "neg=-4(%sp):s16",
	    "hex=+0x10(%dx):u8",
	    "s=$stack",
	    "s3=$stack3:u32",
	    "c=$comm",
	    "cs=$comm:string",
	    "k=\\42",
	    "kn=\\-7:s32",
	    "kx=\\0xff",
	    "g=@+0x4010:u64",
	    "arr=+0(%di):s32[4]",
	    "bf=%ax:b8@8/64",
	    "bf0=%ax:b1@0/8",
	    "_x9=%ip",
	};
	const char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		if (!sdt_uprobe_arg_valid(ok[i], EM_X86_64, ELFCLASS64, false, &why))
			fail_msg("refused '%s': %s", ok[i], why);
	}
	assert_true(sdt_uprobe_arg_valid("r=$retval:s64", EM_X86_64, ELFCLASS64, true, &why));
	assert_true(sdt_uprobe_arg_valid("x=%x0:u64", EM_AARCH64, ELFCLASS64, false, &why));
	assert_true(sdt_uprobe_arg_valid("x=%x30", EM_AARCH64, ELFCLASS64, false, &why));
	assert_true(sdt_uprobe_arg_valid("x=%gpr3", EM_PPC64, ELFCLASS64, false, &why));
	assert_true(sdt_uprobe_arg_valid("x=%a0", EM_RISCV, ELFCLASS64, false, &why));
	assert_true(sdt_uprobe_arg_valid("x=%ds", EM_386, ELFCLASS32, false, &why));
}

static void test_grammar_refuses(void **state)
{
	static const char *const bad[] = {
	    "",
	    "%di", /* no name */
	    "=%di",
	    "1a=%di", /* name starts with a digit */
	    "a-b=%di",
	    "a=%rdi", /* assembler name, not pt_regs */
	    "a=%eax",
	    "a=%di:u128",
	    "a=%di:u7",
	    "a=%di:float",
	    "a=%di:",
	    "a=%di:string",		   /* a string needs memory */
	    "a=%di\np:evil/x /bin/sh:0x0", /* a second line */
	    "a=%di p:evil/x",		   /* a second token */
	    "a=%di\t",
	    "a=+0(%di",
	    "a=+(%di)",
	    "a=+0(%di))",
	    "a=+1(+2(+3(+4(+5(%di)))))", /* too deep */
	    "a=$retval",		 /* an entry probe */
	    "a=$arg1",
	    "a=$stack99999",
	    "a=@sym", /* uprobes take no symbol */
	    "a=@-8",
	    "a=\\",
	    "a=\\x",
	    "a=+0(%di):s32[0]",
	    "a=+0(%di):s32[65]",
	    "a=+0(%di):s32[4",
	    "a=%ax:b65@0/64",
	    "a=%ax:b8@8/12",
	    "common_pid=%di", /* the kernel's fields */
	    "__probe_ip=%di",
	    "a=0x10",
	};
	const char *why;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (sdt_uprobe_arg_valid(bad[i], EM_X86_64, ELFCLASS64, false, &why))
			fail_msg("accepted '%s'", bad[i]);
		assert_non_null(why);
		assert_true(why[0] != '\0');
	}
	/* registers of another architecture */
	assert_false(sdt_uprobe_arg_valid("x=%di", EM_AARCH64, ELFCLASS64, false, &why));
	assert_false(sdt_uprobe_arg_valid("x=%x31", EM_AARCH64, ELFCLASS64, false, &why));
	assert_false(sdt_uprobe_arg_valid("x=%r8", EM_X86_64, ELFCLASS32, false, &why));
	assert_false(sdt_uprobe_arg_valid("x=%di", 0xbeef, ELFCLASS64, false, &why));
}

static void test_group(void **state)
{
	static const char *const cases[][2] = {
	    {"/usr/bin/prog-userprobe", "probe_prog"},
	    {"/lib/x86_64-linux-gnu/libc.so.6", "probe_libc"},
	    {"/opt/pa_args_O2", "probe_pa_args_O2"},
	    {"/x/.hidden", "probe_bin"},
	    {"/x/ab\ncd", "probe_ab"},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *g = sdt_uprobe_group(cases[i][0]);

		assert_non_null(g);
		assert_string_equal(g, cases[i][1]);
		free(g);
	}
}

static char *self_path(void)
{
	char *p = realpath("/proc/self/exe", NULL);

	assert_non_null(p);
	return p;
}

/* the file offset in a "p:G/N PATH:0xOFF ..." line */
static uint64_t line_offset(const char *line);

/* the file offset of the first line of @p */
static uint64_t first_offset(const struct sdt_user_probe *p)
{
	return line_offset(sdt_user_probe__line(p, 0));
}

static uint64_t line_offset(const char *line)
{
	const char *c = strstr(line, ":0x");

	assert_non_null(c);
	return strtoull(c + 3, NULL, 16);
}

static void test_define_locations(void **state)
{
	struct sdt_user_probe *p = NULL, *q = NULL;
	const char *args[] = {"a=%di:s64", "b=%si:s64"};
	const char *rargs[] = {"ret=$retval:s64"};
	char *self = self_path(), loc[64], *expect;
	struct sdt_elf e;
	uint64_t value;
	unsigned int n;
	int err;

	(void)state;
	assert_int_equal(userprobe_target(1, 2), 5);
	assert_int_equal(sdt_user_probe__define(self, "ent", "userprobe_target", args, 2, &p), 0);
	assert_false(sdt_user_probe__is_return(p));
	assert_int_equal(sdt_user_probe__line_count(p), 1);
	assert_string_equal(sdt_user_probe__group(p), "probe_test");
	expect = NULL;
	assert_true(asprintf(&expect, "probe_test:ent=userprobe_target a=%%di:s64 "
				      "b=%%si:s64") > 0);
	assert_string_equal(sdt_user_probe__header(p), expect);
	free(expect);
	assert_true(!strncmp(sdt_user_probe__line(p, 0), "p:probe_test/ent ", 17));
	assert_non_null(strstr(sdt_user_probe__line(p, 0), " a=%di:s64 b=%si:s64"));
	assert_null(strchr(sdt_user_probe__line(p, 0), '\n'));

	/* the address form lands on the same offset */
	assert_int_equal(sdt_elf_open(self, &e), 0);
	assert_int_equal(sdt_elf_symbol(&e, "userprobe_target", &value), 0);
	sdt_elf_close(&e);
	snprintf(loc, sizeof(loc), "0x%llx", (unsigned long long)value);
	assert_int_equal(sdt_user_probe__define(self, "byaddr", loc, NULL, 0, &q), 0);
	assert_int_equal(first_offset(q), first_offset(p));
	sdt_user_probe__free(q);

	/* +0 is the same place */
	assert_int_equal(sdt_user_probe__define(self, "off0", "userprobe_target+0", NULL, 0, &q),
			 0);
	assert_int_equal(first_offset(q), first_offset(p));
	sdt_user_probe__free(q);
	/*
	 * +N inside the function: the first N that starts an instruction is taken, at base + N;
	 * every N before it falls inside the first instruction and is refused as such.
	 */
	for (n = 1; n < 16; n++) {
		snprintf(loc, sizeof(loc), "userprobe_target+%u", n);
		err = sdt_user_probe__define(self, "offn", loc, NULL, 0, &q);
		if (!err)
			break;
		assert_int_equal(err, -EINVAL);
		assert_non_null(
		    strstr(sdt_errmsg(), "inside the instruction at userprobe_target+0"));
	}
	assert_true(n < 16);
	assert_int_equal(first_offset(q), first_offset(p) + n);
	sdt_user_probe__free(q);

	/* a return probe */
	assert_int_equal(
	    sdt_user_probe__define(self, "ret", "userprobe_target%return", rargs, 1, &q), 0);
	assert_true(sdt_user_probe__is_return(q));
	assert_true(!strncmp(sdt_user_probe__line(q, 0), "r:probe_test/ret ", 17));
	assert_int_equal(first_offset(q), first_offset(p));
	sdt_user_probe__free(q);
	sdt_user_probe__free(p);
	free(self);
}

static void test_define_refuses(void **state)
{
	struct sdt_user_probe *p = NULL;
	const char *retval[] = {"r=$retval"};
	const char *inject[] = {"a=%di\np:evil/x /bin/sh:0x0"};
	char *self = self_path();

	(void)state;
	assert_int_equal(sdt_user_probe__define(self, "x", "no_such_function_here", NULL, 0, &p),
			 -ENOENT);
	assert_int_equal(sdt_user_probe__define(self, "x", "userprobe_target+100000", NULL, 0, &p),
			 -ERANGE);
	assert_non_null(strstr(sdt_errmsg(), "outside"));
	assert_int_equal(
	    sdt_user_probe__define(self, "x", "userprobe_target+1%return", NULL, 0, &p), -EINVAL);
	assert_int_equal(sdt_user_probe__define(self, "x", "userprobe_target%entry", NULL, 0, &p),
			 -EINVAL);
	assert_int_equal(sdt_user_probe__define(self, "x", "userprobe_target", retval, 1, &p),
			 -EINVAL);
	assert_int_equal(sdt_user_probe__define(self, "x", "userprobe_target", inject, 1, &p),
			 -EINVAL);
	/* the message shows no control byte */
	assert_null(strchr(sdt_errmsg(), '\n'));
	assert_int_equal(
	    sdt_user_probe__define(self, "x\np:evil/y", "userprobe_target", NULL, 0, &p), -EINVAL);
	assert_int_equal(sdt_user_probe__define(self, "x y", "userprobe_target", NULL, 0, &p),
			 -EINVAL);
	assert_int_equal(sdt_user_probe__define(self, "x", "userprobe target", NULL, 0, &p),
			 -EINVAL);
	assert_int_equal(sdt_user_probe__define(self, "x", "0x1", NULL, 0, &p), -ERANGE);
	assert_int_equal(sdt_user_probe__define(self, "x", "0xzz", NULL, 0, &p), -EINVAL);
	assert_int_equal(sdt_user_probe__define(self, "x", "", NULL, 0, &p), -EINVAL);
	assert_int_equal(sdt_user_probe__define("/nonexistent/x", "x", "f", NULL, 0, &p), -ENOENT);
	assert_null(p);
	free(self);
}

static void test_define_sdt_alias(void **state)
{
	struct sdt_user_probe *p = NULL;
	struct sdt_file *f;
	const struct sdt_site *s;
	char loc[256];
	size_t i, n = 0;

	(void)state;
	assert_int_equal(sdt_file__open(FIXTURES_DIR "/x86_64.elf", NULL, &f), 0);
	assert_true(sdt_file__site_count(f) > 0);
	s = sdt_file__site(f, 0);
	for (i = 0; i < sdt_file__site_count(f); i++) {
		const struct sdt_site *t = sdt_file__site(f, i);

		n += !strcmp(sdt_site__provider(t), sdt_site__provider(s)) &&
		     !strcmp(sdt_site__name(t), sdt_site__name(s));
	}
	snprintf(loc, sizeof(loc), "%%%s:%s", sdt_site__provider(s), sdt_site__name(s));
	assert_int_equal(
	    sdt_user_probe__define(FIXTURES_DIR "/x86_64.elf", "alias", loc, NULL, 0, &p), 0);
	assert_int_equal(sdt_user_probe__line_count(p), n);
	assert_int_equal(first_offset(p), sdt_site__file_offset(s));
	/* perf parses the header: the site by address, not the SDT name */
	assert_non_null(strstr(sdt_user_probe__header(p), ":alias=0x"));
	sdt_user_probe__free(p);
	assert_int_equal(sdt_user_probe__define(FIXTURES_DIR "/x86_64.elf", "alias",
						"%no_such:provider", NULL, 0, &p),
			 -ENOENT);
	sdt_file__free(f);
}

static void test_insn_boundary(void **state)
{
	/* push %rbp; mov %rsp,%rbp; mov $42,%eax; ret */
	static const unsigned char code[] = {0x55, 0x48, 0x89, 0xe5, 0xb8,
					     0x2a, 0x00, 0x00, 0x00, 0xc3};
	static const uint64_t starts[] = {1, 4, 9};
	static const uint64_t inside[][2] = {{2, 1}, {3, 1}, {5, 4}, {6, 4}, {8, 4}};
	/* (bad) bytes that are no instruction on x86_64 */
	static const unsigned char junk[] = {0x06, 0x06, 0x06, 0x90};
	uint64_t at;
	size_t i;
	int err;

	(void)state;
	err = sdt_insn_boundary(EM_X86_64, ELFCLASS64, code, sizeof(code), 1, &at);
	if (err == -ENOTSUP)
		skip(); /* built without capstone: nothing decodes (the caller keeps the bounds) */
	for (i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		assert_int_equal(
		    sdt_insn_boundary(EM_X86_64, ELFCLASS64, code, sizeof(code), starts[i], &at),
		    0);
	for (i = 0; i < sizeof(inside) / sizeof(inside[0]); i++) {
		assert_int_equal(
		    sdt_insn_boundary(EM_X86_64, ELFCLASS64, code, sizeof(code), inside[i][0], &at),
		    -ERANGE);
		assert_int_equal(at, inside[i][1]);
	}
	assert_int_equal(sdt_insn_boundary(EM_X86_64, ELFCLASS64, junk, sizeof(junk), 3, &at),
			 -EILSEQ);
	assert_int_equal(sdt_insn_boundary(EM_AARCH64, ELFCLASS64, code, sizeof(code), 4, &at),
			 -ENOTSUP);
}

static void test_cache_roundtrip(void **state)
{
	char dir[] = "/tmp/test-userprobe.XXXXXX", *self = self_path(), *path, *text = NULL;
	const char *args[] = {"a=%di:s64"};
	struct sdt_user_probe *p = NULL, *q = NULL;
	const struct sdt_user_probe *l0, *l1;
	struct sdt_user_probes *list;
	struct sdt_cache_entries *ent;
	struct sdt_cache *c;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(sdt_cache__open(dir, NULL, &c), 0);
	assert_int_equal(sdt_user_probe__define(self, "ent", "userprobe_target", args, 1, &p), 0);
	assert_int_equal(
	    sdt_user_probe__define(self, "ret", "userprobe_target%return", NULL, 0, &q), 0);
	assert_int_equal(sdt_cache__probe_add(c, p), 0);
	assert_int_equal(sdt_cache__probe_add(c, q), 0);
	assert_int_equal(sdt_cache__probe_add(c, p), -EEXIST);

	/* perf's text: the header, then the line */
	path = NULL;
	assert_true(asprintf(&path, "%s%s/%s/probes", dir, sdt_user_probe__path(p),
			     sdt_user_probe__build_id(p)) > 0);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_true(getdelim(&text, &len, '\0', fp) > 0);
	fclose(fp);
	free(path);
	path = NULL;
	assert_true(
	    asprintf(&path, "#%s\n%s\n#%s\n%s\n", sdt_user_probe__header(p),
		     sdt_user_probe__line(p, 0), sdt_user_probe__header(q),
		     sdt_user_probe__line(q, 0)) > 0);
	assert_string_equal(text, path);
	free(path);
	free(text);

	assert_int_equal(sdt_cache__probes(c, NULL, &list), 0);
	assert_int_equal(sdt_user_probes__count(list), 2);
	l0 = sdt_user_probes__probe(list, 0);
	l1 = sdt_user_probes__probe(list, 1);
	assert_string_equal(sdt_user_probe__name(l0), "ent");
	assert_string_equal(sdt_user_probe__location(l0), "userprobe_target");
	assert_int_equal(sdt_user_probe__arg_count(l0), 1);
	assert_string_equal(sdt_user_probe__arg(l0, 0), "a=%di:s64");
	assert_string_equal(sdt_user_probe__line(l0, 0), sdt_user_probe__line(p, 0));
	assert_string_equal(sdt_user_probe__build_id(l0), sdt_user_probe__build_id(p));
	/* the header as stored, its group too: what sdt_cache__probe_add() writes back */
	assert_string_equal(sdt_user_probe__header(l0), sdt_user_probe__header(p));
	assert_string_equal(sdt_user_probe__name(l1), "ret");
	assert_true(sdt_user_probe__is_return(l1));
	sdt_user_probes__free(list);
	assert_int_equal(sdt_cache__probes(c, "r*", &list), 0);
	assert_int_equal(sdt_user_probes__count(list), 1);
	sdt_user_probes__free(list);

	assert_int_equal(sdt_cache__entries(c, &ent), 0);
	assert_int_equal(sdt_cache_entries__count(ent), 1);
	assert_int_equal(sdt_cache_entry__probe_count(sdt_cache_entries__entry(ent, 0)), 2);
	assert_string_equal(sdt_cache_entry__probe(sdt_cache_entries__entry(ent, 0), 0), "ent");
	sdt_cache_entries__free(ent);

	assert_int_equal(sdt_cache__probe_remove(c, "nothing", NULL), 0);
	assert_int_equal(sdt_cache__probe_remove(c, "ent", "/not/this/one"), 0);
	assert_int_equal(sdt_cache__probe_remove(c, "ent", NULL), 1);
	assert_int_equal(sdt_cache__probes(c, NULL, &list), 0);
	assert_int_equal(sdt_user_probes__count(list), 1);
	sdt_user_probes__free(list);
	/* removed, the name is free again */
	assert_int_equal(sdt_cache__probe_add(c, p), 0);

	sdt_user_probe__free(p);
	sdt_user_probe__free(q);
	sdt_cache__free(c);
	free(self);
	path = NULL;
	assert_true(asprintf(&path, "rm -rf '%s'", dir) > 0);
	assert_int_equal(system(path), 0);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_grammar_accepts), cmocka_unit_test(test_grammar_refuses),
	    cmocka_unit_test(test_group),	    cmocka_unit_test(test_define_locations),
	    cmocka_unit_test(test_define_refuses),  cmocka_unit_test(test_define_sdt_alias),
	    cmocka_unit_test(test_insn_boundary),   cmocka_unit_test(test_cache_roundtrip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
