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
#include "record/recorder.h"
#include "record/ring.h"
#include "record/uprobe.h"
#include "util/internal.h"

static int push_fd(struct rec_perf *p, int fd, uint32_t event, int cpu)
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
	p->cap = cap;
	p->fd_event[p->nfds] = event;
	p->fd_cpu[p->nfds] = cpu;
	p->fds[p->nfds++] = fd;
	return 0;
}

/* One sdt_rec_perf_open(): perf event i is (cpu * ntids + target) * nkev + tracefs event. */
struct open_job {
	const struct perf_plan *plan;
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
	const struct perf_plan *pl = j->plan;
	size_t e = i % j->nkev, t = (i / j->nkev) % j->ntids, c = i / j->nkev / j->ntids;
	const struct sdt_uprobe_kevent *d = sdt_uprobe_set__kernel_event(pl->set, e);
	struct sdt_perf_open_opts po = {
	    .tp_id = d->tp_id,
	    .sample = !pl->counting,
	    .inherit = pl->inherit,
	    .enable_on_exec = pl->enable_on_exec,
	    .comm = t == 0 && e == 0, /* the ring owner of the CPU */
	    .wakeup_bytes = j->wakeup,
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
			      j->cpus[i / j->nkev / j->ntids]);
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
static int map_ring(struct rec_perf *p, const struct open_job *j, size_t c, size_t i, size_t n)
{
	int ring_fd = -1, err;
	size_t k;

	for (k = 0; k < n; k++, i++) {
		int fd;

		if (j->out[i] < 0)
			continue; /* ESRCH: a thread gone */
		fd = p->fds[j->out[i]];
		if (ring_fd < 0) {
			struct sdt_ring *ring = &p->rings[p->nrings];
			struct epoll_event ev = {.events = EPOLLIN};

			err = sdt_ring_map(ring, fd, j->cpus[c], j->plan->ring_pages);
			if (err)
				return err;
			p->nrings++;
			ev.data.u64 = p->nrings - 1;
			if (epoll_ctl(j->plan->epfd, EPOLL_CTL_ADD, fd, &ev))
				return sdt_err(-errno, "epoll_ctl: %s", strerror(errno));
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
 * Open every (CPU, target, event), then give each CPU's first event a ring
 * and redirect the others into it. A thread of a -p process that exited meanwhile (ESRCH) is
 * skipped.
 */
int sdt_rec_perf_open(struct rec_perf *p, const struct perf_plan *plan)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), ncpus = 0, c;
	struct open_job j = {.plan = plan};
	int *cpus = NULL, err;

	j.nkev = sdt_uprobe_set__kernel_event_count(plan->set);
	j.ntids = plan->targets->ntids;
	err = sdt_online_cpus(&cpus, &ncpus);
	if (err)
		return err;
	j.total = ncpus * j.ntids;
	if (j.total > SDT_MAX_PERF_FDS / j.nkev) {
		err = sdt_err(-EMFILE,
			      "%zu events x %zu CPUs x %zu threads: more than %d perf events",
			      j.nkev, ncpus, j.ntids, SDT_MAX_PERF_FDS);
		goto out;
	}
	j.total *= j.nkev;
	j.cpus = cpus;
	j.wakeup = (uint32_t)(plan->ring_pages * page / 4);
	j.out = sdt_reallocarray(NULL, j.total, sizeof(*j.out));
	if (!plan->counting)
		p->rings = calloc(ncpus, sizeof(*p->rings));
	if (!j.out || (!plan->counting && !p->rings)) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto out;
	}
	err = open_all(p, &j);
	for (c = 0; !err && !plan->counting && c < ncpus; c++)
		err = map_ring(p, &j, c, c * j.ntids * j.nkev, j.ntids * j.nkev);
out:
	free(j.out);
	free(cpus);
	return err;
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
	free(p->rings);
	memset(p, 0, sizeof(*p));
}

int sdt_rec_perf_drain(struct rec_perf *p, const struct sdt_ring_ops *ops)
{
	int n = p->nrings ? sdt_rings_drain(p->rings, p->nrings, ops) : 0;

	return n < 0 ? n : 0;
}

/* Sum each event's counters (counting mode). */
int sdt_rec_perf_read_counts(const struct rec_perf *p, const struct sdt_uprobe_set *set,
			     uint64_t *counts, size_t nevents)
{
	size_t i;
	int err;

	memset(counts, 0, nevents * sizeof(*counts));
	for (i = 0; i < p->nfds; i++) {
		uint64_t v;

		err = sdt_perf_read_count(p->fds[i], &v);
		if (err)
			return err;
		counts[sdt_uprobe_set__kernel_event(set, p->fd_event[i])->event] += v;
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

		for (k = 0; k < p->nfds; k++) {
			if (p->fd_cpu[k] != ring->cpu)
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
