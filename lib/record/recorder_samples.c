/* SPDX-License-Identifier: MIT */
/*
 * Samples: a ring record's tracepoint id (common_type) to our event number, by binary search in
 * the sorted map, then the shared event's number in the record when events share a tracefs
 * event; a counter, the sink. The hot path: nothing is allocated, no system call is made.
 */
#include <stdlib.h>
#include <string.h>

#include "record/recorder.h"
#include "trace/trace_event.h"
#include "util/internal.h"

/* The map entry of the tracefs event whose id is @id, or NULL. */
static const struct rec_tpmap *lookup(const struct rec_samples *sp, uint64_t id)
{
	size_t lo = 0, hi = sp->nkev;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sp->map[mid].id == id)
			return &sp->map[mid];
		if (sp->map[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int on_sample(void *ctx, struct sdt_trace_sample *s)
{
	struct rec_samples *sp = ctx;
	const struct rec_tp *kv;
	const struct rec_set *rs;
	const struct rec_tpmap *m;
	uint16_t type, demux;
	size_t ev;

	if (s->raw_size < sizeof(type))
		return 0;
	memcpy(&type, s->raw, sizeof(type));
	m = lookup(sp, type);
	if (!m)
		return 0;
	rs = &(*sp->sets)[m->set];
	kv = &rs->tps[m->event];
	if (kv->demux_offset < 0) {
		ev = kv->event;
	} else {
		/* a shared tracefs event: the probe line put its event's number in the record */
		if (s->raw_size < (uint32_t)kv->demux_offset + sizeof(demux))
			return 0;
		memcpy(&demux, (const uint8_t *)s->raw + kv->demux_offset, sizeof(demux));
		if (demux >= rs->nevents || rs->ev_tp[demux] != kv->tp_id)
			return 0;
		ev = demux;
	}
	ev += rs->base;
	if (ev >= sp->nevents)
		return 0;
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

/* The map from the tracepoint ids of the created sets[0], and a counter per event. */
int sdt_rec_samples_init(struct rec_samples *sp, struct sdt_recorder *r,
			 const struct sdt_recorder_sink *sink)
{
	sp->sets = (const struct rec_set *const *)&r->sets;
	sp->r = r;
	sp->sink = sink;
	sp->nevents = 0;
	sp->nkev = 0;
	return sdt_rec_samples_add_set(sp, 0);
}


static void on_fork(void *ctx, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	struct rec_samples *sp = ctx;

	sdt_rec_on_fork(ctx, pid, ppid, tid, ptid);
	if (sp->r && sp->r->o.call_graph)
		sdt_rec_maps_fork(sp, ppid, pid);
	/* without ptrace (-p), what a thread inherits is learnt here */
	if (sp->r && sp->r->late.on && !sp->r->follow.on)
		sdt_rec_late_inherit(sp->r, (pid_t)ptid, (pid_t)tid);
	/* a new process, not a thread: guarded and anchored (recorder_forks.c) */
	if (sp->r && pid == tid && pid != ppid)
		sdt_rec_forks_born(sp->r, (pid_t)pid, (pid_t)ptid);
}

static void on_exit_record(void *ctx, uint32_t pid, uint32_t tid)
{
	struct rec_samples *sp = ctx;

	if (sp->r && pid == tid)
		sdt_rec_forks_gone(sp->r, (pid_t)pid);
}

void sdt_rec_samples_mapping(struct rec_samples *sp, const struct sdt_ring_mmap *rm)
{
	static const char hex[] = "0123456789abcdef";
	struct sdt_trace_mapping m = {0};
	char bid[41];
	size_t i;

	if (!sp->sink->on_mapping)
		return;
	m.pid = rm->pid;
	m.start = rm->addr;
	m.len = rm->len;
	m.pgoff = rm->pgoff;
	m.path = rm->filename;
	if (rm->build_id_size) {
		for (i = 0; i < rm->build_id_size && i < 20; i++) {
			bid[2 * i] = hex[rm->build_id[i] >> 4];
			bid[2 * i + 1] = hex[rm->build_id[i] & 15];
		}
		bid[2 * i] = '\0';
		m.build_id = bid;
	}
	sdt_rec_maps_emit(sp, &m);
}

/* An executable mapping: to the late attach, and (with -g) to the sink as a MAPPING record. */
static void on_mmap(void *ctx, const struct sdt_ring_mmap *rm)
{
	struct rec_samples *sp = ctx;

	sdt_rec_late_on_mmap(ctx, rm);
	if (sp->r && sp->r->o.call_graph)
		sdt_rec_samples_mapping(sp, rm);
}

struct sdt_ring_ops sdt_rec_samples_ops(struct rec_samples *sp)
{
	return (struct sdt_ring_ops){
	    .ctx = sp,
	    .sample = on_sample,
	    .comm = sdt_rec_on_comm,
	    .lost = on_lost,
	    .fork = on_fork,
	    .mmap = on_mmap,
	    .exit = on_exit_record,
	};
}

void sdt_rec_samples_release(struct rec_samples *sp)
{
	sdt_rec_maps_release(sp);
	free(sp->comms);
	free(sp->map);
	free(sp->counts);
	memset(sp, 0, sizeof(*sp));
}
