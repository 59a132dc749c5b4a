/* SPDX-License-Identifier: MIT */
/*
 * x86_64 and i386 operands, AT&T syntax, as gcc and clang emit them into SDT notes.
 *
 *	operand                      kind     result
 *	%eax  %r12b  %bpl  %r8w      REG      pt_regs name: ax r12 bp r8 (the type truncates)
 *	%ah %bh %ch %dh              REG      ax with bit_offset 8
 *	$5  $-1  $0x10               CONST
 *	$g_target  $.LC0  $g+8       ADDR     the symbol's link-time address
 *	-20(%rbp)  (%rdi)  8(%rdi)   MEM
 *	g(%rip) g+8(%rip) 8+g(%rip)  GLOBAL   memory at the symbol
 *	g  g+16  (i386, non-PIE)     GLOBAL   absolute address
 *	g@GOTOFF(%ebx)  8+g@GOTOFF(%ebx)  GLOBAL  %ebx holds the GOT, so the address is g's
 *	(%rdi,%rsi,8)  g(,%rdi,8)  8+g@GOTOFF(%ebx,%eax,4)   INDEXED
 *	%fs:t@tpoff  %gs:t@ntpoff    TLS
 *	%xmm0  %st(1)  %mm0  %ymm1   VECTOR
 *	-8@%eax (i386)               REGPAIR  a 64-bit value in edx:eax
 */
#include <string.h>

#include "util/internal.h"
#include "scan/arch/arch.h"

struct x86_reg {
	const char *name;
	const char *pt_name;
	uint8_t bytes;
	uint8_t bit_offset;
	bool only64; /* does not exist in i386 */
};

#define GPR(q, d, w, b, pt)                                                                        \
	{q, pt, 8, 0, true}, {d, pt, 4, 0, false}, {w, pt, 2, 0, false}, {b, pt, 1, 0, false}
#define XR(n)                                                                                      \
	{"r" #n, "r" #n, 8, 0, true}, {"r" #n "d", "r" #n, 4, 0, true},                            \
		{"r" #n "w", "r" #n, 2, 0, true}, {"r" #n "b", "r" #n, 1, 0, true},                \
		{"r" #n "l", "r" #n, 1, 0, true}

static const struct x86_reg x86_regs[] = {
	GPR("rax", "eax", "ax", "al", "ax"),
	GPR("rbx", "ebx", "bx", "bl", "bx"),
	GPR("rcx", "ecx", "cx", "cl", "cx"),
	GPR("rdx", "edx", "dx", "dl", "dx"),
	{"ah", "ax", 1, 8, false},
	{"bh", "bx", 1, 8, false},
	{"ch", "cx", 1, 8, false},
	{"dh", "dx", 1, 8, false},
	{"rsi", "si", 8, 0, true},
	{"esi", "si", 4, 0, false},
	{"si", "si", 2, 0, false},
	{"sil", "si", 1, 0, true},
	{"rdi", "di", 8, 0, true},
	{"edi", "di", 4, 0, false},
	{"di", "di", 2, 0, false},
	{"dil", "di", 1, 0, true},
	{"rbp", "bp", 8, 0, true},
	{"ebp", "bp", 4, 0, false},
	{"bp", "bp", 2, 0, false},
	{"bpl", "bp", 1, 0, true},
	{"rsp", "sp", 8, 0, true},
	{"esp", "sp", 4, 0, false},
	{"sp", "sp", 2, 0, false},
	{"spl", "sp", 1, 0, true},
	{"rip", "ip", 8, 0, true},
	{"eip", "ip", 4, 0, false},
	XR(8), XR(9), XR(10), XR(11), XR(12), XR(13), XR(14), XR(15),
};

/* %xmm0..31 %ymm %zmm, %mm0..7, %k0..7, %st and %st(N) (the '(' is not part of the name) */
static bool is_vector_reg(const char *name, size_t len)
{
	return sdt_reg_number(name, len, "xmm", 31) >= 0 ||
	       sdt_reg_number(name, len, "ymm", 31) >= 0 ||
	       sdt_reg_number(name, len, "zmm", 31) >= 0 ||
	       sdt_reg_number(name, len, "mm", 7) >= 0 || sdt_reg_number(name, len, "k", 7) >= 0 ||
	       (len == 2 && !strncmp(name, "st", 2));
}

/*
 * Parse `%name` at *pp (the '%' included). Returns the register, or NULL with *why set. A vector
 * register sets *vector instead and returns NULL with *why NULL.
 */
static const struct x86_reg *parse_reg(const char **pp, bool is64, bool *vector, const char **why)
{
	const char *p = *pp + 1, *start = p;
	size_t len, i;

	*vector = false;
	if (**pp != '%') {
		*why = "expected a register";
		return NULL;
	}
	while ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))
		p++;
	len = (size_t)(p - start);
	if (!len) {
		*why = "missing register name after '%'";
		return NULL;
	}
	for (i = 0; i < ARRAY_SIZE(x86_regs); i++) {
		const struct x86_reg *r = &x86_regs[i];

		if (strlen(r->name) != len || strncmp(r->name, start, len))
			continue;
		if (r->only64 && !is64)
			break;
		*pp = p;
		return r;
	}
	if (is_vector_reg(start, len)) {
		/* %st(1) */
		if (*p == '(') {
			while (*p && *p != ')')
				p++;
			if (*p == ')')
				p++;
		}
		*pp = p;
		*vector = true;
		*why = NULL;
		return NULL;
	}
	*why = "unknown register";
	return NULL;
}

static void set_reg(struct sdt_arg *a, const char *pt_name)
{
	strncpy(a->reg, pt_name, sizeof(a->reg) - 1);
}

/*
 * A displacement expression: terms joined by '+' or '-', at most one of them a symbol with an
 * optional @RELOC suffix ("8+g_iarr@GOTOFF", "g_pair+8", "-20", "t_tls@tpoff").
 */
struct x86_disp {
	int64_t num;
	char *symbol;
	char reloc[16];
	bool any;
};

static int parse_disp(const char **pp, struct x86_disp *d, const char **why)
{
	const char *p = *pp;
	bool neg = false, want_term = false;

	if (*p == '-' || *p == '+') {
		neg = *p == '-';
		want_term = true;
		p++;
	}
	for (;;) {
		if (*p == '(' || *p == '\0' || *p == ':') {
			if (want_term) {
				*why = "sign without a number in address";
				return -EINVAL;
			}
			break;
		}
		want_term = false;
		if (*p >= '0' && *p <= '9') {
			int64_t v;

			if (sdt_parse_int(&p, &v)) {
				*why = "number out of range";
				return -EINVAL;
			}
			d->num = neg ? (int64_t)((uint64_t)d->num - (uint64_t)v)
				     : (int64_t)((uint64_t)d->num + (uint64_t)v);
		} else {
			char *sym = sdt_parse_symbol(&p);

			if (!sym) {
				*why = "unexpected character in address";
				return -EINVAL;
			}
			if (d->symbol || neg) {
				free(sym);
				*why = neg ? "negated symbol in address" : "two symbols in one address";
				return -EINVAL;
			}
			d->symbol = sym;
			if (*p == '@') {
				const char *r = ++p;

				while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))
					p++;
				if (p == r || (size_t)(p - r) >= sizeof(d->reloc)) {
					*why = "bad relocation suffix";
					return -EINVAL;
				}
				memcpy(d->reloc, r, (size_t)(p - r));
			}
		}
		d->any = true;
		if (*p == '+' || *p == '-') {
			neg = *p == '-';
			want_term = true;
			p++;
			continue;
		}
		break;
	}
	*pp = p;
	return 0;
}

static bool is_tls_reloc(const char *r)
{
	static const char *const tls[] = {"tpoff", "ntpoff", "dtpoff", "gottpoff", "indntpoff",
					  "tlsgd", "tlsld", "dtpmod"};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tls); i++) {
		if (!strcasecmp(r, tls[i]))
			return true;
	}
	return false;
}

static int parse_x86(const char *op, struct sdt_arg *a, const char **why, bool is64)
{
	const struct x86_reg *base = NULL, *index = NULL;
	struct x86_disp d = {0};
	const char *p = op;
	bool vector, paren = false;
	int64_t scale = 1;
	int err = -EINVAL;

	if (*p == '%' && strchr(p, ':')) {
		/* %fs:t@tpoff: a segment-relative (thread-local) address */
		p = strchr(p, ':') + 1;
		if (parse_disp(&p, &d, why))
			goto out;
		if (*p || !d.any) {
			*why = *p ? "trailing characters after thread-local operand"
				  : "empty thread-local operand";
			goto out;
		}
		a->kind = SDT_ARG_TLS;
		a->symbol = d.symbol;
		return 0;
	}
	if (*p == '%') {
		const struct x86_reg *r = parse_reg(&p, is64, &vector, why);

		if (vector && !*p) {
			a->kind = SDT_ARG_VECTOR;
			return 0;
		}
		if (!r)
			goto out;
		if (*p) {
			*why = "trailing characters after register";
			goto out;
		}
		/* A value wider than a 32-bit register lives in a pair (edx:eax). */
		if (!is64 && a->size > 4) {
			a->kind = SDT_ARG_REGPAIR;
			return 0;
		}
		a->kind = SDT_ARG_REG;
		set_reg(a, r->pt_name);
		a->bit_offset = r->bit_offset;
		return 0;
	}
	if (*p == '$') {
		p++;
		if ((*p >= '0' && *p <= '9') || *p == '-' || *p == '+') {
			if (sdt_parse_int(&p, &a->offset) || *p) {
				*why = "bad constant";
				return -EINVAL;
			}
			a->kind = SDT_ARG_CONST;
			return 0;
		}
		if (parse_disp(&p, &d, why))
			goto out;
		if (*p || !d.symbol || d.reloc[0]) {
			*why = "bad address immediate";
			goto out;
		}
		a->kind = SDT_ARG_ADDR;
		a->symbol = d.symbol;
		a->offset = d.num;
		return 0;
	}

	/* Memory: [disp](base[,index[,scale]]) or an absolute disp */
	if (parse_disp(&p, &d, why))
		goto out;
	if (*p == '(') {
		paren = true;
		p++;
		if (*p == '%') {
			base = parse_reg(&p, is64, &vector, why);
			if (!base)
				goto out;
		}
		if (*p == ',') {
			p++;
			index = parse_reg(&p, is64, &vector, why);
			if (!index)
				goto out;
			if (*p == ',') {
				p++;
				if (sdt_parse_int(&p, &scale) ||
				    (scale != 1 && scale != 2 && scale != 4 && scale != 8)) {
					*why = "bad scale";
					goto out;
				}
			}
		}
		if (*p != ')') {
			*why = "missing ')'";
			goto out;
		}
		if (!base && !index) {
			*why = "no register inside '()'";
			goto out;
		}
		p++;
	}
	if (*p) {
		*why = "trailing characters after operand";
		goto out;
	}
	if (!paren && !d.any) {
		*why = "empty operand";
		goto out;
	}
	if ((base && base->bytes == 1) || (index && index->bytes == 1)) {
		*why = "byte register used as an address";
		goto out;
	}

	a->offset = d.num;
	if (d.reloc[0] && is_tls_reloc(d.reloc)) {
		a->kind = SDT_ARG_TLS;
	} else if (d.reloc[0] && strcasecmp(d.reloc, "GOTOFF")) {
		*why = "unsupported relocation in operand";
		goto out;
	} else if (index || (d.symbol && base && strcmp(base->pt_name, "ip") &&
			     !d.reloc[0])) {
		/* base + index * scale, or a register plus a symbol's address */
		a->kind = SDT_ARG_INDEXED;
		if (base)
			set_reg(a, base->pt_name);
		if (index)
			strncpy(a->index_reg, index->pt_name, sizeof(a->index_reg) - 1);
		a->scale = (uint8_t)scale;
	} else if (d.reloc[0]) {
		/* sym@GOTOFF(%ebx): %ebx holds the GOT address, so this is sym itself */
		if (!d.symbol || !base) {
			*why = "@GOTOFF needs a symbol and a base register";
			goto out;
		}
		a->kind = SDT_ARG_GLOBAL;
	} else if (base && !strcmp(base->pt_name, "ip")) {
		if (!d.symbol) {
			*why = "pc-relative address without a symbol";
			goto out;
		}
		a->kind = SDT_ARG_GLOBAL;
	} else if (base) {
		a->kind = SDT_ARG_MEM;
		set_reg(a, base->pt_name);
	} else if (d.symbol) {
		a->kind = SDT_ARG_GLOBAL; /* absolute: g, g+16 */
	} else {
		/* an absolute numeric address */
		a->kind = SDT_ARG_GLOBAL;
		a->sym_resolved = true;
		a->sym_addr = (uint64_t)d.num;
	}
	a->symbol = d.symbol;
	d.symbol = NULL;
	err = 0;
out:
	free(d.symbol);
	if (err && !*why)
		*why = "cannot parse operand";
	return err;
}

int sdt_x86_64_parse_operand(const char *op, struct sdt_arg *a, const char **why)
{
	return parse_x86(op, a, why, true);
}

int sdt_i386_parse_operand(const char *op, struct sdt_arg *a, const char **why)
{
	return parse_x86(op, a, why, false);
}
