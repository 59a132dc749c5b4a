/* SPDX-License-Identifier: MIT */
/* The table of operand parsers, keyed by e_machine and class, and helpers they share. */
#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <string.h>

#include "../internal.h"
#include "arch.h"

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

int sdt_parse_int(const char **pp, int64_t *val)
{
	const char *p = *pp;
	bool neg = false;
	uint64_t v = 0;
	int base = 10, digits = 0;

	if (*p == '-' || *p == '+') {
		neg = *p == '-';
		p++;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		base = 16;
		p += 2;
	}
	for (;; p++, digits++) {
		unsigned int d;

		if (isdigit((unsigned char)*p))
			d = (unsigned int)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (unsigned int)(tolower((unsigned char)*p) - 'a' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / (unsigned int)base)
			return -EINVAL;
		v = v * (unsigned int)base + d;
	}
	if (!digits)
		return -EINVAL;
	/* A negative number must fit int64; a positive one may use all 64 bits (8@$18446...). */
	if (neg && v > (uint64_t)INT64_MAX + 1)
		return -EINVAL;
	*val = neg ? (int64_t)(0 - v) : (int64_t)v;
	*pp = p;
	return 0;
}

char *sdt_parse_symbol(const char **pp)
{
	const char *p = *pp, *start = p;
	char *s;

	if (!(isalpha((unsigned char)*p) || *p == '_' || *p == '.'))
		return NULL;
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
		p++;
	s = sdt_strndup(start, (size_t)(p - start));
	if (s)
		*pp = p;
	return s;
}
