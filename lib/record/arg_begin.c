/* SPDX-License-Identifier: MIT */
/* The start of an argument's description, the same for both engines (arg_begin.h). */
#include <errno.h>

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
