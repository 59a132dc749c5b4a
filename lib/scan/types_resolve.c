/* SPDX-License-Identifier: MIT */
/*
 * Choosing the types of a site: the event spec's first, then those of the provider type files
 * (struct sdt_types), else none. Apart from the type model (types.c), which spec.c and the `.d`
 * files build on: this file is above them both, so that nothing calls back down.
 */
#include "scan/file.h"
#include "scan/tapset.h"
#include "util/internal.h"
#include "scan/types.h"

/* Fill @out (the site's nargs entries, zeroed) from @types (@n <= nargs). */
static int copy_types(struct sdt_arg_type *out, const struct sdt_arg_type *types, size_t n,
		      unsigned int word_size)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (sdt_arg_type_copy(&out[i], &types[i]))
			return -ENOMEM;
		if (out[i].kind == SDT_TYPE_STRING)
			out[i].size = word_size;
	}
	return 0;
}

int sdt_types__file_mismatch(const struct sdt_types *t, const struct sdt_file *f,
			     const struct sdt_site *s)
{
	struct sdt_arg_type *decl = NULL;
	const char *origin = NULL;
	size_t n = 0;
	int err;

	if (!t)
		return 0;
	err = sdt_types__lookup(t, s->provider, s->name, sdt_file_word_size(f), &decl, &n, &origin);
	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	if (n != s->nargs)
		err = sdt_err(-EINVAL, "%s: %s:%s is declared with %zu arguments, the note has %zu",
			      origin, s->provider, s->name, n, s->nargs);
	else if (sdt_types__check(f, s, decl, n))
		err = sdt_err_prefix(-EINVAL, "%s", origin);
	sdt_arg_types__free(decl, n);
	return err;
}

/* The tapset that names @s, when its arguments fit the note's. */
static const struct sdt_tprobe *tapset_for(const struct sdt_types *t, const struct sdt_file *f,
					   const struct sdt_site *s, const char **origin)
{
	const struct sdt_tprobe *tp = sdt_types_tapset(t, f, s, origin);

	return tp && tp->nargs <= s->nargs ? tp : NULL;
}

/* A tapset's names into @res (the site's nargs entries, zeroed): 1, 0 (none), -ENOMEM. */
static int tapset_types(const struct sdt_types *t, const struct sdt_file *f,
			const struct sdt_site *s, struct sdt_arg_type *res)
{
	const struct sdt_tprobe *tp = tapset_for(t, f, s, NULL);
	unsigned int i;

	if (!tp)
		return 0;
	for (i = 0; i < tp->nargs; i++) {
		struct sdt_type_ctx ctx;

		if (!tp->args[i].name)
			continue;
		if (!(res[i].name = sdt_strdup(tp->args[i].name)))
			return sdt_err(-ENOMEM, "out of memory");
		if (!tp->args[i].is_string)
			continue;
		/* a string where the note has a pointer; else the note's own type, named */
		res[i].kind = SDT_TYPE_STRING;
		res[i].size = sdt_file_word_size(f);
		sdt_site_type_ctx(f, s, i, &ctx);
		if (sdt_type_fits(&s->args[i], &res[i], &ctx)) {
			res[i].kind = SDT_TYPE_DEFAULT;
			res[i].size = 0;
		}
	}
	return 1;
}

int sdt_types__names_origin(const struct sdt_types *t, const struct sdt_file *f,
			    const struct sdt_site *s, const char **origin)
{
	const char *o = sdt_types__origin(t, s->provider, s->name);
	struct sdt_arg_type *decl = NULL;
	size_t n = 0;

	*origin = NULL;
	if (!t)
		return SDT_TYPES_NONE;
	if (o) {
		/* used when its argument count is the note's */
		if (sdt_types__lookup(t, s->provider, s->name, sdt_file_word_size(f), &decl, &n,
				      NULL))
			return SDT_TYPES_NONE;
		sdt_arg_types__free(decl, n);
		if (n != s->nargs)
			return SDT_TYPES_NONE;
		*origin = o;
		return SDT_TYPES_FILE;
	}
	return tapset_for(t, f, s, origin) ? SDT_TYPES_TAPSET : SDT_TYPES_NONE;
}

int sdt_types__resolve(const struct sdt_types *t, const struct sdt_spec *spec,
		       const struct sdt_file *f, const struct sdt_site *s,
		       struct sdt_arg_type **out, size_t *n)
{
	unsigned int word = sdt_file_word_size(f);
	struct sdt_arg_type *res, *decl = NULL;
	size_t ndecl = 0;
	int err, source = SDT_TYPES_NONE;

	*out = NULL;
	*n = 0;
	res = calloc(s->nargs ? s->nargs : 1, sizeof(*res));
	if (!res)
		return sdt_err(-ENOMEM, "out of memory");

	if (spec && sdt_spec__has_types(spec)) {
		size_t ns = sdt_spec__type_count(spec);

		if (ns > s->nargs) {
			err = sdt_err(-EINVAL,
				      "%s:%s: the event spec names %zu arguments, but the "
				      "probe has %zu",
				      s->provider, s->name, ns, s->nargs);
			goto fail;
		}
		if (copy_types(res, sdt_spec__types(spec), ns, word)) {
			err = sdt_err(-ENOMEM, "out of memory");
			goto fail;
		}
		err = sdt_types__check(f, s, res, ns);
		if (err)
			goto fail;
		source = SDT_TYPES_SPEC;
	} else if (t) {
		err = sdt_types__lookup(t, s->provider, s->name, word, &decl, &ndecl, NULL);
		if (err && err != -ENOENT)
			goto fail;
		if (!err && ndecl == s->nargs) {
			size_t i;

			if (copy_types(res, decl, ndecl, word)) {
				err = sdt_err(-ENOMEM, "out of memory");
				goto fail;
			}
			/* a type whose size disagrees gives way to the note's; the name stays */
			for (i = 0; i < ndecl; i++) {
				struct sdt_type_ctx ctx;

				sdt_site_type_ctx(f, s, i, &ctx);
				if (sdt_type_fits(&s->args[i], &res[i], &ctx)) {
					res[i].kind = SDT_TYPE_DEFAULT;
					res[i].size = 0;
					res[i].is_signed = false;
				}
			}
			source = SDT_TYPES_FILE;
		} else if (err == -ENOENT) {
			err = tapset_types(t, f, s, res);
			if (err < 0)
				goto fail;
			source = err ? SDT_TYPES_TAPSET : SDT_TYPES_NONE;
		}
		sdt_err_clear();
	}
	sdt_arg_types__free(decl, ndecl);
	*out = res;
	*n = s->nargs;
	return source;
fail:
	sdt_arg_types__free(decl, ndecl);
	sdt_arg_types__free(res, s->nargs);
	return err;
}
