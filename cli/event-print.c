/* SPDX-License-Identifier: MIT */
/* One recorded event printed as text (like perf script) or as a JSON Lines object. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "escape.h"
#include "event-print.h"
#include "float-format.h"

/* A character between single quotes, escaped like strings are. */
static void put_char(unsigned char c)
{
	putchar('\'');
	if (c == '\'' || c == '\\')
		printf("\\%c", c);
	else if (c < 0x20 || c >= 0x7f)
		printf("\\x%02x", c);
	else
		putchar(c);
	putchar('\'');
}

static void text_value(const struct sdt_trace_value *v, enum sdt_type_kind type)
{
	if (type == SDT_TYPE_HEX && (v->kind == SDT_VALUE_INT || v->kind == SDT_VALUE_UINT)) {
		uint64_t u = v->u;

		if (v->size && v->size < 8)
			u &= (UINT64_C(1) << (v->size * 8)) - 1;
		printf("0x%" PRIx64, u);
		return;
	}
	if (type == SDT_TYPE_CHAR && (v->kind == SDT_VALUE_INT || v->kind == SDT_VALUE_UINT)) {
		put_char((unsigned char)v->u);
		return;
	}
	switch (v->kind) {
	case SDT_VALUE_INT:
		printf("%" PRId64, v->i);
		break;
	case SDT_VALUE_UINT:
		if (v->is_address)
			printf("0x%" PRIx64, v->u);
		else
			printf("%" PRIu64, v->u);
		break;
	case SDT_VALUE_FLOAT: {
		char buf[64];

		fputs(float_format(buf, sizeof(buf), v), stdout);
		break;
	}
	case SDT_VALUE_STRING:
		/* a truncated one: the bytes that reached the recording, "…", the mark */
		text_put_quoted(stdout, v->str, v->len, v->truncated);
		if (v->truncated)
			printf("(truncated, %zu+ bytes)", v->min_len);
		break;
	default:
		fputs("<unavailable>", stdout);
		break;
	}
}

void print_event_text(const struct sdt_trace_event *ev)
{
	const struct sdt_trace_kind *k = sdt_trace_event__kind(ev);
	const char *comm = sdt_trace_event__comm(ev);
	uint64_t t = sdt_trace_event__time_ns(ev);
	struct sdt_trace_value v;
	char name[80];
	size_t i;

	/* a thread may name itself anything: escape what a terminal would act on */
	if (!comm)
		snprintf(name, sizeof(name), ":%u", sdt_trace_event__tid(ev));
	else
		sdt_escape(name, sizeof(name), comm, strlen(comm), 0);
	printf("%16s", name);
	printf(" %7u/%-7u [%03u] %" PRIu64 ".%09" PRIu64 ": ", sdt_trace_event__pid(ev),
	       sdt_trace_event__tid(ev), sdt_trace_event__cpu(ev), t / 1000000000u,
	       t % 1000000000u);
	/* names come from the file: escaped, like every string of it */
	cli_put_escaped(stdout, sdt_trace_event__provider(ev));
	putchar(':');
	cli_put_escaped(stdout, sdt_trace_event__name(ev));
	putchar(':');
	for (i = 0; i < sdt_trace_event__arg_count(ev); i++) {
		sdt_trace_event__arg(ev, i, &v);
		putchar(' ');
		cli_put_escaped(stdout,
				sdt_trace_event_desc__arg_name(sdt_trace_kind__desc(k), i)
				    ? sdt_trace_event_desc__arg_name(sdt_trace_kind__desc(k), i)
				    : "?");
		putchar('=');
		text_value(&v, sdt_trace_event_desc__arg_type(sdt_trace_kind__desc(k), i));
	}
	putchar('\n');
}

static void json_value(struct json *j, const struct sdt_trace_value *v)
{
	switch (v->kind) {
	case SDT_VALUE_INT:
		json_int(j, v->i);
		break;
	case SDT_VALUE_UINT:
		json_uint(j, v->u);
		break;
	case SDT_VALUE_FLOAT:
		if (v->size == 16)
			json_long_double(j, v->ld);
		else
			json_double(j, v->f);
		break;
	case SDT_VALUE_STRING:
		json_string(j, v->str);
		break;
	default:
		json_null(j);
		break;
	}
}

/* "fields": {name: value} of the arguments a type named, when there are any. */
static void print_fields(struct json *j, const struct sdt_trace_event *ev)
{
	const struct sdt_trace_kind *k = sdt_trace_event__kind(ev);
	struct sdt_trace_value v;
	bool open = false;
	size_t i;

	for (i = 0; i < sdt_trace_event__arg_count(ev); i++) {
		if (!sdt_trace_event_desc__arg_named(sdt_trace_kind__desc(k), i) ||
		    !sdt_trace_event_desc__arg_name(sdt_trace_kind__desc(k), i))
			continue;
		if (!open) {
			json_key(j, "fields");
			json_begin_object(j);
			open = true;
		}
		sdt_trace_event__arg(ev, i, &v);
		json_key(j, sdt_trace_event_desc__arg_name(sdt_trace_kind__desc(k), i));
		json_value(j, &v);
	}
	if (open)
		json_end_object(j);
}

/*
 * "truncated": {name: bytes} of the strings that did not reach the recording whole (their value
 * is their first bytes; bytes: the least length they had), when there are any.
 */
static void print_truncated(struct json *j, const struct sdt_trace_event *ev)
{
	const struct sdt_trace_kind *k = sdt_trace_event__kind(ev);
	struct sdt_trace_value v;
	bool open = false;
	size_t i;

	for (i = 0; i < sdt_trace_event__arg_count(ev); i++) {
		if (sdt_trace_event__arg(ev, i, &v) || v.kind != SDT_VALUE_STRING || !v.truncated)
			continue;
		if (!open) {
			json_key(j, "truncated");
			json_begin_object(j);
			open = true;
		}
		json_key(j, sdt_trace_event_desc__arg_name(sdt_trace_kind__desc(k), i)
				? sdt_trace_event_desc__arg_name(sdt_trace_kind__desc(k), i)
				: "?");
		json_uint(j, v.min_len);
	}
	if (open)
		json_end_object(j);
}

/*
 * "stack" (and "frames"): with @s, the frames the symbolizer gives (the chain report -g and
 * --format=folded show: a frameless leaf's caller put back, a dwarf stack unwound); without,
 * the raw user stack (trace records none). 0, or -errno from the symbolizer.
 */
static int print_stack(struct json *j, const struct sdt_trace_event *ev, struct sdt_symbolizer *s)
{
	const struct sdt_frame *fr;
	const uint64_t *ips;
	char hex[24];
	int n, k;

	if (!s) {
		size_t m = sdt_trace_event__stack(ev, &ips), i;

		if (!m)
			return 0;
		json_key(j, "stack");
		json_begin_array(j);
		for (i = 0; i < m; i++) {
			snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)ips[i]);
			json_string(j, hex);
		}
		json_end_array(j);
		return 0;
	}
	n = sdt_symbolizer__frames(s, ev, &fr);
	if (n <= 0)
		return n;
	json_key(j, "stack");
	json_begin_array(j);
	for (k = 0; k < n; k++) {
		snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)fr[k].ip);
		json_string(j, hex);
	}
	json_end_array(j);
	json_key(j, "frames");
	json_begin_array(j);
	for (k = 0; k < n; k++)
		json_string(j, fr[k].name);
	json_end_array(j);
	return 0;
}

int print_event_json(struct json *j, const struct sdt_trace_event *ev, struct sdt_symbolizer *s)
{
	struct sdt_trace_value v;
	uint64_t addr;
	size_t i;
	int err;

	json_begin_object(j);
	json_key(j, "time_ns");
	json_uint(j, sdt_trace_event__time_ns(ev));
	json_key(j, "cpu");
	json_uint(j, sdt_trace_event__cpu(ev));
	json_key(j, "pid");
	json_uint(j, sdt_trace_event__pid(ev));
	json_key(j, "tid");
	json_uint(j, sdt_trace_event__tid(ev));
	json_key(j, "comm");
	json_string(j, sdt_trace_event__comm(ev));
	json_key(j, "provider");
	json_string(j, sdt_trace_event__provider(ev));
	json_key(j, "name");
	json_string(j, sdt_trace_event__name(ev));
	json_key(j, "path");
	json_string(j, sdt_trace_event__path(ev));
	json_key(j, "address");
	if (sdt_trace_event__address(ev, &addr))
		json_uint(j, addr);
	else
		json_null(j);
	json_key(j, "args");
	json_begin_array(j);
	for (i = 0; i < sdt_trace_event__arg_count(ev); i++) {
		sdt_trace_event__arg(ev, i, &v);
		json_value(j, &v);
	}
	json_end_array(j);
	err = print_stack(j, ev, s);
	print_fields(j, ev);
	print_truncated(j, ev);
	json_end_object(j);
	json_newline(j);
	return err;
}
