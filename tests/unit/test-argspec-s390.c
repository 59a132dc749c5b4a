/* SPDX-License-Identifier: MIT */
/*
 * s390x operands (lib/scan/arch/s390.c) through parse and render: every form of REFERENCE.md
 * section 2 and usdt-anchors.md 3.1 (%rN registers, bare constants, D(B) and D(X,B) memory),
 * the hardware's "register 0 reads as 0" in address slots, FP/vector registers, malformed and
 * hostile specs.
 */
#include "argspec-test.h"

#define REG	SDT_ARG_REG
#define MEM	SDT_ARG_MEM
#define CONST	SDT_ARG_CONST
#define ADDR	SDT_ARG_ADDR
#define INDEXED SDT_ARG_INDEXED
#define VECTOR	SDT_ARG_VECTOR

static struct arch_under_test s390;

static const struct arg_case cases[] = {
    /* registers */
    {.spec = "8@%r4", .kind = REG, .fetch = "%r4:u64", .reg = "r4"},
    {.spec = "8@%r0", .kind = REG, .fetch = "%r0:u64"},
    {.spec = "-8@%r15", .kind = REG, .fetch = "%r15:s64"},
    {.spec = "1@%r3", .kind = REG, .fetch = "%r3:u8"},
    {.spec = "-2@%r3", .kind = REG, .fetch = "%r3:s16"},
    {.spec = "-4@%r10", .kind = REG, .fetch = "%r10:s32"},
    {.spec = "8f@%r1", .kind = REG, .fetch = "%r1:x64"},
    {.spec = "4f@%r5", .kind = REG, .fetch = "%r5:x32"},

    /* constants */
    {.spec = "-4@5", .kind = CONST, .fetch = "\\5:s32"},
    {.spec = "-4@-1", .kind = CONST, .fetch = "\\-1:s32"},
    {.spec = "-4@-7", .kind = CONST, .fetch = "\\-7:s32"},
    {.spec = "8@-1", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "8@18446744073709551615", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "-8@-9223372036854775808", .kind = CONST, .fetch = "\\-9223372036854775808:s64"},
    {.spec = "1@-1", .kind = CONST, .fetch = "\\255:u8"},
    {.spec = "-1@-1", .kind = CONST, .fetch = "\\-1:s8"},
    {.spec = "2@0x10000", .kind = CONST, .fetch = "\\0:u16"},

    /* memory: D(B), D(,B), (B) */
    {.spec = "-4@0(%r2)", .kind = MEM, .fetch = "+0(%r2):s32", .reg = "r2"},
    {.spec = "-8@8(%r2)", .kind = MEM, .fetch = "+8(%r2):s64"},
    {.spec = "-1@167(%r15)",
     .kind = MEM,
     .fetch = "+167(%r15):s8",
     .check_offset = true,
     .offset = 167},
    {.spec = "8@-8(%r11)", .kind = MEM, .fetch = "-8(%r11):u64"},
    {.spec = "8@160(%r11)", .kind = MEM, .fetch = "+160(%r11):u64"},
    {.spec = "-8@0(%r11)", .kind = MEM, .fetch = "+0(%r11):s64"},
    {.spec = "8@(%r2)", .kind = MEM, .fetch = "+0(%r2):u64"},
    {.spec = "8@0(,%r2)", .kind = MEM, .fetch = "+0(%r2):u64"},
    {.spec = "8@0x10(%r2)", .kind = MEM, .fetch = "+16(%r2):u64"},
    {.spec = "8f@168(%r11)", .kind = MEM, .fetch = "+168(%r11):x64"},
    {.spec = "4f@176(%r11)", .kind = MEM, .fetch = "+176(%r11):x32"},
    {.spec = "16f@176(%r15)", .kind = MEM, .fetch = "+176(%r15):x64[2]"},
    /* %r0 in the index or base slot reads as 0: one register remains */
    {.spec = "8@0(%r0,%r2)", .kind = MEM, .fetch = "+0(%r2):u64", .reg = "r2"},
    {.spec = "8@4(%r3,%r0)", .kind = MEM, .fetch = "+4(%r3):u64", .reg = "r3"},

    /* indexed: D(X,B) */
    {.spec = "-4@0(%r3,%r2)",
     .kind = INDEXED,
     .fetch = NULL,
     .why = "indexed",
     .reg = "r2",
     .index = "r3",
     .scale = 1},
    {.spec = "-4@0(%r10,%r9)",
     .kind = INDEXED,
     .fetch = NULL,
     .reg = "r9",
     .index = "r10",
     .scale = 1},
    {.spec = "-4@8(%r1,%r15)", .kind = INDEXED, .fetch = NULL, .check_offset = true, .offset = 8},

    /* address immediates */
    {.spec = "8@.LC0", .kind = ADDR, .fetch = "\\16400:u64", .symbol = ".LC0"},
    {.spec = "8@g_x+8", .kind = ADDR, .fetch = "\\16408:u64", .symbol = "g_x"},
    {.spec = "8@r2", .kind = ADDR, .fetch = "\\16400:u64", .symbol = "r2"}, /* no '%' */
    {.spec = "8@g_x",
     .kind = ADDR,
     .fetch = NULL,
     .why = "'g_x'",
     .symbol = "g_x",
     .unresolved = true},

    /* FP and vector registers */
    {.spec = "8f@%f0", .kind = VECTOR, .fetch = NULL, .why = "vector"},
    {.spec = "8f@%f15", .kind = VECTOR, .fetch = NULL},
    {.spec = "16@%v31", .kind = VECTOR, .fetch = NULL},
};

static const char *const bad[] = {
    "8@%r16",
    "8@%r01",
    "8@%f16",
    "8@%v32",
    "8@%a0",
    "8@%a15",
    "8@%x",
    "8@%",
    "8@%r2 ",
    "8@%r2,",
    "8@%r2,%r3",
    "8@0(%r0)",
    "8@0(%r0,%r0)",
    "8@0(,%r0)",
    "8@0(",
    "8@0(%r2",
    "8@0(%r2)x",
    "8@0(%f0)",
    "8@0(%r1,%r2,%r3)",
    "8@0(%r1,)",
    "8@0()",
    "8@0(r2)",
    "8@g(%r2)",
    "8@5x",
    "8@5(%r2",
    "8@18446744073709551616",
    "8@-9223372036854775809",
    "8@g+",
    "8@$5",
    "8@#5",
    "8@[%r2]",
    "8@%r2\n",
    "8@0(%r2)(%r3)",
    "8@5 (%r2)",
};

static int setup(void **state)
{
	(void)state;
	s390.arch = sdt_arch_find(EM_S390, ELFCLASS64, true);
	s390.elfclass = ELFCLASS64;
	s390.regs = aut_regs_s390;
	return s390.arch ? 0 : -1;
}

static void test_arch_find(void **state)
{
	(void)state;
	assert_string_equal(s390.arch->name, "s390x");
	assert_int_equal(s390.arch->reg_bits, 64);
	/* 31-bit s390 files are not supported */
	assert_null(sdt_arch_find(EM_S390, ELFCLASS32, true));
	assert_string_equal(sdt_arch_name(EM_S390, ELFCLASS32, true), "s390");
}

static void test_forms(void **state)
{
	(void)state;
	assert_int_equal(aut_run(&s390, cases, AUT_COUNT(cases)), 0);
}

static void test_invalid(void **state)
{
	(void)state;
	assert_int_equal(aut_run_invalid(&s390, bad, AUT_COUNT(bad)), 0);
}

static void test_hostile(void **state)
{
	(void)state;
	assert_int_equal(aut_run_mutations(&s390, cases, AUT_COUNT(cases)), 0);
	assert_int_equal(aut_run_garbage(&s390), 0);
}

static void test_split(void **state)
{
	struct sdt_render_ctx rc = {.text_bias = TEXT_BIAS, .have_text_bias = true};
	struct sdt_arg *args = NULL;
	size_t n, i;

	(void)state;
	/* the gcc -O2 s390x sample of usdt-anchors.md 3.1 */
	assert_int_equal(sdt_args_parse(s390.arch, ELFCLASS64,
					"-4@0(%r2) -8@8(%r2) -4@5 -8@0(%r11) -4@0(%r10,%r9) 8@%r4",
					&args, &n),
			 0);
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++)
		assert_int_equal(sdt_arg_render(s390.arch, ELFCLASS64, &args[i], &rc), 0);
	assert_string_equal(args[0].fetch, "+0(%r2):s32");
	assert_string_equal(args[1].fetch, "+8(%r2):s64");
	assert_string_equal(args[2].fetch, "\\5:s32");
	assert_string_equal(args[3].fetch, "+0(%r11):s64");
	assert_null(args[4].fetch);
	assert_string_equal(args[5].fetch, "%r4:u64");
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
