/* SPDX-License-Identifier: MIT */
/*
 * The BPF engine's fetch plans (lib/bpf/plan.c): argument specs parsed by the x86_64 parser,
 * then sdt_bpf_arg_plan(): the fetch kind, the pt_regs offsets, the displacement, the scale,
 * the bit field, strings through pointers, and the reasons for what the engine cannot fetch.
 * Also the layout both compilers must agree on (lib/bpf/plan.h).
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bpf/sdt_bpf.h"
#include "sdtrace/record.h"
#include "scan/arch/arch.h"
#include "scan/argspec.h"

static const struct sdt_arch *x86_64;

static int setup(void **state)
{
	(void)state;
	x86_64 = sdt_arch_find(EM_X86_64, ELFCLASS64, false);
	return x86_64 ? 0 : -1;
}

/* Parse @spec; a symbol "resolves" to @sym_addr when not 0. */
static void parse(const char *spec, uint64_t sym_addr, struct sdt_arg *a)
{
	memset(a, 0, sizeof(*a));
	assert_int_equal(sdt_arg_parse(x86_64, ELFCLASS64, spec, a), 0);
	if (sym_addr) {
		a->sym_resolved = true;
		a->sym_addr = sym_addr;
	}
}

struct plan_case {
	const char *spec;
	uint64_t sym_addr;
	bool string;
	int err; /* 0, -EOPNOTSUPP, -EDOM */
	uint8_t fetch, size, flags, shift, scale;
	int reg, index; /* pt_regs offsets, -1: none */
	int64_t disp;
	const char *why; /* substring of the reason */
};

#define NONE (-1)

static const struct plan_case cases[] = {
    /* registers: pt_regs offsets (ax 80, di 112, si 104, r12 24, r15 0, sp 152) */
    {"-4@%eax", 0, false, 0, SDT_BPF_REG, 4, 0, 0, 1, 80, NONE, 0, NULL},
    {"8@%rdi", 0, false, 0, SDT_BPF_REG, 8, 0, 0, 1, 112, NONE, 0, NULL},
    {"1@%ah", 0, false, 0, SDT_BPF_REG, 1, 0, 8, 1, 80, NONE, 0, NULL},
    {"-2@%r12w", 0, false, 0, SDT_BPF_REG, 2, 0, 0, 1, 24, NONE, 0, NULL},
    {"8@%r15", 0, false, 0, SDT_BPF_REG, 8, 0, 0, 1, 0, NONE, 0, NULL},
    /* memory */
    {"-8@-16(%rbp)", 0, false, 0, SDT_BPF_MEM, 8, 0, 0, 1, 32, NONE, -16, NULL},
    {"4@112(%rsp)", 0, false, 0, SDT_BPF_MEM, 4, 0, 0, 1, 152, NONE, 112, NULL},
    /* constants, address immediates (link-time: the report rebases them) */
    {"-4@$-5", 0, false, 0, SDT_BPF_CONST, 4, 0, 0, 1, NONE, NONE, -5, NULL},
    {"8@$g_str", 0x4010, false, 0, SDT_BPF_CONST, 8, 0, 0, 1, NONE, NONE, 0x4010, NULL},
    {"8@$g_str", 0x4010, true, 0, SDT_BPF_LADDR, 8, SDT_BPF_STRING, 0, 1, NONE, NONE, 0x4010,
     NULL},
    /* globals through the load bias */
    {"-4@g_int(%rip)", 0x4010, false, 0, SDT_BPF_GLOBAL, 4, 0, 0, 1, NONE, NONE, 0x4010, NULL},
    {"-4@g_int(%rip)", 0, false, -EOPNOTSUPP, 0, 0, 0, 0, 0, 0, 0, 0, "symbol"},
    /* indexed: base + index * scale + disp, with or without a symbol */
    {"-8@(%rdi,%rsi,8)", 0, false, 0, SDT_BPF_INDEXED, 8, 0, 0, 8, 112, 104, 0, NULL},
    {"-8@16(%rdi,%rsi,8)", 0, false, 0, SDT_BPF_INDEXED, 8, 0, 0, 8, 112, 104, 16, NULL},
    {"-4@(%rdx,%r8,4)", 0, false, 0, SDT_BPF_INDEXED, 4, 0, 0, 4, 96, 72, 0, NULL},
    {"-8@g_arr(,%rdi,8)", 0x4040, false, 0, SDT_BPF_INDEXED, 8, SDT_BPF_REBASE, 0, 8, NONE,
     112, 0x4040, NULL},
    /* thread-local, local exec: sym_addr is the offset from the thread pointer */
    {"-8@%fs:t_tls@tpoff", (uint64_t)-16, false, 0, SDT_BPF_TLS, 8, 0, 0, 1, NONE, NONE, -16,
     NULL},
    {"-8@%fs:t_tls@tpoff", 0, false, -EOPNOTSUPP, 0, 0, 0, 0, 0, 0, 0, 0, "thread-local"},
    /* strings through pointers */
    {"8@%rdi", 0, true, 0, SDT_BPF_REG, 8, SDT_BPF_STRING, 0, 1, 112, NONE, 0, NULL},
    {"8@8(%rbx)", 0, true, 0, SDT_BPF_MEM, 8, SDT_BPF_STRING, 0, 1, 40, NONE, 8, NULL},
    {"8@$5", 0, true, -EDOM, 0, 0, 0, 0, 0, 0, 0, 0, "constant"},
    {"1@%ah", 0, true, -EDOM, 0, 0, 0, 0, 0, 0, 0, 0, "constant"},
    /* a long double in memory: its 16 bytes (rbp 32) */
    {"16f@-32(%rbp)", 0, false, 0, SDT_BPF_MEM, 16, 0, 0, 1, 32, NONE, -32, NULL},
    /* what neither engine fetches */
    {"16@-32(%rbp)", 0, false, -EOPNOTSUPP, 0, 0, 0, 0, 0, 0, 0, 0, "16-byte integer"},
    {"8f@%xmm0", 0, false, -EOPNOTSUPP, 0, 0, 0, 0, 0, 0, 0, 0, "vector"},
    {"4@%nosuch", 0, false, -EOPNOTSUPP, 0, 0, 0, 0, 0, 0, 0, 0, NULL},
};

static void test_plans(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct plan_case *c = &cases[i];
		struct sdt_bpf_arg p;
		struct sdt_arg a;
		const char *why = NULL;
		int err;

		parse(c->spec, c->sym_addr, &a);
		err = sdt_bpf_arg_plan(&a, c->string, &p, &why);
		if (err != c->err)
			fail_msg("%s: %d, expected %d (%s)", c->spec, err, c->err, why ? why : "");
		if (err) {
			assert_non_null(why);
			if (c->why && !strstr(why, c->why))
				fail_msg("%s: reason '%s' does not mention '%s'", c->spec, why, c->why);
			sdt_arg_release(&a);
			continue;
		}
		if (p.fetch != c->fetch || p.size != c->size || p.flags != c->flags ||
		    p.shift != c->shift || p.scale != c->scale || p.disp != c->disp ||
		    p.reg != (c->reg < 0 ? SDT_BPF_REG_NONE : c->reg) ||
		    p.index != (c->index < 0 ? SDT_BPF_REG_NONE : c->index))
			fail_msg("%s: fetch %u size %u flags %u shift %u scale %u reg %u index %u "
				 "disp %lld",
				 c->spec, p.fetch, p.size, p.flags, p.shift, p.scale, p.reg, p.index,
				 (long long)p.disp);
		sdt_arg_release(&a);
	}
}

static void test_reg_offsets(void **state)
{
	(void)state;
	assert_int_equal(sdt_bpf_reg_offset("r15"), 0);
	assert_int_equal(sdt_bpf_reg_offset("ax"), 80);
	assert_int_equal(sdt_bpf_reg_offset("ip"), 128);
	assert_int_equal(sdt_bpf_reg_offset("sp"), 152);
	assert_int_equal(sdt_bpf_reg_offset("eax"), -1);
	assert_int_equal(sdt_bpf_reg_offset(""), -1);
}

/* The layout the BPF program and the library must agree on (both read plan.h). */
static void test_layout(void **state)
{
	(void)state;
	assert_int_equal(sizeof(struct sdt_bpf_arg), 24);
	assert_int_equal(offsetof(struct sdt_bpf_arg, disp), 16);
	assert_int_equal(offsetof(struct sdt_bpf_site, room), 16);
	assert_int_equal(offsetof(struct sdt_bpf_site, role), 18);
	assert_int_equal(offsetof(struct sdt_bpf_site, group), 24);
	assert_int_equal(offsetof(struct sdt_bpf_site, by), 32);
	assert_int_equal(offsetof(struct sdt_bpf_site, args), 96);
	assert_int_equal(sizeof(struct sdt_bpf_keypart), 8);
	assert_int_equal(sizeof(struct sdt_bpf_lat), 32 + 8 * SDT_BPF_LAT_BUCKETS);
	/* key parts at dst & 511, a string's bytes after it: inside the 1024-byte scratch key */
	assert_true(SDT_BPF_KEY_MAX <= 512 + SDT_BPF_KEY_STR);
	assert_true(SDT_AGG_STR_MAX == SDT_BPF_KEY_STR - 2);
	assert_int_equal(sizeof(struct sdt_bpf_rec), 40);
	/* -g: the stack's count in the head; the stack after raw, 8-aligned, in the scratch */
	assert_int_equal(offsetof(struct sdt_bpf_rec, nips), 28);
	assert_int_equal(offsetof(struct sdt_bpf_rec, nregs), 32);
	assert_int_equal(offsetof(struct sdt_bpf_rec, ustack), 36);
	assert_true(SDT_BPF_STACK_MAX >= 127 && SDT_BPF_STACK_MAX * 8 < 4096);
	assert_true(SDT_BPF_RAW_MAX % 8 == 0);
	assert_true(SDT_BPF_STR_MAX <= SDT_BPF_RAW_MAX - SDT_BPF_FIXED_LIM);
	assert_true((SDT_BPF_RAW_MAX & (SDT_BPF_RAW_MAX - 1)) == 0);
	/* every argument at 8 bytes and the room field of long strings */
	assert_true(SDT_BPF_IP_OFF + 8 + SDT_BPF_MAX_ARGS * 8 + 4 <= SDT_BPF_FIXED_LIM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plans),
	    cmocka_unit_test(test_reg_offsets),
	    cmocka_unit_test(test_layout),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
