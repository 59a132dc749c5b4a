/* SPDX-License-Identifier: MIT */
/* The start of an argument's description, the same for both engines (arg_begin.c). */
#ifndef SDT_ARG_BEGIN_H
#define SDT_ARG_BEGIN_H

#include <stdbool.h>
#include <stddef.h>

#include "scan/file.h"
#include "sdtrace/types.h"
#include "trace/trace_event.h"

/*
 * Argument @i of site @st with @type (NULL: the note's): @t's name (the type's, else "argN"),
 * spec and size, no field yet. 0, -ENOMEM, or -EINVAL for a name that is no argument name.
 */
int sdt_rec_arg_begin(const struct sdt_site *st, size_t i, const struct sdt_arg_type *type,
		      struct sdt_trace_arg *t);

/* Do @p and @q describe an argument alike (name, type, size, sign, kind, reason unavailable)? */
bool sdt_rec_arg_same(const struct sdt_trace_arg *p, const struct sdt_trace_arg *q);

#endif
