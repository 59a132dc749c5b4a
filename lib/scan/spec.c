/* SPDX-License-Identifier: MIT */
/*
 * Event specs ("[PATH:][%]provider[:event][(name[:type], ...)]" with globs): parsing and
 * matching. See spec.h; the typed argument list is parsed by types.c.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/internal.h"
#include "sdtrace/spec.h"

struct sdt_spec {
	char *path;
	char *provider;
	char *event;
	bool glob;
	bool has_types;
	struct sdt_arg_type *types;
	size_t ntypes;
};

void sdt_spec__free(struct sdt_spec *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->provider);
	free(s->event);
	sdt_arg_types__free(s->types, s->ntypes);
	free(s);
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* Characters a provider or event pattern may hold: a tracefs name plus glob characters. */
static bool valid_pattern(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++) {
		char c = *s;

		if (!(c == '_' || c == '*' || c == '?' || c == '[' || c == ']' || c == '!' ||
		      c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

/*
 * Split off a trailing "(name:type, ...)": *head gets the spec before it (malloc'ed), the list
 * is parsed into @s. No suffix: *head is a copy of @text.
 */
static int split_types(const char *text, struct sdt_spec *s, char **head)
{
	size_t len = strlen(text);
	const char *open;
	char *inner;
	int err;

	*head = NULL;
	/* the list is the last "(...)"; a '(' before the last '/' is part of an inline path */
	open = strrchr(text, '(');
	if (open && strrchr(text, '/') > open)
		open = NULL;
	if (!len || text[len - 1] != ')') {
		if (open)
			return sdt_err(
			    -EINVAL, "event spec '%s': '(' without a closing ')' at the end", text);
		*head = sdt_strdup(text);
		return *head ? 0 : sdt_err(-ENOMEM, "out of memory");
	}
	if (!open || strchr(open + 1, ')') != text + len - 1)
		return sdt_err(-EINVAL,
			       "event spec '%s': expected one (name[:type], ...) list at "
			       "the end",
			       text);
	inner = sdt_strndup(open + 1, (size_t)(text + len - 1 - (open + 1)));
	if (!inner)
		return sdt_err(-ENOMEM, "out of memory");
	err = sdt_arg_types__parse(inner, &s->types, &s->ntypes);
	free(inner);
	if (err)
		return err == -ENOMEM ? err : sdt_err_prefix(err, "event spec '%s'", text);
	s->has_types = true;
	*head = sdt_strndup(text, (size_t)(open - text));
	return *head ? 0 : sdt_err(-ENOMEM, "out of memory");
}

/*
 * bpftrace's probe form, as bpftrace users type it, rewritten to ours (*@ours, malloc'ed; NULL
 * when @text is not one):
 *	usdt:PATH:PROVIDER:EVENT  ->  PATH:%PROVIDER:EVENT
 *	usdt:PATH:EVENT           ->  PATH:%*:EVENT      (bpftrace: any provider)
 *	usdt::PROVIDER:EVENT      ->  %PROVIDER:EVENT    (no path: -p, -- CMD or -a say where)
 * A path holding ':' is not supported in this form (it is in ours).
 */
static int bpftrace_form(const char *text, char **ours)
{
	const char *rest, *last, *mid;
	int n;

	*ours = NULL;
	if (strncmp(text, "usdt:", 5))
		return 0;
	rest = text + 5;
	last = strrchr(rest, ':');
	if (!last)
		return sdt_err(
		    -EINVAL,
		    "event spec '%s': expected usdt:PATH:[PROVIDER:]EVENT (bpftrace's form) "
		    "or [PATH:]%%provider:event",
		    text);
	for (mid = last - 1; mid >= rest && *mid != ':'; mid--)
		;
	if (mid < rest) /* usdt:PATH:EVENT */
		n = asprintf(ours, "%.*s:%%*:%s", (int)(last - rest), rest, last + 1);
	else if (mid == rest) /* usdt::PROVIDER:EVENT */
		n = asprintf(ours, "%%%s", rest + 1);
	else
		n = asprintf(ours, "%.*s:%%%s", (int)(mid - rest), rest, mid + 1);
	if (n < 0) {
		*ours = NULL;
		return sdt_err(-ENOMEM, "out of memory");
	}
	return 0;
}

int sdt_spec__parse(const char *full, struct sdt_spec **out)
{
	struct sdt_spec *s;
	const char *ev, *colon;
	char *text = NULL, *ours = NULL;
	int err = -EINVAL;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return sdt_err(-ENOMEM, "out of memory");
	err = split_types(full, s, &text);
	if (err)
		goto fail;
	err = bpftrace_form(text, &ours);
	if (err)
		goto fail;
	if (ours) {
		free(text);
		text = ours;
	}
	err = -EINVAL;
	ev = text;

	/*
	 * A binary named inline: "/path/bin:%prov:ev" or "./bin:prov:ev"; a bare name before ":%"
	 * ("libstdc++.so.6:%libstdcxx:throw", found as sdt_find_binary() finds it); or a glob naming
	 * several ("*:%prov:ev", "/usr/lib/jvm/<*>/libjvm.so:%prov:ev"): a provider holds no ":%".
	 * Without the '%' a bare "a:b" is provider:event, as perf reads it.
	 */
	if (text[0] == '/' || text[0] == '.' || (text[0] != '%' && strstr(text, ":%"))) {
		/* the last ":%": a path may hold one ("/opt/a:%b/bin"), a provider:event not */
		const char *split = NULL, *p;

		for (p = strstr(text, ":%"); p; p = strstr(p + 1, ":%"))
			split = p;

		if (!split) {
			/* no '%': the path ends at the second-to-last ':' */
			const char *last = strrchr(text, ':');

			split = last;
			if (last) {
				for (p = last - 1; p > text && *p != ':'; p--)
					;
				if (p > text)
					split = p;
			}
		}
		if (!split || split == text) {
			err = sdt_err(-EINVAL,
				      "event spec '%s': a binary must be followed by "
				      ":%%provider:event",
				      full);
			goto fail;
		}
		s->path = sdt_strndup(text, (size_t)(split - text));
		if (!s->path)
			goto nomem;
		ev = split + 1;
	}
	if (*ev == '%')
		ev++;
	colon = strchr(ev, ':');
	if (colon) {
		s->provider = sdt_strndup(ev, (size_t)(colon - ev));
		s->event = sdt_strdup(colon + 1);
	} else {
		s->provider = sdt_strdup(ev);
		s->event = sdt_strdup("*");
	}
	if (!s->provider || !s->event)
		goto nomem;
	if (!valid_pattern(s->provider) || !valid_pattern(s->event)) {
		err = sdt_err(-EINVAL,
			      "event spec '%s': expected [%%]provider[:event], "
			      "with letters, digits, '_' and globs",
			      full);
		goto fail;
	}
	s->glob = has_glob(s->provider) || has_glob(s->event);
	free(text);
	*out = s;
	return 0;
nomem:
	err = sdt_err(-ENOMEM, "out of memory");
fail:
	free(text);
	sdt_spec__free(s);
	return err;
}

bool sdt_spec__match(const struct sdt_spec *s, const char *provider, const char *name)
{
	if (fnmatch(s->event, name, 0))
		return false;
	if (!fnmatch(s->provider, provider, 0))
		return true;
	/* perf's group name: sdt_python:gc__start */
	if (!strncmp(s->provider, "sdt_", 4) && !fnmatch(s->provider + 4, provider, 0))
		return true;
	return false;
}

const char *sdt_spec__path(const struct sdt_spec *s)
{
	return s->path;
}

const char *sdt_spec__provider(const struct sdt_spec *s)
{
	return s->provider;
}

const char *sdt_spec__event(const struct sdt_spec *s)
{
	return s->event;
}

bool sdt_spec__is_glob(const struct sdt_spec *s)
{
	return s->glob;
}

bool sdt_spec__has_types(const struct sdt_spec *s)
{
	return s->has_types;
}

size_t sdt_spec__type_count(const struct sdt_spec *s)
{
	return s->ntypes;
}

const struct sdt_arg_type *sdt_spec__types(const struct sdt_spec *s)
{
	return s->types;
}

const struct sdt_arg_type *sdt_spec__type(const struct sdt_spec *s, size_t i)
{
	return i < s->ntypes ? &s->types[i] : NULL;
}

/* ---- "did you mean" --------------------------------------------------------------------- */

/* Longest provider or event part compared; longer ones are never suggested (or suggested to). */
#define SUGGEST_LEN 128
/* Most names a suggestion offers. */
#define SUGGEST_MAX 3

/* One position of a pattern: a character, '?', '*' or a bracket expression "[...]". */
struct tok {
	const char *p;
	size_t len;
};

/*
 * The positions of @pat into @t (at most @max), or SIZE_MAX for a pattern longer than @max
 * characters: then no position (a bracket expression) is longer than @max either.
 */
static size_t tokenize(const char *pat, struct tok *t, size_t max)
{
	size_t n = 0, i = 0, len = strlen(pat);

	if (len > max)
		return SIZE_MAX;
	while (i < len) {
		size_t e = i + 1;

		if (n == max)
			return SIZE_MAX;
		if (pat[i] == '[') {
			/* as fnmatch reads it: '!' or '^' first, then ']' may be a member */
			if (e < len && (pat[e] == '!' || pat[e] == '^'))
				e++;
			if (e < len && pat[e] == ']')
				e++;
			while (e < len && pat[e] != ']')
				e++;
			e = e < len ? e + 1 : i + 1; /* no closing ']': a plain '[' */
		}
		t[n].p = pat + i;
		t[n].len = e - i;
		n++;
		i = e;
	}
	return n;
}

static bool tok_star(const struct tok *t)
{
	return t->len == 1 && t->p[0] == '*';
}

/* Does position @t take character @c at no cost? Case is not a typo worth a cost. */
static bool tok_eq(const struct tok *t, char c)
{
	char one[2] = {c, '\0'}, pat[SUGGEST_LEN + 1];

	/* tokenize() keeps every position within SUGGEST_LEN */
	if (t->len == 1)
		return t->p[0] == '?' || t->p[0] == '*' ||
		       tolower((unsigned char)t->p[0]) == tolower((unsigned char)c);
	memcpy(pat, t->p, t->len);
	pat[t->len] = '\0';
	return !fnmatch(pat, one, FNM_CASEFOLD);
}

static size_t min3(size_t a, size_t b, size_t c)
{
	return a < b ? (a < c ? a : c) : (b < c ? b : c);
}

/*
 * The edit distance from pattern @pat to @text (insertions, deletions, substitutions and
 * swaps of two neighbours, each 1; Damerau's "optimal string alignment"), where '*' takes any
 * run and '?' or a bracket any character it matches, at no cost. SIZE_MAX when too long.
 */
static size_t glob_distance(const char *pat, const char *text)
{
	size_t rows[3][SUGGEST_LEN + 1], *pp, *prev, *cur, *tmp, np, nt = strlen(text), i, j;
	struct tok t[SUGGEST_LEN];

	np = tokenize(pat, t, SUGGEST_LEN);
	if (np == SIZE_MAX || nt > SUGGEST_LEN)
		return SIZE_MAX;
	pp = rows[0];
	prev = rows[1];
	cur = rows[2];
	for (j = 0; j <= nt; j++)
		prev[j] = j;
	for (i = 1; i <= np; i++) {
		const struct tok *k = &t[i - 1];
		bool star = tok_star(k);

		cur[0] = prev[0] + !star;
		for (j = 1; j <= nt; j++) {
			if (star) {
				/* '*' matches nothing more, or one more character */
				cur[j] = prev[j] < cur[j - 1] ? prev[j] : cur[j - 1];
				continue;
			}
			cur[j] = min3(prev[j - 1] + !tok_eq(k, text[j - 1]), prev[j] + 1,
				      cur[j - 1] + 1);
			if (i > 1 && j > 1 && k->len == 1 && t[i - 2].len == 1 &&
			    !tok_star(&t[i - 2]) && tok_eq(k, text[j - 2]) &&
			    tok_eq(&t[i - 2], text[j - 1]) && pp[j - 2] + 1 < cur[j])
				cur[j] = pp[j - 2] + 1;
		}
		tmp = pp;
		pp = prev;
		prev = cur;
		cur = tmp;
	}
	return prev[nt];
}

/* The characters of @pat a name has to have ('*' stands for none). */
static size_t pattern_weight(const char *pat)
{
	size_t n = 0;

	for (; *pat; pat++)
		n += *pat != '*';
	return n;
}

/* Distance from @s to provider @prov, event @ev: perf's "sdt_" group prefix is no typo. */
static size_t spec_distance(const struct sdt_spec *s, const char *prov, const char *ev)
{
	size_t dp = glob_distance(s->provider, prov), de;

	if (!strncmp(s->provider, "sdt_", 4)) {
		size_t d4 = glob_distance(s->provider + 4, prov);

		dp = d4 < dp ? d4 : dp;
	}
	de = glob_distance(s->event, ev);
	if (dp == SIZE_MAX || de == SIZE_MAX)
		return SIZE_MAX;
	return dp + de;
}

/* The spec a suggestion offers: the name, keeping a glob of @s where it matched the name. */
static char *suggestion_text(const struct sdt_spec *s, const char *prov, const char *ev)
{
	bool keep_prov = has_glob(s->provider) && !fnmatch(s->provider, prov, 0);
	bool keep_ev = has_glob(s->event) && !fnmatch(s->event, ev, 0);

	return sdt_asprintf("%%%s:%s", keep_prov ? s->provider : prov, keep_ev ? s->event : ev);
}

int sdt_spec__suggest(const struct sdt_spec *s, const char *const *names, size_t n, char **out)
{
	char *best[SUGGEST_MAX] = {0}, prov[SUGGEST_LEN + 1];
	size_t nbest = 0, dbest = SIZE_MAX, limit, i, k;
	struct sdt_buf b = {0};
	int err = 0;

	*out = NULL;
	/* a quarter of what was typed may be wrong, one character at least */
	limit = (pattern_weight(s->provider) + pattern_weight(s->event)) / 4;
	if (limit < 1)
		limit = 1;
	for (i = 0; i < n && !err; i++) {
		const char *colon = names[i] ? strchr(names[i], ':') : NULL;
		size_t d, pl;
		char *text;

		if (!colon || (pl = (size_t)(colon - names[i])) > SUGGEST_LEN)
			continue;
		memcpy(prov, names[i], pl);
		prov[pl] = '\0';
		if (sdt_spec__match(s, prov, colon + 1))
			continue; /* not a typo: it matches */
		d = spec_distance(s, prov, colon + 1);
		if (d > limit || d > dbest)
			continue;
		text = suggestion_text(s, prov, colon + 1);
		if (!text) {
			err = -ENOMEM;
			break;
		}
		if (d < dbest) {
			for (k = 0; k < nbest; k++)
				free(best[k]);
			nbest = 0;
			dbest = d;
		}
		for (k = 0; k < nbest && strcmp(best[k], text); k++)
			;
		if (k < nbest || nbest == SUGGEST_MAX)
			free(text);
		else
			best[nbest++] = text;
	}
	for (k = 0; k < nbest && !err; k++) {
		if (sdt_buf_addf(&b, "%s%s", k ? (k + 1 == nbest ? " or " : ", ") : "", best[k]))
			err = -ENOMEM;
	}
	for (k = 0; k < nbest; k++)
		free(best[k]);
	if (err) {
		sdt_buf_free(&b);
		return sdt_err(err, "out of memory");
	}
	*out = nbest ? sdt_buf_take(&b) : NULL;
	return 0;
}
