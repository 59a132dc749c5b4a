/* SPDX-License-Identifier: MIT */
/*
 * The scanner on the committed fixtures (tests/fixtures, made by gen.sh): for every architecture,
 * class and byte order, the ELF identity, the build-id, and every site's provider, name, address,
 * file offset, semaphore and arguments.
 *
 * Expected values come from tests/fixtures/MANIFEST, written by elftool.py (a Python reader that
 * shares no code with the library); build-ids agree with `readelf -n`, and the x86_64 offsets with
 * what `perf buildid-cache --add` writes. Fetch strings are checked for x86 only: the operand
 * parsers of the other architectures are still moving; for those each argument must have exactly
 * one of fetch/unavailable.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "sdtrace/sdtrace.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* An x86 argument that must be unavailable (with a reason). */
#define UNAVAILABLE  ((const char *)1)
#define SITES(table) table, ARRAY_SIZE(table)

struct exp_arg {
	const char *spec;
	unsigned int size;
	bool is_signed;
	bool is_float;
	const char *fetch; /* x86 only: the fetcharg, or UNAVAILABLE */
};

struct exp_site {
	const char *provider;
	const char *name;
	uint64_t address;
	uint64_t file_offset;
	uint64_t semaphore;
	uint64_t semaphore_offset;
	const char *args_text;
	size_t nargs;
	struct exp_arg args[6];
};

struct exp_file {
	const char *file;
	int elfclass;
	int byte_order;
	unsigned int machine;
	const char *arch;
	const char *build_id;
	bool check_fetch;
	const struct exp_site *sites;
	size_t nsites;
};

/* clang-format off */
static const struct exp_site sites_x86_64[] = {
	{"fix", "zero", 0x2011d0, 0x1d0, 0x0, 0x0,
	 "", 0, {
	}},
	{"fix", "ints", 0x2011f8, 0x1f8, 0x0, 0x0,
	 "-1@-23(%rsp) 2@-22(%rsp) -4@-20(%rsp) 8@-8(%rsp) 8@-16(%rsp) -4@$7", 6, {
		{"-1@-23(%rsp)", 1, true, false, "-23(%sp):s8"},
		{"2@-22(%rsp)", 2, false, false, "-22(%sp):u16"},
		{"-4@-20(%rsp)", 4, true, false, "-20(%sp):s32"},
		{"8@-8(%rsp)", 8, false, false, "-8(%sp):u64"},
		{"8@-16(%rsp)", 8, false, false, "-16(%sp):u64"},
		{"-4@$7", 4, true, false, "\\7:s32"},
	}},
	{"fix", "global", 0x20120a, 0x20a, 0x0, 0x0,
	 "-4@-4(%rsp) -4@$-1", 2, {
		{"-4@-4(%rsp)", 4, true, false, "-4(%sp):s32"},
		{"-4@$-1", 4, true, false, "\\-1:s32"},
	}},
	{"fix", "floats", 0x20121c, 0x21c, 0x0, 0x0,
	 "4f@-12(%rsp) 8f@-8(%rsp)", 2, {
		{"4f@-12(%rsp)", 4, false, true, "-12(%sp):x32"},
		{"8f@-8(%rsp)", 8, false, true, "-8(%sp):x64"},
	}},
	{"fix", "twice", 0x201224, 0x224, 0x0, 0x0,
	 "-4@-4(%rsp)", 1, {
		{"-4@-4(%rsp)", 4, true, false, "-4(%sp):s32"},
	}},
	{"fix", "twice", 0x201235, 0x235, 0x0, 0x0,
	 "-8@-8(%rsp)", 1, {
		{"-8@-8(%rsp)", 8, true, false, "-8(%sp):s64"},
	}},
	{"fix", "gated", 0x20124f, 0x24f, 0x20232c, 0x32c,
	 "-4@-4(%rsp)", 1, {
		{"-4@-4(%rsp)", 4, true, false, "-4(%sp):s32"},
	}},
	{"fix", "regs", 0x201266, 0x266, 0x0, 0x0,
	 "-1@%dil -2@%si 4@%edx -8@%rcx -4@%eax", 5, {
		{"-1@%dil", 1, true, false, "%di:s8"},
		{"-2@%si", 2, true, false, "%si:s16"},
		{"4@%edx", 4, false, false, "%dx:u32"},
		{"-8@%rcx", 8, true, false, "%cx:s64"},
		{"-4@%eax", 4, true, false, "%ax:s32"},
	}},
};

static const struct exp_site sites_i386[] = {
	{"fix", "zero", 0x401130, 0x130, 0x0, 0x0,
	 "", 0, {
	}},
	{"fix", "ints", 0x401178, 0x178, 0x0, 0x0,
	 "-1@5(%esp) 2@6(%esp) -4@12(%esp) 8@16(%esp) 4@8(%esp) -4@$7", 6, {
		{"-1@5(%esp)", 1, true, false, "+5(%sp):s8"},
		{"2@6(%esp)", 2, false, false, "+6(%sp):u16"},
		{"-4@12(%esp)", 4, true, false, "+12(%sp):s32"},
		{"8@16(%esp)", 8, false, false, "+16(%sp):u64"},
		{"4@8(%esp)", 4, false, false, "+8(%sp):u32"},
		{"-4@$7", 4, true, false, "\\7:s32"},
	}},
	{"fix", "global", 0x401189, 0x189, 0x0, 0x0,
	 "-4@(%esp) -4@$-1", 2, {
		{"-4@(%esp)", 4, true, false, "+0(%sp):s32"},
		{"-4@$-1", 4, true, false, "\\-1:s32"},
	}},
	{"fix", "floats", 0x4011a3, 0x1a3, 0x0, 0x0,
	 "4f@4(%esp) 8f@8(%esp)", 2, {
		{"4f@4(%esp)", 4, false, true, "+4(%sp):x32"},
		{"8f@8(%esp)", 8, false, true, "+8(%sp):x64"},
	}},
	{"fix", "twice", 0x4011b8, 0x1b8, 0x0, 0x0,
	 "-4@(%esp)", 1, {
		{"-4@(%esp)", 4, true, false, "+0(%sp):s32"},
	}},
	{"fix", "twice", 0x4011c8, 0x1c8, 0x0, 0x0,
	 "-4@(%esp)", 1, {
		{"-4@(%esp)", 4, true, false, "+0(%sp):s32"},
	}},
	{"fix", "gated", 0x4011e4, 0x1e4, 0x4022fc, 0x2fc,
	 "-4@(%esp)", 1, {
		{"-4@(%esp)", 4, true, false, "+0(%sp):s32"},
	}},
	{"fix", "regs", 0x40120e, 0x20e, 0x0, 0x0,
	 "-1@%eax -2@%ecx 4@%edx -8@%esi -4@%ebx", 5, {
		{"-1@%eax", 1, true, false, "%ax:s8"},
		{"-2@%ecx", 2, true, false, "%cx:s16"},
		{"4@%edx", 4, false, false, "%dx:u32"},
		{"-8@%esi", 8, true, false, UNAVAILABLE},
		{"-4@%ebx", 4, true, false, "%bx:s32"},
	}},
};

static const struct exp_site sites_aarch64[] = {
	{"fix", "zero", 0x2101b8, 0x1b8, 0x0, 0x0,
	 "", 0, {
	}},
	{"fix", "ints", 0x2101e8, 0x1e8, 0x0, 0x0,
	 "-1@[x12] 2@[x11] -4@[x10] 8@[x9] 8@[x8] -4@7", 6, {
		{"-1@[x12]", 1, true, false, NULL},
		{"2@[x11]", 2, false, false, NULL},
		{"-4@[x10]", 4, true, false, NULL},
		{"8@[x9]", 8, false, false, NULL},
		{"8@[x8]", 8, false, false, NULL},
		{"-4@7", 4, true, false, NULL},
	}},
	{"fix", "global", 0x210208, 0x208, 0x0, 0x0,
	 "-4@[x9] -4@-1", 2, {
		{"-4@[x9]", 4, true, false, NULL},
		{"-4@-1", 4, true, false, NULL},
	}},
	{"fix", "floats", 0x210228, 0x228, 0x0, 0x0,
	 "4f@[x9] 8f@[x8]", 2, {
		{"4f@[x9]", 4, false, true, NULL},
		{"8f@[x8]", 8, false, true, NULL},
	}},
	{"fix", "twice", 0x210240, 0x240, 0x0, 0x0,
	 "-4@[x8]", 1, {
		{"-4@[x8]", 4, true, false, NULL},
	}},
	{"fix", "twice", 0x210258, 0x258, 0x0, 0x0,
	 "-8@[x8]", 1, {
		{"-8@[x8]", 8, true, false, NULL},
	}},
	{"fix", "gated", 0x21028c, 0x28c, 0x22035c, 0x35c,
	 "-4@[x8]", 1, {
		{"-4@[x8]", 4, true, false, NULL},
	}},
	{"fix", "regs", 0x2102a0, 0x2a0, 0x0, 0x0,
	 "-1@x0 -2@x1 4@x2 -8@x3 -4@x8", 5, {
		{"-1@x0", 1, true, false, NULL},
		{"-2@x1", 2, true, false, NULL},
		{"4@x2", 4, false, false, NULL},
		{"-8@x3", 8, true, false, NULL},
		{"-4@x8", 4, true, false, NULL},
	}},
};

static const struct exp_site sites_arm[] = {
	{"fix", "zero", 0x20174, 0x174, 0x0, 0x0,
	 "", 0, {
	}},
	{"fix", "ints", 0x201bc, 0x1bc, 0x0, 0x0,
	 "-1@[r0] 2@[r3] -4@[r2] 8@[r1] 4@[r12] -4@#7", 6, {
		{"-1@[r0]", 1, true, false, NULL},
		{"2@[r3]", 2, false, false, NULL},
		{"-4@[r2]", 4, true, false, NULL},
		{"8@[r1]", 8, false, false, NULL},
		{"4@[r12]", 4, false, false, NULL},
		{"-4@#7", 4, true, false, NULL},
	}},
	{"fix", "global", 0x201e0, 0x1e0, 0x0, 0x0,
	 "-4@[r0] -4@#-1", 2, {
		{"-4@[r0]", 4, true, false, NULL},
		{"-4@#-1", 4, true, false, NULL},
	}},
	{"fix", "floats", 0x20200, 0x200, 0x0, 0x0,
	 "4f@[r1] 8f@[r0]", 2, {
		{"4f@[r1]", 4, false, true, NULL},
		{"8f@[r0]", 8, false, true, NULL},
	}},
	{"fix", "twice", 0x20218, 0x218, 0x0, 0x0,
	 "-4@[r0]", 1, {
		{"-4@[r0]", 4, true, false, NULL},
	}},
	{"fix", "twice", 0x20230, 0x230, 0x0, 0x0,
	 "-4@[r0]", 1, {
		{"-4@[r0]", 4, true, false, NULL},
	}},
	{"fix", "gated", 0x20264, 0x264, 0x3034c, 0x34c,
	 "-4@[r0]", 1, {
		{"-4@[r0]", 4, true, false, NULL},
	}},
	{"fix", "regs", 0x20288, 0x288, 0x0, 0x0,
	 "-1@r0 -2@r1 4@r2 -8@r4 -4@r3", 5, {
		{"-1@r0", 1, true, false, NULL},
		{"-2@r1", 2, true, false, NULL},
		{"4@r2", 4, false, false, NULL},
		{"-8@r4", 8, true, false, NULL},
		{"-4@r3", 4, true, false, NULL},
	}},
};

static const struct exp_site sites_ppc64le[] = {
	{"fix", "zero", 0x10010230, 0x230, 0x0, 0x0,
	 "", 0, {
	}},
	{"fix", "ints", 0x10010278, 0x278, 0x0, 0x0,
	 "-1@0(6) 2@0(5) -4@0(4) 8@0(3) 8@0(8) -4@i7", 6, {
		{"-1@0(6)", 1, true, false, NULL},
		{"2@0(5)", 2, false, false, NULL},
		{"-4@0(4)", 4, true, false, NULL},
		{"8@0(3)", 8, false, false, NULL},
		{"8@0(8)", 8, false, false, NULL},
		{"-4@i7", 4, true, false, NULL},
	}},
	{"fix", "global", 0x100102a8, 0x2a8, 0x0, 0x0,
	 "-4@0(3) -4@i-1", 2, {
		{"-4@0(3)", 4, true, false, NULL},
		{"-4@i-1", 4, true, false, NULL},
	}},
	{"fix", "floats", 0x100102d0, 0x2d0, 0x0, 0x0,
	 "4f@0(4) 8f@0(3)", 2, {
		{"4f@0(4)", 4, false, true, NULL},
		{"8f@0(3)", 8, false, true, NULL},
	}},
	{"fix", "twice", 0x100102f8, 0x2f8, 0x0, 0x0,
	 "-4@0(4)", 1, {
		{"-4@0(4)", 4, true, false, NULL},
	}},
	{"fix", "twice", 0x10010318, 0x318, 0x0, 0x0,
	 "-8@0(4)", 1, {
		{"-8@0(4)", 8, true, false, NULL},
	}},
	{"fix", "gated", 0x10010354, 0x354, 0x100304b4, 0x4b4,
	 "-4@0(3)", 1, {
		{"-4@0(3)", 4, true, false, NULL},
	}},
	{"fix", "regs", 0x10010384, 0x384, 0x0, 0x0,
	 "-1@3 -2@4 4@5 -8@6 -4@7", 5, {
		{"-1@3", 1, true, false, NULL},
		{"-2@4", 2, true, false, NULL},
		{"4@5", 4, false, false, NULL},
		{"-8@6", 8, true, false, NULL},
		{"-4@7", 4, true, false, NULL},
	}},
};

static const struct exp_site sites_ppc64[] = {
	{"fix", "zero", 0x10010230, 0x230, 0x0, 0x0,
	 "", 0, {
	}},
	{"fix", "ints", 0x1001026c, 0x26c, 0x0, 0x0,
	 "-1@0(7) 2@0(6) -4@0(5) 8@0(4) 8@0(3) -4@i7", 6, {
		{"-1@0(7)", 1, true, false, NULL},
		{"2@0(6)", 2, false, false, NULL},
		{"-4@0(5)", 4, true, false, NULL},
		{"8@0(4)", 8, false, false, NULL},
		{"8@0(3)", 8, false, false, NULL},
		{"-4@i7", 4, true, false, NULL},
	}},
	{"fix", "global", 0x10010290, 0x290, 0x0, 0x0,
	 "-4@0(3) -4@i-1", 2, {
		{"-4@0(3)", 4, true, false, NULL},
		{"-4@i-1", 4, true, false, NULL},
	}},
	{"fix", "floats", 0x100102b4, 0x2b4, 0x0, 0x0,
	 "4f@0(4) 8f@0(3)", 2, {
		{"4f@0(4)", 4, false, true, NULL},
		{"8f@0(3)", 8, false, true, NULL},
	}},
	{"fix", "twice", 0x100102d0, 0x2d0, 0x0, 0x0,
	 "-4@0(4)", 1, {
		{"-4@0(4)", 4, true, false, NULL},
	}},
	{"fix", "twice", 0x100102ec, 0x2ec, 0x0, 0x0,
	 "-8@0(4)", 1, {
		{"-8@0(4)", 8, true, false, NULL},
	}},
	{"fix", "gated", 0x1001031c, 0x31c, 0x10030544, 0x544,
	 "-4@0(3)", 1, {
		{"-4@0(3)", 4, true, false, NULL},
	}},
	{"fix", "regs", 0x1001033c, 0x33c, 0x0, 0x0,
	 "-1@3 -2@4 4@5 -8@6 -4@7", 5, {
		{"-1@3", 1, true, false, NULL},
		{"-2@4", 2, true, false, NULL},
		{"4@5", 4, false, false, NULL},
		{"-8@6", 8, true, false, NULL},
		{"-4@7", 4, true, false, NULL},
	}},
};

static const struct exp_site sites_ppc[] = {
	{"fix", "zero", 0x10010128, 0x128, 0x0, 0x0,
	 "", 0, {
	}},
	{"fix", "ints", 0x10010160, 0x160, 0x0, 0x0,
	 "-1@0(7) 2@0(5) -4@0(3) 8@0(4) 4@0(6) -4@i7", 6, {
		{"-1@0(7)", 1, true, false, NULL},
		{"2@0(5)", 2, false, false, NULL},
		{"-4@0(3)", 4, true, false, NULL},
		{"8@0(4)", 8, false, false, NULL},
		{"4@0(6)", 4, false, false, NULL},
		{"-4@i7", 4, true, false, NULL},
	}},
	{"fix", "global", 0x10010180, 0x180, 0x0, 0x0,
	 "-4@0(3) -4@i-1", 2, {
		{"-4@0(3)", 4, true, false, NULL},
		{"-4@i-1", 4, true, false, NULL},
	}},
	{"fix", "floats", 0x100101a0, 0x1a0, 0x0, 0x0,
	 "4f@0(4) 8f@0(3)", 2, {
		{"4f@0(4)", 4, false, true, NULL},
		{"8f@0(3)", 8, false, true, NULL},
	}},
	{"fix", "twice", 0x100101b8, 0x1b8, 0x0, 0x0,
	 "-4@0(4)", 1, {
		{"-4@0(4)", 4, true, false, NULL},
	}},
	{"fix", "twice", 0x100101d0, 0x1d0, 0x0, 0x0,
	 "-4@0(4)", 1, {
		{"-4@0(4)", 4, true, false, NULL},
	}},
	{"fix", "gated", 0x10010204, 0x204, 0x10020314, 0x314,
	 "-4@0(3)", 1, {
		{"-4@0(3)", 4, true, false, NULL},
	}},
	{"fix", "regs", 0x10010218, 0x218, 0x0, 0x0,
	 "-1@3 -2@4 4@5 -8@7 -4@6", 5, {
		{"-1@3", 1, true, false, NULL},
		{"-2@4", 2, true, false, NULL},
		{"4@5", 4, false, false, NULL},
		{"-8@7", 8, true, false, NULL},
		{"-4@6", 4, true, false, NULL},
	}},
};

static const struct exp_site sites_s390x[] = {
	{"fix", "zero", 0x1000150, 0x150, 0x0, 0x0,
	 "", 0, {
	}},
	{"fix", "ints", 0x100017c, 0x17c, 0x0, 0x0,
	 "-1@160(%r15) 2@162(%r15) -4@164(%r15) 8@176(%r15) 8@168(%r15) -4@7", 6, {
		{"-1@160(%r15)", 1, true, false, NULL},
		{"2@162(%r15)", 2, false, false, NULL},
		{"-4@164(%r15)", 4, true, false, NULL},
		{"8@176(%r15)", 8, false, false, NULL},
		{"8@168(%r15)", 8, false, false, NULL},
		{"-4@7", 4, true, false, NULL},
	}},
	{"fix", "global", 0x100019e, 0x19e, 0x0, 0x0,
	 "-4@164(%r15) -4@-1", 2, {
		{"-4@164(%r15)", 4, true, false, NULL},
		{"-4@-1", 4, true, false, NULL},
	}},
	{"fix", "floats", 0x10001bc, 0x1bc, 0x0, 0x0,
	 "4f@164(%r15) 8f@168(%r15)", 2, {
		{"4f@164(%r15)", 4, false, true, NULL},
		{"8f@168(%r15)", 8, false, true, NULL},
	}},
	{"fix", "twice", 0x10001d8, 0x1d8, 0x0, 0x0,
	 "-4@164(%r15)", 1, {
		{"-4@164(%r15)", 4, true, false, NULL},
	}},
	{"fix", "twice", 0x10001fa, 0x1fa, 0x0, 0x0,
	 "-8@160(%r15)", 1, {
		{"-8@160(%r15)", 8, true, false, NULL},
	}},
	{"fix", "gated", 0x1000234, 0x234, 0x1001334, 0x334,
	 "-4@164(%r15)", 1, {
		{"-4@164(%r15)", 4, true, false, NULL},
	}},
	{"fix", "regs", 0x1000246, 0x246, 0x0, 0x0,
	 "-1@%r2 -2@%r3 4@%r4 -8@%r5 -4@%r0", 5, {
		{"-1@%r2", 1, true, false, NULL},
		{"-2@%r3", 2, true, false, NULL},
		{"4@%r4", 4, false, false, NULL},
		{"-8@%r5", 8, true, false, NULL},
		{"-4@%r0", 4, true, false, NULL},
	}},
};

static const struct exp_site sites_riscv64[] = {
	{"fix", "zero", 0x111b8, 0x1b8, 0x0, 0x0,
	 "", 0, {
	}},
	{"fix", "ints", 0x111bc, 0x1bc, 0x0, 0x0,
	 "-1@a0 2@a1 -4@a2 8@a3 8@a4 -4@7", 6, {
		{"-1@a0", 1, true, false, NULL},
		{"2@a1", 2, false, false, NULL},
		{"-4@a2", 4, true, false, NULL},
		{"8@a3", 8, false, false, NULL},
		{"8@a4", 8, false, false, NULL},
		{"-4@7", 4, true, false, NULL},
	}},
	{"fix", "global", 0x111c8, 0x1c8, 0x0, 0x0,
	 "-4@a0 -4@-1", 2, {
		{"-4@a0", 4, true, false, NULL},
		{"-4@-1", 4, true, false, NULL},
	}},
	{"fix", "floats", 0x111d4, 0x1d4, 0x0, 0x0,
	 "4f@a0 8f@a1", 2, {
		{"4f@a0", 4, false, true, NULL},
		{"8f@a1", 8, false, true, NULL},
	}},
	{"fix", "twice", 0x111d8, 0x1d8, 0x0, 0x0,
	 "-4@a0", 1, {
		{"-4@a0", 4, true, false, NULL},
	}},
	{"fix", "twice", 0x111dc, 0x1dc, 0x0, 0x0,
	 "-8@a0", 1, {
		{"-8@a0", 8, true, false, NULL},
	}},
	{"fix", "gated", 0x111f0, 0x1f0, 0x122ec, 0x2ec,
	 "-4@a0", 1, {
		{"-4@a0", 4, true, false, NULL},
	}},
	{"fix", "regs", 0x111fc, 0x1fc, 0x0, 0x0,
	 "-1@a0 -2@a1 4@a2 -8@a3 -4@a4", 5, {
		{"-1@a0", 1, true, false, NULL},
		{"-2@a1", 2, true, false, NULL},
		{"4@a2", 4, false, false, NULL},
		{"-8@a3", 8, true, false, NULL},
		{"-4@a4", 4, true, false, NULL},
	}},
};

static const struct exp_site sites_x86_64_pie[] = {
	{"pie", "start", 0x6dd, 0x6dd, 0x0, 0x0,
	 "", 0, {
	}},
	{"pie", "globals", 0x6de, 0x6de, 0x0, 0x0,
	 "-8@g_total(%rip) -8@8+g_pair(%rip)", 2, {
		{"-8@g_total(%rip)", 8, true, false, "@+0x2040:s64"},
		{"-8@8+g_pair(%rip)", 8, true, false, "@+0x2028:s64"},
	}},
	{"pie", "loop", 0x703, 0x703, 0x0, 0x0,
	 "-4@%eax -8@%rdx -8@8(%r8)", 3, {
		{"-4@%eax", 4, true, false, "%ax:s32"},
		{"-8@%rdx", 8, true, false, "%dx:s64"},
		{"-8@8(%r8)", 8, true, false, "+8(%r8):s64"},
	}},
	{"pie", "done", 0x72a, 0x72a, 0x0, 0x0,
	 "8@(%rsi) 8f@%rax -4@$-1", 3, {
		{"8@(%rsi)", 8, false, false, "+0(%si):u64"},
		{"8f@%rax", 8, false, true, "%ax:x64"},
		{"-4@$-1", 4, true, false, "\\-1:s32"},
	}},
	{"fix", "gated", 0x75d, 0x75d, 0x2030, 0x1030,
	 "-4@%edi", 1, {
		{"-4@%edi", 4, true, false, "%di:s32"},
	}},
};

static const struct exp_site sites_x86_64_pie_stripped[] = {
	{"pie", "start", 0x6dd, 0x6dd, 0x0, 0x0,
	 "", 0, {
	}},
	{"pie", "globals", 0x6de, 0x6de, 0x0, 0x0,
	 "-8@g_total(%rip) -8@8+g_pair(%rip)", 2, {
		{"-8@g_total(%rip)", 8, true, false, UNAVAILABLE},
		{"-8@8+g_pair(%rip)", 8, true, false, UNAVAILABLE},
	}},
	{"pie", "loop", 0x703, 0x703, 0x0, 0x0,
	 "-4@%eax -8@%rdx -8@8(%r8)", 3, {
		{"-4@%eax", 4, true, false, "%ax:s32"},
		{"-8@%rdx", 8, true, false, "%dx:s64"},
		{"-8@8(%r8)", 8, true, false, "+8(%r8):s64"},
	}},
	{"pie", "done", 0x72a, 0x72a, 0x0, 0x0,
	 "8@(%rsi) 8f@%rax -4@$-1", 3, {
		{"8@(%rsi)", 8, false, false, "+0(%si):u64"},
		{"8f@%rax", 8, false, true, "%ax:x64"},
		{"-4@$-1", 4, true, false, "\\-1:s32"},
	}},
	{"fix", "gated", 0x75d, 0x75d, 0x2030, 0x1030,
	 "-4@%edi", 1, {
		{"-4@%edi", 4, true, false, "%di:s32"},
	}},
};

static const struct exp_site sites_libfix[] = {
	{"lib", "add", 0x576, 0x576, 0x200a, 0x100a,
	 "-4@%edi -4@%esi", 2, {
		{"-4@%edi", 4, true, false, "%di:s32"},
		{"-4@%esi", 4, true, false, "%si:s32"},
	}},
	{"lib", "sub", 0x58b, 0x58b, 0x2008, 0x1008,
	 "-8@%rdi -8@%rsi", 2, {
		{"-8@%rdi", 8, true, false, "%di:s64"},
		{"-8@%rsi", 8, true, false, "%si:s64"},
	}},
};

static const struct exp_site sites_x86_64_prelinked[] = {
	{"fix", "zero", 0x2111d0, 0x1d0, 0x0, 0x0,
	 "", 0, {
	}},
	{"fix", "ints", 0x2111f8, 0x1f8, 0x0, 0x0,
	 "-1@-23(%rsp) 2@-22(%rsp) -4@-20(%rsp) 8@-8(%rsp) 8@-16(%rsp) -4@$7", 6, {
		{"-1@-23(%rsp)", 1, true, false, "-23(%sp):s8"},
		{"2@-22(%rsp)", 2, false, false, "-22(%sp):u16"},
		{"-4@-20(%rsp)", 4, true, false, "-20(%sp):s32"},
		{"8@-8(%rsp)", 8, false, false, "-8(%sp):u64"},
		{"8@-16(%rsp)", 8, false, false, "-16(%sp):u64"},
		{"-4@$7", 4, true, false, "\\7:s32"},
	}},
	{"fix", "global", 0x21120a, 0x20a, 0x0, 0x0,
	 "-4@-4(%rsp) -4@$-1", 2, {
		{"-4@-4(%rsp)", 4, true, false, "-4(%sp):s32"},
		{"-4@$-1", 4, true, false, "\\-1:s32"},
	}},
	{"fix", "floats", 0x21121c, 0x21c, 0x0, 0x0,
	 "4f@-12(%rsp) 8f@-8(%rsp)", 2, {
		{"4f@-12(%rsp)", 4, false, true, "-12(%sp):x32"},
		{"8f@-8(%rsp)", 8, false, true, "-8(%sp):x64"},
	}},
	{"fix", "twice", 0x211224, 0x224, 0x0, 0x0,
	 "-4@-4(%rsp)", 1, {
		{"-4@-4(%rsp)", 4, true, false, "-4(%sp):s32"},
	}},
	{"fix", "twice", 0x211235, 0x235, 0x0, 0x0,
	 "-8@-8(%rsp)", 1, {
		{"-8@-8(%rsp)", 8, true, false, "-8(%sp):s64"},
	}},
	{"fix", "gated", 0x21124f, 0x24f, 0x21232c, 0x32c,
	 "-4@-4(%rsp)", 1, {
		{"-4@-4(%rsp)", 4, true, false, "-4(%sp):s32"},
	}},
	{"fix", "regs", 0x211266, 0x266, 0x0, 0x0,
	 "-1@%dil -2@%si 4@%edx -8@%rcx -4@%eax", 5, {
		{"-1@%dil", 1, true, false, "%di:s8"},
		{"-2@%si", 2, true, false, "%si:s16"},
		{"4@%edx", 4, false, false, "%dx:u32"},
		{"-8@%rcx", 8, true, false, "%cx:s64"},
		{"-4@%eax", 4, true, false, "%ax:s32"},
	}},
};

static const struct exp_file files[] = {
	{"x86_64.elf", ELFCLASS64, ELFDATA2LSB, EM_X86_64, "x86_64",
	 "001a2d6cbb3b1a8a301341da734b9678c2ed4717", true, SITES(sites_x86_64)},
	{"i386.elf", ELFCLASS32, ELFDATA2LSB, EM_386, "i386",
	 "c9f163a97b153dda6fb2faf00fd925eec857235b", true, SITES(sites_i386)},
	{"aarch64.elf", ELFCLASS64, ELFDATA2LSB, EM_AARCH64, "aarch64",
	 "70f1022fc7695b8d318d87a4b457898d2927c950", false, SITES(sites_aarch64)},
	{"arm.elf", ELFCLASS32, ELFDATA2LSB, EM_ARM, "arm",
	 "e84e78d743e8d423623cdb13cb3beabaa6fde816", false, SITES(sites_arm)},
	{"ppc64le.elf", ELFCLASS64, ELFDATA2LSB, EM_PPC64, "ppc64le",
	 "ed51cbeb5bdc24db6549044d715425c31d6b4def", false, SITES(sites_ppc64le)},
	{"ppc64.elf", ELFCLASS64, ELFDATA2MSB, EM_PPC64, "ppc64",
	 "d0a2cba7365616a499ee7c84af080bdccc7c3fbe", false, SITES(sites_ppc64)},
	{"ppc.elf", ELFCLASS32, ELFDATA2MSB, EM_PPC, "ppc",
	 "a4f6d788af7ba001612ca3ccf54fb0ddde4db871", false, SITES(sites_ppc)},
	{"s390x.elf", ELFCLASS64, ELFDATA2MSB, EM_S390, "s390x",
	 "8cf913246f3d4a7737400eed276652ac42772fba", false, SITES(sites_s390x)},
	{"riscv64.elf", ELFCLASS64, ELFDATA2LSB, EM_RISCV, "riscv64",
	 "a88a4f322ca94d576d1c4a405a895f2e74b4fc27", false, SITES(sites_riscv64)},
	{"x86_64-pie.elf", ELFCLASS64, ELFDATA2LSB, EM_X86_64, "x86_64",
	 "ff4a462c6f6f5c946d88d0a971bb43aa62503c5c", true, SITES(sites_x86_64_pie)},
	{"x86_64-pie-stripped.elf", ELFCLASS64, ELFDATA2LSB, EM_X86_64, "x86_64",
	 "ff4a462c6f6f5c946d88d0a971bb43aa62503c5c", true, SITES(sites_x86_64_pie_stripped)},
	{"libfix.so", ELFCLASS64, ELFDATA2LSB, EM_X86_64, "x86_64",
	 "54c6bd1f461f6c16860dee6218a9f438742c9a67", true, SITES(sites_libfix)},
	{"x86_64-prelinked.elf", ELFCLASS64, ELFDATA2LSB, EM_X86_64, "x86_64",
	 "001a2d6cbb3b1a8a301341da734b9678c2ed4717", true, SITES(sites_x86_64_prelinked)},
};
/* clang-format on */

static const char *fixture(const char *name, char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s", FIXTURES_DIR, name);
	return buf;
}

/* A failed check names the fixture and site it is about, then fails the test. */
#define check(cond, ...)                                                                           \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			print_error(__VA_ARGS__);                                                  \
			print_error("\n");                                                         \
			fail_msg("check failed: %s", #cond);                                       \
		}                                                                                  \
	} while (0)

static bool str_eq(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static void check_arg(const struct exp_file *ef, size_t si, size_t ai, const struct sdt_arg *a,
		      const struct exp_arg *ea)
{
	const char *fetch = sdt_arg__fetch(a), *why = sdt_arg__unavailable(a);

	check(a, "%s site %zu: arg %zu missing", ef->file, si, ai);
	check(str_eq(sdt_arg__spec(a), ea->spec), "%s site %zu arg %zu: spec '%s', expected '%s'",
	      ef->file, si, ai, sdt_arg__spec(a), ea->spec);
	check(sdt_arg__size(a) == ea->size, "%s site %zu arg %zu (%s): size %u, expected %u",
	      ef->file, si, ai, ea->spec, sdt_arg__size(a), ea->size);
	check(sdt_arg__is_signed(a) == ea->is_signed, "%s site %zu arg %zu (%s): wrong sign",
	      ef->file, si, ai, ea->spec);
	check(sdt_arg__is_float(a) == ea->is_float, "%s site %zu arg %zu (%s): wrong float flag",
	      ef->file, si, ai, ea->spec);
	/* Exactly one of fetch / unavailable, and a reason is never empty. */
	check(!fetch != !why, "%s site %zu arg %zu (%s): fetch '%s', unavailable '%s'", ef->file,
	      si, ai, ea->spec, fetch ? fetch : "(null)", why ? why : "(null)");
	check(!why || why[0], "%s site %zu arg %zu (%s): empty reason", ef->file, si, ai, ea->spec);
	if (!ef->check_fetch)
		return;
	if (ea->fetch == UNAVAILABLE)
		check(!fetch && why, "%s site %zu arg %zu (%s): fetch '%s', expected unavailable",
		      ef->file, si, ai, ea->spec, fetch);
	else
		check(str_eq(fetch, ea->fetch),
		      "%s site %zu arg %zu (%s): fetch '%s', expected '%s'", ef->file, si, ai,
		      ea->spec, fetch ? fetch : "(null)", ea->fetch);
}

static void check_site(const struct exp_file *ef, size_t i, const struct sdt_site *s)
{
	const struct exp_site *es = &ef->sites[i];
	size_t j;

	check(s, "%s: site %zu missing", ef->file, i);
	check(str_eq(sdt_site__provider(s), es->provider) && str_eq(sdt_site__name(s), es->name),
	      "%s site %zu: %s:%s, expected %s:%s", ef->file, i, sdt_site__provider(s),
	      sdt_site__name(s), es->provider, es->name);
	check(sdt_site__address(s) == es->address,
	      "%s site %zu (%s): address 0x%llx, expected 0x%llx", ef->file, i, es->name,
	      (unsigned long long)sdt_site__address(s), (unsigned long long)es->address);
	check(sdt_site__file_offset(s) == es->file_offset,
	      "%s site %zu (%s): file offset 0x%llx, expected 0x%llx", ef->file, i, es->name,
	      (unsigned long long)sdt_site__file_offset(s), (unsigned long long)es->file_offset);
	check(sdt_site__has_semaphore(s) == (es->semaphore != 0),
	      "%s site %zu (%s): has_semaphore wrong", ef->file, i, es->name);
	check(sdt_site__semaphore(s) == es->semaphore,
	      "%s site %zu (%s): semaphore 0x%llx, expected 0x%llx", ef->file, i, es->name,
	      (unsigned long long)sdt_site__semaphore(s), (unsigned long long)es->semaphore);
	if (es->semaphore) {
		check(sdt_site__has_semaphore_offset(s), "%s site %zu (%s): no semaphore offset",
		      ef->file, i, es->name);
		check(sdt_site__semaphore_offset(s) == es->semaphore_offset,
		      "%s site %zu (%s): semaphore offset 0x%llx, expected 0x%llx", ef->file, i,
		      es->name, (unsigned long long)sdt_site__semaphore_offset(s),
		      (unsigned long long)es->semaphore_offset);
	}
	check(str_eq(sdt_site__args_text(s), es->args_text), "%s site %zu (%s): args '%s'",
	      ef->file, i, es->name, sdt_site__args_text(s));
	check(sdt_site__arg_count(s) == es->nargs, "%s site %zu (%s): %zu args, expected %zu",
	      ef->file, i, es->name, sdt_site__arg_count(s), es->nargs);
	for (j = 0; j < es->nargs; j++)
		check_arg(ef, i, j, sdt_site__arg(s, j), &es->args[j]);
	check(!sdt_site__arg(s, es->nargs), "%s site %zu: arg past the end", ef->file, i);
}

static void check_file(const struct exp_file *ef, const struct sdt_file *f)
{
	size_t i;

	check(sdt_file__elf_class(f) == ef->elfclass, "%s: class %d", ef->file,
	      sdt_file__elf_class(f));
	check(sdt_file__byte_order(f) == ef->byte_order, "%s: byte order %d", ef->file,
	      sdt_file__byte_order(f));
	check(sdt_file__machine(f) == ef->machine, "%s: machine %u", ef->file,
	      sdt_file__machine(f));
	check(str_eq(sdt_file__arch_name(f), ef->arch), "%s: arch '%s', expected '%s'", ef->file,
	      sdt_file__arch_name(f), ef->arch);
	check(str_eq(sdt_file__build_id(f), ef->build_id), "%s: build-id '%s', expected '%s'",
	      ef->file, sdt_file__build_id(f), ef->build_id);
	for (i = 0; i < sdt_file__diag_count(f); i++)
		print_error("%s: diag: %s\n", ef->file, sdt_file__diag(f, i));
	check(sdt_file__diag_count(f) == 0, "%s: %zu diagnostics", ef->file,
	      sdt_file__diag_count(f));
	check(sdt_file__site_count(f) == ef->nsites, "%s: %zu sites, expected %zu", ef->file,
	      sdt_file__site_count(f), ef->nsites);
	for (i = 0; i < ef->nsites; i++)
		check_site(ef, i, sdt_file__site(f, i));
	check(!sdt_file__site(f, ef->nsites), "%s: site past the end", ef->file);
	check(!sdt_file__diag(f, 0), "%s: diag past the end", ef->file);
}

static void test_fixtures(void **state)
{
	char path[4096];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		struct sdt_file *f = NULL;
		int err = sdt_file__open(fixture(files[i].file, path, sizeof(path)), NULL, &f);

		check(err == 0 && f, "%s: open: %d %s", files[i].file, err, sdt_errmsg());
		check(str_eq(sdt_file__path(f), path), "%s: path '%s'", files[i].file,
		      sdt_file__path(f));
		check_file(&files[i], f);
		sdt_file__free(f);
	}
}

/* Every architecture is represented: both classes, both byte orders, nine machines. */
static void test_fixture_coverage(void **state)
{
	bool c32 = false, c64 = false, lsb = false, msb = false, be32 = false;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		c32 |= files[i].elfclass == ELFCLASS32;
		c64 |= files[i].elfclass == ELFCLASS64;
		lsb |= files[i].byte_order == ELFDATA2LSB;
		msb |= files[i].byte_order == ELFDATA2MSB;
		be32 |= files[i].elfclass == ELFCLASS32 && files[i].byte_order == ELFDATA2MSB;
	}
	assert_true(c32 && c64 && lsb && msb && be32);
}

static void *slurp(const char *path, size_t *len)
{
	struct stat st;
	void *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(read(fd, buf, (size_t)st.st_size), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static void same_file(const char *what, const struct sdt_file *a, const struct sdt_file *b)
{
	size_t i, j;

	check(sdt_file__elf_class(a) == sdt_file__elf_class(b) &&
		  sdt_file__byte_order(a) == sdt_file__byte_order(b) &&
		  sdt_file__machine(a) == sdt_file__machine(b) &&
		  str_eq(sdt_file__arch_name(a), sdt_file__arch_name(b)),
	      "%s: identity differs", what);
	check((!sdt_file__build_id(a) && !sdt_file__build_id(b)) ||
		  str_eq(sdt_file__build_id(a), sdt_file__build_id(b)),
	      "%s: build-id differs", what);
	check(sdt_file__site_count(a) == sdt_file__site_count(b), "%s: site count differs", what);
	check(sdt_file__diag_count(a) == sdt_file__diag_count(b), "%s: diag count differs", what);
	for (i = 0; i < sdt_file__site_count(a); i++) {
		const struct sdt_site *x = sdt_file__site(a, i), *y = sdt_file__site(b, i);

		check(str_eq(sdt_site__provider(x), sdt_site__provider(y)) &&
			  str_eq(sdt_site__name(x), sdt_site__name(y)) &&
			  sdt_site__address(x) == sdt_site__address(y) &&
			  sdt_site__file_offset(x) == sdt_site__file_offset(y) &&
			  sdt_site__semaphore(x) == sdt_site__semaphore(y) &&
			  sdt_site__has_semaphore_offset(x) == sdt_site__has_semaphore_offset(y) &&
			  sdt_site__semaphore_offset(x) == sdt_site__semaphore_offset(y) &&
			  str_eq(sdt_site__args_text(x), sdt_site__args_text(y)) &&
			  sdt_site__arg_count(x) == sdt_site__arg_count(y),
		      "%s: site %zu differs", what, i);
		for (j = 0; j < sdt_site__arg_count(x); j++) {
			const struct sdt_arg *p = sdt_site__arg(x, j), *q = sdt_site__arg(y, j);
			const char *fp = sdt_arg__fetch(p), *fq = sdt_arg__fetch(q);

			check(str_eq(sdt_arg__spec(p), sdt_arg__spec(q)) &&
				  ((!fp && !fq) || str_eq(fp, fq)),
			      "%s: site %zu arg %zu differs", what, i, j);
		}
	}
	for (i = 0; i < sdt_file__diag_count(a); i++) {
		/* Diagnostics name the file (path vs. memory name): compare from the note on. */
		const char *da = strstr(sdt_file__diag(a, i), "note"),
			   *db = strstr(sdt_file__diag(b, i), "note");

		check((!da && !db) || str_eq(da, db), "%s: diag %zu differs: '%s' / '%s'", what, i,
		      sdt_file__diag(a, i), sdt_file__diag(b, i));
	}
}

/* sdt_file__open_mem() sees the same file as sdt_file__open(), also for the broken ones. */
static void test_open_mem_same(void **state)
{
	static const char *const extra[] = {
	    "no-notes.elf",	 "cut-note.elf",   "short-desc.elf", "short-desc-ppc.elf",
	    "hostile-names.elf", "pc-outside.elf", "trunc-note.elf"};
	char path[4096];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(files) + ARRAY_SIZE(extra); i++) {
		const char *name =
		    i < ARRAY_SIZE(files) ? files[i].file : extra[i - ARRAY_SIZE(files)];
		struct sdt_file *a = NULL, *b = NULL;
		size_t len;
		void *buf;

		fixture(name, path, sizeof(path));
		check(sdt_file__open(path, NULL, &a) == 0, "%s: open: %s", name, sdt_errmsg());
		buf = slurp(path, &len);
		SDT_OPTS(sdt_scan_opts, opts, .name = "in-memory");
		check(sdt_file__open_mem(buf, len, &opts, &b) == 0, "%s: open_mem: %s", name,
		      sdt_errmsg());
		/* The image is read during the call only. */
		memset(buf, 0xa5, len);
		free(buf);
		check(str_eq(sdt_file__path(b), "in-memory"), "%s: open_mem name '%s'", name,
		      sdt_file__path(b));
		same_file(name, a, b);
		sdt_file__free(a);
		sdt_file__free(b);
	}
}

/* open_mem without opts names the image "<memory>". */
static void test_open_mem_default_name(void **state)
{
	struct sdt_file *f = NULL;
	char path[4096];
	size_t len;
	void *buf;

	(void)state;
	buf = slurp(fixture("ppc.elf", path, sizeof(path)), &len);
	assert_int_equal(sdt_file__open_mem(buf, len, NULL, &f), 0);
	assert_string_equal(sdt_file__path(f), "<memory>");
	assert_int_equal(sdt_file__site_count(f), 8);
	sdt_file__free(f);
	free(buf);
}

/*
 * Prelink: x86_64-prelinked.elf is x86_64.elf with every allocated address moved up by 0x10000,
 * ppc-prelinked.elf is ppc.elf (32-bit big-endian) moved down by 0x10000; the notes are untouched.
 * Addresses and semaphores move, file offsets and fetchargs (the globals moved too) do not.
 */
static void test_prelink(void **state)
{
	static const struct {
		const char *orig, *prelinked;
		int64_t delta;
		uint64_t gated, gated_sem; /* fix:gated, absolute, after the adjustment */
	} pairs[] = {
	    {"x86_64.elf", "x86_64-prelinked.elf", 0x10000, 0x21124f, 0x21232c},
	    {"ppc.elf", "ppc-prelinked.elf", -0x10000, 0x10000204, 0x10010314},
	};
	char path[4096];
	size_t k, i, j;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(pairs); k++) {
		struct sdt_file *orig = NULL, *pre = NULL;
		int gated = 0;

		assert_int_equal(
		    sdt_file__open(fixture(pairs[k].orig, path, sizeof(path)), NULL, &orig), 0);
		assert_int_equal(
		    sdt_file__open(fixture(pairs[k].prelinked, path, sizeof(path)), NULL, &pre), 0);
		assert_int_equal(sdt_file__diag_count(pre), 0);
		assert_int_equal(sdt_file__site_count(orig), sdt_file__site_count(pre));
		assert_int_equal(sdt_file__site_count(orig), 8);
		for (i = 0; i < sdt_file__site_count(orig); i++) {
			const struct sdt_site *o = sdt_file__site(orig, i),
					      *p = sdt_file__site(pre, i);

			assert_int_equal(sdt_site__address(p),
					 sdt_site__address(o) + (uint64_t)pairs[k].delta);
			assert_int_equal(sdt_site__file_offset(p), sdt_site__file_offset(o));
			if (sdt_site__has_semaphore(o)) {
				assert_int_equal(sdt_site__semaphore(p),
						 sdt_site__semaphore(o) + (uint64_t)pairs[k].delta);
				assert_true(sdt_site__has_semaphore_offset(p));
				assert_int_equal(sdt_site__semaphore_offset(p),
						 sdt_site__semaphore_offset(o));
			} else {
				assert_false(sdt_site__has_semaphore(p));
			}
			if (!strcmp(sdt_site__name(p), "gated")) {
				assert_int_equal(sdt_site__address(p), pairs[k].gated);
				assert_int_equal(sdt_site__semaphore(p), pairs[k].gated_sem);
				gated++;
			}
			for (j = 0; j < sdt_site__arg_count(o); j++) {
				const char *fo = sdt_arg__fetch(sdt_site__arg(o, j));
				const char *fp = sdt_arg__fetch(sdt_site__arg(p, j));

				assert_true((!fo && !fp) || str_eq(fo, fp));
			}
		}
		assert_int_equal(gated, 1);
		sdt_file__free(orig);
		sdt_file__free(pre);
	}
}

/* The fixture really is prelinked: .stapsdt.base's sh_addr is not the base the notes carry. */
static void test_prelink_fixture_is_prelinked(void **state)
{
	char path[4096];
	size_t len;
	unsigned char *buf;
	uint64_t shoff, note_base = 0, sec_base = 0;
	uint16_t shnum, shentsize, shstrndx;
	const unsigned char *strtab;
	unsigned int i;

	(void)state;
	buf = slurp(fixture("x86_64-prelinked.elf", path, sizeof(path)), &len);
	/* ELF64 LSB, read by hand on an x86_64 host (little-endian). */
	assert_true(len > 64 && buf[EI_CLASS] == ELFCLASS64 && buf[EI_DATA] == ELFDATA2LSB);
	memcpy(&shoff, buf + 0x28, 8);
	memcpy(&shentsize, buf + 0x3a, 2);
	memcpy(&shnum, buf + 0x3c, 2);
	memcpy(&shstrndx, buf + 0x3e, 2);
	assert_true(shoff < len && (len - shoff) / shentsize >= shnum && shentsize == 64);
	strtab = buf + ((const Elf64_Shdr *)(void *)(buf + shoff))[shstrndx].sh_offset;
	for (i = 0; i < shnum; i++) {
		Elf64_Shdr sh;
		const char *name;

		memcpy(&sh, buf + shoff + (uint64_t)i * 64, sizeof(sh));
		name = (const char *)strtab + sh.sh_name;
		if (!strcmp(name, ".stapsdt.base"))
			sec_base = sh.sh_addr;
		if (!strcmp(name, ".note.stapsdt")) /* first note: 12-byte header, "stapsdt\0" */
			memcpy(&note_base, buf + sh.sh_offset + 12 + 8 + 8, 8);
	}
	assert_int_equal(note_base, 0x2001b4);
	assert_int_equal(sec_base, 0x2101b4);
	free(buf);
}

/* A stripped PIE cannot resolve its globals: the args stay, unavailable, naming the symbol. */
static void test_stripped_globals(void **state)
{
	struct sdt_file *f = NULL;
	char path[4096];
	size_t i;
	int seen = 0;

	(void)state;
	assert_int_equal(
	    sdt_file__open(fixture("x86_64-pie-stripped.elf", path, sizeof(path)), NULL, &f), 0);
	for (i = 0; i < sdt_file__site_count(f); i++) {
		const struct sdt_site *s = sdt_file__site(f, i);

		if (strcmp(sdt_site__name(s), "globals"))
			continue;
		assert_int_equal(sdt_site__arg_count(s), 2);
		assert_non_null(strstr(sdt_arg__unavailable(sdt_site__arg(s, 0)), "'g_total'"));
		assert_non_null(strstr(sdt_arg__unavailable(sdt_site__arg(s, 1)), "'g_pair'"));
		seen++;
	}
	assert_int_equal(seen, 1);
	sdt_file__free(f);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_coverage),
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_open_mem_same),
		cmocka_unit_test(test_open_mem_default_name),
		cmocka_unit_test(test_prelink),
		cmocka_unit_test(test_prelink_fixture_is_prelinked),
		cmocka_unit_test(test_stripped_globals),
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
