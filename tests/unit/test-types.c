/* SPDX-License-Identifier: MIT */
/*
 * Typed arguments: C type -> fetch type, type keywords, names, the "(name:type, ...)" list, the
 * typed fetch of every operand kind, and choosing a site's types (spec, then type files).
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "scan/arch/arch.h"
#include "scan/argspec.h"
#include "scan/types.h"
#include "sdtrace/sdtrace.h"

struct ctype_case {
	const char *ctype;
	enum sdt_type_kind kind;
	unsigned int size; /* for a word size of 8 */
	bool is_signed;
};

static void test_from_c(void **state)
{
	static const struct ctype_case cases[] = {
	    {"char *", SDT_TYPE_STRING, 8, false},
	    {"const char *", SDT_TYPE_STRING, 8, false},
	    {"char const *", SDT_TYPE_STRING, 8, false},
	    {"const char *const", SDT_TYPE_STRING, 8, false},
	    {"unsigned char *", SDT_TYPE_STRING, 8, false},
	    {"signed char *", SDT_TYPE_STRING, 8, false},
	    {"char **", SDT_TYPE_HEX, 8, false},
	    {"char", SDT_TYPE_CHAR, 1, true},
	    {"signed char", SDT_TYPE_INT, 1, true},
	    {"unsigned char", SDT_TYPE_INT, 1, false},
	    {"short", SDT_TYPE_INT, 2, true},
	    {"short int", SDT_TYPE_INT, 2, true},
	    {"signed short", SDT_TYPE_INT, 2, true},
	    {"unsigned short", SDT_TYPE_INT, 2, false},
	    {"unsigned short int", SDT_TYPE_INT, 2, false},
	    {"int", SDT_TYPE_INT, 4, true},
	    {"signed", SDT_TYPE_INT, 4, true},
	    {"signed int", SDT_TYPE_INT, 4, true},
	    {"unsigned", SDT_TYPE_INT, 4, false},
	    {"unsigned int", SDT_TYPE_INT, 4, false},
	    {"const volatile int", SDT_TYPE_INT, 4, true},
	    {"long", SDT_TYPE_INT, 8, true},
	    {"long int", SDT_TYPE_INT, 8, true},
	    {"unsigned long", SDT_TYPE_INT, 8, false},
	    {"long unsigned int", SDT_TYPE_INT, 8, false},
	    {"long long", SDT_TYPE_INT, 8, true},
	    {"long long int", SDT_TYPE_INT, 8, true},
	    {"unsigned long long", SDT_TYPE_INT, 8, false},
	    {"int8_t", SDT_TYPE_INT, 1, true},
	    {"int16_t", SDT_TYPE_INT, 2, true},
	    {"int32_t", SDT_TYPE_INT, 4, true},
	    {"int64_t", SDT_TYPE_INT, 8, true},
	    {"uint8_t", SDT_TYPE_INT, 1, false},
	    {"uint16_t", SDT_TYPE_INT, 2, false},
	    {"uint32_t", SDT_TYPE_INT, 4, false},
	    {"uint64_t", SDT_TYPE_INT, 8, false},
	    {"size_t", SDT_TYPE_INT, 8, false},
	    {"ssize_t", SDT_TYPE_INT, 8, true},
	    {"pid_t", SDT_TYPE_INT, 4, true},
	    {"uintptr_t", SDT_TYPE_INT, 8, false},
	    {"intptr_t", SDT_TYPE_INT, 8, true},
	    {"bool", SDT_TYPE_INT, 1, false},
	    {"_Bool", SDT_TYPE_INT, 1, false},
	    {"float", SDT_TYPE_FLOAT, 4, true},
	    {"double", SDT_TYPE_FLOAT, 8, true},
	    {"void *", SDT_TYPE_HEX, 8, false},
	    {"const void *", SDT_TYPE_HEX, 8, false},
	    {"void **", SDT_TYPE_HEX, 8, false},
	    {"int *", SDT_TYPE_HEX, 8, false},
	    {"uint64_t *", SDT_TYPE_HEX, 8, false},
	    {"struct foo *", SDT_TYPE_HEX, 8, false},
	    {"const struct foo *", SDT_TYPE_HEX, 8, false},
	    {"union u *", SDT_TYPE_HEX, 8, false},
	    {"enum color", SDT_TYPE_INT, 4, true},
	    {"PyObject *", SDT_TYPE_HEX, 8, false},
	    /* a typedef the file did not define, and sdtrace's `auto`: the note decides */
	    {"LWLockMode", SDT_TYPE_DEFAULT, 0, false},
	    {"auto", SDT_TYPE_DEFAULT, 0, false},
	};
	static const char *const bad[] = {
	    "",
	    "*",
	    "int int",
	    "short long",
	    "unsigned signed",
	    "char x y",
	    "struct",
	    "struct *",
	    "int uint32_t",
	    "foo bar",
	    "char *x",
	    "long long long",
	    "float int",
	    "unsigned float",
	    "int-x",
	    "(int)",
	    "void void",
	};
	static const char *const unsupported[] = {"long double", "struct foo", "union u", "void"};
	struct sdt_arg_type t;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&t, 0xff, sizeof(t));
		t.name = NULL;
		if (sdt_type__from_c(cases[i].ctype, 8, &t))
			fail_msg("'%s' should map", cases[i].ctype);
		if (t.kind != cases[i].kind || t.size != cases[i].size ||
		    (t.kind != SDT_TYPE_DEFAULT && t.kind != SDT_TYPE_HEX &&
		     t.kind != SDT_TYPE_STRING && t.is_signed != cases[i].is_signed))
			fail_msg("'%s': kind %d size %u signed %d", cases[i].ctype, t.kind, t.size,
				 t.is_signed);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (sdt_type__from_c(bad[i], 8, &t) != -EINVAL)
			fail_msg("'%s' should be -EINVAL", bad[i]);
	}
	for (i = 0; i < sizeof(unsupported) / sizeof(unsupported[0]); i++) {
		if (sdt_type__from_c(unsupported[i], 8, &t) != -ENOTSUP)
			fail_msg("'%s' should be -ENOTSUP", unsupported[i]);
	}
	/* word-sized types follow the target */
	assert_int_equal(sdt_type__from_c("long", 4, &t), 0);
	assert_int_equal(t.size, 4);
	assert_int_equal(sdt_type__from_c("size_t", 4, &t), 0);
	assert_int_equal(t.size, 4);
	assert_int_equal(sdt_type__from_c("char *", 4, &t), 0);
	assert_int_equal(t.size, 4);
	assert_int_equal(sdt_type__from_c("void *", 4, &t), 0);
	assert_int_equal(t.size, 4);
	assert_int_equal(sdt_type__from_c("long long", 4, &t), 0);
	assert_int_equal(t.size, 8);
	assert_int_equal(sdt_type__from_c("int", 2, &t), -EINVAL);
	/* a huge type is refused, not overflowed */
	{
		char big[1024];

		memset(big, 'a', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		assert_int_equal(sdt_type__from_c(big, 8, &t), -EINVAL);
	}
}

static void test_keywords(void **state)
{
	static const char *const kws[] = {
	    "string", "char", "float", "double", "s8", "s16", "s32", "s64",
	    "u8",     "u16",  "u32",   "u64",	 "x8", "x16", "x32", "x64",
	};
	static const char *const bad[] = {"", "S32", "s128", "int", "u", "x", "strings", "s 8"};
	struct sdt_arg_type t = {0};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(kws) / sizeof(kws[0]); i++) {
		assert_int_equal(sdt_type__parse(kws[i], &t), 0);
		assert_string_equal(sdt_type__keyword(&t), kws[i]);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(sdt_type__parse(bad[i], &t), -EINVAL);
	assert_int_equal(sdt_type__parse("x16", &t), 0);
	assert_int_equal(t.kind, SDT_TYPE_HEX);
	assert_int_equal(t.size, 2);
	assert_int_equal(sdt_type__parse("s64", &t), 0);
	assert_true(t.is_signed);
	t.kind = SDT_TYPE_DEFAULT;
	assert_string_equal(sdt_type__keyword(&t), "");
}

static void test_names(void **state)
{
	char long_name[SDT_MAX_ARG_NAME + 2];

	(void)state;
	assert_true(sdt_type__valid_name("filename"));
	assert_true(sdt_type__valid_name("_x1"));
	assert_true(sdt_type__valid_name("A"));
	assert_false(sdt_type__valid_name(""));
	assert_false(sdt_type__valid_name("1x"));
	assert_false(sdt_type__valid_name("a b"));
	assert_false(sdt_type__valid_name("a\nb"));
	assert_false(sdt_type__valid_name("a-b"));
	assert_false(sdt_type__valid_name("a=b"));
	assert_false(sdt_type__valid_name("common_pid"));
	assert_false(sdt_type__valid_name("__probe_ip"));
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = '\0';
	assert_false(sdt_type__valid_name(long_name));
	long_name[SDT_MAX_ARG_NAME] = '\0';
	assert_true(sdt_type__valid_name(long_name));
}

static void test_list(void **state)
{
	static const char *const bad[] = {
	    ":string", "a:",	     "a:int",	 "a,,b",    "a,",  ",a",	"a:string,a", "1a",
	    "a b",     "a:string x", "common_x", "a\n:s32", "a;b", "a:s32:s32", "a:(s32)",
	};
	struct sdt_arg_type *t;
	size_t n, i;

	(void)state;
	assert_int_equal(sdt_arg_types__parse(" filename:string, funcname , lineno:s32 ", &t, &n),
			 0);
	assert_int_equal(n, 3);
	assert_string_equal(t[0].name, "filename");
	assert_int_equal(t[0].kind, SDT_TYPE_STRING);
	assert_string_equal(t[1].name, "funcname");
	assert_int_equal(t[1].kind, SDT_TYPE_DEFAULT);
	assert_string_equal(t[2].name, "lineno");
	assert_int_equal(t[2].kind, SDT_TYPE_INT);
	assert_int_equal(t[2].size, 4);
	sdt_arg_types__free(t, n);

	assert_int_equal(sdt_arg_types__parse("", &t, &n), 0);
	assert_int_equal(n, 0);
	sdt_arg_types__free(t, n);
	assert_int_equal(sdt_arg_types__parse("  ", &t, &n), 0);
	assert_int_equal(n, 0);
	sdt_arg_types__free(t, n);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t = (struct sdt_arg_type *)0x1;
		if (sdt_arg_types__parse(bad[i], &t, &n) != -EINVAL)
			fail_msg("'%s' should be rejected", bad[i]);
		assert_null(t);
		assert_true(sdt_errmsg()[0] != '\0');
	}
	/* more than SDT_MAX_ARGS */
	{
		char buf[SDT_MAX_ARGS * 8 + 16];
		size_t o = 0;

		for (i = 0; i <= SDT_MAX_ARGS; i++)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%sa%zu", i ? "," : "", i);
		assert_int_equal(sdt_arg_types__parse(buf, &t, &n), -EINVAL);
	}
}

/* ---- typed fetches ---------------------------------------------------------------------- */

struct fetch_case {
	const char *spec;
	const char *type;
	const char *want; /* NULL: an error */
	int err;
};

static const struct sdt_arch *x86(void)
{
	const struct sdt_arch *a = sdt_arch_find(EM_X86_64, ELFCLASS64, false);

	assert_non_null(a);
	return a;
}

/* Parse and render @spec for x86_64 (globals at 0x4010 + addend, text bias 0x1000). */
static void make_arg(const char *spec, struct sdt_arg *a)
{
	struct sdt_render_ctx rc = {.text_bias = 0x1000, .have_text_bias = true};

	memset(a, 0, sizeof(*a));
	assert_int_equal(sdt_arg_parse(x86(), ELFCLASS64, spec, a), 0);
	if (a->kind == SDT_ARG_GLOBAL || a->kind == SDT_ARG_ADDR) {
		a->sym_resolved = true;
		a->sym_addr = 0x4010 + (uint64_t)a->offset;
	}
	assert_int_equal(sdt_arg_render(x86(), ELFCLASS64, a, &rc), 0);
}

static void test_typed_fetch(void **state)
{
	static const struct fetch_case cases[] = {
	    /* strings: the pointer, fetched through the kernel's :string */
	    {"8@%rbp", "string", "+0(%bp):string", 0},
	    {"8@%r12", "string", "+0(%r12):string", 0},
	    {"8@-8(%rbp)", "string", "+0(-8(%bp)):string", 0},
	    {"8@(%rdi)", "string", "+0(+0(%di)):string", 0},
	    {"8@g_ptr(%rip)", "string", "+0(@+0x3010):string", 0},
	    {"8@$.LC0", "string", "@+0x3010:string", 0},
	    {"-4@%eax", "string", NULL, -EINVAL},
	    {"8@$0", "string", NULL, -ENOTSUP},
	    {"8@(%rdi,%rsi,8)", "string", NULL, -ENOTSUP},
	    /* integers: same size, other sign or base */
	    {"-4@%eax", "x32", "%ax:x32", 0},
	    {"-4@%eax", "u32", "%ax:u32", 0},
	    {"4@-20(%rbp)", "s32", "-20(%bp):s32", 0},
	    {"1@%al", "u8", "%ax:u8", 0},
	    {"-2@%bx", "x16", "%bx:x16", 0},
	    {"-4@$-7", "x32", "\\-7:x32", 0},
	    {"8@g(%rip)", "s64", "@+0x3010:s64", 0},
	    {"-4@%eax", "s64", NULL, -EINVAL},
	    {"8@%rax", "u8", NULL, -EINVAL},
	    /* a high-byte register stays a bit field */
	    {"1@%ah", "x8", "%ax:b8@8/64", 0},
	    {"1@%ah", "char", "%ax:b8@8/64", 0},
	    /* floats: the raw bits */
	    {"8@%rax", "double", "%ax:x64", 0},
	    {"8f@%rax", "double", "%ax:x64", 0},
	    {"4f@-12(%rbp)", "float", "-12(%bp):x32", 0},
	    {"4@%eax", "double", NULL, -EINVAL},
	    {"8f@%rax", "float", NULL, -EINVAL},
	    /* char */
	    {"-1@%dil", "char", "%di:s8", 0},
	    {"4@%eax", "char", NULL, -EINVAL},
	};
	struct sdt_type_ctx ctx = {
	    .provider = "prov",
	    .event = "ev",
	    .argno = 2,
	    .word_size = 8,
	    .text_bias = 0x1000,
	};
	struct sdt_arg_type t = {0};
	struct sdt_arg a;
	size_t i;
	char *out;
	int err;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		make_arg(cases[i].spec, &a);
		memset(&t, 0, sizeof(t));
		assert_int_equal(sdt_type__parse(cases[i].type, &t), 0);
		out = (char *)0x1;
		err = sdt_typed_fetch(&a, &t, &ctx, &out);
		if (err != cases[i].err)
			fail_msg("%s as %s: %d (%s), want %d", cases[i].spec, cases[i].type, err,
				 sdt_errmsg(), cases[i].err);
		if (cases[i].want) {
			if (!out || strcmp(out, cases[i].want))
				fail_msg("%s as %s: '%s', want '%s'", cases[i].spec, cases[i].type,
					 out ? out : "(null)", cases[i].want);
		} else {
			assert_null(out);
			/* the message names provider:event and the argument */
			if (!strstr(sdt_errmsg(), "prov:ev") || !strstr(sdt_errmsg(), "argument 2"))
				fail_msg("%s as %s: message '%s'", cases[i].spec, cases[i].type,
					 sdt_errmsg());
		}
		free(out == (char *)0x1 ? NULL : out);
		sdt_arg_release(&a);
	}

	/* a size mismatch names both sizes */
	make_arg("-4@%eax", &a);
	assert_int_equal(sdt_type__parse("s64", &t), 0);
	t.name = (char *)"lineno";
	assert_int_equal(sdt_typed_fetch(&a, &t, &ctx, &out), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "lineno:s64"));
	assert_non_null(strstr(sdt_errmsg(), "8 bytes"));
	assert_non_null(strstr(sdt_errmsg(), "4 bytes"));
	t.name = NULL;
	/* the default type is the note's own fetch */
	t.kind = SDT_TYPE_DEFAULT;
	assert_int_equal(sdt_typed_fetch(&a, &t, &ctx, &out), 0);
	assert_string_equal(out, "%ax:s32");
	free(out);
	sdt_arg_release(&a);

	/* a 32-bit target: a string needs a 4-byte pointer */
	ctx.word_size = 4;
	make_arg("4@%eax", &a);
	assert_int_equal(sdt_type__parse("string", &t), 0);
	assert_int_equal(sdt_typed_fetch(&a, &t, &ctx, &out), 0);
	assert_string_equal(out, "+0(%ax):string");
	free(out);
	sdt_arg_release(&a);
}

/* ---- sites of a real fixture ------------------------------------------------------------ */

static const struct sdt_site *find_site(const struct sdt_file *f, const char *name)
{
	size_t i;

	for (i = 0; i < sdt_file__site_count(f); i++) {
		if (!strcmp(sdt_site__name(sdt_file__site(f, i)), name))
			return sdt_file__site(f, i);
	}
	fail_msg("no site %s", name);
	return NULL;
}

static struct sdt_file *open_fixture(const char *name)
{
	struct sdt_file *f = NULL;
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", FIXTURES_DIR, name);
	if (sdt_file__open(path, NULL, &f))
		fail_msg("%s: %s", path, sdt_errmsg());
	return f;
}

static void test_resolve(void **state)
{
	/* x86_64.elf, fix:regs: -1@%dil -2@%si 4@%edx -8@%rcx -4@%eax */
	static const char dfile[] =
	    "provider fix {\n"
	    "  probe regs(char c, short s, unsigned int u, char *str, int i);\n"
	    "  probe ints(int, int);\n"
	    "  probe global(long wrong, int right);\n"
	    "};\n";
	struct sdt_file *f = open_fixture("x86_64.elf");
	const struct sdt_site *regs = find_site(f, "regs"), *glob = find_site(f, "global");
	struct sdt_arg_type *t;
	struct sdt_types *types;
	struct sdt_spec *spec;
	size_t n;
	char *fetch;

	(void)state;
	assert_int_equal(sdt_types__new(&types), 0);
	assert_int_equal(sdt_types__load_mem(types, dfile, strlen(dfile), "t.d"), 3);

	/* the file's types */
	assert_int_equal(sdt_types__resolve(types, NULL, f, regs, &t, &n), SDT_TYPES_FILE);
	assert_int_equal(n, 5);
	assert_string_equal(t[0].name, "c");
	assert_int_equal(t[0].kind, SDT_TYPE_CHAR);
	assert_int_equal(t[3].kind, SDT_TYPE_STRING);
	assert_int_equal(t[3].size, 8);
	assert_int_equal(sdt_arg__typed_fetch(f, regs, 3, &t[3], &fetch), 0);
	assert_string_equal(fetch, "+0(%cx):string");
	free(fetch);
	assert_int_equal(sdt_arg__typed_fetch(f, regs, 2, &t[2], &fetch), 0);
	assert_string_equal(fetch, "%dx:u32");
	free(fetch);
	assert_int_equal(sdt_arg__typed_fetch(f, regs, 5, &t[2], &fetch), -ERANGE);
	sdt_arg_types__free(t, n);
	assert_int_equal(sdt_types__file_mismatch(types, f, regs), 0);

	/* a size that disagrees gives way to the note's type; the name stays; the reason */
	assert_int_equal(sdt_types__resolve(types, NULL, f, glob, &t, &n), SDT_TYPES_FILE);
	assert_string_equal(t[0].name, "wrong");
	assert_int_equal(t[0].kind, SDT_TYPE_DEFAULT);
	assert_int_equal(t[1].kind, SDT_TYPE_INT);
	sdt_arg_types__free(t, n);
	assert_int_equal(sdt_types__file_mismatch(types, f, glob), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "t.d:4"));
	assert_non_null(strstr(sdt_errmsg(), "fix:global"));

	/* a count that disagrees: not used */
	assert_int_equal(sdt_types__resolve(types, NULL, f, find_site(f, "ints"), &t, &n),
			 SDT_TYPES_NONE);
	assert_int_equal(n, 6);
	assert_null(t[0].name);
	sdt_arg_types__free(t, n);
	assert_int_equal(sdt_types__file_mismatch(types, f, find_site(f, "ints")), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "2 arguments"));

	/* the spec wins over the file, and is strict */
	assert_int_equal(sdt_spec__parse("%fix:regs(a, b:x16)", &spec), 0);
	assert_int_equal(sdt_types__resolve(types, spec, f, regs, &t, &n), SDT_TYPES_SPEC);
	assert_int_equal(n, 5);
	assert_string_equal(t[0].name, "a");
	assert_int_equal(t[0].kind, SDT_TYPE_DEFAULT);
	assert_int_equal(t[1].kind, SDT_TYPE_HEX);
	assert_null(t[2].name);
	sdt_arg_types__free(t, n);
	sdt_spec__free(spec);

	assert_int_equal(sdt_spec__parse("%fix:regs(a, b, c, d, e:string)", &spec), 0);
	assert_int_equal(sdt_types__resolve(types, spec, f, regs, &t, &n), -EINVAL);
	assert_null(t);
	assert_non_null(strstr(sdt_errmsg(), "fix:regs"));
	assert_non_null(strstr(sdt_errmsg(), "argument 5"));
	assert_non_null(strstr(sdt_errmsg(), "4 bytes"));
	sdt_spec__free(spec);

	assert_int_equal(sdt_spec__parse("%fix:regs(a, b, c, d, e, f)", &spec), 0);
	assert_int_equal(sdt_types__resolve(types, spec, f, regs, &t, &n), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "6 arguments"));
	sdt_spec__free(spec);

	/* no types anywhere */
	assert_int_equal(sdt_types__resolve(NULL, NULL, f, regs, &t, &n), SDT_TYPES_NONE);
	assert_int_equal(n, 5);
	sdt_arg_types__free(t, n);

	sdt_types__free(types);
	sdt_file__free(f);
}

static void test_i386(void **state)
{
	/* i386.elf, fix:ints: -1@5(%esp) 2@6(%esp) -4@12(%esp) 8@16(%esp) 4@8(%esp) -4@$7 */
	struct sdt_file *f = open_fixture("i386.elf");
	const struct sdt_site *s = find_site(f, "ints");
	struct sdt_arg_type t = {0};
	char *fetch;

	(void)state;
	assert_int_equal(sdt_type__parse("string", &t), 0);
	assert_int_equal(sdt_arg__typed_fetch(f, s, 4, &t, &fetch), 0);
	assert_string_equal(fetch, "+0(+8(%sp)):string");
	free(fetch);
	/* an 8-byte argument is no pointer on a 32-bit target */
	assert_int_equal(sdt_arg__typed_fetch(f, s, 3, &t, &fetch), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "4-byte pointer"));
	/* the constant 7 is not a pointer */
	assert_int_equal(sdt_arg__typed_fetch(f, s, 5, &t, &fetch), -ENOTSUP);
	sdt_file__free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_from_c),	cmocka_unit_test(test_keywords),
	    cmocka_unit_test(test_names),	cmocka_unit_test(test_list),
	    cmocka_unit_test(test_typed_fetch), cmocka_unit_test(test_resolve),
	    cmocka_unit_test(test_i386),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
