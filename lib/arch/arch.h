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

#include <stdint.h>

#include "argspec.h"

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

/* The parsers, one per file in lib/arch/. */
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

#endif
