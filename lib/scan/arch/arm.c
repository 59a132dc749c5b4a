/* SPDX-License-Identifier: MIT */
/*
 * 32-bit arm operands (GNU as syntax, ARM and Thumb alike), as gcc and clang print the "nor"
 * operands of <sys/sdt.h>. Constants carry '#', memory is bracketed, so a bare symbol is an
 * address immediate. Registers become arm pt_regs names (r0..r10 fp ip sp lr pc).
 *
 *	operand                              kind     result
 *	r0..r10                              REG      r0..r10
 *	r11 fp  r12 ip  r13 sp  r14 lr  r15 pc        fp, ip, sp, lr, pc
 *	sb sl                                REG      r9, r10 (APCS names)
 *	-8@r10  8f@r4                        REGPAIR  a value wider than 4 bytes in rN:rN+1
 *	#5  #-1  #0x10  (5)                  CONST
 *	[r0]  [r0, #4]  [r0, #-4]  [sp]      MEM      ('#' optional: [r0, 4])
 *	[r5, r4]  [r7, r1, lsl #2]           INDEXED
 *	[pc, #8]                             invalid  pc-relative: the pc bias differs in Thumb
 *	sym  .LC0  sym+8                     ADDR     the symbol's link-time address
 *	s0..s31 d0..d31 q0..q15              VECTOR   VFP/NEON: not in pt_regs
 *
 * Spaces are allowed after '[', around ',' and before ']', nowhere else.
 */
#include <ctype.h>
#include <string.h>

#include "util/internal.h"
#include "scan/arch/arch.h"

enum arm_class {
	ARM_NONE,
	ARM_GPR,
	ARM_PC,
	ARM_VEC,
};

/* pt_regs names of r0..r15 */
static const char *const arm_regs[16] = {
    "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "fp", "ip", "sp", "lr", "pc",
};

static const struct {
	const char *name;
	int num;
} arm_named[] = {
    {"sb", 9}, {"sl", 10}, {"fp", 11}, {"ip", 12}, {"sp", 13}, {"lr", 14}, {"pc", 15},
};

static const char *const arm_families[] = {"r", "s", "d", "q", NULL};

static enum arm_class arm_reg(const char *p, size_t len, const char **pt_name)
{
	size_t i;
	int n = sdt_reg_number(p, len, "r", 15);

	*pt_name = NULL;
	for (i = 0; n < 0 && i < ARRAY_SIZE(arm_named); i++) {
		if (strlen(arm_named[i].name) == len && !strncmp(p, arm_named[i].name, len))
			n = arm_named[i].num;
	}
	if (n >= 0) {
		*pt_name = arm_regs[n];
		return n == 15 ? ARM_PC : ARM_GPR;
	}
	if (sdt_reg_number(p, len, "s", 31) >= 0 || sdt_reg_number(p, len, "d", 31) >= 0 ||
	    sdt_reg_number(p, len, "q", 15) >= 0)
		return ARM_VEC;
	return ARM_NONE;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* `, lsl #2` after an index register: *scale = 1 << amount. */
static int parse_shift(const char **pp, uint8_t *scale, const char **why)
{
	const char *p = skip_ws(*pp + 1);
	int64_t amount;

	if (sdt_word_len(p) != 3 || strncmp(p, "lsl", 3)) {
		*why = "unsupported shift of the index register (only lsl)";
		return -EINVAL;
	}
	p = skip_ws(p + 3);
	if (*p == '#')
		p++;
	if (!isdigit((unsigned char)*p) || sdt_parse_int(&p, &amount) || amount < 0 || amount > 7) {
		*why = "bad shift amount";
		return -EINVAL;
	}
	*scale = (uint8_t)(1u << amount);
	*pp = p;
	return 0;
}

/* `[base]`, `[base, #off]`, `[base, index{, lsl #n}]`; @p is after the '['. */
static int parse_mem(const char *p, struct sdt_arg *a, const char **why)
{
	const char *base, *index;
	enum arm_class cls;
	size_t len;

	p = skip_ws(p);
	len = sdt_word_len(p);
	cls = arm_reg(p, len, &base);
	if (cls != ARM_GPR) {
		*why = cls == ARM_PC ? "pc-relative address (the pc bias differs in ARM and Thumb)"
		       : cls == ARM_VEC ? "base register must be a general register"
					: "unknown base register";
		return -EINVAL;
	}
	p = skip_ws(p + len);
	a->kind = SDT_ARG_MEM;
	a->offset = 0;
	if (*p == ',') {
		p = skip_ws(p + 1);
		/* '#' is optional in unified syntax: [r0, #4], [r0, 4], [r0, -4] */
		if (*p == '#' || isdigit((unsigned char)*p) ||
		    ((*p == '-' || *p == '+') && isdigit((unsigned char)p[1]))) {
			if (*p == '#')
				p++;
			if (sdt_parse_int(&p, &a->offset)) {
				*why = "bad offset in address";
				return -EINVAL;
			}
		} else {
			if (*p == '-') {
				*why = "subtracted index register";
				return -EINVAL;
			}
			if (*p == '+')
				p++;
			len = sdt_word_len(p);
			cls = arm_reg(p, len, &index);
			if (cls != ARM_GPR) {
				*why = cls == ARM_NONE ? "unknown index register"
						       : "index must be a general register";
				return -EINVAL;
			}
			p = skip_ws(p + len);
			a->scale = 1;
			if (*p == ',' && parse_shift(&p, &a->scale, why))
				return -EINVAL;
			a->kind = SDT_ARG_INDEXED;
			sdt_set_reg(a->index_reg, index);
		}
		p = skip_ws(p);
	}
	if (*p != ']') {
		*why = "missing ']'";
		return -EINVAL;
	}
	if (p[1]) {
		*why = "trailing characters after address (pre- or post-index?)";
		return -EINVAL;
	}
	sdt_set_reg(a->reg, base);
	return 0;
}

int sdt_arm_parse_operand(const char *op, struct sdt_arg *a, const char **why)
{
	const char *p = op, *pt_name;
	enum arm_class cls;
	size_t len;

	if (*p == '[')
		return parse_mem(p + 1, a, why);
	if (*p == '#' || *p == '-' || *p == '+' || isdigit((unsigned char)*p)) {
		if (*p == '#')
			p++;
		if (sdt_parse_int(&p, &a->offset) || *p) {
			*why = "bad constant";
			return -EINVAL;
		}
		a->kind = SDT_ARG_CONST;
		return 0;
	}
	len = sdt_word_len(p);
	cls = arm_reg(p, len, &pt_name);
	if (cls != ARM_NONE) {
		if (p[len]) {
			*why = "trailing characters after register";
			return -EINVAL;
		}
		if (cls == ARM_VEC) {
			a->kind = SDT_ARG_VECTOR;
		} else if (a->size > 4) {
			/* a 64-bit value (or a double) in rN:rN+1 */
			a->kind = SDT_ARG_REGPAIR;
			sdt_set_reg(a->reg, pt_name);
		} else {
			a->kind = SDT_ARG_REG;
			sdt_set_reg(a->reg, pt_name);
		}
		return 0;
	}
	if (sdt_reg_like(p, len, arm_families)) {
		*why = "no such register";
		return -EINVAL;
	}
	/* An address immediate: sym, .LC0, sym+8 */
	if (!sdt_symbol_start(*p)) {
		*why = "unexpected character in operand";
		return -EINVAL;
	}
	a->symbol = sdt_parse_symbol(&p);
	if (!a->symbol)
		return -ENOMEM;
	if (sdt_parse_addend(&p, &a->offset) || *p) {
		*why = "trailing characters after symbol";
		return -EINVAL;
	}
	a->kind = SDT_ARG_ADDR;
	return 0;
}
