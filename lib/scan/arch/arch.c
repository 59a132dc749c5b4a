/* SPDX-License-Identifier: MIT */
/* The table of operand parsers, keyed by e_machine and class (their shared helpers: lex.c). */
#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "util/internal.h"
#include "scan/arch/arch.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

static const struct sdt_arch arches[] = {
	{"x86_64", EM_X86_64, 64, sdt_x86_64_parse_operand},
	{"i386", EM_386, 32, sdt_i386_parse_operand},
	{"aarch64", EM_AARCH64, 64, sdt_aarch64_parse_operand},
	{"arm", EM_ARM, 32, sdt_arm_parse_operand},
	{"ppc64", EM_PPC64, 64, sdt_ppc_parse_operand},
	{"ppc", EM_PPC, 32, sdt_ppc_parse_operand},
	{"s390x", EM_S390, 64, sdt_s390_parse_operand},
	{"riscv64", EM_RISCV, 64, sdt_riscv_parse_operand},
	{"riscv32", EM_RISCV, 32, sdt_riscv_parse_operand},
};

const struct sdt_arch *sdt_arch_find(unsigned int machine, int elfclass, bool big_endian)
{
	unsigned int bits = elfclass == ELFCLASS32 ? 32 : 64;
	size_t i;

	(void)big_endian;
	/* x32 (EM_X86_64, ELFCLASS32) still has 64-bit registers. */
	if (machine == EM_X86_64)
		return &arches[0];
	for (i = 0; i < ARRAY_SIZE(arches); i++) {
		if (arches[i].machine == machine && arches[i].reg_bits == bits)
			return &arches[i];
	}
	/* s390 (31-bit) files use the s390x operand syntax with 32-bit registers: not supported. */
	return NULL;
}

const char *sdt_arch_name(unsigned int machine, int elfclass, bool big_endian)
{
	static __thread char buf[32];

	switch (machine) {
	case EM_X86_64: return elfclass == ELFCLASS32 ? "x32" : "x86_64";
	case EM_386: return "i386";
	case EM_AARCH64: return big_endian ? "aarch64_be" : "aarch64";
	case EM_ARM: return big_endian ? "armeb" : "arm";
	case EM_PPC64: return big_endian ? "ppc64" : "ppc64le";
	case EM_PPC: return big_endian ? "ppc" : "ppcle";
	case EM_S390: return elfclass == ELFCLASS32 ? "s390" : "s390x";
	case EM_RISCV: return elfclass == ELFCLASS32 ? "riscv32" : "riscv64";
	case EM_MIPS: return "mips";
	case EM_LOONGARCH: return "loongarch";
	default:
		snprintf(buf, sizeof(buf), "EM_%u", machine);
		return buf;
	}
}
