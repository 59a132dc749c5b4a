/* SPDX-License-Identifier: MIT */
/*
 * sdt_recorder__run(): the stages of a recording (recorder.h) and the loop that reads the rings.
 *
 * The reader sleeps in epoll until a ring passes its watermark (a quarter of the ring), a target
 * exits, a signal or the duration ends; between wake-ups the rings are drained on a clock too.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "record/perf_event.h"
#include "record/recorder.h"
#include "record/ring.h"
#include "record/tracefs.h"
#include "record/uprobe.h"
#include "util/internal.h"

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int loop(struct sdt_recorder *r, const struct sdt_ring_ops *ops)
{
	uint64_t deadline = r->o.duration_ms ? now_ms() + r->o.duration_ms : 0;
	uint64_t tick = r->o.drain_interval_ms ? r->o.drain_interval_ms : 100;
	uint64_t next_drain = now_ms() + tick;
	struct epoll_event evs[64];
	int n, i, err;

	while (!r->stop) {
		uint64_t now = now_ms(), until = next_drain;
		int timeout;

		if (deadline && now >= deadline)
			break;
		/* Below the watermark the rings would not wake us: drain them on a clock too. */
		if (now >= next_drain) {
			if (!r->counting) {
				err = sdt_rec_perf_drain(&r->perf, ops);
				if (err < 0)
					return err;
			}
			if (r->sink->on_drained)
				r->sink->on_drained(r->sink->ctx);
			next_drain = now + tick;
			until = next_drain;
		}
		if (deadline && deadline < until)
			until = deadline;
		timeout = (int)(until - now);
		n = epoll_pwait(r->epfd, evs, (int)ARRAY_SIZE(evs), timeout, &r->sig.oldmask);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sdt_err(-errno, "epoll_wait: %s", strerror(errno));
		for (i = 0; i < n; i++) {
			uint64_t tag = evs[i].data.u64;

			if (tag < PID_TAG) {
				if (r->counting || tag >= r->perf.nrings)
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
		if (sdt_rec_targets_all_exited(&r->targets))
			break;
	}
	return 0;
}

int sdt_recorder__run(struct sdt_recorder *r, const struct sdt_record_sink *sink)
{
	static const struct sdt_record_sink no_sink;
	struct sdt_ring_ops ops = sdt_rec_samples_ops(&r->samples);
	bool poke = false, cmd = r->o.argv && r->o.argv[0];
	char msg[1024];
	size_t i;
	int err, ref;

	r->sink = sink ? sink : &no_sink;
	sdt_rec_atexit_register();
	if (sdt_rec_running())
		return sdt_err(-EBUSY, "another recording is running in this process");
	if (!r->nadds)
		return sdt_err(-ENOENT, "nothing to record: no probe sites given");

	ref = sdt_tracefs_has_ref_ctr();
	if (ref < 0)
		return ref;
	switch (r->o.semaphore) {
	case SDT_SEMAPHORE_REFCTR:
		if (!ref)
			return sdt_err(-EOPNOTSUPP, "this kernel's uprobes do not take "
						    "ref_ctr_offset (tracefs README): use the poke "
						    "method for semaphores");
		break;
	case SDT_SEMAPHORE_POKE:
		ref = 0;
		poke = true;
		break;
	default:
		poke = !ref && !r->o.system_wide;
		break;
	}

	sdt_rec_signals_install(r);
	{
		struct sdt_uprobe_set_opts so = {
		    .use_ref_ctr = ref > 0, .no_args = r->o.count_only, .share = !r->o.count_only};

		err = sdt_uprobe_set__new(&so, &r->set);
		if (err)
			goto out;
	}
	for (i = 0; i < r->nadds; i++) {
		err = sdt_uprobe_set__add_typed(r->set, r->adds[i].f, r->adds[i].sites,
						r->adds[i].n, r->adds[i].types);
		if (err)
			goto out;
	}
	r->counting = r->o.count_only;
	if (r->counting && sdt_uprobe_set__event_count(r->set) > COUNTERS_MAX_EVENTS) {
		err = sdt_uprobe_set__share(r->set);
		if (err)
			goto out;
		r->counting = false;
	}
	r->sem_method = !sdt_uprobe_set__semaphore_count(r->set) ? "none"
			: ref > 0				 ? "refctr"
			: poke					 ? "poke"
								 : "none";
	r->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (r->epfd < 0) {
		err = sdt_err(-errno, "epoll_create1: %s", strerror(errno));
		goto out;
	}
	if (cmd) {
		err = sdt_rec_child_start(&r->child, r->o.argv, &r->sig, poke);
		if (err)
			goto out;
		err = sdt_rec_targets_add_tid(&r->targets, r->child.pid);
	} else if (r->o.npids) {
		for (i = 0; i < r->o.npids && !err; i++)
			err = sdt_rec_targets_add_process(&r->targets, r->o.pids[i]);
	} else {
		err = sdt_rec_targets_add_tid(&r->targets, -1);
	}
	if (err)
		goto out;

	/* Stage 2: the uprobes. From here on, every path removes them. */
	err = sdt_uprobe_set__create(r->set);
	if (err)
		goto out;
	err = sdt_rec_samples_init(&r->samples, r->set, r->sink);
	if (err)
		goto out;

	{
		struct perf_plan plan = {
		    .set = r->set,
		    .targets = &r->targets,
		    .counting = r->counting,
		    .inherit = !r->o.system_wide,
		    .enable_on_exec = r->child.pid > 0,
		    .skip_gone = r->o.npids > 0,
		    .ring_pages = r->o.ring_pages,
		    .epfd = r->epfd,
		};

		err = sdt_rec_perf_open(&r->perf, &plan);
	}
	if (err)
		goto out;
	for (i = 0; i < r->samples.nevents && r->sink->on_event_desc; i++) {
		err = r->sink->on_event_desc(r->sink->ctx, sdt_uprobe_set__event(r->set, i));
		if (err < 0)
			goto out;
	}
	if (!cmd) {
		err = sdt_rec_perf_enable(&r->perf);
		if (err)
			goto out;
		for (i = 0; poke && i < r->o.npids; i++) {
			err = sdt_uprobe_set__poke(r->set, r->o.pids[i]);
			if (err < 0)
				goto out;
		}
		for (i = 0; i < r->o.npids; i++) {
			err = sdt_rec_targets_watch(&r->targets, r->epfd, r->o.pids[i]);
			if (err)
				goto out;
		}
	} else {
		err = sdt_rec_targets_watch(&r->targets, r->epfd, r->child.pid);
		if (err)
			goto out;
	}
	sdt_rec_comms_synthesize(&r->samples, r->o.pids, r->o.npids, r->o.system_wide);
	if (r->sink->on_armed)
		r->sink->on_armed(r->sink->ctx);
	if (r->stop)
		goto out; /* asked to stop while arming: the command never runs */
	if (cmd) {
		err = sdt_rec_child_release(&r->child, poke ? r->set : NULL);
		if (err)
			goto out;
	}

	err = loop(r, &ops);
	sdt_rec_perf_disable(&r->perf);
	if (!err && !r->counting)
		err = sdt_rec_perf_drain(&r->perf, &ops);
	if (!err && !r->counting)
		err = sdt_rec_perf_account_losses(&r->perf, &ops);
	if (!err && r->counting)
		err = sdt_rec_perf_read_counts(&r->perf, r->set, r->samples.counts,
					       r->samples.nevents);
	/* Before the teardown, which the kernel makes slow (a grace period per event). */
	if (!err && r->sink->on_drained)
		r->sink->on_drained(r->sink->ctx);
out:
	if (err)
		snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
	sdt_rec_perf_close(&r->perf);
	if (r->set) {
		int e2;

		sdt_uprobe_set__unpoke(r->set);
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
	if (err)
		sdt_err(err, "%s", msg);
	return err;
}
