/* SPDX-License-Identifier: MIT */
/*
 * The BPF engine's operations (engine.h): lib/bpf/ in place of tracefs and perf events.
 *	build    the events and plans (build.c), the filters into the program, aggregation
 *	load     the program loaded, its maps sized; the plans and filters written; its rings in
 *	         the recorder's epoll set
 *	follow   a target's tgid to the program (and its children, by the program on
 *	         sched_process_fork); -a follows everything
 *	open     the watch events when following files or with -g (recorder_perf.c: MMAP2
 *	         records, as under tracefs), then one link per binary (uprobe_multi,
 *	         semaphores through its ref_ctr offsets), else a perf-event uprobe per site
 *	drain    the program's rings (records -> the sink, as recorder_samples.c does for perf),
 *	         after the watch rings: a mapping comes before the samples that need it
 *	arm_late a file met during the run: its plans into the maps, a link of its own
 *	stop     links closed (the late files' too); then a last drain, the losses, the counters
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
		if (h->nregs) {
			/* the leaf's words after the ips: SP and the bytes at it (plan.h) */
			at += (size_t)h->nips * 8;
			s.user_regs = (const uint64_t *)((const uint8_t *)raw + at);
			s.user_regs_mask = SDT_PERF_REGS_LEAF;
			s.user_machine = 62; /* EM_X86_64 */
			s.user_stack = (const uint8_t *)raw + at + 8;
			s.user_stack_size = h->ustack;
		}
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

/* The program's rings: after the watch rings (r->perf), drained by the core first. */
static int bpf_drain(struct sdt_recorder *r, const struct sdt_ring_ops *ops)
{
	long n = sdt_bpf__drain(sdt_rec_bpf_of(r)->bpf, on_rec, r);

	(void)ops;
	return n < 0 ? (int)n : 0;
}

/* Counting: the per-CPU counters added up into the recorder's counts (as tracefs's reads). */
static int bpf_read_counts(struct sdt_recorder *r)
{
	struct rec_bpf *b = sdt_rec_bpf_of(r);
	size_t i;
	int err = 0;

	for (i = 0; !err && i < b->nevents; i++)
		err = sdt_bpf__count(b->bpf, (uint32_t)i, &r->samples.counts[i]);
	return err;
}

/*
 * One set of watch events serves both: following (the files met, armed late) and record -g
 * (the mappings the report symbolizes with), as under tracefs.
 */
static bool watching(const struct sdt_recorder *r)
{
	return r->late.on || r->o.call_graph;
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
	struct rec_bpf *b = sdt_rec_bpf_of(r);
	struct rec_filter_engine eng = {
	    .in_kernel = filter_in_program,
	    .ctx = b,
	    .no_user = r->o.agg_for ? "aggregation in the kernel sees no event to evaluate it "
				      "on: record with the filter, then report --by or --latency"
				    : NULL,
	};
	size_t i;
	int err;

	err = sdt_rec_filters_apply_here(r, b->events, b->nevents, &eng);
	if (err || !want_count)
		return err;
	for (i = 0; i < r->filters.nevents; i++)
		if (r->filters.place[i] == SDT_FILTER_USER)
			return 0;
	r->o.count_only = true;
	return 0;
}

/*
 * Stage 0: the events and plans, the filters, aggregation; one set for the start's events (no
 * tracepoint: rec_set), then one per file met.
 */
static int bpf_build(struct sdt_recorder *r)
{
	struct rec_bpf *b;
	bool want_count;
	int err;

	if (r->o.bpf_off)
		return sdt_err(-EOPNOTSUPP, "the BPF engine is turned off (bpf_off in the recorder's "
					    "options, for tests)");
	b = calloc(1, sizeof(*b));
	if (!b)
		return sdt_err(-ENOMEM, "out of memory");
	r->engine_data = b;
	/*
	 * Counting with a filter, the sites are planned with their arguments, which the filter
	 * reads; counting stays in the kernel unless a filter must run here (filters_plan()), and
	 * then the hits cross the ring buffers to be evaluated and counted here (as the tracefs
	 * engine does past its counters). Aggregating counts too: no rings, the counters read at
	 * the end. opts.count_only is the caller's again at the teardown.
	 */
	b->count_only = r->o.count_only;
	want_count = r->o.count_only && r->o.filter_for && !r->o.agg_for;
	if (want_count)
		r->o.count_only = false;
	if (r->o.agg_for)
		r->o.count_only = true;
	err = sdt_rec_bpf_build(b, r);
	if (!err)
		err = filters_plan(r, want_count);
	if (!err && r->o.agg_for)
		err = sdt_rec_bpf_agg_plan(b, r);
	if (err)
		return err;
	r->sets = calloc(1, sizeof(*r->sets));
	if (!r->sets)
		return sdt_err(-ENOMEM, "out of memory");
	r->sets_cap = r->nsets = 1;
	r->sets[0].nevents = b->nevents;
	r->counting = r->o.count_only;
	return 0;
}

/* Stage 1: loaded, plans and filters written, the rings in the epoll set. */
static int bpf_load(struct sdt_recorder *r)
{
	struct rec_bpf *b = sdt_rec_bpf_of(r);
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
	    .npairs = b->agg.npairs,
	    .max_keys = r->o.agg_max_keys,
	    .filters = b->any_filter,
	    .rings = (uint8_t)r->o.bpf_rings,
	    .no_multi = r->o.bpf_no_multi,
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
	if (sdt_bpf__epoll_fd(b->bpf) >= 0) {
		struct epoll_event ev = {.events = EPOLLIN, .data.u64 = REC_ENGINE_TAG};

		if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, sdt_bpf__epoll_fd(b->bpf), &ev))
			return sdt_err(-errno, "epoll_ctl: %s", strerror(errno));
	}
	return 0;
}

static int bpf_follow(struct sdt_recorder *r, pid_t pid)
{
	return sdt_bpf__follow(sdt_rec_bpf_of(r)->bpf, pid);
}

/*
 * One link per binary: the sites of each path from @first on (those linked before are not
 * looked at again), with semaphores and cookies.
 */
static int attach(struct sdt_recorder *r, size_t first)
{
	struct rec_bpf *b = sdt_rec_bpf_of(r);
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
 * Stage 3: the recorder's watch events (recorder_perf.c), the tracefs engine's discovery of the
 * files mapped (MMAP2; FORK too: a forked process's inherited mappings, recorder_maps.c), in
 * rings of their own (tags below PID_TAG), no tracepoint, no fork guard; then the links.
 */
static int bpf_open(struct sdt_recorder *r)
{
	struct rec_perf_plan plan = {
	    .targets = &r->targets,
	    .inherit = !r->o.system_wide,
	    .enable_on_exec = r->child.pid > 0,
	    .skip_gone = r->o.npids > 0,
	    .watch = true,
	    .watch_only = true,
	    .epfd = r->epfd,
	};
	int err = 0;

	if (watching(r))
		err = sdt_rec_perf_open(&r->perf, &plan);
	return err ? err : attach(r, 0);
}

/*
 * Adds [@first, nadds) came from opts.on_file during the run: their sites planned and linked
 * now (one uprobe_multi link per file, semaphores through ref_ctr offsets), a rec_set of their
 * own (no tracepoint) appended. 0 or -errno with the message (the maps full: their headroom,
 * SDT_BPF_LATE_SITES and SDT_BPF_LATE_EVENTS, used up).
 */
static int bpf_arm_late(struct sdt_recorder *r, size_t first)
{
	struct rec_bpf *b = sdt_rec_bpf_of(r);
	size_t ev0 = b->nevents, site0 = b->nsites, path0 = b->npaths, i;
	struct rec_set *rs;
	int err;

	if (b->agg.ev)
		return sdt_err(-ENOTSUP, "aggregation in the kernel is not applied to files armed "
					 "during the run yet (name the file with -x to arm it at the "
					 "start)");
	err = sdt_rec_bpf_add(b, r, first);
	/* the plans before the link: a hit may come as soon as it exists */
	for (i = site0; !err && i < b->nsites; i++)
		err = sdt_bpf__set_site(b->bpf, (uint32_t)i, &b->sites[i]);
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

/* The end: no more hits (every link closed) before the last drain. */
static void bpf_stop(struct sdt_recorder *r)
{
	double t0 = now_us();

	sdt_bpf__detach(sdt_rec_bpf_of(r)->bpf);
	sdt_debug("bpf: detached in %.3f ms\n", (now_us() - t0) / 1e3);
}

/* After the last drain: the losses per CPU. */
static int bpf_losses(struct sdt_recorder *r, const struct sdt_ring_ops *ops)
{
	uint64_t *lost = NULL;
	size_t ncpus = 0, i;
	int err;

	(void)ops;
	err = sdt_bpf__lost(sdt_rec_bpf_of(r)->bpf, &lost, &ncpus);
	for (i = 0; !err && i < ncpus; i++) {
		if (!lost[i])
			continue;
		r->samples.lost += lost[i];
		if (r->sink->on_lost)
			r->sink->on_lost(r->sink->ctx, (uint32_t)i, lost[i]);
	}
	free(lost);
	return err;
}

/* After the counts: the rings' use said, the aggregated rows read. */
static int bpf_finish(struct sdt_recorder *r)
{
	struct rec_bpf *b = sdt_rec_bpf_of(r);

	if (!r->o.count_only && !b->agg.ev) {
		uint64_t fast, bpf;

		sdt_bpf__ring_counts(b->bpf, &fast, &bpf);
		sdt_debug("bpf: %" PRIu64 " records through the fast rings, %" PRIu64
			  " through the BPF ring buffers\n",
			  fast, bpf);
	}
	return b->agg.ev ? sdt_rec_bpf_agg_read(b) : 0;
}

/* Every link (the late files' too), the program and its maps; opts.count_only the caller's. */
static int bpf_teardown(struct sdt_recorder *r)
{
	struct rec_bpf *b = sdt_rec_bpf_of(r);

	if (b) {
		sdt_bpf__free(b->bpf);
		b->bpf = NULL;
		r->o.count_only = b->count_only;
	}
	return 0;
}

static const struct sdt_trace_event_desc *bpf_event(const struct sdt_recorder *r, size_t event)
{
	return sdt_rec_bpf_event(sdt_rec_bpf_of(r), event);
}

static const struct sdt_file *bpf_event_file(const struct sdt_recorder *r, size_t event)
{
	const struct rec_bpf *b = sdt_rec_bpf_of(r);

	return b && event < b->nevents ? b->ev_file[event] : NULL;
}

static void bpf_free(struct sdt_recorder *r)
{
	sdt_rec_bpf_free(sdt_rec_bpf_of(r));
	r->engine_data = NULL;
}

const struct sdt_engine_ops sdt_engine_bpf = {
    .name = "bpf",
    .id = SDT_ENGINE_BPF,
    .supported = sdt_rec_bpf_supported,
    .build = bpf_build,
    .load = bpf_load,
    .follow = bpf_follow,
    .open = bpf_open,
    .drain = bpf_drain,
    .read_counts = bpf_read_counts,
    .stop = bpf_stop,
    .losses = bpf_losses,
    .finish = bpf_finish,
    .arm_late = bpf_arm_late,
    .teardown = bpf_teardown,
    .event = bpf_event,
    .event_file = bpf_event_file,
    .free = bpf_free,
};
