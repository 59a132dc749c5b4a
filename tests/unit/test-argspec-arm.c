/* SPDX-License-Identifier: MIT */
/*
 * 32-bit arm operands (lib/scan/arch/arm.c) through parse and render: every form of REFERENCE.md
 * section 2 and usdt-anchors.md 3.1, register aliases, '#' constants, indexed with shifts,
 * register pairs (64-bit values and doubles in rN:rN+1), VFP registers, malformed and hostile
 * specs, and the splitting of operands that hold spaces.
 */
#include "argspec-test.h"

#define REG	SDT_ARG_REG
#define MEM	SDT_ARG_MEM
#define CONST	SDT_ARG_CONST
#define ADDR	SDT_ARG_ADDR
#define INDEXED SDT_ARG_INDEXED
#define VECTOR	SDT_ARG_VECTOR
#define REGPAIR SDT_ARG_REGPAIR

static struct arch_under_test arm;

static const struct arg_case cases[] = {
    /* registers and their pt_regs names */
    {.spec = "4@r2", .kind = REG, .fetch = "%r2:u32", .reg = "r2"},
    {.spec = "-4@r0", .kind = REG, .fetch = "%r0:s32"},
    {.spec = "1@r3", .kind = REG, .fetch = "%r3:u8"},
    {.spec = "-2@r1", .kind = REG, .fetch = "%r1:s16"},
    {.spec = "-1@r10", .kind = REG, .fetch = "%r10:s8"},
    {.spec = "4@r11", .kind = REG, .fetch = "%fp:u32", .reg = "fp"},
    {.spec = "4@fp", .kind = REG, .fetch = "%fp:u32"},
    {.spec = "4@r12", .kind = REG, .fetch = "%ip:u32", .reg = "ip"},
    {.spec = "4@ip", .kind = REG, .fetch = "%ip:u32"},
    {.spec = "4@r13", .kind = REG, .fetch = "%sp:u32"},
    {.spec = "4@sp", .kind = REG, .fetch = "%sp:u32"},
    {.spec = "4@r14", .kind = REG, .fetch = "%lr:u32"},
    {.spec = "4@lr", .kind = REG, .fetch = "%lr:u32"},
    {.spec = "4@r15", .kind = REG, .fetch = "%pc:u32"},
    {.spec = "4@pc", .kind = REG, .fetch = "%pc:u32"},
    {.spec = "4@sb", .kind = REG, .fetch = "%r9:u32"},
    {.spec = "4@sl", .kind = REG, .fetch = "%r10:u32"},
    {.spec = "4f@r3", .kind = REG, .fetch = "%r3:x32"},

    /* wider than a register: rN:rN+1 */
    {.spec = "-8@r10", .kind = REGPAIR, .fetch = NULL, .why = "register pair", .reg = "r10"},
    {.spec = "-8@fp", .kind = REGPAIR, .fetch = NULL, .why = "register pair"},
    {.spec = "8@r0", .kind = REGPAIR, .fetch = NULL},
    {.spec = "8f@r4", .kind = REGPAIR, .fetch = NULL, .why = "8-byte"},

    /* constants */
    {.spec = "-4@#5", .kind = CONST, .fetch = "\\5:s32"},
    {.spec = "-4@#-1", .kind = CONST, .fetch = "\\-1:s32"},
    {.spec = "-4@#-7", .kind = CONST, .fetch = "\\-7:s32"},
    {.spec = "4@#-1", .kind = CONST, .fetch = "\\4294967295:u32"},
    {.spec = "4@#0x10", .kind = CONST, .fetch = "\\16:u32"},
    {.spec = "1@#-1", .kind = CONST, .fetch = "\\255:u8"},
    {.spec = "-1@#-1", .kind = CONST, .fetch = "\\-1:s8"},
    {.spec = "8@#-1", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "8@#18446744073709551615", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "-8@#-9223372036854775808", .kind = CONST, .fetch = "\\-9223372036854775808:s64"},
    {.spec = "-4@5", .kind = CONST, .fetch = "\\5:s32"},

    /* memory */
    {.spec = "-4@[r0]", .kind = MEM, .fetch = "+0(%r0):s32", .reg = "r0"},
    {.spec = "-4@[r0, #4]", .kind = MEM, .fetch = "+4(%r0):s32", .check_offset = true, .offset = 4},
    {.spec = "-4@[r0, #-4]", .kind = MEM, .fetch = "-4(%r0):s32"},
    {.spec = "2@[sp]", .kind = MEM, .fetch = "+0(%sp):u16"},
    {.spec = "4@[sp, #12]", .kind = MEM, .fetch = "+12(%sp):u32"},
    {.spec = "4@[r7]", .kind = MEM, .fetch = "+0(%r7):u32"},
    {.spec = "-4@[r6]", .kind = MEM, .fetch = "+0(%r6):s32"},
    {.spec = "4@[fp, #-8]", .kind = MEM, .fetch = "-8(%fp):u32"},
    {.spec = "4@[r11, #-8]", .kind = MEM, .fetch = "-8(%fp):u32"},
    {.spec = "1@[r0,#4]", .kind = MEM, .fetch = "+4(%r0):u8"},
    {.spec = "4@[r0, 4]", .kind = MEM, .fetch = "+4(%r0):u32"},
    {.spec = "4@[r0, -4]", .kind = MEM, .fetch = "-4(%r0):u32"},
    {.spec = "-8@[r0]", .kind = MEM, .fetch = "+0(%r0):s64"}, /* memory may be wider */
    {.spec = "8f@[r7, #8]", .kind = MEM, .fetch = "+8(%r7):x64"},
    {.spec = "4f@[r7, #4]", .kind = MEM, .fetch = "+4(%r7):x32"},

    /* indexed */
    {.spec = "-4@[r5, r4]",
     .kind = INDEXED,
     .fetch = NULL,
     .why = "indexed",
     .reg = "r5",
     .index = "r4",
     .scale = 1},
    {.spec = "-4@[r7, r1, lsl #2]",
     .kind = INDEXED,
     .fetch = NULL,
     .reg = "r7",
     .index = "r1",
     .scale = 4},
    {.spec = "8@[r0, ip, lsl #3]", .kind = INDEXED, .fetch = NULL, .index = "ip", .scale = 8},
    {.spec = "4@[r0, +r1]", .kind = INDEXED, .fetch = NULL, .index = "r1", .scale = 1},

    /* address immediates */
    {.spec = "4@.LC0", .kind = ADDR, .fetch = "\\16400:u32", .symbol = ".LC0"},
    {.spec = "4@g_x+4", .kind = ADDR, .fetch = "\\16404:u32", .symbol = "g_x"},
    {.spec = "4@g_x",
     .kind = ADDR,
     .fetch = NULL,
     .why = "'g_x'",
     .symbol = "g_x",
     .unresolved = true},

    /* VFP/NEON */
    {.spec = "4f@s0", .kind = VECTOR, .fetch = NULL, .why = "vector"},
    {.spec = "8f@d0", .kind = VECTOR, .fetch = NULL},
    {.spec = "8f@d31", .kind = VECTOR, .fetch = NULL},
    {.spec = "16@q0", .kind = VECTOR, .fetch = NULL},
    {.spec = "16@q15", .kind = VECTOR, .fetch = NULL},
};

static const char *const bad[] = {
    "4@r16",
    "4@r01",
    "4@q16",
    "4@d32",
    "4@s32",
    "4@r0 ",
    "4@r0,",
    "4@r0]",
    "4@[r0",
    "4@[r0,",
    "4@[r0, ]",
    "4@[r0, #4",
    "4@[r0, #4]!",
    "4@[r0], #4",
    "4@[pc, #8]",
    "4@[pc]",
    "4@[d0]",
    "4@[q99]",
    "4@[r0, -r1]",
    "4@[r0, pc]",
    "4@[r0, d1]",
    "4@[r0, r1, lsr #2]",
    "4@[r0, r1, lsl]",
    "4@[r0, r1, lsl #8]",
    "4@[r0, r1, lsl #18446744073709551615]",
    "4@[r0, r1, lsl #-1]",
    "4@[r0, r1, asr #1]",
    "4@[r0, #]",
    "4@[r0, #r1]",
    "4@[r0, 4 4]",
    "4@#",
    "4@#r0",
    "4@#5x",
    "4@5x",
    "4@g+",
    "4@g x",
    "4@[r0,\n#4]",
    "4@%r0",
    "4@$5",
    "4@[[r0]]",
    "4@-r0",
    "4@#:lower16:g",
};

static int setup(void **state)
{
	(void)state;
	arm.arch = sdt_arch_find(EM_ARM, ELFCLASS32, false);
	arm.elfclass = ELFCLASS32;
	arm.regs = aut_regs_arm;
	return arm.arch ? 0 : -1;
}

static void test_arch_find(void **state)
{
	(void)state;
	assert_string_equal(arm.arch->name, "arm");
	assert_int_equal(arm.arch->reg_bits, 32);
	assert_ptr_equal(sdt_arch_find(EM_ARM, ELFCLASS32, true), arm.arch);
	assert_string_equal(sdt_arch_name(EM_ARM, ELFCLASS32, true), "armeb");
	assert_null(sdt_arch_find(EM_ARM, ELFCLASS64, false));
}

static void test_forms(void **state)
{
	(void)state;
	assert_int_equal(aut_run(&arm, cases, AUT_COUNT(cases)), 0);
}

static void test_invalid(void **state)
{
	(void)state;
	assert_int_equal(aut_run_invalid(&arm, bad, AUT_COUNT(bad)), 0);
}

static void test_hostile(void **state)
{
	(void)state;
	assert_int_equal(aut_run_mutations(&arm, cases, AUT_COUNT(cases)), 0);
	assert_int_equal(aut_run_garbage(&arm), 0);
}

static void test_split(void **state)
{
	struct sdt_render_ctx rc = {.text_bias = TEXT_BIAS, .have_text_bias = true};
	struct sdt_arg *args = NULL;
	size_t n, i;

	(void)state;
	/* the gcc -O2 armhf sample of usdt-anchors.md 3.1 */
	assert_int_equal(
	    sdt_args_parse(arm.arch, ELFCLASS32,
			   "-4@[r0] -4@[r0, #4] -4@#5 -4@[r6] -4@[r7, r1, lsl #2] 4@r2", &args, &n),
	    0);
	assert_int_equal(n, 6);
	for (i = 0; i < n; i++)
		assert_int_equal(sdt_arg_render(arm.arch, ELFCLASS32, &args[i], &rc), 0);
	assert_string_equal(args[0].fetch, "+0(%r0):s32");
	assert_string_equal(args[1].fetch, "+4(%r0):s32");
	assert_string_equal(args[2].fetch, "\\5:s32");
	assert_string_equal(args[3].fetch, "+0(%r6):s32");
	assert_null(args[4].fetch);
	assert_string_equal(args[4].spec, "-4@[r7, r1, lsl #2]");
	assert_string_equal(args[5].fetch, "%r2:u32");
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
