/* SPDX-License-Identifier: MIT */
/* The table of operand parsers, keyed by e_machine and class, and helpers they share. */
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

bool sdt_symbol_start(char c)
{
	return isalpha((unsigned char)c) || c == '_' || c == '.';
}

char *sdt_parse_symbol(const char **pp)
{
	const char *p = *pp, *start = p;
	char *s;

	if (!sdt_symbol_start(*p))
		return NULL;
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
		p++;
	s = sdt_strndup(start, (size_t)(p - start));
	if (s)
		*pp = p;
	return s;
}

size_t sdt_word_len(const char *p)
{
	size_t n = 0;

	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	return n;
}

int sdt_reg_number(const char *p, size_t len, const char *prefix, unsigned int max)
{
	size_t plen = strlen(prefix), i;
	unsigned int v = 0;

	if (len <= plen || len - plen > 2 || strncmp(p, prefix, plen))
		return -1;
	if (p[plen] == '0' && len - plen > 1)
		return -1;
	for (i = plen; i < len; i++) {
		if (!isdigit((unsigned char)p[i]))
			return -1;
		v = v * 10 + (unsigned int)(p[i] - '0');
	}
	return v <= max ? (int)v : -1;
}

int sdt_parse_addend(const char **pp, int64_t *val)
{
	const char *p = *pp;

	*val = 0;
	if (*p != '+' && *p != '-')
		return 0;
	/* sdt_parse_int() takes the sign itself, but "+-8" and "+ 8" are not addends. */
	if (!isdigit((unsigned char)p[1]) || sdt_parse_int(&p, val))
		return -EINVAL;
	*pp = p;
	return 0;
}

bool sdt_reg_like(const char *p, size_t len, const char *const *prefixes)
{
	for (; *prefixes; prefixes++) {
		size_t plen = strlen(*prefixes), i;

		if (len <= plen || strncmp(p, *prefixes, plen))
			continue;
		for (i = plen; i < len && isdigit((unsigned char)p[i]); i++)
			;
		if (i == len)
			return true;
	}
	return false;
}
