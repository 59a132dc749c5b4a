/* SPDX-License-Identifier: MIT */
/*
 * Events in time order (sdt_trace_open_opts.time_order), as sdt_latency and the timelines need.
 *
 * A recording holds the events as the per-CPU rings were drained: each CPU's in order, but a
 * thread that moved from CPU 1 to CPU 0 may have its later event (read from CPU 0's ring) before
 * its earlier one (from CPU 1's). Pairing needs each thread's events in time order, so they go
 * through a reorder window: a min-heap on (time, file order) that lets an event out once it is
 * REORDER_WINDOW_NS older than the newest event read, or when REORDER_CAP events (or
 * REORDER_MAX_BYTES of them, records and strings included) are held. The recorder drains every
 * ring at least every 100 ms, so inversions are far shorter than the window; an event that
 * still comes after a newer one was let out is counted as late (and passed on).
 * Memory: at most REORDER_CAP copied events, whatever the length of the recording.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "trace/decoder.h"
#include "trace/reorder.h"

#define REORDER_WINDOW_NS 1000000000ull
#define REORDER_CAP	  65536
#define REORDER_MAX_BYTES (24u << 20)

/* One event copied: the event, then what it pointed to (record, name, stack, user stack). */
struct reorder_item {
	struct sdt_trace_event ev;
	uint64_t seq; /* position in the file */
	size_t size;  /* of the copy, in bytes */
};

int sdt_reorder_init(struct sdt_reorder *w)
{
	memset(w, 0, sizeof(*w));
	w->heap = calloc(REORDER_CAP, sizeof(*w->heap));
	return w->heap ? 0 : -ENOMEM;
}

static bool before(const struct reorder_item *a, const struct reorder_item *b)
{
	return a->ev.time_ns < b->ev.time_ns || (a->ev.time_ns == b->ev.time_ns && a->seq < b->seq);
}

static void heap_push(struct sdt_reorder *w, struct reorder_item *e)
{
	size_t i = w->n++;

	while (i && before(e, w->heap[(i - 1) / 2])) {
		w->heap[i] = w->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	w->heap[i] = e;
}

static struct reorder_item *heap_pop(struct sdt_reorder *w)
{
	struct reorder_item *top = w->heap[0], *last = w->heap[--w->n];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= w->n)
			break;
		if (c + 1 < w->n && before(w->heap[c + 1], w->heap[c]))
			c++;
		if (!before(w->heap[c], last))
			break;
		w->heap[i] = w->heap[c];
		i = c;
	}
	if (w->n)
		w->heap[i] = last;
	return top;
}

void sdt_reorder_release(struct sdt_reorder *w)
{
	while (w->heap && w->n)
		free(heap_pop(w));
	free(w->out);
	free(w->heap);
	memset(w, 0, sizeof(*w));
}

bool sdt_reorder_wants(const struct sdt_reorder *w)
{
	return w->n < REORDER_CAP && w->bytes < REORDER_MAX_BYTES &&
	       (!w->n || w->heap[0]->ev.time_ns + REORDER_WINDOW_NS > w->max_ns);
}

/* Round @n up to the alignment of uint64_t. */
static size_t up8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

int sdt_reorder_push(struct sdt_reorder *w, const struct sdt_trace_event *ev)
{
	const struct sdt_trace_user_stack *us = &ev->ustack;
	size_t stack = ev->stack ? ev->stack_nr * sizeof(uint64_t) : 0;
	size_t regs = ev->have_ustack ? us->nregs * sizeof(uint64_t) : 0;
	size_t ubytes = ev->have_ustack ? us->stack_size : 0;
	size_t comm = ev->comm ? strlen(ev->comm) + 1 : 0;
	size_t size = up8(sizeof(struct reorder_item)) + up8(stack) + up8(regs) +
		      up8(ev->raw_size) + ubytes + comm;
	struct reorder_item *e = malloc(size);
	char *p;

	if (!e)
		return -ENOMEM;
	e->ev = *ev;
	e->seq = w->seq++;
	e->size = size;
	p = (char *)e + up8(sizeof(*e));
	if (stack) {
		e->ev.stack = memcpy(p, ev->stack, stack);
		p += up8(stack);
	}
	if (regs) {
		e->ev.ustack.regs = memcpy(p, us->regs, regs);
		p += up8(regs);
	}
	if (ev->raw_size) {
		e->ev.raw = memcpy(p, ev->raw, ev->raw_size);
		p += up8(ev->raw_size);
	}
	if (ubytes) {
		e->ev.ustack.stack = memcpy(p, us->stack, ubytes);
		p += ubytes;
	}
	if (comm)
		e->ev.comm = memcpy(p, ev->comm, comm);
	if (e->ev.time_ns > w->max_ns)
		w->max_ns = e->ev.time_ns;
	if (w->released_any && e->ev.time_ns < w->released_ns)
		w->late++;
	w->bytes += size;
	heap_push(w, e);
	return 0;
}

const struct sdt_trace_event *sdt_reorder_pop(struct sdt_reorder *w)
{
	free(w->out);
	w->out = NULL;
	if (!w->n)
		return NULL;
	w->out = heap_pop(w);
	w->bytes -= w->out->size;
	w->released_ns = w->out->ev.time_ns;
	w->released_any = true;
	return &w->out->ev;
}
