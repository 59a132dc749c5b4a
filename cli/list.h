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
	size_t nspecs;
	bool verbose;
	bool json;
	struct json j;
	bool errors; /* something went wrong: exit 1 at the end */
	const char **type_files; /* --types */
	size_t ntype_files;
	struct sdt_types *types;
};
void json_site(struct json *j, const char *path, const char *build_id, const struct sdt_site *s);
void text_site(struct list_opts *o, const struct sdt_file *f, const struct sdt_site *s, size_t n);

#endif
