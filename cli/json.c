/* SPDX-License-Identifier: MIT */
/* The streaming JSON writer. See json.h. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "sdtrace/text.h"

void json_init(struct json *j, FILE *fp, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->fp = fp;
	j->pretty = pretty;
}

static void indent(struct json *j)
{
	int i;

	if (!j->pretty)
		return;
	fputc('\n', j->fp);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->fp);
}

/* Before any value: a comma if a sibling came before, unless we follow a key. */
static void before_value(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth > 0) {
		if (j->need_comma[j->depth])
			fputc(',', j->fp);
		j->need_comma[j->depth] = true;
		indent(j);
	}
}

static void open_(struct json *j, char c)
{
	before_value(j);
	fputc(c, j->fp);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void close_(struct json *j, char c)
{
	bool had = j->need_comma[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had)
		indent(j);
	fputc(c, j->fp);
}

void json_begin_object(struct json *j)
{
	open_(j, '{');
}

void json_end_object(struct json *j)
{
	close_(j, '}');
}

void json_begin_array(struct json *j)
{
	open_(j, '[');
}

void json_end_array(struct json *j)
{
	close_(j, ']');
}

void json_key(struct json *j, const char *key)
{
	before_value(j);
	json_write_string(j->fp, key);
	fputc(':', j->fp);
	if (j->pretty)
		fputc(' ', j->fp);
	j->after_key = true;
}

size_t json_utf8_len(const unsigned char *s)
{
	/* the string ends at its NUL: no sequence is read past it */
	return sdt_utf8_len((const char *)s, strnlen((const char *)s, 4));
}

void json_write_string(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', fp);
	while (*s) {
		size_t n;

		if (*s == '"' || *s == '\\') {
			fputc('\\', fp);
			fputc(*s++, fp);
		} else if (*s < 0x20) {
			switch (*s) {
			case '\n': fputs("\\n", fp); break;
			case '\t': fputs("\\t", fp); break;
			case '\r': fputs("\\r", fp); break;
			default: fprintf(fp, "\\u%04x", *s); break;
			}
			s++;
		} else if (*s < 0x80) {
			fputc(*s++, fp);
		} else if ((n = json_utf8_len(s))) {
			fwrite(s, 1, n, fp);
			s += n;
		} else {
			fputs("\\ufffd", fp);
			s++;
		}
	}
	fputc('"', fp);
}

void json_string(struct json *j, const char *s)
{
	before_value(j);
	if (s)
		json_write_string(j->fp, s);
	else
		fputs("null", j->fp);
}

void json_int(struct json *j, int64_t v)
{
	before_value(j);
	fprintf(j->fp, "%lld", (long long)v);
}

void json_uint(struct json *j, uint64_t v)
{
	before_value(j);
	fprintf(j->fp, "%llu", (unsigned long long)v);
}

void json_double(struct json *j, double v)
{
	char buf[40];
	int prec;

	before_value(j);
	/*
	 * JSON has no NaN or infinities: they are the strings "nan", "inf" and "-inf" (as the text
	 * output spells them, and as Go's and Rust's lenient emitters quote them), never null, so
	 * that a reader tells a value that was not fetched from one that was not finite.
	 */
	if (isnan(v) || isinf(v)) {
		fputs(isnan(v) ? "\"nan\"" : v < 0 ? "\"-inf\"" : "\"inf\"", j->fp);
		return;
	}
	/* the shortest form that reads back as the same double (-0.1, not -0.10000000000000001) */
	for (prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, j->fp);
	/* and still a float to a typed reader: 2.0 and -0.0, not 2 and -0 (which is 0) */
	if (!strpbrk(buf, ".e"))
		fputs(".0", j->fp);
}

void json_long_double(struct json *j, long double v)
{
	char buf[64];
	int prec;

	before_value(j);
	if (isnan(v) || isinf(v)) { /* as json_double() */
		fputs(isnan(v) ? "\"nan\"" : v < 0 ? "\"-inf\"" : "\"inf\"", j->fp);
		return;
	}
	/* the shortest form that reads back as the same long double */
	for (prec = 1; prec <= LDBL_DECIMAL_DIG; prec++) {
		snprintf(buf, sizeof(buf), "%.*Lg", prec, v);
		if (strtold(buf, NULL) == v)
			break;
	}
	fputs(buf, j->fp);
	if (!strpbrk(buf, ".e"))
		fputs(".0", j->fp);
}

void json_bool(struct json *j, bool v)
{
	before_value(j);
	fputs(v ? "true" : "false", j->fp);
}

void json_null(struct json *j)
{
	before_value(j);
	fputs("null", j->fp);
}

void json_newline(struct json *j)
{
	fputc('\n', j->fp);
}
