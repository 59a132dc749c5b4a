/* SPDX-License-Identifier: MIT */
/* The sets of probes armed at once, and the tracepoints their hits come through. */
#ifndef SDT_RECORD_SETS_H
#define SDT_RECORD_SETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A kernel tracepoint whose perf events carry a set's hits (the tracefs engine's uprobe events):
 * its id, and the set's event it carries, or where its records say which (shared by several).
 */
struct rec_tp {
	uint64_t tp_id;
	int32_t demux_offset; /* offset in the raw record of the u16 event number, or -1 */
	uint32_t event;	      /* the set's event, when demux_offset < 0 */
};

/*
 * One batch of probes, armed at once: the sets armed before the start (sets[0]), then one per
 * file armed during the run (recorder_late.c). Events are numbered across sets: base + the set's
 * own. An engine whose hits come through perf events on tracepoints gives their ids (->tps: the
 * core opens, anchors and reads the perf events); the BPF engine's sets have none: its program
 * follows the processes by tgid, so no thread gets events.
 */
struct rec_set {
	void *eng; /* the engine's (the tracefs engine: its uprobe set), freed by its ->free */
	uint32_t base;
	size_t nevents;
	bool system_wide; /* its perf events are per CPU (pid -1), not on threads */
	struct rec_tp *tps; /* owned */
	size_t ntps;
	uint64_t *ev_tp; /* per event of the set, the tp_id of its tracepoint (owned) */
};

#endif
