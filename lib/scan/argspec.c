/* SPDX-License-Identifier: MIT */
/*
 * Argument specs: splitting a note's argument string, the SIZE@ prefix, and the render stage that
 * turns a parsed argument into a uprobe fetcharg. The operand syntax itself is per architecture
 * (lib/scan/arch/). See argspec.h for the two stages.
 *
 * Render table (x86_64 shown; register names come from the parser, already pt_regs names):
 *
 *	kind      spec                 fetcharg                    notes
 *	REG       -4@%eax              %ax:s32                     type truncates and sign-extends
 *	REG       1@%ah                %ax:b8@8/64                 high byte: a bit field
 *	MEM       -4@-20(%rbp)         -20(%bp):s32
 *	MEM       8@(%rsp)             +0(%sp):u64
 *	CONST     -4@$-7               \-7:s32
 *	CONST     1@$-1                \255:u8                     value cut to the size
 *	GLOBAL    -8@g(%rip)           @+0x4010:s64                vaddr(g) - text_bias
 *	ADDR      8@$g                 \16400:u64                  link-time address 0x4010 (in
 *	                                                            decimal); the reader rebases it
 *	float     8f@%rax              %ax:x64                     raw bits, decoded by the reader
 *	float     16f@-32(%rbp)        -32(%bp):x64[2]             long double: 16 bytes of memory,
 *	                                                            decoded by the file's format
 *	                                                            (x87, binary128, double-double)
 *	float     16f@%st / 16f@10     unavailable                 no register of pt_regs holds one
 *	INDEXED   -4@(%rdx,%r8,4)      unavailable                 no fetcharg adds two registers
 *	TLS       -8@%fs:t@tpoff       unavailable
 *	VECTOR    8@%xmm0              unavailable                 not in pt_regs
 *	REGPAIR   -8@%eax (i386)       unavailable                 64-bit value in two registers
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "scan/arch/arch.h"
#include "scan/argspec.h"
#include "util/internal.h"

const char *sdt_fetch_type(unsigned int size, bool is_signed, bool is_float)
{
	static const char *const types[3][4] = {
		{"u8", "u16", "u32", "u64"},
		{"s8", "s16", "s32", "s64"},
		{"x8", "x16", "x32", "x64"},
	};
	int row = is_float ? 2 : is_signed ? 1 : 0;

	switch (size) {
	case 1: return types[row][0];
	case 2: return types[row][1];
	case 4: return types[row][2];
	case 8: return types[row][3];
	default: return NULL;
	}
}

void sdt_arg_release(struct sdt_arg *a)
{
	if (!a)
		return;
	free(a->spec);
	free(a->symbol);
	free(a->fetch);
	free(a->unavailable);
	a->spec = a->symbol = a->fetch = a->unavailable = NULL;
}

void sdt_args_free(struct sdt_arg *args, size_t n)
{
	size_t i;

	for (i = 0; args && i < n; i++)
		sdt_arg_release(&args[i]);
	free(args);
}

/* Does @p start an argument, i.e. `[-]DIGITS[f]@`? */
static bool starts_arg(const char *p)
{
	if (*p == '-')
		p++;
	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == 'f')
		p++;
	return *p == '@';
}

static int set_invalid(struct sdt_arg *a, const char *why)
{
	a->kind = SDT_ARG_INVALID;
	free(a->unavailable);
	a->unavailable = sdt_strdup(why);
	return a->unavailable ? 0 : -ENOMEM;
}

int sdt_arg_parse(const struct sdt_arch *arch, int elfclass, const char *spec, struct sdt_arg *a)
{
	const char *p = spec, *why = NULL;
	unsigned long size = 0;
	int err;

	a->spec = sdt_strdup(spec);
	if (!a->spec)
		return -ENOMEM;

	if (!starts_arg(p)) {
		/* Old notes (sdt.h v1/v2) carry a bare operand: a word-sized unsigned value. */
		a->size = elfclass == 1 ? 4 : 8;
	} else {
		if (*p == '-') {
			a->is_signed = true;
			p++;
		}
		while (isdigit((unsigned char)*p)) {
			size = size * 10 + (unsigned long)(*p - '0');
			if (size > 16)
				break;
			p++;
		}
		if (*p == 'f') {
			a->is_float = true;
			p++;
		}
		if (*p != '@' || (size != 1 && size != 2 && size != 4 && size != 8 && size != 16))
			return set_invalid(a, "size must be 1, 2, 4, 8 or 16");
		a->size = (uint8_t)size;
		p++;
	}
	if (!*p)
		return set_invalid(a, "missing operand");
	if (!arch)
		return set_invalid(a, "no operand parser for this architecture");
	err = arch->parse_operand(p, a, &why);
	if (err == -ENOMEM)
		return err;
	if (err) {
		free(a->symbol);
		a->symbol = NULL;
		return set_invalid(a, why ? why : "cannot parse operand");
	}
	return 0;
}

int sdt_args_parse(const struct sdt_arch *arch, int elfclass, const char *text,
		   struct sdt_arg **out, size_t *n)
{
	struct sdt_arg *args = NULL;
	size_t nargs = 0, cap = 0, i;
	const char *p = text;
	bool sized;
	int err = 0;

	*out = NULL;
	*n = 0;
	while (*p == ' ' || *p == '\t')
		p++;
	/* If the first token has no SIZE@, the note is of the old sizeless form: every token is one. */
	sized = *p && starts_arg(p);

	while (*p) {
		const char *start = p, *end;
		char *spec;

		/* An argument runs to the next token that starts another `SIZE@`. */
		for (;;) {
			while (*p && *p != ' ' && *p != '\t')
				p++;
			end = p;
			while (*p == ' ' || *p == '\t')
				p++;
			if (!*p || !sized || starts_arg(p))
				break;
		}
		if (nargs >= SDT_MAX_ARGS) {
			err = -E2BIG;
			goto out;
		}
		if (sdt_grow((void **)&args, &cap, nargs + 1, sizeof(*args))) {
			err = -ENOMEM;
			goto out;
		}
		memset(&args[nargs], 0, sizeof(*args));
		spec = sdt_strndup(start, (size_t)(end - start));
		if (!spec) {
			err = -ENOMEM;
			goto out;
		}
		err = sdt_arg_parse(arch, elfclass, spec, &args[nargs]);
		free(spec);
		nargs++;
		if (err)
			goto out;
	}
out:
	if (err) {
		for (i = 0; i < nargs; i++)
			sdt_arg_release(&args[i]);
		free(args);
		return err;
	}
	*out = args;
	*n = nargs;
	return 0;
}

/* "+8", "-20", "+0": the signed displacement syntax of fetchargs. */
static int add_disp(struct sdt_buf *b, int64_t off)
{
	if (off < 0)
		return sdt_buf_addf(b, "-%llu", (unsigned long long)(0 - (uint64_t)off));
	return sdt_buf_addf(b, "+%lld", (long long)off);
}

static int set_unavailable(struct sdt_arg *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int set_unavailable(struct sdt_arg *a, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&a->unavailable, fmt, ap);
	va_end(ap);
	if (n < 0) {
		a->unavailable = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* The constant's value cut to the argument's size, as the kernel's \IMM parser reads it. */
static int add_const(struct sdt_buf *b, int64_t v, unsigned int size, bool is_signed)
{
	uint64_t u = (uint64_t)v;

	if (size < 8) {
		uint64_t mask = (1ULL << (size * 8)) - 1;

		u &= mask;
		if (is_signed && (u >> (size * 8 - 1)))
			u |= ~mask;
	}
	if (is_signed && (int64_t)u < 0)
		return sdt_buf_addf(b, "\\%lld", (long long)(int64_t)u);
	return sdt_buf_addf(b, "\\%llu", (unsigned long long)u);
}

/* The operand of @a's spec, for messages: "%st" of "16f@%st"; "?" when it has none. */
static const char *operand_of(const struct sdt_arg *a)
{
	const char *at = a->spec ? strchr(a->spec, '@') : NULL;

	return at ? at + 1 : a->spec ? a->spec : "?";
}

int sdt_arg_render(const struct sdt_arch *arch, int elfclass, struct sdt_arg *a,
		   const struct sdt_render_ctx *ctx)
{
	unsigned int reg_bits = arch ? arch->reg_bits : (elfclass == 1 ? 32 : 64);
	struct sdt_buf b = {0};
	const char *type;
	int err = 0;

	free(a->fetch);
	a->fetch = NULL;
	if (a->kind == SDT_ARG_INVALID) {
		/* Keep the parser's reason. */
		if (a->unavailable)
			return 0;
		return set_unavailable(a, "cannot parse operand");
	}
	free(a->unavailable);
	a->unavailable = NULL;

	switch (a->kind) {
	case SDT_ARG_INDEXED:
		return set_unavailable(a, "indexed address (base + index * scale): no uprobe fetcharg "
					  "adds two registers");
	case SDT_ARG_TLS:
		return set_unavailable(a, "thread-local variable '%s': its address is not known to "
					  "uprobes", a->symbol ? a->symbol : "?");
	case SDT_ARG_VECTOR:
		return set_unavailable(a, "floating-point or vector register %s: not among the "
					  "saved registers (pt_regs) a probe reads", operand_of(a));
	case SDT_ARG_REGPAIR:
		return set_unavailable(a, "%u-byte value split over a register pair", a->size);
	default:
		break;
	}
	type = sdt_fetch_type(a->size, a->is_signed, a->is_float);
	if (!type && a->size == 16 && a->is_float) {
		/*
		 * A long double lives in memory: its 16 bytes are fetched as an array of words
		 * (x64[2], x32[4] on a 32-bit file) and the reader decodes them by the file's format.
		 * No general register holds one (in a vector or x87 register it is VECTOR above).
		 */
		type = reg_bits == 32 ? "x32[4]" : "x64[2]";
		if (a->kind == SDT_ARG_REG || a->kind == SDT_ARG_CONST || a->kind == SDT_ARG_ADDR)
			return set_unavailable(a, "16-byte floating-point value (long double) %s: "
						  "only one in memory can be fetched",
					       a->kind == SDT_ARG_REG ? "in a register"
								      : "as an immediate");
	}
	if (!type)
		return set_unavailable(a, "%u-byte %s cannot be fetched as one value", a->size,
				       a->is_float ? "floating-point value (long double)" : "value");
	if ((a->kind == SDT_ARG_GLOBAL || a->kind == SDT_ARG_ADDR) && !a->sym_resolved)
		return set_unavailable(a, "symbol '%s' is not in the file's symbol tables",
				       a->symbol ? a->symbol : "?");

	switch (a->kind) {
	case SDT_ARG_REG:
		if (a->size * 8 > reg_bits)
			return set_unavailable(a, "%u-byte value split over a register pair", a->size);
		if (a->bit_offset)
			err = sdt_buf_addf(&b, "%%%s:b%u@%u/%u", a->reg, a->size * 8u, a->bit_offset,
					   reg_bits);
		else
			err = sdt_buf_addf(&b, "%%%s:%s", a->reg, type);
		break;
	case SDT_ARG_MEM:
		err = add_disp(&b, a->offset);
		if (!err)
			err = sdt_buf_addf(&b, "(%%%s):%s", a->reg, type);
		break;
	case SDT_ARG_CONST:
		err = add_const(&b, a->offset, a->size, a->is_signed);
		if (!err)
			err = sdt_buf_addf(&b, ":%s", type);
		break;
	case SDT_ARG_GLOBAL:
		if (!ctx || !ctx->have_text_bias)
			return set_unavailable(a, "the probe address is in no loadable segment");
		/* below the file's own mapping: not a variable of this file (and OFF would wrap) */
		if (a->sym_addr < ctx->text_bias)
			return set_unavailable(a, "address 0x%llx lies below the probe's mapping",
					       (unsigned long long)a->sym_addr);
		err = sdt_buf_addf(&b, "@+0x%llx:%s",
				   (unsigned long long)(a->sym_addr - ctx->text_bias), type);
		break;
	case SDT_ARG_ADDR:
		err = add_const(&b, (int64_t)a->sym_addr, a->size, false);
		if (!err)
			err = sdt_buf_addf(&b, ":%s", type);
		break;
	default:
		return set_unavailable(a, "cannot parse operand");
	}
	if (err) {
		sdt_buf_free(&b);
		return -ENOMEM;
	}
	a->fetch = sdt_buf_take(&b);
	return 0;
}
