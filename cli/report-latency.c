/* SPDX-License-Identifier: MIT */
/* sdtrace report --latency: per probe pair the count, percentiles and a log2 histogram. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "json.h"
#include "sdtrace/latency.h"
#include "report.h"

int report_latency_new(const struct report_pairs *pairs, struct sdt_latency **out)
{
	struct sdt_latency *l;
	size_t i;

	if (sdt_latency__new(&l)) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	for (i = 0; pairs && i < pairs->n; i++) {
		if (sdt_latency__add_pair(l, pairs->start[i], pairs->end[i])) {
			cli_error("bad --pair '%s,%s': %s", pairs->start[i], pairs->end[i],
				  sdt_errmsg());
			sdt_latency__free(l);
			return EXIT_USAGE;
		}
	}
	*out = l;
	return 0;
}

/* Does @text (a valid spec: sdt_latency__add_pair() took it) match a kind of @r? Else say so. */
static int check_spec(const struct sdt_trace_reader *r, const char *text, const char *pair_start,
		      const char *pair_end, char **names, size_t n)
{
	struct sdt_spec *sp;
	char *hint;
	size_t i;

	if (sdt_spec__parse(text, &sp))
		return 0;
	for (i = 0; i < sdt_trace_reader__kind_count(r); i++) {
		const struct sdt_trace_kind *k = sdt_trace_reader__kind(r, i);

		if (sdt_spec__match(sp, sdt_trace_event_desc__provider(sdt_trace_kind__desc(k)),
				    sdt_trace_event_desc__name(sdt_trace_kind__desc(k)))) {
			sdt_spec__free(sp);
			return 0;
		}
	}
	hint = cli_hint(sp, (const char *const *)names, n);
	cli_error("--pair '%s,%s': no event of the recording matches '%s'%s", pair_start, pair_end,
		  text, hint ? hint : " (see 'sdtrace report --stats')");
	free(hint);
	sdt_spec__free(sp);
	return EXIT_RUNTIME;
}

int report_pairs_check(const struct sdt_trace_reader *r, const struct report_pairs *pairs)
{
	size_t n = sdt_trace_reader__kind_count(r), i, k = 0;
	char **names;
	int ret = 0;

	if (!pairs || !pairs->n)
		return 0;
	names = calloc(n ? n : 1, sizeof(*names));
	for (i = 0; names && i < n; i++) {
		const struct sdt_trace_kind *kd = sdt_trace_reader__kind(r, i);

		if (asprintf(&names[k], "%s:%s",
			     sdt_trace_event_desc__provider(sdt_trace_kind__desc(kd)),
			     sdt_trace_event_desc__name(sdt_trace_kind__desc(kd))) >= 0)
			k++;
	}
	for (i = 0; i < pairs->n && !ret; i++) {
		ret = check_spec(r, pairs->start[i], pairs->start[i], pairs->end[i], names, k);
		if (!ret)
			ret =
			    check_spec(r, pairs->end[i], pairs->start[i], pairs->end[i], names, k);
	}
	for (i = 0; i < k; i++)
		free(names[i]);
	free(names);
	return ret;
}

/*
 * The pairs the `@sdtrace pair: END...` note of a start states (ends of the same provider,
 * separated by spaces or commas). A note that cannot be followed is a warning, not an error.
 */
void report_latency_note_rules(const struct sdt_types *types, struct sdt_latency *l,
			       const char *provider, const char *name)
{
	const char *note = sdt_types__note_text(types, provider, name, "pair"), *p = note;

	while (p && *p) {
		size_t len = strcspn(p, ", \t\n");
		char *end = len ? strndup(p, len) : NULL;

		if (len && (!end || sdt_latency__add_rule(l, provider, name, end)))
			cli_warn("%s:%s: pair note '%s' not followed: %s", provider, name, note,
				 end ? sdt_errmsg() : "out of memory");
		free(end);
		p += len;
		p += strspn(p, ", \t\n");
	}
}

/*
 * Describe @n kinds (@desc_at gives each) to @l: first the pairs the provider files' notes state
 * for them, so that their ends are known as ends, then the kinds themselves.
 */
static int describe(struct sdt_latency *l, const struct sdt_types *types, size_t n,
		    const struct sdt_trace_event_desc *(*desc_at)(const void *ctx, size_t i),
		    const void *ctx)
{
	size_t i;

	for (i = 0; types && i < n; i++)
		report_latency_note_rules(types, l, sdt_trace_event_desc__provider(desc_at(ctx, i)),
					  sdt_trace_event_desc__name(desc_at(ctx, i)));
	for (i = 0; i < n; i++) {
		if (sdt_latency__add_kind(l, sdt_trace_event_desc__provider(desc_at(ctx, i)),
					  sdt_trace_event_desc__name(desc_at(ctx, i)))) {
			cli_error("%s", sdt_errmsg());
			return EXIT_RUNTIME;
		}
	}
	return 0;
}

/* The reader's kinds from a first one on. */
struct kinds_from {
	const struct sdt_trace_reader *r;
	size_t first;
};

static const struct sdt_trace_event_desc *reader_desc_at(const void *ctx, size_t i)
{
	const struct kinds_from *kf = ctx;

	return sdt_trace_kind__desc(sdt_trace_reader__kind(kf->r, kf->first + i));
}

int report_latency_kinds(const struct sdt_trace_reader *r, struct sdt_latency *l,
			 const struct sdt_types *types, size_t *shown)
{
	struct kinds_from kf = {r, *shown};
	size_t n = sdt_trace_reader__kind_count(r);
	int ret;

	if (n <= *shown)
		return 0;
	ret = describe(l, types, n - *shown, reader_desc_at, &kf);
	*shown = n;
	return ret;
}

static const struct sdt_trace_event_desc *array_desc_at(const void *ctx, size_t i)
{
	return ((const struct sdt_trace_event_desc *const *)ctx)[i];
}

int report_latency_descs(struct sdt_latency *l, const struct sdt_types *types,
			 const struct sdt_trace_event_desc *const *descs, size_t n)
{
	return describe(l, types, n, array_desc_at, descs);
}

/* The terminal's width: $COLUMNS, else the tty's, else 80. */
static unsigned int term_width(FILE *out)
{
	const char *cols = getenv("COLUMNS");
	struct winsize ws;
	char *end;

	if (cols && *cols) {
		unsigned long v = strtoul(cols, &end, 10);

		if (!*end && v >= 20 && v <= 1000)
			return (unsigned int)v;
	}
	if (isatty(fileno(out)) && !ioctl(fileno(out), TIOCGWINSZ, &ws) && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/* A power of two of nanoseconds, as bpftrace labels its buckets: 512, 1K, 64M, 2G. */
static const char *fmt_pow2(char *buf, size_t size, unsigned int b)
{
	static const char units[] = " KMGTPE";
	unsigned int u = b / 10;

	if (b >= 64)
		snprintf(buf, size, "2^64");
	else
		snprintf(buf, size, "%" PRIu64 "%.*s", (uint64_t)1 << (b - u * 10), u ? 1 : 0,
			 &units[u]);
	return buf;
}

/* The log2 buckets to show: from the first to the last non-empty one. */
static bool log2_range(const struct sdt_latency *l, size_t pair, unsigned int *lo, unsigned int *hi)
{
	unsigned int b;
	bool any = false;

	for (b = 0; b < SDT_LATENCY_LOG2_BUCKETS; b++) {
		if (!sdt_latency__log2(l, pair, b))
			continue;
		if (!any)
			*lo = b;
		*hi = b;
		any = true;
	}
	return any;
}

static void print_text(const struct sdt_latency *l, size_t pair, unsigned int width, bool histogram,
		       FILE *out)
{
	struct sdt_latency_stats s;
	char a[32], b[32], c[32], d[32], e[32], f[32];
	unsigned int lo = 0, hi = 0, i, bar;
	uint64_t most = 0;

	sdt_latency__stats(l, pair, &s);
	/* names come from the file: escaped */
	cli_put_escaped(out, sdt_latency__pair_name(l, pair));
	fputs("  (", out);
	cli_put_escaped(out, sdt_latency__pair_start(l, pair));
	fputs(" -> ", out);
	cli_put_escaped(out, sdt_latency__pair_end(l, pair));
	fputs(")\n", out);
	fprintf(out, "  count %" PRIu64, s.count);
	if (s.count)
		fprintf(
		    out, "  min %s  avg %s  p50 %s  p90 %s  p99 %s  max %s",
		    cli_fmt_ns(a, sizeof(a), (double)s.min_ns), cli_fmt_ns(b, sizeof(b), s.avg_ns),
		    cli_fmt_ns(c, sizeof(c), (double)s.p50_ns), cli_fmt_ns(d, sizeof(d), (double)s.p90_ns),
		    cli_fmt_ns(e, sizeof(e), (double)s.p99_ns), cli_fmt_ns(f, sizeof(f), (double)s.max_ns));
	fputc('\n', out);
	if (s.unmatched_starts || s.unmatched_ends)
		fprintf(out,
			"  unmatched: %" PRIu64 " starts (never ended), %" PRIu64
			" ends (no start on their thread)\n",
			s.unmatched_starts, s.unmatched_ends);
	if (s.key_mismatches)
		fprintf(out,
			"  key mismatches: %" PRIu64
			" ends whose pair's latest start on the thread had another key\n",
			s.key_mismatches);
	if (!histogram || !log2_range(l, pair, &lo, &hi)) {
		fputc('\n', out);
		return;
	}
	for (i = lo; i <= hi; i++)
		if (sdt_latency__log2(l, pair, i) > most)
			most = sdt_latency__log2(l, pair, i);
	/* "  [512, 1K)  12345678 |@@@@   |": 2 + 14 + 1 + 10 + 2 + bar + 1 */
	bar = width > 30 + 10 ? width - 30 : 10;
	fprintf(out, "  %-14s %10s\n", "ns (K=1024)", "count");
	for (i = lo; i <= hi; i++) {
		uint64_t n = sdt_latency__log2(l, pair, i);
		unsigned int w = (unsigned int)((double)n * bar / (double)most + 0.5), k;
		char label[80];

		if (i == 0)
			snprintf(label, sizeof(label), "[0]");
		else
			snprintf(label, sizeof(label), "[%s, %s)", fmt_pow2(a, sizeof(a), i - 1),
				 fmt_pow2(b, sizeof(b), i));
		if (n && !w)
			w = 1;
		fprintf(out, "  %-14s %10" PRIu64 " |", label, n);
		for (k = 0; k < bar; k++)
			fputc(k < w ? '@' : ' ', out);
		fputs("|\n", out);
	}
	fputc('\n', out);
}

struct lat_run;
static void print_groups_json(struct json *j, const struct lat_run *lr, size_t pair);

static void print_json(struct json *j, const struct sdt_latency *l, size_t pair,
		       const struct lat_run *groups)
{
	struct sdt_latency_stats s;
	unsigned int lo = 0, hi = 0, b;

	sdt_latency__stats(l, pair, &s);
	json_begin_object(j);
	json_key(j, "name");
	json_string(j, sdt_latency__pair_name(l, pair));
	json_key(j, "start");
	json_string(j, sdt_latency__pair_start(l, pair));
	json_key(j, "end");
	json_string(j, sdt_latency__pair_end(l, pair));
	json_key(j, "count");
	json_uint(j, s.count);
#define STAT(key, expr)                                                                            \
	do {                                                                                       \
		json_key(j, key);                                                                  \
		if (s.count)                                                                       \
			json_uint(j, expr);                                                        \
		else                                                                               \
			json_null(j);                                                              \
	} while (0)
	STAT("min_ns", s.min_ns);
	json_key(j, "avg_ns");
	if (s.count)
		json_double(j, s.avg_ns);
	else
		json_null(j);
	STAT("p50_ns", s.p50_ns);
	STAT("p90_ns", s.p90_ns);
	STAT("p99_ns", s.p99_ns);
	STAT("max_ns", s.max_ns);
#undef STAT
	json_key(j, "unmatched_starts");
	json_uint(j, s.unmatched_starts);
	json_key(j, "unmatched_ends");
	json_uint(j, s.unmatched_ends);
	json_key(j, "key_mismatches");
	json_uint(j, s.key_mismatches);
	if (groups)
		print_groups_json(j, groups, pair);
	json_key(j, "histogram");
	json_begin_array(j);
	if (log2_range(l, pair, &lo, &hi)) {
		for (b = lo; b <= hi; b++) {
			json_begin_object(j);
			json_key(j, "low_ns");
			json_uint(j, b ? (uint64_t)1 << (b - 1) : 0);
			json_key(j, "high_ns"); /* exclusive */
			json_uint(j, b == 64 ? UINT64_MAX : (uint64_t)1 << b);
			json_key(j, "count");
			json_uint(j, sdt_latency__log2(l, pair, b));
			json_end_object(j);
		}
	}
	json_end_array(j);
	json_end_object(j);
}

/* What a start keeps until its end: its --by values, its arguments for --top. */
struct lat_slot {
	char *by, *args;
	size_t next_free; /* index + 1 of the next free slot, when free */
};

/* One of the N slowest pairs (--top without --by). */
struct lat_top {
	uint64_t duration, start_ns;
	unsigned int pid, tid;
	size_t pair;
	char *start_args, *end_args;
};

/* One --latency run: the model, the groups per pair, the slowest pairs. */
struct lat_run {
	struct report_pairing pg;
	const struct report_latency_opts *o;
	struct sdt_latency *l; /* pg.l */
	struct lat_slot *slots;
	size_t nslots, free_slot;
	struct report_groups *groups; /* per pair, --by */
	size_t ngroups;
	struct lat_top *top; /* a min-heap of o->top, per all pairs */
	size_t ntop;
	struct report_text t;
};

static void lat_run_free(struct lat_run *lr)
{
	size_t i;

	report_pairing_release(&lr->pg);
	for (i = 0; i < lr->nslots; i++) {
		free(lr->slots[i].by);
		free(lr->slots[i].args);
	}
	free(lr->slots);
	for (i = 0; i < lr->ngroups; i++)
		report_groups_free(&lr->groups[i]);
	free(lr->groups);
	for (i = 0; i < lr->ntop; i++) {
		free(lr->top[i].start_args);
		free(lr->top[i].end_args);
	}
	free(lr->top);
	free(lr->t.buf);
}

/* A slot for a start: its tag (index + 1), or 0 on no memory. */
static uint64_t slot_new(struct lat_run *lr)
{
	size_t i;

	if (lr->free_slot) {
		i = lr->free_slot - 1;
		lr->free_slot = lr->slots[i].next_free;
		return i + 1;
	}
	if (!(lr->nslots & (lr->nslots - 1)) || !lr->nslots) {
		struct lat_slot *s =
		    realloc(lr->slots, (lr->nslots ? lr->nslots * 2 : 64) * sizeof(*s));

		if (!s)
			return 0;
		lr->slots = s;
	}
	memset(&lr->slots[lr->nslots], 0, sizeof(*lr->slots));
	return ++lr->nslots;
}

static void slot_free(struct lat_run *lr, uint64_t tag)
{
	struct lat_slot *s = &lr->slots[tag - 1];

	free(s->by);
	free(s->args);
	s->by = s->args = NULL;
	s->next_free = lr->free_slot;
	lr->free_slot = (size_t)tag;
}

static char *text_dup(struct lat_run *lr, int err)
{
	return err ? NULL : strdup(lr->t.buf);
}

static bool top_less(const struct lat_top *a, const struct lat_top *b)
{
	return a->duration < b->duration;
}

/* Keep the pair that just ended if it is among the N slowest. 0 or -1. */
static int top_offer(struct lat_run *lr, const struct report_event *ev,
		     const struct sdt_latency_step *st, const char *start_args)
{
	struct lat_top e = {st->duration_ns, st->start_ns, ev->pid, ev->tid, st->pair, NULL, NULL};
	size_t i, c;

	if (lr->ntop == lr->o->top && !top_less(&lr->top[0], &e))
		return 0;
	e.start_args = strdup(start_args ? start_args : "");
	e.end_args = text_dup(lr, report_args_text(ev, &lr->t));
	if (!e.start_args || !e.end_args) {
		free(e.start_args);
		free(e.end_args);
		return -1;
	}
	if (lr->ntop < lr->o->top) {
		if (!lr->top && !(lr->top = calloc(lr->o->top, sizeof(*lr->top))))
			return -1;
		for (i = lr->ntop++; i && top_less(&e, &lr->top[(i - 1) / 2]); i = (i - 1) / 2)
			lr->top[i] = lr->top[(i - 1) / 2];
		lr->top[i] = e;
		return 0;
	}
	free(lr->top[0].start_args);
	free(lr->top[0].end_args);
	for (i = 0;; i = c) {
		c = 2 * i + 1;
		if (c >= lr->ntop)
			break;
		if (c + 1 < lr->ntop && top_less(&lr->top[c + 1], &lr->top[c]))
			c++;
		if (!top_less(&lr->top[c], &e))
			break;
		lr->top[i] = lr->top[c];
	}
	lr->top[i] = e;
	return 0;
}

/* The groups of @pair, grown on demand. */
static struct report_groups *groups_of(struct lat_run *lr, size_t pair)
{
	if (pair >= lr->ngroups) {
		size_t n = pair + 8;
		struct report_groups *g = realloc(lr->groups, n * sizeof(*g));

		if (!g)
			return NULL;
		memset(g + lr->ngroups, 0, (n - lr->ngroups) * sizeof(*g));
		lr->groups = g;
		lr->ngroups = n;
	}
	return &lr->groups[pair];
}

/* The key names of @k: --key, else its `@sdtrace key:` note; NULL when none (or no memory). */
static const struct report_names *key_of(struct report_pairing *pg, const struct sdt_trace_kind *k)
{
	struct report_kind_key *kk;
	const char *note, *p;
	size_t i;

	if (pg->key)
		return pg->key;
	if (!pg->types)
		return NULL;
	for (i = 0; i < pg->nkkeys; i++)
		if (pg->kkeys[i].kind == k)
			return pg->kkeys[i].names.n ? &pg->kkeys[i].names : NULL;
	kk = realloc(pg->kkeys, (pg->nkkeys + 1) * sizeof(*kk));
	if (!kk)
		return NULL;
	pg->kkeys = kk;
	kk = &kk[pg->nkkeys++];
	memset(kk, 0, sizeof(*kk));
	kk->kind = k;
	note = sdt_types__note_text(pg->types,
				    sdt_trace_event_desc__provider(sdt_trace_kind__desc(k)),
				    sdt_trace_event_desc__name(sdt_trace_kind__desc(k)), "key");
	for (p = note; p && *p;) {
		const char *e = p + strcspn(p, ", ");
		char **n;

		if (e > p) {
			n = realloc(kk->names.name, (kk->names.n + 1) * sizeof(*n));
			if (!n || !(n[kk->names.n] = strndup(p, (size_t)(e - p)))) {
				if (n)
					kk->names.name = n;
				break;
			}
			kk->names.name = n;
			kk->names.n++;
		}
		p = e + strspn(e, ", ");
	}
	/* a note naming arguments the kind has not (another version): no key */
	if (kk->names.n && !report_names_in(&kk->names, k))
		report_names_free(&kk->names);
	return kk->names.n ? &kk->names : NULL;
}

/*
 * Does @k's pair pair on the key alone: --pair-by key, or the `@sdtrace pair-by: key` note of
 * the pair's start (a server that ends a request on another thread than it began it)?
 */
static bool pairs_by_key(struct report_pairing *pg, const struct sdt_trace_kind *k)
{
	const struct sdt_trace_event_desc *d = sdt_trace_kind__desc(k);
	size_t pair;

	if (pg->pair_by_key)
		return true;
	if (!pg->types ||
	    sdt_latency__kind_role(pg->l, sdt_trace_event_desc__provider(d),
				   sdt_trace_event_desc__name(d), &pair) == SDT_LATENCY_NONE)
		return false;
	if (pair >= pg->nby_key) {
		unsigned char *b = realloc(pg->by_key, pair + 1);

		if (!b)
			return false;
		memset(b + pg->nby_key, 0, pair + 1 - pg->nby_key);
		pg->by_key = b;
		pg->nby_key = pair + 1;
	}
	if (!pg->by_key[pair])
		pg->by_key[pair] = report_latency_note_by_key(pg->types, pg->l, pair) ? 2 : 1;
	return pg->by_key[pair] == 2;
}

bool report_latency_note_by_key(const struct sdt_types *types, struct sdt_latency *l, size_t pair)
{
	const char *start, *colon, *note;
	char *prov;
	bool by_key;

	/* the start's name: "provider:name" */
	start = types ? sdt_latency__pair_start(l, pair) : NULL;
	colon = start ? strchr(start, ':') : NULL;
	prov = colon ? strndup(start, (size_t)(colon - start)) : NULL;
	note = prov ? sdt_types__note_text(types, prov, colon + 1, "pair-by") : NULL;
	by_key = note && !strcmp(note, "key");
	free(prov);
	return by_key;
}

void report_pairing_release(struct report_pairing *pg)
{
	size_t i;

	free(pg->by_key);
	for (i = 0; i < pg->nkkeys; i++)
		report_names_free(&pg->kkeys[i].names);
	free(pg->kkeys);
	free(pg->t.buf);
	memset(pg, 0, sizeof(*pg));
}

int report_pairing_event(struct report_pairing *pg, const struct report_event *ev, uint64_t tag,
			 struct sdt_latency_step *st, unsigned int *tid)
{
	struct sdt_latency_event_opts eo = {.sz = sizeof(eo), .verdict = ev->verdict, .tag = tag};
	const struct report_names *kn = key_of(pg, ev->kind);
	bool by_key = pairs_by_key(pg, ev->kind);

	/* the model hashes the key during the call: the text buffer serves, no copy */
	if (kn && report_names_in(kn, ev->kind)) {
		if (report_values_text(ev, kn, &pg->t))
			return -ENOMEM;
		eo.keyed = true;
		eo.key = pg->t.buf;
		eo.key_len = pg->t.len;
	}
	if (tid)
		*tid = by_key ? 0 : ev->tid;
	if (sdt_latency__event_opts(
		pg->l, sdt_trace_event_desc__provider(sdt_trace_kind__desc(ev->kind)),
		sdt_trace_event_desc__name(sdt_trace_kind__desc(ev->kind)), by_key ? 0 : ev->pid,
		by_key ? 0 : ev->tid, ev->time_ns, &eo, st))
		return -ENOMEM;
	return 0;
}

const struct report_names *report_pairing_key(struct report_pairing *pg,
					      const struct sdt_trace_kind *k)
{
	return key_of(pg, k);
}

/* One event through the model, with its key, its slot and what its end adds. 0 or -ENOMEM. */
static int lat_event(struct lat_run *lr, const struct report_event *ev)
{
	const struct report_latency_opts *o = lr->o;
	bool keep = o->by || o->top;
	struct sdt_latency_step st;
	struct report_groups *g;
	struct report_group *gr;
	struct lat_slot *slot;
	uint64_t tag = 0;
	int err;

	if (keep && (tag = slot_new(lr)) == 0)
		return -ENOMEM;
	if (report_pairing_event(&lr->pg, ev, tag, &st, NULL))
		return -ENOMEM;
	if (!keep)
		return 0;
	slot = &lr->slots[tag - 1];
	if (st.role == SDT_LATENCY_START) {
		/* kept until its end: the values of --by (if it has them), its arguments */
		if (o->by && report_names_in(o->by, ev->kind) &&
		    !(slot->by = text_dup(lr, report_values_text(ev, o->by, &lr->t))))
			return -ENOMEM;
		if (o->top && !o->by && !(slot->args = text_dup(lr, report_args_text(ev, &lr->t))))
			return -ENOMEM;
		return 0;
	}
	slot_free(lr, tag);
	if (st.role != SDT_LATENCY_END || st.skipped)
		return 0;
	slot = &lr->slots[st.start_tag - 1];
	err = 0;
	if (o->by) {
		const char *k = slot->by;

		if (!k) /* the start lacks the names: the end's values */
			k = report_values_text(ev, o->by, &lr->t) ? NULL : lr->t.buf;
		if (!k || !(g = groups_of(lr, st.pair)) || !(gr = report_group_find(g, k)) ||
		    report_group_add(gr, st.duration_ns))
			err = -ENOMEM;
	} else if (o->top && top_offer(lr, ev, &st, slot->args)) {
		err = -ENOMEM;
	}
	slot_free(lr, st.start_tag);
	return err;
}

/*
 * Warn about the kinds of active pairs that lack a name of --key (both ends matter), or of
 * --by (only starts: an end is the fallback).
 */
static void warn_names(const struct lat_run *lr, const struct sdt_trace_reader *r,
		       const struct report_names *n, bool starts_only, const char *opt)
{
	size_t i, k, nk = sdt_trace_reader__kind_count(r);
	char pe[512];

	for (k = 0; k < nk; k++) {
		const struct sdt_trace_kind *kind = sdt_trace_reader__kind(r, k);

		if (report_names_in(n, kind))
			continue;
		snprintf(pe, sizeof(pe), "%s:%s",
			 sdt_trace_event_desc__provider(sdt_trace_kind__desc(kind)),
			 sdt_trace_event_desc__name(sdt_trace_kind__desc(kind)));
		for (i = 0; i < sdt_latency__pair_count(lr->l); i++) {
			if (!sdt_latency__pair_active(lr->l, i) ||
			    (strcmp(sdt_latency__pair_start(lr->l, i), pe) &&
			     (starts_only || strcmp(sdt_latency__pair_end(lr->l, i), pe))))
				continue;
			cli_warn("%s: %s lacks one of the names: %s", opt, pe,
				 starts_only ? "its pairs take the values of their end"
					     : "its events pair as without a key");
			break;
		}
	}
}

/* "a=1, b=x" of a group key for people, escaped. */
static void put_key(FILE *out, const struct report_names *by, const char *key)
{
	size_t i;
	const char *p = key;

	for (i = 0; i < by->n; i++) {
		const char *e = strchr(p, REPORT_SEP[0]);
		char *v = strndup(p, e ? (size_t)(e - p) : strlen(p));

		fprintf(out, "%s%s=", i ? " " : "", by->name[i]);
		cli_put_escaped(out, v ? v : "?");
		free(v);
		p = e ? e + 1 : p + strlen(p);
	}
}

static void print_groups_text(const struct lat_run *lr, size_t pair, FILE *out)
{
	const struct report_groups *g = pair < lr->ngroups ? &lr->groups[pair] : NULL;
	char a[32], b[32], c[32], d[32], e[32], f[32], h[32];
	size_t i, n = g ? g->n : 0;

	if (lr->o->top && n > lr->o->top)
		n = lr->o->top;
	fprintf(out, "  %8s %9s %9s %9s %9s %9s %9s %9s  by", "count", "min", "avg", "p50", "p90",
		"p99", "max", "total");
	for (i = 0; i < lr->o->by->n; i++)
		fprintf(out, "%s%s", i ? "," : " ", lr->o->by->name[i]);
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		const struct report_group *gr = &g->groups[i];

		fprintf(out, "  %8zu %9s %9s %9s %9s %9s %9s %9s  ", gr->n,
			cli_fmt_ns(a, sizeof(a), (double)gr->d[0]),
			cli_fmt_ns(b, sizeof(b), (double)gr->total / (double)gr->n),
			cli_fmt_ns(c, sizeof(c), (double)report_group_percentile(gr, 50)),
			cli_fmt_ns(d, sizeof(d), (double)report_group_percentile(gr, 90)),
			cli_fmt_ns(e, sizeof(e), (double)report_group_percentile(gr, 99)),
			cli_fmt_ns(f, sizeof(f), (double)gr->d[gr->n - 1]),
			cli_fmt_ns(h, sizeof(h), (double)gr->total));
		put_key(out, lr->o->by, gr->key);
		fputc('\n', out);
	}
	if (g && g->n > n)
		fprintf(out, "  ... %zu more (--top)\n", g->n - n);
	fputc('\n', out);
}

static void print_groups_json(struct json *j, const struct lat_run *lr, size_t pair)
{
	const struct report_groups *g = pair < lr->ngroups ? &lr->groups[pair] : NULL;
	size_t i, k, n = g ? g->n : 0;

	if (lr->o->top && n > lr->o->top)
		n = lr->o->top;
	json_key(j, "by");
	json_begin_array(j);
	for (k = 0; k < lr->o->by->n; k++)
		json_string(j, lr->o->by->name[k]);
	json_end_array(j);
	json_key(j, "groups");
	json_begin_array(j);
	for (i = 0; i < n; i++) {
		const struct report_group *gr = &g->groups[i];
		const char *p = gr->key;

		json_begin_object(j);
		json_key(j, "key");
		json_begin_array(j);
		for (k = 0; k < lr->o->by->n; k++) {
			const char *e = strchr(p, REPORT_SEP[0]);
			char *v = strndup(p, e ? (size_t)(e - p) : strlen(p));

			json_string(j, v ? v : "");
			free(v);
			p = e ? e + 1 : p + strlen(p);
		}
		json_end_array(j);
		json_key(j, "count");
		json_uint(j, gr->n);
		json_key(j, "min_ns");
		json_uint(j, gr->d[0]);
		json_key(j, "avg_ns");
		json_double(j, (double)gr->total / (double)gr->n);
		json_key(j, "p50_ns");
		json_uint(j, report_group_percentile(gr, 50));
		json_key(j, "p90_ns");
		json_uint(j, report_group_percentile(gr, 90));
		json_key(j, "p99_ns");
		json_uint(j, report_group_percentile(gr, 99));
		json_key(j, "max_ns");
		json_uint(j, gr->d[gr->n - 1]);
		json_key(j, "total_ns");
		json_uint(j, gr->total);
		json_end_object(j);
	}
	json_end_array(j);
	json_key(j, "groups_total");
	json_uint(j, g ? g->n : 0);
}

static int cmp_top(const void *a, const void *b)
{
	const struct lat_top *x = a, *y = b;

	if (x->duration != y->duration)
		return x->duration < y->duration ? 1 : -1;
	return (x->start_ns > y->start_ns) - (x->start_ns < y->start_ns);
}

static void print_top(const struct lat_run *lr, struct json *j, FILE *out)
{
	char a[32];
	size_t i;

	if (lr->ntop)
		qsort(lr->top, lr->ntop, sizeof(*lr->top), cmp_top);
	if (j) {
		json_key(j, "slowest");
		json_begin_array(j);
	} else {
		fprintf(out, "the %zu slowest pairs:\n", lr->ntop);
	}
	for (i = 0; i < lr->ntop; i++) {
		const struct lat_top *t = &lr->top[i];

		if (!j) {
			fprintf(out, "  %9s  ", cli_fmt_ns(a, sizeof(a), (double)t->duration));
			cli_put_escaped(out, sdt_latency__pair_name(lr->l, t->pair));
			fprintf(out, "  %u/%u  %" PRIu64 ".%09" PRIu64 "  ", t->pid, t->tid,
				t->start_ns / 1000000000u, t->start_ns % 1000000000u);
			cli_put_escaped(out, t->start_args);
			fputs("  ->  ", out);
			cli_put_escaped(out, t->end_args);
			fputc('\n', out);
			continue;
		}
		json_begin_object(j);
		json_key(j, "pair");
		json_string(j, sdt_latency__pair_name(lr->l, t->pair));
		json_key(j, "duration_ns");
		json_uint(j, t->duration);
		json_key(j, "start_ns");
		json_uint(j, t->start_ns);
		json_key(j, "pid");
		json_uint(j, t->pid);
		json_key(j, "tid");
		json_uint(j, t->tid);
		json_key(j, "start_args");
		json_string(j, t->start_args);
		json_key(j, "end_args");
		json_string(j, t->end_args);
		json_end_object(j);
	}
	if (j)
		json_end_array(j);
}

int report_latency(struct sdt_trace_reader *r, const struct report_latency_opts *o, FILE *out)
{
	const struct report_event *ev;
	struct report_sorter *sorter = NULL;
	struct lat_run lr = {.o = o};
	size_t shown = 0, i, active = 0;
	struct json j;
	int err, ret;

	ret = report_latency_new(o->pairs, &lr.l);
	if (ret)
		return ret;
	lr.pg.l = lr.l;
	lr.pg.key = o->key;
	lr.pg.types = o->types;
	lr.pg.pair_by_key = o->pair_by_key;
	if (report_sorter_new(r, &sorter)) {
		cli_error("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	report_sorter_set_filter(sorter, o->filter);
	while ((err = report_sorter_next(sorter, &ev)) > 0) {
		ret = report_latency_kinds(r, lr.l, o->types, &shown);
		if (ret)
			goto out;
		if ((err = lat_event(&lr, ev)) < 0)
			break;
	}
	if (err < 0) {
		cli_error("%s", err == -ENOMEM ? "out of memory" : sdt_errmsg());
		ret = EXIT_RUNTIME;
		goto out;
	}
	ret = report_pairs_check(r, o->pairs);
	if (ret)
		goto out;
	if (sdt_trace_reader__late(r))
		cli_warn("%" PRIu64
			 " events came more than 1 s after newer ones: paired out of order",
			 sdt_trace_reader__late(r));
	sdt_latency__finish(lr.l, NULL, NULL);
	if (o->key)
		warn_names(&lr, r, o->key, false, "--key");
	if (o->by)
		warn_names(&lr, r, o->by, true, "--by");
	for (i = 0; i < lr.ngroups; i++)
		report_groups_sort(&lr.groups[i]);
	if (o->json) {
		json_init(&j, out, false);
		json_begin_object(&j);
		json_key(&j, "pairs");
		json_begin_array(&j);
	}
	for (i = 0; i < sdt_latency__pair_count(lr.l); i++) {
		if (!sdt_latency__pair_active(lr.l, i))
			continue;
		active++;
		if (o->json) {
			print_json(&j, lr.l, i, o->by ? &lr : NULL);
		} else {
			print_text(lr.l, i, term_width(out), !o->by, out);
			if (o->by)
				print_groups_text(&lr, i, out);
		}
	}
	if (o->json) {
		json_end_array(&j);
		if (o->top && !o->by)
			print_top(&lr, &j, out);
		json_key(&j, "percentiles");
		json_string(&j, o->by
				    ? "per pair: nearest rank; exact below 128 ns, else within "
				      "1/128 (0.8%); per group: nearest rank, exact"
				    : "nearest rank; exact below 128 ns, else within 1/128 (0.8%)");
		json_end_object(&j);
		json_newline(&j);
	} else if (!active) {
		cli_warn("no probe pairs in the recording: name them with --pair START,END");
	} else if (o->top && !o->by) {
		print_top(&lr, NULL, out);
	}
out:
	report_sorter_free(sorter);
	sdt_latency__free(lr.l);
	lat_run_free(&lr);
	return ret;
}
