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
 * the file may come from anyone (a user directory, a --types argument).
 */
#include <stdio.h>
#include <string.h>

#include "scan/dfile.h"
#include "util/internal.h"
#include "scan/types.h"

/* perf's group "sdt_<provider>" must stay a valid tracefs name. */
#define MAX_PROVIDER	 (SDT_MAX_EVENT_NAME - 4)
#define MAX_DIRECTIVE	 4096
#define MAX_CTYPE	 256
#define MAX_PARAM_TOKENS 32

enum tok {
	TOK_EOF,
	TOK_IDENT,
	TOK_NUMBER,
	TOK_STRING,
	TOK_PUNCT,
};

struct alias {
	char *name;
	char *value;
};

struct ptok {
	char text[SDT_DFILE_MAX_IDENT + 1];
	bool ident;
};

/* Notes read from comments, waiting for the declaration they come before. */
struct notes {
	struct sdt_dnote *v;
	size_t n, cap;
};

struct lexer {
	const char *p, *end, *name;
	unsigned int line;
	bool line_start; /* only blanks since the last newline: '#' starts a directive */
	struct alias *aliases;
	size_t naliases, aliases_cap;
	struct notes pending; /* the `@sdtrace KEY: TEXT` lines since the last declaration */
	struct ptok *ptoks;   /* MAX_PARAM_TOKENS, for one parameter at a time */
	/* the current token */
	enum tok tok;
	unsigned int tok_line;
	char text[SDT_DFILE_MAX_IDENT + 1];
};

static bool is_ident_start(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_ident_char(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int lex_err(const struct lexer *lx, unsigned int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int lex_err(const struct lexer *lx, unsigned int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sdt_err(-EINVAL, "%s:%u: %s", lx->name, line, msg);
}

/* The current token, quoted for a message. */
static const char *tok_shown(const struct lexer *lx)
{
	switch (lx->tok) {
	case TOK_EOF:
		return "end of file";
	case TOK_STRING:
		return "a string";
	default:
		return lx->text;
	}
}

static const struct alias *find_alias(const struct lexer *lx, const char *name)
{
	size_t i;

	for (i = 0; i < lx->naliases; i++) {
		if (!strcmp(lx->aliases[i].name, name))
			return &lx->aliases[i];
	}
	return NULL;
}

/*
 * Append the words of a C type to @b, expanding aliases (already expanded when defined, so one
 * level suffices). @words is "const Oid *", or a single word.
 */
static int add_type_text(const struct lexer *lx, struct sdt_buf *b, const char *word)
{
	const struct alias *a = is_ident_start(word[0]) ? find_alias(lx, word) : NULL;

	if (b->len && sdt_buf_addstr(b, " "))
		return -ENOMEM;
	return sdt_buf_addstr(b, a ? a->value : word);
}

/* Is @s made of C type words and '*' only (a plausible alias value)? */
static bool type_words(const char *s)
{
	bool any = false;

	for (; *s; s++) {
		if (is_ident_char(*s) || *s == '*')
			any = true;
		else if (*s != ' ' && *s != '\t')
			return false;
	}
	return any;
}

/* Define alias @name = @value (expanded now). Later definitions replace earlier ones. */
static int define_alias(struct lexer *lx, const char *name, const char *value, unsigned int line)
{
	struct sdt_buf b = {0};
	const char *p = value;
	struct alias *a;
	char word[SDT_DFILE_MAX_IDENT + 1];

	if (!type_words(value))
		return 0; /* "#define N 5" and the like: not a type */
	while (*p) {
		size_t len = 0;

		if (*p == ' ' || *p == '\t') {
			p++;
			continue;
		}
		if (*p == '*')
			len = 1;
		else
			while (is_ident_char(p[len]))
				len++;
		if (len > SDT_DFILE_MAX_IDENT) {
			sdt_buf_free(&b);
			return lex_err(lx, line, "type of '%s' is too long", name);
		}
		memcpy(word, p, len);
		word[len] = '\0';
		p += len;
		if (add_type_text(lx, &b, word)) {
			sdt_buf_free(&b);
			return sdt_err(-ENOMEM, "out of memory");
		}
		if (b.len > MAX_CTYPE) {
			sdt_buf_free(&b);
			return lex_err(lx, line, "type of '%s' is longer than %d bytes", name,
				       MAX_CTYPE);
		}
	}
	a = (struct alias *)find_alias(lx, name);
	if (a) {
		free(a->value);
		a->value = sdt_buf_take(&b);
		return a->value ? 0 : sdt_err(-ENOMEM, "out of memory");
	}
	if (lx->naliases >= SDT_DFILE_MAX_ALIASES) {
		sdt_buf_free(&b);
		return sdt_err(-E2BIG, "%s:%u: more than %d type aliases", lx->name, line,
			       SDT_DFILE_MAX_ALIASES);
	}
	if (sdt_grow((void **)&lx->aliases, &lx->aliases_cap, lx->naliases + 1,
		     sizeof(*lx->aliases))) {
		sdt_buf_free(&b);
		return sdt_err(-ENOMEM, "out of memory");
	}
	a = &lx->aliases[lx->naliases];
	a->name = sdt_strdup(name);
	a->value = sdt_buf_take(&b);
	if (!a->name || !a->value) {
		free(a->name);
		free(a->value);
		return sdt_err(-ENOMEM, "out of memory");
	}
	lx->naliases++;
	return 0;
}

/* A '#' line: `#define NAME TYPE` defines an alias; everything else is ignored. */
static int directive(struct lexer *lx)
{
	char line[MAX_DIRECTIVE + 1], name[SDT_DFILE_MAX_IDENT + 1];
	unsigned int start = lx->line;
	size_t n = 0, len = 0;
	const char *p;

	lx->p++; /* '#' */
	while (lx->p < lx->end && *lx->p != '\n') {
		char c = *lx->p++;

		if (c == '\\' && lx->p < lx->end && *lx->p == '\n') {
			lx->p++;
			lx->line++;
			c = ' ';
		}
		if (n >= MAX_DIRECTIVE)
			return lex_err(lx, start, "'#' line longer than %d bytes", MAX_DIRECTIVE);
		line[n++] = c == '\t' || c == '\r' ? ' ' : c;
	}
	line[n] = '\0';
	if (memchr(line, '\0', n))
		return lex_err(lx, start, "NUL byte in a '#' line");
	p = line;
	while (*p == ' ')
		p++;
	if (strncmp(p, "define", 6) || (p[6] != ' '))
		return 0;
	p += 6;
	while (*p == ' ')
		p++;
	if (!is_ident_start(*p))
		return 0;
	while (is_ident_char(p[len]))
		len++;
	if (len > SDT_DFILE_MAX_IDENT)
		return lex_err(lx, start, "name in '#define' longer than %d bytes",
			       SDT_DFILE_MAX_IDENT);
	memcpy(name, p, len);
	name[len] = '\0';
	p += len;
	if (*p == '(')
		return 0; /* a function-like macro */
	while (*p == ' ')
		p++;
	{
		size_t vlen = strlen(p);

		while (vlen && line[p - line + vlen - 1] == ' ')
			vlen--;
		line[p - line + vlen] = '\0';
	}
	return define_alias(lx, name, p, start);
}

static void notes_clear(struct notes *ns)
{
	size_t i;

	for (i = 0; i < ns->n; i++) {
		free(ns->v[i].key);
		free(ns->v[i].text);
	}
	ns->n = 0;
}

static void notes_free(struct notes *ns)
{
	notes_clear(ns);
	free(ns->v);
	ns->v = NULL;
	ns->cap = 0;
}

/* Append a note (@key, @text copied) to @ns. 0, -E2BIG (message) or -ENOMEM. */
static int notes_add(const struct lexer *lx, struct notes *ns, const char *key, const char *text,
		     unsigned int line)
{
	struct sdt_dnote *d;

	if (ns->n >= SDT_DFILE_MAX_NOTES)
		return sdt_err(-E2BIG, "%s:%u: more than %d notes for one probe", lx->name, line,
			       SDT_DFILE_MAX_NOTES);
	if (sdt_grow((void **)&ns->v, &ns->cap, ns->n + 1, sizeof(*ns->v)))
		return sdt_err(-ENOMEM, "out of memory");
	d = &ns->v[ns->n];
	d->key = sdt_strdup(key);
	d->text = sdt_strdup(text);
	d->line = line;
	if (!d->key || !d->text) {
		free(d->key);
		free(d->text);
		return sdt_err(-ENOMEM, "out of memory");
	}
	ns->n++;
	return 0;
}

/* The note being read from a comment: its key, its text so far. */
struct note_acc {
	char key[SDT_DFILE_MAX_NOTE_KEY + 1];
	struct sdt_buf text;
	unsigned int line;
	bool open;
};

/* The note in @acc is complete: checked and put in lx->pending. */
static int note_end(struct lexer *lx, struct note_acc *acc)
{
	int err = 0;

	if (!acc->open)
		return 0;
	acc->open = false;
	if (!acc->text.len)
		err = lex_err(lx, acc->line, "note '%s' has no text", acc->key);
	else
		err = notes_add(lx, &lx->pending, acc->key, acc->text.buf, acc->line);
	sdt_buf_free(&acc->text);
	return err;
}

/* Add @len bytes of @s (one comment line, trimmed) to the open note's text. */
static int note_text(struct lexer *lx, struct note_acc *acc, const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return lex_err(lx, acc->line, "control byte 0x%02x in note '%s'", c,
				       acc->key);
	}
	if ((acc->text.len && sdt_buf_addstr(&acc->text, " ")) || sdt_buf_add(&acc->text, s, len))
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < acc->text.len; i++)
		if (acc->text.buf[i] == '\t')
			acc->text.buf[i] = ' ';
	if (acc->text.len > SDT_DFILE_MAX_NOTE)
		return lex_err(lx, acc->line, "note '%s' is longer than %d bytes", acc->key,
			       SDT_DFILE_MAX_NOTE);
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/*
 * The `@sdtrace KEY: TEXT` lines of a comment's body (@len bytes at @s, without its delimiters;
 * it starts on line @line) into lx->pending (dfile.h says the form).
 */
static int comment_notes(struct lexer *lx, const char *s, size_t len, unsigned int line)
{
	static const char tag[] = "@sdtrace";
	const char *end = s + len;
	struct note_acc acc = {.open = false};
	int err = 0;

	if (!memmem(s, len, tag, sizeof(tag) - 1))
		return 0;
	for (; s < end && !err; line++) {
		const char *eol = memchr(s, '\n', (size_t)(end - s));
		const char *a = s, *b = eol ? eol : end;

		s = eol ? eol + 1 : end;
		while (a < b && is_blank(*a))
			a++;
		if (a < b && *a == '*') /* " * text": the usual left margin */
			a++;
		while (a < b && is_blank(*a))
			a++;
		while (b > a && is_blank(b[-1]))
			b--;
		if ((size_t)(b - a) >= sizeof(tag) - 1 && !memcmp(a, tag, sizeof(tag) - 1) &&
		    (b - a == sizeof(tag) - 1 || is_blank(a[sizeof(tag) - 1]))) {
			size_t k = 0;

			err = note_end(lx, &acc);
			if (err)
				break;
			a += sizeof(tag) - 1;
			while (a < b && is_blank(*a))
				a++;
			while (
			    a + k < b && k <= SDT_DFILE_MAX_NOTE_KEY &&
			    ((a[k] >= 'a' && a[k] <= 'z') ||
			     (k && ((a[k] >= '0' && a[k] <= '9') || a[k] == '_' || a[k] == '-'))))
				k++;
			if (!k || k > SDT_DFILE_MAX_NOTE_KEY || a + k >= b || a[k] != ':') {
				err =
				    lex_err(lx, line,
					    "expected '@sdtrace KEY: TEXT' (KEY [a-z][a-z0-9_-]*, "
					    "at most %d bytes)",
					    SDT_DFILE_MAX_NOTE_KEY);
				break;
			}
			memcpy(acc.key, a, k);
			acc.key[k] = '\0';
			acc.line = line;
			acc.open = true;
			a += k + 1;
			while (a < b && is_blank(*a))
				a++;
			if (a < b)
				err = note_text(lx, &acc, a, (size_t)(b - a));
		} else if (a == b) {
			err = note_end(lx, &acc); /* a blank line ends the note */
		} else if (acc.open) {
			err = note_text(lx, &acc, a, (size_t)(b - a));
		}
	}
	if (!err)
		err = note_end(lx, &acc);
	sdt_buf_free(&acc.text);
	return err;
}

/* Skip blanks, newlines, comments and '#' lines. */
static int skip_space(struct lexer *lx)
{
	while (lx->p < lx->end) {
		char c = *lx->p;

		if (c == '\n') {
			lx->line++;
			lx->line_start = true;
			lx->p++;
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			lx->p++;
		} else if (c == '/' && lx->end - lx->p >= 2 && lx->p[1] == '*') {
			unsigned int start = lx->line;
			const char *body;
			int err;

			lx->p += 2;
			body = lx->p;
			for (;;) {
				if (lx->end - lx->p < 2) {
					lx->p = lx->end;
					return lex_err(lx, start, "unterminated comment");
				}
				if (lx->p[0] == '*' && lx->p[1] == '/') {
					lx->p += 2;
					break;
				}
				if (*lx->p == '\n')
					lx->line++;
				lx->p++;
			}
			err = comment_notes(lx, body, (size_t)(lx->p - 2 - body), start);
			if (err)
				return err;
		} else if (c == '/' && lx->end - lx->p >= 2 && lx->p[1] == '/') {
			const char *body = lx->p + 2;
			int err;

			while (lx->p < lx->end && *lx->p != '\n')
				lx->p++;
			err = comment_notes(lx, body, (size_t)(lx->p - body), lx->line);
			if (err)
				return err;
		} else if (c == '#' && lx->line_start) {
			int err = directive(lx);

			if (err)
				return err;
		} else {
			return 0;
		}
	}
	return 0;
}

/* Read the next token into lx->tok / lx->text. */
static int next(struct lexer *lx)
{
	size_t len = 0;
	int err;
	char c;

	err = skip_space(lx);
	if (err)
		return err;
	lx->tok_line = lx->line;
	lx->text[0] = '\0';
	if (lx->p >= lx->end) {
		lx->tok = TOK_EOF;
		return 0;
	}
	lx->line_start = false;
	c = *lx->p;
	if (is_ident_start(c) || (c >= '0' && c <= '9')) {
		bool number = !is_ident_start(c);

		/* '-' inside a probe name ("function-entry") is part of it */
		while (lx->p + len < lx->end &&
		       (is_ident_char(lx->p[len]) ||
			(!number && lx->p[len] == '-' && lx->p + len + 1 < lx->end &&
			 is_ident_char(lx->p[len + 1])) ||
			(number && lx->p[len] == '.'))) {
			if (len >= SDT_DFILE_MAX_IDENT)
				return lex_err(lx, lx->line, "name longer than %d bytes",
					       SDT_DFILE_MAX_IDENT);
			len++;
		}
		memcpy(lx->text, lx->p, len);
		lx->text[len] = '\0';
		lx->p += len;
		lx->tok = number ? TOK_NUMBER : TOK_IDENT;
		return 0;
	}
	if (c == '"' || c == '\'') {
		lx->p++;
		for (;;) {
			if (lx->p >= lx->end || *lx->p == '\n')
				return lex_err(lx, lx->tok_line, "unterminated %s literal",
					       c == '"' ? "string" : "character");
			if (*lx->p == '\\' && lx->p + 1 < lx->end && lx->p[1] != '\n') {
				lx->p += 2;
				continue;
			}
			if (*lx->p++ == c)
				break;
		}
		lx->tok = TOK_STRING;
		return 0;
	}
	if (strchr("{}()[];,*=<>:.&|+-!~?%^/@`$", c) && c) {
		lx->text[0] = c;
		lx->text[1] = '\0';
		lx->p++;
		lx->tok = TOK_PUNCT;
		return 0;
	}
	return lex_err(lx, lx->line, "unexpected byte 0x%02x", (unsigned char)c);
}

static bool is_punct(const struct lexer *lx, char c)
{
	return lx->tok == TOK_PUNCT && lx->text[0] == c;
}

static bool is_word(const struct lexer *lx, const char *w)
{
	return lx->tok == TOK_IDENT && !strcmp(lx->text, w);
}

/*
 * Skip one declaration: tokens up to the ';' at nesting depth 0 (or a '}' that closes the
 * enclosing block, left unread when @stop_at_close). Brackets must balance.
 */
static int skip_decl(struct lexer *lx, bool stop_at_close)
{
	char stack[SDT_DFILE_MAX_NESTING];
	unsigned int start = lx->tok_line;
	size_t depth = 0;
	int err;

	for (;;) {
		if (lx->tok == TOK_EOF)
			return lex_err(lx, start, "declaration not ended by ';'");
		if (lx->tok == TOK_PUNCT) {
			char c = lx->text[0];

			if (c == '{' || c == '(' || c == '[') {
				if (depth >= SDT_DFILE_MAX_NESTING)
					return lex_err(lx, lx->tok_line,
						       "nesting deeper than %d levels",
						       SDT_DFILE_MAX_NESTING);
				stack[depth++] = c == '{' ? '}' : c == '(' ? ')' : ']';
			} else if (c == '}' || c == ')' || c == ']') {
				if (!depth) {
					if (c == '}' && stop_at_close) {
						notes_clear(&lx->pending);
						return 0;
					}
					return lex_err(lx, lx->tok_line, "unbalanced '%c'", c);
				}
				if (stack[depth - 1] != c)
					return lex_err(lx, lx->tok_line, "'%c' does not close '%c'",
						       c,
						       stack[depth - 1] == '}'	 ? '{'
						       : stack[depth - 1] == ')' ? '('
										 : '[');
				depth--;
			} else if (c == ';' && !depth) {
				/* notes inside a skipped declaration belong to nothing */
				notes_clear(&lx->pending);
				return next(lx);
			}
		}
		err = next(lx);
		if (err)
			return err;
	}
}

/* Words that are part of a C type, never a parameter name. */
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
			return lex_err(lx, line, "unbalanced ']' in a parameter of '%s'", probe);
		n = j;
		arrays++;
	}
	if (!n)
		return lex_err(lx, line, "a parameter of '%s' has no type", probe);
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
				return lex_err(lx, line, "unexpected '%s' in a parameter of '%s'",
					       t[i].text, probe);
			}
			if (add_type_text(lx, &b, t[i].text))
				goto nomem;
		}
		for (i = 0; i < arrays; i++) {
			if (sdt_buf_addstr(&b, " *"))
				goto nomem;
		}
	}
	if (b.len > MAX_CTYPE) {
		sdt_buf_free(&b);
		return lex_err(lx, line, "a parameter type of '%s' is longer than %d bytes", probe,
			       MAX_CTYPE);
	}
	{
		struct sdt_arg_type check;

		/* "int a b", "short long": not a C type (a typedef's name is fine) */
		if (sdt_type__from_c(b.buf, 8, &check) == -EINVAL) {
			lex_err(lx, line, "'%s' is not a C type (a parameter of '%s')", b.buf,
				probe);
			sdt_buf_free(&b);
			return -EINVAL;
		}
	}
	if (name && !sdt_type__valid_name(name)) {
		sdt_buf_free(&b);
		return lex_err(lx, line,
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

	err = next(lx);
	if (err)
		return err;
	/* "()" and "(void)": no parameters */
	if (is_punct(lx, ')'))
		return next(lx);
	if (is_word(lx, "void")) {
		const char *save_p = lx->p;
		unsigned int save_line = lx->line;
		bool save_start = lx->line_start;

		err = next(lx);
		if (err)
			return err;
		if (is_punct(lx, ')'))
			return next(lx);
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
				err = lex_err(lx, line, "parameters of '%s' not closed by ')'",
					      p->name);
				goto out;
			}
			if (lx->tok == TOK_STRING ||
			    (lx->tok == TOK_PUNCT && strchr(";{}", lx->text[0]))) {
				err = lex_err(lx, lx->tok_line,
					      "unexpected %s in the parameters of '%s'",
					      lx->tok == TOK_STRING ? "string" : lx->text, p->name);
				goto out;
			}
			if (is_punct(lx, '(')) {
				if (++depth > SDT_DFILE_MAX_NESTING) {
					err = lex_err(lx, lx->tok_line,
						      "nesting deeper than %d levels",
						      SDT_DFILE_MAX_NESTING);
					goto out;
				}
				fnptr = true;
			} else if (is_punct(lx, ')')) {
				if (!depth)
					break;
				depth--;
			} else if (is_punct(lx, ',') && !depth) {
				break;
			} else if (!depth) {
				if (is_punct(lx, '.')) {
					err = lex_err(lx, lx->tok_line,
						      "'%s' has variable arguments ('...'), which "
						      "SDT probes cannot have",
						      p->name);
					goto out;
				}
				if (n >= MAX_PARAM_TOKENS) {
					err = lex_err(lx, line, "a parameter of '%s' is too long",
						      p->name);
					goto out;
				}
				memcpy(toks[n].text, lx->text, sizeof(toks[n].text));
				toks[n].ident = lx->tok == TOK_IDENT || lx->tok == TOK_NUMBER;
				if (lx->tok == TOK_IDENT && strchr(lx->text, '-')) {
					err = lex_err(lx, lx->tok_line,
						      "'%s' is not a C name (parameter of '%s')",
						      lx->text, p->name);
					goto out;
				}
				n++;
			}
			err = next(lx);
			if (err)
				goto out;
		}
		if (p->nparams >= SDT_MAX_ARGS) {
			err = lex_err(lx, line, "'%s' has more than %d parameters", p->name,
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
				err = lex_err(lx, line, "parameter name '%s' is used twice in '%s'",
					      p->params[j].name, p->name);
				goto out;
			}
		}
		if (is_punct(lx, ')'))
			break;
		err = next(lx); /* past ',' */
		if (err)
			goto out;
	}
	err = next(lx);
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
		err = notes_add(lx, &ns, lx->pending.v[i].key, lx->pending.v[i].text,
				lx->pending.v[i].line);
	p->notes = ns.v;
	p->nnotes = ns.n;
	notes_clear(&lx->pending);
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
	err = next(lx);
	if (err) {
		notes_free(&own);
		return err;
	}
	if (err)
		return err;
	if (lx->tok != TOK_IDENT) {
		notes_free(&own);
		return lex_err(lx, lx->tok_line, "expected a probe name after 'probe', found '%s'",
			       tok_shown(lx));
	}
	/* dtrace -h: '-' in a probe name becomes "__" */
	for (s = lx->text; *s; s++) {
		if (*s == '-' ? sdt_buf_addstr(&b, "__") : sdt_buf_add(&b, s, 1)) {
			sdt_buf_free(&b);
			notes_free(&own);
			return sdt_err(-ENOMEM, "out of memory");
		}
	}
	if (!sdt_valid_event_name(b.buf, SDT_MAX_EVENT_NAME)) {
		err = lex_err(lx, lx->tok_line,
			      "probe name '%s' is not a valid event name "
			      "([A-Za-z_][A-Za-z0-9_]*, at most %d bytes)",
			      lx->text, SDT_MAX_EVENT_NAME);
		sdt_buf_free(&b);
		notes_free(&own);
		return err;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		sdt_buf_free(&b);
		notes_free(&own);
		return sdt_err(-ENOMEM, "out of memory");
	}
	{
		struct notes ns = {0};

		err = 0;
		for (i = 0; !err && pnotes && i < pnotes->n; i++)
			err = notes_add(lx, &ns, pnotes->v[i].key, pnotes->v[i].text,
					pnotes->v[i].line);
		for (i = 0; !err && i < own.n; i++)
			err = notes_add(lx, &ns, own.v[i].key, own.v[i].text, own.v[i].line);
		p->notes = ns.v;
		p->nnotes = ns.n;
		notes_free(&own);
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
	err = next(lx);
	if (err)
		goto fail;
	if (!is_punct(lx, '(')) {
		err = lex_err(lx, lx->tok_line, "expected '(' after probe '%s', found '%s'",
			      p->name, tok_shown(lx));
		goto fail;
	}
	err = parse_params(lx, p);
	if (err)
		goto fail;
	if (!is_punct(lx, ';')) {
		err = lex_err(lx, lx->tok_line, "expected ';' after probe '%s', found '%s'",
			      p->name, tok_shown(lx));
		goto fail;
	}
	/* notes in comments inside the declaration are the probe's too */
	err = take_notes(lx, p);
	if (err)
		goto fail;
	err = next(lx);
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
	err = next(lx);
	if (err)
		goto out;
	if (lx->tok != TOK_IDENT || !sdt_valid_event_name(lx->text, MAX_PROVIDER)) {
		err = lex_err(lx, lx->tok_line,
			      "provider name '%s' is not valid "
			      "([A-Za-z_][A-Za-z0-9_]*, at most %d bytes)",
			      tok_shown(lx), MAX_PROVIDER);
		goto out;
	}
	memcpy(provider, lx->text, sizeof(provider));
	err = next(lx);
	if (err)
		goto out;
	if (!is_punct(lx, '{')) {
		err = lex_err(lx, lx->tok_line, "expected '{' after provider '%s', found '%s'",
			      provider, tok_shown(lx));
		goto out;
	}
	/* notes between the name and '{' are the provider's too */
	while (!err && lx->pending.n) {
		err = notes_add(lx, &pnotes, lx->pending.v[0].key, lx->pending.v[0].text,
				lx->pending.v[0].line);
		free(lx->pending.v[0].key);
		free(lx->pending.v[0].text);
		memmove(lx->pending.v, lx->pending.v + 1, --lx->pending.n * sizeof(*lx->pending.v));
	}
	if (!err)
		err = next(lx);
	while (!err) {
		if (lx->tok == TOK_EOF) {
			err = lex_err(lx, start, "provider '%s' not closed by '}'", provider);
			break;
		}
		if (is_punct(lx, '}')) {
			notes_clear(&lx->pending); /* notes before '}' belong to no probe */
			err = next(lx);
			if (!err && is_punct(lx, ';'))
				err = next(lx);
			break;
		}
		if (is_word(lx, "probe"))
			err = parse_probe(lx, provider, &pnotes, fn, data);
		else
			err = skip_decl(lx, true);
	}
out:
	notes_free(&pnotes);
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
		err = next(lx);
		if (err)
			goto out;
		if (is_punct(lx, ';') || lx->tok == TOK_EOF)
			break;
		if (!(lx->tok == TOK_IDENT || is_punct(lx, '*'))) {
			/* typedef struct { ... } x; and the like */
			sdt_buf_free(&b);
			return skip_decl(lx, false);
		}
		if (name[0] && (add_type_text(lx, &b, name) || b.len > MAX_CTYPE)) {
			err = b.len > MAX_CTYPE
				  ? lex_err(lx, line, "typedef longer than %d bytes", MAX_CTYPE)
				  : sdt_err(-ENOMEM, "out of memory");
			goto out;
		}
		memcpy(name, lx->text, sizeof(name));
		words++;
	}
	if (lx->tok == TOK_EOF) {
		err = lex_err(lx, line, "typedef not ended by ';'");
		goto out;
	}
	notes_clear(&lx->pending); /* notes before a typedef belong to no probe */
	err = next(lx);
	/* the type's words are expanded already; define_alias() finds nothing more to expand */
	if (!err && words >= 2 && is_ident_start(name[0]) && b.buf)
		err = define_alias(lx, name, b.buf, line);
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
	err = next(&lx);
	while (!err && lx.tok != TOK_EOF) {
		if (is_word(&lx, "provider"))
			err = parse_provider(&lx, fn, data);
		else if (is_word(&lx, "typedef"))
			err = parse_typedef(&lx);
		else
			err = skip_decl(&lx, false);
	}
	for (i = 0; i < lx.naliases; i++) {
		free(lx.aliases[i].name);
		free(lx.aliases[i].value);
	}
	free(lx.aliases);
	free(lx.ptoks);
	notes_free(&lx.pending);
	return err;
}
