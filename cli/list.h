/* SPDX-License-Identifier: MIT */
/*
 * What sdtrace list shares between its two sources, the files it scans (-x, -p, --build-id:
 * cmd-list.c) and the cache (list-cache.c): the options, and the printing of one site
 * (list-site.c), so that a site reads the same from either.
 */
#ifndef SDTRACE_CLI_LIST_H
#define SDTRACE_CLI_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "json.h"
#include "sdtrace/sdtrace.h"

struct list_opts {
	struct sdt_spec **specs;
	const char **spec_paths; /* each spec's binary as listed (a bare name: the file found) */
	char **found;		 /* the files found for bare names, owned */
	size_t nfound;
	size_t nspecs;
	bool verbose;
	bool json;
	struct json j;
	bool errors; /* something went wrong: exit 1 at the end */
	const char **type_files; /* --types */
	size_t ntype_files;
	struct sdt_types *types;
};
/* One site to print, from either source. Everything is borrowed. */
struct list_site {
	const char *path;     /* as the user knows it (and can give it back in a pattern) */
	const char *build_id; /* NULL: the file has none */
	const struct sdt_file *f;
	const struct sdt_site *s;
	/* a user probe's argument names (sdt_target__types()[k]), used instead of type files */
	const struct sdt_arg_type *probe_types;
	size_t nprobe_types;
};

/* sdtrace list from the cache (list-cache.c), for @o's patterns. Returns the exit code. */
int list_cache(struct list_opts *o);

/* Load the provider type files into o->types (--types, then the default directories). */
int list_load_types(struct list_opts *o);
/* Site @ls as one JSON object in o->j: every key of the man page, whichever the source. */
void list_site_json(struct list_opts *o, const struct list_site *ls);
/*
 * Under a provider:event line with -v: the provider files' notes on it ("  needs: ..."), those
 * sdtrace acts on and any other.
 */
void list_probe_notes(const struct list_opts *o, const char *provider, const char *name);
/* Site @ls, the @n-th of its provider:event, as the lines of -v: address, offsets, arguments. */
void list_site_text(struct list_opts *o, const struct list_site *ls, size_t n);

#endif
