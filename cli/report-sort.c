/* SPDX-License-Identifier: MIT */
/*
 * Events in time order for the analyses (--latency, --format=chrome).
 *
 * A recording holds the events as the per-CPU rings were drained: each CPU's in order, but a
 * thread that moved from CPU 1 to CPU 0 may have its later event (read from CPU 0's ring) before
 * its earlier one (from CPU 1's). Pairing needs each thread's events in time order, so they go
 * through a reorder window: a min-heap on (time, file order) that lets an event out once it is
 * REORDER_WINDOW_NS older than the newest event read, or when REORDER_CAP events (or
 * REORDER_MAX_BYTES of them, strings included) are held. The
 * recorder drains every ring at least every 100 ms, so inversions are far shorter than the window;
 * an event that still comes after a newer one was let out is counted as late (and passed on).
 * Memory: at most REORDER_CAP copied events, whatever the length of the recording.
 * (A 1-million-event recording peaks at 19 MB for --format=chrome, see t0703.)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define REORDER_WINDOW_NS 1000000000ull
#define REORDER_CAP	  65536
#define REORDER_MAX_BYTES (24u << 20)

struct report_sorter {
	struct sdt_trace_reader *r;
	struct report_event **heap;
	size_t n;
	struct report_event *out; /* the event last returned, freed on the next call */
	uint64_t seq, max_ns, released_ns, late;
	size_t bytes; /* held in the heap */
	bool eof, released_any;
	const struct sdt_filter *filter;
	/* per kind (by pointer) whether the filter can be applied to it, remembered */
	const struct sdt_trace_kind **kinds;
	bool *applies;
	size_t nkinds, last;
};

void report_sorter_set_filter(struct report_sorter *s, const struct sdt_filter *f)
{
	s->filter = f;
}

/* Whether @s's filter has every name it uses in kind @k: 1, 0, or -ENOMEM. */
static int filter_applies(struct report_sorter *s, const struct sdt_trace_kind *k)
{
	const struct sdt_trace_kind **kinds;
	bool *applies;
	size_t i;

	/* events of one kind come in runs: the last one found is looked at first */
	if (s->nkinds && s->kinds[s->last] == k)
		return s->applies[s->last];
	for (i = s->nkinds; i > 0; i--)
		if (s->kinds[i - 1] == k) {
			s->last = i - 1;
			return s->applies[i - 1];
		}
	kinds = realloc(s->kinds, (s->nkinds + 1) * sizeof(*kinds));
	if (kinds)
		s->kinds = kinds;
	applies = realloc(s->applies, (s->nkinds + 1) * sizeof(*applies));
	if (applies)
		s->applies = applies;
	if (!kinds || !applies)
		return -ENOMEM;
	s->kinds[s->nkinds] = k;
	s->applies[s->nkinds] = !sdt_filter__check_desc(s->filter, sdt_trace_kind__desc(k));
	s->last = s->nkinds;
	return s->applies[s->nkinds++];
}

static bool before(const struct report_event *a, const struct report_event *b)
{
	return a->time_ns < b->time_ns || (a->time_ns == b->time_ns && a->seq < b->seq);
}

static void heap_push(struct report_sorter *s, struct report_event *e)
{
	size_t i = s->n++;

	while (i && before(e, s->heap[(i - 1) / 2])) {
		s->heap[i] = s->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	s->heap[i] = e;
}

static struct report_event *heap_pop(struct report_sorter *s)
{
	struct report_event *top = s->heap[0], *last = s->heap[--s->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= s->n)
			break;
		if (c + 1 < s->n && before(s->heap[c + 1], s->heap[c]))
			c++;
		if (!before(s->heap[c], last))
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	if (s->n)
		s->heap[i] = last;
	return top;
}

/* A copy of @ev in one allocation: the struct, its values, then its strings. */
static struct report_event *copy_event(const struct sdt_trace_event *ev, uint64_t seq)
{
	/* the values follow the struct at their own alignment (16 with the long double) */
	const size_t align = _Alignof(struct sdt_trace_value);
	const size_t head = (sizeof(struct report_event) + align - 1) / align * align;
	size_t nargs = sdt_trace_event__arg_count(ev), size, i, off;
	const char *comm = sdt_trace_event__comm(ev);
	struct sdt_trace_value v;
	struct report_event *e;
	char *p;

	size = head + nargs * sizeof(struct sdt_trace_value);
	if (comm)
		size += strlen(comm) + 1;
	for (i = 0; i < nargs; i++) {
		if (!sdt_trace_event__arg(ev, i, &v) && v.kind == SDT_VALUE_STRING)
			size += v.len + 1;
	}
	e = malloc(size);
	if (!e)
		return NULL;
	e->size = size;
	e->verdict = SDT_LATENCY_COUNT;
	e->time_ns = sdt_trace_event__time_ns(ev);
	e->seq = seq;
	e->pid = sdt_trace_event__pid(ev);
	e->tid = sdt_trace_event__tid(ev);
	e->cpu = sdt_trace_event__cpu(ev);
	e->kind = sdt_trace_event__kind(ev);
	e->nargs = nargs;
	e->args = (struct sdt_trace_value *)((char *)e + head);
	p = (char *)(e->args + nargs);
	off = 0;
	for (i = 0; i < nargs; i++) {
		if (sdt_trace_event__arg(ev, i, &e->args[i]))
			memset(&e->args[i], 0, sizeof(e->args[i]));
		e->args[i].unavailable = NULL; /* borrowed: not kept */
		if (e->args[i].kind == SDT_VALUE_STRING) {
			memcpy(p + off, e->args[i].str, e->args[i].len);
			p[off + e->args[i].len] = '\0';
			e->args[i].str = p + off;
			off += e->args[i].len + 1;
		}
	}
	e->comm = NULL;
	if (comm) {
		e->comm = p + off;
		strcpy(e->comm, comm);
	}
	return e;
}

int report_sorter_new(struct sdt_trace_reader *r, struct report_sorter **out)
{
	struct report_sorter *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->heap = calloc(REORDER_CAP, sizeof(*s->heap));
	if (!s->heap) {
		free(s);
		return -ENOMEM;
	}
	s->r = r;
	*out = s;
	return 0;
}

void report_sorter_free(struct report_sorter *s)
{
	if (!s)
		return;
	while (s->n)
		free(heap_pop(s));
	free(s->out);
	free(s->heap);
	free(s->kinds);
	free(s->applies);
	free(s);
}

int report_sorter_next(struct report_sorter *s, const struct report_event **out)
{
	const struct sdt_trace_event *ev;
	struct report_event *e;
	int err;

	free(s->out);
	s->out = NULL;
	while (!s->eof && s->n < REORDER_CAP && s->bytes < REORDER_MAX_BYTES &&
	       (!s->n || s->heap[0]->time_ns + REORDER_WINDOW_NS > s->max_ns)) {
		err = sdt_trace_reader__next(s->r, &ev);
		if (err < 0)
			return err;
		if (!err) {
			s->eof = true;
			break;
		}
		e = copy_event(ev, s->seq++);
		if (!e)
			return -ENOMEM;
		if (s->filter) {
			int a = filter_applies(s, sdt_trace_event__kind(ev));

			if (a < 0) {
				free(e);
				return -ENOMEM;
			}
			e->verdict = !a					? SDT_LATENCY_FOLLOW
				     : sdt_filter__match(s->filter, ev) ? SDT_LATENCY_COUNT
									: SDT_LATENCY_SKIP;
		}
		if (e->time_ns > s->max_ns)
			s->max_ns = e->time_ns;
		if (s->released_any && e->time_ns < s->released_ns)
			s->late++;
		s->bytes += e->size;
		heap_push(s, e);
	}
	if (!s->n)
		return 0;
	s->out = heap_pop(s);
	s->bytes -= s->out->size;
	s->released_ns = s->out->time_ns;
	s->released_any = true;
	*out = s->out;
	return 1;
}

uint64_t report_sorter_late(const struct report_sorter *s)
{
	return s->late;
}
