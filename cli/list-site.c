/* SPDX-License-Identifier: MIT */
/* sdtrace list: one site, as JSON or as the text of -v, whichever source it was listed from. */
#include <stdlib.h>

#include "cli.h"
#include "list.h"

void json_site(struct json *j, const char *path, const char *build_id,
		      const struct sdt_site *s)
{
	size_t i;

	json_begin_object(j);
	json_key(j, "provider");
	json_string(j, sdt_site__provider(s));
	json_key(j, "name");
	json_string(j, sdt_site__name(s));
	json_key(j, "path");
	json_string(j, path);
	json_key(j, "build_id");
	json_string(j, build_id);
	json_key(j, "address");
	json_uint(j, sdt_site__address(s));
	json_key(j, "file_offset");
	json_uint(j, sdt_site__file_offset(s));
	json_key(j, "semaphore");
	if (sdt_site__has_semaphore(s))
		json_uint(j, sdt_site__semaphore(s));
	else
		json_null(j);
	json_key(j, "semaphore_offset");
	if (sdt_site__has_semaphore_offset(s))
		json_uint(j, sdt_site__semaphore_offset(s));
	else
		json_null(j);
	json_key(j, "args");
	json_begin_array(j);
	for (i = 0; i < sdt_site__arg_count(s); i++) {
		const struct sdt_arg *a = sdt_site__arg(s, i);

		json_begin_object(j);
		json_key(j, "spec");
		json_string(j, sdt_arg__spec(a));
		json_key(j, "size");
		json_uint(j, sdt_arg__size(a));
		json_key(j, "signed");
		json_bool(j, sdt_arg__is_signed(a));
		json_key(j, "float");
		json_bool(j, sdt_arg__is_float(a));
		json_key(j, "fetch");
		json_string(j, sdt_arg__fetch(a));
		if (!sdt_arg__fetch(a)) {
			json_key(j, "unavailable");
			json_string(j, sdt_arg__unavailable(a));
		}
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

/* The first pattern matching @s that carries typed arguments, or NULL. */
static const struct sdt_spec *typed_spec(const struct list_opts *o, const struct sdt_site *s)
{
	size_t i;

	for (i = 0; i < o->nspecs; i++) {
		if (sdt_spec__has_types(o->specs[i]) &&
		    sdt_spec__match(o->specs[i], sdt_site__provider(s), sdt_site__name(s)))
			return o->specs[i];
	}
	return NULL;
}

/* One argument with its name and type: "arg2  funcname:string  8@%r12 -> +0(%r12):string". */
static void text_typed_arg(const struct sdt_file *f, const struct sdt_site *s, size_t i,
			   const struct sdt_arg_type *t)
{
	const struct sdt_arg *a = sdt_site__arg(s, i);
	const char *kw = sdt_type__keyword(t);
	char *fetch = NULL;

	if (t->kind == SDT_TYPE_DEFAULT) {
		/* the note's own type */
		struct sdt_arg_type note = {
			.kind = sdt_arg__is_float(a) ? SDT_TYPE_FLOAT : SDT_TYPE_INT,
			.size = sdt_arg__size(a),
			.is_signed = sdt_arg__is_signed(a),
		};

		kw = sdt_type__keyword(&note);
	}

	printf("    arg%zu  %s%s%s  %s -> ", i + 1, t->name ? t->name : "",
	       t->name && *kw ? ":" : "", kw, sdt_arg__spec(a));
	if (!sdt_arg__typed_fetch(f, s, i, t, &fetch))
		printf("%s%s\n", fetch,
		       t->kind == SDT_TYPE_DEFAULT && sdt_arg__is_float(a) ? "  (float bits)"
		       : sdt_arg__needs_rebase(a) && t->kind != SDT_TYPE_STRING
			       ? "  (address, rebased at report)"
			       : "");
	else if (!sdt_arg__fetch(a))
		printf("unavailable: %s\n", sdt_arg__unavailable(a));
	else
		printf("unavailable as %s: %s\n", kw, sdt_errmsg());
	free(fetch);
}

void text_site(struct list_opts *o, const struct sdt_file *f, const struct sdt_site *s,
		      size_t n)
{
	struct sdt_arg_type *types = NULL;
	size_t i, ntypes = 0;
	int source;

	printf("  site %zu: address 0x%llx, file offset 0x%llx", n,
	       (unsigned long long)sdt_site__address(s),
	       (unsigned long long)sdt_site__file_offset(s));
	if (sdt_site__has_semaphore(s)) {
		printf(", semaphore 0x%llx", (unsigned long long)sdt_site__semaphore(s));
		if (sdt_site__has_semaphore_offset(s))
			printf(" (file offset 0x%llx)",
			       (unsigned long long)sdt_site__semaphore_offset(s));
		else
			printf(" (file offset unknown)");
	}
	putchar('\n');
	source = sdt_types__resolve(o->types, typed_spec(o, s), f, s, &types, &ntypes);
	if (source < 0) {
		cli_error("%s", sdt_errmsg());
		o->errors = true;
	} else if (source != SDT_TYPES_SPEC && sdt_types__file_mismatch(o->types, f, s)) {
		printf("    types: %s: %s\n", source == SDT_TYPES_NONE ? "not used" : "partly used",
		       sdt_errmsg());
	}
	for (i = 0; i < sdt_site__arg_count(s); i++) {
		const struct sdt_arg *a = sdt_site__arg(s, i);

		if (source > 0) {
			text_typed_arg(f, s, i, &types[i]);
			continue;
		}
		printf("    arg%zu  %-20s ", i + 1, sdt_arg__spec(a));
		if (sdt_arg__fetch(a))
			printf("%s%s\n", sdt_arg__fetch(a),
			       sdt_arg__is_float(a) ? "  (float bits)"
			       : sdt_arg__needs_rebase(a) ? "  (address, rebased at report)"
							   : "");
		else
			printf("unavailable: %s\n", sdt_arg__unavailable(a));
	}
	sdt_arg_types__free(types, ntypes);
}
