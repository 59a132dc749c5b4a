/* SPDX-License-Identifier: MIT */
/*
 * The reader's time order (sdt_trace_open_opts.time_order): a reorder window of event copies.
 * See reorder.c.
 */
#ifndef SDT_TRACE_REORDER_H
#define SDT_TRACE_REORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sdt_trace_event;
struct reorder_item;

struct sdt_reorder {
	struct reorder_item **heap; /* a min-heap on (time, file order) */
	size_t n;
	struct reorder_item *out; /* the event last handed out, freed on the next pop */
	uint64_t seq, max_ns, released_ns, late;
	size_t bytes; /* held in the heap */
	bool released_any;
};

/* 0 or -ENOMEM (without a message). */
int sdt_reorder_init(struct sdt_reorder *w);
void sdt_reorder_release(struct sdt_reorder *w);
/* Should another event be read before one is let out? (room left, and the window not passed) */
bool sdt_reorder_wants(const struct sdt_reorder *w);
/* Hold a copy of @ev (its record, thread name, stack and user stack its own). 0 or -ENOMEM. */
int sdt_reorder_push(struct sdt_reorder *w, const struct sdt_trace_event *ev);
/* The oldest event held (valid until the next pop or the release), or NULL when none is. */
const struct sdt_trace_event *sdt_reorder_pop(struct sdt_reorder *w);

#endif
