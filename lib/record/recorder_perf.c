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

static int push_fd(struct sdt_recorder *r, int fd, uint32_t event, int cpu)
{
	size_t cap = r->fds_cap;

	if (r->nfds >= SDT_MAX_PERF_FDS) {
		close(fd);
		return sdt_err(-EMFILE, "more than %d perf events", SDT_MAX_PERF_FDS);
	}
	if (sdt_grow((void **)&r->fds, &cap, r->nfds + 1, sizeof(*r->fds))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	cap = r->fds_cap;
	if (sdt_grow((void **)&r->fd_event, &cap, r->nfds + 1, sizeof(*r->fd_event))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	cap = r->fds_cap;
	if (sdt_grow((void **)&r->fd_cpu, &cap, r->nfds + 1, sizeof(*r->fd_cpu))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	r->fds_cap = cap;
	r->fd_event[r->nfds] = event;
	r->fd_cpu[r->nfds] = cpu;
	r->fds[r->nfds++] = fd;
	return 0;
}

struct open_job {
	struct sdt_recorder *r;
	const int *cpus;
	int *out; /* fd or -errno, one per (cpu, target, event) */
	uint32_t wakeup;
	int first_err;
	char msg[1024];
};

/* Open perf event @i = (cpu * ntids + target) * nkev + tracefs event. */
static void open_one(void *ctx, size_t i)
{
	struct open_job *j = ctx;
	struct sdt_recorder *r = j->r;
	size_t e = i % r->nkev, t = (i / r->nkev) % r->targets.ntids,
	       c = i / r->nkev / r->targets.ntids;
	const struct sdt_uprobe_kevent *d = sdt_uprobe_set__kernel_event(r->set, e);
	struct sdt_perf_open_opts po = {
	    .tp_id = d->tp_id,
	    .sample = !r->counting,
	    .inherit = !r->o.system_wide,
	    .enable_on_exec = r->child.pid > 0,
	    .comm = t == 0 && e == 0, /* the ring owner of the CPU */
	    .wakeup_bytes = j->wakeup,
	};

	j->out[i] = sdt_perf_open(&po, r->targets.tids[t], j->cpus[c]);
	if (j->out[i] < 0 && !(j->out[i] == -ESRCH && r->o.npids) && !j->first_err) {
		j->first_err = j->out[i];
		snprintf(j->msg, sizeof(j->msg), "%s", sdt_errmsg());
	}
}

/*
 * Open every (CPU, target, event), then give each CPU's first event a ring
 * and redirect the others into it. A thread of a -p process that exited meanwhile (ESRCH) is
 * skipped.
 */
int sdt_rec_perf_open(struct sdt_recorder *r)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), ncpus = 0, total, c, k, i;
	struct open_job j = {.r = r};
	int *cpus = NULL, err;

	err = sdt_online_cpus(&cpus, &ncpus);
	if (err)
		return err;
	total = ncpus * r->targets.ntids;
	if (total > SDT_MAX_PERF_FDS / r->nkev) {
		err = sdt_err(-EMFILE,
			      "%zu events x %zu CPUs x %zu threads: more than %d perf events",
			      r->nkev, ncpus, r->targets.ntids, SDT_MAX_PERF_FDS);
		goto out;
	}
	total *= r->nkev;
	j.cpus = cpus;
	j.wakeup = (uint32_t)(r->o.ring_pages * page / 4);
	j.out = sdt_reallocarray(NULL, total, sizeof(*j.out));
	if (!r->counting)
		r->rings = calloc(ncpus, sizeof(*r->rings));
	if (!j.out || (!r->counting && !r->rings)) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < total; i++)
		open_one(&j, i);
	/* Every fd opened goes into r->fds first, so that every path closes it. */
	for (i = 0; i < total; i++) {
		if (j.out[i] < 0)
			continue;
		err = push_fd(r, j.out[i], (uint32_t)(i % r->nkev), cpus[i / r->nkev / r->targets.ntids]);
		j.out[i] = -EBADF;
		if (err) {
			for (k = i + 1; k < total; k++)
				if (j.out[k] >= 0)
					close(j.out[k]);
			goto out;
		}
		j.out[i] = (int)(r->nfds - 1); /* now an index into r->fds */
	}
	if (j.first_err) {
		err = sdt_err(j.first_err, "%s", j.msg);
		goto out;
	}
	if (r->counting)
		goto out;
	for (c = 0, i = 0; c < ncpus; c++) {
		int ring_fd = -1;

		for (k = 0; k < r->targets.ntids * r->nkev; k++, i++) {
			int fd;

			if (j.out[i] < 0)
				continue; /* ESRCH: a thread gone */
			fd = r->fds[j.out[i]];
			if (ring_fd < 0) {
				struct sdt_ring *ring = &r->rings[r->nrings];
				struct epoll_event ev = {.events = EPOLLIN};

				err = sdt_ring_map(ring, fd, cpus[c], r->o.ring_pages);
				if (err)
					goto out;
				r->nrings++;
				ev.data.u64 = r->nrings - 1;
				if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ev)) {
					err = sdt_err(-errno, "epoll_ctl: %s", strerror(errno));
					goto out;
				}
				ring_fd = fd;
			} else {
				err = sdt_perf_set_output(fd, ring_fd);
				if (err)
					goto out;
			}
		}
	}
out:
	free(j.out);
	free(cpus);
	return err;
}

void sdt_rec_perf_close(struct sdt_recorder *r)
{
	size_t i;

	for (i = 0; i < r->nfds; i++)
		sdt_perf_disable(r->fds[i]);
	for (i = 0; i < r->nrings; i++)
		sdt_ring_unmap(&r->rings[i]);
	sdt_perf_close_all(r->fds, r->nfds);
	r->nfds = 0;
	r->nrings = 0;
}

int sdt_rec_perf_drain(struct sdt_recorder *r, const struct sdt_ring_ops *ops)
{
	int n = r->nrings ? sdt_rings_drain(r->rings, r->nrings, ops) : 0;

	return n < 0 ? n : 0;
}

/* Sum each event's counters (counting mode). */
int sdt_rec_perf_read_counts(struct sdt_recorder *r)
{
	size_t i;
	int err;

	memset(r->counts, 0, r->nevents * sizeof(*r->counts));
	for (i = 0; i < r->nfds; i++) {
		uint64_t v;

		err = sdt_perf_read_count(r->fds[i], &v);
		if (err)
			return err;
		r->counts[sdt_uprobe_set__kernel_event(r->set, r->fd_event[i])->event] += v;
	}
	return 0;
}

/*
 * The kernel reports a drop with a LOST record written once there is room again; drops at the
 * very end (the ring still full when the target exited) would never be reported. So, with every
 * event disabled and every ring drained, compare each CPU's hit count (the events' counters
 * count every hit, recorded or not) with what arrived, and report the difference as lost.
 */
int sdt_rec_perf_account_losses(struct sdt_recorder *r)
{
	size_t i, k;
	int err;

	for (i = 0; i < r->nrings; i++) {
		struct sdt_ring *ring = &r->rings[i];
		uint64_t hits = 0, v;

		for (k = 0; k < r->nfds; k++) {
			if (r->fd_cpu[k] != ring->cpu)
				continue;
			err = sdt_perf_read_count(r->fds[k], &v);
			if (err)
				return err;
			hits += v;
		}
		if (hits > ring->samples + ring->lost) {
			uint64_t missing = hits - ring->samples - ring->lost;

			ring->lost += missing;
			sdt_rec_on_lost(r, (uint32_t)ring->cpu, missing);
		}
	}
	return 0;
}
