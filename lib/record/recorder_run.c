/* SPDX-License-Identifier: MIT */
/*
 * sdt_recorder__run(): the stages of a recording (recorder.h), for every engine (engine.h), and
 * the one loop that reads the rings.
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
#include "util/internal.h"

/* A command to start (the other targets: -p processes, or the whole system)? */
static bool has_command(const struct sdt_recorder *r)
{
	return r->o.argv && r->o.argv[0];
}

static uint64_t now_ms(void)
{
	return sdt_mono_ns() / 1000000u;
}

/*
 * Every ring: the perf rings first (the watch rings' mappings come before the samples that need
 * them), then the engine's own. 0 or -errno.
 */
static int drain(struct sdt_recorder *r, const struct sdt_ring_ops *ops)
{
	int err = sdt_rec_perf_drain(&r->perf, ops);

	if (!err && r->eng->drain)
		err = r->eng->drain(r, ops);
	return err;
}

/* What epoll_pwait() returned: drain the rings, or note that a target exited. 0 or -errno. */
static int on_wakeups(struct sdt_recorder *r, const struct epoll_event *evs, int n,
		      const struct sdt_ring_ops *ops)
{
	int i, err;

	for (i = 0; i < n; i++) {
		uint64_t tag = evs[i].data.u64;

		err = 0;
		if (tag == WAKE_TAG) {
			sdt_rec_wake_read(r);
		} else if (tag == REC_ENGINE_TAG) {
			err = drain(r, ops);
		} else if (tag == FOLLOW_TAG) {
			err = sdt_rec_follow_wakeup(r);
		} else if (tag < PID_TAG) {
			/* all of them, merged in time order (ring.c) */
			if (tag < r->perf.nrings)
				err = sdt_rec_perf_drain(&r->perf, ops);
		} else if (sdt_rec_targets_exited(&r->targets, r->epfd, tag - PID_TAG) ==
			   r->child.pid) {
			sdt_rec_child_reap(&r->child, true);
		}
		if (err < 0)
			return err;
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
		if (now >= next_drain || r->drain_asked) {
			sdt_rec_wake_drain(r);
			/* the watch ring's records too, when counting and following */
			err = drain(r, ops);
			if (!err && r->counting && r->sink->on_drained)
				/* live counts for the sink (stat --interval, --serve, top) */
				err = r->eng->read_counts(r);
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

/*
 * Stage 1: the epoll set, what the engine needs before the targets, and the targets: the command
 * started stopped, the -p processes, or -1. The threads are kept when the engine's hits come
 * through perf events on them, or when watch events follow them (files met, -g's mappings).
 */
static int start_targets(struct sdt_recorder *r)
{
	const struct sdt_engine_ops *eng = r->eng;
	bool threads = eng->per_thread || r->late.on || r->o.call_graph;
	size_t i;
	int err = 0;

	r->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (r->epfd < 0)
		return sdt_err(-errno, "epoll_create1: %s", strerror(errno));
	err = sdt_rec_wake_watch(r);
	if (err)
		return err;
	if (eng->load && (err = eng->load(r)))
		return err;
	if (has_command(r)) {
		/* traced alone (no following) to be poked at its exec stop */
		err = sdt_rec_child_start(&r->child, r->o.argv, &r->sig,
					  r->late.sem_poke && !r->late.on);
		if (!err && r->late.on)
			err = sdt_rec_follow_start(r);
		if (!err && eng->follow)
			err = eng->follow(r, r->child.pid);
		if (!err && threads)
			err = sdt_rec_targets_add_tid(&r->targets, r->child.pid);
		return err;
	}
	for (i = 0; i < r->o.npids && !err; i++) {
		if (eng->follow)
			err = eng->follow(r, r->o.pids[i]);
		if (!err && threads)
			err = sdt_rec_targets_add_process(&r->targets, r->o.pids[i]);
	}
	if (!err && threads && !r->o.npids)
		err = sdt_rec_targets_add_tid(&r->targets, -1);
	return err;
}

/*
 * Stages 2 and 3: the probes in the kernel, the sample map, the hits routed to the rings; the
 * sink learns the events.
 */
static int place(struct sdt_recorder *r)
{
	size_t i;
	int err = 0;

	if (r->eng->create)
		err = r->eng->create(r);
	if (!err)
		err = sdt_rec_samples_init(&r->samples, r, r->sink);
	if (!err)
		err = r->eng->open(r);
	for (i = 0; !err && i < r->samples.nevents && r->sink->on_event_desc; i++) {
		err = r->sink->on_event_desc(r->sink->ctx, r->eng->event(r, i));
		if (err > 0)
			err = 0;
	}
	return err;
}

/* The engine's ->poke as the command's exec-stop callback. */
static int poke_child(void *ctx, pid_t pid)
{
	struct sdt_recorder *r = ctx;

	return r->eng->poke(r, pid);
}

/*
 * Stage 4: enabled (a command's events: by its exec), semaphores poked, exits watched, the
 * sink told; then the command released, unless a stop came meanwhile: *@go says whether the
 * recording goes on.
 */
static int arm(struct sdt_recorder *r, bool *go)
{
	bool poke = r->late.sem_poke && r->eng->poke;
	size_t i;
	int err;

	*go = false;
	if (has_command(r)) {
		err = sdt_rec_targets_watch(&r->targets, r->epfd, r->child.pid);
		if (err)
			return err;
	} else {
		err = sdt_rec_perf_enable(&r->perf);
		for (i = 0; !err && poke && i < r->o.npids; i++) {
			err = r->eng->poke(r, r->o.pids[i]);
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
		err = sdt_rec_child_release(&r->child, poke && !r->late.on ? poke_child : NULL, r);
		if (err)
			return err;
	}
	*go = true;
	return 0;
}

/*
 * Stage 5: the recording, then with every probe stopped, the last of the rings (and the
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
	if (r->eng->stop)
		r->eng->stop(r);
	sdt_rec_perf_disable(&r->perf);
	if (!err)
		err = drain(r, ops);
	if (!err && !r->counting && r->eng->losses)
		err = r->eng->losses(r, ops);
	if (!err && r->counting)
		err = r->eng->read_counts(r);
	if (!err && r->eng->finish)
		err = r->eng->finish(r);
	/* Before the teardown, which the kernel makes slow (a grace period per event). */
	if (!err && r->sink->on_drained)
		r->sink->on_drained(r->sink->ctx);
	return err;
}

/*
 * Stage 6, on every path: events closed, the engine's probes removed, the command ended and
 * reaped, the signals given back. Returns @err, or the removal's error; the message is the first
 * error's.
 */
static int teardown(struct sdt_recorder *r, int err)
{
	char msg[1024];
	int e2;

	if (err)
		snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
	/* the command and its children go on untraced */
	sdt_rec_follow_end(r);
	sdt_rec_forks_release(r);
	sdt_rec_perf_close(&r->perf);
	e2 = r->eng->teardown ? r->eng->teardown(r) : 0;
	if (e2 && !err) {
		err = e2;
		snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
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
	sdt_rec_engine(r);
	sdt_rec_signals_install(r);
	r->running = true;
	err = r->eng->build(r);
	if (!err)
		err = sdt_rec_late_init(r);
	if (!err)
		err = start_targets(r);
	if (!err)
		err = place(r);
	if (!err)
		err = arm(r, &go);
	if (!err && go)
		err = record(r, &ops);
	return teardown(r, err);
}
