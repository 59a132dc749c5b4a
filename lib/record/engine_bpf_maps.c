/* SPDX-License-Identifier: MIT */
/*
 * The BPF engine's mappings (record -g): the report symbolizes a stack offline from each mapped
 * file's build-id and load address, which the BPF program does not see. As the tracefs engine
 * does, they come from the kernel's PERF_RECORD_MMAP2 records (with the build-id, 5.12 on):
 * a watch event (perf_event.h: a dummy software event, executable mmaps only) per CPU on the
 * command (inherited by its threads and children, enabled at its exec), on each -p process, or
 * on every process (-a), each CPU's events writing into one small perf ring of its own. The
 * mappings there before the start (-p, -a) are read from /proc/PID/maps (recorder_maps.c).
 *
 * The rings are read before the BPF rings at each drain: a library is mapped before its code
 * hits a probe, so its MAPPING record comes first in the recording (the reader needs it before
 * the samples that use it).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "record/engine_bpf.h"
#include "record/perf_event.h"
#include "record/recorder.h"
#include "record/ring.h"
#include "util/internal.h"

/* The epoll tag of the watch rings: below PID_TAG, as the BPF rings' 0 (engine_bpf.c drains). */
#define WATCH_TAG 1

static int push(struct rec_bpf_maps *m, int fd)
{
	size_t cap = m->fds_cap;

	if (sdt_grow((void **)&m->fds, &cap, m->nfds + 1, sizeof(*m->fds))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	m->fds_cap = cap;
	m->fds[m->nfds++] = fd;
	return 0;
}

/* CPU @cpu's watch events on @pids (-1: every process), into one ring. */
static int open_cpu(struct sdt_recorder *r, int cpu, const pid_t *pids, size_t npids)
{
	struct rec_bpf_maps *m = &r->bpf->maps;
	struct sdt_perf_open_opts po = {
	    .inherit = !r->o.system_wide,
	    .enable_on_exec = r->child.pid > 0,
	    .wakeup_bytes = 1,
	};
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = WATCH_TAG};
	int ring_fd = -1, fd, err;
	size_t i;

	for (i = 0; i < npids; i++) {
		fd = sdt_perf_open_watch(&po, pids[i], cpu);
		if (fd == -ESRCH && r->o.npids)
			continue; /* a -p process gone meanwhile */
		if (fd < 0)
			return fd;
		err = push(m, fd);
		if (err)
			return err;
		if (ring_fd >= 0) {
			err = sdt_perf_set_output(fd, ring_fd);
			if (err)
				return err;
			continue;
		}
		err = sdt_ring_map(&m->rings[m->nrings], fd, cpu, WATCH_RING_PAGES);
		if (err)
			return err;
		m->nrings++;
		ring_fd = fd;
		if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ev))
			return sdt_err(-errno, "epoll_ctl: %s", strerror(errno));
	}
	return 0;
}

int sdt_rec_bpf_maps_open(struct sdt_recorder *r)
{
	struct rec_bpf_maps *m = &r->bpf->maps;
	const pid_t every = -1, *pids = r->o.pids;
	size_t npids = r->o.npids, ncpus = 0, c, i;
	int *cpus = NULL, err;

	if (r->o.system_wide) {
		pids = &every;
		npids = 1;
	} else if (r->child.pid > 0) {
		pids = &r->child.pid;
		npids = 1;
	}
	err = sdt_online_cpus(&cpus, &ncpus);
	if (err)
		return err;
	m->rings = calloc(ncpus ? ncpus : 1, sizeof(*m->rings));
	if (!m->rings)
		err = sdt_err(-ENOMEM, "out of memory");
	for (c = 0; !err && c < ncpus; c++)
		err = open_cpu(r, cpus[c], pids, npids);
	/* a command's start at its exec (enable_on_exec), the others' now */
	for (i = 0; !err && r->child.pid <= 0 && i < m->nfds; i++)
		err = sdt_perf_enable(m->fds[i]);
	free(cpus);
	return err;
}

static void on_mmap(void *ctx, const struct sdt_ring_mmap *rm)
{
	sdt_rec_samples_mapping(ctx, rm);
}

int sdt_rec_bpf_maps_drain(struct sdt_recorder *r)
{
	struct rec_bpf_maps *m = &r->bpf->maps;
	struct sdt_ring_ops ops = {.ctx = &r->samples, .mmap = on_mmap};
	int n;

	if (!m->nrings)
		return 0;
	n = sdt_rings_drain(m->rings, m->nrings, &ops);
	return n < 0 ? n : 0;
}

void sdt_rec_bpf_maps_close(struct rec_bpf_maps *m)
{
	size_t i;

	for (i = 0; i < m->nrings; i++)
		sdt_ring_unmap(&m->rings[i]);
	for (i = 0; i < m->nfds; i++)
		close(m->fds[i]);
	free(m->rings);
	free(m->fds);
	memset(m, 0, sizeof(*m));
}
