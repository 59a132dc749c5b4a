/* SPDX-License-Identifier: MIT */
/*
 * The BPF engine's run: the stages of recorder.h with lib/bpf/ in place of tracefs and perf.
 *	0. the events and plans (engine_bpf_build.c)
 *	1. the program loaded, its maps sized; the plans written
 *	2. the targets: the command started stopped, or the -p processes, followed by tgid (and
 *	   their children, by the program on sched_process_fork); -a follows everything.
 *	   Following files too (unless no_follow): the command traced (recorder_follow.c: its exec
 *	   stops) and a watch event per CPU x target (recorder_perf.c: MMAP2 records), as the
 *	   tracefs engine does; a file met is armed by arm_late() (r->late.arm, from
 *	   recorder_late.c). The same watch events bring the mappings of record -g (following or
 *	   not)
 *	3. one link per binary (uprobe_multi, semaphores through its ref_ctr offsets), else a
 *	   perf-event uprobe per site; the sink gets the descriptions
 *	4. armed: exits watched, names of the threads there now, the command released
 *	5. the rings read until the end (records -> the sink, as recorder_samples.c does for perf;
 *	   the watch rings first: their mappings -> recorder_late.c, which arms new files (new
 *	   plans, a link), and with -g -> the sink, before the samples that need them)
 *	6. links closed (the late files' too), a last drain, the losses and counters read,
 *	   everything freed; on every path
 * Every kernel object is a file descriptor: a SIGKILL leaves nothing behind.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "bpf/sdt_bpf.h"
#include "scan/file.h"
#include "record/bpf/engine.h"
#include "record/perf_event.h"
#include "record/recorder.h"
#include "record/ring.h"
#include "trace/trace_event.h"
#include "util/internal.h"

static uint64_t now_ms(void)
{
	return sdt_mono_ns() / 1000000u;
}

static double now_us(void)
{
	return (double)sdt_mono_ns() / 1e3;
}

static int on_rec(void *ctx, const struct sdt_bpf_rec *h, const void *raw)
{
	struct sdt_recorder *r = ctx;
	struct rec_samples *sp = &r->samples;
	struct sdt_trace_sample s;

	if (h->type == SDT_BPF_REC_COMM) {
		char comm[17];

		memcpy(comm, raw, 16);
		comm[16] = '\0';
		sdt_rec_on_comm(sp, h->pid, h->tid, comm);
		return 0;
	}
	if (h->type != SDT_BPF_REC_SAMPLE || h->event >= sp->nevents)
		return 0;
	s = (struct sdt_trace_sample){.time_ns = h->time_ns,
				      .cpu = h->cpu,
				      .pid = h->pid,
				      .tid = h->tid,
				      .event = h->event,
				      .raw = raw,
				      .raw_size = h->raw_size};
	if (h->nips) {
		/* the stack after the raw bytes, at an 8-byte boundary of the record (plan.h) */
		size_t at = ((sizeof(*h) + h->raw_size + 7) & ~(size_t)7) - sizeof(*h);

		s.callchain = (const uint64_t *)((const uint8_t *)raw + at);
		s.callchain_nr = h->nips;
	} else if (h->nregs) {
		/*
		 * dwarf: the registers (perf's order, mask 0xff01ff) and the stack bytes after the
		 * raw bytes, as the tracefs engine's ring.c hands them over (plan.h)
		 */
		size_t at = ((sizeof(*h) + h->raw_size + 7) & ~(size_t)7) - sizeof(*h);

		s.user_regs = (const uint64_t *)((const uint8_t *)raw + at);
		s.user_regs_mask = SDT_PERF_REGS_USER;
		s.user_machine = 62; /* EM_X86_64 */
		s.user_stack = (const uint8_t *)raw + at + (size_t)h->nregs * 8;
		s.user_stack_size = h->ustack;
	}
	if (!sdt_rec_filters_pass(sp, h->event, &s))
		return 0;
	sp->counts[h->event]++;
	return sp->sink->on_sample ? sp->sink->on_sample(sp->sink->ctx, &s) : 0;
}

/*
 * The watch rings first: a file is mapped before its code hits a probe, so its MAPPING record
 * (-g) comes before the samples that need it (the reader symbolizes with what it read so far).
 */
static int drain(struct sdt_recorder *r, const struct sdt_ring_ops *ops)
{
	int err = sdt_rec_perf_drain(&r->perf, ops);
	long n;

	if (err)
		return err;
	n = sdt_bpf__drain(r->bpf->bpf, on_rec, r);
	return n < 0 ? (int)n : 0;
}

/* Counting: the per-CPU counters added up into the recorder's counts (as tracefs's reads). */
static int read_counts(struct sdt_recorder *r)
{
	size_t i;
	int err = 0;

	for (i = 0; !err && i < r->bpf->nevents; i++)
		err = sdt_bpf__count(r->bpf->bpf, (uint32_t)i, &r->samples.counts[i]);
	return err;
}

/* Read the rings until a stop, the duration, or the targets' exit (recorder_run.c's loop). */
static int loop(struct sdt_recorder *r, const struct sdt_ring_ops *ops)
{
	uint64_t deadline = r->o.duration_ms ? now_ms() + r->o.duration_ms : 0;
	uint64_t tick = r->o.drain_interval_ms ? r->o.drain_interval_ms : 100;
	uint64_t next_drain = now_ms() + tick;
	struct epoll_event evs[64];
	int n, i, err;

	while (!r->stop) {
		uint64_t now = now_ms(), until = next_drain;

		if (deadline && now >= deadline)
			break;
		if (now >= next_drain) {
			err = drain(r, ops);
			/* live counts for the sink (stat --interval, --serve, top) */
			if (!err && r->o.count_only && r->sink->on_drained)
				err = read_counts(r);
			if (err < 0)
				return err;
			if (r->sink->on_drained)
				r->sink->on_drained(r->sink->ctx);
			next_drain = now + tick;
			until = next_drain;
		}
		if (deadline && deadline < until)
			until = deadline;
		n = epoll_pwait(r->epfd, evs, (int)ARRAY_SIZE(evs), (int)(until - now),
				&r->sig.waitmask);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sdt_err(-errno, "epoll_wait: %s", strerror(errno));
		for (i = 0; i < n; i++) {
			uint64_t tag = evs[i].data.u64;

			err = 0;
			if (tag == BPF_RING_TAG) {
				err = drain(r, ops);
			} else if (tag == FOLLOW_TAG) {
				err = sdt_rec_follow_wakeup(r);
			} else if (tag < PID_TAG) {
				/* the watch rings: mappings queued for sdt_rec_late_pending() */
				err = sdt_rec_perf_drain(&r->perf, ops);
			} else if (sdt_rec_targets_exited(&r->targets, r->epfd, tag - PID_TAG) ==
				   r->child.pid) {
				sdt_rec_child_reap(&r->child, true);
			}
			if (err < 0)
				return err;
		}
		/* the files met: armed now, out of the drain */
		err = sdt_rec_late_pending(r);
		if (err < 0)
			return err;
		if (sdt_rec_targets_all_exited(&r->targets))
			break;
	}
	return 0;
}

/*
 * One set of watch events serves both: following (the files met, armed late) and record -g
 * (the mappings the report symbolizes with), as under tracefs.
 */
static bool watching(const struct sdt_recorder *r)
{
	return r->late.on || r->o.call_graph;
}

/*
 * The recorder's watch events (recorder_perf.c), the tracefs engine's discovery of the files
 * mapped (MMAP2; FORK too: a forked process's inherited mappings, recorder_maps.c), in rings of
 * their own (tags below PID_TAG); no uprobe event, no fork guard.
 */
static int open_watch(struct sdt_recorder *r)
{
	struct perf_plan plan = {
	    .targets = &r->targets,
	    .inherit = !r->o.system_wide,
	    .enable_on_exec = r->child.pid > 0,
	    .skip_gone = r->o.npids > 0,
	    .watch = true,
	    .watch_only = true,
	    .epfd = r->epfd,
	};

	if (!watching(r))
		return 0;
	r->samples.r = r;
	r->samples.sets = (const struct rec_set *const *)&r->sets;
	return sdt_rec_perf_open(&r->perf, &plan);
}

/* Stage 1 and 2: loaded, plans written, targets started and followed. */
static int load_and_start(struct sdt_recorder *r)
{
	struct rec_bpf *b = r->bpf;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), i;
	size_t late_sites = r->late.on ? SDT_BPF_LATE_SITES : 0;
	size_t late_events = r->late.on ? SDT_BPF_LATE_EVENTS : 0;
	struct sdt_bpf_opts bo = {
	    .nsites = b->nsites + late_sites,
	    .nevents = b->nevents + late_events,
	    .count_only = r->o.count_only,
	    .filter = !r->o.system_wide,
	    .ring_bytes = r->o.ring_pages * page,
	    .agg = b->agg.ev != NULL,
	    .count_key = b->agg.count_key,
	    .lat_key = b->agg.lat_key,
	    .start_key = b->agg.start_key,
	    .max_keys = r->o.agg_max_keys,
	    .filters = b->any_filter,
	    .max_stack = r->o.call_graph == SDT_CALL_GRAPH_FP
			     ? (r->o.max_stack ? r->o.max_stack : 127)
			     : 0,
	    .stack_user = r->o.call_graph == SDT_CALL_GRAPH_DWARF
			      ? (r->o.stack_user_bytes ? r->o.stack_user_bytes
						       : SDT_STACK_USER_DEFAULT)
			      : 0,
	};
	double t0 = now_us();
	int err;

	err = sdt_bpf__open(&bo, &b->bpf);
	for (i = 0; !err && i < b->nsites; i++)
		err = sdt_bpf__set_site(b->bpf, (uint32_t)i, &b->sites[i]);
	for (i = 0; !err && b->any_filter && i < b->nevents; i++)
		if (b->filters[i].n)
			err = sdt_bpf__set_filter(b->bpf, (uint32_t)i, &b->filters[i]);
	if (err)
		return err;
	b->sites_max = bo.nsites;
	b->events_max = bo.nevents;
	sdt_debug("bpf: program loaded, %zu site plans and %zu events (room for %zu and %zu) in "
		  "%.3f ms\n", b->nsites, b->nevents, b->sites_max, b->events_max,
		  (now_us() - t0) / 1e3);
	r->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (r->epfd < 0)
		return sdt_err(-errno, "epoll_create1: %s", strerror(errno));
	if (sdt_bpf__epoll_fd(b->bpf) >= 0) {
		struct epoll_event ev = {.events = EPOLLIN, .data.u64 = BPF_RING_TAG};

		if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, sdt_bpf__epoll_fd(b->bpf), &ev))
			return sdt_err(-errno, "epoll_ctl: %s", strerror(errno));
	}
	if (r->o.argv && r->o.argv[0]) {
		err = sdt_rec_child_start(&r->child, r->o.argv, &r->sig, false);
		if (!err && r->late.on)
			err = sdt_rec_follow_start(r);
		if (!err)
			err = sdt_bpf__follow(b->bpf, r->child.pid);
		if (!err && watching(r))
			err = sdt_rec_targets_add_tid(&r->targets, r->child.pid);
	} else {
		for (i = 0; !err && i < r->o.npids; i++) {
			err = sdt_bpf__follow(b->bpf, r->o.pids[i]);
			if (!err && watching(r))
				err = sdt_rec_targets_add_process(&r->targets, r->o.pids[i]);
		}
		if (!err && watching(r) && !r->o.npids)
			err = sdt_rec_targets_add_tid(&r->targets, -1);
	}
	if (!err)
		err = open_watch(r);
	return err;
}

/*
 * Stage 3: one link per binary: the sites of each path from @first on (those linked before
 * are not looked at again), with semaphores and cookies.
 */
static int attach(struct sdt_recorder *r, size_t first)
{
	struct rec_bpf *b = r->bpf;
	uint64_t *off = NULL, *ref = NULL, *cookie = NULL;
	size_t p, k, n;
	double t0;
	int err = 0;

	off = calloc(b->nsites ? b->nsites : 1, sizeof(*off));
	ref = calloc(b->nsites ? b->nsites : 1, sizeof(*ref));
	cookie = calloc(b->nsites ? b->nsites : 1, sizeof(*cookie));
	if (!off || !ref || !cookie) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto out;
	}
	for (p = first; !err && p < b->npaths; p++) {
		bool first_of = true;

		/* the same binary added twice (two specs) is one link all the same */
		for (k = first; k < p && first_of; k++)
			first_of = strcmp(b->paths[k], b->paths[p]) != 0;
		if (!first_of)
			continue;
		for (k = 0, n = 0; k < b->nsites; k++) {
			const struct sdt_site *st = &b->site_of[k].f->sites[b->site_of[k].site];

			if (b->site_of[k].path < first ||
			    strcmp(b->paths[b->site_of[k].path], b->paths[p]))
				continue;
			off[n] = st->file_offset;
			/* a semaphore whose file offset is unknown is not raised (as tracefs) */
			ref[n] = st->semaphore && st->has_semaphore_offset ? st->semaphore_offset : 0;
			cookie[n] = k;
			n++;
		}
		t0 = now_us();
		err = sdt_bpf__attach(b->bpf, b->paths[p], off, ref, cookie, n);
		if (!err)
			sdt_debug("bpf: attached %zu sites of %s (%s) in %.3f ms\n", n, b->paths[p],
				  sdt_bpf__attach_method(b->bpf), (now_us() - t0) / 1e3);
	}
	b->npaths_linked = b->npaths;
	r->sem_method = "none";
	for (k = 0; !err && k < b->nsites; k++)
		if (b->site_of[k].f->sites[b->site_of[k].site].semaphore)
			r->sem_method = "refctr";
out:
	free(off);
	free(ref);
	free(cookie);
	return err;
}

/*
 * r->late.arm: adds [@first, nadds) came from opts.on_file during the run: their sites planned
 * and linked now (one uprobe_multi link per file, semaphores through ref_ctr offsets), their
 * events told to the sink, a rec_set of their own (->set NULL) appended. 0 or -errno with the
 * message (the maps full: their headroom, SDT_BPF_LATE_SITES and SDT_BPF_LATE_EVENTS, used up).
 */
static int arm_late(struct sdt_recorder *r, size_t first)
{
	struct rec_bpf *b = r->bpf;
	size_t ev0 = b->nevents, site0 = b->nsites, path0 = b->npaths, cap = r->sets_cap, i;
	uint64_t *counts;
	struct rec_set *rs;
	int err;

	if (b->agg.ev)
		return sdt_err(-ENOTSUP, "aggregation in the kernel is not applied to files armed "
					 "during the run yet (name the file with -x to arm it at the "
					 "start)");
	if (sdt_grow((void **)&r->sets, &cap, r->nsets + 1, sizeof(*r->sets)))
		return sdt_err(-ENOMEM, "out of memory");
	r->sets_cap = cap;
	err = sdt_rec_bpf_add(b, r, first);
	if (err)
		return err;
	counts = sdt_reallocarray(r->samples.counts, b->nevents ? b->nevents : 1, sizeof(*counts));
	if (!counts)
		return sdt_err(-ENOMEM, "out of memory");
	r->samples.counts = counts;
	for (i = ev0; i < b->nevents; i++)
		counts[i] = 0;
	r->samples.nevents = b->nevents;
	/* the plans before the link: a hit may come as soon as it exists */
	for (i = site0; !err && i < b->nsites; i++)
		err = sdt_bpf__set_site(b->bpf, (uint32_t)i, &b->sites[i]);
	/* the sink knows the events before their first record (read after this returns) */
	for (i = ev0; !err && i < b->nevents && r->sink->on_event_desc; i++) {
		err = r->sink->on_event_desc(r->sink->ctx, &b->events[i]);
		if (err > 0)
			err = 0;
	}
	if (err)
		return err;
	rs = &r->sets[r->nsets++];
	memset(rs, 0, sizeof(*rs));
	rs->base = (uint32_t)ev0;
	rs->nevents = b->nevents - ev0;
	rs->system_wide = r->o.system_wide;
	/* a file that cannot be linked keeps its events (no hit): the caller says why */
	return attach(r, path0);
}

/* Stage 4: the sink told, exits watched, names synthesized, the command released. */
static int arm(struct sdt_recorder *r, bool *go)
{
	struct rec_bpf *b = r->bpf;
	size_t i;
	int err = 0;

	*go = false;
	for (i = 0; i < b->nevents && r->sink->on_event_desc; i++) {
		err = r->sink->on_event_desc(r->sink->ctx, &b->events[i]);
		if (err < 0)
			return err;
	}
	if (r->child.pid > 0)
		err = sdt_rec_targets_watch(&r->targets, r->epfd, r->child.pid);
	else /* the watch events (a command's start at its exec) */
		err = sdt_rec_perf_enable(&r->perf);
	for (i = 0; !err && i < r->o.npids; i++)
		err = sdt_rec_targets_watch(&r->targets, r->epfd, r->o.pids[i]);
	if (err)
		return err;
	sdt_rec_comms_synthesize(&r->samples, r->o.pids, r->o.npids, r->o.system_wide);
	if (r->o.call_graph)
		sdt_rec_maps_synthesize(&r->samples, r->o.pids, r->o.npids, r->o.system_wide);
	r->armed_ns = sdt_mono_ns(); /* the recording's time (sdt_recorder__elapsed_ns) */
	sdt_debug("armed: every probe placed and enabled%s\n",
		  r->child.pid > 0 ? " (the command's at its exec)" : "");
	if (r->sink->on_armed)
		r->sink->on_armed(r->sink->ctx);
	if (r->stop)
		return 0;
	if (r->child.pid > 0) {
		err = sdt_rec_child_release(&r->child, NULL);
		if (err)
			return err;
	}
	*go = true;
	return 0;
}

/* Stage 5's end: no more hits, the last records, the losses per CPU, the counters. */
static int finish(struct sdt_recorder *r, const struct sdt_ring_ops *ops)
{
	struct rec_bpf *b = r->bpf;
	uint64_t *lost = NULL;
	size_t ncpus = 0, i;
	double t0;
	int err;

	r->ended_ns = sdt_mono_ns();
	/* while the targets are still there: which of them map each file (recorder_silence.c) */
	err = sdt_rec_facts_gather(r);
	if (err)
		return err;
	t0 = now_us();
	sdt_bpf__detach(b->bpf);
	sdt_debug("bpf: detached in %.3f ms\n", (now_us() - t0) / 1e3);
	err = drain(r, ops);
	if (!err && !r->o.count_only && !b->agg.ev) {
		uint64_t fast, bpf;

		sdt_bpf__ring_counts(b->bpf, &fast, &bpf);
		sdt_debug("bpf: %" PRIu64 " records through the fast rings, %" PRIu64
			  " through the BPF ring buffers\n",
			  fast, bpf);
	}
	if (!err && !r->o.count_only)
		err = sdt_bpf__lost(b->bpf, &lost, &ncpus);
	for (i = 0; !err && i < ncpus; i++) {
		if (!lost[i])
			continue;
		r->samples.lost += lost[i];
		if (r->sink->on_lost)
			r->sink->on_lost(r->sink->ctx, (uint32_t)i, lost[i]);
	}
	free(lost);
	if (!err && r->o.count_only)
		err = read_counts(r);
	if (!err && b->agg.ev)
		err = sdt_rec_bpf_agg_read(b);
	if (!err && r->sink->on_drained)
		r->sink->on_drained(r->sink->ctx);
	return err;
}

static int teardown(struct sdt_recorder *r, int err)
{
	char msg[1024];

	if (err)
		snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
	/* the command and its children go on untraced */
	sdt_rec_follow_end(r);
	/* every link, the late files' too */
	if (r->bpf) {
		sdt_bpf__free(r->bpf->bpf);
		r->bpf->bpf = NULL;
	}
	sdt_rec_perf_close(&r->perf);
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

/* Filter @f of event @ev in the program (rec_filter_engine.in_kernel). */
static int filter_in_program(void *ctx, size_t ev, const struct sdt_filter *f,
			     const struct sdt_trace_event_desc *d)
{
	struct rec_bpf *b = ctx;
	int err;

	if (!b->filters && !(b->filters = calloc(b->nevents, sizeof(*b->filters))))
		return sdt_err(-ENOMEM, "out of memory");
	err = sdt_rec_bpf_filter_compile(f, d, &b->filters[ev]);
	if (err) {
		memset(&b->filters[ev], 0, sizeof(b->filters[ev]));
		return err;
	}
	b->any_filter = true;
	sdt_debug("bpf: %%%s:%s: the filter '%s' in the program (%u steps)\n", d->provider, d->name,
		  sdt_filter__text(f), b->filters[ev].n);
	return 0;
}

/*
 * Every event's filter into the program where it can go. Counting (@want_count: plain stat),
 * the hits cross the ring buffers only when some filter must run here; aggregating, none can.
 */
static int filters_plan(struct sdt_recorder *r, bool want_count)
{
	struct rec_filter_engine eng = {
	    .in_kernel = filter_in_program,
	    .ctx = r->bpf,
	    .no_user = r->o.agg_for ? "aggregation in the kernel sees no event to evaluate it "
				      "on: record with the filter, then report --by or --latency"
				    : NULL,
	};
	size_t i;
	int err;

	err = sdt_rec_filters_apply_here(r, r->bpf->events, r->bpf->nevents, &eng);
	if (err || !want_count)
		return err;
	for (i = 0; i < r->filters.nevents; i++)
		if (r->filters.place[i] == SDT_FILTER_USER)
			return 0;
	r->o.count_only = true;
	return 0;
}

static int run(struct sdt_recorder *r, const struct sdt_recorder_sink *sink, bool want_count)
{
	struct sdt_ring_ops ops = sdt_rec_samples_ops(&r->samples);
	bool go = false;
	int err;

	r->bpf = calloc(1, sizeof(*r->bpf));
	if (!r->bpf)
		return sdt_err(-ENOMEM, "out of memory");
	err = sdt_rec_bpf_build(r->bpf, r);
	if (!err)
		err = filters_plan(r, want_count);
	if (!err && r->o.agg_for)
		err = sdt_rec_bpf_agg_plan(r->bpf, r);
	if (err)
		return err;
	/* one set for the start's events (no uprobe set: rec_set), then one per file met */
	r->sets = calloc(1, sizeof(*r->sets));
	if (!r->sets)
		return sdt_err(-ENOMEM, "out of memory");
	r->sets_cap = r->nsets = 1;
	r->sets[0].nevents = r->bpf->nevents;
	err = sdt_rec_late_init(r);
	if (err)
		return err;
	r->late.arm = arm_late;
	r->samples.sink = sink;
	r->samples.nevents = r->bpf->nevents;
	r->samples.counts = calloc(r->bpf->nevents ? r->bpf->nevents : 1, sizeof(uint64_t));
	if (!r->samples.counts)
		return sdt_err(-ENOMEM, "out of memory");
	sdt_rec_signals_install(r);
	err = load_and_start(r);
	if (!err)
		err = attach(r, 0);
	if (!err)
		err = arm(r, &go);
	if (!err && go)
		err = loop(r, &ops);
	if (!err && go)
		err = finish(r, &ops);
	return teardown(r, err);
}

int sdt_rec_bpf_run(struct sdt_recorder *r, const struct sdt_recorder_sink *sink)
{
	bool count_only = r->o.count_only;
	int err;

	/*
	 * Counting with a filter, the sites are planned with their arguments, which the filter
	 * reads; counting stays in the kernel unless a filter must run here (filters_plan()), and
	 * then the hits cross the ring buffers to be evaluated and counted here (as the tracefs
	 * engine does past its counters).
	 */
	if (count_only && r->o.filter_for && !r->o.agg_for)
		r->o.count_only = false;
	/* aggregating counts too: no rings, the counters read at the end */
	if (r->o.agg_for)
		r->o.count_only = true;
	err = run(r, sink, count_only && r->o.filter_for && !r->o.agg_for);
	r->o.count_only = count_only;
	return err;
}
