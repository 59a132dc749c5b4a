/* SPDX-License-Identifier: MIT */
/*
 * The recorder's private side: the public API is include/sdtrace/record.h.
 *
 * Stages of sdt_recorder__run(), each undone in reverse on every path:
 *	1. start the command stopped (fork; the child blocks on a pipe before exec)
 *	2. create the uprobes (uprobe.c, one batch)
 *	3. open the perf events per CPU x target x event, map one ring per CPU (perf_event.c,
 *ring.c)
 *	4. enable them (a command: enable_on_exec), poke semaphores if needed, release the command
 *	5. read rings on watermark wake-ups until the targets exit, a stop or the duration
 *	6. drain, close, unmap, restore semaphores, remove the uprobes, reap the command
 */
#ifndef SDT_RECORDER_H
#define SDT_RECORDER_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sdtrace/record.h"
#include "record/ring.h"
#include "util/internal.h"

/* Default data pages per CPU ring. */
#define SDT_RING_PAGES_DEFAULT 1024
/* Cap on perf events opened by one recorder (events x CPUs x threads). */
#define SDT_MAX_PERF_FDS 1000000

/* Tag of an epoll entry: rings are 0..nrings-1, process exits PID_TAG + i. */
#define PID_TAG (1ull << 32)

struct added {
	const struct sdt_file *f;
	size_t *sites;
	size_t n;
	struct sdt_arg_type **types; /* NULL, or per site NULL / the site's nargs entries; owned */
};

struct tpmap {
	uint64_t id;
	uint32_t event;
};

struct watched {
	pid_t pid;
	int pidfd;
	bool done;
};

/*
 * The names of the threads seen (tid -> comm), so that a thread created by fork or clone, which
 * gets no COMM record, is named after its parent. Open addressing, grown on demand, bounded.
 */
struct comm_slot {
	uint32_t tid; /* 0: empty */
	char comm[16];
};
#define COMM_MAP_MAX (1u << 20)

/*
 * Counting (stat) with more events than this counts samples of one shared tracefs event instead
 * of reading a counter per event: the kernel's teardown waits a grace period (~90 ms) per
 * tracefs event, so 517 counters took ~50 s to close. Up to this many, exact counters.
 */
#define COUNTERS_MAX_EVENTS 8

/* How many stop signals there are (recorder_signals.c has them). */
#define SDT_STOP_SIGNALS 3

struct sdt_recorder {
	struct sdt_record_opts o;
	bool counting; /* counters, no rings: count_only with few events */
	struct comm_slot *comms;
	size_t comms_cap, comms_n;
	struct added *adds;
	size_t nadds;
	struct sdt_uprobe_set *set;
	const char *sem_method;
	/* perf events and rings */
	int *fds;
	uint32_t *fd_event; /* the tracefs event (index) of each fd */
	int *fd_cpu;	    /* and its CPU */
	size_t nfds, fds_cap;
	struct sdt_ring *rings;
	size_t nrings;
	int epfd;
	struct tpmap *map; /* tracefs event id -> index of the set's tracefs events */
	size_t nkev;
	size_t nevents;
	uint64_t *counts;
	uint64_t lost;
	/* targets */
	pid_t *tids; /* threads of -p processes, or the child; -1 system-wide */
	size_t ntids;
	struct watched *watch;
	size_t nwatch, live;
	/* the command */
	pid_t child;
	int go_fd, err_fd;
	bool released, reaped;
	int status;
	const struct sdt_record_sink *sink;
	volatile sig_atomic_t stop;
	volatile sig_atomic_t stop_sig; /* the signal that asked it, 0: none */
	/* the caller's mask, restored at the end and given to the command */
	sigset_t oldmask;
	struct sigaction old[SDT_STOP_SIGNALS];
	bool handled[SDT_STOP_SIGNALS]; /* our handler is installed for stop_signals[i] */
};

/* recorder_signals.c */
extern struct sdt_recorder *volatile sdt_rec_active;
extern pthread_once_t sdt_rec_atexit_once;
void sdt_rec_atexit_register(void);
void sdt_rec_signals_in_child(const struct sdt_recorder *r);
void sdt_rec_signals_install(struct sdt_recorder *r);
void sdt_rec_signals_restore(struct sdt_recorder *r);
/* recorder_samples.c */
int sdt_rec_on_sample(void *ctx, struct sdt_trace_sample *s);
void sdt_rec_on_lost(void *ctx, uint32_t cpu, uint64_t count);
int sdt_rec_cmp_map(const void *a, const void *b);
/* recorder_comms.c */
void sdt_rec_on_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm);
void sdt_rec_on_fork(void *ctx, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid);
void sdt_rec_comms_synthesize(struct sdt_recorder *r);
/* recorder_child.c */
int sdt_rec_child_start(struct sdt_recorder *r, bool traceme);
void sdt_rec_child_reap(struct sdt_recorder *r, bool block);
int sdt_rec_child_release(struct sdt_recorder *r, bool poke);
/* recorder_targets.c */
int sdt_rec_targets_add_tid(struct sdt_recorder *r, pid_t tid);
int sdt_rec_targets_add_process(struct sdt_recorder *r, pid_t pid);
int sdt_rec_targets_watch(struct sdt_recorder *r, pid_t pid);
/* recorder_perf.c */
int sdt_rec_perf_open(struct sdt_recorder *r);
void sdt_rec_perf_close(struct sdt_recorder *r);
int sdt_rec_perf_drain(struct sdt_recorder *r, const struct sdt_ring_ops *ops);
int sdt_rec_perf_read_counts(struct sdt_recorder *r);
int sdt_rec_perf_account_losses(struct sdt_recorder *r);

#endif
