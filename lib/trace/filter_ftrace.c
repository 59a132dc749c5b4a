/* SPDX-License-Identifier: MIT */
/*
 * A filter in the kernel's event filter language (Documentation/trace/events.rst, "Event
 * filtering"), written against the fields of one tracefs event: what PERF_EVENT_IOC_SET_FILTER
 * takes. The kernel compares a field by its own type (signed or not, its size), strings of
 * __data_loc fields with ==, != and ~ (a glob); `common_pid` is the thread, `COMM` and `CPU` the
 * generic fields. What it cannot say is refused with the reason, for the caller to evaluate in
 * user space.
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "trace/filter.h"
#include "trace/trace_event.h"
#include "util/internal.h"

static const char *const op_text[] = {
    [FOP_EQ] = "==", [FOP_NE] = "!=", [FOP_LT] = "<",	[FOP_LE] = "<=",
    [FOP_GT] = ">",  [FOP_GE] = ">=", [FOP_GLOB] = "~", [FOP_NGLOB] = "~",
};

static int refuse(const struct sdt_filter *f, const struct filter_node *n, const char *why)
{
	return sdt_err(-ENOTSUP, "filter '%s': column %zu: the kernel's event filter %s", f->text,
		       n->col, why);
}

static int render_string(struct sdt_buf *b, const struct sdt_filter *f, const struct filter_node *n,
			 const char *field)
{
	if (n->op == FOP_TRUE || n->lit != FLIT_STRING)
		return refuse(f, n, "compares a string field only with a \"string\"");
	if (strchr(n->str, '"'))
		return refuse(f, n, "has no escape for '\"' inside a string");
	return sdt_buf_addf(b, "%s%s %s \"%s\"%s", n->op == FOP_NGLOB ? "!(" : "", field,
			    op_text[n->op], n->str, n->op == FOP_NGLOB ? ")" : "");
}

static int render_number(struct sdt_buf *b, const struct sdt_filter *f, const struct filter_node *n,
			 const char *field, bool is_signed)
{
	if (n->lit == FLIT_STRING)
		return refuse(f, n, "compares a number field only with a number");
	if (n->lit == FLIT_FLOAT)
		return refuse(f, n, "has no floating point");
	if (n->has_mask && n->op != FOP_TRUE)
		return refuse(f, n, "tests a mask only for not zero (NAME & MASK)");
	if (n->has_mask)
		return sdt_buf_addf(b, "%s & 0x%" PRIx64, field, n->mask);
	if (n->op == FOP_TRUE)
		return sdt_buf_addf(b, "%s != 0", field);
	if (n->neg && !is_signed)
		return refuse(f, n, "compares an unsigned field only with a value >= 0");
	if (!n->neg && n->i < 0 && is_signed)
		return refuse(f, n, "compares a signed field only with a value that fits it");
	if (n->neg)
		return sdt_buf_addf(b, "%s %s %" PRId64, field, op_text[n->op], n->i);
	return sdt_buf_addf(b, "%s %s %" PRIu64, field, op_text[n->op], (uint64_t)n->i);
}

static int render_arg(struct sdt_buf *b, const struct sdt_filter *f, const struct filter_node *n,
		      const struct sdt_trace_event_desc *d)
{
	int idx = sdt_trace_event_desc__arg_index(d, f->names[n->name]);
	const struct sdt_trace_arg *a;
	const struct sdt_trace_field *fl;

	if (idx < 0)
		return refuse(f, n, "has no argument of that name in this event");
	a = &d->args[idx];
	if (a->field < 0 || (size_t)a->field >= d->nfields)
		return refuse(f, n, "has no field for an argument that is not recorded");
	fl = &d->fields[a->field];
	if (a->is_float)
		return refuse(f, n, "has no floating point");
	if (a->rebase)
		return refuse(f, n, "sees an address before it is rebased to the process");
	if (a->is_string || fl->is_data_loc)
		return render_string(b, f, n, fl->name);
	if (n->op == FOP_GLOB || n->op == FOP_NGLOB)
		return refuse(f, n, "matches a glob only on strings");
	/* a field wider than the argument (a shared event's slot) holds bits the argument has not */
	if (fl->size != a->size || fl->is_signed != a->is_signed)
		return refuse(f, n, "sees a field wider than the argument, or of another sign");
	return render_number(b, f, n, fl->name, fl->is_signed);
}

static int render(struct sdt_buf *b, const struct sdt_filter *f, int id,
		  const struct sdt_trace_event_desc *d)
{
	const struct filter_node *n = &f->nodes[id];
	int err;

	switch (n->kind) {
	case FN_OR:
	case FN_AND:
		if ((err = sdt_buf_addstr(b, "(")) || (err = render(b, f, n->lhs, d)) ||
		    (err = sdt_buf_addstr(b, n->kind == FN_OR ? " || " : " && ")) ||
		    (err = render(b, f, n->rhs, d)))
			return err;
		return sdt_buf_addstr(b, ")");
	case FN_NOT:
		if ((err = sdt_buf_addstr(b, "!(")) || (err = render(b, f, n->lhs, d)))
			return err;
		return sdt_buf_addstr(b, ")");
	case FN_TEST:
		break;
	}
	switch (n->what) {
	case FNAME_PID:
		return refuse(f, n, "knows the thread (tid), not the process (pid)");
	case FNAME_TID:
		return render_number(b, f, n, "common_pid", true);
	case FNAME_CPU:
		return render_number(b, f, n, "CPU", true);
	case FNAME_COMM:
		return render_string(b, f, n, "COMM");
	case FNAME_ARG:
		break;
	}
	return render_arg(b, f, n, d);
}

int sdt_filter__ftrace(const struct sdt_filter *f, const struct sdt_trace_event_desc *d, char **out)
{
	struct sdt_buf b = {0};
	int err;

	*out = NULL;
	if ((err = render(&b, f, f->root, d)) < 0) {
		sdt_buf_free(&b);
		return err == -ENOMEM || err == -ENOTSUP ? err : sdt_err(-ENOMEM, "out of memory");
	}
	*out = sdt_buf_take(&b);
	return *out ? 0 : sdt_err(-ENOMEM, "out of memory");
}
