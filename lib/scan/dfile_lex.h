/* SPDX-License-Identifier: MIT */
/*
 * The lexer of DTrace provider files (dfile_lex.c), for the parser (dfile.c): tokens, the
 * `#define` aliases of C types, and the `@sdtrace KEY: TEXT` notes of comments waiting for the
 * declaration they come before. Every count bounded: the file may come from anyone.
 */
#ifndef SDT_SCAN_DFILE_LEX_H
#define SDT_SCAN_DFILE_LEX_H

#include <stdbool.h>
#include <stddef.h>

#include "scan/dfile.h"
#include "util/internal.h"

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

/* Can @c start a name? */
bool sdt_dlex_is_ident_start(char c);
/* "NAME:LINE: message" as the error (-EINVAL). */
int sdt_dlex_err(const struct lexer *lx, unsigned int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The current token, quoted for a message. */
const char *sdt_dlex_tok_shown(const struct lexer *lx);
/* Append the words of a C type to @b, its aliases expanded. */
int sdt_dlex_add_type_text(const struct lexer *lx, struct sdt_buf *b, const char *word);
/* `#define NAME VALUE` (or a typedef): NAME stands for the C type VALUE from now on. */
int sdt_dlex_define_alias(struct lexer *lx, const char *name, const char *value, unsigned int line);
/* The notes: emptied (kept allocated), freed, one added (bounded). */
void sdt_dlex_notes_clear(struct notes *ns);
void sdt_dlex_notes_free(struct notes *ns);
int sdt_dlex_notes_add(const struct lexer *lx, struct notes *ns, const char *key, const char *text,
		       unsigned int line);
/* Read the next token into lx->tok and lx->text (directives and comments taken in). */
int sdt_dlex_next(struct lexer *lx);
/* Is the current token the punctuation @c, the word @w? */
bool sdt_dlex_is_punct(const struct lexer *lx, char c);
bool sdt_dlex_is_word(const struct lexer *lx, const char *w);
/*
 * Skip one declaration: tokens up to the ';' at nesting depth 0 (or a '}' that closes the
 * enclosing block, left unread when @stop_at_close). Brackets must balance.
 */
int sdt_dlex_skip_decl(struct lexer *lx, bool stop_at_close);

#endif
