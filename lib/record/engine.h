/* SPDX-License-Identifier: MIT */
/*
 * The recording engines behind sdt_recorder__run(): what an engine does, and which one runs.
 *
 *	tracefs  uprobe events in tracefs, perf events and rings (lib/record/tracefs/)
 *	bpf      one BPF program on every site, per-CPU rings (lib/record/bpf/, lib/bpf/)
 *
 * Both hand the same samples (raw records laid out as tracefs would: fields, __data_loc strings)
 * and the same event descriptions to the sink, so the recording is one format. They differ in
 * what they can fetch (the BPF engine adds indexed and thread-local arguments) and in what they
 * leave behind when killed (the BPF engine: nothing; tracefs: a group the next run removes).
 *
 * The core (recorder_run.c) runs the stages once for every engine: the targets, the one event
 * loop, arming, following, files met late, teardown. An engine fills a struct sdt_engine_ops;
 * the core calls it through r->eng and never names an engine (scripts/check-layers.py). Only
 * engines.c, the registry, lists the engines' tables.
 *
 * A new engine: a folder lib/record/NAME/ with a `const struct sdt_engine_ops sdt_engine_NAME`,
 * its entry in engines.c, and an enum sdt_engine value in include/sdtrace/record.h.
 */
#ifndef SDT_RECORD_ENGINE_H
#define SDT_RECORD_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sdtrace/record.h"

struct sdt_file;
struct sdt_recorder;
struct sdt_ring_ops;
struct sdt_trace_event_desc;

/* Why --call-graph=dwarf,BYTES runs on tracefs (auto's reason, the BPF engine's refusal). */
#define DWARF_IS_TRACEFS                                                                    \
	"--call-graph=dwarf above 8192 bytes is the tracefs engine's: the BPF engine copies at " \
	"most 8192 bytes of user stack per hit (its per-CPU scratch)"

/*
 * What an engine does, in the order sdt_recorder__run() asks (NULL: nothing to do there). Every
 * operation returns 0 (or a count) or -errno with the message set.
 */
struct sdt_engine_ops {
	const char *name; /* "tracefs", "bpf": sdt_recorder__engine() */
	enum sdt_engine id;
	/* Its hits come through perf events on the targets' threads (r->targets always filled). */
	bool per_thread;
	/* Can it place every site added to @r? 0, or -EOPNOTSUPP with the reason (auto's test). */
	int (*supported)(const struct sdt_recorder *r);

	/*
	 * Stage 0, nothing in the kernel yet: the events of every site added, r->sets[0] appended
	 * (its events numbered from 0), r->counting, r->sem_method and r->late.sem_poke decided.
	 */
	int (*build)(struct sdt_recorder *r);
	/* Stage 1, before the targets: what needs none (a program loaded; its rings into r->epfd
	 * tagged REC_ENGINE_TAG, drained by ->drain). */
	int (*load)(struct sdt_recorder *r);
	/* Process @pid is a target (the command stopped before its exec, or a -p process). */
	int (*follow)(struct sdt_recorder *r, pid_t pid);
	/* Stage 2: the probes in the kernel (their ids known: r->sets[0].tps). */
	int (*create)(struct sdt_recorder *r);
	/* Stage 3, r->samples ready: the hits routed to the rings (perf events, links), filters. */
	int (*open)(struct sdt_recorder *r);

	/* Raise the semaphores of r->sets[0] in process @pid by hand (r->late.sem_poke): >= 0. */
	int (*poke)(struct sdt_recorder *r, pid_t pid);
	/* Drain the engine's own rings (after r->perf's) into @ops. */
	int (*drain)(struct sdt_recorder *r, const struct sdt_ring_ops *ops);
	/* Counting: every event's count into r->samples.counts. */
	int (*read_counts)(struct sdt_recorder *r);
	/* The end: no more hits (before the last drain). */
	void (*stop)(struct sdt_recorder *r);
	/* After the last drain, not counting: the hits the rings never got, to @ops->lost. */
	int (*losses)(struct sdt_recorder *r, const struct sdt_ring_ops *ops);
	/* After the counts: what the engine keeps for the end (aggregated rows). */
	int (*finish)(struct sdt_recorder *r);
	/*
	 * Adds [@first, nadds) came from opts.on_file during the run: one rec_set appended for
	 * them (a set appended is kept even when arming then fails: its events have no hit).
	 */
	int (*arm_late)(struct sdt_recorder *r, size_t first);
	/* Stage 6, on every path, after r->perf is closed: what is in the kernel removed. */
	int (*teardown)(struct sdt_recorder *r);

	/* Event @event (numbered across the sets), and the file of its sites: NULL past the end. */
	const struct sdt_trace_event_desc *(*event)(const struct sdt_recorder *r, size_t event);
	const struct sdt_file *(*event_file)(const struct sdt_recorder *r, size_t event);
	/*
	 * Has event @event semaphores raised by the engine's ->poke (NULL: the kernel raises them
	 * all), and their state in process @pid (recorder_silence.c): 1 one raised, 0 all at 0,
	 * -ENOENT @pid maps none of them, -errno unreadable.
	 */
	bool (*has_semaphore)(const struct sdt_recorder *r, size_t event);
	int (*semaphore)(const struct sdt_recorder *r, size_t event, pid_t pid);
	/* Were event @event's semaphores raised by hand (->poke) at the start? */
	bool (*poked)(const struct sdt_recorder *r, size_t event);
	/* exit() during a recording: what a killed run would leave behind, removed. */
	void (*at_exit)(void);
	/* What it keeps until sdt_recorder__free() (r->engine_data, the sets' ->eng). */
	void (*free)(struct sdt_recorder *r);
};

/*
 * The engine @r runs with: opts.engine resolved once (auto: bpf when the kernel, BTF and
 * privileges allow it and every site can be placed by it, else tracefs). engines.c.
 */
const struct sdt_engine_ops *sdt_rec_engine(struct sdt_recorder *r);
/* exit() during a recording: every engine's at_exit. */
void sdt_rec_engines_at_exit(void);

#endif
