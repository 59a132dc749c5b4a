/* SPDX-License-Identifier: MIT */
/* Following the command through ptrace (recorder_follow.c). */
#ifndef SDT_RECORD_FOLLOW_H
#define SDT_RECORD_FOLLOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sdt_recorder;

/* A thread traced (recorder_follow.c): the command and its descendants. */
struct rec_tracee {
	pid_t tid;
	bool listening; /* in a group-stop, left there with PTRACE_LISTEN */
	int *anchors;	/* a forked process's anchors (sdt_rec_late_anchor()), closed at its end */
	size_t nanchors, anchors_cap;
};

/* Following the command through ptrace (recorder_follow.c). */
struct rec_follow {
	bool on;
	int sigfd; /* SIGCHLD, in the epoll set as FOLLOW_TAG; -1: none */
	bool chld_blocked; /* SIGCHLD was not blocked before: unblock it at the end */
	struct rec_tracee *t;
	size_t n, cap;
	uint64_t stops, execs, forks, signals; /* what it cost */
};

/* recorder_follow.c: the command's exec chain, through ptrace */
/* Trace the command (stopped before its exec) and its future children; SIGCHLD in @epfd. */
int sdt_rec_follow_start(struct sdt_recorder *r);
/* SIGCHLD came: handle every ptrace stop there is. 0 or -errno. */
int sdt_rec_follow_wakeup(struct sdt_recorder *r);
/* Detach every tracee (they go on untraced); close the signalfd. */
void sdt_rec_follow_end(struct sdt_recorder *r);

#endif
