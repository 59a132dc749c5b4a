/* SPDX-License-Identifier: MIT */
/*
 * stat --by and --latency (stat-agg.h). Pairs as report --latency makes them (sdtrace/latency.h:
 * the provider files' `@sdtrace pair:` notes, the naming conventions, or --pair), keys as its
 * --key (else the provider file's `@sdtrace key:` note of the pair's start, when both sides have
 * those arguments), on the thread and key or on the key alone as its --pair-by (else the
 * start's `@sdtrace pair-by:` note), so that a stat and a report of the same run agree; the
 * counting and timing is the kernel's (lib/record/bpf/agg.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "record-setup.h"
#include "report.h"
#include "stat-agg.h"

struct names {
	char **v;
	size_t n;
};

struct stat_agg {
	struct stat_agg_args a;
	struct names by, key;
	const struct sdt_types *types;
	struct sdt_latency *lat;
	/* the events seen (agg_for's first pass), by index */
	const struct sdt_trace_event_desc **ev;
	size_t nev;
	/* per pair: its key (--key, or the note), once decided */
	struct names *pair_key;
	bool *pair_key_done;
	size_t npk;
	struct names *notes; /* keys from notes, owned */
	size_t nnotes;
	bool failed;
	bool checked; /* the second pass began: the names were checked */
};

static void names_free(struct names *n)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		free(n->v[i]);
	free(n->v);
	n->v = NULL;
	n->n = 0;
}

/* "a,b c" into names; 0 or -ENOMEM. */
static int names_split(const char *s, struct names *out)
{
	const char *p = s;

	while (p && *p) {
		size_t len = strcspn(p, ", ");
		char **v;

		if (len) {
			v = realloc(out->v, (out->n + 1) * sizeof(*v));
			if (!v)
				return -ENOMEM;
			out->v = v;
			if (!(v[out->n] = strndup(p, len)))
				return -ENOMEM;
			out->n++;
		}
		p += len;
		p += strspn(p, ", ");
	}
	return 0;
}

/* Has @d every name of @n? `pid` (the process, no argument: record.h) every event has. */
static bool has_all(const struct sdt_trace_event_desc *d, const struct names *n)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		if (strcmp(n->v[i], "pid") && sdt_trace_event_desc__arg_index(d, n->v[i]) < 0)
			return false;
	return true;
}

bool stat_agg_wanted(const struct stat_agg_args *a)
{
	return a->by || a->latency || a->key || a->npairs || a->pair_by_key;
}

int stat_agg_new(const struct stat_agg_args *a, const struct sdt_types *types,
		 struct stat_agg **out)
{
	struct stat_agg *sa;
	size_t i;

	*out = NULL;
	if ((a->key || a->npairs || a->pair_by_key) && !a->latency)
		return cli_usage_error("stat", "%s goes with --latency",
				       a->key ? "--key" : a->npairs ? "--pair" : "--pair-by");
	sa = calloc(1, sizeof(*sa));
	if (!sa || sdt_latency__new(&sa->lat)) {
		free(sa);
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	sa->a = *a;
	sa->types = types;
	if ((a->by && names_split(a->by, &sa->by)) || (a->key && names_split(a->key, &sa->key))) {
		stat_agg_free(sa);
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	if ((a->by && !sa->by.n) || (a->key && !sa->key.n) || sa->by.n > SDT_AGG_MAX_PARTS ||
	    sa->key.n > SDT_AGG_MAX_PARTS) {
		stat_agg_free(sa);
		return cli_usage_error("stat", "%s: from 1 to %d argument names, comma-separated",
				       a->by && (!sa->by.n || sa->by.n > SDT_AGG_MAX_PARTS)
					   ? "--by"
					   : "--key",
				       SDT_AGG_MAX_PARTS);
	}
	for (i = 0; i < a->npairs; i++) {
		const char *comma = strchr(a->pairs[i], ',');
		char *start = comma ? strndup(a->pairs[i], (size_t)(comma - a->pairs[i])) : NULL;
		int err = comma && start ? sdt_latency__add_pair(sa->lat, start, comma + 1) : -EINVAL;

		free(start);
		if (err) {
			stat_agg_free(sa);
			return cli_usage_error("stat", "--pair %s: %s", a->pairs[i],
					       comma ? sdt_errmsg() : "not START,END");
		}
	}
	*out = sa;
	return 0;
}

void stat_agg_set_types(struct stat_agg *sa, const struct sdt_types *types)
{
	sa->types = types;
}

/* The key of pair @pair whose start is @d: --key, else the start's note when @end has it too. */
static const struct names *pair_key(struct stat_agg *sa, size_t pair)
{
	const struct sdt_trace_event_desc *start = NULL, *end = NULL;
	struct names note = {0};
	size_t i, p;

	if (pair >= sa->npk) {
		size_t n = pair + 1;
		struct names *k = realloc(sa->pair_key, n * sizeof(*k));
		bool *done;

		if (!k)
			return NULL;
		sa->pair_key = k;
		done = realloc(sa->pair_key_done, n * sizeof(*done));
		if (!done)
			return NULL;
		sa->pair_key_done = done;
		memset(k + sa->npk, 0, (n - sa->npk) * sizeof(*k));
		memset(done + sa->npk, 0, (n - sa->npk) * sizeof(*done));
		sa->npk = n;
	}
	if (sa->pair_key_done[pair])
		return &sa->pair_key[pair];
	sa->pair_key_done[pair] = true;
	/* every side of the pair must have every name, else it pairs without a key */
	for (i = 0; i < sa->nev; i++) {
		enum sdt_latency_role role;

		if (!sa->ev[i])
			continue;
		role = sdt_latency__kind_role(sa->lat, sdt_trace_event_desc__provider(sa->ev[i]),
					      sdt_trace_event_desc__name(sa->ev[i]), &p);
		if (role == SDT_LATENCY_NONE || p != pair)
			continue;
		if (role == SDT_LATENCY_START && !start)
			start = sa->ev[i];
		if (role == SDT_LATENCY_END && !end)
			end = sa->ev[i];
	}
	if (!start || !end)
		return &sa->pair_key[pair];
	if (sa->key.n) {
		for (i = 0; i < sa->nev; i++) {
			if (!sa->ev[i] ||
			    sdt_latency__kind_role(sa->lat, sdt_trace_event_desc__provider(sa->ev[i]),
						   sdt_trace_event_desc__name(sa->ev[i]),
						   &p) == SDT_LATENCY_NONE ||
			    p != pair || has_all(sa->ev[i], &sa->key))
				continue;
			cli_warn("--key: %s:%s lacks one of the names: its pair, %s, is timed without "
				 "a key", sdt_trace_event_desc__provider(sa->ev[i]),
				 sdt_trace_event_desc__name(sa->ev[i]),
				 sdt_latency__pair_name(sa->lat, pair));
			return &sa->pair_key[pair];
		}
		sa->pair_key[pair] = (struct names){sa->key.v, sa->key.n}; /* borrowed */
		return &sa->pair_key[pair];
	}
	if (!sa->types)
		return &sa->pair_key[pair];
	if (names_split(sdt_types__note_text(sa->types, sdt_trace_event_desc__provider(start),
					     sdt_trace_event_desc__name(start), "key"),
			&note)) {
		names_free(&note);
		return NULL;
	}
	if (note.n && note.n <= SDT_AGG_MAX_PARTS && has_all(start, &note) && has_all(end, &note)) {
		struct names *nn = realloc(sa->notes, (sa->nnotes + 1) * sizeof(*nn));

		if (!nn) {
			names_free(&note);
			return NULL;
		}
		sa->notes = nn;
		nn[sa->nnotes++] = note;
		sa->pair_key[pair] = (struct names){note.v, note.n}; /* borrowed from notes */
		return &sa->pair_key[pair];
	}
	names_free(&note);
	return &sa->pair_key[pair];
}

int stat_agg_for(void *ctx, const struct sdt_trace_event_desc *d, struct sdt_agg_event *out)
{
	struct stat_agg *sa = ctx;
	uint32_t idx = sdt_trace_event_desc__index(d);
	const char *prov = sdt_trace_event_desc__provider(d), *name = sdt_trace_event_desc__name(d);
	const struct names *k;
	enum sdt_latency_role role;
	size_t pair = 0;

	if (!out) { /* the first pass: learn the event */
		if (idx >= sa->nev) {
			const struct sdt_trace_event_desc **ev =
			    realloc(sa->ev, (idx + 1) * sizeof(*ev));

			if (!ev)
				goto nomem;
			memset(ev + sa->nev, 0, (idx + 1 - sa->nev) * sizeof(*ev));
			sa->ev = ev;
			sa->nev = idx + 1;
		}
		sa->ev[idx] = d;
		/* a start's pair note first: its end, met before or after, is known as its end */
		if (sa->a.latency && sa->types)
			report_latency_note_rules(sa->types, sa->lat, prov, name);
		if (sa->a.latency && sdt_latency__add_kind(sa->lat, prov, name))
			goto nomem;
		return 0;
	}
	memset(out, 0, sizeof(*out));
	if (!sa->checked) {
		size_t i;

		sa->checked = true;
		for (i = 0; sa->by.n && i < sa->nev && !(sa->ev[i] && has_all(sa->ev[i], &sa->by));
		     i++)
			;
		if (sa->by.n && i == sa->nev) {
			cli_error("--by %s: no event probed has %s (name them with a (name:type, "
				  "...) suffix or a --types file, or use argN)",
				  sa->a.by, sa->by.n > 1 ? "all of these arguments" : "this argument");
			sa->failed = true;
			return -EINVAL;
		}
	}
	if (!sa->a.latency) {
		out->role = SDT_AGG_COUNT;
	} else {
		role = sdt_latency__kind_role(sa->lat, prov, name, &pair);
		out->role = role == SDT_LATENCY_START ? SDT_AGG_START
			    : role == SDT_LATENCY_END ? SDT_AGG_END
						      : SDT_AGG_IGNORE;
		out->pair = pair;
		if (out->role == SDT_AGG_IGNORE)
			return 0;
		if (!(k = pair_key(sa, pair)))
			goto nomem;
		out->key = (const char *const *)k->v;
		out->nkey = k->n;
		/* both sides alike: the start's note decides for the pair */
		out->any_thread =
		    sa->a.pair_by_key || report_latency_note_by_key(sa->types, sa->lat, pair);
		if (out->role == SDT_AGG_END)
			return 0;
	}
	/* a start or a counted event without every --by name: one row without values */
	if (sa->by.n && !has_all(d, &sa->by)) {
		cli_warn("--by: %s:%s lacks one of the names: %s in one row without them", prov,
			 name, out->role == SDT_AGG_START ? "its pair's durations are" : "its hits are");
		return 0;
	}
	out->by = (const char *const *)sa->by.v;
	out->nby = sa->by.n;
	return 0;
nomem:
	cli_error("out of memory");
	sa->failed = true;
	return -ENOMEM;
}

bool stat_agg_failed(const struct stat_agg *sa)
{
	return sa->failed;
}

/* Rows sorted: by count, most first (count mode), by total time (pairs), then by values. */
static const struct sdt_agg_row **sorted_rows(const struct sdt_recorder *rec, size_t *n)
{
	size_t i, cnt = sdt_recorder__agg_count(rec);
	const struct sdt_agg_row **v = calloc(cnt ? cnt : 1, sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (i = 0; i < cnt; i++)
		v[i] = sdt_recorder__agg_row(rec, i);
	*n = cnt;
	return v;
}

static int cmp_value(const struct sdt_agg_value *a, const struct sdt_agg_value *b)
{
	if (a->is_string && b->is_string)
		return strcmp(a->str, b->str);
	if (a->is_signed)
		return a->i < b->i ? -1 : a->i > b->i;
	return a->u < b->u ? -1 : a->u > b->u;
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct sdt_agg_row *a = *(const struct sdt_agg_row *const *)pa;
	const struct sdt_agg_row *b = *(const struct sdt_agg_row *const *)pb;
	uint64_t ka = a->is_pair ? a->sum_ns : a->count, kb = b->is_pair ? b->sum_ns : b->count;
	size_t i;
	int c;

	if (a->is_pair != b->is_pair)
		return a->is_pair ? 1 : -1;
	if (a->is_pair && a->pair != b->pair)
		return a->pair < b->pair ? -1 : 1;
	if (ka != kb)
		return ka > kb ? -1 : 1;
	if (a->nvalues != b->nvalues)
		return a->nvalues < b->nvalues ? -1 : 1;
	for (i = 0; i < a->nvalues; i++)
		if ((c = cmp_value(&a->values[i], &b->values[i])))
			return c;
	return a->event < b->event ? -1 : a->event > b->event;
}

/* "name=value name=value", as report --by prints a key. */
static void put_values(FILE *out, const struct sdt_agg_row *row, const struct names *by)
{
	size_t i;

	if (!row->nvalues)
		fputs("(without the --by names)", out);
	for (i = 0; i < row->nvalues; i++) {
		const struct sdt_agg_value *v = &row->values[i];

		fprintf(out, "%s%s=", i ? " " : "", i < by->n ? by->v[i] : "?");
		if (v->is_string) {
			cli_put_escaped(out, v->str);
			if (v->cut)
				fputs("...", out);
		} else if (v->is_signed) {
			fprintf(out, "%" PRId64, v->i);
		} else {
			fprintf(out, "%" PRIu64, v->u);
		}
	}
}

static void json_values(struct json *j, const struct sdt_agg_row *row, const struct names *by)
{
	size_t i;

	json_key(j, "key");
	json_begin_object(j);
	for (i = 0; i < row->nvalues; i++) {
		const struct sdt_agg_value *v = &row->values[i];

		json_key(j, i < by->n ? by->v[i] : "?");
		if (v->is_string)
			json_string(j, v->str);
		else if (v->is_signed)
			json_int(j, v->i);
		else
			json_uint(j, v->u);
	}
	json_end_object(j);
	for (i = 0; i < row->nvalues && !row->values[i].cut; i++)
		;
	if (i < row->nvalues) {
		json_key(j, "cut"); /* a string value was longer than SDT_AGG_STR_MAX bytes */
		json_bool(j, true);
	}
}

/* A pair's numbers over all its rows: a row of its own (its hist merged). */
static void pair_total(const struct sdt_agg_row *const *rows, size_t n, size_t pair,
		       struct sdt_agg_row *t, uint64_t *hist)
{
	size_t i, b;

	memset(t, 0, sizeof(*t));
	memset(hist, 0, SDT_AGG_BUCKETS * sizeof(*hist));
	t->is_pair = true;
	t->pair = pair;
	t->hist = hist;
	for (i = 0; i < n; i++) {
		const struct sdt_agg_row *r = rows[i];

		if (!r->is_pair || r->pair != pair)
			continue;
		if (!t->count || r->min_ns < t->min_ns)
			t->min_ns = r->min_ns;
		if (r->max_ns > t->max_ns)
			t->max_ns = r->max_ns;
		t->count += r->count;
		t->sum_ns += r->sum_ns;
		for (b = 0; b < SDT_AGG_BUCKETS; b++)
			hist[b] += r->hist[b];
	}
}

static void print_lat_text(FILE *out, const struct sdt_agg_row *r, bool line)
{
	char a[32], b[32], c[32], d[32], e[32], f[32], g[32];

	cli_fmt_ns(a, sizeof(a), (double)r->min_ns);
	cli_fmt_ns(b, sizeof(b), r->count ? (double)r->sum_ns / (double)r->count : 0);
	cli_fmt_ns(c, sizeof(c), (double)sdt_agg_row__percentile(r, 50));
	cli_fmt_ns(d, sizeof(d), (double)sdt_agg_row__percentile(r, 90));
	cli_fmt_ns(e, sizeof(e), (double)sdt_agg_row__percentile(r, 99));
	cli_fmt_ns(f, sizeof(f), (double)r->max_ns);
	cli_fmt_ns(g, sizeof(g), (double)r->sum_ns);
	if (line)
		fprintf(out,
			"  count %" PRIu64 "  min %s  avg %s  p50 ~%s  p90 ~%s  p99 ~%s  max %s  "
			"total %s\n",
			r->count, a, b, c, d, e, f, g);
	else
		fprintf(out, "%10" PRIu64 " %9s %9s %9s %9s %9s %9s %9s  ", r->count, a, b, c, d, e,
			f, g);
}

static void json_lat(struct json *j, const struct sdt_agg_row *r)
{
	json_key(j, "count");
	json_uint(j, r->count);
	json_key(j, "min_ns");
	json_uint(j, r->min_ns);
	json_key(j, "avg_ns");
	json_double(j, r->count ? (double)r->sum_ns / (double)r->count : 0);
	json_key(j, "p50_ns");
	json_uint(j, sdt_agg_row__percentile(r, 50));
	json_key(j, "p90_ns");
	json_uint(j, sdt_agg_row__percentile(r, 90));
	json_key(j, "p99_ns");
	json_uint(j, sdt_agg_row__percentile(r, 99));
	json_key(j, "max_ns");
	json_uint(j, r->max_ns);
	json_key(j, "total_ns");
	json_uint(j, r->sum_ns);
}

/*
 * The durations of pair @pair whose key came past the --max-keys cap: in the pair's total, and
 * on a labelled line (JSON: "past_cap") of their own, not in any key's row.
 */
static void print_past_cap(const struct sdt_agg_row *const *rows, size_t n, size_t pair, FILE *out,
			   struct json *j)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!rows[i]->is_pair || rows[i]->pair != pair || !rows[i]->past_cap)
			continue;
		if (j) {
			json_key(j, "past_cap");
			json_begin_object(j);
			json_lat(j, rows[i]);
			json_end_object(j);
			return;
		}
		print_lat_text(out, rows[i], false);
		fputs("(keys past the --max-keys cap: in the total above, in no row)\n", out);
		return;
	}
}

static void print_pairs(struct stat_agg *sa, const struct sdt_agg_row *const *rows, size_t n,
			FILE *out, struct json *j)
{
	uint64_t hist[SDT_AGG_BUCKETS];
	struct sdt_agg_row t;
	size_t p, i, shown;

	if (j) {
		json_key(j, "pairs");
		json_begin_array(j);
	}
	for (p = 0; p < sdt_latency__pair_count(sa->lat); p++) {
		if (!sdt_latency__pair_active(sa->lat, p))
			continue;
		pair_total(rows, n, p, &t, hist);
		if (j) {
			json_begin_object(j);
			json_key(j, "name");
			json_string(j, sdt_latency__pair_name(sa->lat, p));
			json_key(j, "start");
			json_string(j, sdt_latency__pair_start(sa->lat, p));
			json_key(j, "end");
			json_string(j, sdt_latency__pair_end(sa->lat, p));
			json_lat(j, &t);
		} else {
			fprintf(out, "%s  (%s -> %s)\n", sdt_latency__pair_name(sa->lat, p),
				sdt_latency__pair_start(sa->lat, p),
				sdt_latency__pair_end(sa->lat, p));
			print_lat_text(out, &t, true);
		}
		if (!sa->by.n) {
			if (j)
				json_end_object(j);
			continue;
		}
		if (j) {
			json_key(j, "groups");
			json_begin_array(j);
		} else {
			fprintf(out, "\n%10s %9s %9s %9s %9s %9s %9s %9s  by %s\n", "count", "min",
				"avg", "p50~", "p90~", "p99~", "max", "total", sa->a.by);
		}
		for (i = 0, shown = 0; i < n; i++) {
			if (!rows[i]->is_pair || rows[i]->pair != p || rows[i]->past_cap)
				continue;
			if (sa->a.top && shown++ >= sa->a.top)
				break;
			if (j) {
				json_begin_object(j);
				json_values(j, rows[i], &sa->by);
				json_lat(j, rows[i]);
				json_end_object(j);
			} else {
				print_lat_text(out, rows[i], false);
				put_values(out, rows[i], &sa->by);
				fputc('\n', out);
			}
		}
		if (j)
			json_end_array(j);
		print_past_cap(rows, n, p, out, j);
		if (j)
			json_end_object(j);
		else
			fputc('\n', out);
	}
	if (j)
		json_end_array(j);
}

static void print_counts(struct stat_agg *sa, const struct sdt_recorder *rec,
			 const struct sdt_agg_row *const *rows, size_t n, FILE *out, struct json *j)
{
	size_t i;

	if (j) {
		json_key(j, "rows");
		json_begin_array(j);
	} else {
		fprintf(out, "%14s  %s  by %s\n", "count", "event", sa->a.by);
	}
	for (i = 0; i < n && (!sa->a.top || i < sa->a.top); i++) {
		const struct sdt_trace_event_desc *d = sdt_recorder__event(rec, rows[i]->event);
		const char *prov = d ? sdt_trace_event_desc__provider(d) : "?";
		const char *name = d ? sdt_trace_event_desc__name(d) : "?";

		if (j) {
			json_begin_object(j);
			json_key(j, "provider");
			json_string(j, prov);
			json_key(j, "name");
			json_string(j, name);
			json_values(j, rows[i], &sa->by);
			json_key(j, "count");
			json_uint(j, rows[i]->count);
			json_end_object(j);
		} else {
			fprintf(out, "%14" PRIu64 "  %%", rows[i]->count);
			cli_put_escaped(out, prov);
			fputc(':', out);
			cli_put_escaped(out, name);
			fputs("  ", out);
			put_values(out, rows[i], &sa->by);
			fputc('\n', out);
		}
	}
	if (j)
		json_end_array(j);
	else if (sa->a.top && n > sa->a.top)
		fprintf(out, "%14s  (%zu more keys)\n", "...", n - sa->a.top);
}

/* The rows: at the end (@tick 0, with @status), or interval @tick at @elapsed_ns. */
static void print_rows(struct stat_agg *sa, const struct sdt_recorder *rec, FILE *out, bool json,
		       int status, uint64_t tick, uint64_t elapsed_ns)
{
	const struct sdt_agg_row **rows;
	uint64_t keys, starts, unmatched;
	struct json j;
	size_t n;

	rows = sorted_rows(rec, &n);
	if (!rows) {
		cli_error("out of memory");
		return;
	}
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(rows, n, sizeof(*rows), cmp_row);
	sdt_recorder__agg_drops(rec, &keys, &starts, &unmatched);
	if (json) {
		json_init(&j, out, false);
		json_begin_object(&j);
		if (tick) {
			json_key(&j, "interval");
			json_uint(&j, tick);
			json_key(&j, "elapsed_s");
			json_double(&j, (double)elapsed_ns / 1e9);
		}
		json_key(&j, "by");
		json_begin_array(&j);
		for (size_t i = 0; i < sa->by.n; i++)
			json_string(&j, sa->by.v[i]);
		json_end_array(&j);
	}
	if (tick && !json)
		fprintf(out, "# %.3f s (interval %" PRIu64 ", totals so far)\n", (double)elapsed_ns / 1e9,
			tick);
	if (sa->a.latency)
		print_pairs(sa, rows, n, out, json ? &j : NULL);
	else
		print_counts(sa, rec, rows, n, out, json ? &j : NULL);
	if (tick) {
		if (json) {
			json_end_object(&j);
			json_newline(&j);
		} else {
			fputc('\n', out);
		}
		fflush(out);
		free(rows);
		return;
	}
	if (json) {
		if (sa->a.latency) {
			json_key(&j, "unmatched_ends");
			json_uint(&j, unmatched);
			json_key(&j, "dropped_starts");
			json_uint(&j, starts);
			json_key(&j, "too_deep_starts");
			json_uint(&j, sdt_recorder__agg_too_deep(rec));
		}
		json_key(&j, "dropped_keys");
		json_uint(&j, keys);
		json_key(&j, "elapsed_s");
		json_double(&j, (double)sdt_recorder__elapsed_ns(rec) / 1e9);
		rec_json_exit_status(&j, status);
		json_end_object(&j);
		json_newline(&j);
	} else {
		if (sa->a.latency && unmatched)
			fprintf(out, "%14" PRIu64 "  ends with no open start of their pair (thread, key)\n",
				unmatched);
		if (sdt_recorder__elapsed_ns(rec))
			fprintf(out, "\n%14.3f  seconds elapsed\n",
				(double)sdt_recorder__elapsed_ns(rec) / 1e9);
	}
	if (keys && sa->a.latency)
		cli_warn("%" PRIu64 " pairs had a key past the cap of the kernel's map (--max-keys): "
			 "they are in their pair's totals and on its line of keys past the cap, in no "
			 "row", keys);
	else if (keys)
		cli_warn("%" PRIu64 " hits had a new key past the cap of the kernel's map: they are "
			 "not counted (the rows are of the first keys met)", keys);
	if (starts)
		cli_warn("%" PRIu64 " starts found the kernel's map of open pairs full: their pairs "
			 "are not timed", starts);
	if (sa->a.latency && sdt_recorder__agg_too_deep(rec))
		cli_warn("%" PRIu64 " starts nested more than %u deep on one thread and key: their "
			 "pairs are not timed (record, then report --latency, times them)",
			 sdt_recorder__agg_too_deep(rec), sdt_recorder__agg_pair_depth());
	free(rows);
}

void stat_agg_print(struct stat_agg *sa, const struct sdt_recorder *rec, FILE *out, bool json,
		    int status)
{
	print_rows(sa, rec, out, json, status, 0, 0);
}

void stat_agg_print_tick(struct stat_agg *sa, const struct sdt_recorder *rec, FILE *out,
			 bool json, uint64_t tick, uint64_t elapsed_ns)
{
	print_rows(sa, rec, out, json, -1, tick, elapsed_ns);
}

const char *const *stat_agg_by(const struct stat_agg *sa, size_t *n)
{
	*n = sa->by.n;
	return (const char *const *)sa->by.v;
}

bool stat_agg_latency(const struct stat_agg *sa)
{
	return sa->a.latency;
}

const char *stat_agg_pair_name(const struct stat_agg *sa, size_t pair)
{
	return pair < sdt_latency__pair_count(sa->lat) ? sdt_latency__pair_name(sa->lat, pair) : "?";
}

const char *stat_agg_value_text(const struct sdt_agg_value *v, char *buf, size_t size)
{
	if (v->is_string)
		snprintf(buf, size, "%s%s", v->str, v->cut ? "..." : "");
	else if (v->is_signed)
		snprintf(buf, size, "%" PRId64, v->i);
	else
		snprintf(buf, size, "%" PRIu64, v->u);
	return buf;
}

void stat_agg_free(struct stat_agg *sa)
{
	size_t i;

	if (!sa)
		return;
	names_free(&sa->by);
	names_free(&sa->key);
	for (i = 0; i < sa->nnotes; i++)
		names_free(&sa->notes[i]);
	free(sa->notes);
	free(sa->pair_key);
	free(sa->pair_key_done);
	free(sa->ev);
	sdt_latency__free(sa->lat);
	free(sa);
}
