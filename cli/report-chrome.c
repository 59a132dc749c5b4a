/* SPDX-License-Identifier: MIT */
/*
 * sdtrace report --format=chrome: the Chrome trace-event format (JSON object form), which the
 * Perfetto UI (ui.perfetto.dev) and chrome://tracing open.
 *
 *	{"traceEvents":[
 *	{"ph":"M","name":"process_name","pid":7,"tid":7,"args":{"name":"sdt-example"}},
 *	{"ph":"B","name":"example:job","cat":"example","ts":12.345,"pid":7,"tid":7,"args":{...}},
 *	{"ph":"i","s":"t","name":"example:tick","cat":"example","ts":13.000,...},
 *	{"ph":"E","name":"example:job","cat":"example","ts":20.101,"pid":7,"tid":7,"args":{...}}
 *	],"displayTimeUnit":"ns","otherData":{...counts...}}
 *
 * Events are taken in time order (report-sort.c: the file holds them as the per-CPU rings were
 * drained). Probe pairs (sdtrace/latency.h decides which) are B/E slices, every other event an
 * instant event on its thread; args carry the names the recording gives them. Timestamps are
 * microseconds from the start of the recording, fixed-point with 3 decimals (nanosecond
 * precision, never an exponent). Slices on a thread must nest (Perfetto's rule): an end without its
 *start (the recording began inside the pair) is dropped and counted; a start never ended is ended
 *at the last timestamp of the trace; when pairs cross (A, B, end of A), the slices opened inside A
 *are ended and begun again around A's end (counted as split). Process and thread names are metadata
 * events, written when first seen and again when they change.
 *
 * This is formatting only: the pairing model is the library's (lib/trace/latency.c), shared with
 * --latency; so the writer lives in the CLI beside the other printers. It is streamed: memory
 * holds the open slices and a name per thread, never the events.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "sdtrace/latency.h"
#include "report.h"

/* A thread or process whose name was written. */
struct named {
	unsigned int id;
	char *name;
};

struct chrome {
	FILE *out;
	struct sdt_latency *l;
	uint64_t base_ns, last_ns;
	bool have_base, first;
	struct named *threads, *procs; /* open addressing by id, id 0 = empty (not a real tid) */
	size_t nthreads, nprocs, threads_cap, procs_cap;
	uint64_t events, instants, begins, ends, dropped_ends, closed_at_end, split;
	int err;
	/* --slice-name: the open slices' names, by tag - 1 (a free list through ->free) */
	const struct report_names *slice;
	char **names;
	size_t *free_next, nnames, free_head;
	struct report_text t;
};

/* A slice name kept until its end: its tag (index + 1), or 0 on no memory. */
static uint64_t name_keep(struct chrome *c, const char *name)
{
	size_t i;
	char *dup = strdup(name);

	if (!dup)
		return 0;
	if (c->free_head) {
		i = c->free_head - 1;
		c->free_head = c->free_next[i];
	} else {
		char **n = realloc(c->names, (c->nnames + 1) * sizeof(*n));
		size_t *f;

		if (n)
			c->names = n;
		f = n ? realloc(c->free_next, (c->nnames + 1) * sizeof(*f)) : NULL;
		if (!f) {
			free(dup);
			return 0;
		}
		c->free_next = f;
		i = c->nnames++;
	}
	c->names[i] = dup;
	return i + 1;
}

/* The slice name of @tag (NULL: none, the pair's name is used). */
static const char *name_of(const struct chrome *c, uint64_t tag)
{
	return tag && tag <= c->nnames ? c->names[tag - 1] : NULL;
}

static void name_drop(struct chrome *c, uint64_t tag)
{
	if (!tag || tag > c->nnames)
		return;
	free(c->names[tag - 1]);
	c->names[tag - 1] = NULL;
	c->free_next[tag - 1] = c->free_head;
	c->free_head = (size_t)tag;
}

static uint64_t hash_id(unsigned int v)
{
	uint64_t h = v * 0x9e3779b97f4a7c15ull;

	return h ^ (h >> 29);
}

/* The slot of @id in a table of *cap slots (grown at half load); NULL on ENOMEM. */
static struct named *named_slot(struct named **tab, size_t *n, size_t *cap, unsigned int id)
{
	size_t i;

	if ((*n + 1) * 2 > *cap) {
		size_t ncap = *cap ? *cap * 2 : 256, j;
		struct named *nt = calloc(ncap, sizeof(*nt));

		if (!nt)
			return NULL;
		for (j = 0; j < *cap; j++) {
			if (!(*tab)[j].id)
				continue;
			i = (size_t)hash_id((*tab)[j].id) & (ncap - 1);
			while (nt[i].id)
				i = (i + 1) & (ncap - 1);
			nt[i] = (*tab)[j];
		}
		free(*tab);
		*tab = nt;
		*cap = ncap;
	}
	i = (size_t)hash_id(id) & (*cap - 1);
	while ((*tab)[i].id && (*tab)[i].id != id)
		i = (i + 1) & (*cap - 1);
	if (!(*tab)[i].id) {
		(*tab)[i].id = id;
		(*n)++;
	}
	return &(*tab)[i];
}

static void free_named(struct named *tab, size_t cap)
{
	size_t i;

	for (i = 0; i < cap; i++)
		free(tab[i].name);
	free(tab);
}

static void sep(struct chrome *c)
{
	fputs(c->first ? "\n" : ",\n", c->out);
	c->first = false;
}

static void put_ts(struct chrome *c, uint64_t t)
{
	uint64_t d = t > c->base_ns ? t - c->base_ns : 0;

	fprintf(c->out, "%" PRIu64 ".%03u", d / 1000, (unsigned int)(d % 1000));
}

static void meta(struct chrome *c, const char *what, unsigned int pid, unsigned int tid,
		 const char *name)
{
	sep(c);
	fprintf(c->out,
		"{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":", what,
		pid, tid);
	json_write_string(c->out, name);
	fputs("}}", c->out);
}

/* Name a thread (and its process) when first seen or renamed. */
static int names(struct chrome *c, const struct report_event *ev)
{
	const char *comm = ev->comm;
	unsigned int pid = ev->pid, tid = ev->tid;
	struct named *n;

	if (!comm || !tid)
		return 0;
	n = named_slot(&c->threads, &c->nthreads, &c->threads_cap, tid);
	if (!n)
		return -ENOMEM;
	if (!n->name || strcmp(n->name, comm)) {
		free(n->name);
		n->name = strdup(comm);
		if (!n->name)
			return -ENOMEM;
		meta(c, "thread_name", pid, tid, comm);
	}
	if (!pid)
		return 0;
	/* the process: its main thread's name, or the first thread's until the main one shows */
	n = named_slot(&c->procs, &c->nprocs, &c->procs_cap, pid);
	if (!n)
		return -ENOMEM;
	if (!n->name || (tid == pid && strcmp(n->name, comm))) {
		free(n->name);
		n->name = strdup(comm);
		if (!n->name)
			return -ENOMEM;
		meta(c, "process_name", pid, pid, comm);
	}
	return 0;
}

static void args(struct chrome *c, const struct report_event *ev)
{
	const struct sdt_trace_kind *k = ev->kind;
	struct json j;
	size_t i;

	json_init(&j, c->out, false);
	json_begin_object(&j);
	for (i = 0; i < ev->nargs; i++) {
		const struct sdt_trace_value *v = &ev->args[i];
		const char *name = sdt_trace_kind__arg_name(k, i);
		char fallback[32];

		if (!name) {
			snprintf(fallback, sizeof(fallback), "arg%zu", i + 1);
			name = fallback;
		}
		json_key(&j, name);
		switch (v->kind) {
		case SDT_VALUE_INT:
			json_int(&j, v->i);
			break;
		case SDT_VALUE_UINT:
			json_uint(&j, v->u);
			break;
		case SDT_VALUE_FLOAT:
			if (v->size == 16)
				json_long_double(&j, v->ld);
			else
				json_double(&j, v->f);
			break;
		case SDT_VALUE_STRING:
			json_string(&j, v->str);
			break;
		default:
			json_null(&j);
			break;
		}
	}
	json_end_object(&j);
}

/* The start of an event object: ph, name, cat, ts, pid, tid. */
static void head(struct chrome *c, const char *ph, const char *name, const char *cat, uint64_t t,
		 unsigned int pid, unsigned int tid)
{
	sep(c);
	fprintf(c->out, "{\"ph\":\"%s\",", ph);
	if (!strcmp(ph, "i"))
		fputs("\"s\":\"t\",", c->out);
	fputs("\"name\":", c->out);
	json_write_string(c->out, name ? name : "?");
	fputs(",\"cat\":", c->out);
	json_write_string(c->out, cat ? cat : "?");
	fputs(",\"ts\":", c->out);
	put_ts(c, t);
	fprintf(c->out, ",\"pid\":%u,\"tid\":%u", pid, tid);
}

/* A B or E the trace did not record (a split or an end at the end): args say why. */
static void synthetic(struct chrome *c, const char *ph, const struct sdt_latency_open *o,
		      uint64_t t, unsigned int pid, unsigned int tid, const char *why)
{
	const char *name = name_of(c, o->tag);

	head(c, ph, name ? name : sdt_latency__pair_name(c->l, o->pair),
	     name ? sdt_latency__pair_name(c->l, o->pair) : "sdtrace", t, pid, tid);
	fprintf(c->out, ",\"args\":{\"sdtrace\":\"%s\"}}", why);
	if (ph[0] == 'B')
		c->begins++;
	else
		c->ends++;
}

static int event(struct chrome *c, const struct report_event *ev)
{
	const char *provider = sdt_trace_kind__provider(ev->kind);
	const char *evname = sdt_trace_kind__name(ev->kind);
	unsigned int pid = ev->pid, tid = ev->tid;
	uint64_t t = ev->time_ns;
	struct sdt_latency_step step;
	char name[512];
	size_t i;

	if (t > c->last_ns)
		c->last_ns = t;
	c->events++;
	struct sdt_latency_event_opts eo = {.sz = sizeof(eo)};
	const char *sname;

	if (names(c, ev))
		return -ENOMEM;
	/* --slice-name: a start's values name its slice, the pair becomes its category */
	if (c->slice && report_names_in(c->slice, ev->kind) &&
	    (report_values_text(ev, c->slice, &c->t) || !(eo.tag = name_keep(c, c->t.buf))))
		return -ENOMEM;
	if (sdt_latency__event_opts(c->l, provider, evname, pid, tid, t, &eo, &step))
		return -ENOMEM;
	if (step.role != SDT_LATENCY_START)
		name_drop(c, eo.tag);
	switch (step.role) {
	case SDT_LATENCY_START:
		sname = name_of(c, eo.tag);
		head(c, "B", sname ? sname : sdt_latency__pair_name(c->l, step.pair),
		     sname ? sdt_latency__pair_name(c->l, step.pair) : provider, t, pid, tid);
		c->begins++;
		break;
	case SDT_LATENCY_END:
		if (t < step.start_ns)
			t = step.start_ns;
		/* crossing slices: end them (top first), end this one, begin them again */
		for (i = step.ncrossed; i > 0; i--)
			synthetic(c, "E", &step.crossed[i - 1], t, pid, tid, "split");
		sname = name_of(c, step.start_tag);
		head(c, "E", sname ? sname : sdt_latency__pair_name(c->l, step.pair),
		     sname ? sdt_latency__pair_name(c->l, step.pair) : provider, t, pid, tid);
		name_drop(c, step.start_tag);
		fputs(",\"args\":", c->out);
		args(c, ev);
		fputc('}', c->out);
		c->ends++;
		for (i = 0; i < step.ncrossed; i++)
			synthetic(c, "B", &step.crossed[i], t, pid, tid, "split");
		c->split += step.ncrossed;
		return 0;
	case SDT_LATENCY_UNMATCHED:
		if (step.is_end) {
			c->dropped_ends++;
			return 0;
		}
		/* a start too deep to track is an instant */
		__attribute__((fallthrough));
	default:
		snprintf(name, sizeof(name), "%s:%s", provider ? provider : "?",
			 evname ? evname : "?");
		head(c, "i", name, provider, t, pid, tid);
		c->instants++;
		break;
	}
	fputs(",\"args\":", c->out);
	args(c, ev);
	fputc('}', c->out);
	return 0;
}

static int close_at_end(void *ctx, unsigned int pid, unsigned int tid,
			const struct sdt_latency_open *o)
{
	struct chrome *c = ctx;

	synthetic(c, "E", o, c->last_ns > o->start_ns ? c->last_ns : o->start_ns, pid, tid,
		  "not ended in the recording");
	name_drop(c, o->tag);
	c->closed_at_end++;
	return 0;
}

int report_chrome(struct sdt_trace_reader *r, const struct report_pairs *pairs,
		  const struct report_names *slice, FILE *out)
{
	struct chrome c = {.out = out, .first = true, .slice = slice};
	size_t k;
	struct report_sorter *sorter = NULL;
	const struct report_event *ev;
	size_t shown = 0;
	int err, ret;

	ret = report_latency_new(pairs, &c.l);
	if (ret)
		return ret;
	if (report_sorter_new(r, &sorter)) {
		cli_error("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	fputs("{\"traceEvents\":[", out);
	while ((err = report_sorter_next(sorter, &ev)) > 0) {
		ret = report_latency_kinds(r, c.l, &shown);
		if (ret)
			goto out;
		if (!c.have_base) {
			/* the recording's start, unless an event came before it */
			uint64_t start = sdt_trace_reader__start_monotonic_ns(r);

			c.base_ns = start && start <= ev->time_ns ? start : ev->time_ns;
			c.have_base = true;
		}
		err = event(&c, ev);
		if (err)
			break;
	}
	if (err < 0) {
		cli_error("%s", err == -ENOMEM ? "out of memory" : sdt_errmsg());
		ret = EXIT_RUNTIME;
		goto out;
	}
	/* streamed: only now are all the kinds known (with -o the file is left as it was) */
	ret = report_pairs_check(r, pairs);
	if (ret)
		goto out;
	sdt_latency__finish(c.l, close_at_end, &c);
	fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{", out);
	fprintf(out,
		"\"generator\":\"sdtrace report --format=chrome\",\"events\":%" PRIu64
		",\"instants\":%" PRIu64 ",\"begins\":%" PRIu64 ",\"ends\":%" PRIu64
		",\"dropped_ends\":%" PRIu64 ",\"closed_at_end\":%" PRIu64 ",\"split\":%" PRIu64
		",\"base_monotonic_ns\":%" PRIu64 "}}\n",
		c.events, c.instants, c.begins, c.ends, c.dropped_ends, c.closed_at_end, c.split,
		c.base_ns);
	if (c.dropped_ends)
		cli_warn("%" PRIu64 " pair ends without their start (the recording began inside "
			 "the pair) were left out of the timeline",
			 c.dropped_ends);
	if (c.closed_at_end)
		cli_warn("%" PRIu64 " pairs never ended: their slices end at the end of the trace",
			 c.closed_at_end);
	if (report_sorter_late(sorter))
		cli_warn("%" PRIu64 " events came more than 1 s after newer ones: the timeline may "
			 "not nest there",
			 report_sorter_late(sorter));
out:
	report_sorter_free(sorter);
	sdt_latency__free(c.l);
	free_named(c.threads, c.threads_cap);
	free_named(c.procs, c.procs_cap);
	for (k = 0; k < c.nnames; k++)
		free(c.names[k]);
	free(c.names);
	free(c.free_next);
	free(c.t.buf);
	return ret;
}
