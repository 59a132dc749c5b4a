/* SPDX-License-Identifier: MIT */
/*
 * sdt_recorder__run(): the stages of a recording (recorder.h) and the loop that reads the rings.
 *
 * The reader sleeps in epoll until a ring passes its watermark (a quarter of the ring), a target
 * exits, a signal or the duration ends; between wake-ups the rings are drained on a clock too.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "record/engine.h"
#include "record/perf_event.h"
#include "record/recorder.h"
#include "record/ring.h"
#include "record/tracefs/tracefs.h"
#include "record/tracefs/uprobe.h"
#include "util/internal.h"

/* How the semaphores are enabled, decided once before anything starts. */
struct sem_plan {
	bool ref_ctr; /* (ref_ctr_offset) in the definitions: the kernel counts */
	bool poke;    /* by hand, through /proc/PID/mem */
};

/* A command to start (the other targets: -p processes, or the whole system)? */
static bool has_command(const struct sdt_recorder *r)
{
	return r->o.argv && r->o.argv[0];
}

static uint64_t now_ms(void)
{
	return sdt_mono_ns() / 1000000u;
}

/* What epoll_pwait() returned: drain the rings, or note that a target exited. 0 or -errno. */
static int on_wakeups(struct sdt_recorder *r, const struct epoll_event *evs, int n,
		      const struct sdt_ring_ops *ops)
{
	int i, err;

	for (i = 0; i < n; i++) {
		uint64_t tag = evs[i].data.u64;

		if (tag == FOLLOW_TAG) {
			err = sdt_rec_follow_wakeup(r);
			if (err < 0)
				return err;
		} else if (tag < PID_TAG) {
			if (tag >= r->perf.nrings)
				continue;
			/* all of them, merged in time order (ring.c) */
			err = sdt_rec_perf_drain(&r->perf, ops);
			if (err < 0)
				return err;
		} else if (sdt_rec_targets_exited(&r->targets, r->epfd, tag - PID_TAG) ==
			   r->child.pid) {
			sdt_rec_child_reap(&r->child, true);
		}
	}
	return 0;
}

/* Read the rings until a stop, the duration, or the targets' exit. 0 or -errno. */
static int loop(struct sdt_recorder *r, const struct sdt_ring_ops *ops)
{
	uint64_t deadline = r->o.duration_ms ? now_ms() + r->o.duration_ms : 0;
	uint64_t tick = r->o.drain_interval_ms ? r->o.drain_interval_ms : 100;
	uint64_t next_drain = now_ms() + tick;
	struct epoll_event evs[64];
	int n, err;

	while (!r->stop) {
		uint64_t now = now_ms(), until = next_drain;
		int timeout;

		if (deadline && now >= deadline)
			break;
		/* Below the watermark the rings would not wake us: drain them on a clock too. */
		if (now >= next_drain) {
			/* the watch ring's records too, when counting and following */
			err = sdt_rec_perf_drain(&r->perf, ops);
			if (!err && r->counting && r->sink->on_drained)
				/* live counts for the sink (stat --interval) */
				err = sdt_rec_perf_read_counts(&r->perf, r->sets, r->samples.counts,
							       r->samples.nevents);
			if (err < 0)
				return err;
			if (r->sink->on_drained)
				r->sink->on_drained(r->sink->ctx);
			next_drain = now + tick;
			until = next_drain;
		}
		if (deadline && deadline < until)
			until = deadline;
		timeout = (int)(until - now);
		/* the mappings the last drain read: armed now, out of the drain */
		err = sdt_rec_late_pending(r);
		if (err < 0)
			return err;
		n = epoll_pwait(r->epfd, evs, (int)ARRAY_SIZE(evs), timeout, &r->sig.waitmask);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sdt_err(-errno, "epoll_wait: %s", strerror(errno));
		err = on_wakeups(r, evs, n, ops);
		if (err < 0)
			return err;
		err = sdt_rec_late_pending(r);
		if (err < 0)
			return err;
		if (sdt_rec_targets_all_exited(&r->targets))
			break;
	}
	return 0;
}

/* The kernel's counter (ref_ctr_offset) when it has one and may, else by hand. 0 or -errno. */
static int plan_semaphores(const struct sdt_recorder *r, struct sem_plan *sp)
{
	int ref = sdt_tracefs_has_ref_ctr();

	if (ref < 0)
		return ref;
	sp->poke = false;
	switch (r->o.semaphore) {
	case SDT_SEMAPHORE_REFCTR:
		if (!ref)
			return sdt_err(-EOPNOTSUPP, "this kernel's uprobes do not take "
						    "ref_ctr_offset (tracefs README): use the poke "
						    "method for semaphores");
		break;
	case SDT_SEMAPHORE_POKE:
		ref = 0;
		sp->poke = true;
		break;
	default:
		sp->poke = !ref && !r->o.system_wide;
		break;
	}
	sp->ref_ctr = ref > 0;
	return 0;
}

/*
 * Stage 0, nothing in the kernel yet: the definitions of every site added (checked: names,
 * types), shared events when counting many, the semaphore method to report.
 */
static int build_set(struct sdt_recorder *r, const struct sem_plan *sp)
{
	struct sdt_uprobe_set_opts so = {
	    .use_ref_ctr = sp->ref_ctr,
	    /* a filter needs the arguments, also when counting */
	    .no_args = r->o.count_only && !r->o.filter_for,
	    /* a shared event's fields are wider than the arguments: no kernel filter on them */
	    .share = !r->o.count_only && !r->o.filter_for};
	size_t i;
	int err;

	err = sdt_uprobe_set__new(&so, &r->set);
	if (err)
		return err;
	for (i = 0; i < r->nadds; i++) {
		err = sdt_uprobe_set__add_typed(r->set, r->adds[i].f, r->adds[i].sites,
						r->adds[i].n, r->adds[i].types);
		if (err)
			return err;
	}
	r->counting = r->o.count_only;
	if (r->counting && sdt_uprobe_set__event_count(r->set) > COUNTERS_MAX_EVENTS) {
		err = sdt_uprobe_set__share(r->set);
		if (err)
			return err;
		r->counting = false;
	}
	r->sem_method = !sdt_uprobe_set__semaphore_count(r->set) ? "none"
			: sp->ref_ctr				 ? "refctr"
			: sp->poke				 ? "poke"
								 : "none";
	r->sets = calloc(1, sizeof(*r->sets));
	if (!r->sets)
		return sdt_err(-ENOMEM, "out of memory");
	r->sets_cap = r->nsets = 1;
	r->sets[0].set = r->set;
	r->sets[0].nevents = sdt_uprobe_set__event_count(r->set);
	r->late.ref_ctr = sp->ref_ctr;
	r->late.sem_poke = sp->poke ? 1 : 0;
	return sdt_rec_late_init(r);
}

/* Stage 1: the epoll set, and the targets: the command started stopped, the -p threads, or -1. */
static int start_targets(struct sdt_recorder *r, const struct sem_plan *sp)
{
	size_t i;
	int err = 0;

	r->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (r->epfd < 0)
		return sdt_err(-errno, "epoll_create1: %s", strerror(errno));
	if (has_command(r)) {
		err = sdt_rec_child_start(&r->child, r->o.argv, &r->sig, sp->poke && !r->late.on);
		if (!err && r->late.on)
			err = sdt_rec_follow_start(r);
		if (err)
			return err;
		return sdt_rec_targets_add_tid(&r->targets, r->child.pid);
	}
	for (i = 0; i < r->o.npids && !err; i++)
		err = sdt_rec_targets_add_process(&r->targets, r->o.pids[i]);
	if (!r->o.npids)
		err = sdt_rec_targets_add_tid(&r->targets, -1);
	return err;
}

/* Stage 2: the uprobes, in one batch; from here on, every path removes them. */
static int create_probes(struct sdt_recorder *r)
{
	int err;

	if (sdt_uprobe_set__event_count(r->set)) {
		err = sdt_uprobe_set__create(r->set);
		if (err)
			return err;
	}
	return sdt_rec_samples_init(&r->samples, r, r->sink);
}

/* Stage 3: the perf events per CPU x target x event, a ring per CPU; the sink learns the events. */
static int open_events(struct sdt_recorder *r)
{
	/*
	 * without ptrace and before 6.12, the processes they fork are guarded from their FORK
	 * records (recorder_forks.c); since, the targets' no-swap guards cover every generation
	 */
	bool forks = !r->o.system_wide && !r->follow.on && !sdt_perf_fork_guard_no_swap();
	struct perf_plan plan = {
	    .set = r->set,
	    .targets = &r->targets,
	    .counting = r->counting,
	    .inherit = !r->o.system_wide,
	    .enable_on_exec = r->child.pid > 0,
	    .skip_gone = r->o.npids > 0,
	    .watch = r->late.on || forks,
	    .ring_pages = r->o.ring_pages,
	    .epfd = r->epfd,
	    .callchain = r->o.call_graph == SDT_CALL_GRAPH_FP
			     ? (uint16_t)(r->o.max_stack ? r->o.max_stack : 127)
			     : 0,
	    .stack_user = r->o.call_graph == SDT_CALL_GRAPH_DWARF
			      ? (r->o.stack_user_bytes ? r->o.stack_user_bytes
						       : SDT_STACK_USER_DEFAULT)
			      : 0,
	};
	size_t i;
	int err;

	r->forks.on = forks;
	if (plan.inherit)
		sdt_debug("fork guard: %s\n",
			  sdt_perf_fork_guard_no_swap()
			      ? "no-swap (inherit, PERF_SAMPLE_READ: every generation)"
			  : forks ? "inherit_thread, and each forked process's from its FORK record"
				  : "inherit_thread, and anchors at each fork stop");
	err = sdt_rec_perf_open(&r->perf, &plan);
	if (!err)
		err = sdt_rec_filters_apply(r);
	for (i = 0; !err && i < r->samples.nevents && r->sink->on_event_desc; i++) {
		err = r->sink->on_event_desc(r->sink->ctx, sdt_uprobe_set__event(r->set, i));
		if (err > 0)
			err = 0;
	}
	return err;
}

/*
 * Stage 4: enabled (a command's events: by its exec), semaphores poked, exits watched, the
 * sink told; then the command released, unless a stop came meanwhile: *@go says whether the
 * recording goes on.
 */
static int arm(struct sdt_recorder *r, const struct sem_plan *sp, bool *go)
{
	size_t i;
	int err;

	*go = false;
	if (has_command(r)) {
		err = sdt_rec_targets_watch(&r->targets, r->epfd, r->child.pid);
		if (err)
			return err;
	} else {
		err = sdt_rec_perf_enable(&r->perf);
		for (i = 0; !err && sp->poke && i < r->o.npids; i++) {
			err = sdt_uprobe_set__poke(r->set, r->o.pids[i]);
			if (err > 0)
				err = 0;
		}
		for (i = 0; !err && i < r->o.npids; i++)
			err = sdt_rec_targets_watch(&r->targets, r->epfd, r->o.pids[i]);
		if (err)
			return err;
	}
	sdt_rec_comms_synthesize(&r->samples, r->o.pids, r->o.npids, r->o.system_wide);
	if (r->o.call_graph)
		sdt_rec_maps_synthesize(&r->samples, r->o.pids, r->o.npids, r->o.system_wide);
	r->armed_ns = sdt_mono_ns();
	sdt_debug("armed: every probe placed and enabled%s\n",
		  has_command(r) ? " (the command's at its exec)" : "");
	if (r->sink->on_armed)
		r->sink->on_armed(r->sink->ctx);
	if (r->stop)
		return 0; /* asked to stop while arming: the command never runs */
	if (has_command(r)) {
		/* following, the semaphores are poked at the exec stop (recorder_follow.c) */
		err = sdt_rec_child_release(&r->child, sp->poke && !r->late.on ? r->set : NULL);
		if (err)
			return err;
	}
	*go = true;
	return 0;
}

/*
 * Stage 5: the recording, then with every event disabled, the last of the rings (and the
 * losses never reported) or the counters, and the sink's last drain before the slow teardown.
 */
static int record(struct sdt_recorder *r, const struct sdt_ring_ops *ops)
{
	int err;

	err = loop(r, ops);
	r->ended_ns = sdt_mono_ns();
	/* while the probes are still armed and the semaphores raised: see recorder_silence.c */
	if (!err)
		err = sdt_rec_facts_gather(r);
	sdt_rec_perf_disable(&r->perf);
	if (!err)
		err = sdt_rec_perf_drain(&r->perf, ops);
	if (!err && !r->counting)
		err = sdt_rec_perf_account_losses(&r->perf, ops);
	if (!err && r->counting)
		err = sdt_rec_perf_read_counts(&r->perf, r->sets, r->samples.counts,
					       r->samples.nevents);
	/* Before the teardown, which the kernel makes slow (a grace period per event). */
	if (!err && r->sink->on_drained)
		r->sink->on_drained(r->sink->ctx);
	return err;
}

/*
 * Stage 6, on every path: events closed, semaphores restored, uprobes removed, the command
 * ended and reaped, the signals given back. Returns @err, or the removal's error; the message
 * is the first error's.
 */
static int teardown(struct sdt_recorder *r, int err)
{
	char msg[1024];
	size_t i;
	int e2;

	if (err)
		snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
	/* the command and its children go on untraced */
	sdt_rec_follow_end(r);
	sdt_rec_forks_release(r);
	sdt_rec_perf_close(&r->perf);
	if (r->set)
		sdt_uprobe_set__unpoke(r->set);
	for (i = 0; i < r->nsets; i++) {
		e2 = sdt_uprobe_set__remove(r->sets[i].set);
		if (e2 && !err) {
			err = e2;
			snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
		}
	}
	if (!r->nsets && r->set) {
		e2 = sdt_uprobe_set__remove(r->set);
		if (e2 && !err) {
			err = e2;
			snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
		}
	}
	sdt_rec_child_end(&r->child, err || r->stop);
	sdt_rec_targets_close(&r->targets);
	if (r->epfd >= 0) {
		close(r->epfd);
		r->epfd = -1;
	}
	sdt_rec_signals_restore(r);
	r->running = false;
	if (err)
		sdt_err(err, "%s", msg);
	return err;
}

int sdt_recorder__run(struct sdt_recorder *r, const struct sdt_recorder_sink *sink)
{
	static const struct sdt_recorder_sink no_sink;
	struct sdt_ring_ops ops = sdt_rec_samples_ops(&r->samples);
	struct sem_plan sp = {0};
	bool go = false;
	int err;

	r->sink = sink ? sink : &no_sink;
	sdt_rec_atexit_register();
	if (sdt_rec_running())
		return sdt_err(-EBUSY, "another recording is running in this process");
	if (!r->nadds && (r->o.no_follow || !r->o.on_file))
		return sdt_err(-ENOENT, "nothing to record: no probe sites given");
	if (r->o.call_graph == SDT_CALL_GRAPH_DWARF && !SDT_PERF_REGS_USER)
		return sdt_err(-ENOTSUP, "--call-graph=dwarf is recorded on x86-64 only: use fp "
					 "(the program needs frame pointers)");
	if (r->o.stack_user_bytes &&
	    (r->o.stack_user_bytes % 8 || r->o.stack_user_bytes > SDT_STACK_USER_MAX))
		return sdt_err(-EINVAL, "stack_user_bytes %u: a multiple of 8 up to %u expected",
			       r->o.stack_user_bytes, SDT_STACK_USER_MAX);
	if (sdt_rec_engine_is_bpf(r))
		return sdt_rec_bpf_run(r, r->sink);
	if (r->o.agg_for)
		return sdt_err(-ENOTSUP, "aggregation in the kernel (--by, --latency) needs the BPF "
					 "engine: the tracefs engine has no per-thread pairing or "
					 "string keys in the kernel (record, then report --by or "
					 "--latency, works with either)");
	err = plan_semaphores(r, &sp);
	if (err)
		return err;
	sdt_rec_signals_install(r);
	r->running = true;
	err = build_set(r, &sp);
	if (!err)
		err = start_targets(r, &sp);
	if (!err)
		err = create_probes(r);
	if (!err)
		err = open_events(r);
	if (!err)
		err = arm(r, &sp, &go);
	if (!err && go)
		err = record(r, &ops);
	return teardown(r, err);
}
