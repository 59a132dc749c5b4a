/* SPDX-License-Identifier: MIT */
/*
 * The BPF engine's capability and fetch plans: a scanner argument (struct sdt_arg, engine
 * neutral) -> struct sdt_bpf_arg, or the reason this engine cannot fetch it. The tracefs engine
 * says the same through sdt_arg_render()'s ->fetch / ->unavailable; the forms differ: BPF adds
 * indexed addresses and thread-local variables, neither engine reaches vector registers.
 */
#include <errno.h>
#include <string.h>
#include <strings.h>

#include "bpf/sdt_bpf.h"
#include "util/internal.h"

/* x86_64 struct pt_regs, in order: the byte offset is 8 x the index. */
static const char *const x86_64_regs[] = {
    "r15", "r14", "r13", "r12", "bp", "bx", "r11", "r10", "r9",	   "r8", "ax",
    "cx",  "dx",  "si",	 "di",	"orig_ax", "ip", "cs", "flags", "sp", "ss",
};

int sdt_bpf_reg_offset(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(x86_64_regs); i++)
		if (!strcmp(name, x86_64_regs[i]))
			return (int)(i * 8);
	return -1;
}

static int reg_or_none(const char *name, uint16_t *out, const char **why)
{
	int off;

	if (!name[0]) {
		*out = SDT_BPF_REG_NONE;
		return 0;
	}
	off = sdt_bpf_reg_offset(name);
	if (off < 0) {
		*why = "register not in x86_64 pt_regs";
		return -EOPNOTSUPP;
	}
	*out = (uint16_t)off;
	return 0;
}

/* A %fs-relative (local-exec) thread-local operand: `%fs:t@tpoff`, `%fs:t@tpoff+8`. */
static bool fs_local_exec(const struct sdt_arg *a)
{
	const char *at = a->spec ? strchr(a->spec, '@') : NULL;

	return at && !strncmp(at + 1, "%fs:", 4) && strcasestr(at, "@tpoff");
}

int sdt_bpf_arg_plan(const struct sdt_arg *a, bool string, struct sdt_bpf_arg *out,
		     const char **why)
{
	int err;

	memset(out, 0, sizeof(*out));
	out->reg = SDT_BPF_REG_NONE;
	out->index = SDT_BPF_REG_NONE;
	out->size = a->size;
	out->scale = 1;
	*why = NULL;
	if (string)
		out->flags |= SDT_BPF_STRING;
	if (a->size == 16) {
		/* a long double in memory: its 16 bytes copied as they are (sdt.bpf.c) */
		if (!a->is_float) {
			*why = "16-byte integer: no field of that size";
			return -EOPNOTSUPP;
		}
		if (a->kind == SDT_ARG_REG || a->kind == SDT_ARG_CONST ||
		    a->kind == SDT_ARG_ADDR) {
			*why = "16-byte floating-point value (long double) not in memory";
			return -EOPNOTSUPP;
		}
		if (string)
			goto not_pointer;
	} else if (a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8) {
		*why = "bad size";
		return -EOPNOTSUPP;
	}
	switch (a->kind) {
	case SDT_ARG_REG:
		err = reg_or_none(a->reg, &out->reg, why);
		if (err)
			return err;
		if (string && a->bit_offset)
			goto not_pointer;
		out->fetch = SDT_BPF_REG;
		out->shift = a->bit_offset;
		return 0;
	case SDT_ARG_MEM:
		err = reg_or_none(a->reg, &out->reg, why);
		if (err)
			return err;
		out->fetch = SDT_BPF_MEM;
		out->disp = a->offset;
		return 0;
	case SDT_ARG_CONST:
		if (string)
			goto not_pointer;
		out->fetch = SDT_BPF_CONST;
		out->disp = a->offset;
		return 0;
	case SDT_ARG_GLOBAL:
	case SDT_ARG_ADDR:
		if (!a->sym_resolved) {
			*why = "symbol not in the file's symbol tables";
			return -EOPNOTSUPP;
		}
		out->disp = (int64_t)a->sym_addr;
		if (a->kind == SDT_ARG_GLOBAL)
			out->fetch = SDT_BPF_GLOBAL;
		else if (string) /* the string is at the address itself: rebased here */
			out->fetch = SDT_BPF_LADDR;
		else /* the link-time address; the report adds the load bias (rebase) */
			out->fetch = SDT_BPF_CONST;
		return 0;
	case SDT_ARG_INDEXED:
		err = reg_or_none(a->reg, &out->reg, why);
		if (!err)
			err = reg_or_none(a->index_reg, &out->index, why);
		if (err)
			return err;
		out->fetch = SDT_BPF_INDEXED;
		out->scale = a->scale ? a->scale : 1;
		if (a->symbol) {
			if (!a->sym_resolved) {
				*why = "symbol not in the file's symbol tables";
				return -EOPNOTSUPP;
			}
			out->disp = (int64_t)a->sym_addr;
			out->flags |= SDT_BPF_REBASE;
		} else {
			out->disp = a->offset;
		}
		return 0;
	case SDT_ARG_TLS:
		if (!fs_local_exec(a)) {
			*why = "thread-local form other than %fs:sym@tpoff (local exec)";
			return -EOPNOTSUPP;
		}
		if (!a->sym_resolved) {
			*why = "thread-local symbol not found, or the file has no TLS segment";
			return -EOPNOTSUPP;
		}
		out->fetch = SDT_BPF_TLS;
		out->disp = (int64_t)a->sym_addr; /* the symbol's offset from the thread pointer */
		return 0;
	case SDT_ARG_VECTOR:
		*why = "vector register: not in pt_regs";
		return -EOPNOTSUPP;
	case SDT_ARG_REGPAIR:
		*why = "value split over a register pair";
		return -EOPNOTSUPP;
	default:
		*why = a->unavailable ? a->unavailable : "cannot parse operand";
		return -EOPNOTSUPP;
	}
not_pointer:
	*why = "a constant, not a pointer a string can be read through";
	return -EDOM;
}
