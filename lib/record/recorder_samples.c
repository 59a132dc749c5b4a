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

static int lookup(const struct sdt_recorder *r, uint64_t id)
{
	size_t lo = 0, hi = r->nkev;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->map[mid].id == id)
			return (int)r->map[mid].event;
		if (r->map[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int sdt_rec_on_sample(void *ctx, struct sdt_trace_sample *s)
{
	struct sdt_recorder *r = ctx;
	const struct sdt_uprobe_kevent *kv;
	uint16_t type, demux;
	int ev;

	if (s->raw_size < sizeof(type))
		return 0;
	memcpy(&type, s->raw, sizeof(type));
	ev = lookup(r, type);
	if (ev < 0)
		return 0;
	kv = sdt_uprobe_set__kernel_event(r->set, (size_t)ev);
	if (kv->demux_offset < 0) {
		ev = (int)kv->event;
	} else {
		/* a shared tracefs event: the probe line put its event's number in the record */
		if (s->raw_size < (uint32_t)kv->demux_offset + sizeof(demux))
			return 0;
		memcpy(&demux, (const uint8_t *)s->raw + kv->demux_offset, sizeof(demux));
		if (demux >= r->nevents || sdt_uprobe_set__event(r->set, demux)->tp_id != kv->tp_id)
			return 0;
		ev = demux;
	}
	s->event = (uint32_t)ev;
	r->counts[ev]++;
	return r->sink->on_sample ? r->sink->on_sample(r->sink->ctx, s) : 0;
}

void sdt_rec_on_lost(void *ctx, uint32_t cpu, uint64_t count)
{
	struct sdt_recorder *r = ctx;

	r->lost += count;
	if (r->sink->on_lost)
		r->sink->on_lost(r->sink->ctx, cpu, count);
}

int sdt_rec_cmp_map(const void *a, const void *b)
{
	const struct tpmap *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}
