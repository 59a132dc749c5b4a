/* SPDX-License-Identifier: MIT */
/*
 * Perf events: one per CPU x target x tracefs event, one ring per CPU (the CPU's other events
 * write into it), drained in time order; at the end, the counters of what the rings never said.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "record/perf_event.h"
#include "record/perf.h"
#include "record/ring.h"
#include "util/internal.h"

static int push_fd(struct rec_perf *p, int fd, uint32_t event, int cpu, uint32_t set)
{
	size_t cap = p->cap;

	if (p->nfds >= SDT_MAX_PERF_FDS) {
		close(fd);
		return sdt_err(-EMFILE, "more than %d perf events", SDT_MAX_PERF_FDS);
	}
	if (sdt_grow((void **)&p->fds, &cap, p->nfds + 1, sizeof(*p->fds))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	cap = p->cap;
	if (sdt_grow((void **)&p->fd_event, &cap, p->nfds + 1, sizeof(*p->fd_event))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	cap = p->cap;
	if (sdt_grow((void **)&p->fd_cpu, &cap, p->nfds + 1, sizeof(*p->fd_cpu))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	cap = p->cap;
	if (sdt_grow((void **)&p->fd_set, &cap, p->nfds + 1, sizeof(*p->fd_set))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	p->cap = cap;
	p->fd_event[p->nfds] = event;
	p->fd_cpu[p->nfds] = cpu;
	p->fd_set[p->nfds] = set;
	p->fds[p->nfds++] = fd;
	return 0;
}

/* One sdt_rec_perf_open(): perf event i is (cpu * ntids + target) * nkev + tracefs event. */
struct open_job {
	const struct rec_perf_plan *plan;
	size_t nkev, ntids, total;
	const int *cpus;
	int *out; /* fd or -errno, one per (cpu, target, event); then an index into ->fds */
	uint32_t wakeup;
	int first_err;
	char msg[1024];
};

/* Open perf event @i. */
static void open_one(struct open_job *j, size_t i)
{
	const struct rec_perf_plan *pl = j->plan;
	size_t e = i % j->nkev, t = (i / j->nkev) % j->ntids, c = i / j->nkev / j->ntids;
	const struct rec_tp *d = &pl->tps[e];
	struct sdt_perf_open_opts po = {
	    .tp_id = d->tp_id,
	    .sample = !pl->counting,
	    .inherit = pl->inherit,
	    .enable_on_exec = pl->enable_on_exec,
	    .comm = !pl->watch && t == 0 && e == 0, /* the ring owner of the CPU */
	    .wakeup_bytes = j->wakeup,
	    .callchain = pl->callchain,
	    /* following, the watch events bring the mappings (and the names) for -g */
	    .mmap = (pl->callchain || pl->stack_user) && !pl->watch && t == 0 && e == 0,
	    .stack_user = pl->stack_user,
	};

	j->out[i] = sdt_perf_open(&po, pl->targets->tids[t], j->cpus[c]);
	if (j->out[i] < 0 && !(j->out[i] == -ESRCH && pl->skip_gone) && !j->first_err) {
		j->first_err = j->out[i];
		snprintf(j->msg, sizeof(j->msg), "%s", sdt_errmsg());
	}
}

/* Open every (CPU, target, event); each fd opened goes into ->fds first: every path closes it. */
static int open_all(struct rec_perf *p, struct open_job *j)
{
	size_t i, k;
	int err;

	for (i = 0; i < j->total; i++)
		open_one(j, i);
	for (i = 0; i < j->total; i++) {
		if (j->out[i] < 0)
			continue;
		err = push_fd(p, j->out[i], (uint32_t)(i % j->nkev),
			      j->cpus[i / j->nkev / j->ntids], 0);
		j->out[i] = -EBADF;
		if (err) {
			for (k = i + 1; k < j->total; k++)
				if (j->out[k] >= 0)
					close(j->out[k]);
			return err;
		}
		j->out[i] = (int)(p->nfds - 1); /* now an index into p->fds */
	}
	if (j->first_err)
		return sdt_err(j->first_err, "%s", j->msg);
	return 0;
}

/*
 * CPU @c's perf events are @n from @i on: the first one opened gets a ring (in the epoll set),
 * the others write into it.
 */
/* The fd that owns CPU @cpu's sample ring, or -1. */
static int ring_fd_of(const struct rec_perf *p, int cpu)
{
	size_t k;

	for (k = 0; k < p->nrings; k++)
		if (p->rings[k].cpu == cpu && !p->ring_watch[k])
			return p->rings[k].fd;
	return -1;
}

/* Give CPU @cpu a ring owned by @fd (@watch: a watch ring, small), in the epoll set. */
static int new_ring(struct rec_perf *p, int fd, int cpu, bool watch)
{
	struct sdt_ring *ring = &p->rings[p->nrings];
	struct epoll_event ev = {.events = EPOLLIN};
	int err;

	if (p->nrings >= p->rings_cap)
		return sdt_err(-ENOMEM, "no room for another ring");
	err = sdt_ring_map(ring, fd, cpu, watch ? WATCH_RING_PAGES : p->ring_pages);
	if (err)
		return err;
	p->ring_watch[p->nrings] = watch;
	p->nrings++;
	ev.data.u64 = p->nrings - 1;
	if (epoll_ctl(p->epfd, EPOLL_CTL_ADD, fd, &ev))
		return sdt_err(-errno, "epoll_ctl: %s", strerror(errno));
	return 0;
}

static int map_ring(struct rec_perf *p, const struct open_job *j, size_t c, size_t i, size_t n)
{
	int ring_fd = ring_fd_of(p, j->cpus[c]), err;
	size_t k;

	for (k = 0; k < n; k++, i++) {
		int fd;

		if (j->out[i] < 0)
			continue; /* ESRCH: a thread gone */
		fd = p->fds[j->out[i]];
		if (j->plan->counting)
			continue; /* counters: no samples (the ring is the watch's) */
		if (ring_fd < 0) {
			err = new_ring(p, fd, j->cpus[c], false);
			if (err)
				return err;
			p->rings[p->nrings - 1].callchain = j->plan->callchain > 0;
			p->rings[p->nrings - 1].stack_user = j->plan->stack_user > 0;
			ring_fd = fd;
		} else {
			err = sdt_perf_set_output(fd, ring_fd);
			if (err)
				return err;
		}
	}
	return 0;
}

/*
 * Following: the watch events of CPU @cpu, one per target (the mmaps, forks and names of the
 * targets), in a small ring of their own that wakes the reader at each record: a file mapped
 * is armed without waiting for the samples' watermark or the drain clock.
 */
static int open_watch(struct rec_perf *p, const struct rec_perf_plan *plan, int cpu)
{
	const struct rec_targets *t = plan->targets;
	int ring_fd = -1, fd, err;
	size_t i;

	for (i = 0; i < t->ntids; i++) {
		struct sdt_perf_open_opts po = {
		    .inherit = plan->inherit,
		    .enable_on_exec = plan->enable_on_exec,
		    .comm = true,
		    .wakeup_bytes = 1,
		};

		fd = sdt_perf_open_watch(&po, t->tids[i], cpu);
		if (fd == -ESRCH && plan->skip_gone)
			continue;
		if (fd < 0)
			return fd;
		err = push_fd(p, fd, REC_WATCH_FD, cpu, REC_WATCH_FD);
		if (err)
			return err;
		if (ring_fd < 0) {
			err = new_ring(p, fd, cpu, true);
			ring_fd = fd;
		} else {
			err = sdt_perf_set_output(fd, ring_fd);
		}
		if (err)
			return err;
	}
	return 0;
}

/*
 * The fork guard of each target thread (perf_event.h): the processes it forks keep perf
 * contexts of their own, never swapped, so the uprobe filter keeps their mms. Before the
 * probes' events, so that no fork made once they are on goes unguarded.
 */
static int open_fork_guards(struct rec_perf *p, const struct rec_perf_plan *plan)
{
	const struct rec_targets *t = plan->targets;
	size_t i;
	int fd, err;

	for (i = 0; i < t->ntids; i++) {
		if (t->tids[i] <= 0)
			continue;
		fd = sdt_perf_open_fork_guard(t->tids[i], plan->no_swap_guard);
		if (fd == -ESRCH && plan->skip_gone)
			continue;
		if (fd < 0)
			return fd;
		err = push_fd(p, fd, REC_WATCH_FD, -1, REC_WATCH_FD);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Open every (CPU, target, event), then give each CPU's first event a ring
 * and redirect the others into it. A thread of a -p process that exited meanwhile (ESRCH) is
 * skipped.
 */
int sdt_rec_perf_open(struct rec_perf *p, const struct rec_perf_plan *plan)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), ncpus = 0, c;
	struct open_job j = {.plan = plan};
	int *cpus = NULL, err;

	p->callchain = plan->callchain;
	p->stack_user = plan->stack_user;
	p->no_swap_guard = plan->no_swap_guard;
	j.nkev = plan->watch_only ? 0 : plan->ntps;
	j.ntids = plan->targets->ntids;
	err = sdt_online_cpus(&cpus, &ncpus);
	if (err)
		return err;
	j.total = ncpus * j.ntids;
	if (j.nkev && j.total > SDT_MAX_PERF_FDS / j.nkev) {
		err = sdt_err(-EMFILE,
			      "%zu events x %zu CPUs x %zu threads: more than %d perf events",
			      j.nkev, ncpus, j.ntids, SDT_MAX_PERF_FDS);
		goto out;
	}
	j.total *= j.nkev;
	j.cpus = cpus;
	j.wakeup = (uint32_t)(plan->ring_pages * page / 4);
	j.out = sdt_reallocarray(NULL, j.total ? j.total : 1, sizeof(*j.out));
	/* a sample ring per CPU, and a watch ring per CPU when following */
	p->rings_cap = ncpus * (plan->watch ? 2 : 1);
	p->rings = calloc(p->rings_cap, sizeof(*p->rings));
	p->ring_watch = calloc(p->rings_cap, sizeof(*p->ring_watch));
	p->ring_pages = plan->ring_pages;
	p->epfd = plan->epfd;
	if (!j.out || !p->rings || !p->ring_watch) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto out;
	}
	/* the guards keep the uprobe perf filter's mm (above): nothing of the BPF engine's */
	if (plan->inherit && !plan->watch_only)
		err = open_fork_guards(p, plan);
	for (c = 0; !err && plan->watch && c < ncpus; c++)
		err = open_watch(p, plan, cpus[c]);
	if (!err)
		err = open_all(p, &j);
	for (c = 0; !err && c < ncpus; c++)
		err = map_ring(p, &j, c, c * j.ntids * j.nkev, j.ntids * j.nkev);
out:
	free(j.out);
	free(cpus);
	return err;
}

int sdt_rec_perf_open_anchors(const struct rec_set *set, pid_t pid, int **fds, size_t *n,
			      size_t *cap)
{
	size_t nkev = set->ntps, e;
	int fd;

	for (e = 0; e < nkev; e++) {
		struct sdt_perf_open_opts po = {
		    .tp_id = set->tps[e].tp_id,
		};

		if (sdt_grow((void **)fds, cap, *n + 1, sizeof(**fds)))
			return sdt_err(-ENOMEM, "out of memory");
		fd = sdt_perf_open(&po, pid, -1);
		if (fd < 0)
			return fd;
		(*fds)[(*n)++] = fd;
	}
	return 0;
}

int sdt_rec_perf_open_late(struct rec_perf *p, const struct rec_set *set, uint32_t setno,
			   const pid_t *tids, size_t ntids, bool inherit, bool counting)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t nkev = set->ntps, c, t, e, nw = 0;
	int cpus[4096], err;

	/* the CPUs: those of the watch rings (every online CPU at the start) */
	for (c = 0; c < p->nrings && nw < ARRAY_SIZE(cpus); c++)
		if (p->ring_watch[c])
			cpus[nw++] = p->rings[c].cpu;
	for (c = 0; c < nw; c++) {
		for (t = 0; t < ntids; t++) {
			for (e = 0; e < nkev; e++) {
				struct sdt_perf_open_opts po = {
				    .tp_id = set->tps[e].tp_id,
				    .sample = !counting,
				    .inherit = inherit,
				    .wakeup_bytes = (uint32_t)(p->ring_pages * page / 4),
				    /* the ring's samples all have one layout (ring.c) */
				    .callchain = p->callchain,
				    .stack_user = p->stack_user,
				};
				int fd = sdt_perf_open(&po, tids[t], cpus[c]), ring_fd;

				if (fd == -ESRCH)
					break; /* the thread is gone */
				if (fd < 0)
					return fd;
				err = push_fd(p, fd, (uint32_t)e, cpus[c], setno);
				ring_fd = ring_fd_of(p, cpus[c]);
				if (!err && !counting && ring_fd < 0) {
					err = new_ring(p, fd, cpus[c], false); /* the CPU's first */
					if (!err) {
						p->rings[p->nrings - 1].callchain = p->callchain > 0;
						p->rings[p->nrings - 1].stack_user = p->stack_user > 0;
					}
				} else if (!err && !counting)
					err = sdt_perf_set_output(fd, ring_fd);
				if (!err)
					err = sdt_perf_enable(fd);
				if (err)
					return err;
			}
		}
	}
	return 0;
}

int sdt_rec_perf_enable(struct rec_perf *p)
{
	size_t i;
	int err;

	for (i = 0; i < p->nfds; i++) {
		err = sdt_perf_enable(p->fds[i]);
		if (err)
			return err;
	}
	return 0;
}

void sdt_rec_perf_disable(struct rec_perf *p)
{
	size_t i;

	for (i = 0; i < p->nfds; i++)
		sdt_perf_disable(p->fds[i]);
}

void sdt_rec_perf_close(struct rec_perf *p)
{
	size_t i;

	for (i = 0; i < p->nfds; i++)
		sdt_perf_disable(p->fds[i]);
	for (i = 0; i < p->nrings; i++)
		sdt_ring_unmap(&p->rings[i]);
	sdt_perf_close_all(p->fds, p->nfds);
	p->nfds = 0;
	p->nrings = 0;
}

/* At exit (atexit handler): unmap and close, so that the uprobes can be removed; no more. */
void sdt_rec_perf_abandon(struct rec_perf *p)
{
	size_t i;

	for (i = 0; i < p->nrings; i++)
		sdt_ring_unmap(&p->rings[i]);
	for (i = 0; i < p->nfds; i++)
		close(p->fds[i]);
	p->nfds = p->nrings = 0;
}

void sdt_rec_perf_release(struct rec_perf *p)
{
	free(p->fds);
	free(p->fd_event);
	free(p->fd_cpu);
	free(p->fd_set);
	free(p->rings);
	free(p->ring_watch);
	memset(p, 0, sizeof(*p));
}

int sdt_rec_perf_drain(struct rec_perf *p, const struct sdt_ring_ops *ops)
{
	int n = p->nrings ? sdt_rings_drain(p->rings, p->nrings, ops) : 0;

	return n < 0 ? n : 0;
}

/* Sum each event's counters (counting mode). */
int sdt_rec_perf_read_counts(const struct rec_perf *p, const struct rec_set *sets,
			     uint64_t *counts, size_t nevents)
{
	size_t i, ev;
	int err;

	memset(counts, 0, nevents * sizeof(*counts));
	for (i = 0; i < p->nfds; i++) {
		const struct rec_set *rs;
		uint64_t v;

		if (p->fd_set[i] == REC_WATCH_FD)
			continue;
		rs = &sets[p->fd_set[i]];
		err = sdt_perf_read_count(p->fds[i], &v);
		if (err)
			return err;
		ev = rs->base + rs->tps[p->fd_event[i]].event;
		if (ev < nevents)
			counts[ev] += v;
	}
	return 0;
}

/*
 * The kernel reports a drop with a LOST record written once there is room again; drops at the
 * very end (the ring still full when the target exited) would never be reported. So, with every
 * event disabled and every ring drained, compare each CPU's hit count (the events' counters
 * count every hit, recorded or not) with what arrived, and report the difference as lost.
 */
int sdt_rec_perf_account_losses(struct rec_perf *p, const struct sdt_ring_ops *ops)
{
	size_t i, k;
	int err;

	for (i = 0; i < p->nrings; i++) {
		struct sdt_ring *ring = &p->rings[i];
		uint64_t hits = 0, v;

		if (p->ring_watch[i])
			continue;
		for (k = 0; k < p->nfds; k++) {
			if (p->fd_cpu[k] != ring->cpu || p->fd_set[k] == REC_WATCH_FD)
				continue;
			err = sdt_perf_read_count(p->fds[k], &v);
			if (err)
				return err;
			hits += v;
		}
		if (hits > ring->samples + ring->lost) {
			uint64_t missing = hits - ring->samples - ring->lost;

			ring->lost += missing;
			ops->lost(ops->ctx, (uint32_t)ring->cpu, missing);
		}
	}
	return 0;
}
