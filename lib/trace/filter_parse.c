/* SPDX-License-Identifier: MIT */
/* A filter expression to its tree (filter.h): a recursive-descent parser with column messages. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/filter.h"
#include "util/internal.h"

/* Nesting deeper than this is refused (the parser recurses once per level). */
#define FILTER_MAX_DEPTH 64

struct parser {
	const char *s;
	size_t pos;
	size_t depth;
	struct sdt_filter *f;
	size_t cap;
	size_t err_col;
};

static int fail(struct parser *p, size_t pos, const char *what)
{
	p->err_col = pos + 1;
	return sdt_err(-EINVAL, "filter '%s': column %zu: %s", p->s, pos + 1, what);
}

static void skip_space(struct parser *p)
{
	while (isspace((unsigned char)p->s[p->pos]))
		p->pos++;
}

static bool eat(struct parser *p, const char *tok)
{
	size_t n = strlen(tok);

	skip_space(p);
	if (strncmp(p->s + p->pos, tok, n))
		return false;
	p->pos += n;
	return true;
}

/* A new node: its index, or -ENOMEM. */
static int new_node(struct parser *p, enum filter_node_kind kind)
{
	struct filter_node *n;

	if (sdt_grow((void **)&p->f->nodes, &p->cap, p->f->nnodes + 1, sizeof(*p->f->nodes)))
		return sdt_err(-ENOMEM, "out of memory");
	n = &p->f->nodes[p->f->nnodes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->lhs = n->rhs = -1;
	return (int)p->f->nnodes++;
}

static int name_index(struct sdt_filter *f, const char *name, size_t len, size_t *out)
{
	size_t i;
	char **names;

	for (i = 0; i < f->nnames; i++)
		if (strlen(f->names[i]) == len && !strncmp(f->names[i], name, len)) {
			*out = i;
			return 0;
		}
	names = sdt_reallocarray(f->names, f->nnames + 1, sizeof(*names));
	if (!names)
		return sdt_err(-ENOMEM, "out of memory");
	f->names = names;
	if (!(names[f->nnames] = sdt_strndup(name, len)))
		return sdt_err(-ENOMEM, "out of memory");
	*out = f->nnames++;
	return 0;
}

static int parse_name(struct parser *p, struct filter_node *n)
{
	static const struct {
		const char *name;
		enum filter_name what;
	} fixed[] = {
	    {"pid", FNAME_PID}, {"tid", FNAME_TID}, {"comm", FNAME_COMM}, {"cpu", FNAME_CPU}};
	size_t start, len, i;

	skip_space(p);
	start = p->pos;
	if (!isalpha((unsigned char)p->s[start]) && p->s[start] != '_')
		return fail(p, start,
			    p->s[start] ? "expected an argument name, argN, pid, tid, comm or cpu"
					: "the expression ends where a name was expected");
	while (isalnum((unsigned char)p->s[p->pos]) || p->s[p->pos] == '_')
		p->pos++;
	len = p->pos - start;
	n->col = start + 1;
	for (i = 0; i < ARRAY_SIZE(fixed); i++)
		if (strlen(fixed[i].name) == len && !strncmp(fixed[i].name, p->s + start, len)) {
			n->what = fixed[i].what;
			return 0;
		}
	n->what = FNAME_ARG;
	return name_index(p->f, p->s + start, len, &n->name);
}

static int parse_int(struct parser *p, uint64_t *out)
{
	const char *s = p->s + p->pos;
	char *end;

	if (!isdigit((unsigned char)*s))
		return fail(p, p->pos, "expected an integer");
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno == ERANGE)
		return fail(p, p->pos, "the integer does not fit in 64 bits");
	if (isalnum((unsigned char)*end) || *end == '_' || *end == '.')
		return fail(p, (size_t)(end - p->s), "not a number");
	p->pos = (size_t)(end - p->s);
	return 0;
}

static int parse_string(struct parser *p, struct filter_node *n)
{
	char quote = p->s[p->pos];
	size_t start = p->pos++;
	struct sdt_buf b = {0};
	int err = 0;

	for (;;) {
		char c = p->s[p->pos];

		if (!c) {
			sdt_buf_free(&b);
			return fail(p, start, "the string is not closed");
		}
		p->pos++;
		if (c == quote)
			break;
		if (c == '\\') {
			char e = p->s[p->pos];

			if (e == 'n')
				c = '\n';
			else if (e == 't')
				c = '\t';
			else if (e == '\\' || e == '"' || e == '\'')
				c = e;
			else {
				sdt_buf_free(&b);
				return fail(p, p->pos - 1,
					    "unknown escape (\\\", \\', \\\\, \\n, \\t)");
			}
			p->pos++;
		}
		if ((err = sdt_buf_add(&b, &c, 1)))
			break;
	}
	if (err || (!b.buf && sdt_buf_add(&b, "", 0))) {
		sdt_buf_free(&b);
		return sdt_err(-ENOMEM, "out of memory");
	}
	n->lit = FLIT_STRING;
	n->str = sdt_buf_take(&b);
	return 0;
}

static int parse_value(struct parser *p, struct filter_node *n)
{
	const char *s;
	bool neg = false, flt = false;
	size_t start, i;
	uint64_t u;
	char *end;
	int err;

	skip_space(p);
	s = p->s + p->pos;
	start = p->pos;
	if (*s == '"' || *s == '\'')
		return parse_string(p, n);
	if (*s == '-') {
		neg = true;
		p->pos++;
		s++;
	}
	if (!isdigit((unsigned char)*s))
		return fail(p, start,
			    *s ? "expected a number or a \"string\""
			       : "the expression ends where a value was expected");
	if (!(s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))
		for (i = 0;
		     isdigit((unsigned char)s[i]) || (s[i] && strchr(".eE", s[i])) ||
		     ((s[i] == '+' || s[i] == '-') && i && (s[i - 1] == 'e' || s[i - 1] == 'E'));
		     i++)
			if (s[i] && strchr(".eE", s[i]))
				flt = true;
	if (flt) {
		errno = 0;
		n->f = strtod(p->s + start, &end);
		if (errno == ERANGE || isalnum((unsigned char)*end) || *end == '.')
			return fail(p, start, "not a number");
		n->lit = FLIT_FLOAT;
		p->pos = (size_t)(end - p->s);
		return 0;
	}
	if ((err = parse_int(p, &u)))
		return err;
	if (neg && u > (uint64_t)INT64_MAX + 1)
		return fail(p, start, "the integer does not fit in 64 bits");
	n->lit = FLIT_INT;
	n->neg = neg;
	n->i = neg ? (int64_t)(0 - u) : (int64_t)u;
	n->f = neg ? -(double)u : (double)u;
	return 0;
}

static enum filter_op parse_op(struct parser *p)
{
	static const struct {
		const char *tok;
		enum filter_op op;
	} ops[] = {{"==", FOP_EQ}, {"!=", FOP_NE}, {"!~", FOP_NGLOB}, {"<=", FOP_LE},
		   {">=", FOP_GE}, {"<", FOP_LT},  {">", FOP_GT},     {"~", FOP_GLOB}};
	size_t i;

	skip_space(p);
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strncmp(p->s + p->pos, ops[i].tok, strlen(ops[i].tok))) {
			p->pos += strlen(ops[i].tok);
			return ops[i].op;
		}
	return FOP_TRUE;
}

static int parse_test(struct parser *p)
{
	int id = new_node(p, FN_TEST), err;
	struct filter_node *n;
	size_t at;

	if (id < 0)
		return id;
	if ((err = parse_name(p, &p->f->nodes[id])))
		return err;
	skip_space(p);
	if (p->s[p->pos] == '&' && p->s[p->pos + 1] != '&') {
		p->pos++;
		skip_space(p);
		if ((err = parse_int(p, &p->f->nodes[id].mask)))
			return err;
		p->f->nodes[id].has_mask = true;
	}
	skip_space(p);
	at = p->pos;
	n = &p->f->nodes[id];
	n->op = parse_op(p);
	if (n->op == FOP_TRUE)
		return id;
	if ((err = parse_value(p, n)))
		return err;
	if ((n->op == FOP_GLOB || n->op == FOP_NGLOB) && n->lit != FLIT_STRING)
		return fail(p, at, "'~' and '!~' match a \"glob\" string");
	if (n->lit == FLIT_STRING && n->op != FOP_EQ && n->op != FOP_NE && n->op != FOP_GLOB &&
	    n->op != FOP_NGLOB)
		return fail(p, at, "a string is compared with ==, !=, ~ or !~");
	if (n->has_mask && n->lit != FLIT_INT)
		return fail(p, at, "a masked value is compared with an integer");
	if (n->what == FNAME_COMM && n->lit != FLIT_STRING)
		return fail(p, at, "comm is compared with a \"string\"");
	if ((n->what == FNAME_PID || n->what == FNAME_TID || n->what == FNAME_CPU) &&
	    n->lit == FLIT_STRING)
		return fail(p, at, "pid, tid and cpu are compared with numbers");
	return id;
}

static int parse_or(struct parser *p);

static int parse_unary(struct parser *p)
{
	int id, sub;

	if (++p->depth > FILTER_MAX_DEPTH)
		return fail(p, p->pos, "nested too deeply");
	skip_space(p);
	if (p->s[p->pos] == '!' && p->s[p->pos + 1] != '=' && p->s[p->pos + 1] != '~') {
		p->pos++;
		if ((sub = parse_unary(p)) < 0)
			return sub;
		if ((id = new_node(p, FN_NOT)) < 0)
			return id;
		p->f->nodes[id].lhs = sub;
	} else if (p->s[p->pos] == '(') {
		size_t open = p->pos++;

		if ((id = parse_or(p)) < 0)
			return id;
		if (!eat(p, ")"))
			return fail(p, p->s[p->pos] ? p->pos : open,
				    p->s[p->pos] ? "expected ')', '&&' or '||'"
						 : "the '(' here is not closed");
	} else {
		id = parse_test(p);
	}
	p->depth--;
	return id;
}

static int parse_binary(struct parser *p, const char *tok, enum filter_node_kind kind,
			int (*sub)(struct parser *))
{
	int lhs = sub(p), rhs, id;

	while (lhs >= 0 && eat(p, tok)) {
		if ((rhs = sub(p)) < 0)
			return rhs;
		if ((id = new_node(p, kind)) < 0)
			return id;
		p->f->nodes[id].lhs = lhs;
		p->f->nodes[id].rhs = rhs;
		lhs = id;
	}
	return lhs;
}

static int parse_and(struct parser *p)
{
	return parse_binary(p, "&&", FN_AND, parse_unary);
}

static int parse_or(struct parser *p)
{
	return parse_binary(p, "||", FN_OR, parse_and);
}

void sdt_filter__free(struct sdt_filter *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nnodes; i++)
		free(f->nodes[i].str);
	for (i = 0; i < f->nnames; i++)
		free(f->names[i]);
	sdt_filter_kinds_free(f);
	free(f->names);
	free(f->nodes);
	free(f->text);
	free(f);
}

int sdt_filter__parse(const char *expr, struct sdt_filter **out, size_t *err_col)
{
	struct parser p = {.s = expr};
	int root;

	*out = NULL;
	if (err_col)
		*err_col = 0;
	if (!(p.f = calloc(1, sizeof(*p.f))) || !(p.f->text = sdt_strdup(expr))) {
		free(p.f);
		return sdt_err(-ENOMEM, "out of memory");
	}
	skip_space(&p);
	if (!expr[p.pos])
		root = fail(&p, p.pos, "the filter is empty");
	else
		root = parse_or(&p);
	skip_space(&p);
	if (root >= 0 && expr[p.pos])
		root = fail(&p, p.pos,
			    expr[p.pos] == ')' ? "this ')' has no '('"
					       : "expected '&&', '||' or the end");
	if (root < 0) {
		if (err_col)
			*err_col = p.err_col;
		sdt_filter__free(p.f);
		return root;
	}
	p.f->root = root;
	*out = p.f;
	return 0;
}

const char *sdt_filter__text(const struct sdt_filter *f)
{
	return f->text;
}
