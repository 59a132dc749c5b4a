/* SPDX-License-Identifier: MIT */
/*
 * SDT argument specs: parse (text -> struct sdt_arg) and render (struct sdt_arg -> uprobe fetcharg).
 *
 * A note's argument string is a space-separated list of `[-]SIZE[f]@OPERAND`: SIZE is 1, 2, 4, 8
 * (16 for long double), `-` means signed, `f` floating point, and OPERAND is written in the target
 * assembler's syntax, which differs per architecture (the tables in lib/scan/arch/). aarch64 and arm
 * operands contain a space (`[x0, 8]`): a token that does not start with `SIZE@` continues the
 * previous argument.
 *
 * The two stages are separate so that each is tested alone:
 *   sdt_args_parse()   text -> struct sdt_arg[] (kind, registers as pt_regs names, offsets, symbol)
 *   (the scanner resolves symbols: struct sdt_arg.sym_addr)
 *   sdt_arg_render()   struct sdt_arg -> "+8(%di):s64", or ->unavailable = reason
 * An argument that cannot be parsed or fetched is kept, marked unavailable with the reason: it never
 * shifts the numbering of later arguments and never fails the other arguments or the probe.
 */
#ifndef SDT_ARGSPEC_H
#define SDT_ARGSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Upper bound on arguments per note (<sys/sdt.h> emits at most 12). */
#define SDT_MAX_ARGS 32

enum sdt_arg_kind {
	SDT_ARG_INVALID = 0, /* could not be parsed; ->unavailable says why */
	SDT_ARG_REG,	     /* value in register ->reg */
	SDT_ARG_MEM,	     /* memory at ->reg + ->offset */
	SDT_ARG_CONST,	     /* the constant ->offset (as a 64-bit pattern) */
	SDT_ARG_GLOBAL,	     /* memory at the link-time address of ->symbol + ->offset */
	SDT_ARG_ADDR,	     /* the value *is* the link-time address of ->symbol + ->offset */
	SDT_ARG_INDEXED,     /* memory at [->symbol] + ->offset + ->reg + ->index_reg * ->scale */
	SDT_ARG_TLS,	     /* thread-local variable ->symbol */
	SDT_ARG_VECTOR,	     /* a vector/FP register (%xmm0): not in pt_regs */
	SDT_ARG_REGPAIR,     /* a value wider than a register, split over a pair of registers */
};

#define SDT_REG_NAME_MAX 8

struct sdt_arg {
	char *spec;   /* the argument's text as in the note ("-4@%eax"), owned */
	uint8_t size; /* bytes: 1, 2, 4, 8 or 16 */
	bool is_signed;
	bool is_float;
	enum sdt_arg_kind kind;
	/* pt_regs name of the base (or only) register, without '%': "ax", "x0", "gpr3", "" */
	char reg[SDT_REG_NAME_MAX];
	char index_reg[SDT_REG_NAME_MAX]; /* SDT_ARG_INDEXED only */
	uint8_t scale;			  /* SDT_ARG_INDEXED only */
	/*
	 * A register narrower than pt_regs' slot that is not its low part (x86 %ah): the value is
	 * the bit field of width size*8 starting at bit_offset. 0 for all other registers.
	 */
	uint8_t bit_offset;
	/* displacement (MEM, INDEXED), value (CONST) or addend (GLOBAL, ADDR) */
	int64_t offset;
	char *symbol; /* GLOBAL, ADDR, INDEXED, TLS: the symbol named by the operand, owned */
	/* Filled by the scanner: link-time address of symbol + offset, when the symbol was found. */
	bool sym_resolved;
	uint64_t sym_addr;
	/* Render stage output: exactly one is non-NULL after sdt_arg_render(). Owned. */
	char *fetch;
	char *unavailable;
};

struct sdt_arch;

/*
 * Split @text into arguments and parse each for @arch (NULL: unknown architecture, every
 * argument becomes unavailable with that reason). @elfclass is ELFCLASS32 or ELFCLASS64.
 * On success *out is an array of *n arguments (possibly 0) owned by the caller
 * (sdt_args_free()). Returns 0, -ENOMEM, or -E2BIG when there are more than SDT_MAX_ARGS.
 * A malformed argument is not an error: it is SDT_ARG_INVALID with ->unavailable set.
 */
int sdt_args_parse(const struct sdt_arch *arch, int elfclass, const char *text,
		   struct sdt_arg **out, size_t *n);
void sdt_args_free(struct sdt_arg *args, size_t n);
/* Free what one argument owns (not the struct). */
void sdt_arg_release(struct sdt_arg *a);

/*
 * Parse one `[-]SIZE[f]@OPERAND` argument into @a (which the caller zeroed). Sets ->spec.
 * Returns 0 (also for an unparsable operand, which becomes SDT_ARG_INVALID) or -ENOMEM.
 */
int sdt_arg_parse(const struct sdt_arch *arch, int elfclass, const char *spec, struct sdt_arg *a);

/* What the render stage needs to know about the probe site. */
struct sdt_render_ctx {
	/*
	 * vaddr - file offset of the PT_LOAD holding the probe's pc. A global at link-time address
	 * A is fetched as `@+(A - text_bias)`: the kernel adds (runtime probe address - probe file
	 * offset) to the `@+` offset.
	 */
	uint64_t text_bias;
	bool have_text_bias;
};

/*
 * Render @a into ->fetch (e.g. "+8(%di):s64") or ->unavailable (the reason), for @arch.
 * Returns 0 or -ENOMEM. Idempotent: a previous result is replaced.
 */
int sdt_arg_render(const struct sdt_arch *arch, int elfclass, struct sdt_arg *a,
		   const struct sdt_render_ctx *ctx);

/* The fetch type for size/sign/float: "s32", "u8", "x64" (floats: raw bits). NULL for size 16. */
const char *sdt_fetch_type(unsigned int size, bool is_signed, bool is_float);

#endif
