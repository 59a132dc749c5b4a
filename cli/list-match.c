/* SPDX-License-Identifier: MIT */
/*
 * sdtrace list's patterns, for either source (cmd-list.c: files and processes; list-cache.c:
 * the cache): which sites they want, and what to say of those that matched nothing.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "list.h"

/* A pattern naming a binary (/usr/bin/python3.11:%python:gc__*) only matches in that binary. */
bool list_wanted(struct list_opts *o, const char *provider, const char *name, const char *path)
{
	const char *p;
	bool any = false;
	size_t i;

	if (!o->nspecs)
		return true;
	for (i = 0; i < o->nspecs; i++) {
		/* a glob for the binary matches the path shown; a name, the file found for it */
		p = sdt_spec__path(o->specs[i]);
		if (p && path &&
		    (strpbrk(p, "*?[")
			 ? fnmatch(p, path, 0) != 0
			 : strcmp(o->spec_paths[i] ? o->spec_paths[i] : p, path) != 0))
			continue;
		if (sdt_spec__match(o->specs[i], provider, name)) {
			o->matched[i] = true;
			any = true;
		}
	}
	return any;
}

/* Does the pattern name provider @prov? (in "provider:event" @names) */
static bool has_provider(const char *const *names, size_t n, const char *prov)
{
	size_t i, pl = strlen(prov);

	if (!strncmp(prov, "sdt_", 4) && !has_provider(names, n, prov + 4))
		return false;
	for (i = 0; i < n; i++) {
		if (!strncmp(names[i], prov, pl) && names[i][pl] == ':')
			return true;
	}
	return false;
}

void list_say_unmatched(const struct list_opts *o, const char *const *names, size_t n,
			const char *where, bool cache)
{
	size_t i;

	for (i = 0; i < o->nspecs; i++) {
		char *hint;

		if (o->matched[i])
			continue;
		hint = cli_hint(o->specs[i], names, n);
		if (!hint && cache && !has_provider(names, n, sdt_spec__provider(o->specs[i])))
			hint = strdup(" (add binaries with 'sdtrace cache add PATH')");
		cli_note("no SDT event matches '%s' %s%s", o->spec_text[i], where,
			 hint ? hint : "");
		free(hint);
	}
}
