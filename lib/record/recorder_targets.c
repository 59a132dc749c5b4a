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

#include "record/targets.h"
#include "util/internal.h"

int sdt_rec_targets_add_tid(struct rec_targets *t, pid_t tid)
{
	size_t cap = t->ntids;

	if (sdt_grow((void **)&t->tids, &cap, t->ntids + 1, sizeof(*t->tids)))
		return sdt_err(-ENOMEM, "out of memory");
	t->tids[t->ntids++] = tid;
	return 0;
}

int sdt_rec_targets_add_process(struct rec_targets *t, pid_t pid)
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
			err = sdt_rec_targets_add_tid(t, (pid_t)tid);
	}
	closedir(dir);
	return err;
}

int sdt_rec_targets_watch(struct rec_targets *t, int epfd, pid_t pid)
{
	struct epoll_event ev = {.events = EPOLLIN};
	size_t cap = t->nwatch;
	int fd;

	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0)
		return sdt_err(-errno, "cannot watch process %d: pidfd_open: %s", (int)pid,
			       strerror(errno));
	if (sdt_grow((void **)&t->watch, &cap, t->nwatch + 1, sizeof(*t->watch))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	ev.data.u64 = PID_TAG + t->nwatch;
	if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &ev)) {
		int e = errno;

		close(fd);
		return sdt_err(-e, "epoll_ctl: %s", strerror(e));
	}
	t->watch[t->nwatch].pid = pid;
	t->watch[t->nwatch].pidfd = fd;
	t->watch[t->nwatch].done = false;
	t->nwatch++;
	t->live++;
	return 0;
}

/* Watched process @i's pidfd is readable (it exited): out of the epoll set, one fewer live. */
pid_t sdt_rec_targets_exited(struct rec_targets *t, int epfd, size_t i)
{
	struct rec_watched *w;

	if (i >= t->nwatch || t->watch[i].done)
		return 0;
	w = &t->watch[i];
	w->done = true;
	t->live--;
	epoll_ctl(epfd, EPOLL_CTL_DEL, w->pidfd, NULL);
	return w->pid;
}

bool sdt_rec_targets_all_exited(const struct rec_targets *t)
{
	return t->nwatch && !t->live;
}

void sdt_rec_targets_close(struct rec_targets *t)
{
	size_t i;

	for (i = 0; i < t->nwatch; i++)
		close(t->watch[i].pidfd);
	t->nwatch = 0;
}

void sdt_rec_targets_release(struct rec_targets *t)
{
	free(t->tids);
	free(t->watch);
	memset(t, 0, sizeof(*t));
}
