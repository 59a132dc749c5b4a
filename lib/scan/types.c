/* SPDX-License-Identifier: MIT */
/*
 * Typed arguments: the type model, C type -> fetch type and the typed fetch (choosing the types
 * of a site, spec first, then the provider type files: types_resolve.c). See sdtrace/types.h and
 * types.h.
 *
 * C type -> fetch type (W = the target's word size, 4 or 8):
 *
 *	char * / const char * / (un)signed char *       string
 *	char                                            char
 *	signed char, int8_t / unsigned char, uint8_t    s8 / u8
 *	short, int16_t / unsigned short, uint16_t       s16 / u16
 *	int, int32_t, pid_t, enum X / unsigned, uint32_t s32 / u32
 *	long, ssize_t, intptr_t, ptrdiff_t              s(W)
 *	unsigned long, size_t, uintptr_t                u(W)
 *	long long, int64_t, off_t / unsigned long long  s64 / u64
 *	bool, _Bool                                     u8
 *	float / double                                  float / double
 *	void *, T *, struct X *, T **                   x(W)
 *	an unknown identifier (a typedef), `auto`        the note's own type
 *	long double, struct X (by value), void          not supported
 */
#include <stdio.h>
#include <string.h>

#include "scan/file.h"
#include "util/internal.h"
#include "scan/types.h"

bool sdt_type__valid_name(const char *name)
{
	if (!sdt_valid_event_name(name, SDT_MAX_ARG_NAME))
		return false;
	/* the kernel's own fields of every event record */
	if (!strncmp(name, "common_", 7) || !strcmp(name, "__probe_ip"))
		return false;
	return true;
}

int sdt_type__parse(const char *text, struct sdt_arg_type *out)
{
	static const struct {
		const char *kw;
		enum sdt_type_kind kind;
		unsigned int size;
		bool is_signed;
	} kws[] = {
	    {"string", SDT_TYPE_STRING, 0, false}, {"char", SDT_TYPE_CHAR, 1, true},
	    {"float", SDT_TYPE_FLOAT, 4, true},	   {"double", SDT_TYPE_FLOAT, 8, true},
	    {"s8", SDT_TYPE_INT, 1, true},	   {"s16", SDT_TYPE_INT, 2, true},
	    {"s32", SDT_TYPE_INT, 4, true},	   {"s64", SDT_TYPE_INT, 8, true},
	    {"u8", SDT_TYPE_INT, 1, false},	   {"u16", SDT_TYPE_INT, 2, false},
	    {"u32", SDT_TYPE_INT, 4, false},	   {"u64", SDT_TYPE_INT, 8, false},
	    {"x8", SDT_TYPE_HEX, 1, false},	   {"x16", SDT_TYPE_HEX, 2, false},
	    {"x32", SDT_TYPE_HEX, 4, false},	   {"x64", SDT_TYPE_HEX, 8, false},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kws); i++) {
		if (!strcmp(text, kws[i].kw)) {
			out->kind = kws[i].kind;
			out->size = kws[i].size;
			out->is_signed = kws[i].is_signed;
			return 0;
		}
	}
	return -EINVAL;
}

const char *sdt_type__keyword(const struct sdt_arg_type *t)
{
	static const char *const ints[3][4] = {
	    {"u8", "u16", "u32", "u64"},
	    {"s8", "s16", "s32", "s64"},
	    {"x8", "x16", "x32", "x64"},
	};
	int col;

	switch (t->kind) {
	case SDT_TYPE_STRING:
		return "string";
	case SDT_TYPE_CHAR:
		return "char";
	case SDT_TYPE_FLOAT:
		return t->size == 4 ? "float" : "double";
	case SDT_TYPE_INT:
	case SDT_TYPE_HEX:
		col = t->size == 1   ? 0
		      : t->size == 2 ? 1
		      : t->size == 4 ? 2
		      : t->size == 8 ? 3
				     : -1;
		if (col < 0)
			return "";
		return ints[t->kind == SDT_TYPE_HEX ? 2 : t->is_signed ? 1 : 0][col];
	default:
		return "";
	}
}

static void set_type(struct sdt_arg_type *t, enum sdt_type_kind kind, unsigned int size,
		     bool is_signed)
{
	t->kind = kind;
	t->size = size;
	t->is_signed = is_signed;
}

/* The fixed-size and system typedefs every .d file may use. */
static bool named_int(const char *w, unsigned int word, struct sdt_arg_type *t)
{
	static const struct {
		const char *name;
		unsigned int size; /* 0: the word size */
		bool is_signed;
	} names[] = {
	    {"int8_t", 1, true},     {"int16_t", 2, true},    {"int32_t", 4, true},
	    {"int64_t", 8, true},    {"uint8_t", 1, false},   {"uint16_t", 2, false},
	    {"uint32_t", 4, false},  {"uint64_t", 8, false},  {"size_t", 0, false},
	    {"ssize_t", 0, true},    {"pid_t", 4, true},      {"uid_t", 4, false},
	    {"gid_t", 4, false},     {"off_t", 8, true},      {"off64_t", 8, true},
	    {"uintptr_t", 0, false}, {"intptr_t", 0, true},   {"ptrdiff_t", 0, true},
	    {"time_t", 0, true},     {"u_int8_t", 1, false},  {"u_int16_t", 2, false},
	    {"u_int32_t", 4, false}, {"u_int64_t", 8, false},
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcmp(w, names[i].name)) {
			set_type(t, SDT_TYPE_INT, names[i].size ? names[i].size : word,
				 names[i].is_signed);
			return true;
		}
	}
	return false;
}

#define MAX_CTYPE 256

int sdt_type__from_c(const char *ctype, unsigned int word_size, struct sdt_arg_type *out)
{
	unsigned int n_unsigned = 0, n_signed = 0, n_short = 0, n_long = 0, n_int = 0, n_char = 0,
		     n_float = 0, n_double = 0, n_bool = 0, n_void = 0, n_tag = 0, n_other = 0,
		     pointers = 0;
	char word[MAX_CTYPE + 1], tag[MAX_CTYPE + 1] = "", other[MAX_CTYPE + 1] = "";
	bool want_tag_name = false;
	const char *p = ctype;
	struct sdt_arg_type t = {0};

	if (word_size != 4 && word_size != 8)
		return -EINVAL;
	if (strlen(ctype) > MAX_CTYPE)
		return -EINVAL;
	while (*p) {
		size_t len = 0;

		if (*p == ' ' || *p == '\t') {
			p++;
			continue;
		}
		if (*p == '*') {
			if (want_tag_name)
				return -EINVAL;
			pointers++;
			p++;
			continue;
		}
		if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			return -EINVAL;
		while (p[len] == '_' || (p[len] >= 'a' && p[len] <= 'z') ||
		       (p[len] >= 'A' && p[len] <= 'Z') || (p[len] >= '0' && p[len] <= '9'))
			len++;
		memcpy(word, p, len);
		word[len] = '\0';
		p += len;

		if (want_tag_name) {
			want_tag_name = false;
			continue;
		}
		if (!strcmp(word, "const") || !strcmp(word, "volatile") ||
		    !strcmp(word, "restrict") || !strcmp(word, "__restrict") ||
		    !strcmp(word, "register"))
			continue;
		if (pointers)
			return -EINVAL; /* a name after '*': "char *const" is fine, "char *x" not */
		if (!strcmp(word, "struct") || !strcmp(word, "union") || !strcmp(word, "enum")) {
			if (n_tag++)
				return -EINVAL;
			snprintf(tag, sizeof(tag), "%s", word);
			want_tag_name = true;
		} else if (!strcmp(word, "unsigned")) {
			n_unsigned++;
		} else if (!strcmp(word, "signed")) {
			n_signed++;
		} else if (!strcmp(word, "short")) {
			n_short++;
		} else if (!strcmp(word, "long")) {
			n_long++;
		} else if (!strcmp(word, "int")) {
			n_int++;
		} else if (!strcmp(word, "char")) {
			n_char++;
		} else if (!strcmp(word, "float")) {
			n_float++;
		} else if (!strcmp(word, "double")) {
			n_double++;
		} else if (!strcmp(word, "bool") || !strcmp(word, "_Bool")) {
			n_bool++;
		} else if (!strcmp(word, "void")) {
			n_void++;
		} else {
			if (n_other++)
				return -EINVAL; /* two names: not a type */
			snprintf(other, sizeof(other), "%s", word);
		}
	}
	if (want_tag_name)
		return -EINVAL; /* "struct" without a name */

	unsigned int n_basic = n_unsigned + n_signed + n_short + n_long + n_int + n_char + n_float +
			       n_double + n_bool + n_void;

	if ((n_tag || n_other) && (n_basic || (n_tag && n_other)))
		return -EINVAL; /* "struct x int", "uint32_t long" */
	if (!n_tag && !n_other && !n_basic)
		return -EINVAL;

	if (pointers) {
		bool charp = pointers == 1 && n_char == 1 && !n_tag && !n_other && !n_short &&
			     !n_long && !n_int && !n_float && !n_double && !n_bool && !n_void;

		if (charp)
			set_type(&t, SDT_TYPE_STRING, word_size, false);
		else
			set_type(&t, SDT_TYPE_HEX, word_size, false);
		goto out;
	}
	if (n_tag) {
		if (!strcmp(tag, "enum")) {
			set_type(&t, SDT_TYPE_INT, 4, true);
			goto out;
		}
		return -ENOTSUP; /* a struct or union passed by value */
	}
	if (n_other) {
		if (!named_int(other, word_size, &t))
			t.kind = SDT_TYPE_DEFAULT; /* a typedef we do not know: the note decides */
		goto out;
	}
	if (n_void)
		return n_basic == 1 ? -ENOTSUP : -EINVAL;
	if (n_unsigned + n_signed > 1 || n_short > 1 || n_long > 2 || n_int > 1 || n_char > 1 ||
	    n_float > 1 || n_double > 1 || n_bool > 1)
		return -EINVAL;
	if (n_float) {
		if (n_basic != 1)
			return -EINVAL;
		set_type(&t, SDT_TYPE_FLOAT, 4, true);
	} else if (n_double) {
		if (n_long == 1 && n_basic == 2)
			return -ENOTSUP; /* long double */
		if (n_basic != 1)
			return -EINVAL;
		set_type(&t, SDT_TYPE_FLOAT, 8, true);
	} else if (n_bool) {
		if (n_basic != 1)
			return -EINVAL;
		set_type(&t, SDT_TYPE_INT, 1, false);
	} else if (n_char) {
		if (n_short || n_long || n_int)
			return -EINVAL;
		if (n_unsigned)
			set_type(&t, SDT_TYPE_INT, 1, false);
		else if (n_signed)
			set_type(&t, SDT_TYPE_INT, 1, true);
		else
			set_type(&t, SDT_TYPE_CHAR, 1, true);
	} else if (n_short) {
		if (n_long)
			return -EINVAL;
		set_type(&t, SDT_TYPE_INT, 2, !n_unsigned);
	} else if (n_long == 2) {
		set_type(&t, SDT_TYPE_INT, 8, !n_unsigned);
	} else if (n_long == 1) {
		set_type(&t, SDT_TYPE_INT, word_size, !n_unsigned);
	} else {
		/* int, signed, unsigned, unsigned int */
		set_type(&t, SDT_TYPE_INT, 4, !n_unsigned);
	}
out:
	out->kind = t.kind;
	out->size = t.kind == SDT_TYPE_DEFAULT ? 0 : t.size;
	out->is_signed = t.is_signed;
	return 0;
}

void sdt_arg_types__free(struct sdt_arg_type *types, size_t n)
{
	size_t i;

	for (i = 0; types && i < n; i++)
		free(types[i].name);
	free(types);
}

int sdt_arg_type_copy(struct sdt_arg_type *dst, const struct sdt_arg_type *src)
{
	*dst = *src;
	dst->name = NULL;
	if (src->name) {
		dst->name = sdt_strdup(src->name);
		if (!dst->name)
			return -ENOMEM;
	}
	return 0;
}

static const char *trim(const char *s, const char *end, const char **tend)
{
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	*tend = end;
	return s;
}

int sdt_arg_types__parse(const char *text, struct sdt_arg_type **out, size_t *n)
{
	struct sdt_arg_type *types = NULL;
	size_t count = 0, cap = 0, i;
	const char *p = text, *end, *e;
	int err = 0;

	*out = NULL;
	*n = 0;
	p = trim(text, text + strlen(text), &end);
	if (p == end)
		return 0;
	for (;;) {
		const char *comma = memchr(p, ',', (size_t)(end - p)), *item_end, *colon;
		const char *item = trim(p, comma ? comma : end, &item_end);
		char *name = NULL, *tname = NULL;
		struct sdt_arg_type t = {0};

		if (count >= SDT_MAX_ARGS) {
			err = sdt_err(-EINVAL, "typed arguments '%s': more than %d", text,
				      SDT_MAX_ARGS);
			goto out;
		}
		colon = memchr(item, ':', (size_t)(item_end - item));
		name = sdt_strndup(item, (size_t)((colon ? colon : item_end) - item));
		if (!name) {
			err = sdt_err(-ENOMEM, "out of memory");
			goto out;
		}
		trim(name, name + strlen(name), &e);
		name[e - name] = '\0';
		if (!name[0]) {
			err = sdt_err(-EINVAL,
				      "typed arguments '%s': argument %zu has no name "
				      "(write name or name:type)",
				      text, count + 1);
			free(name);
			goto out;
		}
		if (!sdt_type__valid_name(name)) {
			err = sdt_err(-EINVAL,
				      "typed arguments '%s': '%s' is not a valid argument "
				      "name ([A-Za-z_][A-Za-z0-9_]*, at most %d bytes, not "
				      "common_*)",
				      text, name, SDT_MAX_ARG_NAME);
			free(name);
			goto out;
		}
		for (i = 0; i < count; i++) {
			if (!strcmp(types[i].name, name)) {
				err = sdt_err(-EINVAL,
					      "typed arguments '%s': the name '%s' is used "
					      "twice",
					      text, name);
				free(name);
				goto out;
			}
		}
		if (colon) {
			const char *ts = trim(colon + 1, item_end, &e);

			tname = sdt_strndup(ts, (size_t)(e - ts));
			if (!tname) {
				free(name);
				err = sdt_err(-ENOMEM, "out of memory");
				goto out;
			}
			if (sdt_type__parse(tname, &t)) {
				err = sdt_err(-EINVAL,
					      "typed arguments '%s': unknown type '%s' for "
					      "'%s' (string, s8..s64, u8..u64, x8..x64, "
					      "float, double, char)",
					      text, tname, name);
				free(tname);
				free(name);
				goto out;
			}
			free(tname);
		}
		if (sdt_grow((void **)&types, &cap, count + 1, sizeof(*types))) {
			free(name);
			err = sdt_err(-ENOMEM, "out of memory");
			goto out;
		}
		t.name = name;
		types[count++] = t;
		if (!comma)
			break;
		p = comma + 1;
	}
out:
	if (err) {
		sdt_arg_types__free(types, count);
		return err;
	}
	*out = types;
	*n = count;
	return 0;
}

unsigned int sdt_file_word_size(const struct sdt_file *f)
{
	return f->elfclass == 1 ? 4 : 8;
}

static const char *type_shown(const struct sdt_arg_type *t, char *buf, size_t size)
{
	if (t->name)
		snprintf(buf, size, "%s:%s", t->name, sdt_type__keyword(t));
	else
		snprintf(buf, size, "%s", sdt_type__keyword(t));
	return buf;
}

int sdt_type_fits(const struct sdt_arg *a, const struct sdt_arg_type *t,
		  const struct sdt_type_ctx *ctx)
{
	unsigned int need;
	char b[SDT_MAX_ARG_NAME + 16];

	switch (t->kind) {
	case SDT_TYPE_DEFAULT:
		return 0;
	case SDT_TYPE_STRING:
		need = ctx->word_size;
		break;
	case SDT_TYPE_CHAR:
		need = 1;
		break;
	default:
		need = t->size;
		break;
	}
	if (a->size == need)
		return 0;
	if (t->kind == SDT_TYPE_STRING)
		return sdt_err(-EINVAL,
			       "%s:%s: argument %zu (%s) is a string, which needs a %u-byte "
			       "pointer, but the note's argument '%s' has %u bytes",
			       ctx->provider, ctx->event, ctx->argno, type_shown(t, b, sizeof(b)),
			       need, a->spec, a->size);
	return sdt_err(-EINVAL,
		       "%s:%s: argument %zu (%s) has %u bytes, but the note's argument "
		       "'%s' has %u bytes",
		       ctx->provider, ctx->event, ctx->argno, type_shown(t, b, sizeof(b)), need,
		       a->spec, a->size);
}

int sdt_typed_fetch(const struct sdt_arg *a, const struct sdt_arg_type *t,
		    const struct sdt_type_ctx *ctx, char **out)
{
	const char *colon, *type;
	size_t expr_len;
	char *s = NULL;
	int err;

	*out = NULL;
	if (!a->fetch)
		return sdt_err(-ENOTSUP, "%s:%s: argument %zu ('%s') cannot be fetched: %s",
			       ctx->provider, ctx->event, ctx->argno, a->spec,
			       a->unavailable ? a->unavailable : "unknown reason");
	err = sdt_type_fits(a, t, ctx);
	if (err)
		return err;
	colon = strrchr(a->fetch, ':');
	if (!colon)
		return sdt_err(-ENOTSUP, "%s:%s: argument %zu: fetch '%s' has no type",
			       ctx->provider, ctx->event, ctx->argno, a->fetch);
	expr_len = (size_t)(colon - a->fetch);

	switch (t->kind) {
	case SDT_TYPE_DEFAULT:
	case SDT_TYPE_CHAR:
		/* The note's fetch of the byte; the type only changes how it is shown. */
		s = sdt_strdup(a->fetch);
		break;
	case SDT_TYPE_INT:
	case SDT_TYPE_HEX:
	case SDT_TYPE_FLOAT:
		if (a->bit_offset || a->kind == SDT_ARG_ADDR) {
			/* a bit field, or a link-time address rebased at report: keep the fetch */
			s = sdt_strdup(a->fetch);
			break;
		}
		type = t->kind == SDT_TYPE_FLOAT
			   ? (t->size == 4 ? "x32" : "x64")
			   : sdt_fetch_type(t->size, t->is_signed, t->kind == SDT_TYPE_HEX);
		s = sdt_asprintf("%.*s:%s", (int)expr_len, a->fetch, type);
		break;
	case SDT_TYPE_STRING:
		switch (a->kind) {
		case SDT_ARG_REG:
			if (a->bit_offset)
				goto not_pointer;
			/* fallthrough */
		case SDT_ARG_MEM:
		case SDT_ARG_GLOBAL:
			/* the string the fetched pointer points to */
			s = sdt_asprintf("+0(%.*s):string", (int)expr_len, a->fetch);
			break;
		case SDT_ARG_ADDR:
			/* the argument is the string's own (link-time) address */
			s = sdt_asprintf("@+0x%llx:string",
					 (unsigned long long)(a->sym_addr - ctx->text_bias));
			break;
		default:
			goto not_pointer;
		}
		break;
	}
	if (!s)
		return sdt_err(-ENOMEM, "out of memory");
	*out = s;
	return 0;
not_pointer:
	return sdt_err(-ENOTSUP,
		       "%s:%s: argument %zu ('%s') is a constant, not a pointer a "
		       "string can be read through",
		       ctx->provider, ctx->event, ctx->argno, a->spec);
}

void sdt_site_type_ctx(const struct sdt_file *f, const struct sdt_site *s, size_t i,
		       struct sdt_type_ctx *ctx)
{
	ctx->provider = s->provider;
	ctx->event = s->name;
	ctx->argno = i + 1;
	ctx->word_size = sdt_file_word_size(f);
	ctx->text_bias = s->text_bias;
}

int sdt_arg__typed_fetch(const struct sdt_file *f, const struct sdt_site *s, size_t i,
			 const struct sdt_arg_type *type, char **fetch)
{
	struct sdt_type_ctx ctx;

	*fetch = NULL;
	if (i >= s->nargs)
		return sdt_err(-ERANGE, "%s:%s has no argument %zu", s->provider, s->name, i + 1);
	sdt_site_type_ctx(f, s, i, &ctx);
	return sdt_typed_fetch(&s->args[i], type, &ctx, fetch);
}

int sdt_types__check(const struct sdt_file *f, const struct sdt_site *s,
		     const struct sdt_arg_type *types, size_t n)
{
	struct sdt_type_ctx ctx;
	size_t i;
	int err;

	if (n > s->nargs)
		return sdt_err(-EINVAL, "%s:%s: %zu typed arguments, but the probe has %zu",
			       s->provider, s->name, n, s->nargs);
	for (i = 0; i < n; i++) {
		sdt_site_type_ctx(f, s, i, &ctx);
		err = sdt_type_fits(&s->args[i], &types[i], &ctx);
		if (err)
			return err;
	}
	return 0;
}
