/* SPDX-License-Identifier: MIT */
/*
 * DTrace provider files: the `.d` parser (see dfile.h); the set of loaded declarations behind
 * struct sdt_types (sdtrace/types.h) that it fills is dfile_set.c.
 *
 * A provider file is what `dtrace -h -s` turns into a header; Linux builds of the same projects
 * use it through systemtap's dtrace script, so the projects ship it (CPython's Include/pydtrace.d,
 * PostgreSQL's src/backend/utils/probes.d, OpenJDK's hotspot.d). Only `provider` blocks matter
 * here; everything else D allows at the top level (translators, inline constants, pragmas) is
 * skipped. The parser is a small lexer plus a recursive-descent reader with every count bounded:
 * the file may come from anyone (a user directory, a --types argument). The lexer is
 * dfile_lex.c; this file reads the declarations.
 */
#include <stdio.h>
#include <string.h>

#include "scan/dfile.h"
#include "scan/dfile_lex.h"
#include "util/internal.h"
#include "scan/types.h"

static bool type_keyword(const char *w)
{
	static const char *const kws[] = {
	    "const", "volatile", "restrict", "__restrict", "register", "unsigned", "signed",
	    "short", "long",	 "int",	     "char",	   "float",    "double",   "bool",
	    "_Bool", "void",	 "struct",   "union",	   "enum",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kws); i++) {
		if (!strcmp(w, kws[i]))
			return true;
	}
	return false;
}

/* Build one parameter from its tokens. */
static int make_param(struct lexer *lx, struct ptok *t, size_t n, bool fnptr, unsigned int line,
		      const char *probe, struct sdt_dparam *out)
{
	struct sdt_buf b = {0};
	size_t i, arrays = 0;
	const char *name = NULL;

	/* name[N]: an array parameter is a pointer */
	while (n && !t[n - 1].ident && !strcmp(t[n - 1].text, "]")) {
		size_t j = n - 1;

		while (j && strcmp(t[j].text, "["))
			j--;
		if (strcmp(t[j].text, "["))
			return sdt_dlex_err(lx, line, "unbalanced ']' in a parameter of '%s'",
					    probe);
		n = j;
		arrays++;
	}
	if (!n)
		return sdt_dlex_err(lx, line, "a parameter of '%s' has no type", probe);
	if (n >= 2 && t[n - 1].ident && !type_keyword(t[n - 1].text) &&
	    !(t[n - 2].ident &&
	      (!strcmp(t[n - 2].text, "struct") || !strcmp(t[n - 2].text, "union") ||
	       !strcmp(t[n - 2].text, "enum")))) {
		name = t[n - 1].text;
		n--;
	}
	if (fnptr) {
		name = NULL;
		if (sdt_buf_addstr(&b, "void *"))
			goto nomem;
	} else {
		for (i = 0; i < n; i++) {
			if (!t[i].ident && strcmp(t[i].text, "*")) {
				sdt_buf_free(&b);
				return sdt_dlex_err(lx, line,
						    "unexpected '%s' in a parameter of '%s'",
						    t[i].text, probe);
			}
			if (sdt_dlex_add_type_text(lx, &b, t[i].text))
				goto nomem;
		}
		for (i = 0; i < arrays; i++) {
			if (sdt_buf_addstr(&b, " *"))
				goto nomem;
		}
	}
	if (b.len > MAX_CTYPE) {
		sdt_buf_free(&b);
		return sdt_dlex_err(lx, line, "a parameter type of '%s' is longer than %d bytes",
				    probe, MAX_CTYPE);
	}
	{
		struct sdt_arg_type check;

		/* "int a b", "short long": not a C type (a typedef's name is fine) */
		if (sdt_type__from_c(b.buf, 8, &check) == -EINVAL) {
			sdt_dlex_err(lx, line, "'%s' is not a C type (a parameter of '%s')", b.buf,
				     probe);
			sdt_buf_free(&b);
			return -EINVAL;
		}
	}
	if (name && !sdt_type__valid_name(name)) {
		sdt_buf_free(&b);
		return sdt_dlex_err(lx, line,
				    "parameter name '%s' of '%s' is not valid "
				    "([A-Za-z_][A-Za-z0-9_]*, at most %d bytes, not common_*)",
				    name, probe, SDT_MAX_ARG_NAME);
	}
	out->ctype = sdt_buf_take(&b);
	out->name = name ? sdt_strdup(name) : NULL;
	if (!out->ctype || (name && !out->name)) {
		free(out->ctype);
		free(out->name);
		out->ctype = out->name = NULL;
		return sdt_err(-ENOMEM, "out of memory");
	}
	return 0;
nomem:
	sdt_buf_free(&b);
	return sdt_err(-ENOMEM, "out of memory");
}

void sdt_dprobe_free(struct sdt_dprobe *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nparams; i++) {
		free(p->params[i].name);
		free(p->params[i].ctype);
	}
	free(p->params);
	for (i = 0; i < p->nnotes; i++) {
		free(p->notes[i].key);
		free(p->notes[i].text);
	}
	free(p->notes);
	free(p->provider);
	free(p->name);
	free(p);
}

/* "(TYPE [NAME], ...)" after a probe's name; the current token is '('. */
static int parse_params(struct lexer *lx, struct sdt_dprobe *p)
{
	struct ptok *toks;
	size_t cap = 0, i, j;
	int err;

	err = sdt_dlex_next(lx);
	if (err)
		return err;
	/* "()" and "(void)": no parameters */
	if (sdt_dlex_is_punct(lx, ')'))
		return sdt_dlex_next(lx);
	if (sdt_dlex_is_word(lx, "void")) {
		const char *save_p = lx->p;
		unsigned int save_line = lx->line;
		bool save_start = lx->line_start;

		err = sdt_dlex_next(lx);
		if (err)
			return err;
		if (sdt_dlex_is_punct(lx, ')'))
			return sdt_dlex_next(lx);
		/* "void *x": a parameter after all; re-read from after "void" */
		lx->p = save_p;
		lx->line = save_line;
		lx->line_start = save_start;
		snprintf(lx->text, sizeof(lx->text), "void");
		lx->tok = TOK_IDENT;
	}
	toks = lx->ptoks;
	for (;;) {
		size_t n = 0, depth = 0;
		bool fnptr = false;
		unsigned int line = lx->tok_line;

		/* one parameter: tokens up to ',' or ')' at depth 0 */
		for (;;) {
			if (lx->tok == TOK_EOF) {
				err = sdt_dlex_err(lx, line, "parameters of '%s' not closed by ')'",
						   p->name);
				goto out;
			}
			if (lx->tok == TOK_STRING ||
			    (lx->tok == TOK_PUNCT && strchr(";{}", lx->text[0]))) {
				err = sdt_dlex_err(
				    lx, lx->tok_line, "unexpected %s in the parameters of '%s'",
				    lx->tok == TOK_STRING ? "string" : lx->text, p->name);
				goto out;
			}
			if (sdt_dlex_is_punct(lx, '(')) {
				if (++depth > SDT_DFILE_MAX_NESTING) {
					err = sdt_dlex_err(lx, lx->tok_line,
							   "nesting deeper than %d levels",
							   SDT_DFILE_MAX_NESTING);
					goto out;
				}
				fnptr = true;
			} else if (sdt_dlex_is_punct(lx, ')')) {
				if (!depth)
					break;
				depth--;
			} else if (sdt_dlex_is_punct(lx, ',') && !depth) {
				break;
			} else if (!depth) {
				if (sdt_dlex_is_punct(lx, '.')) {
					err = sdt_dlex_err(
					    lx, lx->tok_line,
					    "'%s' has variable arguments ('...'), which "
					    "SDT probes cannot have",
					    p->name);
					goto out;
				}
				if (n >= MAX_PARAM_TOKENS) {
					err = sdt_dlex_err(
					    lx, line, "a parameter of '%s' is too long", p->name);
					goto out;
				}
				memcpy(toks[n].text, lx->text, sizeof(toks[n].text));
				toks[n].ident = lx->tok == TOK_IDENT || lx->tok == TOK_NUMBER;
				if (lx->tok == TOK_IDENT && strchr(lx->text, '-')) {
					err =
					    sdt_dlex_err(lx, lx->tok_line,
							 "'%s' is not a C name (parameter of '%s')",
							 lx->text, p->name);
					goto out;
				}
				n++;
			}
			err = sdt_dlex_next(lx);
			if (err)
				goto out;
		}
		if (p->nparams >= SDT_MAX_ARGS) {
			err = sdt_dlex_err(lx, line, "'%s' has more than %d parameters", p->name,
					   SDT_MAX_ARGS);
			goto out;
		}
		if (sdt_grow((void **)&p->params, &cap, p->nparams + 1, sizeof(*p->params))) {
			err = sdt_err(-ENOMEM, "out of memory");
			goto out;
		}
		err = make_param(lx, toks, n, fnptr, line, p->name, &p->params[p->nparams]);
		if (err)
			goto out;
		p->nparams++;
		for (i = 0; i + 1 < p->nparams; i++) {
			j = p->nparams - 1;
			if (p->params[i].name && p->params[j].name &&
			    !strcmp(p->params[i].name, p->params[j].name)) {
				err = sdt_dlex_err(lx, line,
						   "parameter name '%s' is used twice in '%s'",
						   p->params[j].name, p->name);
				goto out;
			}
		}
		if (sdt_dlex_is_punct(lx, ')'))
			break;
		err = sdt_dlex_next(lx); /* past ',' */
		if (err)
			goto out;
	}
	err = sdt_dlex_next(lx);
out:
	return err;
}

/* Move the pending notes to the end of @p's (copies of the provider's come first). */
static int take_notes(struct lexer *lx, struct sdt_dprobe *p)
{
	struct notes ns = {.v = p->notes, .n = p->nnotes, .cap = p->nnotes};
	size_t i;
	int err = 0;

	for (i = 0; !err && i < lx->pending.n; i++)
		err = sdt_dlex_notes_add(lx, &ns, lx->pending.v[i].key, lx->pending.v[i].text,
					 lx->pending.v[i].line);
	p->notes = ns.v;
	p->nnotes = ns.n;
	sdt_dlex_notes_clear(&lx->pending);
	return err;
}

/*
 * "probe NAME(...);" inside a provider; the current token is "probe". The probe's notes:
 * @pnotes (the provider's), then those before it, then any inside its declaration.
 */
static int parse_probe(struct lexer *lx, const char *provider, const struct notes *pnotes,
		       int (*fn)(struct sdt_dprobe *p, void *data), void *data)
{
	struct notes own = lx->pending;
	struct sdt_dprobe *p;
	struct sdt_buf b = {0};
	const char *s;
	size_t i;
	int err;

	/* the notes before "probe" wait aside while the declaration is read */
	lx->pending = (struct notes){0};
	err = sdt_dlex_next(lx);
	if (err) {
		sdt_dlex_notes_free(&own);
		return err;
	}
	if (err)
		return err;
	if (lx->tok != TOK_IDENT) {
		sdt_dlex_notes_free(&own);
		return sdt_dlex_err(lx, lx->tok_line,
				    "expected a probe name after 'probe', found '%s'",
				    sdt_dlex_tok_shown(lx));
	}
	/* dtrace -h: '-' in a probe name becomes "__" */
	for (s = lx->text; *s; s++) {
		if (*s == '-' ? sdt_buf_addstr(&b, "__") : sdt_buf_add(&b, s, 1)) {
			sdt_buf_free(&b);
			sdt_dlex_notes_free(&own);
			return sdt_err(-ENOMEM, "out of memory");
		}
	}
	if (!sdt_valid_event_name(b.buf, SDT_MAX_EVENT_NAME)) {
		err = sdt_dlex_err(lx, lx->tok_line,
				   "probe name '%s' is not a valid event name "
				   "([A-Za-z_][A-Za-z0-9_]*, at most %d bytes)",
				   lx->text, SDT_MAX_EVENT_NAME);
		sdt_buf_free(&b);
		sdt_dlex_notes_free(&own);
		return err;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		sdt_buf_free(&b);
		sdt_dlex_notes_free(&own);
		return sdt_err(-ENOMEM, "out of memory");
	}
	{
		struct notes ns = {0};

		err = 0;
		for (i = 0; !err && pnotes && i < pnotes->n; i++)
			err = sdt_dlex_notes_add(lx, &ns, pnotes->v[i].key, pnotes->v[i].text,
						 pnotes->v[i].line);
		for (i = 0; !err && i < own.n; i++)
			err =
			    sdt_dlex_notes_add(lx, &ns, own.v[i].key, own.v[i].text, own.v[i].line);
		p->notes = ns.v;
		p->nnotes = ns.n;
		sdt_dlex_notes_free(&own);
		if (err) {
			sdt_buf_free(&b);
			sdt_dprobe_free(p);
			return err;
		}
	}
	p->name = sdt_buf_take(&b);
	p->provider = sdt_strdup(provider);
	p->line = lx->tok_line;
	if (!p->name || !p->provider) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto fail;
	}
	err = sdt_dlex_next(lx);
	if (err)
		goto fail;
	if (!sdt_dlex_is_punct(lx, '(')) {
		err = sdt_dlex_err(lx, lx->tok_line, "expected '(' after probe '%s', found '%s'",
				   p->name, sdt_dlex_tok_shown(lx));
		goto fail;
	}
	err = parse_params(lx, p);
	if (err)
		goto fail;
	if (!sdt_dlex_is_punct(lx, ';')) {
		err = sdt_dlex_err(lx, lx->tok_line, "expected ';' after probe '%s', found '%s'",
				   p->name, sdt_dlex_tok_shown(lx));
		goto fail;
	}
	/* notes in comments inside the declaration are the probe's too */
	err = take_notes(lx, p);
	if (err)
		goto fail;
	err = sdt_dlex_next(lx);
	if (err)
		goto fail;
	return fn(p, data);
fail:
	sdt_dprobe_free(p);
	return err;
}

/* "provider NAME { ... };"; the current token is "provider". */
static int parse_provider(struct lexer *lx, int (*fn)(struct sdt_dprobe *p, void *data), void *data)
{
	char provider[SDT_DFILE_MAX_IDENT + 1];
	unsigned int start = lx->tok_line;
	struct notes pnotes = lx->pending; /* before "provider": every probe's */
	int err;

	lx->pending = (struct notes){0};
	err = sdt_dlex_next(lx);
	if (err)
		goto out;
	if (lx->tok != TOK_IDENT || !sdt_valid_event_name(lx->text, MAX_PROVIDER)) {
		err = sdt_dlex_err(lx, lx->tok_line,
				   "provider name '%s' is not valid "
				   "([A-Za-z_][A-Za-z0-9_]*, at most %d bytes)",
				   sdt_dlex_tok_shown(lx), MAX_PROVIDER);
		goto out;
	}
	memcpy(provider, lx->text, sizeof(provider));
	err = sdt_dlex_next(lx);
	if (err)
		goto out;
	if (!sdt_dlex_is_punct(lx, '{')) {
		err = sdt_dlex_err(lx, lx->tok_line, "expected '{' after provider '%s', found '%s'",
				   provider, sdt_dlex_tok_shown(lx));
		goto out;
	}
	/* notes between the name and '{' are the provider's too */
	while (!err && lx->pending.n) {
		err = sdt_dlex_notes_add(lx, &pnotes, lx->pending.v[0].key, lx->pending.v[0].text,
					 lx->pending.v[0].line);
		free(lx->pending.v[0].key);
		free(lx->pending.v[0].text);
		memmove(lx->pending.v, lx->pending.v + 1, --lx->pending.n * sizeof(*lx->pending.v));
	}
	if (!err)
		err = sdt_dlex_next(lx);
	while (!err) {
		if (lx->tok == TOK_EOF) {
			err = sdt_dlex_err(lx, start, "provider '%s' not closed by '}'", provider);
			break;
		}
		if (sdt_dlex_is_punct(lx, '}')) {
			sdt_dlex_notes_clear(
			    &lx->pending); /* notes before '}' belong to no probe */
			err = sdt_dlex_next(lx);
			if (!err && sdt_dlex_is_punct(lx, ';'))
				err = sdt_dlex_next(lx);
			break;
		}
		if (sdt_dlex_is_word(lx, "probe"))
			err = parse_probe(lx, provider, &pnotes, fn, data);
		else
			err = sdt_dlex_skip_decl(lx, true);
	}
out:
	sdt_dlex_notes_free(&pnotes);
	return err;
}

/* "typedef TYPE NAME;": an alias when TYPE is plain words and '*'; otherwise skipped. */
static int parse_typedef(struct lexer *lx)
{
	struct sdt_buf b = {0};
	char name[SDT_DFILE_MAX_IDENT + 1] = "";
	unsigned int line = lx->tok_line;
	size_t words = 0;
	int err;

	for (;;) {
		err = sdt_dlex_next(lx);
		if (err)
			goto out;
		if (sdt_dlex_is_punct(lx, ';') || lx->tok == TOK_EOF)
			break;
		if (!(lx->tok == TOK_IDENT || sdt_dlex_is_punct(lx, '*'))) {
			/* typedef struct { ... } x; and the like */
			sdt_buf_free(&b);
			return sdt_dlex_skip_decl(lx, false);
		}
		if (name[0] && (sdt_dlex_add_type_text(lx, &b, name) || b.len > MAX_CTYPE)) {
			err =
			    b.len > MAX_CTYPE
				? sdt_dlex_err(lx, line, "typedef longer than %d bytes", MAX_CTYPE)
				: sdt_err(-ENOMEM, "out of memory");
			goto out;
		}
		memcpy(name, lx->text, sizeof(name));
		words++;
	}
	if (lx->tok == TOK_EOF) {
		err = sdt_dlex_err(lx, line, "typedef not ended by ';'");
		goto out;
	}
	sdt_dlex_notes_clear(&lx->pending); /* notes before a typedef belong to no probe */
	err = sdt_dlex_next(lx);
	/* the type's words are expanded already; sdt_dlex_define_alias() finds nothing more to
	 * expand */
	if (!err && words >= 2 && sdt_dlex_is_ident_start(name[0]) && b.buf)
		err = sdt_dlex_define_alias(lx, name, b.buf, line);
out:
	sdt_buf_free(&b);
	return err;
}

int sdt_dfile_parse(const char *buf, size_t len, const char *name,
		    int (*fn)(struct sdt_dprobe *p, void *data), void *data)
{
	struct lexer lx = {
	    .p = buf,
	    .end = buf + len,
	    .name = name,
	    .line = 1,
	    .line_start = true,
	};
	size_t i;
	int err;

	if (len > SDT_DFILE_MAX_SIZE)
		return sdt_err(-E2BIG, "%s: larger than %u bytes", name, SDT_DFILE_MAX_SIZE);
	lx.ptoks = malloc(MAX_PARAM_TOKENS * sizeof(*lx.ptoks));
	if (!lx.ptoks)
		return sdt_err(-ENOMEM, "out of memory");
	err = sdt_dlex_next(&lx);
	while (!err && lx.tok != TOK_EOF) {
		if (sdt_dlex_is_word(&lx, "provider"))
			err = parse_provider(&lx, fn, data);
		else if (sdt_dlex_is_word(&lx, "typedef"))
			err = parse_typedef(&lx);
		else
			err = sdt_dlex_skip_decl(&lx, false);
	}
	for (i = 0; i < lx.naliases; i++) {
		free(lx.aliases[i].name);
		free(lx.aliases[i].value);
	}
	free(lx.aliases);
	free(lx.ptoks);
	sdt_dlex_notes_free(&lx.pending);
	return err;
}
