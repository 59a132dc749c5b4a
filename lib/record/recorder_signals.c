/* SPDX-License-Identifier: MIT */
/*
 * The recorder's process-wide side: the one recorder running, the signals that stop it (caught
 * and blocked during the run, given back to the command as the caller had them), and the
 * atexit handler that removes the uprobes when a sink calls exit().
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "record/engine.h"
#include "record/perf_event.h"
#include "record/recorder.h"
#include "util/internal.h"

/*
 * The signals that stop a recording cleanly. SIGINT is caught even when it was ignored at the
 * start, as perf and bpftrace do: a non-interactive shell starts `cmd &` with SIGINT ignored,
 * and `sdtrace record ... & ...; kill -INT $!` is how every tutorial stops a tracer in a script.
 * An ignored SIGHUP stays ignored (nohup). SIGTERM is always caught.
 */
static const struct {
	int sig;
	bool keep_ignored;
} stop_signals[] = {{SIGINT, false}, {SIGHUP, true}, {SIGTERM, false}};
_Static_assert(ARRAY_SIZE(stop_signals) == SDT_STOP_SIGNALS, "recorder.h counts them");

/* The recorder inside sdt_recorder__run(), for the signal and atexit handlers. */
static struct sdt_recorder *volatile active;

/* A stop signal: the loop sees ->stop when epoll_pwait() returns (EINTR). */
static void on_signal(int sig)
{
	struct sdt_recorder *r = active;

	if (r) {
		if (!r->stop_sig)
			r->stop_sig = sig;
		r->stop = 1;
	}
}

/* exit() during a recording (a sink calling exit): close what holds the events, remove them. */
static void at_exit_cleanup(void)
{
	struct sdt_recorder *r = active;
	size_t i;

	if (r) {
		sdt_rec_perf_abandon(&r->perf);
		/* the anchors hold the uprobes' events too */
		sdt_rec_forks_release(r);
		for (i = 0; i < r->follow.n; i++)
			sdt_perf_close_all(r->follow.t[i].anchors, r->follow.t[i].nanchors);
	}
	sdt_rec_engines_at_exit();
}

static void register_atexit(void)
{
	atexit(at_exit_cleanup);
}

void sdt_rec_atexit_register(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, register_atexit);
}

bool sdt_rec_running(void)
{
	return active != NULL;
}

/*
 * In the child: the dispositions and the mask the caller had, not the recorder's. Where our
 * handler replaced one, it was not SIG_IGN (or it stays SIG_IGN); exec resets a handler of the
 * caller's to SIG_DFL anyway.
 */
void sdt_rec_signals_in_child(const struct rec_signals *s)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(stop_signals); i++)
		if (s->handled[i])
			signal(stop_signals[i].sig,
			       s->old[i].sa_handler == SIG_IGN ? SIG_IGN : SIG_DFL);
	pthread_sigmask(SIG_SETMASK, &s->oldmask, NULL);
}

/*
 * Catch the stop signals (those not ignored at start, see stop_signals), and block them except
 * inside epoll_pwait(): a signal cannot slip between the check of ->stop and the sleep.
 */
void sdt_rec_signals_install(struct sdt_recorder *r)
{
	struct rec_signals *s = &r->sig;
	struct sigaction sa;
	sigset_t block;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	for (i = 0; i < ARRAY_SIZE(stop_signals); i++) {
		int sig = stop_signals[i].sig;

		if (sigaction(sig, NULL, &s->old[i]))
			continue;
		if (stop_signals[i].keep_ignored && s->old[i].sa_handler == SIG_IGN)
			continue;
		sigaddset(&block, sig);
		if (!r->o.no_signal_handlers)
			s->handled[i] = !sigaction(sig, &sa, NULL);
	}
	pthread_sigmask(SIG_BLOCK, &block, &s->oldmask);
	s->waitmask = s->oldmask;
	active = r;
}

/*
 * The caller's mask first, while our handlers are still in place: a stop signal that came after
 * the loop's last wait (a Ctrl-C as the command exits: the terminal sends both theirs at once)
 * is pending, and must be taken as the stop it asks for, not by the caller's disposition, which
 * for SIGINT is to die there, with the terminal and the output as they were.
 */
void sdt_rec_signals_restore(struct sdt_recorder *r)
{
	struct rec_signals *s = &r->sig;
	size_t i;

	pthread_sigmask(SIG_SETMASK, &s->oldmask, NULL);
	for (i = 0; i < ARRAY_SIZE(stop_signals); i++) {
		if (s->handled[i])
			sigaction(stop_signals[i].sig, &s->old[i], NULL);
		s->handled[i] = false;
	}
	active = NULL;
}
