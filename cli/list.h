/* SPDX-License-Identifier: MIT */
/*
 * What sdtrace list shares between its two sources, the files it scans (-x, -p, --build-id:
 * cmd-list.c) and the cache (list-cache.c): the options, the patterns (list-match.c), and the
 * printing of one site (list-site.c), so that a site reads the same from either.
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
	bool errors; /* something went wrong: exit 2 at the end */
	const char **spec_text; /* per spec: as given */
	bool *matched;		/* per spec: did it match a site listed? */
	size_t listed; /* provider:event lines (or JSON sites) printed */
	char **names;  /* "provider:event" of every site scanned (-x, -p): for "did you mean" */
	size_t nnames, names_cap;
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

/* Exit codes of list, as grep's: something listed, nothing matched, an error. */
#define LIST_FOUND 0
#define LIST_NOTHING 1
#define LIST_ERROR 2

/* sdtrace list from the cache (list-cache.c), for @o's patterns. Returns the exit code. */
int list_cache(struct list_opts *o);
/*
 * Does @o want site provider:@name (list-match.c) (no patterns: every site)? Marks each pattern that matches.
 * @path: the file the site is listed under (a pattern naming a binary matches only there).
 */
bool list_wanted(struct list_opts *o, const char *provider, const char *name, const char *path);
/*
 * Say on stderr, for each pattern that matched nothing, that it did not, with the nearest of
 * @names ("did you mean"); @where: "in the cache 'DIR'", "in 'FILE'"; @cache: tell how to add
 * binaries when no name of the pattern's provider is there.
 */
void list_say_unmatched(const struct list_opts *o, const char *const *names, size_t n,
			const char *where, bool cache);

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
