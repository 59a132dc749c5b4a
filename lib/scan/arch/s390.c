/* SPDX-License-Identifier: MIT */
/*
 * s390x operands (GNU as syntax), as gcc and clang print the "nor" operands of <sys/sdt.h>.
 * Registers carry '%', constants nothing, memory is D(B) or D(X,B), so a bare symbol is an
 * address immediate. Registers become s390 pt_regs names (r0..r15).
 *
 *	operand                              kind     result
 *	%r0..%r15                            REG      r0..r15
 *	5  -1  0x10                          CONST
 *	0(%r2)  167(%r15)  -8(%r11)  (%r2)   MEM      base + displacement
 *	0(%r3,%r2)                           INDEXED  index %r3 + base %r2 + displacement
 *	0(,%r2)  0(%r0,%r2)                  MEM      an omitted index (or %r0 in a slot, which
 *	                                              the hardware reads as 0) adds nothing
 *	0(%r0)                               invalid  an absolute address
 *	sym  .LC0  sym+8                     ADDR     the symbol's link-time address
 *	%f0..%f15  %v0..%v31                 VECTOR   not in pt_regs
 *	%a0..%a15                            invalid  access registers
 */
#include <ctype.h>
#include <string.h>

#include "util/internal.h"
#include "scan/arch/arch.h"

static const char *const s390_gprs[16] = {
    "r0", "r1", "r2",  "r3",  "r4",  "r5",  "r6",  "r7",
    "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};

enum s390_class {
	S390_NONE,
	S390_GPR,
	S390_VEC,
	S390_ACR,
};

/* `%rN`, `%fN`, `%vN`, `%aN` at *pp ('%' included); *num for a GPR; advances *pp. */
static enum s390_class s390_reg(const char **pp, int *num)
{
	const char *p = *pp + 1;
	size_t len;

	if (**pp != '%')
		return S390_NONE;
	len = sdt_word_len(p);
	*pp = p + len;
	if ((*num = sdt_reg_number(p, len, "r", 15)) >= 0)
		return S390_GPR;
	if (sdt_reg_number(p, len, "f", 15) >= 0 || sdt_reg_number(p, len, "v", 31) >= 0)
		return S390_VEC;
	if (sdt_reg_number(p, len, "a", 15) >= 0)
		return S390_ACR;
	*pp = p - 1;
	return S390_NONE;
}

int sdt_s390_parse_operand(const char *op, struct sdt_arg *a, const char **why)
{
	const char *p = op;
	enum s390_class cls;
	int regs[2], nregs = 0, i, n;

	if (*p == '%') {
		cls = s390_reg(&p, &n);
		if (cls == S390_NONE || cls == S390_ACR) {
			*why = cls == S390_ACR ? "access register: not a value register"
					       : "unknown register";
			return -EINVAL;
		}
		if (*p) {
			*why = "trailing characters after register";
			return -EINVAL;
		}
		if (cls == S390_VEC) {
			a->kind = SDT_ARG_VECTOR;
			return 0;
		}
		a->kind = SDT_ARG_REG;
		sdt_set_reg(a->reg, s390_gprs[n]);
		return 0;
	}

	if (sdt_symbol_start(*p)) {
		/* An address immediate: sym, .LC0, sym+8 */
		a->symbol = sdt_parse_symbol(&p);
		if (!a->symbol)
			return -ENOMEM;
		if (sdt_parse_addend(&p, &a->offset) || *p) {
			*why = *p == '(' ? "symbol as a displacement"
					 : "trailing characters after symbol";
			return -EINVAL;
		}
		a->kind = SDT_ARG_ADDR;
		return 0;
	}

	/* A constant, or D(B) / D(X,B) / D(,B) */
	if (*p != '(' && sdt_parse_int(&p, &a->offset)) {
		*why = isdigit((unsigned char)*p) || *p == '-' || *p == '+'
			   ? "number out of range or malformed"
			   : "unexpected character in operand";
		return -EINVAL;
	}
	if (!*p) {
		a->kind = SDT_ARG_CONST;
		return 0;
	}
	if (*p != '(') {
		*why = "trailing characters after number";
		return -EINVAL;
	}
	p++;
	for (i = 0; i < 2; i++) {
		if (i == 0 && *p == ',') {
			/* D(,B): no index */
			p++;
			continue;
		}
		if (s390_reg(&p, &n) != S390_GPR) {
			*why = "bad register in address";
			return -EINVAL;
		}
		/* r0 in the index or base slot reads as 0 */
		if (n)
			regs[nregs++] = n;
		if (i == 0 && *p == ',') {
			p++;
			continue;
		}
		break;
	}
	if (*p != ')') {
		*why = "missing ')'";
		return -EINVAL;
	}
	if (p[1]) {
		*why = "trailing characters after operand";
		return -EINVAL;
	}
	switch (nregs) {
	case 0:
		*why = "register 0 as a base reads as 0: an absolute address";
		return -EINVAL;
	case 1:
		a->kind = SDT_ARG_MEM;
		sdt_set_reg(a->reg, s390_gprs[regs[0]]);
		return 0;
	default:
		/* D(X,B): regs[0] is the index, regs[1] the base */
		a->kind = SDT_ARG_INDEXED;
		a->scale = 1;
		sdt_set_reg(a->reg, s390_gprs[regs[1]]);
		sdt_set_reg(a->index_reg, s390_gprs[regs[0]]);
		return 0;
	}
}
