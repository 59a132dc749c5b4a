/* SPDX-License-Identifier: MIT */
/*
 * What --key, --by and --top of `sdtrace report` share: argument names to values as text, groups
 * of durations (or counts) by those values with exact percentiles, and the N slowest pairs.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "float-format.h"
#include "report.h"

int report_names_parse(const char *cmd, const char *opt, const char *arg, struct report_names *n)
{
	const char *p = arg, *comma;

	if (!*arg)
		return cli_usage_error(cmd, "%s: expected NAME[,NAME...]", opt);
	while (p) {
		size_t len;
		char **names;

		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (!len)
			return cli_usage_error(cmd, "%s '%s': an empty name", opt, arg);
		names = realloc(n->name, (n->n + 1) * sizeof(*names));
		if (!names || !(names[n->n] = strndup(p, len))) {
			if (names)
				n->name = names;
			cli_error("out of memory");
			return EXIT_RUNTIME;
		}
		n->name = names;
		n->n++;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

void report_names_free(struct report_names *n)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		free(n->name[i]);
	free(n->name);
	memset(n, 0, sizeof(*n));
}

/* Argument @name of kind @k (its name, or "argN"): its index, or -1. */
static int arg_index(const struct sdt_trace_kind *k, const char *name)
{
	return sdt_trace_event_desc__arg_index(sdt_trace_kind__desc(k), name);
}

bool report_names_in(const struct report_names *n, const struct sdt_trace_kind *k)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		if (arg_index(k, n->name[i]) < 0)
			return false;
	return n->n > 0;
}

/*
 * One value as text: numbers as the report prints them, strings as they are (a truncated one
 * with a "…", so that it is not grouped with the whole string its first bytes spell).
 */
static int value_text(struct report_text *t, const struct sdt_trace_value *v)
{
	char buf[64];

	switch (v->kind) {
	case SDT_VALUE_INT:
		snprintf(buf, sizeof(buf), "%" PRId64, v->i);
		break;
	case SDT_VALUE_UINT:
		snprintf(buf, sizeof(buf), v->is_address ? "0x%" PRIx64 : "%" PRIu64, v->u);
		break;
	case SDT_VALUE_FLOAT:
		float_format(buf, sizeof(buf), v);
		break;
	case SDT_VALUE_STRING:
		if (report_text_add(t, v->str, v->len))
			return -1;
		return v->truncated ? report_text_add(t, "\xe2\x80\xa6", 3) : 0;
	default:
		snprintf(buf, sizeof(buf), "<unavailable>");
		break;
	}
	return report_text_add(t, buf, strlen(buf));
}

int report_text_add(struct report_text *t, const char *s, size_t len)
{
	char *b;

	if (t->len + len + 1 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;

		while (cap < t->len + len + 1)
			cap *= 2;
		b = realloc(t->buf, cap);
		if (!b)
			return -1;
		t->buf = b;
		t->cap = cap;
	}
	memcpy(t->buf + t->len, s, len);
	t->len += len;
	t->buf[t->len] = '\0';
	return 0;
}

int report_values_text(const struct report_event *ev, const struct report_names *n,
		       struct report_text *t)
{
	size_t i;

	t->len = 0;
	for (i = 0; i < n->n; i++) {
		int a = arg_index(ev->kind, n->name[i]);

		if (i && report_text_add(t, REPORT_SEP, 1))
			return -1;
		if (a >= 0 && (size_t)a < ev->nargs ? value_text(t, &ev->args[a])
						    : report_text_add(t, "<none>", 6))
			return -1;
	}
	return t->buf || !report_text_add(t, "", 0) ? 0 : -1;
}

int report_args_text(const struct report_event *ev, struct report_text *t)
{
	size_t i;

	t->len = 0;
	for (i = 0; i < ev->nargs; i++) {
		const char *name =
		    sdt_trace_event_desc__arg_name(sdt_trace_kind__desc(ev->kind), i);

		if ((i && report_text_add(t, " ", 1)) || report_text_add(t, name, strlen(name)) ||
		    report_text_add(t, "=", 1))
			return -1;
		if (ev->args[i].kind == SDT_VALUE_STRING &&
		    (report_text_add(t, "\"", 1) || value_text(t, &ev->args[i]) ||
		     report_text_add(t, "\"", 1)))
			return -1;
		if (ev->args[i].kind != SDT_VALUE_STRING && value_text(t, &ev->args[i]))
			return -1;
	}
	return t->buf || !report_text_add(t, "", 0) ? 0 : -1;
}

uint64_t report_hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

struct report_group *report_group_find(struct report_groups *g, const char *key)
{
	uint64_t h = report_hash_str(key);
	size_t i, cap;

	if (g->nslots) {
		for (i = h & (g->nslots - 1); g->slots[i]; i = (i + 1) & (g->nslots - 1))
			if (!strcmp(g->groups[g->slots[i] - 1].key, key))
				return &g->groups[g->slots[i] - 1];
	}
	if ((g->n + 1) * 2 > g->nslots) {
		size_t *slots, k, ns = g->nslots ? g->nslots * 2 : 64;

		slots = calloc(ns, sizeof(*slots));
		if (!slots)
			return NULL;
		for (k = 0; k < g->n; k++) {
			for (i = report_hash_str(g->groups[k].key) & (ns - 1); slots[i];
			     i = (i + 1) & (ns - 1))
				;
			slots[i] = k + 1;
		}
		free(g->slots);
		g->slots = slots;
		g->nslots = ns;
	}
	if (g->n == g->cap) {
		struct report_group *groups;

		cap = g->cap ? g->cap * 2 : 16;
		groups = realloc(g->groups, cap * sizeof(*groups));
		if (!groups)
			return NULL;
		g->groups = groups;
		g->cap = cap;
	}
	memset(&g->groups[g->n], 0, sizeof(g->groups[g->n]));
	if (!(g->groups[g->n].key = strdup(key)))
		return NULL;
	for (i = h & (g->nslots - 1); g->slots[i]; i = (i + 1) & (g->nslots - 1))
		;
	g->slots[i] = ++g->n;
	return &g->groups[g->n - 1];
}

int report_group_add(struct report_group *gr, uint64_t d)
{
	if (gr->n == gr->cap) {
		size_t cap = gr->cap ? gr->cap * 2 : 8;
		uint64_t *v = realloc(gr->d, cap * sizeof(*v));

		if (!v)
			return -1;
		gr->d = v;
		gr->cap = cap;
	}
	gr->d[gr->n++] = d;
	gr->total += d;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int cmp_group(const void *a, const void *b)
{
	const struct report_group *x = a, *y = b;

	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->key, y->key);
}

void report_groups_sort(struct report_groups *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (g->groups[i].d)
			qsort(g->groups[i].d, g->groups[i].n, sizeof(uint64_t), cmp_u64);
	if (g->n) /* qsort's array may not be NULL, even for none */
		qsort(g->groups, g->n, sizeof(*g->groups), cmp_group);
	free(g->slots); /* the order changed: no more lookups */
	g->slots = NULL;
	g->nslots = 0;
}

uint64_t report_group_percentile(const struct report_group *gr, double p)
{
	size_t rank;

	if (!gr->n)
		return 0;
	rank = (size_t)ceil(p / 100.0 * (double)gr->n);
	if (rank < 1)
		rank = 1;
	if (rank > gr->n)
		rank = gr->n;
	return gr->d[rank - 1];
}

void report_groups_free(struct report_groups *g)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		free(g->groups[i].key);
		free(g->groups[i].d);
	}
	free(g->groups);
	free(g->slots);
	memset(g, 0, sizeof(*g));
}
