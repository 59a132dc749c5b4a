/* SPDX-License-Identifier: MIT */
/* The command: forked stopped, released once armed, waited for (recorder_child.c). */
#ifndef SDT_RECORD_CHILD_H
#define SDT_RECORD_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

#include "record/signals.h"

/* How long a command sent SIGTERM at the end has before SIGKILL (recorder_child.c). */
#define SDT_CHILD_TERM_MS 3000

/* The command (recorder_child.c). */
struct rec_child {
	char *const *argv;
	pid_t pid;  /* -1: none started */
	int go_fd;  /* the release pipe: a byte lets it exec, EOF makes it exit 127 unrun */
	int err_fd; /* the exec error pipe: the errno of an exec that failed */
	bool released, reaped;
	int status; /* its wait status, once reaped */
};

/* recorder_child.c */
/* No command yet: no pid, no pipes. */
void sdt_rec_child_init(struct rec_child *c);
/* Fork @argv, stopped before its exec, with the caller's signals (@sig); traced when @traceme. */
int sdt_rec_child_start(struct rec_child *c, char *const *argv, const struct rec_signals *sig,
			bool traceme);
void sdt_rec_child_reap(struct rec_child *c, bool block);
/* Let it exec; with @poke (not NULL), call it at its exec stop (the semaphores raised). */
int sdt_rec_child_release(struct rec_child *c, int (*poke)(void *ctx, pid_t pid), void *ctx);
/* The end: one never released exits unrun, one running is sent SIGTERM if @kill_it; reaped. */
void sdt_rec_child_end(struct rec_child *c, bool kill_it);

#endif
