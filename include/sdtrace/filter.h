/* SPDX-License-Identifier: MIT */
/*
 * Filters: which events to keep, as an expression over their arguments and their thread, the
 * same grammar for `record/trace/stat --filter` (evaluated in the kernel where it can be) and
 * `report --filter` (evaluated on a recording).
 *
 *	expr   := or
 *	or     := and ( "||" and )*
 *	and    := unary ( "&&" unary )*
 *	unary  := "!" unary | "(" expr ")" | test
 *	test   := NAME [ "&" INT ] [ OP VALUE ]
 *	OP     := "==" | "!=" | "<" | "<=" | ">" | ">=" | "~" | "!~"
 *	VALUE  := INT (decimal, 0x hex, a leading -) | FLOAT | "string" | 'string'
 *
 * NAME is an argument by its name (from the event spec or a provider file: `funcname`), by its
 * number from 1 (`arg2`, as in `sdtrace list`), or one of `pid`, `tid`, `comm`, `cpu`. A test
 * with no OP is true when the value is not zero (a string: not empty). `~` and `!~` match a
 * string against a glob (fnmatch(3): `*`, `?`, `[...]`); `==` and `!=` compare strings exactly,
 * the other operators numbers. In a string, `\"`, `\\`, `\n` and `\t` are escapes.
 *
 * A test on an argument that was not recorded (unavailable, or an event kind that has no argument
 * of that name) is false, and so is a comparison of a string with a number: `!` of it is true.
 * sdt_filter__check_desc() tells beforehand which kinds lack a name.
 *
 * Example:
 *	struct sdt_trace_reader *r;
 *	const struct sdt_trace_event *ev;
 *	struct sdt_filter *f;
 *	size_t col;
 *	if (sdt_filter__parse("delta > 1000 && query ~ \"SELECT*\"", &f, &col) < 0)
 *		errx(2, "%s", sdt_errmsg());    // "... column 12: ..."
 *	if (sdt_trace_reader__open("sdtrace.data", NULL, &r) < 0)
 *		errx(1, "%s", sdt_errmsg());
 *	while (sdt_trace_reader__next(r, &ev) > 0)
 *		if (sdt_filter__match(f, ev))
 *			printf("%s\n", sdt_trace_event__name(ev));
 *	sdt_trace_reader__free(r);
 *	sdt_filter__free(f);
 */
#ifndef SDTRACE_FILTER_H
#define SDTRACE_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include <sdtrace/common.h>
#include <sdtrace/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sdt_filter;

/*
 * Parse @expr. Returns 0 and *out (free it with sdt_filter__free()), or -EINVAL with a message
 * "filter 'EXPR': column N: what is wrong" and the 1-based column in *err_col (may be NULL),
 * -ENOMEM.
 */
SDT_API int sdt_filter__parse(const char *expr, struct sdt_filter **out, size_t *err_col);
SDT_API void sdt_filter__free(struct sdt_filter *f);
/* The expression as given. */
SDT_API const char *sdt_filter__text(const struct sdt_filter *f);

/*
 * Whether every name @f uses is known for events of @d: 0, or -ENOENT with a message naming the
 * first unknown name, provider:event and the names it has.
 */
SDT_API int sdt_filter__check_desc(const struct sdt_filter *f,
				   const struct sdt_trace_event_desc *d);

/*
 * Does @ev pass? Names are resolved once per event kind and remembered in @f (so one filter is
 * not for two threads at once).
 */
SDT_API bool sdt_filter__match(const struct sdt_filter *f, const struct sdt_trace_event *ev);

/*
 * @f in the kernel's event filter language (tracefs events/.../filter, PERF_EVENT_IOC_SET_FILTER)
 * for the tracefs event of @d: 0 and *out (malloc'ed), or -ENOTSUP with a message saying which
 * part the kernel cannot evaluate (`pid`, floats, addresses, a mask compared to a value, a name
 * @d lacks), -ENOMEM.
 */
SDT_API int sdt_filter__ftrace(const struct sdt_filter *f, const struct sdt_trace_event_desc *d,
			       char **out);

#ifdef __cplusplus
}
#endif

#endif
