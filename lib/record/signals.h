/* SPDX-License-Identifier: MIT */
/* The recorder's process-wide side (recorder_signals.c): stop signals, atexit. */
#ifndef SDT_RECORD_SIGNALS_H
#define SDT_RECORD_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

struct sdt_recorder;

/* How many stop signals there are (recorder_signals.c has them). */
#define SDT_STOP_SIGNALS 3

/* The stop signals' state during a run (recorder_signals.c). */
struct rec_signals {
	/* the caller's mask, restored at the end and given to the command */
	sigset_t oldmask;
	sigset_t waitmask; /* the mask inside the wait: the caller's (+ SIGCHLD when following) */
	struct sigaction old[SDT_STOP_SIGNALS];
	bool handled[SDT_STOP_SIGNALS]; /* our handler is installed for stop_signals[i] */
};

/* recorder_signals.c: the process-wide side. */
/* Is a recorder running in this process? */
bool sdt_rec_running(void);
/* The atexit handler (once per process): it closes the events and removes the uprobes. */
void sdt_rec_atexit_register(void);
/*
 * Make @r the running recorder: catch the stop signals (not those ignored at start, not with
 * no_signal_handlers), block them outside epoll_pwait(). Undone by sdt_rec_signals_restore().
 */
void sdt_rec_signals_install(struct sdt_recorder *r);
void sdt_rec_signals_restore(struct sdt_recorder *r);
/* In the forked command: the caller's dispositions and mask again. */
void sdt_rec_signals_in_child(const struct rec_signals *s);

#endif
