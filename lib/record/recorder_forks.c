/* SPDX-License-Identifier: MIT */
/*
 * Processes forked without ptrace (-p, or a command with --no-follow; tracefs engine) on a
 * kernel without the no-swap fork guard (before 6.12, or SDTRACE_FORK_GUARD=thread; see
 * perf_event.h): each new process of the targets gets, when its FORK record is read, a fork
 * guard and anchors (recorder.h: sdt_rec_perf_open_anchors()), closed at its EXIT record.
 *
 * Why: the older fork guard of each target thread keeps the contexts of the processes it forks
 * from being clones, but not those of their children: a process forked by a forked process has
 * a context cloned from its parent's, the two are swapped at a context switch, and when one of
 * them exits it frees the inherited events the other relied on; the uprobe filter then finds
 * no event for the other's mm and takes its breakpoints away (BENCHMARKS.md has the
 * numbers).
 *
 * Opening any event on a process also unclones its context (the kernel's find_get_context()),
 * so the swap stops at once; the guard keeps the process's later children from being clones,
 * and the anchors keep its mm in the filter (and apply the breakpoints again, uprobe_apply(), if
 * a swap before the anchor took them away). What is left: a process swapped with its parent
 * and ended between its fork and the reading of its FORK record (the reader wakes at each watch
 * record): about 2 % of the hits of a tree of processes that fork as soon as they start.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "record/perf_event.h"
#include "record/recorder.h"
#include "util/internal.h"

/* At most this many processes guarded at once (each holds 1 + one fd per tracefs event). */
#define FORKS_MAX 4096

static struct rec_fork_anchor *find(struct rec_forks *f, pid_t pid)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->p[i].pid == pid)
			return &f->p[i];
	return NULL;
}

static void drop(struct rec_forks *f, struct rec_fork_anchor *a)
{
	sdt_perf_close_all(a->fds, a->nfds);
	free(a->fds);
	*a = f->p[--f->n];
}

/* The guard, then the anchors of every set @ptid has: 0, -ESRCH (gone) or -errno. */
static int guard_and_anchor(struct sdt_recorder *r, struct rec_fork_anchor *a, pid_t ptid)
{
	int fd = sdt_perf_open_fork_guard(a->pid, r->perf.no_swap_guard);

	if (fd < 0)
		return fd;
	if (sdt_grow((void **)&a->fds, &a->cap, a->nfds + 1, sizeof(*a->fds))) {
		sdt_perf_close_all(&fd, 1);
		return sdt_err(-ENOMEM, "out of memory");
	}
	a->fds[a->nfds++] = fd;
	return sdt_rec_late_anchor(r, ptid, a->pid, &a->fds, &a->nfds, &a->cap);
}

void sdt_rec_forks_born(struct sdt_recorder *r, pid_t pid, pid_t ptid)
{
	struct rec_forks *f = &r->forks;
	struct rec_fork_anchor *a;
	size_t cap = f->cap;
	int err;

	if (!f->on || pid <= 0)
		return;
	a = find(f, pid);
	if (a)
		drop(f, a); /* its EXIT record was lost: the pid is another process's now */
	if (f->n >= FORKS_MAX || sdt_grow((void **)&f->p, &cap, f->n + 1, sizeof(*f->p))) {
		f->unguarded++;
		return;
	}
	f->cap = cap;
	a = &f->p[f->n++];
	memset(a, 0, sizeof(*a));
	a->pid = pid;
	err = guard_and_anchor(r, a, ptid);
	if (err == -ESRCH) {
		drop(f, a); /* gone already: nothing of its own left to lose */
		return;
	}
	if (err) {
		f->unguarded++;
		if (!f->told)
			sdt_debug("cannot guard process %d, forked by %d: %s\n", (int)pid,
				  (int)ptid, sdt_errmsg());
		f->told = true;
		drop(f, a);
		return;
	}
	f->guarded++;
}

void sdt_rec_forks_gone(struct sdt_recorder *r, pid_t pid)
{
	struct rec_fork_anchor *a = find(&r->forks, pid);

	if (a)
		drop(&r->forks, a);
}

void sdt_rec_forks_release(struct sdt_recorder *r)
{
	struct rec_forks *f = &r->forks;

	if (f->guarded || f->unguarded)
		sdt_debug("forks: %llu processes guarded, %llu not\n",
			  (unsigned long long)f->guarded, (unsigned long long)f->unguarded);
	if (f->unguarded)
		sdt_print(SDT_WARN,
			  "%llu processes forked during the recording could not be guarded (at "
			  "most %d at once, or out of file descriptors): their hits, and those of "
			  "the processes they fork, may be missing\n",
			  (unsigned long long)f->unguarded, FORKS_MAX);
	f->guarded = f->unguarded = 0;
	while (f->n)
		drop(f, &f->p[f->n - 1]);
	free(f->p);
	f->p = NULL;
	f->cap = 0;
}
