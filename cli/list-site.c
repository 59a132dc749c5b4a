/* SPDX-License-Identifier: MIT */
/*
 * sdtrace list: one site, as a JSON object or as the text of -v, whichever source it was listed
 * from (a file scanned now, or the cache), so that the two read the same.
 *
 * Each argument is shown with the name and type it will be recorded with: those of the event
 * spec's (name:type, ...) list, else of the provider type files (--types, ~/.config, shipped),
 * else of a user probe's definition; without any, the note's own size and sign. The type can
 * change the fetch ("8@%r12" typed string is fetched as "+0(%r12):string"): JSON gives both the
 * note's fetch ("fetch", which perf would write too) and the typed one ("typed_fetch").
 */
#include <stdlib.h>

#include "cli.h"
#include "list.h"

/* Where the names and types of a site's arguments came from: SDT_TYPES_* or a user probe. */
#define LIST_TYPES_PROBE 4

static const char *const source_names[] = {"none", "spec", "file", "tapset", "probe"};

/* A site's argument names and types, resolved once for its printing. */
struct site_types {
	struct sdt_arg_type *owned; /* from sdt_types__resolve() */
	const struct sdt_arg_type *t;
	size_t n;
	int source;  /* SDT_TYPES_* or LIST_TYPES_PROBE */
	bool failed; /* the spec's types do not fit (said): shown untyped */
};

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

/*
 * Resolve the names and types of @ls's arguments into @st (release with site_types_release()).
 * A spec whose types do not fit is an error (printed, exit 1 at the end); the site is still
 * shown, untyped.
 */
static void site_types_get(struct list_opts *o, const struct list_site *ls, struct site_types *st)
{
	int source;

	*st = (struct site_types){0};
	if (ls->probe_types) {
		st->t = ls->probe_types;
		st->n = ls->nprobe_types;
		st->source = LIST_TYPES_PROBE;
		return;
	}
	source =
	    sdt_types__resolve(o->types, typed_spec(o, ls->s), ls->f, ls->s, &st->owned, &st->n);
	if (source < 0) {
		cli_error("%s", sdt_errmsg());
		o->errors = true;
		st->owned = NULL;
		st->n = 0;
		st->failed = true;
		return;
	}
	st->t = st->owned;
	st->source = source;
}

/* The provider file's or tapset's "FILE:LINE" that named @ls's arguments, else NULL. */
static const char *names_origin(const struct list_opts *o, const struct list_site *ls,
				const struct site_types *st)
{
	const char *origin = NULL;

	if (st->source == SDT_TYPES_FILE || st->source == SDT_TYPES_TAPSET)
		sdt_types__names_origin(o->types, ls->f, ls->s, &origin);
	return origin;
}

/* -v: "names from ...": where the names of @ls's arguments came from. */
static void text_names_from(const struct list_opts *o, const struct list_site *ls,
			    const struct site_types *st)
{
	const char *origin = names_origin(o, ls, st);

	if (!sdt_site__arg_count(ls->s))
		return;
	fputs("    ", stdout);
	if (st->source == SDT_TYPES_SPEC)
		puts("names from the event spec");
	else if (st->source == LIST_TYPES_PROBE)
		puts("names from the user probe's definition");
	else if (origin) {
		/* a path anyone may have chosen (SDTRACE_TAPSET_DIR): escaped */
		fputs(st->source == SDT_TYPES_TAPSET ? "names from tapset " : "names from ", stdout);
		cli_put_escaped(stdout, origin);
		putchar('\n');
	} else
		puts("no names (argN)");
}

static void site_types_release(struct site_types *st)
{
	sdt_arg_types__free(st->owned, st->n);
}

/* The type of argument @i: the resolved one, else the note's own (SDT_TYPE_DEFAULT, unnamed). */
static const struct sdt_arg_type *arg_type(const struct site_types *st, size_t i)
{
	static const struct sdt_arg_type note_type = {.kind = SDT_TYPE_DEFAULT};

	return st->source != SDT_TYPES_NONE && i < st->n ? &st->t[i] : &note_type;
}

/* The keyword of the type argument @a is fetched as (@t's, or the note's for DEFAULT); "" none. */
static const char *type_keyword(const struct sdt_arg *a, const struct sdt_arg_type *t)
{
	struct sdt_arg_type note = {
	    .kind = sdt_arg__is_float(a) ? SDT_TYPE_FLOAT : SDT_TYPE_INT,
	    .size = sdt_arg__size(a),
	    .is_signed = sdt_arg__is_signed(a),
	};

	if (t->kind != SDT_TYPE_DEFAULT)
		return sdt_type__keyword(t);
	/* a long double (16f) is no "double" */
	if (note.kind == SDT_TYPE_FLOAT && note.size != 4 && note.size != 8)
		return "";
	return sdt_type__keyword(&note);
}

static void json_string_or_null(struct json *j, const char *s)
{
	if (s && *s)
		json_string(j, s);
	else
		json_null(j);
}

/* Argument @i of @ls as a JSON object: its number, name and type, the note's, both fetches. */
static void json_arg(struct json *j, const struct list_site *ls, size_t i,
		     const struct sdt_arg_type *t)
{
	const struct sdt_arg *a = sdt_site__arg(ls->s, i);
	char *fetch = NULL;

	json_begin_object(j);
	json_key(j, "n");
	json_uint(j, i + 1);
	json_key(j, "name");
	json_string_or_null(j, t->name);
	json_key(j, "type");
	json_string_or_null(j, type_keyword(a, t));
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
	json_key(j, "typed_fetch");
	if (!sdt_arg__typed_fetch(ls->f, ls->s, i, t, &fetch)) {
		json_string(j, fetch);
	} else {
		json_null(j);
		json_key(j, "typed_unavailable");
		json_string(j, sdt_arg__fetch(a) ? sdt_errmsg() : sdt_arg__unavailable(a));
	}
	free(fetch);
	json_end_object(j);
}

void list_site_json(struct list_opts *o, const struct list_site *ls)
{
	struct json *j = &o->j;
	const struct sdt_site *s = ls->s;
	struct site_types st;
	size_t i;

	site_types_get(o, ls, &st);
	json_begin_object(j);
	json_key(j, "provider");
	json_string(j, sdt_site__provider(s));
	json_key(j, "name");
	json_string(j, sdt_site__name(s));
	json_key(j, "path");
	json_string(j, ls->path);
	json_key(j, "build_id");
	json_string(j, ls->build_id);
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
	json_key(j, "types_from");
	json_string(j, source_names[st.source]);
	json_key(j, "names_from"); /* "FILE:LINE" of the provider file or tapset, else null */
	json_string_or_null(j, names_origin(o, ls, &st));
	json_key(j, "args");
	json_begin_array(j);
	for (i = 0; i < sdt_site__arg_count(s); i++)
		json_arg(j, ls, i, arg_type(&st, i));
	json_end_array(j);
	json_end_object(j);
	site_types_release(&st);
}

/* One argument with its name and type: "arg2  funcname:string  8@%r12 -> +0(%r12):string". */
static void text_typed_arg(const struct list_site *ls, size_t i, const struct sdt_arg_type *t)
{
	const struct sdt_arg *a = sdt_site__arg(ls->s, i);
	const char *kw = type_keyword(a, t);
	char *fetch = NULL;

	printf("    arg%zu  %s%s%s  %s -> ", i + 1, t->name ? t->name : "",
	       t->name && *kw ? ":" : "", kw, sdt_arg__spec(a));
	if (!sdt_arg__typed_fetch(ls->f, ls->s, i, t, &fetch))
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

/* One argument without names or types: "arg1  -4@%ebx  %bx:s32". */
static void text_arg(const struct sdt_arg *a, size_t i)
{
	printf("    arg%zu  %-20s ", i + 1, sdt_arg__spec(a));
	if (sdt_arg__fetch(a))
		printf("%s%s\n", sdt_arg__fetch(a),
		       sdt_arg__is_float(a)	  ? "  (float bits)"
		       : sdt_arg__needs_rebase(a) ? "  (address, rebased at report)"
						  : "");
	else
		printf("unavailable: %s\n", sdt_arg__unavailable(a));
}

void list_probe_notes(const struct list_opts *o, const char *provider, const char *name)
{
	const char *key, *text;
	size_t i;

	/* the parser let no control byte into a note: printed as they are */
	for (i = 0; !sdt_types__note(o->types, provider, name, i, &key, &text); i++)
		printf("  %s: %s\n", key, text);
}

void list_site_text(struct list_opts *o, const struct list_site *ls, size_t n)
{
	const struct sdt_site *s = ls->s;
	struct site_types st;
	size_t i;

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
	site_types_get(o, ls, &st);
	if (!st.failed && (st.source == SDT_TYPES_NONE || st.source == SDT_TYPES_FILE) &&
	    sdt_types__file_mismatch(o->types, ls->f, s))
		printf("    types: %s: %s\n",
		       st.source == SDT_TYPES_NONE ? "not used" : "partly used", sdt_errmsg());
	text_names_from(o, ls, &st);
	for (i = 0; i < sdt_site__arg_count(s); i++) {
		if (st.source != SDT_TYPES_NONE)
			text_typed_arg(ls, i, arg_type(&st, i));
		else
			text_arg(sdt_site__arg(s, i), i);
	}
	site_types_release(&st);
}

int list_load_types(struct list_opts *o)
{
	if (sdt_types__new(&o->types) ||
	    sdt_types__load_default(o->types, o->type_files, o->ntype_files) < 0) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	cli_types_warnings(o->types);
	return 0;
}
