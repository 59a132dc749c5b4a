/* SPDX-License-Identifier: MIT */
/*
 * The lexer of DTrace provider files (see dfile_lex.h): tokens, directives (`#define` aliases of
 * C types, the rest skipped), comments and the `@sdtrace KEY: TEXT` notes in them, and skipping
 * a declaration the parser (dfile.c) does not read.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/dfile_lex.h"

bool sdt_dlex_is_ident_start(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_ident_char(char c)
{
	return sdt_dlex_is_ident_start(c) || (c >= '0' && c <= '9');
}

int sdt_dlex_err(const struct lexer *lx, unsigned int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return sdt_err(-EINVAL, "%s:%u: %s", lx->name, line, msg);
}

/* The current token, quoted for a message. */
const char *sdt_dlex_tok_shown(const struct lexer *lx)
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
int sdt_dlex_add_type_text(const struct lexer *lx, struct sdt_buf *b, const char *word)
{
	const struct alias *a = sdt_dlex_is_ident_start(word[0]) ? find_alias(lx, word) : NULL;

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
int sdt_dlex_define_alias(struct lexer *lx, const char *name, const char *value, unsigned int line)
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
			return sdt_dlex_err(lx, line, "type of '%s' is too long", name);
		}
		memcpy(word, p, len);
		word[len] = '\0';
		p += len;
		if (sdt_dlex_add_type_text(lx, &b, word)) {
			sdt_buf_free(&b);
			return sdt_err(-ENOMEM, "out of memory");
		}
		if (b.len > MAX_CTYPE) {
			sdt_buf_free(&b);
			return sdt_dlex_err(lx, line, "type of '%s' is longer than %d bytes", name,
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
			return sdt_dlex_err(lx, start, "'#' line longer than %d bytes",
					    MAX_DIRECTIVE);
		line[n++] = c == '\t' || c == '\r' ? ' ' : c;
	}
	line[n] = '\0';
	if (memchr(line, '\0', n))
		return sdt_dlex_err(lx, start, "NUL byte in a '#' line");
	p = line;
	while (*p == ' ')
		p++;
	if (strncmp(p, "define", 6) || (p[6] != ' '))
		return 0;
	p += 6;
	while (*p == ' ')
		p++;
	if (!sdt_dlex_is_ident_start(*p))
		return 0;
	while (is_ident_char(p[len]))
		len++;
	if (len > SDT_DFILE_MAX_IDENT)
		return sdt_dlex_err(lx, start, "name in '#define' longer than %d bytes",
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
	return sdt_dlex_define_alias(lx, name, p, start);
}

void sdt_dlex_notes_clear(struct notes *ns)
{
	size_t i;

	for (i = 0; i < ns->n; i++) {
		free(ns->v[i].key);
		free(ns->v[i].text);
	}
	ns->n = 0;
}

void sdt_dlex_notes_free(struct notes *ns)
{
	sdt_dlex_notes_clear(ns);
	free(ns->v);
	ns->v = NULL;
	ns->cap = 0;
}

/* Append a note (@key, @text copied) to @ns. 0, -E2BIG (message) or -ENOMEM. */
int sdt_dlex_notes_add(const struct lexer *lx, struct notes *ns, const char *key, const char *text,
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

/*
 * A `category` note's text: one word, [a-z][a-z0-9_]*, at most SDT_DFILE_MAX_CATEGORY bytes (a
 * column of `top --per-process`, a JSON key). The words in use are ustat's: method, gc, objnew,
 * cload, excp, thread; others are kept, as other keys are.
 */
static bool category_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || len > SDT_DFILE_MAX_CATEGORY || s[0] < 'a' || s[0] > 'z')
		return false;
	for (i = 1; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

/* The note in @acc is complete: checked and put in lx->pending. */
static int note_end(struct lexer *lx, struct note_acc *acc)
{
	int err = 0;

	if (!acc->open)
		return 0;
	acc->open = false;
	if (!acc->text.len)
		err = sdt_dlex_err(lx, acc->line, "note '%s' has no text", acc->key);
	else if (!strcmp(acc->key, "category") && !category_ok(acc->text.buf, acc->text.len))
		err = sdt_dlex_err(lx, acc->line,
				   "note 'category' takes one word ([a-z][a-z0-9_]*, at most %d "
				   "bytes: method, gc, objnew, cload, excp, thread)",
				   SDT_DFILE_MAX_CATEGORY);
	else
		err = sdt_dlex_notes_add(lx, &lx->pending, acc->key, acc->text.buf, acc->line);
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
			return sdt_dlex_err(lx, acc->line, "control byte 0x%02x in note '%s'", c,
					    acc->key);
	}
	if ((acc->text.len && sdt_buf_addstr(&acc->text, " ")) || sdt_buf_add(&acc->text, s, len))
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < acc->text.len; i++)
		if (acc->text.buf[i] == '\t')
			acc->text.buf[i] = ' ';
	if (acc->text.len > SDT_DFILE_MAX_NOTE)
		return sdt_dlex_err(lx, acc->line, "note '%s' is longer than %d bytes", acc->key,
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
				err = sdt_dlex_err(
				    lx, line,
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
					return sdt_dlex_err(lx, start, "unterminated comment");
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
int sdt_dlex_next(struct lexer *lx)
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
	if (sdt_dlex_is_ident_start(c) || (c >= '0' && c <= '9')) {
		bool number = !sdt_dlex_is_ident_start(c);

		/* '-' inside a probe name ("function-entry") is part of it */
		while (lx->p + len < lx->end &&
		       (is_ident_char(lx->p[len]) ||
			(!number && lx->p[len] == '-' && lx->p + len + 1 < lx->end &&
			 is_ident_char(lx->p[len + 1])) ||
			(number && lx->p[len] == '.'))) {
			if (len >= SDT_DFILE_MAX_IDENT)
				return sdt_dlex_err(lx, lx->line, "name longer than %d bytes",
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
				return sdt_dlex_err(lx, lx->tok_line, "unterminated %s literal",
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
	return sdt_dlex_err(lx, lx->line, "unexpected byte 0x%02x", (unsigned char)c);
}

bool sdt_dlex_is_punct(const struct lexer *lx, char c)
{
	return lx->tok == TOK_PUNCT && lx->text[0] == c;
}

bool sdt_dlex_is_word(const struct lexer *lx, const char *w)
{
	return lx->tok == TOK_IDENT && !strcmp(lx->text, w);
}

/*
 * Skip one declaration: tokens up to the ';' at nesting depth 0 (or a '}' that closes the
 * enclosing block, left unread when @stop_at_close). Brackets must balance.
 */
int sdt_dlex_skip_decl(struct lexer *lx, bool stop_at_close)
{
	char stack[SDT_DFILE_MAX_NESTING];
	unsigned int start = lx->tok_line;
	size_t depth = 0;
	int err;

	for (;;) {
		if (lx->tok == TOK_EOF)
			return sdt_dlex_err(lx, start, "declaration not ended by ';'");
		if (lx->tok == TOK_PUNCT) {
			char c = lx->text[0];

			if (c == '{' || c == '(' || c == '[') {
				if (depth >= SDT_DFILE_MAX_NESTING)
					return sdt_dlex_err(lx, lx->tok_line,
							    "nesting deeper than %d levels",
							    SDT_DFILE_MAX_NESTING);
				stack[depth++] = c == '{' ? '}' : c == '(' ? ')' : ']';
			} else if (c == '}' || c == ')' || c == ']') {
				if (!depth) {
					if (c == '}' && stop_at_close) {
						sdt_dlex_notes_clear(&lx->pending);
						return 0;
					}
					return sdt_dlex_err(lx, lx->tok_line, "unbalanced '%c'", c);
				}
				if (stack[depth - 1] != c)
					return sdt_dlex_err(lx, lx->tok_line,
							    "'%c' does not close '%c'", c,
							    stack[depth - 1] == '}'   ? '{'
							    : stack[depth - 1] == ')' ? '('
										      : '[');
				depth--;
			} else if (c == ';' && !depth) {
				/* notes inside a skipped declaration belong to nothing */
				sdt_dlex_notes_clear(&lx->pending);
				return sdt_dlex_next(lx);
			}
		}
		err = sdt_dlex_next(lx);
		if (err)
			return err;
	}
}

/* Words that are part of a C type, never a parameter name. */
