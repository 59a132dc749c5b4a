/* SPDX-License-Identifier: MIT */
/*
 * Following the command: it is traced (PTRACE_SEIZE) from before its exec, with its future
 * children and threads (PTRACE_O_TRACEFORK, _VFORK, _CLONE). At each exec stop the new image has
 * been mapped and has not run: it is resolved and armed then (recorder_late.c), so that its
 * first instruction is recorded, and the process goes on. Every other stop is passed through:
 * a signal-delivery stop re-injects its signal, a group-stop is left stopped with PTRACE_LISTEN
 * (a stopped job stays stopped, SIGCONT resumes it), the stops of new tracees resume them.
 *
 * PTRACE_O_EXITKILL is not set: when sdtrace dies (SIGKILL), the kernel detaches the tracees and
 * they go on untraced. At the end, every tracee is interrupted and detached (PTRACE_INTERRUPT,
 * then PTRACE_DETACH with the signal it was stopped for).
 *
 * The stops are learnt from SIGCHLD (a signalfd in the recorder's epoll set: SIGCHLD is blocked
 * in the calling thread during the run) and read with waitpid() on each known tracee, never
 * waitpid(-1): the caller's other children are not reaped.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "record/engine.h"
#include "record/perf_event.h"
#include "record/recorder.h"
#include "util/internal.h"

#define TRACE_OPTIONS                                                                         \
	(PTRACE_O_TRACEEXEC | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE)

/* How long the end waits for the tracees to stop so that they can be detached. */
#define DETACH_WAIT_MS 5000
/* How long the end waits for the command to end of a signal given back at its detach. */
#define SIGNAL_GRACE_MS 200

static int tracee_add(struct rec_follow *f, pid_t tid)
{
	size_t cap = f->cap, i;

	for (i = 0; i < f->n; i++)
		if (f->t[i].tid == tid)
			return 0;
	if (sdt_grow((void **)&f->t, &cap, f->n + 1, sizeof(*f->t)))
		return sdt_err(-ENOMEM, "out of memory");
	f->cap = cap;
	f->t[f->n].tid = tid;
	f->t[f->n].listening = false;
	f->t[f->n].anchors = NULL;
	f->t[f->n].nanchors = f->t[f->n].anchors_cap = 0;
	f->n++;
	return 0;
}

static void tracee_del(struct rec_follow *f, pid_t tid)
{
	size_t i;

	for (i = 0; i < f->n; i++) {
		if (f->t[i].tid == tid) {
			sdt_perf_close_all(f->t[i].anchors, f->t[i].nanchors);
			free(f->t[i].anchors);
			f->t[i] = f->t[--f->n];
			return;
		}
	}
}

/*
 * Tracee @parent made @child (a fork stop: @parent waits for us, and @child has not run a user
 * instruction yet, it waits at its first stop). A new process gets anchors (recorder.h,
 * sdt_rec_perf_open_anchors()): its inherited events alone would not keep its breakpoints. A
 * new thread needs none: its process's anchors or the command's own events cover its mm.
 */
static int anchor_child(struct sdt_recorder *r, pid_t parent, pid_t child, int event)
{
	struct rec_follow *f = &r->follow;
	char path[64];
	size_t i;

	if (event == PTRACE_EVENT_CLONE) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)parent, (int)child);
		if (access(path, F_OK) == 0)
			return 0; /* a thread */
	}
	for (i = 0; i < f->n; i++)
		if (f->t[i].tid == child && !f->t[i].nanchors)
			return sdt_rec_late_anchor(r, parent, child, &f->t[i].anchors,
						   &f->t[i].nanchors, &f->t[i].anchors_cap);
	return 0;
}

int sdt_rec_follow_start(struct sdt_recorder *r)
{
	struct rec_follow *f = &r->follow;
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = FOLLOW_TAG};
	sigset_t chld, old;
	int e;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, &old);
	f->chld_blocked = !sigismember(&old, SIGCHLD);
	/* and during the wait too: an unblocked SIGCHLD of default disposition is discarded */
	sigaddset(&r->sig.waitmask, SIGCHLD);
	f->sigfd = signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
	if (f->sigfd < 0)
		return sdt_err(-errno, "signalfd: %s", strerror(errno));
	if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, f->sigfd, &ev))
		return sdt_err(-errno, "epoll_ctl: %s", strerror(errno));
	if (ptrace(PTRACE_SEIZE, r->child.pid, NULL, (void *)(long)TRACE_OPTIONS)) {
		e = errno;
		return sdt_err(-e, "cannot follow '%s' (ptrace): %s%s", r->child.argv[0],
			       strerror(e), e == EPERM ? " (try --no-follow)" : "");
	}
	f->on = true;
	return tracee_add(f, r->child.pid);
}

static void resume(pid_t tid, int sig)
{
	ptrace(PTRACE_CONT, tid, NULL, (void *)(long)sig);
}

static bool is_stop_signal(int sig)
{
	return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

/* Tracee @tid reported @st. 0, or -errno when the recording must end. */
static int on_stop(struct sdt_recorder *r, pid_t tid, int st)
{
	struct rec_follow *f = &r->follow;
	int sig, event, err = 0;
	unsigned long msg = 0;

	if (WIFEXITED(st) || WIFSIGNALED(st)) {
		tracee_del(f, tid);
		sdt_rec_late_gone(r, tid);
		if (tid == r->child.pid && !r->child.reaped) {
			r->child.status = st;
			r->child.reaped = true;
		}
		return 0;
	}
	if (!WIFSTOPPED(st))
		return 0;
	f->stops++;
	sig = WSTOPSIG(st);
	event = st >> 16;
	switch (event) {
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		f->forks++;
		if (!ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg) && msg) {
			err = tracee_add(f, (pid_t)msg);
			sdt_rec_late_inherit(r, tid, (pid_t)msg);
			if (!err)
				err = anchor_child(r, tid, (pid_t)msg, event);
		}
		resume(tid, 0);
		return err;
	case PTRACE_EVENT_EXEC:
		f->execs++;
		if (ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg))
			msg = (unsigned long)tid;
		if ((pid_t)msg != tid)
			tracee_del(f, (pid_t)msg);
		err = sdt_rec_late_exec(r, tid, (pid_t)msg);
		if (!err && tid == r->child.pid && r->late.sem_poke == 1) {
			/* the command's own exec: its semaphores (as without following) */
			r->late.sem_poke = 2;
			err = r->eng->poke(r, tid);
			if (err > 0)
				err = 0;
		}
		resume(tid, 0);
		return err;
	case PTRACE_EVENT_STOP:
		if (is_stop_signal(sig)) {
			/* a group-stop: stay stopped, but tell us about SIGCONT */
			size_t i;

			for (i = 0; i < f->n; i++)
				if (f->t[i].tid == tid)
					f->t[i].listening = true;
			ptrace(PTRACE_LISTEN, tid, NULL, NULL);
			return 0;
		}
		/* a new tracee's first stop, or the end of a group-stop */
		resume(tid, 0);
		return 0;
	default:
		/* a signal-delivery stop: the signal goes on to the tracee */
		f->signals++;
		resume(tid, sig);
		return 0;
	}
}

int sdt_rec_follow_wakeup(struct sdt_recorder *r)
{
	struct rec_follow *f = &r->follow;
	struct signalfd_siginfo si;
	bool progress = true;
	size_t i;
	int st, err;

	while (read(f->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si))
		;
	while (progress) {
		progress = false;
		for (i = 0; i < f->n; i++) {
			pid_t tid = f->t[i].tid, p;

			p = waitpid(tid, &st, WNOHANG | __WALL);
			if (p < 0 && errno == ECHILD) {
				/* gone without a word (a thread of an exec) */
				tracee_del(f, tid);
				sdt_rec_late_gone(r, tid);
				progress = true;
				break;
			}
			if (p != tid)
				continue;
			f->t[i].listening = false;
			err = on_stop(r, tid, st);
			if (err)
				return err;
			progress = true;
			break; /* the list may have changed */
		}
	}
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {0, ms * 1000000L};

	nanosleep(&ts, NULL);
}

/*
 * The end: every tracee interrupted, each stop answered by a detach (with the signal it was
 * stopped for; a group-stop stays a stop). New children reported meanwhile are detached too.
 */
void sdt_rec_follow_end(struct sdt_recorder *r)
{
	struct rec_follow *f = &r->follow;
	bool gave_signal = false;
	long waited = 0;
	size_t i;

	if (f->on) {
		for (i = 0; i < f->n; i++)
			ptrace(PTRACE_INTERRUPT, f->t[i].tid, NULL, NULL);
		while (f->n && waited < DETACH_WAIT_MS) {
			bool any = false;

			for (i = 0; i < f->n; i++) {
				pid_t tid = f->t[i].tid, p;
				unsigned long msg = 0;
				int st, sig = 0;

				p = waitpid(tid, &st, WNOHANG | __WALL);
				if (p < 0 && errno == ECHILD) {
					tracee_del(f, tid);
					any = true;
					break;
				}
				if (p != tid)
					continue;
				any = true;
				if (!WIFSTOPPED(st)) {
					if (tid == r->child.pid && !r->child.reaped) {
						r->child.status = st;
						r->child.reaped = true;
					}
					tracee_del(f, tid);
					break;
				}
				switch (st >> 16) {
				case PTRACE_EVENT_FORK:
				case PTRACE_EVENT_VFORK:
				case PTRACE_EVENT_CLONE:
					if (!ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg) && msg)
						tracee_add(f, (pid_t)msg);
					break;
				case 0:
					sig = WSTOPSIG(st);
					break;
				default:
					break;
				}
				ptrace(PTRACE_DETACH, tid, NULL, (void *)(long)sig);
				gave_signal |= sig != 0;
				tracee_del(f, tid);
				break;
			}
			if (!any) {
				sleep_ms(1);
				waited++;
			}
		}
		f->on = false;
	}
	/*
	 * A stop signal of ours may have reached the command too (a Ctrl-C of the terminal's
	 * group), held at its ptrace stop until read: given back just now, at the detach, or by
	 * the last wake-up. A moment for the command to end of it, before the end's SIGTERM
	 * (sdt_rec_child_end()) takes its place and its status.
	 */
	for (waited = 0; (gave_signal || r->stop_sig) && r->child.pid > 0 && !r->child.reaped &&
			 waited < SIGNAL_GRACE_MS; waited++) {
		int st;

		if (waitpid(r->child.pid, &st, WNOHANG) == r->child.pid) {
			r->child.status = st;
			r->child.reaped = true;
		} else {
			sleep_ms(1);
		}
	}
	/* the tracees not detached in time: their anchors go with the recording */
	for (i = 0; i < f->n; i++) {
		sdt_perf_close_all(f->t[i].anchors, f->t[i].nanchors);
		free(f->t[i].anchors);
		f->t[i].anchors = NULL;
		f->t[i].nanchors = f->t[i].anchors_cap = 0;
	}
	if (f->sigfd >= 0) {
		close(f->sigfd);
		f->sigfd = -1;
	}
	if (f->chld_blocked) {
		sigset_t chld;

		sigemptyset(&chld);
		sigaddset(&chld, SIGCHLD);
		pthread_sigmask(SIG_UNBLOCK, &chld, NULL);
		f->chld_blocked = false;
	}
}
