/* SPDX-License-Identifier: MIT */
/*
 * The SystemTap tapset reader (tapset.h): a lexer of the language's tokens (comments `#`, `//`,
 * `/ * * /`, strings, identifiers, `$` variables, punctuation), and a parser that looks, at the
 * top level only, for `probe` statements of process("PATH").mark("EVENT") points and reads
 * their bodies' `NAME = $argN` / `NAME = user_string...($argN...)` assignments. Anything else is
 * skipped token by token with its braces counted, so that a function or a kernel probe in
 * between costs nothing and says nothing. Nothing recurses: a hostile nesting costs a counter.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/tapset.h"
#include "util/internal.h"

/* Warnings said per file before the rest of it is passed over. */
#define MAX_WARNINGS 10
/* Points of one probe statement (aliases usually have one). */
#define MAX_POINTS 64

enum tok { T_EOF, T_ERR, T_IDENT, T_VAR, T_STR, T_NUM, T_PUNCT };

struct lex {
	const char *p, *end;
	unsigned int line;
	const char *name;
	void (*warn)(const char *msg, void *data);
	void *data;
	unsigned int nwarn;
	bool stop; /* too many warnings, or the text cannot be read on */
	/* the current token */
	enum tok t;
	const char *s; /* its text (a string: between the quotes) */
	size_t n;
	unsigned int tline;
};

static void warn(struct lex *lx, unsigned int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void warn(struct lex *lx, unsigned int line, const char *fmt, ...)
{
	char msg[512];
	int off;
	va_list ap;

	if (lx->stop)
		return;
	if (++lx->nwarn > MAX_WARNINGS) {
		snprintf(msg, sizeof(msg), "%s:%u: more than %d problems: the rest is not read",
			 lx->name, line, MAX_WARNINGS);
		lx->stop = true;
	} else {
		off = snprintf(msg, sizeof(msg), "%s:%u: ", lx->name, line);
		if (off < 0 || (size_t)off >= sizeof(msg))
			off = 0;
		va_start(ap, fmt);
		vsnprintf(msg + off, sizeof(msg) - (size_t)off, fmt, ap);
		va_end(ap);
	}
	if (lx->warn)
		lx->warn(msg, lx->data);
}

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

/* The next token into lx->t; T_ERR (said) when the text cannot be read on. */
static enum tok next(struct lex *lx)
{
	const char *p = lx->p, *e = lx->end;

	if (lx->stop)
		return lx->t = T_ERR;
	for (;;) {
		while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n' ||
				 *p == '\f' || *p == '\v')) {
			if (*p == '\n')
				lx->line++;
			p++;
		}
		if (p >= e) {
			lx->p = p;
			lx->tline = lx->line;
			return lx->t = T_EOF;
		}
		if (*p == '#' || (*p == '/' && p + 1 < e && p[1] == '/')) {
			while (p < e && *p != '\n')
				p++;
			continue;
		}
		if (*p == '/' && p + 1 < e && p[1] == '*') {
			unsigned int start = lx->line;

			for (p += 2; p + 1 < e && !(p[0] == '*' && p[1] == '/'); p++)
				if (*p == '\n')
					lx->line++;
			if (p + 1 >= e) {
				warn(lx, start, "a comment is not closed");
				lx->stop = true;
				return lx->t = T_ERR;
			}
			p += 2;
			continue;
		}
		break;
	}
	lx->tline = lx->line;
	lx->s = p;
	if (*p == '\0') {
		warn(lx, lx->line, "a NUL byte: binary data, not a tapset");
		lx->stop = true;
		return lx->t = T_ERR;
	}
	if (is_ident_start(*p)) {
		while (p < e && is_ident(*p))
			p++;
		lx->t = T_IDENT;
	} else if (*p == '$' || *p == '@') {
		p++;
		if (p < e && *p == '$')
			p++;
		while (p < e && is_ident(*p))
			p++;
		lx->t = *lx->s == '$' ? T_VAR : T_PUNCT;
	} else if (*p >= '0' && *p <= '9') {
		while (p < e && is_ident(*p))
			p++;
		lx->t = T_NUM;
	} else if (*p == '"') {
		for (p++; p < e && *p != '"' && *p != '\n'; p++)
			if (*p == '\\' && p + 1 < e && p[1] != '\n')
				p++;
		if (p >= e || *p != '"') {
			warn(lx, lx->line, "a string is not closed on its line");
			lx->stop = true;
			return lx->t = T_ERR;
		}
		lx->s++;
		lx->n = (size_t)(p - lx->s);
		lx->p = p + 1;
		return lx->t = T_STR;
	} else {
		p++;
		lx->t = T_PUNCT;
	}
	lx->n = (size_t)(p - lx->s);
	lx->p = p;
	return lx->t;
}

static bool is_punct(const struct lex *lx, char c)
{
	return lx->t == T_PUNCT && lx->n == 1 && lx->s[0] == c;
}

static bool is_word(const struct lex *lx, const char *w)
{
	return lx->t == T_IDENT && lx->n == strlen(w) && !memcmp(lx->s, w, lx->n);
}

/* $argN: N (1..), else 0. */
static unsigned int arg_number(const struct lex *lx)
{
	unsigned int n = 0;
	size_t i;

	if (lx->t != T_VAR || lx->n < 5 || lx->n > 7 || memcmp(lx->s, "$arg", 4))
		return 0;
	for (i = 4; i < lx->n; i++) {
		if (lx->s[i] < '0' || lx->s[i] > '9')
			return 0;
		n = n * 10 + (unsigned int)(lx->s[i] - '0');
	}
	return n;
}

/*
 * The current string token decoded (\" \\ and the like), or NULL: too long, a control byte, or
 * (@event) not [A-Za-z0-9_-] (then `-` becomes `__`, as stap matches the notes' names).
 */
static char *string_value(struct lex *lx, bool event, int *err)
{
	char *out, *o;
	size_t i;

	*err = 0;
	if (lx->n > SDT_TAPSET_MAX_STRING)
		return NULL;
	out = malloc(lx->n * 2 + 1);
	if (!out) {
		*err = -ENOMEM;
		return NULL;
	}
	for (i = 0, o = out; i < lx->n; i++) {
		unsigned char c = (unsigned char)lx->s[i];

		if (c == '\\' && i + 1 < lx->n)
			c = (unsigned char)lx->s[++i];
		if (c < 0x20 || c == 0x7f)
			goto bad;
		if (event && c == '-') {
			*o++ = '_';
			*o++ = '_';
			continue;
		}
		if (event && !is_ident((char)c))
			goto bad;
		*o++ = (char)c;
	}
	*o = '\0';
	if (o == out)
		goto bad;
	return out;
bad:
	free(out);
	return NULL;
}

/* One point's parts that matter. */
struct point {
	char *process, *library, *provider, *mark;
	unsigned int line;
	bool parens; /* any component with an argument: not an alias name */
	bool bad;    /* a string of ours could not be taken (said) */
};

static void point_free(struct point *pt)
{
	free(pt->process);
	free(pt->library);
	free(pt->provider);
	free(pt->mark);
	memset(pt, 0, sizeof(*pt));
}

/*
 * A probe point at the current token: COMPONENT[(ARG)] ('.' COMPONENT[(ARG)])* [?!]. Leaves the
 * token after it current. 1 read, 0 not a point (the token current), -ENOMEM.
 */
static int parse_point(struct lex *lx, struct point *pt)
{
	bool any = false;
	int err;

	memset(pt, 0, sizeof(*pt));
	pt->line = lx->tline;
	for (;;) {
		char **slot = NULL;

		if (lx->t != T_IDENT && !is_punct(lx, '*') && lx->t != T_NUM)
			return any ? 1 : 0;
		if (is_word(lx, "process"))
			slot = &pt->process;
		else if (is_word(lx, "library"))
			slot = &pt->library;
		else if (is_word(lx, "provider"))
			slot = &pt->provider;
		else if (is_word(lx, "mark"))
			slot = &pt->mark;
		any = true;
		next(lx);
		if (is_punct(lx, '(')) {
			pt->parens = true;
			next(lx);
			if (lx->t == T_STR && slot && !*slot && !pt->bad) {
				*slot = string_value(lx, slot == &pt->mark || slot == &pt->provider,
						     &err);
				if (err)
					return err;
				if (!*slot) {
					char shown[44];
					size_t k;

					/* the text shown printable, and short */
					for (k = 0; k < lx->n && k < 40; k++)
						shown[k] = lx->s[k] >= 0x20 && lx->s[k] < 0x7f
							       ? lx->s[k]
							       : '?';
					shown[k] = '\0';
					warn(lx, lx->tline, "%s(\"%s%s\"): not a %s: the probe is not read",
					     slot == &pt->process   ? "process"
					     : slot == &pt->library ? "library"
					     : slot == &pt->mark    ? "mark"
								    : "provider",
					     shown, lx->n > 40 ? "..." : "",
					     slot == &pt->mark || slot == &pt->provider
						 ? "name of [A-Za-z0-9_-]"
						 : "path without control bytes, at most 4095 bytes");
					pt->bad = true;
				}
			}
			if (lx->t == T_STR || lx->t == T_NUM)
				next(lx);
			if (!is_punct(lx, ')'))
				return 1; /* not our shape: the caller sees the token */
			next(lx);
		}
		if (is_punct(lx, '?') || is_punct(lx, '!'))
			next(lx);
		if (!is_punct(lx, '.'))
			return 1;
		next(lx);
	}
}

/* A body's assignment of $argN (1-based) to NAME (@name, @len bytes). */
static void assign(struct lex *lx, struct sdt_tprobe *tp, const char *name, size_t len,
		   unsigned int n, unsigned int line, bool is_string, int *err)
{
	char buf[SDT_MAX_ARG_NAME + 1];
	unsigned int i;

	if (n > SDT_TAPSET_MAX_ARGS) {
		warn(lx, line, "$arg%u: an SDT probe has at most %d arguments", n,
		     SDT_TAPSET_MAX_ARGS);
		return;
	}
	if (!n || tp->args[n - 1].name || len > SDT_MAX_ARG_NAME)
		return;
	memcpy(buf, name, len);
	buf[len] = '\0';
	if (!sdt_type__valid_name(buf))
		return;
	for (i = 0; i < SDT_TAPSET_MAX_ARGS; i++)
		if (tp->args[i].name && !strcmp(tp->args[i].name, buf))
			return; /* one name per argument: the first */
	if (!(tp->args[n - 1].name = strdup(buf))) {
		*err = -ENOMEM;
		return;
	}
	tp->args[n - 1].is_string = is_string;
	if (n > tp->nargs)
		tp->nargs = n;
}

/* After `NAME = $argN`, a token that makes it something derived ($arg1->x, $arg1 + 1). */
static bool derives(const struct lex *lx)
{
	return lx->t == T_PUNCT && lx->n == 1 && strchr("-[.+*/%&|^?<>(", lx->s[0]);
}

/*
 * The body at the current '{', read to its closing '}' (left current). The names into @tp.
 * 0, -ENOMEM, or 1: the text ended first (said).
 */
static int parse_body(struct lex *lx, struct sdt_tprobe *tp, unsigned int line)
{
	const char *name = NULL;
	size_t name_len = 0, depth = 1;
	unsigned int n = 0, n_line = 0;
	int state = 0, err = 0;

	while (depth && !err) {
		next(lx);
		if (lx->t == T_EOF || lx->t == T_ERR) {
			if (lx->t == T_EOF)
				warn(lx, line, "the probe's body is not closed");
			return 1;
		}
		if (is_punct(lx, '{'))
			depth++;
		else if (is_punct(lx, '}'))
			depth--;
	again:
		switch (state) {
		case 1: /* NAME */
			state = is_punct(lx, '=') ? 2 : 0;
			if (!state)
				goto again;
			break;
		case 2: /* NAME = */
			if ((n = arg_number(lx))) {
				n_line = lx->tline;
				state = 3;
			} else if (lx->t == T_IDENT && lx->n >= 11 &&
				   !memcmp(lx->s, "user_string", 11)) {
				state = 4;
			} else {
				state = 0;
				if (!is_punct(lx, '='))
					goto again;
			}
			break;
		case 3: /* NAME = $argN */
			state = 0;
			if (derives(lx))
				break;
			assign(lx, tp, name, name_len, n, n_line, false, &err);
			goto again;
		case 4: /* NAME = user_string */
			state = is_punct(lx, '(') ? 5 : 0;
			if (!state)
				goto again;
			break;
		case 5: /* NAME = user_string( */
			state = (n = arg_number(lx)) ? 6 : 0;
			n_line = lx->tline;
			if (!state)
				goto again;
			break;
		case 6: /* NAME = user_string($argN */
			state = 0;
			if (is_punct(lx, ',') || is_punct(lx, ')'))
				assign(lx, tp, name, name_len, n, n_line, true, &err);
			break;
		default:
			if (lx->t == T_IDENT) {
				name = lx->s;
				name_len = lx->n;
				state = 1;
			}
			break;
		}
	}
	return err;
}

void sdt_tprobe_free(struct sdt_tprobe *p)
{
	unsigned int i;

	if (!p)
		return;
	for (i = 0; i < SDT_TAPSET_MAX_ARGS; i++)
		free(p->args[i].name);
	free(p->path);
	free(p->provider);
	free(p->mark);
	free(p);
}

/* Hand each of @pts that is a process(...).mark(...) point to @probe, with @names. */
static int emit(struct point *pts, size_t npts, const struct sdt_tprobe *names,
		int (*probe)(struct sdt_tprobe *p, void *data), void *data)
{
	size_t i;
	unsigned int a;
	int err;

	for (i = 0; i < npts; i++) {
		struct point *pt = &pts[i];
		struct sdt_tprobe *tp;

		if (pt->bad || !pt->mark || (!pt->process && !pt->library))
			continue;
		tp = calloc(1, sizeof(*tp));
		if (!tp)
			return -ENOMEM;
		tp->line = pt->line;
		tp->mark = pt->mark;
		tp->provider = pt->provider;
		tp->path = pt->library ? pt->library : pt->process;
		if (pt->library)
			free(pt->process);
		else
			free(pt->library);
		memset(pt, 0, sizeof(*pt));
		tp->nargs = names->nargs;
		for (a = 0; a < SDT_TAPSET_MAX_ARGS; a++) {
			tp->args[a].is_string = names->args[a].is_string;
			if (names->args[a].name && !(tp->args[a].name = strdup(names->args[a].name))) {
				sdt_tprobe_free(tp);
				return -ENOMEM;
			}
		}
		err = probe(tp, data);
		if (err < 0)
			return err;
	}
	return 0;
}

/*
 * A `probe` statement, its keyword just read: its points (after an alias's `NAME =`), then its
 * body. 0 (read, or not our shape: the token current then is the caller's), 1 (the text ended,
 * said), or a negative error.
 */
static int parse_probe(struct lex *lx, unsigned int *nprobes,
		       int (*probe)(struct sdt_tprobe *p, void *data), void *data)
{
	struct point pts[MAX_POINTS];
	struct sdt_tprobe names;
	size_t npts = 0, i;
	bool alias = false;
	unsigned int line = lx->tline, a;
	int ret = 0;

	memset(&names, 0, sizeof(names));
	next(lx);
	for (;;) {
		struct point pt;

		ret = parse_point(lx, &pt);
		if (ret < 0)
			point_free(&pt);
		if (ret <= 0)
			goto out;
		if (npts < MAX_POINTS)
			pts[npts++] = pt;
		else
			point_free(&pt);
		if (is_punct(lx, ',')) {
			next(lx);
			continue;
		}
		if (is_punct(lx, '+')) /* += */
			next(lx);
		if (is_punct(lx, '=') && !alias) {
			/* the names were the alias's: its points follow */
			for (i = 0; i < npts; i++) {
				if (pts[i].parens)
					break;
				point_free(&pts[i]);
			}
			if (i < npts) {
				ret = 0;
				goto out;
			}
			npts = 0;
			alias = true;
			next(lx);
			continue;
		}
		break;
	}
	ret = 0;
	if (!is_punct(lx, '{'))
		goto out;
	ret = parse_body(lx, &names, line);
	if (ret)
		goto out;
	next(lx); /* past the closing brace */
	for (i = 0; i < npts; i++)
		if (!pts[i].bad && pts[i].mark && (pts[i].process || pts[i].library) &&
		    ++*nprobes > SDT_TAPSET_MAX_PROBES) {
			warn(lx, pts[i].line, "more than %u probe points: the rest is not read",
			     SDT_TAPSET_MAX_PROBES);
			lx->stop = true;
			ret = 1;
			goto out;
		}
	ret = emit(pts, npts, &names, probe, data);
out:
	for (i = 0; i < npts; i++)
		point_free(&pts[i]);
	for (a = 0; a < SDT_TAPSET_MAX_ARGS; a++)
		free(names.args[a].name);
	return ret;
}

int sdt_tapset_parse(const char *buf, size_t len, const char *name,
		     int (*probe)(struct sdt_tprobe *p, void *data),
		     void (*warn_cb)(const char *msg, void *data), void *data)
{
	struct lex lx = {.p = buf, .end = buf + len, .line = 1, .name = name ? name : "<memory>",
			 .warn = warn_cb, .data = data};
	unsigned int nprobes = 0;
	size_t depth = 0;
	int err;

	if (len > SDT_TAPSET_MAX_SIZE) {
		warn(&lx, 1, "larger than %u bytes: not read", SDT_TAPSET_MAX_SIZE);
		return 0;
	}
	next(&lx);
	while (lx.t != T_EOF && lx.t != T_ERR) {
		if (!depth && is_word(&lx, "probe")) {
			err = parse_probe(&lx, &nprobes, probe, data);
			if (err < 0)
				return err;
			if (err)
				break;
			continue; /* the current token is not read yet */
		}
		if (is_punct(&lx, '{'))
			depth++;
		else if (is_punct(&lx, '}') && depth)
			depth--;
		next(&lx);
	}
	return 0;
}
