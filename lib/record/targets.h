/* SPDX-License-Identifier: MIT */
/* What the perf events follow and what ends the recording (recorder_targets.c). */
#ifndef SDT_RECORD_TARGETS_H
#define SDT_RECORD_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Tag of an epoll entry: rings are 0..nrings-1, process exits PID_TAG + i, ptrace stops. */
#define PID_TAG	   (1ull << 32)
#define FOLLOW_TAG (1ull << 33)
/* An engine's own rings (engine.h's ->load; the BPF engine: one epoll fd for all of them). */
#define REC_ENGINE_TAG (1ull << 34)
/* sdt_recorder__drain_now()'s eventfd (recorder.c). */
#define WAKE_TAG (1ull << 35)

/* A process whose exit ends the recording: a -p process, or the command. */
struct rec_watched {
	pid_t pid;
	int pidfd;
	bool done;
};

/* What the perf events follow, and what ends the recording (recorder_targets.c). */
struct rec_targets {
	pid_t *tids; /* threads of -p processes, or the child; -1 system-wide */
	size_t ntids;
	struct rec_watched *watch; /* in the epoll set, tagged PID_TAG + index */
	size_t nwatch, live;
};

/* recorder_targets.c */
/* Follow thread @tid (-1: every thread, system-wide). */
int sdt_rec_targets_add_tid(struct rec_targets *t, pid_t tid);
/* Every thread of process @pid (those it has now: inherit follows the new ones). */
int sdt_rec_targets_add_process(struct rec_targets *t, pid_t pid);
/* Watch process @pid's exit through a pidfd in @epfd. */
int sdt_rec_targets_watch(struct rec_targets *t, int epfd, pid_t pid);
/* Watched process @i said it exited: its pid the first time, else 0. */
pid_t sdt_rec_targets_exited(struct rec_targets *t, int epfd, size_t i);
/* Did every watched process exit (false when none is watched)? */
bool sdt_rec_targets_all_exited(const struct rec_targets *t);
/* Close the pidfds; free the arrays (release). */
void sdt_rec_targets_close(struct rec_targets *t);
void sdt_rec_targets_release(struct rec_targets *t);

#endif
