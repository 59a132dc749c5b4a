/* SPDX-License-Identifier: MIT */
/*
 * aarch64 operands, as gcc and clang print the "nor" operands of <sys/sdt.h> (GNU as syntax).
 * Constants carry no '#' (gcc prints `-4@5`), memory is always bracketed, so a bare symbol is an
 * address immediate. Registers become arm64 pt_regs names (x0..x30, sp).
 *
 *	operand                                   kind     result
 *	x0..x30  w0..w30                          REG      xN (a w register is the low half of xN:
 *	                                                   the fetch type truncates)
 *	sp  wsp  fp  lr                           REG      sp, sp, x29, x30
 *	xzr  wzr                                  CONST    0
 *	5  -1  #5  #-1  0x10                      CONST
 *	[x0]  [x0, 8]  [x0, #-8]  [sp, 31]        MEM      reg + offset
 *	[x0, x1]  [x0, x1, lsl #3]  [x0, w1, sxtw #2]      INDEXED
 *	[x21, #:lo12:sym]  [x21, :lo12:sym+8]     GLOBAL   adrp put sym's page in x21, so the
 *	                                                   address is sym's own
 *	[x0, #:tprel_lo12_nc:t]                   TLS
 *	[x0, #:got_lo12:sym]                      invalid  a GOT slot, not the variable
 *	sym  .LC0  sym+8                          ADDR     the symbol's link-time address
 *	b0 h0 s0 d0 q0 v0  z0 p0                  VECTOR   FP/SIMD/SVE: not in pt_regs
 *
 * Spaces are allowed after '[', around ',' and before ']' (the operand `[x0, 8]` holds one),
 * nowhere else.
 */
#include <ctype.h>
#include <string.h>

#include "util/internal.h"
#include "scan/arch/arch.h"

enum a64_class {
	A64_NONE,
	A64_X,	 /* 64-bit general register (also fp, lr) */
	A64_W,	 /* 32-bit view of one */
	A64_SP,	 /* sp */
	A64_WSP, /* wsp */
	A64_ZR,	 /* xzr, wzr: reads as zero */
	A64_VEC, /* FP/SIMD/SVE register */
};

static const char *const a64_xregs[31] = {
    "x0",  "x1",  "x2",	 "x3",	"x4",  "x5",  "x6",  "x7",  "x8",  "x9",  "x10",
    "x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20", "x21",
    "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30",
};

static const struct {
	const char *name;
	const char *pt_name;
	enum a64_class cls;
} a64_named[] = {
    {"sp", "sp", A64_SP}, {"wsp", "sp", A64_WSP}, {"fp", "x29", A64_X},
    {"lr", "x30", A64_X}, {"xzr", NULL, A64_ZR},  {"wzr", NULL, A64_ZR},
};

static const char *const a64_families[] = {"x", "w", "b", "h", "s", "d", "q", "v", "z", "p", NULL};

/* The register named by the @len bytes at @p; *pt_name is its pt_regs name (NULL for ZR/VEC). */
static enum a64_class a64_reg(const char *p, size_t len, const char **pt_name)
{
	static const char *const vec[] = {"b", "h", "s", "d", "q", "v", "z"};
	size_t i;
	int n;

	*pt_name = NULL;
	if ((n = sdt_reg_number(p, len, "x", 30)) >= 0) {
		*pt_name = a64_xregs[n];
		return A64_X;
	}
	if ((n = sdt_reg_number(p, len, "w", 30)) >= 0) {
		*pt_name = a64_xregs[n];
		return A64_W;
	}
	for (i = 0; i < ARRAY_SIZE(a64_named); i++) {
		if (strlen(a64_named[i].name) == len && !strncmp(p, a64_named[i].name, len)) {
			*pt_name = a64_named[i].pt_name;
			return a64_named[i].cls;
		}
	}
	for (i = 0; i < ARRAY_SIZE(vec); i++) {
		if (sdt_reg_number(p, len, vec[i], 31) >= 0)
			return A64_VEC;
	}
	if (sdt_reg_number(p, len, "p", 15) >= 0)
		return A64_VEC;
	return A64_NONE;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* `:reloc:sym[+N]` at *pp (the first ':' included), as in `[x21, #:lo12:sym]`. */
static int parse_reloc(const char **pp, struct sdt_arg *a, const char **why)
{
	static const char *const tls[] = {"tprel_lo12",	    "tprel_lo12_nc",   "dtprel_lo12",
					  "dtprel_lo12_nc", "tlsdesc_lo12",    "tlsdesc_lo12_nc",
					  "gottprel_lo12",  "gottprel_lo12_nc"};
	const char *p = *pp + 1, *name = p;
	size_t len = sdt_word_len(p), i;
	enum sdt_arg_kind kind = SDT_ARG_INVALID;
	int64_t addend;
	char *sym;

	if (p[len] != ':') {
		*why = "bad relocation operator (expected ':name:')";
		return -EINVAL;
	}
	if ((len == 4 && !strncmp(name, "lo12", 4)) || (len == 7 && !strncmp(name, "lo12_nc", 7)))
		kind = SDT_ARG_GLOBAL;
	for (i = 0; i < ARRAY_SIZE(tls); i++) {
		if (strlen(tls[i]) == len && !strncmp(name, tls[i], len))
			kind = SDT_ARG_TLS;
	}
	if (kind == SDT_ARG_INVALID) {
		if (len >= 3 && !strncmp(name, "got", 3))
			*why =
			    "address loaded from the GOT (:got_lo12:): the slot, not the variable";
		else
			*why = "unsupported relocation operator in address";
		return -EINVAL;
	}
	p += len + 1;
	if (!sdt_symbol_start(*p)) {
		*why = "missing symbol after relocation operator";
		return -EINVAL;
	}
	sym = sdt_parse_symbol(&p);
	if (!sym)
		return -ENOMEM;
	if (sdt_parse_addend(&p, &addend)) {
		free(sym);
		*why = "bad addend after symbol";
		return -EINVAL;
	}
	a->kind = kind;
	a->symbol = sym;
	a->offset = addend;
	*pp = p;
	return 0;
}

/* `, lsl #3`, `, sxtw`, `, uxtw #2` after an index register: *scale = 1 << amount. */
static int parse_extend(const char **pp, bool index_is_w, uint8_t *scale, const char **why)
{
	static const char *const ext[] = {"lsl", "uxtw", "sxtw", "sxtx", "uxtx"};
	const char *p = skip_ws(*pp + 1);
	size_t len = sdt_word_len(p), i;
	int64_t amount = 0;
	bool is_w_ext;

	for (i = 0; i < ARRAY_SIZE(ext); i++) {
		if (strlen(ext[i]) == len && !strncmp(p, ext[i], len))
			break;
	}
	if (i == ARRAY_SIZE(ext)) {
		*why = "unknown extend or shift after index register";
		return -EINVAL;
	}
	is_w_ext = i == 1 || i == 2;
	if (is_w_ext != index_is_w) {
		*why = "extend does not match the index register's width";
		return -EINVAL;
	}
	p = skip_ws(p + len);
	if (*p == '#' || isdigit((unsigned char)*p)) {
		if (*p == '#')
			p++;
		if (!isdigit((unsigned char)*p) || sdt_parse_int(&p, &amount) || amount < 0 ||
		    amount > 4) {
			*why = "bad shift amount (0..4)";
			return -EINVAL;
		}
	} else if (i == 0) {
		*why = "lsl without an amount";
		return -EINVAL;
	}
	*scale = (uint8_t)(1u << amount);
	*pp = p;
	return 0;
}

/* `[base]`, `[base, off]`, `[base, #:lo12:sym]`, `[base, index{, extend}]`; *pp after '['. */
static int parse_mem(const char *p, struct sdt_arg *a, const char **why)
{
	const char *base, *index;
	enum a64_class cls;
	size_t len;

	p = skip_ws(p);
	len = sdt_word_len(p);
	cls = a64_reg(p, len, &base);
	if (cls != A64_X && cls != A64_SP) {
		*why = cls == A64_NONE ? "unknown base register"
				       : "base register must be a 64-bit general register or sp";
		return -EINVAL;
	}
	p = skip_ws(p + len);
	a->kind = SDT_ARG_MEM;
	a->offset = 0;
	if (*p == ',') {
		p = skip_ws(p + 1);
		if (*p == '#' && p[1] == ':')
			p++;
		if (*p == ':') {
			int err = parse_reloc(&p, a, why);

			if (err)
				return err;
		} else if (*p == '#' || *p == '-' || *p == '+' || isdigit((unsigned char)*p)) {
			if (*p == '#')
				p++;
			if (sdt_parse_int(&p, &a->offset)) {
				*why = "bad offset in address";
				return -EINVAL;
			}
		} else {
			len = sdt_word_len(p);
			cls = a64_reg(p, len, &index);
			if (cls != A64_X && cls != A64_W) {
				*why = cls == A64_NONE ? "unknown index register"
						       : "index must be a general register";
				return -EINVAL;
			}
			p = skip_ws(p + len);
			a->scale = 1;
			if (*p == ',') {
				if (parse_extend(&p, cls == A64_W, &a->scale, why))
					return -EINVAL;
			} else if (cls == A64_W) {
				*why = "a 32-bit index register needs sxtw or uxtw";
				return -EINVAL;
			}
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
	/* For GLOBAL and TLS the base register holds the symbol's page: only the symbol counts. */
	if (a->kind == SDT_ARG_MEM || a->kind == SDT_ARG_INDEXED)
		sdt_set_reg(a->reg, base);
	return 0;
}

int sdt_aarch64_parse_operand(const char *op, struct sdt_arg *a, const char **why)
{
	const char *p = op, *pt_name;
	enum a64_class cls;
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
	cls = a64_reg(p, len, &pt_name);
	if (cls != A64_NONE) {
		if (p[len]) {
			*why = "trailing characters after register";
			return -EINVAL;
		}
		switch (cls) {
		case A64_ZR:
			a->kind = SDT_ARG_CONST;
			a->offset = 0;
			break;
		case A64_VEC:
			a->kind = SDT_ARG_VECTOR;
			break;
		default:
			a->kind = SDT_ARG_REG;
			sdt_set_reg(a->reg, pt_name);
			break;
		}
		return 0;
	}
	if (sdt_reg_like(p, len, a64_families)) {
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
