/* SPDX-License-Identifier: MIT */
/* The perf events of a run and their rings (recorder_perf.c). */
#ifndef SDT_RECORD_PERF_H
#define SDT_RECORD_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/ring.h"
#include "record/sets.h"
#include "record/targets.h"

/* Default data pages per CPU ring. */
#define SDT_RING_PAGES_DEFAULT 1024
/* Cap on perf events opened by one recorder (events x CPUs x threads). */
#define SDT_MAX_PERF_FDS 1000000

/* The set number (and event) of a watch event or a fork guard in rec_perf (not a uprobe's). */
#define REC_WATCH_FD UINT32_MAX

/* The perf events and their rings (recorder_perf.c). */
struct rec_perf {
	int *fds;
	uint32_t *fd_event; /* the tracefs event (index in its set) of each fd */
	int *fd_cpu;	    /* and its CPU */
	uint32_t *fd_set;   /* and its rec_set, REC_WATCH_FD for a watch event or a guard */
	size_t nfds, cap;
	struct sdt_ring *rings; /* one per CPU (none when counting), and a watch ring per CPU */
	bool *ring_watch;	/* rings[i] is a watch ring (MMAP2, COMM, FORK records only) */
	size_t nrings, rings_cap;
	size_t ring_pages; /* of a sample ring */
	int epfd;
	/* what every sample of the rings carries (sdt_rec_perf_open(); late events match it) */
	uint16_t callchain;
	uint32_t stack_user;
	bool no_swap_guard; /* the fork guards' form (perf_event.h), as the plan's */
};

/* Data pages of a watch ring: its records are small and read at once. */
#define WATCH_RING_PAGES 64

/* What sdt_rec_perf_open() opens, and how. */
struct rec_perf_plan {
	const struct rec_tp *tps; /* the tracepoints of sets[0] (none: watch events only) */
	size_t ntps;
	const struct rec_targets *targets;
	bool counting;	     /* counters only: no samples, no rings */
	bool inherit;	     /* follow new threads and children (all but system-wide) */
	bool enable_on_exec; /* a command: the events start at its exec */
	bool skip_gone;	     /* -p: a thread that exited meanwhile (ESRCH) is no error */
	bool watch;	     /* following: a watch event per CPU x target owns the ring */
	bool watch_only;     /* the watch events alone (no tracepoint, no guards) */
	size_t ring_pages;
	int epfd; /* each ring goes in, tagged with its index */
	uint16_t callchain; /* the deepest user stack (0: none) */
	uint32_t stack_user; /* dwarf: bytes of user stack per sample, with the registers (0: none) */
	bool no_swap_guard;  /* the targets' fork guards are the no-swap form (perf_event.h) */
};

/* recorder_perf.c */
/* Open what @plan says into @p; on failure, what was opened stays for sdt_rec_perf_close(). */
int sdt_rec_perf_open(struct rec_perf *p, const struct rec_perf_plan *plan);
int sdt_rec_perf_enable(struct rec_perf *p);
void sdt_rec_perf_disable(struct rec_perf *p);
/* Every ring, merged in time order (ring.c), to @ops. 0 or -errno. */
int sdt_rec_perf_drain(struct rec_perf *p, const struct sdt_ring_ops *ops);
/* Counting mode: each event's counters summed into @counts (@nevents, over @sets). */
int sdt_rec_perf_read_counts(const struct rec_perf *p, const struct rec_set *sets,
			     uint64_t *counts, size_t nevents);
/*
 * A set armed late (number @setno): its events per CPU of the rings x thread @tids (-1: every
 * thread), written into the existing rings, enabled. A thread gone (ESRCH) is skipped.
 */
/*
 * The anchors of @set on process @pid, appended to *@fds: one disabled counter per tracefs event
 * (pid @pid, any CPU, not inherited), never enabled, never read. Their only work is in the
 * kernel: the uprobe filter (trace_uprobe.c: __uprobe_perf_filter()) lets a process keep its
 * breakpoints while some perf event on the uprobe has a target with its mm, and an anchor is an
 * original event (governed by its fd) that no exit frees; being not inherited, it also keeps
 * the process's perf context from being the parent of clones (perf_event.h, the fork guard).
 * An inherited event does not anchor: after a context swap (perf_event_context_sched_out())
 * another task holds it and frees it when that task exits, the filter then finds no event for
 * the process and uprobe_apply() takes its breakpoints away. 0, -ESRCH (gone), or -errno.
 */
int sdt_rec_perf_open_anchors(const struct rec_set *set, pid_t pid, int **fds, size_t *n,
			      size_t *cap);
int sdt_rec_perf_open_late(struct rec_perf *p, const struct rec_set *set, uint32_t setno,
			   const pid_t *tids, size_t ntids, bool inherit, bool counting);
/* After the last drain: hits the rings never got, as losses to @ops->lost. */
int sdt_rec_perf_account_losses(struct rec_perf *p, const struct sdt_ring_ops *ops);
/* Disable, unmap, close. */
void sdt_rec_perf_close(struct rec_perf *p);
/* Unmap and close only (at exit). */
void sdt_rec_perf_abandon(struct rec_perf *p);
void sdt_rec_perf_release(struct rec_perf *p);

#endif
