/* SPDX-License-Identifier: MIT */
/*
 * Thread names: those the kernel reports (COMM records), those a new thread inherits from its
 * parent (FORK records carry none), and those the targets' threads have at the start (/proc).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/samples.h"
#include "sdtrace/record.h"
#include "trace/trace_event.h"

static struct rec_comm_slot *comm_find(struct rec_samples *sp, uint32_t tid)
{
	size_t i, mask = sp->comms_cap - 1;

	if (!sp->comms_cap)
		return NULL;
	for (i = (tid * 2654435761u) & mask;; i = (i + 1) & mask) {
		if (sp->comms[i].tid == tid || !sp->comms[i].tid)
			return &sp->comms[i];
	}
}

/* Remember @tid's name (best effort: out of memory or too many threads only lose names). */
static void comm_remember(struct rec_samples *sp, uint32_t tid, const char *comm)
{
	struct rec_comm_slot *slot;

	if (!tid)
		return;
	if ((sp->comms_n + 1) * 2 > sp->comms_cap) {
		size_t ncap = sp->comms_cap ? sp->comms_cap * 2 : 256, i;
		struct rec_comm_slot *old = sp->comms, *nw;

		if (ncap > COMM_MAP_MAX * 2)
			return;
		nw = calloc(ncap, sizeof(*nw));
		if (!nw)
			return;
		sp->comms = nw;
		sp->comms_cap = ncap;
		sp->comms_n = 0;
		for (i = 0; old && i < ncap / 2; i++) {
			if (old[i].tid) {
				*comm_find(sp, old[i].tid) = old[i];
				sp->comms_n++;
			}
		}
		free(old);
	}
	slot = comm_find(sp, tid);
	if (!slot->tid)
		sp->comms_n++;
	slot->tid = tid;
	snprintf(slot->comm, sizeof(slot->comm), "%s", comm);
}

void sdt_rec_on_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm)
{
	struct rec_samples *sp = ctx;

	comm_remember(sp, tid, comm);
	if (sp->fdec)
		sdt_trace_decoder__comm(sp->fdec, pid, tid, comm);
	if (sp->sink->on_comm)
		sp->sink->on_comm(sp->sink->ctx, pid, tid, comm);
}

/* A new thread or process carries its parent thread's name until it execs or renames itself. */
void sdt_rec_on_fork(void *ctx, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	struct rec_samples *sp = ctx;
	struct rec_comm_slot *parent = comm_find(sp, ptid);
	char comm[16];

	(void)ppid;
	if (!parent || parent->tid != ptid || tid == ptid)
		return;
	memcpy(comm, parent->comm, sizeof(comm));
	comm_remember(sp, tid, comm);
	if (sp->fdec)
		sdt_trace_decoder__comm(sp->fdec, pid, tid, comm);
	if (sp->sink->on_comm)
		sp->sink->on_comm(sp->sink->ctx, pid, tid, comm);
}

/* Hand the current name of every thread of process @pid to the sink. */
static void process_comms(struct rec_samples *sp, pid_t pid)
{
	char path[96], comm[32];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		long tid = strtol(d->d_name, NULL, 10);
		ssize_t n;
		int fd;

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%ld/comm", (int)pid, tid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, comm, sizeof(comm) - 1);
		close(fd);
		if (n <= 0)
			continue;
		comm[n] = '\0';
		comm[strcspn(comm, "\n")] = '\0';
		comm_remember(sp, (uint32_t)tid, comm);
		sp->sink->on_comm(sp->sink->ctx, (uint32_t)pid, (uint32_t)tid, comm);
	}
	closedir(dir);
}

/*
 * The names threads have now (the -p processes' threads; every thread with -a): the kernel only
 * reports later changes (exec, prctl), and the report names processes by them.
 */
void sdt_rec_comms_synthesize(struct rec_samples *sp, const pid_t *pids, size_t npids,
			      bool system_wide)
{
	struct dirent *d;
	size_t i;
	DIR *dir;

	if (!sp->sink->on_comm)
		return;
	for (i = 0; i < npids; i++)
		process_comms(sp, pids[i]);
	if (!system_wide || !(dir = opendir("/proc")))
		return;
	while ((d = readdir(dir))) {
		long pid = strtol(d->d_name, NULL, 10);

		if (pid > 0)
			process_comms(sp, (pid_t)pid);
	}
	closedir(dir);
}
