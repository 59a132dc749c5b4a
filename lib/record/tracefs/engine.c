/* SPDX-License-Identifier: MIT */
/*
 * The tracefs engine's operations (engine.h): each set of sites becomes a set of our uprobe
 * events in a tracefs group of its own (uprobe.h), created in one write and removed on every
 * path; their hits come through perf events on the targets' threads (or per CPU) into the
 * recorder's perf rings (recorder_perf.c), which the core reads.
 *	build    the definitions of every site added; nothing in the kernel yet
 *	create   the uprobes, in one batch; their ids to the set's tracepoints (rec_set.tps)
 *	open     perf events per CPU x target x tracefs event, one ring per CPU; filters
 *	poke     semaphores by hand through /proc/PID/mem when the kernel does not count them
 *	teardown semaphores restored, every set's group removed
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/perf_event.h"
#include "record/recorder.h"
#include "record/tracefs/engine.h"
#include "record/tracefs/tracefs.h"
#include "record/tracefs/uprobe.h"
#include "util/internal.h"

/*
 * Counting (stat) with more events than this counts samples of one shared tracefs event instead
 * of reading a counter per event: the kernel's teardown waits a grace period (~90 ms) per
 * tracefs event, so 517 counters took ~50 s to close. Up to this many, exact counters.
 */
#define COUNTERS_MAX_EVENTS 8

/*
 * The semaphore method, decided once before anything starts: the kernel's counter
 * (ref_ctr_offset in the definitions) when it has one and may, else by hand. 0 or -errno.
 */
static int plan_semaphores(const struct sdt_recorder *r, bool *ref_ctr, bool *poke)
{
	int ref = sdt_tracefs_has_ref_ctr();

	if (ref < 0)
		return ref;
	*poke = false;
	switch (r->o.semaphore) {
	case SDT_SEMAPHORE_REFCTR:
		if (!ref)
			return sdt_err(-EOPNOTSUPP, "this kernel's uprobes do not take "
						    "ref_ctr_offset (tracefs README): use the poke "
						    "method for semaphores");
		break;
	case SDT_SEMAPHORE_POKE:
		ref = 0;
		*poke = true;
		break;
	default:
		*poke = !ref && !r->o.system_wide;
		break;
	}
	*ref_ctr = ref > 0;
	return 0;
}

/*
 * The tracepoints of set @rs, created: their ids, and each event's (rec_set.tps, .ev_tp), for
 * the core's perf events and sample map.
 */
static int set_tps(struct rec_set *rs)
{
	const struct sdt_uprobe_set *set = rs->eng;
	size_t n = sdt_uprobe_set__kernel_event_count(set), i;

	rs->tps = calloc(n ? n : 1, sizeof(*rs->tps));
	rs->ev_tp = calloc(rs->nevents ? rs->nevents : 1, sizeof(*rs->ev_tp));
	if (!rs->tps || !rs->ev_tp)
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		const struct sdt_uprobe_kevent *kv = sdt_uprobe_set__kernel_event(set, i);

		rs->tps[i] = (struct rec_tp){
		    .tp_id = kv->tp_id, .demux_offset = kv->demux_offset, .event = kv->event};
	}
	rs->ntps = n;
	for (i = 0; i < rs->nevents; i++)
		rs->ev_tp[i] = sdt_uprobe_set__event(set, i)->tp_id;
	return 0;
}

/*
 * Stage 0, nothing in the kernel yet: the definitions of every site added (checked: names,
 * types), shared events when counting many, the semaphore method to report.
 */
static int tfs_build(struct sdt_recorder *r)
{
	struct sdt_uprobe_set_opts so = {
	    /* a filter needs the arguments, also when counting */
	    .no_args = r->o.count_only && !r->o.filter_for,
	    /* a shared event's fields are wider than the arguments: no kernel filter on them */
	    .share = !r->o.count_only && !r->o.filter_for};
	struct sdt_uprobe_set *set;
	bool poke;
	size_t i;
	int err;

	if (r->o.agg_for)
		return sdt_err(-ENOTSUP, "aggregation in the kernel (--by, --latency) needs the BPF "
					 "engine: the tracefs engine has no per-thread pairing or "
					 "string keys in the kernel (record, then report --by or "
					 "--latency, works with either)");
	err = plan_semaphores(r, &so.use_ref_ctr, &poke);
	if (err)
		return err;
	err = sdt_uprobe_set__new(&so, &set);
	if (err)
		return err;
	/* until sets[0] holds it */
	r->engine_data = set;
	for (i = 0; i < r->nadds; i++) {
		err = sdt_uprobe_set__add_typed(set, r->adds[i].f, r->adds[i].sites, r->adds[i].n,
						r->adds[i].types);
		if (err)
			return err;
	}
	r->counting = r->o.count_only;
	if (r->counting && sdt_uprobe_set__event_count(set) > COUNTERS_MAX_EVENTS) {
		err = sdt_uprobe_set__share(set);
		if (err)
			return err;
		r->counting = false;
	}
	r->sem_method = !sdt_uprobe_set__semaphore_count(set) ? "none"
			: so.use_ref_ctr			    ? "refctr"
			: poke					    ? "poke"
								    : "none";
	r->sets = calloc(1, sizeof(*r->sets));
	if (!r->sets)
		return sdt_err(-ENOMEM, "out of memory");
	r->sets_cap = r->nsets = 1;
	r->sets[0].eng = set;
	r->sets[0].nevents = sdt_uprobe_set__event_count(set);
	r->engine_data = NULL;
	r->late.ref_ctr = so.use_ref_ctr;
	r->late.sem_poke = poke ? 1 : 0;
	return 0;
}

/* Stage 2: the uprobes, in one batch; from here on, every path removes them. */
static int tfs_create(struct sdt_recorder *r)
{
	struct rec_set *rs = &r->sets[0];
	int err;

	if (sdt_uprobe_set__event_count(rs->eng)) {
		err = sdt_uprobe_set__create(rs->eng);
		if (err)
			return err;
	}
	return set_tps(rs);
}

/* Stage 3: the perf events per CPU x target x event, a ring per CPU; the filters. */
static int tfs_open(struct sdt_recorder *r)
{
	/*
	 * without ptrace and before 6.12, the processes they fork are guarded from their FORK
	 * records (recorder_forks.c); since, the targets' no-swap guards cover every generation
	 */
	bool no_swap = !r->o.fork_guard_thread && sdt_perf_fork_guard_no_swap();
	bool forks = !r->o.system_wide && !r->follow.on && !no_swap;
	struct rec_perf_plan plan = {
	    .tps = r->sets[0].tps,
	    .ntps = r->sets[0].ntps,
	    .targets = &r->targets,
	    .counting = r->counting,
	    .inherit = !r->o.system_wide,
	    .enable_on_exec = r->child.pid > 0,
	    .skip_gone = r->o.npids > 0,
	    .watch = r->late.on || forks,
	    .ring_pages = r->o.ring_pages,
	    .no_swap_guard = no_swap,
	    .epfd = r->epfd,
	    .callchain = r->o.call_graph == SDT_CALL_GRAPH_FP
			     ? (uint16_t)(r->o.max_stack ? r->o.max_stack : 127)
			     : 0,
	    /* -g: the leaf's words too (perf_event.h), for the report's first frame by CFI */
	    .stack_user = r->o.call_graph == SDT_CALL_GRAPH_DWARF
			      ? (r->o.stack_user_bytes ? r->o.stack_user_bytes
						       : SDT_STACK_USER_DEFAULT)
			  : r->o.call_graph == SDT_CALL_GRAPH_FP && SDT_PERF_REGS_LEAF != 0
			      ? SDT_STACK_USER_LEAF
			      : 0,
	};
	int err;

	r->forks.on = forks;
	if (plan.inherit)
		sdt_debug("fork guard: %s\n",
			  no_swap
			      ? "no-swap (inherit, PERF_SAMPLE_READ: every generation)"
			  : forks ? "inherit_thread, and each forked process's from its FORK record"
				  : "inherit_thread, and anchors at each fork stop");
	err = sdt_rec_perf_open(&r->perf, &plan);
	if (!err && r->o.filter_for)
		err = sdt_tfs_filters_apply(r);
	return err;
}

static int tfs_poke(struct sdt_recorder *r, pid_t pid)
{
	return sdt_uprobe_set__poke(r->sets[0].eng, pid);
}

static int tfs_read_counts(struct sdt_recorder *r)
{
	return sdt_rec_perf_read_counts(&r->perf, r->sets, r->samples.counts, r->samples.nevents);
}

static int tfs_losses(struct sdt_recorder *r, const struct sdt_ring_ops *ops)
{
	return sdt_rec_perf_account_losses(&r->perf, ops);
}

/*
 * Adds [@first, nadds) came from on_file: a set of their own, created (a tracefs group of its
 * own), appended; the core puts its events in the rings.
 */
static int tfs_arm_late(struct sdt_recorder *r, size_t first)
{
	struct sdt_uprobe_set_opts so = {
	    .use_ref_ctr = r->late.ref_ctr,
	    .no_args = r->o.count_only,
	    .share = !r->o.count_only,
	    .index_base = (uint32_t)r->samples.nevents,
	};
	struct sdt_uprobe_set *set = NULL;
	struct rec_set *rs;
	size_t i;
	int err;

	err = sdt_uprobe_set__new(&so, &set);
	for (i = first; !err && i < r->nadds; i++)
		err = sdt_uprobe_set__add_typed(set, r->adds[i].f, r->adds[i].sites, r->adds[i].n,
						r->adds[i].types);
	if (!err)
		err = sdt_uprobe_set__create(set);
	if (err) {
		sdt_uprobe_set__free(set);
		return err;
	}
	rs = &r->sets[r->nsets++];
	memset(rs, 0, sizeof(*rs));
	rs->eng = set;
	rs->base = so.index_base;
	rs->nevents = sdt_uprobe_set__event_count(set);
	rs->system_wide = r->o.system_wide;
	return set_tps(rs);
}

/* Stage 6: semaphores restored, every set's uprobes removed; the first error's message. */
static int tfs_teardown(struct sdt_recorder *r)
{
	char msg[1024];
	size_t i;
	int err = 0, e2;

	if (r->nsets)
		sdt_uprobe_set__unpoke(r->sets[0].eng);
	for (i = 0; i <= r->nsets; i++) {
		struct sdt_uprobe_set *set = i < r->nsets ? r->sets[i].eng : r->engine_data;

		e2 = sdt_uprobe_set__remove(set);
		if (e2 && !err) {
			err = e2;
			snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
		}
	}
	if (err)
		sdt_err(err, "%s", msg);
	return err;
}

static const struct sdt_trace_event_desc *tfs_event(const struct sdt_recorder *r, size_t event)
{
	size_t local;
	const struct rec_set *rs = sdt_rec_event_set(r, event, &local);

	return rs ? sdt_uprobe_set__event(rs->eng, local) : NULL;
}

static const struct sdt_file *tfs_event_file(const struct sdt_recorder *r, size_t event)
{
	size_t local;
	const struct rec_set *rs = sdt_rec_event_set(r, event, &local);

	return rs ? sdt_uprobe_set__event_file(rs->eng, local) : NULL;
}

static bool tfs_has_semaphore(const struct sdt_recorder *r, size_t event)
{
	size_t local;
	const struct rec_set *rs = sdt_rec_event_set(r, event, &local);

	return rs && sdt_uprobe_set__event_has_semaphore(rs->eng, local);
}

static int tfs_semaphore(const struct sdt_recorder *r, size_t event, pid_t pid)
{
	size_t local;
	const struct rec_set *rs = sdt_rec_event_set(r, event, &local);

	return rs ? sdt_uprobe_set__semaphore_state(rs->eng, local, pid) : -ENOENT;
}

static bool tfs_poked(const struct sdt_recorder *r, size_t event)
{
	size_t local;
	const struct rec_set *rs = sdt_rec_event_set(r, event, &local);

	return rs && sdt_uprobe_set__event_poked(rs->eng, local);
}

static void tfs_free(struct sdt_recorder *r)
{
	size_t i;

	for (i = 0; i < r->nsets; i++)
		sdt_uprobe_set__free(r->sets[i].eng);
	sdt_uprobe_set__free(r->engine_data);
	r->engine_data = NULL;
}

const struct sdt_engine_ops sdt_engine_tracefs = {
    .name = "tracefs",
    .id = SDT_ENGINE_TRACEFS,
    .per_thread = true,
    .build = tfs_build,
    .create = tfs_create,
    .open = tfs_open,
    .poke = tfs_poke,
    .read_counts = tfs_read_counts,
    .losses = tfs_losses,
    .arm_late = tfs_arm_late,
    .teardown = tfs_teardown,
    .event = tfs_event,
    .event_file = tfs_event_file,
    .has_semaphore = tfs_has_semaphore,
    .semaphore = tfs_semaphore,
    .poked = tfs_poked,
    .at_exit = sdt_uprobe_emergency_remove,
    .free = tfs_free,
};

int sdt_recorder__remove_stale(char **names)
{
	return sdt_uprobe_remove_stale(names);
}
