/* SPDX-License-Identifier: MIT */
/*
 * RISC-V operands (lib/scan/arch/riscv.c) through parse and render, for riscv64 and riscv32: every
 * form of REFERENCE.md section 2 and usdt-anchors.md 3.1, ABI and numeric register names,
 * %lo() globals, TLS, FP/vector registers, malformed and hostile specs.
 */
#include "argspec-test.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

#define REG    SDT_ARG_REG
#define MEM    SDT_ARG_MEM
#define CONST  SDT_ARG_CONST
#define GLOBAL SDT_ARG_GLOBAL
#define ADDR   SDT_ARG_ADDR
#define TLS    SDT_ARG_TLS
#define VECTOR SDT_ARG_VECTOR

static struct arch_under_test rv64, rv32;

static const struct arg_case cases[] = {
    /* ABI names */
    {.spec = "8@a2", .kind = REG, .fetch = "%a2:u64", .reg = "a2"},
    {.spec = "1@s6", .kind = REG, .fetch = "%s6:u8"},
    {.spec = "-4@a0", .kind = REG, .fetch = "%a0:s32"},
    {.spec = "-2@a7", .kind = REG, .fetch = "%a7:s16"},
    {.spec = "8@s0", .kind = REG, .fetch = "%s0:u64"},
    {.spec = "8@s11", .kind = REG, .fetch = "%s11:u64"},
    {.spec = "8@t0", .kind = REG, .fetch = "%t0:u64"},
    {.spec = "8@t6", .kind = REG, .fetch = "%t6:u64"},
    {.spec = "8@ra", .kind = REG, .fetch = "%ra:u64"},
    {.spec = "8@sp", .kind = REG, .fetch = "%sp:u64"},
    {.spec = "8@gp", .kind = REG, .fetch = "%gp:u64"},
    {.spec = "8@tp", .kind = REG, .fetch = "%tp:u64"},
    {.spec = "8@fp", .kind = REG, .fetch = "%s0:u64", .reg = "s0"},
    {.spec = "8f@a5", .kind = REG, .fetch = "%a5:x64"},
    {.spec = "4f@a4", .kind = REG, .fetch = "%a4:x32"},
    {.spec = "16f@a4", .kind = REG, .fetch = NULL, .why = "16-byte"},
    /* numeric names become ABI names */
    {.spec = "8@x1", .kind = REG, .fetch = "%ra:u64"},
    {.spec = "8@x2", .kind = REG, .fetch = "%sp:u64"},
    {.spec = "8@x3", .kind = REG, .fetch = "%gp:u64"},
    {.spec = "8@x4", .kind = REG, .fetch = "%tp:u64"},
    {.spec = "8@x5", .kind = REG, .fetch = "%t0:u64"},
    {.spec = "8@x7", .kind = REG, .fetch = "%t2:u64"},
    {.spec = "8@x8", .kind = REG, .fetch = "%s0:u64"},
    {.spec = "8@x9", .kind = REG, .fetch = "%s1:u64"},
    {.spec = "8@x10", .kind = REG, .fetch = "%a0:u64"},
    {.spec = "8@x17", .kind = REG, .fetch = "%a7:u64"},
    {.spec = "8@x18", .kind = REG, .fetch = "%s2:u64"},
    {.spec = "8@x27", .kind = REG, .fetch = "%s11:u64"},
    {.spec = "8@x28", .kind = REG, .fetch = "%t3:u64"},
    {.spec = "8@x31", .kind = REG, .fetch = "%t6:u64"},
    /* the zero register is a constant */
    {.spec = "8@zero", .kind = CONST, .fetch = "\\0:u64"},
    {.spec = "-4@x0", .kind = CONST, .fetch = "\\0:s32"},

    /* constants */
    {.spec = "-4@5", .kind = CONST, .fetch = "\\5:s32"},
    {.spec = "-4@-1", .kind = CONST, .fetch = "\\-1:s32"},
    {.spec = "-4@-7", .kind = CONST, .fetch = "\\-7:s32"},
    {.spec = "8@-1", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "8@18446744073709551615", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "-8@-9223372036854775808", .kind = CONST, .fetch = "\\-9223372036854775808:s64"},
    {.spec = "1@-1", .kind = CONST, .fetch = "\\255:u8"},
    {.spec = "-1@-1", .kind = CONST, .fetch = "\\-1:s8"},
    {.spec = "-1@255", .kind = CONST, .fetch = "\\-1:s8"},
    {.spec = "4@0x10", .kind = CONST, .fetch = "\\16:u32"},

    /* memory */
    {.spec = "-4@0(a0)", .kind = MEM, .fetch = "+0(%a0):s32", .reg = "a0"},
    {.spec = "-8@8(a0)", .kind = MEM, .fetch = "+8(%a0):s64"},
    {.spec = "-1@-17(s0)",
     .kind = MEM,
     .fetch = "-17(%s0):s8",
     .check_offset = true,
     .offset = -17},
    {.spec = "-8@0(a6)", .kind = MEM, .fetch = "+0(%a6):s64"},
    {.spec = "8@-48(s0)", .kind = MEM, .fetch = "-48(%s0):u64"},
    {.spec = "8@16(sp)", .kind = MEM, .fetch = "+16(%sp):u64"},
    {.spec = "8@-16(fp)", .kind = MEM, .fetch = "-16(%s0):u64"},
    {.spec = "8@8(x10)", .kind = MEM, .fetch = "+8(%a0):u64"},
    {.spec = "8@(a0)", .kind = MEM, .fetch = "+0(%a0):u64"},
    {.spec = "8@-0x10(sp)", .kind = MEM, .fetch = "-16(%sp):u64"},
    {.spec = "8f@-40(s0)", .kind = MEM, .fetch = "-40(%s0):x64"},
    {.spec = "4f@-32(s0)", .kind = MEM, .fetch = "-32(%s0):x32"},
    {.spec = "16f@0(sp)", .kind = MEM, .fetch = "+0(%sp):x64[2]"},

    /* globals: lui put %hi(sym) in the register */
    {.spec = "-8@%lo(g_i64)(s3)", .kind = GLOBAL, .fetch = "@+0x3010:s64", .symbol = "g_i64"},
    {.spec = "-8@%lo(bb_global)(a6)",
     .kind = GLOBAL,
     .fetch = "@+0x3010:s64",
     .symbol = "bb_global"},
    {.spec = "8@%lo(g+8)(s3)",
     .kind = GLOBAL,
     .fetch = "@+0x3018:u64",
     .symbol = "g",
     .check_offset = true,
     .offset = 8},
    {.spec = "8@%lo(g-8)(s3)", .kind = GLOBAL, .fetch = "@+0x3008:u64", .symbol = "g"},
    {.spec = "8@%lo(.LANCHOR0)(a5)",
     .kind = GLOBAL,
     .fetch = NULL,
     .why = "'.LANCHOR0'",
     .symbol = ".LANCHOR0",
     .unresolved = true},

    /* thread-local */
    {.spec = "4@%tprel_lo(t_tls)(a5)",
     .kind = TLS,
     .fetch = NULL,
     .why = "t_tls",
     .symbol = "t_tls"},

    /* address immediates */
    {.spec = "8@.LC0", .kind = ADDR, .fetch = "\\16400:u64", .symbol = ".LC0"},
    {.spec = "8@g_x+8", .kind = ADDR, .fetch = "\\16408:u64", .symbol = "g_x"},
    {.spec = "8@g_x",
     .kind = ADDR,
     .fetch = NULL,
     .why = "'g_x'",
     .symbol = "g_x",
     .unresolved = true},

    /* FP and vector registers */
    {.spec = "8f@fa0", .kind = VECTOR, .fetch = NULL, .why = "vector"},
    {.spec = "8f@fa7", .kind = VECTOR, .fetch = NULL},
    {.spec = "8f@ft0", .kind = VECTOR, .fetch = NULL},
    {.spec = "8f@ft11", .kind = VECTOR, .fetch = NULL},
    {.spec = "8f@fs0", .kind = VECTOR, .fetch = NULL},
    {.spec = "8f@fs11", .kind = VECTOR, .fetch = NULL},
    {.spec = "8f@f31", .kind = VECTOR, .fetch = NULL},
    {.spec = "16@v0", .kind = VECTOR, .fetch = NULL},
};

static const struct arg_case cases32[] = {
    {.spec = "4@a0", .kind = REG, .fetch = "%a0:u32"},
    {.spec = "-8@a0", .kind = REG, .fetch = NULL, .why = "register pair"},
    {.spec = "-8@8(sp)", .kind = MEM, .fetch = "+8(%sp):s64"},
    {.spec = "-4@5", .kind = CONST, .fetch = "\\5:s32"},
    {.spec = "4@%lo(g)(a5)", .kind = GLOBAL, .fetch = "@+0x3010:u32", .symbol = "g"},
};

static const char *const bad[] = {
    "8@x32",
    "8@x01",
    "8@a8",
    "8@s12",
    "8@t7",
    "8@f32",
    "8@fa8",
    "8@ft12",
    "8@v32",
    "8@a0 ",
    "8@a0,",
    "8@a0(",
    "8@0(zero)",
    "8@0(x0)",
    "8@0(",
    "8@0(a0",
    "8@0(a0)x",
    "8@0(fa0)",
    "8@0(a0,a1)",
    "8@0()",
    "8@g(a0)",
    "8@%hi(g)(a5)",
    "8@%pcrel_lo(.LA0)(a5)",
    "8@%lo(g)",
    "8@%lo(g)(",
    "8@%lo()(a5)",
    "8@%lo(g+)(a5)",
    "8@%lo(g(a5)",
    "8@%lo g(a5)",
    "8@%lo(g)(zero)",
    "8@%",
    "8@%a0",
    "8@5x",
    "8@5(a0",
    "8@g+",
    "8@18446744073709551616",
    "8@$5",
    "8@#5",
    "8@[a0]",
    "8@a0\n",
    "8@0(a0)(a1)",
};

static int setup(void **state)
{
	(void)state;
	rv64.arch = sdt_arch_find(EM_RISCV, ELFCLASS64, false);
	rv64.elfclass = ELFCLASS64;
	rv64.regs = aut_regs_riscv;
	rv32.arch = sdt_arch_find(EM_RISCV, ELFCLASS32, false);
	rv32.elfclass = ELFCLASS32;
	rv32.regs = aut_regs_riscv;
	return rv64.arch && rv32.arch ? 0 : -1;
}

static void test_arch_find(void **state)
{
	(void)state;
	assert_string_equal(rv64.arch->name, "riscv64");
	assert_int_equal(rv64.arch->reg_bits, 64);
	assert_string_equal(rv32.arch->name, "riscv32");
	assert_int_equal(rv32.arch->reg_bits, 32);
}

static void test_forms(void **state)
{
	(void)state;
	assert_int_equal(aut_run(&rv64, cases, AUT_COUNT(cases)), 0);
	assert_int_equal(aut_run(&rv32, cases32, AUT_COUNT(cases32)), 0);
}

static void test_invalid(void **state)
{
	(void)state;
	assert_int_equal(aut_run_invalid(&rv64, bad, AUT_COUNT(bad)), 0);
	assert_int_equal(aut_run_invalid(&rv32, bad, AUT_COUNT(bad)), 0);
}

static void test_hostile(void **state)
{
	(void)state;
	assert_int_equal(aut_run_mutations(&rv64, cases, AUT_COUNT(cases)), 0);
	assert_int_equal(aut_run_mutations(&rv32, cases32, AUT_COUNT(cases32)), 0);
	assert_int_equal(aut_run_garbage(&rv64), 0);
}

static void test_split(void **state)
{
	struct sdt_render_ctx rc = {.text_bias = TEXT_BIAS, .have_text_bias = true};
	struct sdt_arg *args = NULL;
	size_t n, i;

	(void)state;
	/* the gcc -O2 riscv64 sample of usdt-anchors.md 3.1 */
	assert_int_equal(sdt_args_parse(rv64.arch, ELFCLASS64,
					"-4@0(a0) -8@8(a0) -4@5 -8@0(a6) -4@0(a3) 8@a2", &args, &n),
			 0);
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++)
		assert_int_equal(sdt_arg_render(rv64.arch, ELFCLASS64, &args[i], &rc), 0);
	assert_string_equal(args[0].fetch, "+0(%a0):s32");
	assert_string_equal(args[1].fetch, "+8(%a0):s64");
	assert_string_equal(args[2].fetch, "\\5:s32");
	assert_string_equal(args[3].fetch, "+0(%a6):s64");
	assert_string_equal(args[4].fetch, "+0(%a3):s32");
	assert_string_equal(args[5].fetch, "%a2:u64");
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
