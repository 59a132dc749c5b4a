/* SPDX-License-Identifier: MIT */
/*
 * Event specs: what a user types to name SDT events.
 *
 *	%python:gc__start           provider:event ('%' optional)
 *	sdt_python:gc__start        perf's group name, accepted
 *	%python:gc__*  *:gc__*      shell globs in either part
 *	%python                     every event of a provider (= %python:*)
 *	/usr/bin/python3.11:%python:gc__start    the binary named inline
 *	libstdc++.so.6:%libstdcxx:throw          a bare name: searched (sdtrace/find.h)
 *	%python:function__entry(filename:string, funcname:string, lineno)
 *	                            names and types of the arguments, positional: each
 *	                            name[:type] (see sdtrace/types.h); name alone keeps the
 *	                            note's type
 *
 * Example:
 *	struct sdt_spec *s;
 *	if (sdt_spec__parse("%python:gc__*", &s) == 0) {
 *		bool yes = sdt_spec__match(s, "python", "gc__start");
 *		sdt_spec__free(s);
 *	}
 */
#ifndef SDTRACE_SPEC_H
#define SDTRACE_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include <sdtrace/common.h>
#include <sdtrace/types.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sdt_spec;

/* Parse @text. Returns 0 and *out, or -EINVAL (message in sdt_errmsg()) / -ENOMEM. */
SDT_API int sdt_spec__parse(const char *text, struct sdt_spec **out);
SDT_API void sdt_spec__free(struct sdt_spec *s);
/* Does provider:name match? perf's "sdt_" prefix on the spec's provider is also tried. */
SDT_API bool sdt_spec__match(const struct sdt_spec *s, const char *provider, const char *name);
/*
 * The binary named inline, or NULL: a path ("/usr/bin/app", "./app") or a bare name given before
 * ":%" ("libstdc++.so.6:%libstdcxx:throw"), which the library finds as sdt_find_binary() does.
 * Borrowed until sdt_spec__free().
 */
SDT_API const char *sdt_spec__path(const struct sdt_spec *s);
/* The provider and event patterns ("*" when absent), and whether either has a glob. */
SDT_API const char *sdt_spec__provider(const struct sdt_spec *s);
SDT_API const char *sdt_spec__event(const struct sdt_spec *s);
SDT_API bool sdt_spec__is_glob(const struct sdt_spec *s);
/*
 * Whether the spec ends with a typed argument list "(name[:type], ...)" (possibly empty "()"),
 * its entries, in argument order (kind SDT_TYPE_DEFAULT for a name alone; ->size 0 for string).
 * Borrowed until sdt_spec__free(); sdt_spec__type() is NULL when @i is out of range.
 */
SDT_API bool sdt_spec__has_types(const struct sdt_spec *s);
SDT_API size_t sdt_spec__type_count(const struct sdt_spec *s);
SDT_API const struct sdt_arg_type *sdt_spec__types(const struct sdt_spec *s);
SDT_API const struct sdt_arg_type *sdt_spec__type(const struct sdt_spec *s, size_t i);
/*
 * "Did you mean": the names among @names ("provider:event", e.g. sdt_cache__event_names(), the
 * sites of a file, the events of a recording) nearest to what @s asks for, those @s matches
 * left out. Near: an edit distance (insert, delete, replace or swap two neighbours; case is
 * free) on provider and event of at most a quarter of the characters typed, one at least, where
 * a glob of @s takes what it matches at no cost. The nearest (up to 3, in @names' order) are
 * written as specs, a glob of @s kept where it matched ("%python:*"), joined as in a sentence:
 * "%python:gc__start", "%a:b or %a:c", "%a:b, %a:c or %a:d".
 * Returns 0 with *out (free() it; NULL when nothing is near enough) or -ENOMEM.
 */
SDT_API int sdt_spec__suggest(const struct sdt_spec *s, const char *const *names, size_t n,
			      char **out);

#ifdef __cplusplus
}
#endif

#endif
