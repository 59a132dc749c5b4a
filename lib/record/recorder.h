/* SPDX-License-Identifier: MIT */
/*
 * The recorder's private side: the public API is include/sdtrace/record.h.
 *
 * sdt_recorder__run() (recorder_run.c) calls its stages in order; teardown() undoes them in
 * reverse on every path:
 *	0. build_set()      the definitions of every site added; nothing in the kernel yet
 *	1. start_targets()  the command started stopped (fork; the child blocks on a pipe before
 *	                    exec: recorder_child.c), or the -p threads, or -1 for the whole system
 *	2. create_probes()  the uprobes, in one batch (uprobe_create.c)
 *	3. open_events()    perf events per CPU x target x event, one ring per CPU
 *	                    (recorder_perf.c); the sink gets the events' descriptions
 *	4. arm()            enable them (a command: enable_on_exec), poke semaphores if needed,
 *	                    watch the targets' exit, release the command
 *	5. record()         read the rings on watermark wake-ups until the targets exit, a stop or
 *	                    the duration (recorder_samples.c: records -> sink); what the targets
 *	                    still alive map and their semaphores (recorder_silence.c); drain
 *	6. teardown()       close, unmap, restore semaphores, remove the uprobes, reap the command
 * Each stage's state is a struct of its own below: rec_child, rec_targets, rec_perf,
 * rec_samples, rec_signals (the process-wide side: recorder_signals.c).
 *
 * Following (unless opts.no_follow): the command is traced from before its exec with its
 * children (recorder_follow.c) and each image it execs is armed at its exec stop; every ring
 * has a watch event whose MMAP2 records tell the executable files the targets map (a library
 * dlopen'ed, a program started later under -a); a file not seen yet is offered to opts.on_file
 * and what it adds is armed as a set of its own (recorder_late.c).
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

struct sdt_engine_ops;

/* Default data pages per CPU ring. */
#define SDT_RING_PAGES_DEFAULT 1024
/* Cap on perf events opened by one recorder (events x CPUs x threads). */
#define SDT_MAX_PERF_FDS 1000000

/* Tag of an epoll entry: rings are 0..nrings-1, process exits PID_TAG + i, ptrace stops. */
#define PID_TAG	   (1ull << 32)
#define FOLLOW_TAG (1ull << 33)
/* An engine's own rings (engine.h's ->load; the BPF engine: one epoll fd for all of them). */
#define REC_ENGINE_TAG (1ull << 34)

/* The set number (and event) of a watch event or a fork guard in rec_perf (not a uprobe's). */
#define REC_WATCH_FD UINT32_MAX

/* One sdt_recorder__add_typed(): the sites of one file, their types copied. */
struct added {
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

/* A tracefs event id, and the index of that tracefs event in the set. */
struct tpmap {
	uint64_t id;
	uint32_t event;
	uint32_t set;
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

/* The stop signals' state during a run (recorder_signals.c). */
struct rec_signals {
	/* the caller's mask, restored at the end and given to the command */
	sigset_t oldmask;
	sigset_t waitmask; /* the mask inside the wait: the caller's (+ SIGCHLD when following) */
	struct sigaction old[SDT_STOP_SIGNALS];
	bool handled[SDT_STOP_SIGNALS]; /* our handler is installed for stop_signals[i] */
};

/* The command (recorder_child.c). */
struct rec_child {
	char *const *argv;
	pid_t pid;  /* -1: none started */
	int go_fd;  /* the release pipe: a byte lets it exec, EOF makes it exit 127 unrun */
	int err_fd; /* the exec error pipe: the errno of an exec that failed */
	bool released, reaped;
	int status; /* its wait status, once reaped */
};

/* A process whose exit ends the recording: a -p process, or the command. */
struct watched {
	pid_t pid;
	int pidfd;
	bool done;
};

/* What the perf events follow, and what ends the recording (recorder_targets.c). */
struct rec_targets {
	pid_t *tids; /* threads of -p processes, or the child; -1 system-wide */
	size_t ntids;
	struct watched *watch; /* in the epoll set, tagged PID_TAG + index */
	size_t nwatch, live;
};

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
};

/* Data pages of a watch ring: its records are small and read at once. */
#define WATCH_RING_PAGES 64

/* What sdt_rec_perf_open() opens, and how. */
struct perf_plan {
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
};

/* From ring records to sink calls (recorder_samples.c, recorder_comms.c): the ring ops' ctx. */
struct rec_samples {
	const struct rec_set *const *sets;    /* borrowed: &recorder->sets (it grows) */
	const struct sdt_recorder_sink *sink; /* borrowed */
	struct sdt_recorder *r;		      /* for the mmap records (recorder_late.c) */
	struct tpmap *map; /* tracefs event id -> (set, index of its tracefs events), sorted */
	uint32_t *map_set;
	size_t nkev, map_cap;
	size_t nevents;
	uint64_t *counts; /* per event: samples, or in counting mode the counters' sum */
	uint64_t lost;
	struct comm_slot *comms; /* tid -> name, see struct comm_slot */
	size_t comms_cap, comms_n;
	/*
	 * Filters the kernel could not take (recorder_filter.c): per event the filter to apply to
	 * its decoded samples here, or NULL; the decoder that decodes them; what they dropped.
	 */
	const struct sdt_filter **ufilter;
	struct sdt_trace_decoder *fdec;
	uint64_t *filtered;
	/* the mappings handed to the sink (with -g), copied again for a forked process */
	struct rec_map *maps;
	size_t nmaps, maps_cap;
};

/* A mapping given to the sink (recorder_maps.c). */
struct rec_map {
	uint32_t pid;
	uint64_t start, len, pgoff;
	char *build_id, *path;
};

/* At most this many mappings kept for forks; past it, mappings still go to the sink. */
#define REC_MAX_MAPS (1u << 18)

/*
 * What the end of a recording found out, for the events that had no hit (recorder_silence.c):
 * per event, its semaphore (-1 unknown or none, 0 found at 0 in a live target or never poked,
 * 1 raised) and the process it was found at 0 in (0: never poked).
 */
struct rec_facts {
	int8_t *sem;
	pid_t *sem_pid;
	size_t nevents;
	pid_t mapped_pid; /* a live target that was asked what it maps (for messages), 0: none */
	size_t nwatched;  /* how many processes were watched (the targets are closed after) */
};

/* Where each event's filter runs (recorder_filter.c). */
struct rec_filters {
	const struct sdt_filter **of; /* per event, from opts.filter_for (NULL: none) */
	uint8_t *place;		      /* per event: SDT_FILTER_NONE, _KERNEL, _USER */
	char **why;		      /* per event: why not in the kernel (malloc'ed), or NULL */
	size_t nevents;
};

/*
 * For an engine that places the filters itself (the tracefs engine's, on its perf events): each
 * of the @n events of sets[0] gets its filter from opts.filter_for (r->filters.of). 0 or -ENOMEM.
 */
int sdt_rec_filters_prepare(struct sdt_recorder *r, size_t n);
/* Event @ev's filter runs here, not in the kernel, because of @why. 0 or -ENOMEM. */
int sdt_rec_filters_refuse(struct rec_filters *fl, size_t ev, const char *why);
/*
 * The decoder and per-event filters for the filters refused (sdt_rec_filters_refuse()). 0 or
 * -errno (-ENOTSUP when counting, which sees no samples).
 */
int sdt_rec_filters_user_side(struct sdt_recorder *r);
/* How an engine with its own filters (the BPF program's) takes them. */
struct rec_filter_engine {
	/*
	 * Put filter @f of event @ev (@d) in the engine: 0, or -ENOTSUP with the reason as the
	 * message (it is evaluated here, on the decoded samples), or another -errno (fatal).
	 */
	int (*in_kernel)(void *ctx, size_t ev, const struct sdt_filter *f,
			 const struct sdt_trace_event_desc *d);
	void *ctx;
	/* non-NULL: no sample reaches this side (counting in the kernel), and it says why */
	const char *no_user;
};

/*
 * For an engine with its own filters (the BPF engine): every event's filter (opts.filter_for of
 * @descs, @n events) goes to @eng; what it refuses runs here on the decoded samples, the reason
 * kept for sdt_recorder__filter_place(). -ENOTSUP when eng->no_user and something was refused.
 */
int sdt_rec_filters_apply_here(struct sdt_recorder *r, const struct sdt_trace_event_desc *descs,
			       size_t n, const struct rec_filter_engine *eng);
void sdt_rec_filters_release(struct sdt_recorder *r);
/* In on_sample: does event @ev's sample @s pass the filter applied here (true when none)? */
bool sdt_rec_filters_pass(struct rec_samples *sp, uint32_t ev, const struct sdt_trace_sample *s);

/* A thread traced (recorder_follow.c): the command and its descendants. */
struct tracee {
	pid_t tid;
	bool listening; /* in a group-stop, left there with PTRACE_LISTEN */
	int *anchors;	/* a forked process's anchors (sdt_rec_late_anchor()), closed at its end */
	size_t nanchors, anchors_cap;
};

/* Following the command through ptrace (recorder_follow.c). */
struct rec_follow {
	bool on;
	int sigfd; /* SIGCHLD, in the epoll set as FOLLOW_TAG; -1: none */
	bool chld_blocked; /* SIGCHLD was not blocked before: unblock it at the end */
	struct tracee *t;
	size_t n, cap;
	uint64_t stops, execs, forks, signals; /* what it cost */
};

/* A file seen mapped executable by a followed process (recorder_late.c). */
struct known_file {
	dev_t dev;
	ino_t ino;
	unsigned char build_id[20];
	uint8_t build_id_size;
	int set;	  /* the rec_set arming it, -1: nothing to arm (no site matched) */
};

/* Thread @tid has set @set's perf events (opened on it, or inherited) since @since_ns. */
struct cover {
	pid_t tid;
	uint32_t set;
};

/* An executable mapping read from a ring, handled after the drain (recorder_late.c). */
struct pending_map {
	pid_t pid;
	uint32_t maj, min;
	uint64_t ino;
	unsigned char build_id[20];
	uint8_t build_id_size;
	uint64_t time_ns; /* the record's (CLOCK_MONOTONIC) */
	char *filename;
};

/* A provider:event of a file met during the run that could not be armed (recorder_late.c). */
struct unarmed_event {
	size_t add;		     /* its file's index in ->adds (its reason: ->unarmed) */
	const char *provider, *name; /* borrowed from the add's file */
};

/* Arming files during the run (recorder_late.c). */
struct rec_late {
	bool on;	  /* following: new files are armed (not with no_follow) */
	bool in_callback; /* inside opts.on_file: sdt_recorder__add_typed() may add */
	struct known_file *files;
	size_t nfiles, files_cap;
	struct cover *cover;
	size_t ncover, cover_cap;
	struct pending_map *pending;
	size_t npending, pending_cap;
	uint64_t pending_dropped;
	size_t armed_files; /* files armed during the run */
	struct unarmed_event *unarmed; /* the provider:events of files that could not be armed */
	size_t nunarmed, unarmed_cap;
	int sem_poke;	    /* 1: poke sets[0]'s semaphores at the command's exec; 2: done */
	bool ref_ctr;	    /* the late sets' semaphore method, as the first set's */
};

/* A process forked without ptrace, and its guard and anchors (recorder_forks.c). */
struct fork_anchor {
	pid_t pid;
	int *fds;
	size_t nfds, cap;
};

/* Guarding the processes the targets fork, from the FORK records (recorder_forks.c). */
struct rec_forks {
	bool on; /* tracefs, not system-wide, no ptrace, no no-swap guard (perf_event.h) */
	bool told;
	struct fork_anchor *p;
	size_t n, cap;
	uint64_t guarded, unguarded; /* processes: guarded, and those that could not be */
};

/* The recorder: its options and sites, then a struct per stage of the run (see above). */
struct sdt_recorder {
	struct sdt_recorder_opts o;
	bool counting; /* counters, no rings: count_only with few events */
	struct added *adds;
	size_t nadds;
	const struct sdt_engine_ops *eng; /* once resolved (engine.c) */
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
	bool running; /* inside sdt_recorder__run() */
	struct rec_signals sig;
	const char *engine_reason; /* why SDT_ENGINE_AUTO chose it, when not the usual test */
};

/* recorder_silence.c */
/*
 * At the end of the recording, before anything is disabled: which files the live targets map
 * (struct added's ->mapped), and the state of each event's semaphores (r->facts). Best effort:
 * what cannot be read stays unknown. 0 or -ENOMEM.
 */
int sdt_rec_facts_gather(struct sdt_recorder *r);
void sdt_rec_facts_release(struct rec_facts *f);
/* recorder_signals.c: the process-wide side. */
/* Is a recorder running in this process? */
bool sdt_rec_running(void);
/* The atexit handler (once per process): it closes the events and removes the uprobes. */
void sdt_rec_atexit_register(void);
/*
 * Make @r the running recorder: catch the stop signals (not those ignored at start, not with
 * no_signal_handlers), block them outside epoll_pwait(). Undone by sdt_rec_signals_restore().
 */
void sdt_rec_signals_install(struct sdt_recorder *r);
void sdt_rec_signals_restore(struct sdt_recorder *r);
/* In the forked command: the caller's dispositions and mask again. */
void sdt_rec_signals_in_child(const struct rec_signals *s);
/* recorder_samples.c */
/* Ready for the samples of @r's created sets[0], for @sink. 0 or -ENOMEM. */
int sdt_rec_samples_init(struct rec_samples *sp, struct sdt_recorder *r,
			 const struct sdt_recorder_sink *sink);
/* Set @setno of @sp->sets was created: map its tracefs events, count its events. 0 or -ENOMEM.
 * In recorder_late.c (the calls between it and recorder_samples.c go one way). */
int sdt_rec_samples_add_set(struct rec_samples *sp, uint32_t setno);
/* The ring callbacks, with @sp as their ctx. */
struct sdt_ring_ops sdt_rec_samples_ops(struct rec_samples *sp);
void sdt_rec_samples_release(struct rec_samples *sp);
/* A ring's MMAP2 record (@rm) to the sink as a MAPPING record (record -g), the build-id in hex. */
void sdt_rec_samples_mapping(struct rec_samples *sp, const struct sdt_ring_mmap *rm);
/* recorder_comms.c */
void sdt_rec_on_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm);
void sdt_rec_on_fork(void *ctx, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid);
/* The names the threads of @pids (and with @system_wide, of every process) have now. */
void sdt_rec_comms_synthesize(struct rec_samples *sp, const pid_t *pids, size_t npids,
			      bool system_wide);
/* recorder_maps.c */
/* The executable mappings @pids (with @system_wide, every process) have now, to the sink. */
void sdt_rec_maps_synthesize(struct rec_samples *sp, const pid_t *pids, size_t npids,
			     bool system_wide);
/* Mapping @m to the sink, and kept (at most REC_MAX_MAPS) for the processes @m->pid forks. */
void sdt_rec_maps_emit(struct rec_samples *sp, const struct sdt_trace_mapping *m);
/*
 * Process @ppid forked @pid (PERF_RECORD_FORK): its mappings again, as @pid's. A forked process
 * has its parent's mappings and the kernel writes no MMAP2 record for them: without these its
 * stacks could not be symbolized (nor dwarf stacks unwound).
 */
void sdt_rec_maps_fork(struct rec_samples *sp, uint32_t ppid, uint32_t pid);
void sdt_rec_maps_release(struct rec_samples *sp);
/* recorder_child.c */
/* No command yet: no pid, no pipes. */
void sdt_rec_child_init(struct rec_child *c);
/* Fork @argv, stopped before its exec, with the caller's signals (@sig); traced when @traceme. */
int sdt_rec_child_start(struct rec_child *c, char *const *argv, const struct rec_signals *sig,
			bool traceme);
void sdt_rec_child_reap(struct rec_child *c, bool block);
/* Let it exec; with @poke (not NULL), call it at its exec stop (the semaphores raised). */
int sdt_rec_child_release(struct rec_child *c, int (*poke)(void *ctx, pid_t pid), void *ctx);
/* The end: one never released exits unrun, one running is sent SIGTERM if @kill_it; reaped. */
void sdt_rec_child_end(struct rec_child *c, bool kill_it);
/* recorder_targets.c */
/* Follow thread @tid (-1: every thread, system-wide). */
int sdt_rec_targets_add_tid(struct rec_targets *t, pid_t tid);
/* Every thread of process @pid (those it has now: inherit follows the new ones). */
int sdt_rec_targets_add_process(struct rec_targets *t, pid_t pid);
/* Watch process @pid's exit through a pidfd in @epfd. */
int sdt_rec_targets_watch(struct rec_targets *t, int epfd, pid_t pid);
/* Watched process @i said it exited: its pid the first time, else 0. */
pid_t sdt_rec_targets_exited(struct rec_targets *t, int epfd, size_t i);
/* Did every watched process exit (false when none is watched)? */
bool sdt_rec_targets_all_exited(const struct rec_targets *t);
/* Close the pidfds; free the arrays (release). */
void sdt_rec_targets_close(struct rec_targets *t);
void sdt_rec_targets_release(struct rec_targets *t);
/* recorder_perf.c */
/* Open what @plan says into @p; on failure, what was opened stays for sdt_rec_perf_close(). */
int sdt_rec_perf_open(struct rec_perf *p, const struct perf_plan *plan);
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

/* recorder_follow.c: the command's exec chain, through ptrace */
/* Trace the command (stopped before its exec) and its future children; SIGCHLD in @epfd. */
int sdt_rec_follow_start(struct sdt_recorder *r);
/* SIGCHLD came: handle every ptrace stop there is. 0 or -errno. */
int sdt_rec_follow_wakeup(struct sdt_recorder *r);
/* Detach every tracee (they go on untraced); close the signalfd. */
void sdt_rec_follow_end(struct sdt_recorder *r);
/* recorder_late.c: files armed during the run */
/* Before the run: the files of the adds and what is known of their mapping. 0 or -errno. */
int sdt_rec_late_init(struct sdt_recorder *r);
/*
 * Thread @pid (stopped, at its exec; or a process that mapped it) maps file @path (dev, ino; a
 * build-id or NULL): arm it if new and the caller's on_file adds sites; give @pid's threads the
 * perf events of the set arming it if they do not have them. 0, or -errno (the run ends).
 */
int sdt_rec_late_exec(struct sdt_recorder *r, pid_t pid, pid_t former_tid);
/* Thread @tid was created by @parent: it has the perf events @parent had (inherit). */
void sdt_rec_late_inherit(struct sdt_recorder *r, pid_t parent, pid_t tid);
/*
 * Process @child, forked by @parent and stopped before its first instruction: anchors on it,
 * appended to *@fds (*@n of *@cap): a disabled, not inherited event on each tracefs event of
 * every set whose events @parent has (sdt_rec_perf_open_anchors()). Best effort (a child gone
 * needs none): 0, or -ENOMEM.
 */
int sdt_rec_late_anchor(struct sdt_recorder *r, pid_t parent, pid_t child, int **fds, size_t *n,
			size_t *cap);
/* Thread @tid exited. */
void sdt_rec_late_gone(struct sdt_recorder *r, pid_t tid);
/* The ring's mmap op: queue it for sdt_rec_late_pending(). */
void sdt_rec_late_on_mmap(void *ctx, const struct sdt_ring_mmap *m);
/* Handle the queued mappings (after each drain). 0 or -errno. */
int sdt_rec_late_pending(struct sdt_recorder *r);
void sdt_rec_late_release(struct sdt_recorder *r);
/* recorder_forks.c: the processes forked without ptrace */
/* Process @pid was forked by thread @ptid: its fork guard and anchors. Best effort. */
void sdt_rec_forks_born(struct sdt_recorder *r, pid_t pid, pid_t ptid);
/* Process @pid ended: its guard and anchors closed. */
void sdt_rec_forks_gone(struct sdt_recorder *r, pid_t pid);
void sdt_rec_forks_release(struct sdt_recorder *r);

#endif
