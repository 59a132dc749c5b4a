/* SPDX-License-Identifier: MIT */
/*
 * RISC-V operands (riscv64 and riscv32), as gcc and clang print the "nor" operands of
 * <sys/sdt.h>. Registers carry ABI names, constants nothing, memory is `D(REG)`, so a bare symbol
 * is an address immediate. Registers become riscv pt_regs names, which are the ABI names.
 *
 *	operand                              kind     result
 *	a0-a7 s0-s11 t0-t6 ra sp gp tp       REG      the same name
 *	fp                                   REG      s0
 *	x0..x31                              REG      the ABI name (x1 ra, x2 sp, x8 s0, x10 a0,
 *...) zero  x0                             CONST    0 5  -1  0x10                          CONST
 *	0(a0)  -17(s0)  (a0)                 MEM      register + displacement
 *	%lo(sym)(s3)  %lo(sym+8)(s3)         GLOBAL   lui put %hi(sym) in s3: the address is sym's
 *	%tprel_lo(t)(a5)                     TLS
 *	%pcrel_lo(.LA0)(a5)                  invalid  names the auipc's label, not the symbol
 *	sym  .LC0  sym+8                     ADDR     the symbol's link-time address
 *	f0-f31 ft0-ft11 fs0-fs11 fa0-fa7 v0-v31      VECTOR  FP/vector registers: not in pt_regs
 */
#include <ctype.h>
#include <string.h>

#include "util/internal.h"
#include "scan/arch/arch.h"

/* ABI name of x0..x31 (x0 is "zero", a constant, not a pt_regs slot) */
static const char *const rv_abi[32] = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const rv_families[] = {"x", "a", "s", "t", "f", "ft", "fs", "fa", "v", NULL};

enum rv_class {
	RV_NONE,
	RV_GPR,
	RV_ZERO,
	RV_VEC,
};

/* The register named by the @len bytes at @p; *pt_name for a GPR. */
static enum rv_class rv_reg(const char *p, size_t len, const char **pt_name)
{
	static const char *const fp_prefixes[] = {"ft", "fs", "fa"};
	static const unsigned int fp_max[] = {11, 11, 7};
	size_t i;
	int n;

	*pt_name = NULL;
	if ((n = sdt_reg_number(p, len, "x", 31)) < 0) {
		for (i = 1; i < ARRAY_SIZE(rv_abi); i++) {
			if (strlen(rv_abi[i]) == len && !strncmp(p, rv_abi[i], len))
				n = (int)i;
		}
		if (len == 2 && !strncmp(p, "fp", 2))
			n = 8;
		if (len == 4 && !strncmp(p, "zero", 4))
			n = 0;
	}
	if (n == 0)
		return RV_ZERO;
	if (n > 0) {
		*pt_name = rv_abi[n];
		return RV_GPR;
	}
	if (sdt_reg_number(p, len, "f", 31) >= 0 || sdt_reg_number(p, len, "v", 31) >= 0)
		return RV_VEC;
	for (i = 0; i < ARRAY_SIZE(fp_prefixes); i++) {
		if (sdt_reg_number(p, len, fp_prefixes[i], fp_max[i]) >= 0)
			return RV_VEC;
	}
	return RV_NONE;
}

/* `%lo(sym[+N])` and friends at *pp ('%' included): sets ->kind, ->symbol, ->offset. */
static int parse_reloc(const char **pp, struct sdt_arg *a, const char **why)
{
	const char *p = *pp + 1, *name = p;
	size_t len = sdt_word_len(p);

	if (len == 2 && !strncmp(name, "lo", 2)) {
		a->kind = SDT_ARG_GLOBAL;
	} else if ((len == 8 && !strncmp(name, "tprel_lo", 8)) ||
		   (len == 9 && !strncmp(name, "tprel_add", 9))) {
		a->kind = SDT_ARG_TLS;
	} else {
		*why = len == 8 && !strncmp(name, "pcrel_lo", 8)
			   ? "%pcrel_lo names the label of an auipc, not the symbol"
			   : "unsupported relocation in address";
		return -EINVAL;
	}
	p += len;
	if (*p != '(' || !sdt_symbol_start(p[1])) {
		*why = "missing '(symbol)' after relocation";
		return -EINVAL;
	}
	p++;
	a->symbol = sdt_parse_symbol(&p);
	if (!a->symbol)
		return -ENOMEM;
	if (sdt_parse_addend(&p, &a->offset) || *p != ')') {
		*why = "bad relocation argument";
		return -EINVAL;
	}
	*pp = p + 1;
	return 0;
}

int sdt_riscv_parse_operand(const char *op, struct sdt_arg *a, const char **why)
{
	const char *p = op, *base;
	enum rv_class cls;
	size_t len;
	int err;

	len = sdt_word_len(p);
	cls = len ? rv_reg(p, len, &base) : RV_NONE;
	if (cls != RV_NONE) {
		if (p[len]) {
			*why = "trailing characters after register";
			return -EINVAL;
		}
		switch (cls) {
		case RV_ZERO:
			a->kind = SDT_ARG_CONST;
			a->offset = 0;
			break;
		case RV_VEC:
			a->kind = SDT_ARG_VECTOR;
			break;
		default:
			a->kind = SDT_ARG_REG;
			sdt_set_reg(a->reg, base);
			break;
		}
		return 0;
	}

	a->kind = SDT_ARG_MEM;
	if (*p == '%') {
		err = parse_reloc(&p, a, why);
		if (err)
			return err;
	} else if (sdt_symbol_start(*p)) {
		if (sdt_reg_like(p, len, rv_families) && !p[len]) {
			*why = "no such register";
			return -EINVAL;
		}
		/* An address immediate: sym, .LC0, sym+8 */
		a->symbol = sdt_parse_symbol(&p);
		if (!a->symbol)
			return -ENOMEM;
		if (sdt_parse_addend(&p, &a->offset) || *p) {
			*why = *p == '(' ? "symbol as a displacement without %lo()"
					 : "trailing characters after symbol";
			return -EINVAL;
		}
		a->kind = SDT_ARG_ADDR;
		return 0;
	} else if (*p != '(') {
		if (sdt_parse_int(&p, &a->offset)) {
			*why = isdigit((unsigned char)*p) || *p == '-' || *p == '+'
				   ? "number out of range or malformed"
				   : "unexpected character in operand";
			return -EINVAL;
		}
		if (!*p) {
			a->kind = SDT_ARG_CONST;
			return 0;
		}
	}

	/* D(REG) */
	if (*p != '(') {
		*why = "missing '(' after displacement";
		return -EINVAL;
	}
	p++;
	len = sdt_word_len(p);
	cls = rv_reg(p, len, &base);
	if (cls != RV_GPR) {
		*why = cls == RV_ZERO ? "register zero as a base: an absolute address"
				      : "bad base register";
		return -EINVAL;
	}
	p += len;
	if (*p != ')') {
		*why = "missing ')'";
		return -EINVAL;
	}
	if (p[1]) {
		*why = "trailing characters after operand";
		return -EINVAL;
	}
	/* For GLOBAL and TLS the register holds the symbol's upper part: only the symbol counts. */
	if (a->kind == SDT_ARG_MEM)
		sdt_set_reg(a->reg, base);
	return 0;
}
