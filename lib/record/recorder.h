/* SPDX-License-Identifier: MIT */
/*
 * The recorder's private side: the public API is include/sdtrace/record.h.
 *
 * sdt_recorder__run() (recorder_run.c) calls its stages in order, the same for every engine
 * (engine.h: r->eng does what differs); teardown() undoes them in reverse on every path:
 *	0. build           the engine's events of every site added; nothing in the kernel yet
 *	1. start_targets() the engine loaded; the command started stopped (fork; the child blocks on
 *	                   a pipe before exec: recorder_child.c), or the -p threads, or -1 for all
 *	2. place()         the probes created, the hits routed to the rings (the tracefs engine:
 *	                   perf events per CPU x target x event, recorder_perf.c); the sink gets
 *	                   the events' descriptions
 *	3. arm()           enabled (a command: at its exec), semaphores poked if needed, the
 *	                   targets' exits watched, the command released
 *	4. record()        the one loop: the rings read on wake-ups until the targets exit, a stop
 *	                   or the duration (recorder_samples.c: records -> sink); what the targets
 *	                   still alive map and their semaphores (recorder_silence.c); a last drain
 *	5. teardown()      closed, unmapped, the engine's probes removed, the command reaped
 * Each stage's state is a struct of its own, in a header of its own: child.h, targets.h,
 * perf.h, samples.h, facts.h, filters.h, follow.h, late.h, forks.h, signals.h (the process-wide
 * side); sets.h the sets of probes armed at once.
 *
 * Following (unless opts.no_follow): the command is traced from before its exec with its
 * children (recorder_follow.c) and each image it execs is armed at its exec stop; every ring
 * has a watch event whose MMAP2 records tell the executable files the targets map (a library
 * dlopen'ed, a program started later under -a); a file not seen yet is offered to opts.on_file
 * and what it adds is armed as a set of its own (recorder_late.c).
 */
#ifndef SDT_RECORDER_H
#define SDT_RECORDER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/child.h"
#include "record/facts.h"
#include "record/filters.h"
#include "record/follow.h"
#include "record/forks.h"
#include "record/late.h"
#include "record/perf.h"
#include "record/samples.h"
#include "record/sets.h"
#include "record/signals.h"
#include "record/targets.h"
#include "sdtrace/record.h"
#include "util/internal.h"

struct sdt_engine_ops;

/* One sdt_recorder__add_typed(): the sites of one file, their types copied. */
struct rec_added {
	const struct sdt_file *f;
	size_t *sites;
	size_t n;
	struct sdt_arg_type **types; /* NULL, or per site NULL / the site's nargs entries; owned */
	dev_t dev; /* the file's, at run start (0/0: unknown) */
	ino_t ino;
	int mapped; /* -1 unknown, 0 never seen mapped by a followed process, 1 mapped */
	int set;    /* the rec_set arming it, -1 before the run */
	char *unarmed;	   /* met during the run and not armed: why (owned), else NULL */
	pid_t unarmed_pid; /* the process it was met in */
};

/* The recorder: its options and sites, then a struct per stage of the run (see above). */
struct sdt_recorder {
	struct sdt_recorder_opts o;
	bool counting; /* counters, no rings: count_only with few events */
	struct rec_added *adds;
	size_t nadds;
	const struct sdt_engine_ops *eng; /* once resolved (engines.c) */
	void *engine_data;		  /* the engine's state (its ->free frees it) */
	struct rec_set *sets;
	size_t nsets, sets_cap;
	const char *sem_method;
	int epfd; /* rings (tag: index) and watched processes (PID_TAG + index) */
	struct rec_perf perf;
	struct rec_samples samples;
	struct rec_targets targets;
	struct rec_child child;
	struct rec_facts facts;
	struct rec_filters filters;
	uint64_t armed_ns, ended_ns; /* CLOCK_MONOTONIC: every probe armed; the recording over */
	struct rec_follow follow;
	struct rec_late late;
	struct rec_forks forks;
	const struct sdt_recorder_sink *sink;
	volatile sig_atomic_t stop;
	volatile sig_atomic_t stop_sig; /* the signal that asked it, 0: none */
	int wakefd;	  /* eventfd: sdt_recorder__drain_now() from any thread (WAKE_TAG) */
	bool drain_asked; /* read from @wakefd: the loop drains at once */
	uint64_t asked;	  /* drain_now()'s tickets given (atomic) */
	uint64_t drained; /* the last ticket asked before the last drain started */
	bool running; /* inside sdt_recorder__run() */
	struct rec_signals sig;
	const char *engine_reason; /* why SDT_ENGINE_AUTO chose it (engines.c) */
	char engine_why[320];	   /* engine_reason's text when it is not a constant */
	/* what a policy over the public API keeps (sdt_recorder__add_specs()), freed last */
	void *ext;
	void (*ext_free)(void *ext);
};

/* recorder.c: sdt_recorder__drain_now()'s eventfd into r->epfd (0 or -errno); its wake-up read. */
int sdt_rec_wake_watch(struct sdt_recorder *r);
void sdt_rec_wake_read(struct sdt_recorder *r);
/* A drain starts: the tickets asked so far are answered by it (sdt_recorder__drained()). */
void sdt_rec_wake_drain(struct sdt_recorder *r);

/*
 * The set holding event @event (numbered across the sets: base + the set's own) and its index
 * in that set in *@local; NULL past the end (or before the run).
 */
static inline const struct rec_set *sdt_rec_event_set(const struct sdt_recorder *r, size_t event,
						       size_t *local)
{
	size_t i;

	for (i = 0; i < r->nsets; i++) {
		if (event >= r->sets[i].base && event - r->sets[i].base < r->sets[i].nevents) {
			*local = event - r->sets[i].base;
			return &r->sets[i];
		}
	}
	return NULL;
}

#endif
