/* SPDX-License-Identifier: MIT */
/*
 * sdtrace report --format=csv: one row per event for spreadsheets (RFC 4180: CRLF line ends,
 * a field holding a comma, a quote or a line break is quoted, quotes doubled).
 *
 *	time_ns,time_us,cpu,pid,tid,comm,provider,name,path,address,arg1,arg2
 *	1000000000000,0.000,1,100,100,test-prog,test,ints,/usr/bin/test-prog,0x401136,255,-1
 *
 * time_us is rebased to the start of the recording, as in --format=chrome. Argument columns are
 * positional, as many as the widest event has; a column is headed by the name the recording gives
 * that argument when every event kind having it agrees, else argN. Integers are decimal (rebased
 * addresses 0x-hex), floats the shortest decimal that reads back as the same double (as --json),
 * strings as they are (bytes that are not UTF-8 become U+FFFD; one that begins with = + - @, a
 * tab or a carriage return and is not a number gets a ' before it, so that no spreadsheet takes
 * it for a formula), and an argument not recorded is an empty field. A string the kernel did not hand back whole is its first bytes; when a recording
 * has any, a last column "truncated" names them in each row with the least length each had:
 * "query (4096+ bytes)" ("; " between two), empty in the rows that have none.
 *
 * The widest argument list is known only once every kind is described, so the file is read
 * twice; both passes stream.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "float-format.h"
#include "json.h"
#include "report.h"

/* Is @s a plain number ("-1", "+2.5", "1e-3", "0x1f")? */
static bool number(const char *s)
{
	char *end;

	if (!*s || strchr(" \t\r\n", *s))
		return false;
	(void)strtod(s, &end);
	return !*end;
}

/*
 * One field: quoted when it must be (RFC 4180), invalid UTF-8 replaced. A field a spreadsheet
 * would take for a formula (it begins with = + - @, a tab or a carriage return, and is not a
 * plain number) gets a ' before it, as OWASP's "CSV Injection" page recommends: a traced
 * program's string "=HYPERLINK(...)" is shown as text, never evaluated.
 */
static void field(FILE *out, const char *s, bool first)
{
	const unsigned char *p;
	bool quote;

	if (!first)
		fputc(',', out);
	if (!s)
		return;
	quote = strpbrk(s, ",\"\r\n") != NULL;
	if (quote)
		fputc('"', out);
	if (*s && strchr("=+-@\t\r", *s) && !number(s))
		fputc('\'', out);
	for (p = (const unsigned char *)s; *p;) {
		size_t n = json_utf8_len(p);

		if (*p == '"') {
			fputs("\"\"", out);
			p++;
		} else if (n) {
			fwrite(p, 1, n, out);
			p += n;
		} else {
			fputs("\xef\xbf\xbd", out);
			p++;
		}
	}
	if (quote)
		fputc('"', out);
}

static void value(FILE *out, const struct sdt_trace_value *v)
{
	char buf[64];
	int prec;

	buf[0] = '\0';
	switch (v->kind) {
	case SDT_VALUE_INT:
		snprintf(buf, sizeof(buf), "%" PRId64, v->i);
		break;
	case SDT_VALUE_UINT:
		snprintf(buf, sizeof(buf), v->is_address ? "0x%" PRIx64 : "%" PRIu64, v->u);
		break;
	case SDT_VALUE_FLOAT:
		if (v->size == 16) {
			float_format(buf, sizeof(buf), v); /* a long double: all its digits */
			break;
		}
		if (isnan(v->f)) {
			snprintf(buf, sizeof(buf), "nan");
			break;
		}
		if (isinf(v->f)) {
			snprintf(buf, sizeof(buf), v->f < 0 ? "-inf" : "inf");
			break;
		}
		/* the shortest that reads back as the same double, as --json writes it */
		for (prec = 1; prec <= 17; prec++) {
			snprintf(buf, sizeof(buf), "%.*g", prec, v->f);
			if (strtod(buf, NULL) == v->f)
				break;
		}
		break;
	case SDT_VALUE_STRING:
		field(out, v->str, false);
		return;
	default:
		break;
	}
	field(out, buf, false);
}

/*
 * Has @ev a string the kernel did not hand back whole? With @out, its "truncated" cell: each such
 * argument's name and the least length it had, "query (4096+ bytes)", "; " between.
 */
static bool truncated(const struct sdt_trace_event *ev, FILE *out)
{
	const struct sdt_trace_kind *k = sdt_trace_event__kind(ev);
	struct sdt_trace_value v;
	char cell[512] = "";
	size_t i, len = 0;
	bool any = false;

	for (i = 0; i < sdt_trace_event__arg_count(ev); i++) {
		const char *name = sdt_trace_event_desc__arg_name(sdt_trace_kind__desc(k), i);
		int n;

		if (sdt_trace_event__arg(ev, i, &v) || v.kind != SDT_VALUE_STRING || !v.truncated)
			continue;
		if (!out)
			return true;
		n = snprintf(cell + len, sizeof(cell) - len, "%s%s (%zu+ bytes)", any ? "; " : "",
			     name ? name : "?", v.min_len);
		if (n > 0 && (size_t)n < sizeof(cell) - len)
			len += (size_t)n;
		any = true;
	}
	if (out)
		field(out, cell, false);
	return any;
}

/* The header name of argument column @i: the name every kind having it agrees on, else argN. */
static void column_name(const struct sdt_trace_reader *r, size_t i, char *buf, size_t size)
{
	const char *common = NULL;
	size_t k;

	snprintf(buf, size, "arg%zu", i + 1);
	for (k = 0; k < sdt_trace_reader__kind_count(r); k++) {
		const struct sdt_trace_kind *kind = sdt_trace_reader__kind(r, k);
		const char *name;

		if (sdt_trace_event_desc__arg_count(sdt_trace_kind__desc(kind)) <= i)
			continue;
		name = sdt_trace_event_desc__arg_name(sdt_trace_kind__desc(kind), i);
		if (!name || (common && strcmp(common, name)))
			return;
		common = name;
	}
	if (common)
		snprintf(buf, size, "%s", common);
}

int report_csv(struct sdt_trace_reader *r, const char *input, const struct sdt_filter *filter,
	       FILE *out)
{
	static const char *const fixed[] = {"time_ns", "time_us",  "cpu",  "pid",  "tid",
					    "comm",    "provider", "name", "path", "address"};
	struct sdt_trace_reader *r2 = NULL;
	const struct sdt_trace_event *ev;
	size_t nargs = 0, i;
	uint64_t base = 0;
	bool have_base = false, any_cut = false;
	int err;

	/* pass 1: every kind, hence the widest argument list; and whether a string was cut */
	while ((err = sdt_trace_reader__next(r, &ev)) > 0)
		if (!any_cut)
			any_cut = truncated(ev, NULL);
	if (err < 0)
		goto out_err;
	for (i = 0; i < sdt_trace_reader__kind_count(r); i++) {
		size_t n = sdt_trace_event_desc__arg_count(
		    sdt_trace_kind__desc(sdt_trace_reader__kind(r, i)));

		if (n > nargs)
			nargs = n;
	}
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		field(out, fixed[i], i == 0);
	for (i = 0; i < nargs; i++) {
		char name[256];

		column_name(r, i, name, sizeof(name));
		field(out, name, false);
	}
	if (any_cut)
		field(out, "truncated", false);
	fputs("\r\n", out);

	/* pass 2: the rows */
	err = sdt_trace_reader__open(input, NULL, &r2);
	if (err)
		goto out_err;
	sdt_trace_reader__set_filter(r2, filter);
	while ((err = sdt_trace_reader__next(r2, &ev)) > 0) {
		uint64_t t = sdt_trace_event__time_ns(ev), d, addr;
		struct sdt_trace_value v;
		char buf[64];

		if (!have_base) {
			uint64_t start = sdt_trace_reader__start_monotonic_ns(r2);

			base = start && start <= t ? start : t;
			have_base = true;
		}
		d = t > base ? t - base : 0;
		fprintf(out, "%" PRIu64 ",%" PRIu64 ".%03u,%u,%u,%u", t, d / 1000,
			(unsigned int)(d % 1000), sdt_trace_event__cpu(ev),
			sdt_trace_event__pid(ev), sdt_trace_event__tid(ev));
		field(out, sdt_trace_event__comm(ev), false);
		field(out, sdt_trace_event__provider(ev), false);
		field(out, sdt_trace_event__name(ev), false);
		field(out, sdt_trace_event__path(ev), false);
		buf[0] = '\0';
		if (sdt_trace_event__address(ev, &addr))
			snprintf(buf, sizeof(buf), "0x%" PRIx64, addr);
		field(out, buf, false);
		for (i = 0; i < nargs; i++) {
			if (i < sdt_trace_event__arg_count(ev) && !sdt_trace_event__arg(ev, i, &v))
				value(out, &v);
			else
				fputc(',', out);
		}
		if (any_cut)
			truncated(ev, out);
		fputs("\r\n", out);
	}
	if (err < 0)
		goto out_err;
	sdt_trace_reader__free(r2);
	return 0;
out_err:
	cli_error("%s", sdt_errmsg());
	sdt_trace_reader__free(r2);
	return EXIT_RUNTIME;
}
