/* SPDX-License-Identifier: MIT */
/*
 * The render stage alone (sdt_arg_render() and sdt_fetch_type() in lib/scan/argspec.c): struct
 * sdt_arg values built by hand, no parser involved. Fetch types, constants cut to their size,
 * displacement syntax, bit fields, the @+ offset of globals, address immediates, every kind that
 * has no fetcharg, and re-rendering.
 */
#include "argspec-test.h"

static const struct sdt_arch *x86_64, *i386, *a64;

static int setup(void **state)
{
	(void)state;
	x86_64 = sdt_arch_find(EM_X86_64, ELFCLASS64, false);
	i386 = sdt_arch_find(EM_386, ELFCLASS32, false);
	a64 = sdt_arch_find(EM_AARCH64, ELFCLASS64, false);
	return x86_64 && i386 && a64 ? 0 : -1;
}

/* A hand-made argument; ->symbol is copied so that sdt_arg_release() may free it. */
static struct sdt_arg make(enum sdt_arg_kind kind, unsigned int size, bool is_signed, bool is_float,
			   const char *reg, int64_t offset, const char *symbol)
{
	struct sdt_arg a;

	memset(&a, 0, sizeof(a));
	a.kind = kind;
	a.size = (uint8_t)size;
	a.is_signed = is_signed;
	a.is_float = is_float;
	if (reg)
		snprintf(a.reg, sizeof(a.reg), "%s", reg);
	a.offset = offset;
	a.symbol = symbol ? strdup(symbol) : NULL;
	return a;
}

/* Render and compare: the fetcharg @want, or (want == NULL) a reason containing @why. */
static void expect(const struct sdt_arch *arch, int elfclass, struct sdt_arg *a,
		   const struct sdt_render_ctx *rc, const char *want, const char *why)
{
	assert_int_equal(sdt_arg_render(arch, elfclass, a, rc), 0);
	if (want) {
		assert_non_null(a->fetch);
		assert_string_equal(a->fetch, want);
		assert_null(a->unavailable);
	} else {
		assert_null(a->fetch);
		assert_non_null(a->unavailable);
		if (why && !strstr(a->unavailable, why))
			fail_msg("reason '%s' does not mention '%s'", a->unavailable, why);
	}
	sdt_arg_release(a);
}

static void test_fetch_type(void **state)
{
	static const struct {
		unsigned int size;
		bool is_signed, is_float;
		const char *type;
	} t[] = {
	    {1, false, false, "u8"},  {2, false, false, "u16"}, {4, false, false, "u32"},
	    {8, false, false, "u64"}, {1, true, false, "s8"},	{2, true, false, "s16"},
	    {4, true, false, "s32"},  {8, true, false, "s64"},	{4, false, true, "x32"},
	    {8, false, true, "x64"},  {4, true, true, "x32"},	{2, false, true, "x16"},
	    {1, false, true, "x8"},   {16, false, false, NULL}, {16, false, true, NULL},
	    {0, false, false, NULL},  {3, true, false, NULL},	{12, false, true, NULL},
	    {32, false, false, NULL},
	};
	size_t i;

	(void)state;
	for (i = 0; i < AUT_COUNT(t); i++) {
		const char *got = sdt_fetch_type(t[i].size, t[i].is_signed, t[i].is_float);

		if (!aut_str_eq(got, t[i].type))
			fail_msg("sdt_fetch_type(%u, %d, %d) = %s, want %s", t[i].size,
				 t[i].is_signed, t[i].is_float, got ? got : "NULL",
				 t[i].type ? t[i].type : "NULL");
	}
}

static void test_const(void **state)
{
	/* the value is cut to the size, then printed as the kernel's \IMM reads it back */
	static const struct {
		int64_t v;
		unsigned int size;
		bool is_signed;
		const char *want;
	} t[] = {
	    {5, 4, true, "\\5:s32"},
	    {-7, 4, true, "\\-7:s32"},
	    {0, 1, false, "\\0:u8"},
	    {-1, 1, false, "\\255:u8"},
	    {-1, 1, true, "\\-1:s8"},
	    {255, 1, true, "\\-1:s8"},
	    {0x1ff, 1, false, "\\255:u8"},
	    {0x7f, 1, true, "\\127:s8"},
	    {0x80, 1, true, "\\-128:s8"},
	    {-1, 2, false, "\\65535:u16"},
	    {0x8000, 2, true, "\\-32768:s16"},
	    {0x12345, 2, false, "\\9029:u16"},
	    {-1, 4, false, "\\4294967295:u32"},
	    {0x80000000LL, 4, true, "\\-2147483648:s32"},
	    {0x7fffffffLL, 4, true, "\\2147483647:s32"},
	    {0x100000005LL, 4, false, "\\5:u32"},
	    {-1, 8, false, "\\18446744073709551615:u64"},
	    {-1, 8, true, "\\-1:s64"},
	    {INT64_MIN, 8, true, "\\-9223372036854775808:s64"},
	    {INT64_MIN, 8, false, "\\9223372036854775808:u64"},
	    {INT64_MAX, 8, true, "\\9223372036854775807:s64"},
	};
	struct sdt_arg a;
	size_t i;

	(void)state;
	for (i = 0; i < AUT_COUNT(t); i++) {
		a = make(SDT_ARG_CONST, t[i].size, t[i].is_signed, false, NULL, t[i].v, NULL);
		assert_int_equal(sdt_arg_render(x86_64, ELFCLASS64, &a, NULL), 0);
		if (!aut_str_eq(a.fetch, t[i].want))
			fail_msg("const %lld size %u signed %d: '%s', want '%s'", (long long)t[i].v,
				 t[i].size, t[i].is_signed, a.fetch ? a.fetch : "(null)",
				 t[i].want);
		sdt_arg_release(&a);
	}
	/* a float constant: raw bits, unsigned */
	a = make(SDT_ARG_CONST, 4, false, true, NULL, 0x3f800000, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, "\\1065353216:x32", NULL);
	/* size 16 has no type */
	a = make(SDT_ARG_CONST, 16, false, false, NULL, 1, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, NULL, "16-byte");
}

static void test_reg(void **state)
{
	struct sdt_arg a;

	(void)state;
	a = make(SDT_ARG_REG, 4, true, false, "ax", 0, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, "%ax:s32", NULL);
	a = make(SDT_ARG_REG, 8, false, false, "x29", 0, NULL);
	expect(a64, ELFCLASS64, &a, NULL, "%x29:u64", NULL);
	a = make(SDT_ARG_REG, 8, false, true, "ax", 0, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, "%ax:x64", NULL);

	/* high byte: a bit field of the register's slot, whose width is the class's */
	a = make(SDT_ARG_REG, 1, false, false, "ax", 0, NULL);
	a.bit_offset = 8;
	expect(x86_64, ELFCLASS64, &a, NULL, "%ax:b8@8/64", NULL);
	a = make(SDT_ARG_REG, 1, false, false, "dx", 0, NULL);
	a.bit_offset = 8;
	expect(i386, ELFCLASS32, &a, NULL, "%dx:b8@8/32", NULL);
	a = make(SDT_ARG_REG, 1, false, false, "bx", 0, NULL);
	a.bit_offset = 8;
	expect(NULL, ELFCLASS32, &a, NULL, "%bx:b8@8/32", NULL); /* no arch: from the class */

	/* wider than the register: a pair */
	a = make(SDT_ARG_REG, 8, true, false, "ax", 0, NULL);
	expect(i386, ELFCLASS32, &a, NULL, NULL, "8-byte value split over a register pair");
	a = make(SDT_ARG_REG, 8, false, true, "ax", 0, NULL);
	expect(i386, ELFCLASS32, &a, NULL, NULL, "register pair");
	a = make(SDT_ARG_REG, 16, false, true, "ax", 0, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, NULL, "long double");
	a = make(SDT_ARG_REG, 16, false, false, "ax", 0, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, NULL, "16-byte value");
}

static void test_mem(void **state)
{
	struct sdt_arg a;

	(void)state;
	/* a displacement always has its sign: +0, +8, -8 */
	a = make(SDT_ARG_MEM, 8, false, false, "sp", 0, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, "+0(%sp):u64", NULL);
	a = make(SDT_ARG_MEM, 4, true, false, "bp", -8, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, "-8(%bp):s32", NULL);
	a = make(SDT_ARG_MEM, 8, true, false, "di", 136, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, "+136(%di):s64", NULL);
	a = make(SDT_ARG_MEM, 8, false, false, "ax", INT64_MIN, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, "-9223372036854775808(%ax):u64", NULL);
	a = make(SDT_ARG_MEM, 8, false, false, "ax", INT64_MAX, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, "+9223372036854775807(%ax):u64", NULL);
	/* memory is not limited by the register width */
	a = make(SDT_ARG_MEM, 8, true, false, "sp", 4, NULL);
	expect(i386, ELFCLASS32, &a, NULL, "+4(%sp):s64", NULL);
	a = make(SDT_ARG_MEM, 4, false, true, "bp", -12, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, "-12(%bp):x32", NULL);
	/* a long double in memory: its 16 bytes as an array of words */
	a = make(SDT_ARG_MEM, 16, false, true, "sp", 0, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, "+0(%sp):x64[2]", NULL);
	a = make(SDT_ARG_MEM, 16, false, true, "bp", -24, NULL);
	expect(i386, ELFCLASS32, &a, NULL, "-24(%bp):x32[4]", NULL);
	/* a 16-byte integer is not decoded: not fetched */
	a = make(SDT_ARG_MEM, 16, true, false, "sp", 0, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, NULL, "16-byte value");
}

static void test_global(void **state)
{
	struct sdt_render_ctx rc = {.text_bias = 0x1000, .have_text_bias = true};
	struct sdt_render_ctx zero = {.text_bias = 0, .have_text_bias = true};
	struct sdt_render_ctx none = {.text_bias = 0x1000, .have_text_bias = false};
	struct sdt_arg a;

	(void)state;
	/* @+ is the symbol's vaddr minus (text vaddr - text offset) */
	a = make(SDT_ARG_GLOBAL, 8, true, false, NULL, 0, "g");
	a.sym_resolved = true;
	a.sym_addr = 0x4010;
	expect(x86_64, ELFCLASS64, &a, &rc, "@+0x3010:s64", NULL);
	a = make(SDT_ARG_GLOBAL, 8, true, false, NULL, 0, "g");
	a.sym_resolved = true;
	a.sym_addr = 0x4010;
	expect(x86_64, ELFCLASS64, &a, &zero, "@+0x4010:s64", NULL);
	/* non-PIE: text PT_LOAD at 0x401000, file offset 0x1000 */
	a = make(SDT_ARG_GLOBAL, 4, false, false, NULL, 8, "g_pair");
	a.sym_resolved = true;
	a.sym_addr = 0x404028;
	rc.text_bias = 0x400000;
	expect(x86_64, ELFCLASS64, &a, &rc, "@+0x4028:u32", NULL);
	a = make(SDT_ARG_GLOBAL, 4, false, false, NULL, 0, "g");
	a.sym_resolved = true;
	a.sym_addr = 0x400000;
	expect(x86_64, ELFCLASS64, &a, &rc, "@+0x0:u32", NULL);
	a = make(SDT_ARG_GLOBAL, 8, false, true, NULL, 0, "d");
	a.sym_resolved = true;
	a.sym_addr = 0xffffffffffff0000ULL;
	rc.text_bias = 0xffffffffff000000ULL;
	expect(x86_64, ELFCLASS64, &a, &rc, "@+0xff0000:x64", NULL);

	/* below the mapping: no @+ offset names it */
	a = make(SDT_ARG_GLOBAL, 4, false, false, NULL, 0, NULL);
	a.sym_resolved = true;
	a.sym_addr = 0;
	rc.text_bias = 0x1000;
	expect(x86_64, ELFCLASS64, &a, &rc, NULL, "below");

	/* not resolved, or no text bias */
	a = make(SDT_ARG_GLOBAL, 8, true, false, NULL, 0, "g_missing");
	expect(x86_64, ELFCLASS64, &a, &rc, NULL, "symbol 'g_missing'");
	a = make(SDT_ARG_GLOBAL, 8, true, false, NULL, 0, NULL);
	expect(x86_64, ELFCLASS64, &a, &rc, NULL, "'?'");
	a = make(SDT_ARG_GLOBAL, 8, true, false, NULL, 0, "g");
	a.sym_resolved = true;
	a.sym_addr = 0x4010;
	expect(x86_64, ELFCLASS64, &a, &none, NULL, "no loadable segment");
	a = make(SDT_ARG_GLOBAL, 8, true, false, NULL, 0, "g");
	a.sym_resolved = true;
	a.sym_addr = 0x4010;
	expect(x86_64, ELFCLASS64, &a, NULL, NULL, "no loadable segment");
	a = make(SDT_ARG_GLOBAL, 16, false, true, NULL, 0, "ld");
	a.sym_resolved = true;
	a.sym_addr = 0x4010;
	expect(x86_64, ELFCLASS64, &a, &rc, "@+0x3010:x64[2]", NULL);
}

static void test_addr(void **state)
{
	struct sdt_arg a;

	(void)state;
	/* the link-time address as a constant (the reader rebases it); no text bias needed */
	a = make(SDT_ARG_ADDR, 8, false, false, NULL, 0, ".LC0");
	a.sym_resolved = true;
	a.sym_addr = 0x4010;
	expect(x86_64, ELFCLASS64, &a, NULL, "\\16400:u64", NULL);
	a = make(SDT_ARG_ADDR, 8, false, false, NULL, 0, "g");
	a.sym_resolved = true;
	a.sym_addr = 0xffffffffffffff00ULL;
	expect(x86_64, ELFCLASS64, &a, NULL, "\\18446744073709551360:u64", NULL);
	a = make(SDT_ARG_ADDR, 4, false, false, NULL, 0, "g");
	a.sym_resolved = true;
	a.sym_addr = 0x8049010;
	expect(i386, ELFCLASS32, &a, NULL, "\\134516752:u32", NULL);
	a = make(SDT_ARG_ADDR, 8, false, false, NULL, 0, "g_gone");
	expect(x86_64, ELFCLASS64, &a, NULL, NULL, "symbol 'g_gone'");
}

static void test_no_fetcharg(void **state)
{
	struct sdt_arg a;

	(void)state;
	a = make(SDT_ARG_INDEXED, 4, true, false, "dx", 0, NULL);
	snprintf(a.index_reg, sizeof(a.index_reg), "r8");
	a.scale = 4;
	expect(x86_64, ELFCLASS64, &a, NULL, NULL, "indexed");
	a = make(SDT_ARG_TLS, 8, true, false, NULL, 0, "t_tls");
	expect(x86_64, ELFCLASS64, &a, NULL, NULL, "thread-local variable 't_tls'");
	a = make(SDT_ARG_TLS, 8, true, false, NULL, 0, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, NULL, "'?'");
	a = make(SDT_ARG_VECTOR, 8, false, true, NULL, 0, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, NULL, "vector register");
	a = make(SDT_ARG_REGPAIR, 8, true, false, "r10", 0, NULL);
	expect(NULL, ELFCLASS32, &a, NULL, NULL, "8-byte value split over a register pair");

	/* invalid: the parser's reason is kept; without one, a generic reason */
	a = make(SDT_ARG_INVALID, 4, false, false, NULL, 0, NULL);
	a.unavailable = strdup("unknown register");
	expect(x86_64, ELFCLASS64, &a, NULL, NULL, "unknown register");
	a = make(SDT_ARG_INVALID, 4, false, false, NULL, 0, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, NULL, "cannot parse operand");
	/* a kind the renderer does not know */
	a = make((enum sdt_arg_kind)99, 4, false, false, "ax", 0, NULL);
	expect(x86_64, ELFCLASS64, &a, NULL, NULL, "cannot parse operand");
}

static void test_rerender(void **state)
{
	struct sdt_render_ctx rc = {.text_bias = 0x1000, .have_text_bias = true};
	struct sdt_arg a;

	(void)state;
	/* unavailable (unresolved), then resolved: the old reason goes */
	a = make(SDT_ARG_GLOBAL, 8, true, false, NULL, 0, "g");
	assert_int_equal(sdt_arg_render(x86_64, ELFCLASS64, &a, &rc), 0);
	assert_null(a.fetch);
	assert_non_null(a.unavailable);
	a.sym_resolved = true;
	a.sym_addr = 0x2000;
	assert_int_equal(sdt_arg_render(x86_64, ELFCLASS64, &a, &rc), 0);
	assert_string_equal(a.fetch, "@+0x1000:s64");
	assert_null(a.unavailable);
	/* the same again: identical, nothing leaked (ASan) */
	assert_int_equal(sdt_arg_render(x86_64, ELFCLASS64, &a, &rc), 0);
	assert_string_equal(a.fetch, "@+0x1000:s64");
	/* fetchable, then not: the old fetcharg goes */
	assert_int_equal(sdt_arg_render(x86_64, ELFCLASS64, &a, NULL), 0);
	assert_null(a.fetch);
	assert_non_null(a.unavailable);
	sdt_arg_release(&a);
	/* release twice is harmless, and so is NULL */
	sdt_arg_release(&a);
	sdt_arg_release(NULL);
	sdt_args_free(NULL, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fetch_type),	cmocka_unit_test(test_const),
	    cmocka_unit_test(test_reg),		cmocka_unit_test(test_mem),
	    cmocka_unit_test(test_global),	cmocka_unit_test(test_addr),
	    cmocka_unit_test(test_no_fetcharg), cmocka_unit_test(test_rerender),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
