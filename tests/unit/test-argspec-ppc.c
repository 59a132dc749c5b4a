/* SPDX-License-Identifier: MIT */
/*
 * PowerPC operands (lib/scan/arch/ppc.c) through parse and render, for ppc64 (either byte order) and
 * 32-bit ppc: every form of REFERENCE.md section 2 and usdt-anchors.md 3.1 (a bare number is a
 * register, `iN` a constant, `N,M` indexed), TOC-relative globals, TLS, FP/vector registers,
 * malformed and hostile specs.
 */
#include "argspec-test.h"

#define REG	SDT_ARG_REG
#define MEM	SDT_ARG_MEM
#define CONST	SDT_ARG_CONST
#define GLOBAL	SDT_ARG_GLOBAL
#define ADDR	SDT_ARG_ADDR
#define INDEXED SDT_ARG_INDEXED
#define TLS	SDT_ARG_TLS
#define VECTOR	SDT_ARG_VECTOR

static struct arch_under_test ppc64, ppc64be, ppc32;

static const struct arg_case cases[] = {
    /* a bare number is a register */
    {.spec = "8@7", .kind = REG, .fetch = "%gpr7:u64", .reg = "gpr7"},
    {.spec = "8@0", .kind = REG, .fetch = "%gpr0:u64"},
    {.spec = "-8@31", .kind = REG, .fetch = "%gpr31:s64"},
    {.spec = "1@4", .kind = REG, .fetch = "%gpr4:u8"},
    {.spec = "-2@4", .kind = REG, .fetch = "%gpr4:s16"},
    {.spec = "-4@3", .kind = REG, .fetch = "%gpr3:s32"},
    {.spec = "8@r7", .kind = REG, .fetch = "%gpr7:u64"},
    {.spec = "8@%r7", .kind = REG, .fetch = "%gpr7:u64"},
    {.spec = "8@%r31", .kind = REG, .fetch = "%gpr31:u64"},
    {.spec = "8f@9", .kind = REG, .fetch = "%gpr9:x64"},
    {.spec = "4f@10", .kind = REG, .fetch = "%gpr10:x32"},
    {.spec = "16f@10", .kind = REG, .fetch = NULL, .why = "16-byte"},

    /* constants carry 'i' */
    {.spec = "-4@i5", .kind = CONST, .fetch = "\\5:s32"},
    {.spec = "-4@i-1", .kind = CONST, .fetch = "\\-1:s32"},
    {.spec = "-4@i-7", .kind = CONST, .fetch = "\\-7:s32"},
    {.spec = "8@i-1", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "8@i18446744073709551615", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "-8@i-9223372036854775808", .kind = CONST, .fetch = "\\-9223372036854775808:s64"},
    {.spec = "1@i-1", .kind = CONST, .fetch = "\\255:u8"},
    {.spec = "-1@i-1", .kind = CONST, .fetch = "\\-1:s8"},
    {.spec = "4@i0x10", .kind = CONST, .fetch = "\\16:u32"},

    /* memory: D(RA) */
    {.spec = "-4@0(3)", .kind = MEM, .fetch = "+0(%gpr3):s32", .reg = "gpr3"},
    {.spec = "-8@0(11)", .kind = MEM, .fetch = "+0(%gpr11):s64"},
    {.spec = "-8@-8(31)",
     .kind = MEM,
     .fetch = "-8(%gpr31):s64",
     .check_offset = true,
     .offset = -8},
    {.spec = "8@8(%r3)", .kind = MEM, .fetch = "+8(%gpr3):u64"},
    {.spec = "8@8(r3)", .kind = MEM, .fetch = "+8(%gpr3):u64"},
    {.spec = "4@112(1)", .kind = MEM, .fetch = "+112(%gpr1):u32"},
    {.spec = "4@0x10(1)", .kind = MEM, .fetch = "+16(%gpr1):u32"},
    {.spec = "8f@-40(31)", .kind = MEM, .fetch = "-40(%gpr31):x64"},
    {.spec = "16f@32(1)", .kind = MEM, .fetch = "+32(%gpr1):x64[2]"},

    /* indexed: RA,RB; r0 in the RA slot reads as 0 */
    {.spec = "-8@3,4",
     .kind = INDEXED,
     .fetch = NULL,
     .why = "indexed",
     .reg = "gpr3",
     .index = "gpr4",
     .scale = 1},
    {.spec = "-4@5,6", .kind = INDEXED, .fetch = NULL, .reg = "gpr5", .index = "gpr6", .scale = 1},
    {.spec = "-8@%r3,%r4",
     .kind = INDEXED,
     .fetch = NULL,
     .reg = "gpr3",
     .index = "gpr4",
     .scale = 1},
    {.spec = "8@0,4", .kind = MEM, .fetch = "+0(%gpr4):u64", .reg = "gpr4"},

    /* globals: the register holds sym@toc@ha (or sym@ha, or is the TOC pointer) */
    {.spec = "-8@g_x@toc@l(9)", .kind = GLOBAL, .fetch = "@+0x3010:s64", .symbol = "g_x"},
    {.spec = "-8@g_x+8@toc@l(9)",
     .kind = GLOBAL,
     .fetch = "@+0x3018:s64",
     .symbol = "g_x",
     .check_offset = true,
     .offset = 8},
    {.spec = "4@g@l(9)", .kind = GLOBAL, .fetch = "@+0x3010:u32", .symbol = "g"},
    {.spec = "4@g@toc(2)", .kind = GLOBAL, .fetch = "@+0x3010:u32", .symbol = "g"},
    {.spec = "8@.LC0@toc@l(9)",
     .kind = GLOBAL,
     .fetch = NULL,
     .why = "'.LC0'",
     .symbol = ".LC0",
     .unresolved = true},

    /* thread-local */
    {.spec = "4@t@tprel@l(9)", .kind = TLS, .fetch = NULL, .why = "'t'", .symbol = "t"},
    {.spec = "4@t@tprel(13)", .kind = TLS, .fetch = NULL, .symbol = "t"},
    {.spec = "4@t@got@tprel@l(9)", .kind = TLS, .fetch = NULL, .symbol = "t"},
    {.spec = "4@t@dtprel@l(3)", .kind = TLS, .fetch = NULL, .symbol = "t"},

    /* address immediates */
    {.spec = "8@.LC0", .kind = ADDR, .fetch = "\\16400:u64", .symbol = ".LC0"},
    {.spec = "8@g_x", .kind = ADDR, .fetch = "\\16400:u64", .symbol = "g_x"},
    {.spec = "8@g_x+8", .kind = ADDR, .fetch = "\\16408:u64", .symbol = "g_x"},
    {.spec = "8@i2c_bus", .kind = ADDR, .fetch = "\\16400:u64", .symbol = "i2c_bus"},
    {.spec = "8@i", .kind = ADDR, .fetch = "\\16400:u64", .symbol = "i"},

    /* FP, VMX and VSX registers */
    {.spec = "8f@f1", .kind = VECTOR, .fetch = NULL, .why = "vector"},
    {.spec = "8f@%f31", .kind = VECTOR, .fetch = NULL},
    {.spec = "16@v2", .kind = VECTOR, .fetch = NULL},
    {.spec = "16@%v31", .kind = VECTOR, .fetch = NULL},
    {.spec = "16@vs3", .kind = VECTOR, .fetch = NULL},
    {.spec = "16@vs63", .kind = VECTOR, .fetch = NULL},
};

/* ppc32: registers are 4 bytes; the rest is the same syntax */
static const struct arg_case cases32[] = {
    {.spec = "4@7", .kind = REG, .fetch = "%gpr7:u32"},
    {.spec = "-4@%r3", .kind = REG, .fetch = "%gpr3:s32"},
    {.spec = "-8@3", .kind = REG, .fetch = NULL, .why = "register pair"},
    {.spec = "-8@8(31)", .kind = MEM, .fetch = "+8(%gpr31):s64"},
    {.spec = "-4@i5", .kind = CONST, .fetch = "\\5:s32"},
    {.spec = "4@g@l(9)", .kind = GLOBAL, .fetch = "@+0x3010:u32", .symbol = "g"},
    {.spec = "4@.LC0", .kind = ADDR, .fetch = "\\16400:u32", .symbol = ".LC0"},
};

static const char *const bad[] = {
    "8@32",	    "8@r32",	     "8@%r32",	      "8@07",	       "8@%7",
    "8@-1",	    "8@5 ",	     "8@5,",	      "8@5,6,7",       "8@5,f1",
    "8@f1,5",	    "8@0(0)",	     "8@8(%r0)",      "8@8(",	       "8@8(3",
    "8@8(3)x",	    "8@8(f1)",	     "8@8(32)",	      "8@(3)",	       "8@8(3,4)",
    "8@i5-",	    "8@i-",	     "8@i-x",	      "8@i5+",	       "8@i99999999999999999999",
    "8@vs64",	    "8@f32",	     "8@%f32",	      "8@v32",	       "8@%x",
    "8@g(9)",	    "8@g@got(30)",   "8@g@got@l(9)",  "8@g@ha(9)",     "8@g@(9)",
    "8@g@toc@l",    "8@g@toc@l(f1)", "8@g@toc(9)",    "8@g@l(0)",      "8@g@toc@l(0)",
    "8@t@tprel(0)", "8@g@toc@l(9",   "8@g+@toc@l(9)", "8@g@toc@l(9)x", "8@3\n",
    "8@$5",	    "8@#5",	     "8@[3]",	      "8@g+",
};

static int setup(void **state)
{
	(void)state;
	ppc64.arch = sdt_arch_find(EM_PPC64, ELFCLASS64, false);
	ppc64.elfclass = ELFCLASS64;
	ppc64.regs = aut_regs_ppc;
	ppc64be.arch = sdt_arch_find(EM_PPC64, ELFCLASS64, true);
	ppc64be.elfclass = ELFCLASS64;
	ppc64be.regs = aut_regs_ppc;
	ppc32.arch = sdt_arch_find(EM_PPC, ELFCLASS32, true);
	ppc32.elfclass = ELFCLASS32;
	ppc32.regs = aut_regs_ppc;
	return ppc64.arch && ppc64be.arch && ppc32.arch ? 0 : -1;
}

static void test_arch_find(void **state)
{
	(void)state;
	assert_string_equal(ppc64.arch->name, "ppc64");
	assert_int_equal(ppc64.arch->reg_bits, 64);
	assert_ptr_equal(ppc64be.arch, ppc64.arch); /* one syntax for both byte orders */
	assert_string_equal(sdt_arch_name(EM_PPC64, ELFCLASS64, false), "ppc64le");
	assert_string_equal(sdt_arch_name(EM_PPC64, ELFCLASS64, true), "ppc64");
	assert_string_equal(ppc32.arch->name, "ppc");
	assert_int_equal(ppc32.arch->reg_bits, 32);
}

static void test_forms(void **state)
{
	(void)state;
	assert_int_equal(aut_run(&ppc64, cases, AUT_COUNT(cases)), 0);
	assert_int_equal(aut_run(&ppc64be, cases, AUT_COUNT(cases)), 0);
	assert_int_equal(aut_run(&ppc32, cases32, AUT_COUNT(cases32)), 0);
}

static void test_invalid(void **state)
{
	(void)state;
	assert_int_equal(aut_run_invalid(&ppc64, bad, AUT_COUNT(bad)), 0);
	assert_int_equal(aut_run_invalid(&ppc32, bad, AUT_COUNT(bad)), 0);
}

static void test_hostile(void **state)
{
	(void)state;
	assert_int_equal(aut_run_mutations(&ppc64, cases, AUT_COUNT(cases)), 0);
	assert_int_equal(aut_run_mutations(&ppc32, cases32, AUT_COUNT(cases32)), 0);
	assert_int_equal(aut_run_garbage(&ppc64), 0);
	assert_int_equal(aut_run_garbage(&ppc32), 0);
}

static void test_split(void **state)
{
	struct sdt_render_ctx rc = {.text_bias = TEXT_BIAS, .have_text_bias = true};
	struct sdt_arg *args = NULL;
	size_t n, i;

	(void)state;
	/* the gcc -O2 ppc64le sample of usdt-anchors.md 3.1 */
	assert_int_equal(sdt_args_parse(ppc64.arch, ELFCLASS64,
					"-4@0(3) -8@0(11) -4@i5 -8@0(8) "
					"-4@5,6 8@7",
					&args, &n),
			 0);
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++)
		assert_int_equal(sdt_arg_render(ppc64.arch, ELFCLASS64, &args[i], &rc), 0);
	assert_string_equal(args[0].fetch, "+0(%gpr3):s32");
	assert_string_equal(args[1].fetch, "+0(%gpr11):s64");
	assert_string_equal(args[2].fetch, "\\5:s32");
	assert_string_equal(args[3].fetch, "+0(%gpr8):s64");
	assert_null(args[4].fetch);
	assert_int_equal(args[4].kind, SDT_ARG_INDEXED);
	assert_string_equal(args[5].fetch, "%gpr7:u64");
	sdt_args_free(args, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_arch_find), cmocka_unit_test(test_forms),
	    cmocka_unit_test(test_invalid),   cmocka_unit_test(test_hostile),
	    cmocka_unit_test(test_split),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
