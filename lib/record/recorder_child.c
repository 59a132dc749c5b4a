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

#include "record/child.h"
#include "util/internal.h"

/* No command yet: no pid, no pipes. */
void sdt_rec_child_init(struct rec_child *c)
{
	c->pid = -1;
	c->go_fd = c->err_fd = -1;
	c->status = -1;
}

/*
 * In the child: wait for the release byte (EOF: sdtrace gave up before arming), then exec.
 * A failed exec's errno goes up the error pipe; the exit status is 127 either way.
 */
static void __attribute__((noreturn))
child_main(char *const *argv, const struct rec_signals *sig, bool traceme, int go, int ep)
{
	char c;
	ssize_t n;
	int e;

	sdt_rec_signals_in_child(sig);
	if (traceme && ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(127);
	do
		n = read(go, &c, 1);
	while (n < 0 && errno == EINTR);
	if (n != 1)
		_exit(127); /* sdtrace gave up before arming */
	execvp(argv[0], argv);
	e = errno;
	if (write(ep, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int sdt_rec_child_start(struct rec_child *c, char *const *argv, const struct rec_signals *sig,
			bool traceme)
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
		return sdt_err(-e, "cannot start '%s': fork: %s", argv[0], strerror(e));
	}
	if (pid == 0) {
		close(go[1]);
		close(ep[0]);
		child_main(argv, sig, traceme, go[0], ep[1]);
	}
	close(go[0]);
	close(ep[1]);
	c->argv = argv;
	c->go_fd = go[1];
	c->err_fd = ep[0];
	c->pid = pid;
	return 0;
}

void sdt_rec_child_reap(struct rec_child *c, bool block)
{
	int st;
	pid_t p;

	if (c->pid < 0 || c->reaped)
		return;
	do
		p = waitpid(c->pid, &st, block ? 0 : WNOHANG);
	while (p < 0 && errno == EINTR);
	if (p == c->pid) {
		c->status = st;
		c->reaped = true;
	}
}

/*
 * Traced (PTRACE_TRACEME), the child stops with SIGTRAP once its exec is done: the new image is
 * mapped and has not run; @poke its semaphores then, and let it go. Signals it got before are
 * passed on. 0 or -errno.
 */
static int poke_at_exec(struct rec_child *c, int (*poke)(void *ctx, pid_t pid), void *ctx)
{
	int err, st;

	for (;;) {
		pid_t p = waitpid(c->pid, &st, 0);

		if (p < 0 && errno == EINTR)
			continue;
		if (p != c->pid)
			return 0;
		if (!WIFSTOPPED(st)) {
			c->status = st;
			c->reaped = true;
			return 0;
		}
		if (WSTOPSIG(st) != SIGTRAP) {
			ptrace(PTRACE_CONT, c->pid, NULL, (void *)(long)WSTOPSIG(st));
			continue;
		}
		err = poke(ctx, c->pid);
		ptrace(PTRACE_DETACH, c->pid, NULL, NULL);
		return err < 0 ? err : 0;
	}
}

/* Let the command exec; with @poke, catch it at its exec stop and enable the semaphores. */
int sdt_rec_child_release(struct rec_child *c, int (*poke)(void *ctx, pid_t pid), void *ctx)
{
	int e = 0, err = 0;
	ssize_t n;

	n = write(c->go_fd, "g", 1);
	close(c->go_fd);
	c->go_fd = -1;
	if (n != 1)
		return sdt_err(-EIO, "cannot release '%s'", c->argv[0]);
	c->released = true;
	if (poke) {
		err = poke_at_exec(c, poke, ctx);
		if (err)
			return err;
	}
	do
		n = read(c->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->err_fd);
	c->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		sdt_rec_child_reap(c, true);
		return sdt_err(-e, "cannot run '%s': %s", c->argv[0], strerror(e));
	}
	return err;
}

/* A stop signal is pending (blocked until sdt_rec_signals_restore()): a second one came. */
static bool stop_again(void)
{
	sigset_t p;

	return !sigpending(&p) &&
	       (sigismember(&p, SIGINT) || sigismember(&p, SIGTERM) || sigismember(&p, SIGHUP));
}

/*
 * Stop the command as a shell's `kill` stops a job: SIGTERM, and SIGCONT in case it is stopped
 * (a stopped process acts on neither SIGTERM nor anything but SIGKILL). One that ignores
 * SIGTERM, or stays stopped, is sent SIGKILL after SDT_CHILD_TERM_MS or at a second stop
 * signal, whichever comes first: sdtrace never hangs on it (see sdtrace-record(1)).
 */
static void terminate(struct rec_child *c)
{
	unsigned waited;

	kill(c->pid, SIGTERM);
	kill(c->pid, SIGCONT);
	for (waited = 0; waited < SDT_CHILD_TERM_MS; waited += 10) {
		sdt_rec_child_reap(c, false);
		if (c->reaped)
			return;
		if (stop_again())
			break;
		usleep(10000);
	}
	kill(c->pid, SIGKILL);
}

/*
 * The end of the command: one never released sees EOF and exits without running; one running
 * is stopped by terminate() when @kill (an error, or a stop was asked); then it is waited for.
 */
void sdt_rec_child_end(struct rec_child *c, bool kill_it)
{
	if (c->pid > 0 && !c->reaped) {
		if (c->go_fd >= 0) {
			/* never released: the child sees EOF and exits without running CMD */
			close(c->go_fd);
			c->go_fd = -1;
		} else if (kill_it) {
			terminate(c);
		}
		sdt_rec_child_reap(c, true);
	}
	if (c->err_fd >= 0) {
		close(c->err_fd);
		c->err_fd = -1;
	}
}
