/* SPDX-License-Identifier: MIT */
/*
 * aarch64 operands (lib/scan/arch/aarch64.c) through parse and render: every form of REFERENCE.md
 * section 2 and usdt-anchors.md 3.1, register aliases, constants without '#', globals via
 * :lo12:, indexed, TLS, vector registers, malformed and hostile specs, and the splitting of
 * operands that hold a space ("[x0, 8]").
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

static struct arch_under_test a64;

static const struct arg_case cases[] = {
    /* general registers; a w register is the low half of its x register */
    {.spec = "-4@x6", .kind = REG, .fetch = "%x6:s32", .reg = "x6"},
    {.spec = "8@x2", .kind = REG, .fetch = "%x2:u64"},
    {.spec = "8@x0", .kind = REG, .fetch = "%x0:u64"},
    {.spec = "-8@x30", .kind = REG, .fetch = "%x30:s64"},
    {.spec = "1@x0", .kind = REG, .fetch = "%x0:u8"}, /* char is unsigned */
    {.spec = "-2@x1", .kind = REG, .fetch = "%x1:s16"},
    {.spec = "-4@w0", .kind = REG, .fetch = "%x0:s32", .reg = "x0"},
    {.spec = "4@w30", .kind = REG, .fetch = "%x30:u32"},
    {.spec = "-1@w19", .kind = REG, .fetch = "%x19:s8"},
    {.spec = "8@sp", .kind = REG, .fetch = "%sp:u64"},
    {.spec = "4@wsp", .kind = REG, .fetch = "%sp:u32"},
    {.spec = "8@fp", .kind = REG, .fetch = "%x29:u64", .reg = "x29"},
    {.spec = "8@lr", .kind = REG, .fetch = "%x30:u64", .reg = "x30"},
    {.spec = "8@xzr", .kind = CONST, .fetch = "\\0:u64"},
    {.spec = "-4@wzr", .kind = CONST, .fetch = "\\0:s32"},

    /* constants: gcc prints them bare, '#' is accepted */
    {.spec = "-4@5", .kind = CONST, .fetch = "\\5:s32"},
    {.spec = "-4@-7", .kind = CONST, .fetch = "\\-7:s32"},
    {.spec = "8@-1", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "-4@#5", .kind = CONST, .fetch = "\\5:s32"},
    {.spec = "-4@#-1", .kind = CONST, .fetch = "\\-1:s32"},
    {.spec = "4@0x10", .kind = CONST, .fetch = "\\16:u32"},
    {.spec = "1@-1", .kind = CONST, .fetch = "\\255:u8"},
    {.spec = "-1@-1", .kind = CONST, .fetch = "\\-1:s8"},
    {.spec = "2@65536", .kind = CONST, .fetch = "\\0:u16"},
    {.spec = "8@18446744073709551615", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "-8@-9223372036854775808", .kind = CONST, .fetch = "\\-9223372036854775808:s64"},

    /* memory */
    {.spec = "-4@[x0]", .kind = MEM, .fetch = "+0(%x0):s32", .reg = "x0"},
    {.spec = "-8@[x0, 8]", .kind = MEM, .fetch = "+8(%x0):s64", .check_offset = true, .offset = 8},
    {.spec = "-8@[x0, #8]", .kind = MEM, .fetch = "+8(%x0):s64"},
    {.spec = "8@[x0, -8]", .kind = MEM, .fetch = "-8(%x0):u64"},
    {.spec = "8@[x0, #-8]", .kind = MEM, .fetch = "-8(%x0):u64"},
    {.spec = "-1@[sp, 31]", .kind = MEM, .fetch = "+31(%sp):s8", .reg = "sp"},
    {.spec = "8@[sp]", .kind = MEM, .fetch = "+0(%sp):u64"},
    {.spec = "8@[sp, 16]", .kind = MEM, .fetch = "+16(%sp):u64"},
    {.spec = "-4@[x29, -8]", .kind = MEM, .fetch = "-8(%x29):s32"},
    {.spec = "-4@[fp, -8]", .kind = MEM, .fetch = "-8(%x29):s32"},
    {.spec = "-8@[x5]", .kind = MEM, .fetch = "+0(%x5):s64"},
    {.spec = "4@[x1,4]", .kind = MEM, .fetch = "+4(%x1):u32"},
    {.spec = "4@[ x1 , 4 ]", .kind = MEM, .fetch = "+4(%x1):u32"},
    {.spec = "4@[x1, 0x10]", .kind = MEM, .fetch = "+16(%x1):u32"},
    {.spec = "2@[x30, 4095]", .kind = MEM, .fetch = "+4095(%x30):u16"},
    {.spec = "8f@[sp, 8]", .kind = MEM, .fetch = "+8(%sp):x64"},
    {.spec = "4f@[sp, 16]", .kind = MEM, .fetch = "+16(%sp):x32"},
    {.spec = "16f@[sp, 32]", .kind = MEM, .fetch = "+32(%sp):x64[2]"},

    /* floats in general registers: raw bits */
    {.spec = "8f@x3", .kind = REG, .fetch = "%x3:x64"},
    {.spec = "4f@x4", .kind = REG, .fetch = "%x4:x32"},

    /* indexed */
    {.spec = "8@[x0, x1]",
     .kind = INDEXED,
     .fetch = NULL,
     .why = "indexed",
     .reg = "x0",
     .index = "x1",
     .scale = 1},
    {.spec = "8@[x0, x1, lsl #3]", .kind = INDEXED, .fetch = NULL, .index = "x1", .scale = 8},
    {.spec = "4@[x0, x1, lsl 2]", .kind = INDEXED, .fetch = NULL, .index = "x1", .scale = 4},
    {.spec = "4@[x2, w1, sxtw #2]",
     .kind = INDEXED,
     .fetch = NULL,
     .reg = "x2",
     .index = "x1",
     .scale = 4},
    {.spec = "1@[x2, w1, uxtw]", .kind = INDEXED, .fetch = NULL, .index = "x1", .scale = 1},
    {.spec = "8@[sp, x3, sxtx #3]",
     .kind = INDEXED,
     .fetch = NULL,
     .reg = "sp",
     .index = "x3",
     .scale = 8},

    /* globals: adrp put the symbol's page in the base register */
    {.spec = "-8@[x21, #:lo12:.LANCHOR1]",
     .kind = GLOBAL,
     .fetch = NULL,
     .why = "'.LANCHOR1'",
     .symbol = ".LANCHOR1",
     .unresolved = true},
    {.spec = "-8@[x5, #:lo12:g_i64]", .kind = GLOBAL, .fetch = "@+0x3010:s64", .symbol = "g_i64"},
    {.spec = "8@[x21, :lo12:g_pair+8]",
     .kind = GLOBAL,
     .fetch = "@+0x3018:u64",
     .symbol = "g_pair",
     .check_offset = true,
     .offset = 8},
    {.spec = "4@[x1, #:lo12:g-4]", .kind = GLOBAL, .fetch = "@+0x300c:u32", .symbol = "g"},
    {.spec = "4@[x1, #:lo12_nc:g]", .kind = GLOBAL, .fetch = "@+0x3010:u32", .symbol = "g"},
    {.spec = "8f@[x0, #:lo12:d]", .kind = GLOBAL, .fetch = "@+0x3010:x64", .symbol = "d"},

    /* thread-local */
    {.spec = "4@[x0, #:tprel_lo12_nc:t_tls]",
     .kind = TLS,
     .fetch = NULL,
     .why = "t_tls",
     .symbol = "t_tls"},
    {.spec = "4@[x0, #:dtprel_lo12:t_tls]", .kind = TLS, .fetch = NULL, .symbol = "t_tls"},

    /* address immediates */
    {.spec = "8@.LC0", .kind = ADDR, .fetch = "\\16400:u64", .symbol = ".LC0"},
    {.spec = "8@g_x", .kind = ADDR, .fetch = "\\16400:u64", .symbol = "g_x"},
    {.spec = "8@g_x+8", .kind = ADDR, .fetch = "\\16408:u64", .symbol = "g_x"},
    {.spec = "8@g_x",
     .kind = ADDR,
     .fetch = NULL,
     .why = "'g_x'",
     .symbol = "g_x",
     .unresolved = true},

    /* FP/SIMD/SVE registers */
    {.spec = "8f@d0", .kind = VECTOR, .fetch = NULL, .why = "vector"},
    {.spec = "4f@s0", .kind = VECTOR, .fetch = NULL},
    {.spec = "16@q0", .kind = VECTOR, .fetch = NULL},
    {.spec = "16@v31", .kind = VECTOR, .fetch = NULL},
    {.spec = "1@b0", .kind = VECTOR, .fetch = NULL},
    {.spec = "2@h7", .kind = VECTOR, .fetch = NULL},
    {.spec = "8@z3", .kind = VECTOR, .fetch = NULL},
    {.spec = "2@p15", .kind = VECTOR, .fetch = NULL},
};

static const char *const bad[] = {
    "4@x31",
    "4@w31",
    "4@x01",
    "4@q99",
    "4@d32",
    "4@p16",
    "4@x0-",
    "4@x0 ",
    "4@x0,",
    "4@x0]",
    "4@[x0",
    "4@[x0,",
    "4@[x0, ]",
    "4@[x0, 8",
    "4@[x0, 8]!",
    "4@[x0], 8",
    "4@[w0]",
    "4@[xzr]",
    "4@[d0]",
    "4@[q99]",
    "4@[x0, sp]",
    "4@[x0, d1]",
    "4@[x0, w1]",
    "4@[x0, x1, sxtw]",
    "4@[x0, x1, lsl]",
    "4@[x0, x1, lsl #5]",
    "4@[x0, x1, lsl #18446744073709551615]",
    "4@[x0, w1, sxtw #-1]",
    "4@[x0, x1, ror #1]",
    "4@[x0, #]",
    "4@[x0, #x1]",
    "4@[x0, 8 8]",
    "4@[x0, #:got_lo12:g]",
    "4@[x0, #:lo12:]",
    "4@[x0, #:lo12:g",
    "4@[x0, #:bogus:g]",
    "4@[x0, :lo12g]",
    "4@[x0, #:lo12:g+]",
    "4@#",
    "4@#x0",
    "4@5x",
    "4@g+",
    "4@g x",
    "4@g\n",
    "4@[x0,\n8]",
    "4@%x0",
    "4@$5",
    "4@x0[",
    "4@[[x0]]",
    "4@-x0",
};

static int setup(void **state)
{
	(void)state;
	a64.arch = sdt_arch_find(EM_AARCH64, ELFCLASS64, false);
	a64.elfclass = ELFCLASS64;
	a64.regs = aut_regs_aarch64;
	return a64.arch ? 0 : -1;
}

static void test_arch_find(void **state)
{
	(void)state;
	assert_string_equal(a64.arch->name, "aarch64");
	assert_int_equal(a64.arch->reg_bits, 64);
	/* big-endian files use the same parser */
	assert_ptr_equal(sdt_arch_find(EM_AARCH64, ELFCLASS64, true), a64.arch);
	assert_string_equal(sdt_arch_name(EM_AARCH64, ELFCLASS64, true), "aarch64_be");
}

static void test_forms(void **state)
{
	(void)state;
	assert_int_equal(aut_run(&a64, cases, AUT_COUNT(cases)), 0);
}

static void test_invalid(void **state)
{
	(void)state;
	assert_int_equal(aut_run_invalid(&a64, bad, AUT_COUNT(bad)), 0);
}

static void test_hostile(void **state)
{
	(void)state;
	assert_int_equal(aut_run_mutations(&a64, cases, AUT_COUNT(cases)), 0);
	assert_int_equal(aut_run_garbage(&a64), 0);
}

static void test_split(void **state)
{
	struct sdt_render_ctx rc = {.text_bias = TEXT_BIAS, .have_text_bias = true};
	struct sdt_arg *args = NULL;
	size_t n, i;

	(void)state;
	/* a token that does not start with SIZE@ continues the argument before it */
	assert_int_equal(sdt_args_parse(a64.arch, ELFCLASS64, "-4@[x0, 8] 8@x1", &args, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(args[0].spec, "-4@[x0, 8]");
	assert_string_equal(args[1].spec, "8@x1");
	sdt_args_free(args, n);

	/* the gcc -O2 sample of usdt-anchors.md 3.1 */
	assert_int_equal(sdt_args_parse(a64.arch, ELFCLASS64,
					"-4@[x0] -8@[x0, 8] -4@5 -8@[x5] -4@x6 8@x2", &args, &n),
			 0);
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++)
		assert_int_equal(sdt_arg_render(a64.arch, ELFCLASS64, &args[i], &rc), 0);
	assert_string_equal(args[0].fetch, "+0(%x0):s32");
	assert_string_equal(args[1].fetch, "+8(%x0):s64");
	assert_string_equal(args[2].fetch, "\\5:s32");
	assert_string_equal(args[3].fetch, "+0(%x5):s64");
	assert_string_equal(args[4].fetch, "%x6:s32");
	assert_string_equal(args[5].fetch, "%x2:u64");
	sdt_args_free(args, n);

	/* a negative offset token ("-8]") is not a new argument; indexed with a shift holds two */
	assert_int_equal(
	    sdt_args_parse(a64.arch, ELFCLASS64, "8@[x29, -8] 4@[x0, x1, lsl #2] 1@w0", &args, &n),
	    0);
	assert_int_equal(n, 3);
	assert_string_equal(args[0].spec, "8@[x29, -8]");
	assert_string_equal(args[1].spec, "4@[x0, x1, lsl #2]");
	assert_int_equal(args[1].kind, SDT_ARG_INDEXED);
	assert_string_equal(args[2].spec, "1@w0");
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
