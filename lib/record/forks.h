/* SPDX-License-Identifier: MIT */
/* The processes forked without ptrace: their fork guards and anchors (recorder_forks.c). */
#ifndef SDT_RECORD_FORKS_H
#define SDT_RECORD_FORKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sdt_recorder;

/* A process forked without ptrace, and its guard and anchors (recorder_forks.c). */
struct rec_fork_anchor {
	pid_t pid;
	int *fds;
	size_t nfds, cap;
};

/* Guarding the processes the targets fork, from the FORK records (recorder_forks.c). */
struct rec_forks {
	bool on; /* tracefs, not system-wide, no ptrace, no no-swap guard (perf_event.h) */
	bool told;
	struct rec_fork_anchor *p;
	size_t n, cap;
	uint64_t guarded, unguarded; /* processes: guarded, and those that could not be */
};

/* recorder_forks.c: the processes forked without ptrace */
/* Process @pid was forked by thread @ptid: its fork guard and anchors. Best effort. */
void sdt_rec_forks_born(struct sdt_recorder *r, pid_t pid, pid_t ptid);
/* Process @pid ended: its guard and anchors closed. */
void sdt_rec_forks_gone(struct sdt_recorder *r, pid_t pid);
void sdt_rec_forks_release(struct sdt_recorder *r);

#endif
