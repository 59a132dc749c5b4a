/* SPDX-License-Identifier: MIT */
/*
 * A filter (include/sdtrace/filter.h) compiled for the BPF program (lib/bpf/plan.h: postfix
 * steps over the raw record's fixed fields, the process, the thread and the CPU), so that a hit
 * that fails it never crosses a ring buffer, and stat counts or aggregates in the kernel with
 * it. Every answer is the one filter_eval.c gives on the decoded event: a name the event lacks,
 * or an argument that was not recorded, is a test that is false; an unsigned value against a
 * negative number, or a signed one against a number above INT64_MAX, is decided here. What the
 * program cannot evaluate is refused with the reason (-ENOTSUP), for the caller to evaluate in
 * user space: globs other than TEXT, TEXT*, *TEXT and *, string literals of 64 bytes or more or
 * more than 4 of them, floats, an address before its rebase, a field wider than its argument,
 * more than SDT_BPF_FILTER_STEPS steps.
 *
 * comm is the thread's name when the probe fires (bpf_get_current_comm); filter_eval.c reads the
 * name the recording kept, the one it had at its first hit. They differ only for a thread that
 * renamed itself after its first hit.
 */
#include <errno.h>
#include <string.h>

#include "record/bpf/engine.h"
#include "trace/filter.h"
#include "trace/trace_event.h"
#include "util/internal.h"

struct compile {
	const struct sdt_filter *f;
	const struct sdt_trace_event_desc *d;
	struct sdt_bpf_filter *out;
	unsigned nstrs; /* literals in out->strs */
};

static int refuse(const struct compile *c, const struct filter_node *n, const char *why)
{
	return sdt_err(-ENOTSUP, "filter '%s': column %zu: the BPF program %s", c->f->text, n->col,
		       why);
}

static int push(struct compile *c, const struct filter_node *n, struct sdt_bpf_fstep st)
{
	if (c->out->n >= SDT_BPF_FILTER_STEPS)
		return refuse(c, n, "takes at most 16 tests and operators");
	c->out->steps[c->out->n++] = st;
	return 0;
}

static int push_const(struct compile *c, const struct filter_node *n, int bit)
{
	return push(c, n, (struct sdt_bpf_fstep){.op = SDT_BPF_FOP_CONST, .value = bit});
}

static const uint8_t fcmp[] = {
    [FOP_TRUE] = SDT_BPF_FCMP_NZ, [FOP_EQ] = SDT_BPF_FCMP_EQ, [FOP_NE] = SDT_BPF_FCMP_NE,
    [FOP_LT] = SDT_BPF_FCMP_LT,	  [FOP_LE] = SDT_BPF_FCMP_LE, [FOP_GT] = SDT_BPF_FCMP_GT,
    [FOP_GE] = SDT_BPF_FCMP_GE,
};

/* A test of an integer @st (src, size, off set) by @n: compare_number() of filter_eval.c. */
static int test_number(struct compile *c, const struct filter_node *n, struct sdt_bpf_fstep st)
{
	bool lit_big = !n->neg && n->i < 0; /* above INT64_MAX */

	if (n->lit == FLIT_STRING || n->op == FOP_GLOB || n->op == FOP_NGLOB)
		return push_const(c, n, 0); /* a number is never a string */
	if (n->lit == FLIT_FLOAT)
		return refuse(c, n, "compares integers only with integers");
	st.op = SDT_BPF_FOP_TEST;
	st.cmp = fcmp[n->op];
	if (n->has_mask) {
		st.has_mask = 1;
		st.mask = n->mask;
		st.is_signed = 0;
	}
	if (n->op == FOP_TRUE)
		return push(c, n, st);
	if (st.is_signed) {
		if (lit_big)
			return push_const(c, n, sdt_filter_op_holds(n->op, -1));
	} else if (n->neg) {
		return push_const(c, n, sdt_filter_op_holds(n->op, 1));
	}
	st.value = n->i;
	return push(c, n, st);
}

/* Is @p (@len bytes) free of glob characters? */
static bool plain(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (strchr("*?[\\", p[i]))
			return false;
	return true;
}

/*
 * A test of a string @st (src, off set) by @n: test_string() of filter_eval.c. A glob the program
 * takes is TEXT (equal), TEXT* (starts with), *TEXT (ends with) or * (any string), for fnmatch()
 * without flags.
 */
static int test_string(struct compile *c, const struct filter_node *n, struct sdt_bpf_fstep st)
{
	const char *lit = n->str, *s;
	size_t len, lead = 0, trail = 0;

	if (n->has_mask || (n->lit != FLIT_STRING && n->lit != FLIT_NONE))
		return push_const(c, n, 0); /* a string is never a number */
	st.op = SDT_BPF_FOP_TEST;
	if (n->op == FOP_TRUE) {
		st.cmp = SDT_BPF_FCMP_SNZ;
		return push(c, n, st);
	}
	if (n->op != FOP_EQ && n->op != FOP_NE && n->op != FOP_GLOB && n->op != FOP_NGLOB)
		return push_const(c, n, 0); /* strings are not ordered */
	st.negate = n->op == FOP_NE || n->op == FOP_NGLOB;
	len = strlen(lit);
	st.cmp = SDT_BPF_FCMP_SEQ;
	if (n->op == FOP_GLOB || n->op == FOP_NGLOB) {
		while (lead < len && lit[lead] == '*')
			lead++;
		while (trail < len - lead && lit[len - 1 - trail] == '*')
			trail++;
		s = lit + lead;
		if (lead == len) {
			st.cmp = SDT_BPF_FCMP_SANY;
		} else if (!plain(s, len - lead - trail) || (lead && trail)) {
			return refuse(c, n, "takes globs of the forms TEXT, TEXT*, *TEXT and * only");
		} else {
			st.cmp = lead ? SDT_BPF_FCMP_SSUF
				      : (trail ? SDT_BPF_FCMP_SPRE : SDT_BPF_FCMP_SEQ);
			lit = s;
			len -= lead + trail;
		}
	}
	if (st.cmp != SDT_BPF_FCMP_SANY) {
		if (len >= SDT_BPF_FSTR_MAX)
			return refuse(c, n, "compares strings of at most 63 bytes");
		if (c->nstrs >= SDT_BPF_FILTER_STRS)
			return refuse(c, n, "takes at most 4 strings");
		memcpy(c->out->strs[c->nstrs], lit, len);
		st.mask = len;
		st.value = c->nstrs++;
	}
	if (st.src == SDT_BPF_FSRC_COMM)
		c->out->comm = 1;
	return push(c, n, st);
}

static int test_arg(struct compile *c, const struct filter_node *n)
{
	int idx = sdt_trace_event_desc__arg_index(c->d, c->f->names[n->name]);
	const struct sdt_trace_arg *a;
	const struct sdt_trace_field *fl;

	if (idx < 0)
		return push_const(c, n, 0); /* a name the event lacks */
	a = &c->d->args[idx];
	if (a->field < 0 || (size_t)a->field >= c->d->nfields)
		return push_const(c, n, 0); /* not recorded */
	fl = &c->d->fields[a->field];
	if (a->is_string && fl->is_data_loc && fl->size == 4) {
		if (fl->offset + 4 > SDT_BPF_FIXED_LIM)
			return refuse(c, n, "reads the first 256 bytes of a record only");
		return test_string(c, n,
				   (struct sdt_bpf_fstep){.src = SDT_BPF_FSRC_STR,
							  .off = (uint16_t)fl->offset});
	}
	if (a->is_string || fl->is_data_loc)
		return refuse(c, n, "does not compare strings of this kind");
	if (a->is_float)
		return refuse(c, n, "has no floating point");
	if (a->rebase)
		return refuse(c, n, "sees an address before it is rebased to the process");
	if (fl->size != a->size || fl->is_signed != a->is_signed ||
	    (fl->size != 1 && fl->size != 2 && fl->size != 4 && fl->size != 8))
		return refuse(c, n, "sees a field wider than the argument, or of another sign");
	if (fl->offset + fl->size > SDT_BPF_FIXED_LIM)
		return refuse(c, n, "reads the first 256 bytes of a record only");
	return test_number(c, n,
			   (struct sdt_bpf_fstep){.src = SDT_BPF_FSRC_RAW,
						  .size = (uint8_t)fl->size,
						  .is_signed = fl->is_signed,
						  .off = (uint16_t)fl->offset});
}

static int emit(struct compile *c, int id)
{
	const struct filter_node *n = &c->f->nodes[id];
	int err;

	switch (n->kind) {
	case FN_OR:
	case FN_AND:
		if ((err = emit(c, n->lhs)) || (err = emit(c, n->rhs)))
			return err;
		return push(c, n,
			    (struct sdt_bpf_fstep){.op = n->kind == FN_OR ? SDT_BPF_FOP_OR
									 : SDT_BPF_FOP_AND});
	case FN_NOT:
		if ((err = emit(c, n->lhs)))
			return err;
		return push(c, n, (struct sdt_bpf_fstep){.op = SDT_BPF_FOP_NOT});
	case FN_TEST:
		break;
	}
	switch (n->what) {
	case FNAME_PID:
		return test_number(c, n, (struct sdt_bpf_fstep){.src = SDT_BPF_FSRC_PID});
	case FNAME_TID:
		return test_number(c, n, (struct sdt_bpf_fstep){.src = SDT_BPF_FSRC_TID});
	case FNAME_CPU:
		return test_number(c, n, (struct sdt_bpf_fstep){.src = SDT_BPF_FSRC_CPU});
	case FNAME_COMM:
		return test_string(c, n, (struct sdt_bpf_fstep){.src = SDT_BPF_FSRC_COMM});
	case FNAME_ARG:
		break;
	}
	return test_arg(c, n);
}

int sdt_rec_bpf_filter_compile(const struct sdt_filter *f, const struct sdt_trace_event_desc *d,
			       struct sdt_bpf_filter *out)
{
	struct compile c = {.f = f, .d = d, .out = out};

	memset(out, 0, sizeof(*out));
	return emit(&c, f->root);
}
