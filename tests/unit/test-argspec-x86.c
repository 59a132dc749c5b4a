/* SPDX-License-Identifier: MIT */
/*
 * x86_64 and i386 operands (lib/scan/arch/x86.c) through parse and render: every form of
 * REFERENCE.md section 2, widths and signs, constant extremes, globals, indexed, TLS, floats,
 * vector registers, malformed and hostile specs; and the splitting of a note's argument string
 * (sdt_args_parse()).
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
#define REGPAIR SDT_ARG_REGPAIR
#define INVALID SDT_ARG_INVALID

static struct arch_under_test x86_64, i386;

static const struct arg_case x86_64_cases[] = {
    /* registers of every width; the pt_regs name is the 64-bit one, the type truncates */
    {.spec = "8@%rax", .kind = REG, .fetch = "%ax:u64", .reg = "ax"},
    {.spec = "-8@%rbx", .kind = REG, .fetch = "%bx:s64"},
    {.spec = "-4@%eax", .kind = REG, .fetch = "%ax:s32"},
    {.spec = "4@%ecx", .kind = REG, .fetch = "%cx:u32"},
    {.spec = "-2@%bx", .kind = REG, .fetch = "%bx:s16"},
    {.spec = "2@%dx", .kind = REG, .fetch = "%dx:u16"},
    {.spec = "-1@%al", .kind = REG, .fetch = "%ax:s8"},
    {.spec = "1@%dl", .kind = REG, .fetch = "%dx:u8"},
    {.spec = "-1@%sil", .kind = REG, .fetch = "%si:s8"},
    {.spec = "1@%dil", .kind = REG, .fetch = "%di:u8"},
    {.spec = "1@%bpl", .kind = REG, .fetch = "%bp:u8"},
    {.spec = "1@%spl", .kind = REG, .fetch = "%sp:u8"},
    {.spec = "-2@%si", .kind = REG, .fetch = "%si:s16"},
    {.spec = "8@%rdi", .kind = REG, .fetch = "%di:u64"},
    {.spec = "8@%rsp", .kind = REG, .fetch = "%sp:u64"},
    {.spec = "8@%rbp", .kind = REG, .fetch = "%bp:u64"},
    {.spec = "8@%rip", .kind = REG, .fetch = "%ip:u64"},
    {.spec = "-1@%r12b", .kind = REG, .fetch = "%r12:s8", .reg = "r12"},
    {.spec = "1@%r9l", .kind = REG, .fetch = "%r9:u8"},
    {.spec = "2@%r15w", .kind = REG, .fetch = "%r15:u16"},
    {.spec = "-2@%r8w", .kind = REG, .fetch = "%r8:s16"},
    {.spec = "-4@%r14d", .kind = REG, .fetch = "%r14:s32"},
    {.spec = "4@%r10d", .kind = REG, .fetch = "%r10:u32"},
    {.spec = "8@%r8", .kind = REG, .fetch = "%r8:u64"},
    {.spec = "-8@%r15", .kind = REG, .fetch = "%r15:s64"},
    /* high-byte registers: a bit field of the 64-bit slot */
    {.spec = "1@%ah", .kind = REG, .fetch = "%ax:b8@8/64"},
    {.spec = "-1@%bh", .kind = REG, .fetch = "%bx:b8@8/64"},
    {.spec = "1@%ch", .kind = REG, .fetch = "%cx:b8@8/64"},
    {.spec = "1@%dh", .kind = REG, .fetch = "%dx:b8@8/64"},

    /* constants, cut to the size as the kernel reads \IMM */
    {.spec = "-4@$5", .kind = CONST, .fetch = "\\5:s32", .check_offset = true, .offset = 5},
    {.spec = "-4@$-7", .kind = CONST, .fetch = "\\-7:s32"},
    {.spec = "4@$0x10", .kind = CONST, .fetch = "\\16:u32"},
    {.spec = "8@$-1", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "8@$18446744073709551615", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "-8@$18446744073709551615", .kind = CONST, .fetch = "\\-1:s64"},
    {.spec = "-8@$-9223372036854775808", .kind = CONST, .fetch = "\\-9223372036854775808:s64"},
    {.spec = "-8@$9223372036854775807", .kind = CONST, .fetch = "\\9223372036854775807:s64"},
    {.spec = "8@$0xffffffffffffffff", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "1@$-1", .kind = CONST, .fetch = "\\255:u8"},
    {.spec = "-1@$-1", .kind = CONST, .fetch = "\\-1:s8"},
    {.spec = "-1@$255", .kind = CONST, .fetch = "\\-1:s8"},
    {.spec = "-1@$128", .kind = CONST, .fetch = "\\-128:s8"},
    {.spec = "-1@$127", .kind = CONST, .fetch = "\\127:s8"},
    {.spec = "1@$256", .kind = CONST, .fetch = "\\0:u8"},
    {.spec = "2@$-1", .kind = CONST, .fetch = "\\65535:u16"},
    {.spec = "-2@$65535", .kind = CONST, .fetch = "\\-1:s16"},
    {.spec = "-2@$-32768", .kind = CONST, .fetch = "\\-32768:s16"},
    {.spec = "4@$-1", .kind = CONST, .fetch = "\\4294967295:u32"},
    {.spec = "-4@$2147483648", .kind = CONST, .fetch = "\\-2147483648:s32"},
    {.spec = "-4@$-2147483648", .kind = CONST, .fetch = "\\-2147483648:s32"},
    {.spec = "4@$+5", .kind = CONST, .fetch = "\\5:u32"},

    /* memory: displacement(base) */
    {.spec = "-4@-20(%rbp)",
     .kind = MEM,
     .fetch = "-20(%bp):s32",
     .reg = "bp",
     .check_offset = true,
     .offset = -20},
    {.spec = "-8@136(%rsp)", .kind = MEM, .fetch = "+136(%sp):s64"},
    {.spec = "-4@(%rdi)", .kind = MEM, .fetch = "+0(%di):s32"},
    {.spec = "-8@8(%rdi)", .kind = MEM, .fetch = "+8(%di):s64"},
    {.spec = "8@(%rsp)", .kind = MEM, .fetch = "+0(%sp):u64"},
    {.spec = "8@-32(%rbp)", .kind = MEM, .fetch = "-32(%bp):u64"},
    {.spec = "1@0x10(%r12)", .kind = MEM, .fetch = "+16(%r12):u8"},
    {.spec = "2@-0x10(%r13)", .kind = MEM, .fetch = "-16(%r13):u16"},
    {.spec = "-4@+8(%rax)", .kind = MEM, .fetch = "+8(%ax):s32"},
    {.spec = "4@8+8(%rax)", .kind = MEM, .fetch = "+16(%ax):u32"},
    {.spec = "8@9223372036854775807(%rax)", .kind = MEM, .fetch = "+9223372036854775807(%ax):u64"},
    {.spec = "8@-9223372036854775808(%rax)", .kind = MEM, .fetch = "-9223372036854775808(%ax):u64"},
    {.spec = "-4@(%eax)", .kind = MEM, .fetch = "+0(%ax):s32"}, /* address-size prefix */

    /* globals: the symbol's vaddr minus the text bias */
    {.spec = "-8@g(%rip)", .kind = GLOBAL, .fetch = "@+0x3010:s64", .symbol = "g"},
    {.spec = "-4@f_calls.0(%rip)", .kind = GLOBAL, .fetch = "@+0x3010:s32", .symbol = "f_calls.0"},
    {.spec = "-8@8+g_pair(%rip)",
     .kind = GLOBAL,
     .fetch = "@+0x3018:s64",
     .symbol = "g_pair",
     .check_offset = true,
     .offset = 8},
    {.spec = "-8@g_pair+8(%rip)",
     .kind = GLOBAL,
     .fetch = "@+0x3018:s64",
     .symbol = "g_pair",
     .check_offset = true,
     .offset = 8},
    {.spec = "-8@g_pair-8(%rip)", .kind = GLOBAL, .fetch = "@+0x3008:s64", .symbol = "g_pair"},
    {.spec = "-4@g_char", .kind = GLOBAL, .fetch = "@+0x3010:s32", .symbol = "g_char"},
    {.spec = "-8@g(%rip)",
     .kind = GLOBAL,
     .fetch = NULL,
     .why = "'g'",
     .symbol = "g",
     .unresolved = true},
    {.spec = "8f@g(%rip)", .kind = GLOBAL, .fetch = "@+0x3010:x64", .symbol = "g"},

    /* address immediates: the link-time address, rebased by the reader */
    {.spec = "8@$g_target", .kind = ADDR, .fetch = "\\16400:u64", .symbol = "g_target"},
    {.spec = "8@$.LC0", .kind = ADDR, .fetch = "\\16400:u64", .symbol = ".LC0"},
    {.spec = "8@$g+8", .kind = ADDR, .fetch = "\\16408:u64", .symbol = "g"},
    {.spec = "8@$.LC1",
     .kind = ADDR,
     .fetch = NULL,
     .why = "symbol '.LC1'",
     .symbol = ".LC1",
     .unresolved = true},

    /* indexed: no fetcharg adds two registers */
    {.spec = "-8@g_arr(,%rdi,8)",
     .kind = INDEXED,
     .fetch = NULL,
     .why = "indexed",
     .symbol = "g_arr",
     .index = "di",
     .scale = 8},
    {.spec = "-8@(%rdi,%rsi,8)",
     .kind = INDEXED,
     .fetch = NULL,
     .why = "indexed",
     .reg = "di",
     .index = "si",
     .scale = 8},
    {.spec = "-4@(%rdx,%r8,4)",
     .kind = INDEXED,
     .fetch = NULL,
     .reg = "dx",
     .index = "r8",
     .scale = 4},
    {.spec = "-4@(%r8,%r9)", .kind = INDEXED, .fetch = NULL, .index = "r9", .scale = 1},
    {.spec = "-4@8(%rax,%rbx,2)", .kind = INDEXED, .fetch = NULL, .index = "bx", .scale = 2},

    /* thread-local */
    {.spec = "-8@%fs:t_tls@tpoff", .kind = TLS, .fetch = NULL, .why = "t_tls", .symbol = "t_tls"},
    {.spec = "-4@t_ie@gottpoff(%rip)", .kind = TLS, .fetch = NULL, .symbol = "t_ie"},

    /* floats: raw bits, decoded by the reader */
    {.spec = "8f@%rax", .kind = REG, .fetch = "%ax:x64"},
    {.spec = "4f@%ecx", .kind = REG, .fetch = "%cx:x32"},
    {.spec = "4f@-12(%rbp)", .kind = MEM, .fetch = "-12(%bp):x32"},
    {.spec = "8f@-24(%rbp)", .kind = MEM, .fetch = "-24(%bp):x64"},
    {.spec = "16f@(%rsp)", .kind = MEM, .fetch = "+0(%sp):x64[2]"},
    {.spec = "16f@-32(%rbp)", .kind = MEM, .fetch = "-32(%bp):x64[2]"},
    {.spec = "16f@g_ld(%rip)", .kind = GLOBAL, .fetch = "@+0x3010:x64[2]", .symbol = "g_ld"},
    {.spec = "16f@%rax", .kind = REG, .fetch = NULL, .why = "in a register"},
    {.spec = "16@(%rsp)", .kind = MEM, .fetch = NULL, .why = "16-byte value"},
    {.spec = "16@(%rsp)", .kind = MEM, .fetch = NULL, .why = "16-byte"},

    /* vector and x87 registers: not in pt_regs */
    {.spec = "8@%xmm0", .kind = VECTOR, .fetch = NULL, .why = "vector"},
    {.spec = "8f@%xmm15", .kind = VECTOR, .fetch = NULL},
    {.spec = "16@%ymm1", .kind = VECTOR, .fetch = NULL},
    {.spec = "8@%zmm31", .kind = VECTOR, .fetch = NULL},
    {.spec = "8@%mm0", .kind = VECTOR, .fetch = NULL},
    {.spec = "16f@%st", .kind = VECTOR, .fetch = NULL},
    {.spec = "16f@%st(1)", .kind = VECTOR, .fetch = NULL},
    {.spec = "8@%k1", .kind = VECTOR, .fetch = NULL},

    /* the old sizeless form: a word-sized unsigned value */
    {.spec = "%rdi", .kind = REG, .fetch = "%di:u64"},
    {.spec = "$5", .kind = CONST, .fetch = "\\5:u64"},
};

static const char *const x86_64_bad[] = {
    "4@%eax)",
    "3@%eax",
    "4@(%rax,%rbx,18446744073709551624)",
    "4@(%rax",
    "4@%bogus",
    "4@%eax\n",
    "4@%ea\nx",
    "4@$5x",
    "4@$5 ",
    "4@(%rax,%rbx,3)",
    "4@(%rax,)",
    "4@(%rax,%rbx,8",
    "4@5+(%rax)",
    "4@-(%rax)",
    "4@g-(%rip)",
    "4@-g(%rip)",
    "4@g+h(%rip)",
    "4@(%al)",
    "4@(%rax,%bl)",
    "4@(%xmm0)",
    "4@%fs:t@tpoff x",
    "4@%fs:",
    "4@g@PLT(%rip)",
    "4@g@(%rip)",
    "4@(%rip)",
    "4@%stuff",
    "4@%kbogus",
    "4@%xmm32",
    "4@%RAX",
    "8@$18446744073709551616",
    "4@$g@GOTOFF",
    "4@%rax%rbx",
    "4@()",
    "4@(,%rax,0)",
    "4@8(%rax)(%rbx)",
    "4@%r16",
    "4@%r8x",
    "4@$-9223372036854775809",
};

static const struct arg_case i386_cases[] = {
    {.spec = "4@%eax", .kind = REG, .fetch = "%ax:u32"},
    {.spec = "-4@%esi", .kind = REG, .fetch = "%si:s32"},
    {.spec = "-2@%dx", .kind = REG, .fetch = "%dx:s16"},
    {.spec = "1@%cl", .kind = REG, .fetch = "%cx:u8"},
    {.spec = "1@%ah", .kind = REG, .fetch = "%ax:b8@8/32"},
    {.spec = "-4@$5", .kind = CONST, .fetch = "\\5:s32"},
    {.spec = "-4@$-7", .kind = CONST, .fetch = "\\-7:s32"},
    {.spec = "8@$-1", .kind = CONST, .fetch = "\\18446744073709551615:u64"},
    {.spec = "-4@12(%esp)", .kind = MEM, .fetch = "+12(%sp):s32"},
    {.spec = "-4@-12(%ebp)", .kind = MEM, .fetch = "-12(%bp):s32"},
    {.spec = "4@44(%esp)", .kind = MEM, .fetch = "+44(%sp):u32"},
    {.spec = "-8@4(%edx)", .kind = MEM, .fetch = "+4(%dx):s64"}, /* memory may be wider */
    {.spec = "16f@-24(%ebp)", .kind = MEM, .fetch = "-24(%bp):x32[4]"},
    {.spec = "-4@(%eax,%edx,8)",
     .kind = INDEXED,
     .fetch = NULL,
     .reg = "ax",
     .index = "dx",
     .scale = 8},
    {.spec = "-4@(%ecx,%eax,4)", .kind = INDEXED, .fetch = NULL},
    {.spec = "-4@bb_arr(,%eax,4)", .kind = INDEXED, .fetch = NULL, .symbol = "bb_arr"},
    {.spec = "-8@g_i64@GOTOFF(%ebx)", .kind = GLOBAL, .fetch = "@+0x3010:s64", .symbol = "g_i64"},
    {.spec = "-4@8+g_iarr@GOTOFF(%ebx,%eax,4)",
     .kind = INDEXED,
     .fetch = NULL,
     .symbol = "g_iarr",
     .index = "ax",
     .scale = 4},
    {.spec = "1@g_char", .kind = GLOBAL, .fetch = "@+0x3010:u8", .symbol = "g_char"},
    {.spec = "-4@g_arr+16",
     .kind = GLOBAL,
     .fetch = "@+0x3020:s32",
     .symbol = "g_arr",
     .check_offset = true,
     .offset = 16},
    {.spec = "-4@%gs:t_tls@ntpoff", .kind = TLS, .fetch = NULL, .symbol = "t_tls"},
    {.spec = "8@$g_target", .kind = ADDR, .fetch = "\\16400:u64", .symbol = "g_target"},
    {.spec = "4@$g_target", .kind = ADDR, .fetch = "\\16400:u32", .symbol = "g_target"},
    {.spec = "8f@%edx", .kind = REGPAIR, .fetch = NULL, .why = "pair"},
    {.spec = "4f@40(%esp)", .kind = MEM, .fetch = "+40(%sp):x32"},
    {.spec = "-8@%eax", .kind = REGPAIR, .fetch = NULL, .why = "register pair"},
    {.spec = "8@%xmm0", .kind = VECTOR, .fetch = NULL},
    {.spec = "%eax", .kind = REG, .fetch = "%ax:u32"}, /* sizeless: word-sized */
};

static const char *const i386_bad[] = {
    "4@%rax", "4@%r8d", "4@%sil", "4@(%rax)", "12f@(%esp)", "4@%eax)", "4@(%eax", "4@%bogus",
};

static int setup(void **state)
{
	(void)state;
	x86_64.arch = sdt_arch_find(EM_X86_64, ELFCLASS64, false);
	x86_64.elfclass = ELFCLASS64;
	x86_64.regs = aut_regs_x86_64;
	i386.arch = sdt_arch_find(EM_386, ELFCLASS32, false);
	i386.elfclass = ELFCLASS32;
	i386.regs = aut_regs_i386;
	return x86_64.arch && i386.arch ? 0 : -1;
}

static void test_arch_find(void **state)
{
	(void)state;
	assert_string_equal(x86_64.arch->name, "x86_64");
	assert_int_equal(x86_64.arch->reg_bits, 64);
	assert_string_equal(i386.arch->name, "i386");
	assert_int_equal(i386.arch->reg_bits, 32);
	/* x32 keeps the 64-bit registers */
	assert_ptr_equal(sdt_arch_find(EM_X86_64, ELFCLASS32, false), x86_64.arch);
	assert_string_equal(sdt_arch_name(EM_X86_64, ELFCLASS32, false), "x32");
	assert_null(sdt_arch_find(EM_386, ELFCLASS64, false));
}

static void test_x86_64_forms(void **state)
{
	(void)state;
	assert_int_equal(aut_run(&x86_64, x86_64_cases, AUT_COUNT(x86_64_cases)), 0);
}

static void test_x86_64_invalid(void **state)
{
	(void)state;
	assert_int_equal(aut_run_invalid(&x86_64, x86_64_bad, AUT_COUNT(x86_64_bad)), 0);
}

static void test_i386_forms(void **state)
{
	(void)state;
	assert_int_equal(aut_run(&i386, i386_cases, AUT_COUNT(i386_cases)), 0);
}

static void test_i386_invalid(void **state)
{
	(void)state;
	assert_int_equal(aut_run_invalid(&i386, i386_bad, AUT_COUNT(i386_bad)), 0);
}

static void test_hostile(void **state)
{
	(void)state;
	assert_int_equal(aut_run_mutations(&x86_64, x86_64_cases, AUT_COUNT(x86_64_cases)), 0);
	assert_int_equal(aut_run_mutations(&i386, i386_cases, AUT_COUNT(i386_cases)), 0);
	assert_int_equal(aut_run_garbage(&x86_64), 0);
	assert_int_equal(aut_run_garbage(&i386), 0);
}

/* Parse and render a whole argument string; *n arguments. */
static struct sdt_arg *parse_all(const struct arch_under_test *t, const char *text, size_t *n)
{
	struct sdt_render_ctx rc = {.text_bias = TEXT_BIAS, .have_text_bias = true};
	struct sdt_arg *args = NULL;
	size_t i;

	assert_int_equal(sdt_args_parse(t->arch, t->elfclass, text, &args, n), 0);
	for (i = 0; i < *n; i++) {
		assert_int_equal(sdt_arg_render(t->arch, t->elfclass, &args[i], &rc), 0);
		assert_true(aut_sane(t, &args[i], args[i].spec));
	}
	return args;
}

static void test_split(void **state)
{
	struct sdt_arg *args;
	char text[64 * 8];
	size_t n, i;

	(void)state;
	/* an unavailable argument keeps its place */
	args = parse_all(&x86_64, "8@%rdi -4@$5 8f@%xmm0", &n);
	assert_int_equal(n, 3);
	assert_string_equal(args[0].fetch, "%di:u64");
	assert_string_equal(args[1].fetch, "\\5:s32");
	assert_null(args[2].fetch);
	assert_string_equal(args[2].spec, "8f@%xmm0");
	assert_int_equal(args[2].kind, SDT_ARG_VECTOR);
	sdt_args_free(args, n);

	/* a malformed one in the middle too */
	args = parse_all(&x86_64, "8@%rdi 4@%bogus -4@-20(%rbp)", &n);
	assert_int_equal(n, 3);
	assert_int_equal(args[1].kind, SDT_ARG_INVALID);
	assert_non_null(args[1].unavailable);
	assert_string_equal(args[2].fetch, "-20(%bp):s32");
	sdt_args_free(args, n);

	/* runs of blanks, tabs, leading and trailing blanks */
	args = parse_all(&x86_64, "  -4@%eax \t 8@(%rsp)\t", &n);
	assert_int_equal(n, 2);
	assert_string_equal(args[0].spec, "-4@%eax");
	assert_string_equal(args[1].spec, "8@(%rsp)");
	sdt_args_free(args, n);

	/* a stray token is part of the argument before it, which becomes invalid */
	args = parse_all(&x86_64, "8@%rdi junk 4@%esi", &n);
	assert_int_equal(n, 2);
	assert_string_equal(args[0].spec, "8@%rdi junk");
	assert_int_equal(args[0].kind, SDT_ARG_INVALID);
	assert_string_equal(args[1].fetch, "%si:u32");
	sdt_args_free(args, n);

	/* the old sizeless form: each blank-separated token, word-sized */
	args = parse_all(&x86_64, "%rdi %rsi", &n);
	assert_int_equal(n, 2);
	assert_string_equal(args[0].fetch, "%di:u64");
	assert_string_equal(args[1].fetch, "%si:u64");
	sdt_args_free(args, n);
	args = parse_all(&i386, "%eax 8(%esp)", &n);
	assert_int_equal(n, 2);
	assert_string_equal(args[0].fetch, "%ax:u32");
	assert_string_equal(args[1].fetch, "+8(%sp):u32");
	sdt_args_free(args, n);

	/* no arguments */
	args = parse_all(&x86_64, "", &n);
	assert_int_equal(n, 0);
	sdt_args_free(args, n);
	args = parse_all(&x86_64, " \t ", &n);
	assert_int_equal(n, 0);
	sdt_args_free(args, n);

	/* SDT_MAX_ARGS arguments are fine, one more is -E2BIG */
	text[0] = '\0';
	for (i = 0; i < SDT_MAX_ARGS; i++)
		strcat(text, i ? " 8@%rdi" : "8@%rdi");
	args = parse_all(&x86_64, text, &n);
	assert_int_equal(n, SDT_MAX_ARGS);
	sdt_args_free(args, n);
	strcat(text, " 8@%rsi");
	args = (struct sdt_arg *)1;
	assert_int_equal(sdt_args_parse(x86_64.arch, ELFCLASS64, text, &args, &n), -E2BIG);
	assert_null(args);
	assert_int_equal(n, 0);
}

static void test_no_arch(void **state)
{
	struct sdt_arg *args = NULL;
	size_t n;

	(void)state;
	/* an architecture without a parser: every argument unavailable, the count kept */
	assert_int_equal(sdt_args_parse(NULL, ELFCLASS64, "8@x0 -4@5", &args, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(args[0].kind, SDT_ARG_INVALID);
	assert_non_null(strstr(args[1].unavailable, "architecture"));
	assert_int_equal(sdt_arg_render(NULL, ELFCLASS64, &args[0], NULL), 0);
	assert_null(args[0].fetch);
	assert_non_null(args[0].unavailable);
	sdt_args_free(args, n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_arch_find),	   cmocka_unit_test(test_x86_64_forms),
	    cmocka_unit_test(test_x86_64_invalid), cmocka_unit_test(test_i386_forms),
	    cmocka_unit_test(test_i386_invalid),   cmocka_unit_test(test_hostile),
	    cmocka_unit_test(test_split),	   cmocka_unit_test(test_no_arch),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
