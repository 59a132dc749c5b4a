/* SPDX-License-Identifier: MIT */
/*
 * Samples: a ring record's tracepoint id (common_type) to our event number, by binary search in
 * the sorted map, then the shared event's number in the record when events share a tracefs
 * event; a counter, the sink. The hot path: nothing is allocated, no system call is made.
 */
#include <stdlib.h>
#include <string.h>

#include "record/recorder.h"
#include "record/uprobe.h"
#include "trace/trace_event.h"
#include "util/internal.h"

/* The index of the set's tracefs event whose id is @id, or -1. */
static int lookup(const struct rec_samples *sp, uint64_t id)
{
	size_t lo = 0, hi = sp->nkev;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sp->map[mid].id == id)
			return (int)sp->map[mid].event;
		if (sp->map[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int on_sample(void *ctx, struct sdt_trace_sample *s)
{
	struct rec_samples *sp = ctx;
	const struct sdt_uprobe_kevent *kv;
	uint16_t type, demux;
	int ev;

	if (s->raw_size < sizeof(type))
		return 0;
	memcpy(&type, s->raw, sizeof(type));
	ev = lookup(sp, type);
	if (ev < 0)
		return 0;
	kv = sdt_uprobe_set__kernel_event(sp->set, (size_t)ev);
	if (kv->demux_offset < 0) {
		ev = (int)kv->event;
	} else {
		/* a shared tracefs event: the probe line put its event's number in the record */
		if (s->raw_size < (uint32_t)kv->demux_offset + sizeof(demux))
			return 0;
		memcpy(&demux, (const uint8_t *)s->raw + kv->demux_offset, sizeof(demux));
		if (demux >= sp->nevents ||
		    sdt_uprobe_set__event(sp->set, demux)->tp_id != kv->tp_id)
			return 0;
		ev = demux;
	}
	s->event = (uint32_t)ev;
	if (!sdt_rec_filters_pass(sp, (uint32_t)ev, s))
		return 0;
	sp->counts[ev]++;
	return sp->sink->on_sample ? sp->sink->on_sample(sp->sink->ctx, s) : 0;
}

static void on_lost(void *ctx, uint32_t cpu, uint64_t count)
{
	struct rec_samples *sp = ctx;

	sp->lost += count;
	if (sp->sink->on_lost)
		sp->sink->on_lost(sp->sink->ctx, cpu, count);
}

static int cmp_map(const void *a, const void *b)
{
	const struct tpmap *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* The map from tracefs event ids of the created @set, and a counter per event. 0 or -ENOMEM. */
int sdt_rec_samples_init(struct rec_samples *sp, const struct sdt_uprobe_set *set,
			 const struct sdt_recorder_sink *sink)
{
	size_t i;

	sp->set = set;
	sp->sink = sink;
	sp->nevents = sdt_uprobe_set__event_count(set);
	sp->nkev = sdt_uprobe_set__kernel_event_count(set);
	sp->map = calloc(sp->nkev, sizeof(*sp->map));
	sp->counts = calloc(sp->nevents, sizeof(*sp->counts));
	if (!sp->map || !sp->counts)
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < sp->nkev; i++) {
		sp->map[i].id = sdt_uprobe_set__kernel_event(set, i)->tp_id;
		sp->map[i].event = (uint32_t)i;
	}
	qsort(sp->map, sp->nkev, sizeof(*sp->map), cmp_map);
	return 0;
}

struct sdt_ring_ops sdt_rec_samples_ops(struct rec_samples *sp)
{
	return (struct sdt_ring_ops){sp, on_sample, sdt_rec_on_comm, on_lost, sdt_rec_on_fork};
}

void sdt_rec_samples_release(struct rec_samples *sp)
{
	free(sp->comms);
	free(sp->map);
	free(sp->counts);
	memset(sp, 0, sizeof(*sp));
}
