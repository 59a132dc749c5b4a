/* SPDX-License-Identifier: MIT */
/*
 * Recording SDT probes: uprobes created in a group of our own, perf ring buffers read, every hit
 * handed to a sink, and everything removed again on every path.
 *
 *	sdtrace record -e %example:job__start -- ./sdt-example
 *
 * Targets: a command (started stopped, released once every probe is armed, so its first
 * instruction is covered; recording ends when it exits), processes (-p: every thread, until they
 * exit or stop is asked), or the whole system (-a: until stop or a duration). Unless
 * opts.no_follow, what the targets exec or map later is armed during the run (see no_follow).
 *
 * Semaphores: by the kernel through (ref_ctr_offset) when tracefs offers it; otherwise (or when
 * asked) sdtrace increments them in the target's memory and restores them at the end ("poke").
 * With a command, poking covers the semaphores of the executable (the command is stopped at its
 * exec for this); those of libraries it loads later are not reached. System-wide, poking has no
 * process to poke: the kernel method is needed.
 *
 * Cleanup: the uprobes are removed at normal end, on SIGINT/SIGTERM/SIGHUP (the recorder installs
 * handlers during sdt_recorder__run() that ask it to stop; a SIGHUP ignored when it starts
 * stays ignored, as under nohup), when the command crashes, and on any
 * error after the first probe was created. After a SIGKILL, the next sdtrace calls
 * sdt_recorder__remove_stale() and the dead session's groups go; a command already running goes
 * on, untraced. The command starts with the caller's signal dispositions and mask, not the
 * recorder's.
 *
 * Process-wide state. A process runs one recording at a time: sdt_recorder__run() fails with
 * -EBUSY while another recorder is running (do not start two from two threads at the same
 * moment), and the handlers below find the running recorder through one process-wide pointer.
 *  - Signal handlers: during sdt_recorder__run(), unless opts.no_signal_handlers, SIGINT, SIGHUP
 *    and SIGTERM get a handler (sigaction(), so for the whole process) that asks the recorder to
 *    stop; sdt_recorder__stop_signal() tells which one did. A SIGHUP whose disposition is
 *    SIG_IGN when the run starts is left alone, neither caught nor blocked (nohup); SIGINT and
 *    SIGTERM are always caught, as perf and bpftrace catch SIGINT (a script's `cmd &` starts
 *    with it ignored, and `kill -INT` is how scripts stop a tracer). A command still running at
 *    a stop is sent SIGTERM and SIGCONT (it may be stopped); if it has not ended 3 s later, or
 *    at a second stop signal, SIGKILL. The calling thread blocks the caught signals
 *    (pthread_sigmask()) except inside its wait for the rings, so that none slips between a check
 *    and the sleep; another thread that does not block them may take one instead, and the
 *    recording then stops at the next drain (drain_interval_ms). With no_signal_handlers the
 *    same signals are blocked outside the wait all the same, and act as the caller set them.
 *    Dispositions and mask are the caller's again when sdt_recorder__run() returns; one of
 *    those signals that came after the last wait (still blocked) is taken as a stop first.
 *  - The atexit handler: registered by the first sdt_recorder__run() of the process, once, never
 *    removed. On exit() during a run (a sink calling exit(), a return from main()), it closes the
 *    recorder's perf events and removes the uprobes of every set still created; it does not
 *    restore poked semaphores, nor stop or reap the command. _exit() and fatal signals skip it:
 *    the next sdtrace removes the session as stale.
 *  - What the command inherits: the caller's dispositions of those three signals (where ours was
 *    installed: SIG_IGN if the caller ignored it, else SIG_DFL) and the caller's signal mask;
 *    otherwise what fork() and execvp() give: the environment, the working directory, limits,
 *    the process group (a terminal's Ctrl-C reaches both), and every descriptor of the caller not
 *    marked close-on-exec. The recorder's own descriptors are close-on-exec, and the command is
 *    forked before any perf event exists. Following (the default), it and its descendants are
 *    traced (PTRACE_SEIZE, without PTRACE_O_EXITKILL) until the end of the run: every signal
 *    they get is passed on, a group-stop stays a stop; during the run SIGCHLD is blocked in the
 *    calling thread and read through a signalfd (a SIGCHLD handler of the caller does not run
 *    for them), and only the tracees are waited for: another thread of the caller must keep
 *    SIGCHLD blocked during the run, or the signal may go to it and a stop go unseen (the
 *    command then waits in it for ever). With no_follow and poked semaphores, it is
 *    traced (PTRACE_TRACEME) up to its exec, then detached. A SIGKILL of sdtrace leaves it
 *    running, untraced.
 *
 * Example:
 *	SDT_OPTS(sdt_recorder_opts, o, .argv = argv);
 *	struct sdt_recorder *r;
 *	if (sdt_recorder__new(&o, &r) == 0 && sdt_recorder__add(r, file, sites, n) == 0 &&
 *	    sdt_recorder__run(r, &sink) == 0)
 *		printf("exit status %d\n", sdt_recorder__exit_status(r));
 *	sdt_recorder__free(r);
 *
 * By event spec, in one call: sdt_recorder__add_specs() (sdtrace/record_specs.h) finds the
 * sites of "%provider:event" for the target, and installs on_file for the files met later.
 *
 * Typed arguments (sdtrace/types.h): sdt_recorder__add_typed() with the types
 * sdt_types__resolve() gives per site names the arguments and fetches strings:
 *	p:sdtrace_1234_5678_0/python_function__entry /usr/bin/python3.11:0xf20a1(0x683260)
 *	    filename=+0(%bp):string funcname=+0(%r12):string lineno=%ax:s32
 */
#ifndef SDTRACE_RECORD_H
#define SDTRACE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <sdtrace/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sdt_arg_type;
struct sdt_file;
struct sdt_recorder;
struct sdt_types;
/* Opaque, read with the sdt_trace_event_desc__*() of sdtrace/trace.h; samples are there too. */
struct sdt_trace_event_desc;
struct sdt_trace_sample;
struct sdt_trace_mapping;
struct sdt_filter;
struct sdt_agg_event;

/*
 * Where recorded data goes. Every callback is optional. Pointers passed in are borrowed for the
 * duration of the call (descriptions: until sdt_recorder__free()). A negative return from
 * on_event_desc or on_sample stops the recording; sdt_recorder__run() returns it.
 */
struct sdt_recorder_sink {
	void *ctx;
	/* Once per event, after every probe is armed, before the first sample. */
	int (*on_event_desc)(void *ctx, const struct sdt_trace_event_desc *d);
	/* Every probe is armed (and the command about to be released). */
	void (*on_armed)(void *ctx);
	int (*on_sample)(void *ctx, const struct sdt_trace_sample *s);
	/* A process or thread got its name (exec, prctl), or had it when recording started. */
	void (*on_comm)(void *ctx, uint32_t pid, uint32_t tid, const char *comm);
	/* The kernel dropped @count records on @cpu (the ring was full). */
	void (*on_lost)(void *ctx, uint32_t cpu, uint64_t count);
	/*
	 * Every ring was drained (at least every drain_interval_ms while recording): the moment to
	 * write out what the samples produced, so that little is lost if sdtrace is killed.
	 * When counting, the counters were just read: sdt_recorder__count() is current.
	 */
	void (*on_drained)(void *ctx);
	/*
	 * With a call graph: a file mapped executable into a target process (the kernel's MMAP2
	 * records; for -p, its /proc/PID/maps when recording began), before the samples in it.
	 */
	void (*on_mapping)(void *ctx, const struct sdt_trace_mapping *m);
};

enum sdt_call_graph {
	SDT_CALL_GRAPH_NONE = 0,
	SDT_CALL_GRAPH_FP, /* the kernel follows frame pointers: PERF_SAMPLE_CALLCHAIN, user only */
	/* the user registers and the top of the user stack (stack_user_bytes), unwound at report
	 * time (sdtrace/stack.h); x86-64 only; above 8192 bytes the tracefs engine's (the BPF
	 * engine: -ENOTSUP) */
	SDT_CALL_GRAPH_DWARF,
};

/* SDT_CALL_GRAPH_DWARF's default and largest stack copy (perf's: a multiple of 8). */
#define SDT_STACK_USER_DEFAULT 8192
#define SDT_STACK_USER_MAX 65528

enum sdt_semaphore_method {
	SDT_SEMAPHORE_AUTO = 0, /* the kernel's (ref_ctr_offset) when available, else poke */
	SDT_SEMAPHORE_REFCTR,	/* the kernel's, or fail */
	SDT_SEMAPHORE_POKE,	/* increment / restore in the target's memory */
};

/*
 * What places the probes and reads the hits. Both record the same format; they differ in what
 * they can fetch (bpf adds indexed and thread-local arguments), in cost, and in what a SIGKILL
 * leaves (bpf: nothing; tracefs: a group the next sdtrace removes).
 *
 * libbpf: the BPF engine sets libbpf's process-wide print callback only during its own libbpf
 * calls (loading the program, attaching), to keep libbpf's messages off stderr (the last one is
 * in sdt_errmsg()), and puts the caller's back after each; it never changes libbpf's strict mode
 * or anything else of libbpf's global state. A thread of the caller's that calls libbpf during
 * those calls has its messages swallowed.
 */
enum sdt_engine {
	SDT_ENGINE_DEFAULT = 0, /* auto */
	SDT_ENGINE_AUTO,	/* bpf when the kernel, BTF, privileges and every site allow it */
	SDT_ENGINE_TRACEFS,	/* tracefs uprobe events, perf rings */
	SDT_ENGINE_BPF,		/* one BPF program, uprobe_multi links, BPF ring buffers */
};

/*
 * Which records the BPF engine writes into its per-CPU fast rings (opts.bpf_rings), the others
 * going through the BPF ring buffers; for tests and benchmarks, the recording is the same.
 */
enum sdt_bpf_rings {
	SDT_BPF_RINGS_FAST = 0, /* every record they can take (a preempted hit's cannot) */
	SDT_BPF_RINGS_COPIED,	/* only those of the sites written in place */
	SDT_BPF_RINGS_RINGBUF,	/* none: every record through the BPF ring buffers */
};

struct sdt_recorder_opts {
	size_t sz;
	/* Exactly one target: a command (NULL-terminated argv), processes, or system-wide. */
	char *const *argv;
	const pid_t *pids;
	size_t npids;
	bool system_wide;
	enum sdt_semaphore_method semaphore;
	/* Counting mode (sdtrace stat): no ring buffers, no samples; see sdt_recorder__count(). */
	bool count_only;
	/* Data pages per CPU ring, a power of two; 0: 1024 (4 MiB with 4 KiB pages). */
	size_t ring_pages;
	/* Stop after this long (0: no limit). */
	unsigned int duration_ms;
	/* Do not install SIGINT/SIGTERM/SIGHUP handlers (the caller calls sdt_recorder__stop()). */
	bool no_signal_handlers;
	/*
	 * Drain every ring at least this often, even below the wakeup watermark (0: 100 ms): the
	 * latency of `sdtrace trace` and what a SIGKILL can lose.
	 */
	unsigned int drain_interval_ms;
	/* The engine (sdt_recorder__engine() says which one runs). */
	enum sdt_engine engine;
	/*
	 * Filters (sdtrace/filter.h): asked once per event after the probes exist, before anything
	 * is enabled; the filter returned (NULL: none; it must outlive the run) keeps only the hits
	 * it passes. It runs in the kernel (the tracefs event's filter, PERF_EVENT_IOC_SET_FILTER:
	 * a hit that fails never reaches the ring buffer) where the kernel's filter language can
	 * say it, else here on the decoded samples (sdt_recorder__filter_place() says which and
	 * why). Counts are of the hits that passed. When counting (count_only with few events) a
	 * filter the kernel cannot take fails the run with -ENOTSUP.
	 */
	const struct sdt_filter *(*filter_for)(void *ctx, const struct sdt_trace_event_desc *d);
	void *filter_ctx;
	/*
	 * Aggregation in the kernel (sdtrace stat --by, --latency): called for every event with
	 * @out NULL (the caller learns them all: a pair needs both sides), then for each again, before
	 * anything is placed, to say what the event's hits do in *@out; a negative return (with
	 * the message the caller's own) stops the run with it. The BPF
	 * engine then counts each hit into a key, or times pairs, in kernel maps, and no hit
	 * crosses to user space (no samples, no sdt_recorder__count()): the results are
	 * sdt_recorder__agg_row(). Needs the BPF engine: with opts.engine tracefs the run fails
	 * with -ENOTSUP; DEFAULT and AUTO take bpf, or fail with the reason it cannot run.
	 * Filters cannot go with it (-ENOTSUP: the BPF engine evaluates them in user space).
	 */
	int (*agg_for)(void *ctx, const struct sdt_trace_event_desc *d, struct sdt_agg_event *out);
	void *agg_ctx;
	/* The most keys each aggregation map holds (0: 10240); hits of more keys are counted. */
	size_t agg_max_keys;
	/*
	 * Following (the default): the command is traced (ptrace) with the children it starts,
	 * and each program it execs is resolved and armed at its exec, before its first
	 * instruction; the executable files the targets map later (a dlopen()ed library; under
	 * -a, any program started after the recording began; with -p, the processes' children)
	 * are seen in the rings (PERF_RECORD_MMAP2, with the build-id) and armed as they appear,
	 * a moment after they are mapped. A file not seen before is offered to on_file, which
	 * adds the sites to arm with sdt_recorder__add_typed() (legal inside it only). Without
	 * on_file, nothing new is armed, but sdt_recorder__file_mapped() still learns what was
	 * mapped. no_follow: none of it (every probe armed once, before the start).
	 */
	bool no_follow;
	/*
	 * A file (@open_path: a path of it in this process's mount namespace, maybe through
	 * /proc/PID/root; @build_id: its hex build-id when the kernel gave one, else NULL) was
	 * exec'd or mapped by process @pid (stopped at its exec, or running). Return 0 (whether
	 * or not sites were added), or a negative errno to end the recording with it. The file
	 * given to sdt_recorder__add_typed() must outlive the recorder. Left NULL,
	 * sdt_recorder__add_specs() installs its own (sdtrace/record_specs.h).
	 */
	int (*on_file)(void *ctx, struct sdt_recorder *r, pid_t pid, const char *open_path,
		       const char *build_id);
	void *on_file_ctx;
	/* User stacks per sample (sdt_trace_sample's callchain) and the targets' mappings. */
	enum sdt_call_graph call_graph;
	/* The deepest stack kept (0: 127, perf's default); at most SDT_TRACE_MAX_STACK. */
	unsigned int max_stack;
	/* SDT_CALL_GRAPH_DWARF: the bytes of user stack copied per sample (0: 8192). */
	unsigned int stack_user_bytes;
	/*
	 * Switches for tests and benchmarks. The library reads no environment variable: sdtrace
	 * maps those named here (sdtrace(1)) to these fields.
	 */
	/* SDTRACE_FORK_GUARD=thread: the older fork guard (inherit_thread) on any kernel */
	bool fork_guard_thread;
	/* SDTRACE_BPF_PROBE_FAIL: the BPF engine is off: auto takes tracefs, bpf fails */
	bool bpf_off;
	/* SDTRACE_BPF_NO_MULTI: a perf-event uprobe per site, never a uprobe_multi link */
	bool bpf_no_multi;
	/* SDTRACE_BPF_RINGBUF (1: RINGBUF, copied: COPIED): the BPF engine's rings */
	enum sdt_bpf_rings bpf_rings;
};

/*
 * What an event's hits do when aggregating (opts.agg_for). Argument names as
 * sdt_trace_event_desc__arg_index() takes them (a name, or argN); at most SDT_AGG_MAX_PARTS of
 * each. A string argument's value is its first SDT_AGG_STR_MAX bytes (longer ones are marked
 * cut). A pair is the caller's number (0, 1, ...): every START and END of one pair must name
 * the same --key arguments. The name `pid` is the process of the hit (its thread group id, as a
 * filter's pid), an integer every event has; it wins over an argument so named (argN names it).
 */
#define SDT_AGG_MAX_PARTS 4
#define SDT_AGG_STR_MAX	  126
enum sdt_agg_role {
	SDT_AGG_COUNT = 0, /* count the hit under (its event, the values of by[]) */
	SDT_AGG_START,	   /* open @pair on the thread, under the values of key[] */
	SDT_AGG_END,	   /* close it: its duration under (@pair, the start's values of by[]) */
	SDT_AGG_IGNORE,	   /* nothing (not part of any pair) */
};
struct sdt_agg_event {
	enum sdt_agg_role role;
	size_t pair;
	const char *const *by; /* COUNT, START */
	size_t nby;
	const char *const *key; /* START, END */
	size_t nkey;
	/* START, END: pair on the key alone, whatever the thread (requests handed between threads) */
	bool any_thread;
};

/* One value of a key: an integer (as the argument's type: signed or not), or a string. */
struct sdt_agg_value {
	bool is_string;
	bool cut; /* a string longer than SDT_AGG_STR_MAX bytes */
	bool is_signed;
	const char *str; /* is_string */
	int64_t i;	 /* is_signed */
	uint64_t u;
};

/* Log-linear buckets of the durations: [0, 4) exact, then 4 per power of two. */
#define SDT_AGG_BUCKETS 256

/*
 * One key's result. COUNT: @event (as sdt_recorder__event_count() numbers them) and @count.
 * Pairs: @pair, @count pairs, their sum, min, max and @hist. @values: the by[] values, in
 * order (of the event, or of the pair's start).
 */
struct sdt_agg_row {
	bool is_pair;
	uint32_t event;
	size_t pair;
	const struct sdt_agg_value *values;
	size_t nvalues;
	uint64_t count, sum_ns, min_ns, max_ns;
	const uint64_t *hist; /* SDT_AGG_BUCKETS, pairs only */
	/*
	 * pairs only: the pair's durations whose key found the map full (the cap,
	 * opts.agg_max_keys), no @values; the pair's total is the sum of its rows, this one too
	 */
	bool past_cap;
};

enum sdt_filter_place {
	SDT_FILTER_NONE = 0, /* no filter */
	SDT_FILTER_KERNEL,   /* in the kernel */
	SDT_FILTER_USER,     /* here: its events still cross the ring buffer */
};

/*
 * A recorder for @opts (NULL: defaults, which name no target). Returns 0, or -EINVAL: not exactly
 * one target, ring_pages not a power of two, poking system-wide, or @opts from a newer header
 * setting an option this library does not know. Free it with sdt_recorder__free().
 */
SDT_API int sdt_recorder__new(const struct sdt_recorder_opts *opts, struct sdt_recorder **out);
/*
 * At most this many sites in one recording: a hostile file may have a million notes; the BPF
 * engine arms 50,000 in one uprobe_multi link (bench/b63-sites.sh).
 */
#define SDT_RECORD_MAX_SITES 100000u

/*
 * Record sites @sites[0..n) (indices as in sdt_file__site()) of @f, which must outlive @r.
 * -E2BIG when the recording would hold more than SDT_RECORD_MAX_SITES sites.
 */
SDT_API int sdt_recorder__add(struct sdt_recorder *r, const struct sdt_file *f, const size_t *sites,
			      size_t n);
/*
 * The same with argument names and types: @types[k] (NULL: the note's own) has one entry per
 * argument of site @sites[k] (sdt_file__site()->nargs), as sdt_types__resolve() returns them;
 * @types may be NULL. The types are copied. An argument keeps its number whatever its name; a
 * `string` is recorded as the string its pointer points to. The events of a recording share as
 * few tracefs events as the kernel allows (each costs a grace period to close). Returns 0, -EINVAL
 * when a type's size does not fit the note (the message names provider:event, the argument and both
 * sizes), -ERANGE (a site index), -E2BIG, -ENOMEM. Two arguments of one site with the same name (a
 * type naming argument 2 "arg1" while argument 1 is unnamed) fail sdt_recorder__run() with -EINVAL
 * before anything starts.
 */
SDT_API int sdt_recorder__add_typed(struct sdt_recorder *r, const struct sdt_file *f,
				    const size_t *sites, size_t n,
				    struct sdt_arg_type *const *types);
/*
 * Arm, record until the end, disarm. Returns 0, or -errno with the message set; whatever it
 * created is removed in every case.
 */
SDT_API int sdt_recorder__run(struct sdt_recorder *r, const struct sdt_recorder_sink *sink);
/* Ask a running recorder to stop; async-signal-safe. */
SDT_API void sdt_recorder__stop(struct sdt_recorder *r);
/*
 * From any thread, while sdt_recorder__run() runs: drain the rings and read the counters now, not
 * at the next drain_interval_ms; the sink's on_drained follows, in the run's thread. Returns a
 * ticket (1, 2, ...); in on_drained, sdt_recorder__drained() >= ticket says the counts just read
 * were read after the call (a scrape after the work sees all of it). Asks made before the run
 * are answered by its first drain; after it, by nothing.
 */
SDT_API uint64_t sdt_recorder__drain_now(struct sdt_recorder *r);
SDT_API uint64_t sdt_recorder__drained(const struct sdt_recorder *r);
/*
 * The command's wait status (as waitpid() gives it), or -1 when there was none (no command, or
 * one never started: the recording stopped or failed while arming).
 */
SDT_API int sdt_recorder__exit_status(const struct sdt_recorder *r);
/* The signal whose handler stopped the recording (SIGINT, SIGTERM, SIGHUP), 0 when none did. */
SDT_API int sdt_recorder__stop_signal(const struct sdt_recorder *r);
/*
 * After an aggregating run (opts.agg_for): the keys, each key's row, in no order. During it, from
 * the sink's on_drained, sdt_recorder__agg_refresh() reads the kernel's maps anew (a walk of
 * every key: call it only when the rows are wanted, not at every drain); rows are valid until
 * the next refresh or sdt_recorder__free(). 0 or -errno (nothing to do when not aggregating).
 */
SDT_API int sdt_recorder__agg_refresh(struct sdt_recorder *r);
SDT_API size_t sdt_recorder__agg_count(const struct sdt_recorder *r);
SDT_API const struct sdt_agg_row *sdt_recorder__agg_row(const struct sdt_recorder *r, size_t i);
/*
 * What the kernel could not aggregate: hits of new keys beyond opts.agg_max_keys (@keys),
 * starts that found the open-pairs map full (@starts), ends with no open start of their pair,
 * thread and key (@unmatched). Any may be NULL.
 */
SDT_API void sdt_recorder__agg_drops(const struct sdt_recorder *r, uint64_t *keys, uint64_t *starts,
				     uint64_t *unmatched);
/*
 * Starts the kernel did not time because they nested deeper than the stack it keeps per (thread,
 * pair, key) (sdt_recorder__agg_pair_depth() levels; recursion past it): their ends are counted
 * with them, not as unmatched, and the pairs below still pair right.
 */
SDT_API uint64_t sdt_recorder__agg_too_deep(const struct sdt_recorder *r);
SDT_API unsigned int sdt_recorder__agg_pair_depth(void);
/*
 * Percentile @p (0 < p <= 100) of a pair row's durations: nearest rank, the middle of its
 * bucket clamped to [min, max], so within 12.5% (exact below 4 ns).
 */
SDT_API uint64_t sdt_agg_row__percentile(const struct sdt_agg_row *row, double p);

/* Events recorded (valid after run), their hit counts (counting mode: read from the kernel). */
SDT_API size_t sdt_recorder__event_count(const struct sdt_recorder *r);
SDT_API uint64_t sdt_recorder__count(const struct sdt_recorder *r, size_t event);
/* Event @event's description (provider, name, arguments), borrowed; NULL before run, or past
 * the end. */
SDT_API const struct sdt_trace_event_desc *sdt_recorder__event(const struct sdt_recorder *r,
							       size_t event);
/*
 * The files added (one per sdt_recorder__add() call, in order, those added by on_file during the
 * run included); whether the targets mapped file @file_index: 1 seen mapped (at an exec, in an
 * MMAP2 record, in a -p process's maps at the start, or in a live target's /proc/PID/maps at
 * the end), 0 never seen mapped by the targets, -1 unknown (system-wide for a file mapped before
 * the start, or targets that exited without following). Known after run.
 */
SDT_API size_t sdt_recorder__file_count(const struct sdt_recorder *r);
SDT_API int sdt_recorder__file_mapped(const struct sdt_recorder *r, size_t file_index);
/* How many files were armed during the run (on_file added sites for them). */
SDT_API size_t sdt_recorder__late_file_count(const struct sdt_recorder *r);
/* File @file_index's path (borrowed until sdt_recorder__free()), or NULL past the end. */
SDT_API const char *sdt_recorder__file_path(const struct sdt_recorder *r, size_t file_index);
/*
 * After run, what a followed command ran: the execs it and its children made, in order (the
 * command's own first), at most 256 kept (*@more, may be NULL: how many past them). Nothing
 * with opts.no_follow, -p or system-wide (only a command is followed through its execs).
 * Entry @i: the process, the executable (for a script, its interpreter: /usr/bin/dash) and,
 * for a script (a file starting with "#!"), the script's absolute path and its interpreter as
 * its #! line names it (/bin/sh), else NULL; borrowed until sdt_recorder__free(). Each is also
 * said at SDT_INFO as it happens ("exec (pid N): PATH"). Returns 0 or -ERANGE.
 */
SDT_API size_t sdt_recorder__exec_count(const struct sdt_recorder *r, uint64_t *more);
SDT_API int sdt_recorder__exec(const struct sdt_recorder *r, size_t i, pid_t *pid,
			       const char **path, const char **script, const char **interp);

/* Why an event had no hit (sdt_recorder__silence()), the most specific first. */
enum sdt_silence {
	SDT_SILENCE_NONE = 0,	/* it was hit */
	SDT_SILENCE_NOT_MAPPED, /* no target maps its file (sdt_recorder__file_mapped() is 0) */
	SDT_SILENCE_SEMAPHORE,	/* its semaphore was never raised: 0 in a live target at the end,
				 * or never poked (a file mapped after the start, with poke) */
	SDT_SILENCE_NEEDS,	/* a provider file says it needs a runtime switch (its text) */
	SDT_SILENCE_FIRES,	/* a provider file says it fires only when ... (its text) */
	SDT_SILENCE_NOT_RUN,	/* none of these: the code that fires it did not run */
	SDT_SILENCE_NOT_ARMED,	/* a file met during the run was not armed (the engine's
				 * limit, ...): its sites never placed; before all others */
};
/*
 * After run: why event @event (0..sdt_recorder__event_count()) had no hit, as an enum
 * sdt_silence, with a sentence in @text (@size bytes, may be NULL) that names the file, the
 * process or the provider file's note and its FILE:LINE. The provider notes come from @types
 * (may be NULL: sdtrace/types.h, "Notes"). An event that was hit gives SDT_SILENCE_NONE, or
 * SDT_SILENCE_FIRES when a note says it fires only in some conditions (its hits may be fewer
 * than its name says). A fact that cannot be known (the targets exited, -a) is skipped.
 * Returns the reason, or -ERANGE (no such event).
 */
SDT_API int sdt_recorder__silence(const struct sdt_recorder *r, size_t event,
				  const struct sdt_types *types, char *text, size_t size);
/*
 * After run: file @file_index (sdt_recorder__file_count()) as a whole. SDT_SILENCE_NOT_MAPPED
 * when the targets never mapped it (sdt_recorder__file_mapped() is 0), with a sentence of the
 * facts in @text (@size bytes, may be NULL): who did not map it, what a followed command ran
 * (sdt_recorder__exec()), and a file the targets did map that has one of its provider:events
 * ("a/tick has %p:hit too": a -x build the command does not run, another build it does),
 * whose index goes in *@twin_index (may be NULL; SIZE_MAX: none). SDT_SILENCE_NONE when it
 * was mapped, or that is not known; -ERANGE past the end. The events' own reasons
 * (sdt_recorder__silence()) say the same per event when they had no hit; this one says it
 * also when the same provider:events were hit in another file.
 */
SDT_API int sdt_recorder__file_silence(const struct sdt_recorder *r, size_t file_index,
				       size_t *twin_index, char *text, size_t size);
/*
 * After run: the provider:events of the files met during the run (opts.on_file added sites for
 * them) that could not be armed: their sites were never placed, so they are no event of the
 * recording (sdt_recorder__event_count() leaves them out). One entry per provider:event of each
 * such file. Entry @i's names in *@provider and *@name (borrowed from the file, valid until the
 * recorder is freed) and why, naming the file and the process, in @text (@size bytes, may be
 * NULL). Returns SDT_SILENCE_NOT_ARMED, or -ERANGE (no such entry).
 */
SDT_API size_t sdt_recorder__unarmed_count(const struct sdt_recorder *r);
SDT_API int sdt_recorder__unarmed(const struct sdt_recorder *r, size_t i, const char **provider,
				  const char **name, char *text, size_t size);
/*
 * The reason's word for scripts: "not-mapped", "semaphore", "needs", "fires", "not-run",
 * "not-armed"; "".
 */
SDT_API const char *sdt_silence__key(int reason);
/* Records the kernel dropped (PERF_RECORD_LOST, all CPUs). */
SDT_API uint64_t sdt_recorder__lost(const struct sdt_recorder *r);
/* After run: how long it recorded, from every probe armed to the end (0: it never armed). */
SDT_API uint64_t sdt_recorder__elapsed_ns(const struct sdt_recorder *r);
/*
 * After run: where event @event's filter ran (enum sdt_filter_place), with *@why (may be NULL)
 * saying why not in the kernel (borrowed until sdt_recorder__free()); and how many of its hits
 * the filter dropped here (those the kernel dropped are not counted anywhere).
 */
SDT_API int sdt_recorder__filter_place(const struct sdt_recorder *r, size_t event,
				       const char **why);
SDT_API uint64_t sdt_recorder__filtered(const struct sdt_recorder *r, size_t event);
/* Which semaphore method was used: "refctr", "poke" or "none". */
SDT_API const char *sdt_recorder__semaphore_method(const struct sdt_recorder *r);
/*
 * The engine that runs (or ran) the recording: "bpf" or "tracefs". Resolved once, on the first
 * call or by sdt_recorder__run(): SDT_ENGINE_AUTO probes the BPF engine (loads it once) and
 * checks that it can place every site added so far; add the sites first.
 */
SDT_API const char *sdt_recorder__engine(struct sdt_recorder *r);
/*
 * Why SDT_ENGINE_AUTO (the default) did not take bpf: why the BPF engine could not run (its
 * message), or the option that decided; NULL when it took bpf or the engine was named.
 */
SDT_API const char *sdt_recorder__engine_reason(struct sdt_recorder *r);
SDT_API void sdt_recorder__free(struct sdt_recorder *r);

/*
 * Remove the uprobe groups of sdtrace sessions whose process is gone (killed with SIGKILL).
 * Returns the number of groups removed, and their names in *names (malloc'ed, or NULL when none)
 * for the caller to report; -errno on failure.
 */
SDT_API int sdt_recorder__remove_stale(char **names);

#ifdef __cplusplus
}
#endif

#endif
