/* SPDX-License-Identifier: MIT */
/*
 * Per-architecture operand parsers, chosen at run time by the ELF's e_machine (never the host's).
 *
 * Each parser turns one OPERAND (the text after `SIZE@`) into the fields of struct sdt_arg:
 * ->kind, ->reg / ->index_reg (pt_regs names, as the kernel's regs_query_register_offset()
 * knows them), ->offset, ->scale, ->bit_offset, ->symbol. ->size, ->is_signed and ->is_float are
 * already set by the caller. On an operand it does not understand, the parser returns -EINVAL
 * and points *why at a static reason ("unknown register 'foo'").
 */
#ifndef SDT_ARCH_H
#define SDT_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scan/argspec.h"

struct sdt_arch {
	const char *name;     /* "x86_64", "i386", "aarch64", "arm", "ppc64", "s390x", "riscv64" */
	uint16_t machine;     /* EM_* */
	unsigned int reg_bits; /* width of a pt_regs slot for this class: 32 or 64 */
	int (*parse_operand)(const char *op, struct sdt_arg *a, const char **why);
};

/*
 * The architecture of an ELF file: @machine (e_machine), @elfclass, @big_endian.
 * NULL for an architecture without an operand parser.
 */
const struct sdt_arch *sdt_arch_find(unsigned int machine, int elfclass, bool big_endian);
/* A name for any e_machine, for messages ("x86_64", "EM_1234"); never NULL. */
const char *sdt_arch_name(unsigned int machine, int elfclass, bool big_endian);

/* The parsers, one per file in lib/scan/arch/. */
int sdt_x86_64_parse_operand(const char *op, struct sdt_arg *a, const char **why);
int sdt_i386_parse_operand(const char *op, struct sdt_arg *a, const char **why);
int sdt_aarch64_parse_operand(const char *op, struct sdt_arg *a, const char **why);
int sdt_arm_parse_operand(const char *op, struct sdt_arg *a, const char **why);
int sdt_ppc_parse_operand(const char *op, struct sdt_arg *a, const char **why);
int sdt_s390_parse_operand(const char *op, struct sdt_arg *a, const char **why);
int sdt_riscv_parse_operand(const char *op, struct sdt_arg *a, const char **why);

/*
 * Helpers for the parsers. sdt_parse_int() reads a decimal or 0x-hex integer with an optional
 * sign at *p, advances *p and returns 0, or -EINVAL when there is none or it overflows int64.
 * Numbers up to UINT64_MAX are accepted and stored as their 64-bit pattern.
 */
int sdt_parse_int(const char **p, int64_t *val);
/* Reads a symbol name ([A-Za-z_.][A-Za-z0-9_.]*) into a malloc'ed string; NULL if none. */
char *sdt_parse_symbol(const char **p);
/* Can a symbol name start with @c? (When it can, a NULL from sdt_parse_symbol() is -ENOMEM.) */
bool sdt_symbol_start(char c);
/* The length of the run of [A-Za-z0-9_] at @p: a register name is compared as a whole word. */
size_t sdt_word_len(const char *p);
/*
 * If the @len bytes at @p are @prefix followed by a decimal number 0..@max (at most two digits,
 * no leading zero), return the number; else -1. ("x29", "x", 30) -> 29; ("x031", ...) -> -1.
 */
int sdt_reg_number(const char *p, size_t len, const char *prefix, unsigned int max);
/*
 * Do the @len bytes at @p look like a register of a family in @prefixes (NULL-terminated): one
 * of the prefixes followed by digits only ("x31", "q99")? A parser rejects such a word as an
 * unknown register instead of taking it for a symbol.
 */
bool sdt_reg_like(const char *p, size_t len, const char *const *prefixes);
/*
 * An optional addend after a symbol: nothing (0), or `+N` / `-N`. Returns 0 or -EINVAL (a sign
 * without a number, or out of range).
 */
int sdt_parse_addend(const char **p, int64_t *val);

/* Store a pt_regs name (always one from a parser's static table) in ->reg or ->index_reg. */
static inline void sdt_set_reg(char dst[SDT_REG_NAME_MAX], const char *pt_name)
{
	size_t i;

	for (i = 0; i + 1 < SDT_REG_NAME_MAX && pt_name[i]; i++)
		dst[i] = pt_name[i];
	dst[i] = '\0';
}

#endif
