/* SPDX-License-Identifier: MIT */
/*
 * Targets: the threads the perf events follow (those of -p processes, the command, or -1 for
 * the whole system), and the processes whose exit ends the recording (pidfds in the epoll set).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "record/recorder.h"
#include "util/internal.h"

int sdt_rec_targets_add_tid(struct sdt_recorder *r, pid_t tid)
{
	size_t cap = r->ntids;

	if (sdt_grow((void **)&r->tids, &cap, r->ntids + 1, sizeof(*r->tids)))
		return sdt_err(-ENOMEM, "out of memory");
	r->tids[r->ntids++] = tid;
	return 0;
}

int sdt_rec_targets_add_process(struct sdt_recorder *r, pid_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return sdt_err(errno == ENOENT ? -ESRCH : -errno, "no process %d: %s", (int)pid,
			       strerror(errno));
	while (!err && (d = readdir(dir))) {
		long tid = strtol(d->d_name, NULL, 10);

		if (tid > 0)
			err = sdt_rec_targets_add_tid(r, (pid_t)tid);
	}
	closedir(dir);
	return err;
}

int sdt_rec_targets_watch(struct sdt_recorder *r, pid_t pid)
{
	struct epoll_event ev = {.events = EPOLLIN};
	size_t cap = r->nwatch;
	int fd;

	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0)
		return sdt_err(-errno, "cannot watch process %d: pidfd_open: %s", (int)pid,
			       strerror(errno));
	if (sdt_grow((void **)&r->watch, &cap, r->nwatch + 1, sizeof(*r->watch))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	ev.data.u64 = PID_TAG + r->nwatch;
	if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		int e = errno;

		close(fd);
		return sdt_err(-e, "epoll_ctl: %s", strerror(e));
	}
	r->watch[r->nwatch].pid = pid;
	r->watch[r->nwatch].pidfd = fd;
	r->watch[r->nwatch].done = false;
	r->nwatch++;
	r->live++;
	return 0;
}
