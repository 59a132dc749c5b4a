/* SPDX-License-Identifier: MIT */
/*
 * The timeline exports of `sdtrace report` (--format=chrome, --format=perfetto): what becomes a
 * slice, an instant and a name, decided once here; the writers (report-chrome.c,
 * report-perfetto.c) only encode what they are handed.
 *
 * Events are taken in time order (the reader's time_order: the file holds them as the rings were
 * drained). Probe pairs (sdtrace/latency.h decides which) are begin/end slices, every other event
 * an instant on its thread. Slices on a thread must nest (Perfetto's rule): an end without its
 * start (the recording began inside the pair) is dropped and counted; a start never ended is
 * ended at the last timestamp of the trace; when pairs cross (A, B, end of A), the slices opened
 * inside A are ended and begun again around A's end (counted as split). Process and thread names
 * are handed over when first seen and again when they change. With --slice-name, a slice is
 * named by those values of its start and its pair is the category; else the pair's name is the
 * slice's name and the provider its category.
 *
 * This is formatting only: the pairing model is the library's (lib/trace/latency.c), shared with
 * --latency. It is streamed: memory holds the open slices and a name per thread, never the
 * events.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sdtrace/latency.h"
#include "report.h"

/* A thread or process whose name was handed over. */
struct named {
	unsigned int id;
	char *name;
};

struct timeline {
	const struct timeline_writer *w;
	void *wctx;
	struct sdt_latency *l;
	uint64_t base_ns, last_ns;
	struct named *threads, *procs; /* open addressing by id, id 0 = empty (not a real tid) */
	size_t nthreads, nprocs, threads_cap, procs_cap;
	struct timeline_counts n;
	int err; /* of a writer, while the open pairs are closed at the end */
	/* --slice-name: the open slices' names, by tag - 1 (a free list through ->free) */
	const struct report_names *slice;
	char **names;
	size_t *free_next, nnames, free_head;
	struct report_text t;
};

/* A slice name kept until its end: its tag (index + 1), or 0 on no memory. */
static uint64_t name_keep(struct timeline *c, const char *name)
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
static const char *name_of(const struct timeline *c, uint64_t tag)
{
	return tag && tag <= c->nnames ? c->names[tag - 1] : NULL;
}

static void name_drop(struct timeline *c, uint64_t tag)
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

/* Name a thread (and its process) when first seen or renamed. */
static int names(struct timeline *c, const struct report_event *ev)
{
	const char *comm = ev->comm;
	unsigned int pid = ev->pid, tid = ev->tid;
	struct named *n;
	int err;

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
		err = c->w->thread(c->wctx, pid, tid, comm);
		if (err)
			return err;
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
		return c->w->process(c->wctx, pid, comm);
	}
	return 0;
}

static int emit(struct timeline *c, enum timeline_phase ph, const char *name, const char *cat,
		uint64_t t, unsigned int pid, unsigned int tid, const struct report_event *ev,
		const char *why)
{
	struct timeline_slice s = {
	    .phase = ph,
	    .name = name ? name : "?",
	    .category = cat ? cat : "?",
	    .time_ns = t,
	    .rel_ns = t > c->base_ns ? t - c->base_ns : 0,
	    .pid = pid,
	    .tid = tid,
	    .ev = ev,
	    .why = why,
	};

	return c->w->slice(c->wctx, &s);
}

/* A begin or end the trace did not record (a split or an end at the end): @why says why. */
static int synthetic(struct timeline *c, enum timeline_phase ph, const struct sdt_latency_open *o,
		     uint64_t t, unsigned int pid, unsigned int tid, const char *why)
{
	const char *name = name_of(c, o->tag);

	if (ph == TIMELINE_BEGIN)
		c->n.begins++;
	else
		c->n.ends++;
	return emit(c, ph, name ? name : sdt_latency__pair_name(c->l, o->pair),
		    name ? sdt_latency__pair_name(c->l, o->pair) : "sdtrace", t, pid, tid, NULL, why);
}

static int event(struct timeline *c, const struct report_event *ev)
{
	const char *provider = sdt_trace_event_desc__provider(sdt_trace_kind__desc(ev->kind));
	const char *evname = sdt_trace_event_desc__name(sdt_trace_kind__desc(ev->kind));
	unsigned int pid = ev->pid, tid = ev->tid;
	uint64_t t = ev->time_ns;
	struct sdt_latency_event_opts eo = {.sz = sizeof(eo)};
	struct sdt_latency_step step;
	const char *sname;
	char name[512];
	size_t i;
	int err;

	if (t > c->last_ns)
		c->last_ns = t;
	c->n.events++;
	err = names(c, ev);
	if (err)
		return err;
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
		c->n.begins++;
		return emit(c, TIMELINE_BEGIN,
			    sname ? sname : sdt_latency__pair_name(c->l, step.pair),
			    sname ? sdt_latency__pair_name(c->l, step.pair) : provider, t, pid, tid,
			    ev, NULL);
	case SDT_LATENCY_END:
		if (t < step.start_ns)
			t = step.start_ns;
		/* crossing slices: end them (top first), end this one, begin them again */
		for (i = step.ncrossed; i > 0; i--)
			if ((err = synthetic(c, TIMELINE_END, &step.crossed[i - 1], t, pid, tid,
					     "split")))
				return err;
		sname = name_of(c, step.start_tag);
		c->n.ends++;
		err = emit(c, TIMELINE_END, sname ? sname : sdt_latency__pair_name(c->l, step.pair),
			   sname ? sdt_latency__pair_name(c->l, step.pair) : provider, t, pid, tid,
			   ev, NULL);
		name_drop(c, step.start_tag);
		for (i = 0; i < step.ncrossed && !err; i++)
			err = synthetic(c, TIMELINE_BEGIN, &step.crossed[i], t, pid, tid, "split");
		c->n.split += step.ncrossed;
		return err;
	case SDT_LATENCY_UNMATCHED:
		if (step.is_end) {
			c->n.dropped_ends++;
			return 0;
		}
		/* a start too deep to track is an instant */
		__attribute__((fallthrough));
	default:
		snprintf(name, sizeof(name), "%s:%s", provider ? provider : "?",
			 evname ? evname : "?");
		c->n.instants++;
		return emit(c, TIMELINE_INSTANT, name, provider, t, pid, tid, ev, NULL);
	}
}

static int close_at_end(void *ctx, unsigned int pid, unsigned int tid,
			const struct sdt_latency_open *o)
{
	struct timeline *c = ctx;
	int err;

	err = synthetic(c, TIMELINE_END, o, c->last_ns > o->start_ns ? c->last_ns : o->start_ns,
			pid, tid, "not ended in the recording");
	name_drop(c, o->tag);
	c->n.closed_at_end++;
	if (err && !c->err)
		c->err = err;
	return 0;
}

int report_timeline(struct sdt_trace_reader *r, const struct report_pairs *pairs,
		    const struct report_names *slice, const struct timeline_writer *w, void *wctx)
{
	struct timeline c = {.w = w, .wctx = wctx, .slice = slice};
	struct report_sorter *sorter = NULL;
	const struct report_event *ev;
	bool have_base = false;
	size_t k, shown = 0;
	int err, ret;

	ret = report_latency_new(pairs, &c.l);
	if (ret)
		return ret;
	if (report_sorter_new(r, &sorter)) {
		cli_error("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	err = w->start(wctx, sdt_trace_reader__start_monotonic_ns(r));
	while (!err && (err = report_sorter_next(sorter, &ev)) > 0) {
		ret = report_latency_kinds(r, c.l, NULL, &shown);
		if (ret)
			goto out;
		if (!have_base) {
			/* the recording's start, unless an event came before it */
			uint64_t start = sdt_trace_reader__start_monotonic_ns(r);

			c.base_ns = start && start <= ev->time_ns ? start : ev->time_ns;
			have_base = true;
		}
		err = event(&c, ev);
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
	if (c.err || w->finish(wctx, &c.n, c.base_ns)) {
		cli_error("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (c.n.dropped_ends)
		cli_warn("%" PRIu64 " pair ends without their start (the recording began inside "
			 "the pair) were left out of the timeline",
			 c.n.dropped_ends);
	if (c.n.closed_at_end)
		cli_warn("%" PRIu64 " pairs never ended: their slices end at the end of the trace",
			 c.n.closed_at_end);
	if (sdt_trace_reader__late(r))
		cli_warn("%" PRIu64 " events came more than 1 s after newer ones: the timeline may "
			 "not nest there",
			 sdt_trace_reader__late(r));
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
