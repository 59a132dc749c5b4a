/* SPDX-License-Identifier: MIT */
/*
 * PowerPC operands (ppc, ppc64, both byte orders: one syntax), as gcc and clang print the "nor"
 * operands of <sys/sdt.h>. Without -mregnames a register is printed as its bare number, so a
 * bare number is a **register**; sdt.h marks constants with 'i' (its %I operand modifier).
 * Registers become ppc pt_regs names (gpr0..gpr31).
 *
 *	operand                          kind     result
 *	7  r7  %r7                       REG      gpr7 (0..31)
 *	i5  i-1  i0x10                   CONST
 *	0(3)  -8(31)  8(%r3)             MEM      gprN + displacement
 *	3,4  %r3,%r4                     INDEXED  gpr3 + gpr4
 *	0,4                              MEM      gpr4: register 0 in the base slot reads as 0
 *	0(0)                             invalid  an absolute address
 *	sym@toc@l(9)  sym@l(9)  sym@toc(2)       GLOBAL  the register holds sym@toc@ha / sym@ha /
 *	                                                 is the TOC pointer (r2 only), so the
 *	                                                 address is sym's
 *	sym@tprel@l(9)  sym@dtprel(3) ...        TLS
 *	sym@got(30)  sym@got@l(9)        invalid  a GOT slot, not the variable
 *	sym  .LC0  sym+8                 ADDR     the symbol's link-time address
 *	f1 %f1  v2 %v2  vs3 %vs3         VECTOR   FP/VMX/VSX registers: not in pt_regs
 */
#include <ctype.h>
#include <string.h>

#include "util/internal.h"
#include "scan/arch/arch.h"

static const char *const ppc_gprs[32] = {
    "gpr0",  "gpr1",  "gpr2",  "gpr3",	"gpr4",	 "gpr5",  "gpr6",  "gpr7",
    "gpr8",  "gpr9",  "gpr10", "gpr11", "gpr12", "gpr13", "gpr14", "gpr15",
    "gpr16", "gpr17", "gpr18", "gpr19", "gpr20", "gpr21", "gpr22", "gpr23",
    "gpr24", "gpr25", "gpr26", "gpr27", "gpr28", "gpr29", "gpr30", "gpr31",
};

static const char *const ppc_families[] = {"r", "f", "v", "vs", NULL};
static const char *const ppc_const[] = {"i", NULL};

enum ppc_class {
	PPC_NONE,
	PPC_GPR,
	PPC_VEC,
};

/*
 * A register at *pp: `N`, `rN`, `%rN`, `fN`, `vN`, `vsN` (also with '%'). Returns its class,
 * *num for a GPR, and advances *pp; PPC_NONE leaves *pp alone.
 */
static enum ppc_class ppc_reg(const char **pp, int *num)
{
	const char *p = *pp;
	bool percent = *p == '%';
	size_t len;
	int n = -1;

	if (percent)
		p++;
	len = sdt_word_len(p);
	if (!percent)
		n = sdt_reg_number(p, len, "", 31);
	if (n < 0)
		n = sdt_reg_number(p, len, "r", 31);
	if (n >= 0) {
		*num = n;
		*pp = p + len;
		return PPC_GPR;
	}
	if (sdt_reg_number(p, len, "f", 31) >= 0 || sdt_reg_number(p, len, "v", 31) >= 0 ||
	    sdt_reg_number(p, len, "vs", 63) >= 0) {
		*pp = p + len;
		return PPC_VEC;
	}
	return PPC_NONE;
}

/*
 * `sym[+N]@reloc[@reloc](` at *pp, the displacement of a memory operand. Sets ->kind (GLOBAL or
 * TLS), ->symbol and ->offset.
 */
static int parse_sym_disp(const char **pp, struct sdt_arg *a, const char **why)
{
	static const char *const tls[] = {"tprel",	"dtprel",    "tls",
					  "tlsgd",	"tlsld",     "got@tprel",
					  "got@dtprel", "got@tlsgd", "got@tlsld"};
	const char *p = *pp, *rel;
	size_t len, i;
	char *sym;

	sym = sdt_parse_symbol(&p);
	if (!sym)
		return -ENOMEM;
	a->symbol = sym;
	if (sdt_parse_addend(&p, &a->offset)) {
		*why = "bad addend after symbol";
		return -EINVAL;
	}
	if (*p != '@') {
		*why = "symbol in a memory operand without a relocation (@toc, @l)";
		return -EINVAL;
	}
	rel = ++p;
	while (isalnum((unsigned char)*p) || *p == '_' || *p == '@')
		p++;
	len = (size_t)(p - rel);
	/* The low part of a @ha/@l pair (or the TOC-relative offset): the address is sym. */
	if ((len == 5 && !strncmp(rel, "toc@l", 5)) || (len == 1 && !strncmp(rel, "l", 1)) ||
	    (len == 3 && !strncmp(rel, "toc", 3))) {
		a->kind = SDT_ARG_GLOBAL;
		*pp = p;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(tls); i++) {
		size_t n = strlen(tls[i]);

		/* sym@tprel, sym@tprel@l, sym@got@tprel@l, ... */
		if (len >= n && !strncmp(rel, tls[i], n) && (len == n || rel[n] == '@')) {
			a->kind = SDT_ARG_TLS;
			*pp = p;
			return 0;
		}
	}
	if (len >= 3 && !strncmp(rel, "got", 3))
		*why = "address loaded from the GOT (@got): the slot, not the variable";
	else
		*why = "unsupported relocation in address";
	return -EINVAL;
}

int sdt_ppc_parse_operand(const char *op, struct sdt_arg *a, const char **why)
{
	const char *p = op;
	enum ppc_class cls;
	bool toc_only = false;
	int base, index;
	size_t len;
	int err;

	if (*p == 'i' && (p[1] == '-' || p[1] == '+' || isdigit((unsigned char)p[1]))) {
		p++;
		if (!sdt_parse_int(&p, &a->offset) && !*p) {
			a->kind = SDT_ARG_CONST;
			return 0;
		}
		/* i2c_bus is a symbol; i-x, i5- and an i99...9 out of range are bad constants */
		if (!isdigit((unsigned char)op[1]) || sdt_reg_like(op, strlen(op), ppc_const)) {
			*why = "bad constant";
			return -EINVAL;
		}
		p = op;
	}

	/* REG, REG,REG (indexed) */
	cls = ppc_reg(&p, &base);
	if (cls == PPC_VEC) {
		if (*p) {
			*why = "trailing characters after register";
			return -EINVAL;
		}
		a->kind = SDT_ARG_VECTOR;
		return 0;
	}
	if (cls == PPC_GPR && !*p) {
		a->kind = SDT_ARG_REG;
		sdt_set_reg(a->reg, ppc_gprs[base]);
		return 0;
	}
	if (cls == PPC_GPR && *p == ',') {
		p++;
		if (ppc_reg(&p, &index) != PPC_GPR || *p) {
			*why = "bad index register";
			return -EINVAL;
		}
		/* X-form: the base slot's r0 reads as 0, leaving the index register alone. */
		if (base == 0) {
			a->kind = SDT_ARG_MEM;
			a->offset = 0;
			sdt_set_reg(a->reg, ppc_gprs[index]);
			return 0;
		}
		a->kind = SDT_ARG_INDEXED;
		a->scale = 1;
		sdt_set_reg(a->reg, ppc_gprs[base]);
		sdt_set_reg(a->index_reg, ppc_gprs[index]);
		return 0;
	}
	if (cls == PPC_GPR && *p != '(') {
		*why = "trailing characters after register";
		return -EINVAL;
	}

	/* DISP(REG), or a symbol */
	p = op;
	a->kind = SDT_ARG_MEM;
	if (*p == '-' || *p == '+' || isdigit((unsigned char)*p)) {
		if (sdt_parse_int(&p, &a->offset)) {
			*why = "bad displacement";
			return -EINVAL;
		}
		if (!*p) {
			*why = isdigit((unsigned char)*op)
				   ? "no such register (a bare number is a register, 0..31)"
				   : "a number without '(REG)' (ppc writes constants as iN)";
			return -EINVAL;
		}
	} else if (sdt_symbol_start(*p)) {
		const char *q = p;

		len = sdt_word_len(p);
		if (*p != '.' && sdt_reg_like(p, len, ppc_families) && !p[len]) {
			*why = "no such register";
			return -EINVAL;
		}
		while (*q && *q != '(' && *q != '@')
			q++;
		if (*q != '@') {
			/* no relocation: an address immediate, sym or sym+8 */
			a->symbol = sdt_parse_symbol(&p);
			if (!a->symbol)
				return -ENOMEM;
			if (sdt_parse_addend(&p, &a->offset) || *p) {
				*why = *p == '('
					   ? "symbol in a memory operand without a relocation "
					     "(@toc, @l)"
					   : "trailing characters after symbol";
				return -EINVAL;
			}
			a->kind = SDT_ARG_ADDR;
			return 0;
		}
		err = parse_sym_disp(&p, a, why);
		if (err)
			return err;
		/* sym@toc (no @l) is relative to the TOC pointer itself, r2 */
		toc_only = a->kind == SDT_ARG_GLOBAL && p >= op + 5 && !strncmp(p - 4, "@toc", 4);
	} else {
		*why = *p == '%' ? "unknown register" : "unexpected character in operand";
		return -EINVAL;
	}
	if (*p != '(') {
		*why = "missing '(' after displacement";
		return -EINVAL;
	}
	p++;
	if (ppc_reg(&p, &base) != PPC_GPR) {
		*why = "bad base register";
		return -EINVAL;
	}
	if (*p != ')') {
		*why = "missing ')'";
		return -EINVAL;
	}
	if (p[1]) {
		*why = "trailing characters after operand";
		return -EINVAL;
	}
	/* D-form: the base slot's r0 reads as 0 */
	if (base == 0) {
		*why = "register 0 as a base reads as 0: an absolute address";
		return -EINVAL;
	}
	if (toc_only && base != 2) {
		*why = "sym@toc relative to a register other than r2 (the TOC pointer)";
		return -EINVAL;
	}
	if (a->kind == SDT_ARG_MEM)
		sdt_set_reg(a->reg, ppc_gprs[base]);
	return 0;
}
