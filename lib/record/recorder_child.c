/* SPDX-License-Identifier: MIT */
/*
 * The command: forked stopped (it blocks on a pipe before exec), released once every probe is
 * armed (traced up to its exec when its semaphores are poked), and waited for.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/recorder.h"
#include "record/uprobe.h"
#include "util/internal.h"

int sdt_rec_child_start(struct sdt_recorder *r, bool traceme)
{
	int go[2] = {-1, -1}, ep[2] = {-1, -1};
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) || pipe2(ep, O_CLOEXEC)) {
		int e = errno;

		if (go[0] >= 0) {
			close(go[0]);
			close(go[1]);
		}
		return sdt_err(-e, "cannot create a pipe: %s", strerror(e));
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(ep[0]);
		close(ep[1]);
		return sdt_err(-e, "cannot start '%s': fork: %s", r->o.argv[0], strerror(e));
	}
	if (pid == 0) {
		char c;
		ssize_t n;
		int e;

		sdt_rec_signals_in_child(r);
		close(go[1]);
		close(ep[0]);
		if (traceme && ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(127);
		do
			n = read(go[0], &c, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(127); /* sdtrace gave up before arming */
		execvp(r->o.argv[0], r->o.argv);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ep[1]);
	r->go_fd = go[1];
	r->err_fd = ep[0];
	r->child = pid;
	return 0;
}

void sdt_rec_child_reap(struct sdt_recorder *r, bool block)
{
	int st;
	pid_t p;

	if (r->child < 0 || r->reaped)
		return;
	do
		p = waitpid(r->child, &st, block ? 0 : WNOHANG);
	while (p < 0 && errno == EINTR);
	if (p == r->child) {
		r->status = st;
		r->reaped = true;
	}
}

/* Let the command exec; with @poke, catch it at its exec stop and enable the semaphores. */
int sdt_rec_child_release(struct sdt_recorder *r, bool poke)
{
	int e = 0, err = 0, st;
	ssize_t n;

	n = write(r->go_fd, "g", 1);
	close(r->go_fd);
	r->go_fd = -1;
	if (n != 1)
		return sdt_err(-EIO, "cannot release '%s'", r->o.argv[0]);
	r->released = true;
	/*
	 * Traced (PTRACE_TRACEME), the child stops with SIGTRAP once its exec is done: the new
	 * image is mapped and has not run. Signals it got before are passed on.
	 */
	while (poke) {
		pid_t p = waitpid(r->child, &st, 0);

		if (p < 0 && errno == EINTR)
			continue;
		if (p != r->child)
			break;
		if (!WIFSTOPPED(st)) {
			r->status = st;
			r->reaped = true;
			break;
		}
		if (WSTOPSIG(st) != SIGTRAP) {
			ptrace(PTRACE_CONT, r->child, NULL, (void *)(long)WSTOPSIG(st));
			continue;
		}
		err = sdt_uprobe_set__poke(r->set, r->child);
		ptrace(PTRACE_DETACH, r->child, NULL, NULL);
		if (err < 0)
			return err;
		err = 0;
		break;
	}
	do
		n = read(r->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(r->err_fd);
	r->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		sdt_rec_child_reap(r, true);
		return sdt_err(-e, "cannot run '%s': %s", r->o.argv[0], strerror(e));
	}
	return err;
}
