/* SPDX-License-Identifier: MIT */
/* A filter's tree evaluated on one event (include/sdtrace/filter.h), and its names checked. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/filter.h"
#include "util/internal.h"

void sdt_filter_kinds_free(struct sdt_filter *f)
{
	size_t i;

	for (i = 0; i < f->nkinds; i++)
		free(f->kinds[i].args);
	free(f->kinds);
	f->kinds = NULL;
	f->nkinds = f->last_kind = 0;
}

int sdt_filter__check_desc(const struct sdt_filter *f, const struct sdt_trace_event_desc *d)
{
	struct sdt_buf have = {0};
	size_t i, k;
	int err;

	for (i = 0; i < f->nnames; i++) {
		if (sdt_trace_event_desc__arg_index(d, f->names[i]) >= 0)
			continue;
		for (k = 0; k < sdt_trace_event_desc__arg_count(d); k++)
			sdt_buf_addf(&have, "%s%s", k ? ", " : "",
				     sdt_trace_event_desc__arg_name(d, k));
		err = sdt_err(-ENOENT, "filter '%s': %s:%s has no argument '%s' (%s%s)", f->text,
			      sdt_trace_event_desc__provider(d), sdt_trace_event_desc__name(d),
			      f->names[i], have.buf ? "its arguments: " : "it has no arguments",
			      have.buf ? have.buf : "");
		sdt_buf_free(&have);
		return err;
	}
	return 0;
}

/* The argument index of every name for @k, remembered: NULL on -ENOMEM (then nothing matches). */
static const int *kind_args(struct sdt_filter *f, const struct sdt_trace_kind *k)
{
	struct filter_kind *kinds;
	size_t i;
	int *args;

	/* events of one kind come in runs: the last one found is looked at first */
	if (f->nkinds && f->kinds[f->last_kind].kind == k)
		return f->kinds[f->last_kind].args;
	for (i = 0; i < f->nkinds; i++)
		if (f->kinds[i].kind == k) {
			f->last_kind = i;
			return f->kinds[i].args;
		}
	args = calloc(f->nnames ? f->nnames : 1, sizeof(*args));
	kinds = sdt_reallocarray(f->kinds, f->nkinds + 1, sizeof(*kinds));
	if (!args || !kinds) {
		free(args);
		if (kinds)
			f->kinds = kinds;
		return NULL;
	}
	f->kinds = kinds;
	for (i = 0; i < f->nnames; i++)
		args[i] = sdt_trace_event_desc__arg_index(sdt_trace_kind__desc(k), f->names[i]);
	kinds[f->nkinds].kind = k;
	kinds[f->nkinds].args = args;
	f->last_kind = f->nkinds++;
	return args;
}

static int sign(long double d)
{
	return d < 0 ? -1 : d > 0;
}

/* The value compared with the test's number: -1, 0, 1, or 2 when they cannot be compared. */
static int compare_number(const struct filter_node *n, const struct sdt_trace_value *v)
{
	uint64_t lit_u = (uint64_t)n->i;
	bool lit_big = !n->neg && n->i < 0; /* above INT64_MAX */

	if (v->kind == SDT_VALUE_FLOAT)
		return n->lit == FLIT_INT && !lit_big ? sign(v->ld - (long double)n->i)
						      : sign(v->ld - (long double)n->f);
	if (n->lit == FLIT_FLOAT)
		return v->kind == SDT_VALUE_INT ? sign((long double)v->i - n->f)
						: sign((long double)v->u - n->f);
	if (v->kind == SDT_VALUE_INT) {
		if (lit_big)
			return -1;
		return v->i < n->i ? -1 : v->i > n->i;
	}
	if (n->neg)
		return 1;
	return v->u < lit_u ? -1 : v->u > lit_u;
}

bool sdt_filter_op_holds(enum filter_op op, int c)
{
	switch (op) {
	case FOP_EQ:
		return c == 0;
	case FOP_NE:
		return c != 0;
	case FOP_LT:
		return c < 0;
	case FOP_LE:
		return c <= 0;
	case FOP_GT:
		return c > 0;
	case FOP_GE:
		return c >= 0;
	default:
		return false;
	}
}

static bool test_string(const struct filter_node *n, const char *s, size_t len)
{
	switch (n->op) {
	case FOP_TRUE:
		return len > 0;
	case FOP_EQ:
	case FOP_NE:
		return (strlen(n->str) == len && !memcmp(n->str, s, len)) == (n->op == FOP_EQ);
	case FOP_GLOB:
	case FOP_NGLOB:
		return (fnmatch(n->str, s, 0) == 0) == (n->op == FOP_GLOB);
	default:
		return false;
	}
}

static bool test_value(const struct filter_node *n, struct sdt_trace_value *v)
{
	if (v->kind == SDT_VALUE_UNAVAILABLE)
		return false;
	if (v->kind == SDT_VALUE_STRING)
		return n->lit == FLIT_STRING || n->lit == FLIT_NONE
			   ? (!n->has_mask && test_string(n, v->str, v->len))
			   : false;
	if (n->lit == FLIT_STRING)
		return false;
	if (n->has_mask) {
		if (v->kind == SDT_VALUE_FLOAT)
			return false;
		v->u = (v->kind == SDT_VALUE_INT ? (uint64_t)v->i : v->u) & n->mask;
		v->kind = SDT_VALUE_UINT;
	}
	if (n->op == FOP_TRUE)
		return v->kind == SDT_VALUE_FLOAT
			   ? v->ld != 0
			   : (v->kind == SDT_VALUE_INT ? v->i != 0 : v->u != 0);
	return sdt_filter_op_holds(n->op, compare_number(n, v));
}

static bool test(const struct filter_node *n, const int *args, const struct sdt_trace_event *ev)
{
	struct sdt_trace_value v = {.kind = SDT_VALUE_UINT};
	const char *comm;

	switch (n->what) {
	case FNAME_PID:
		v.u = sdt_trace_event__pid(ev);
		break;
	case FNAME_TID:
		v.u = sdt_trace_event__tid(ev);
		break;
	case FNAME_CPU:
		v.u = sdt_trace_event__cpu(ev);
		break;
	case FNAME_COMM:
		comm = sdt_trace_event__comm(ev);
		return comm && test_string(n, comm, strlen(comm));
	case FNAME_ARG:
		if (args[n->name] < 0 || sdt_trace_event__arg(ev, (size_t)args[n->name], &v))
			return false;
		break;
	}
	return test_value(n, &v);
}

static bool eval(const struct sdt_filter *f, int id, const int *args,
		 const struct sdt_trace_event *ev)
{
	const struct filter_node *n = &f->nodes[id];

	switch (n->kind) {
	case FN_OR:
		return eval(f, n->lhs, args, ev) || eval(f, n->rhs, args, ev);
	case FN_AND:
		return eval(f, n->lhs, args, ev) && eval(f, n->rhs, args, ev);
	case FN_NOT:
		return !eval(f, n->lhs, args, ev);
	case FN_TEST:
		return test(n, args, ev);
	}
	return false;
}

bool sdt_filter__match(const struct sdt_filter *f, const struct sdt_trace_event *ev)
{
	/* the per-kind cache is the only state evaluation changes (the header says so) */
	struct sdt_filter *mf = (struct sdt_filter *)f;
	const int *args = kind_args(mf, sdt_trace_event__kind(ev));

	return args && eval(f, f->root, args, ev);
}
