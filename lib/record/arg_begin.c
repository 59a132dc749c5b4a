/* SPDX-License-Identifier: MIT */
/* The start of an argument's description, the same for both engines (arg_begin.h). */
#include <errno.h>
#include <string.h>

#include "record/arg_begin.h"
#include "util/internal.h"

int sdt_rec_arg_begin(const struct sdt_site *st, size_t i, const struct sdt_arg_type *type,
		      struct sdt_trace_arg *t)
{
	const struct sdt_arg *a = &st->args[i];

	t->name = type && type->name ? sdt_strdup(type->name) : sdt_asprintf("arg%zu", i + 1);
	t->named = type && type->name;
	t->spec = sdt_strdup(a->spec ? a->spec : "");
	t->size = a->size;
	t->field = -1;
	if (!t->name || !t->spec)
		return sdt_err(-ENOMEM, "out of memory");
	if (t->named && !sdt_type__valid_name(t->name))
		return sdt_err(-EINVAL, "%s:%s: '%s' is not a valid argument name", st->provider,
			       st->name, t->name);
	return 0;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

bool sdt_rec_arg_same(const struct sdt_trace_arg *p, const struct sdt_trace_arg *q)
{
	return !strcmp(p->name, q->name) && p->named == q->named && p->type == q->type &&
	       p->size == q->size && p->is_signed == q->is_signed && p->is_float == q->is_float &&
	       p->is_string == q->is_string && p->rebase == q->rebase &&
	       p->float_format == q->float_format && same_str(p->unavailable, q->unavailable);
}
