/* SPDX-License-Identifier: MIT */
/* What the end of a recording found out, for the events with no hit (recorder_silence.c). */
#ifndef SDT_RECORD_FACTS_H
#define SDT_RECORD_FACTS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sdt_recorder;

/*
 * What the end of a recording found out, for the events that had no hit (recorder_silence.c):
 * per event, its semaphore (-1 unknown or none, 0 found at 0 in a live target or never poked,
 * 1 raised) and the process it was found at 0 in (0: never poked).
 */
struct rec_facts {
	int8_t *sem;
	pid_t *sem_pid;
	size_t nevents;
	pid_t mapped_pid; /* a live target that was asked what it maps (for messages), 0: none */
	size_t nwatched;  /* how many processes were watched (the targets are closed after) */
};

/* recorder_silence.c */
/*
 * At the end of the recording, before anything is disabled: which files the live targets map
 * (struct rec_added's ->mapped), and the state of each event's semaphores (r->facts). Best effort:
 * what cannot be read stays unknown. 0 or -ENOMEM.
 */
int sdt_rec_facts_gather(struct sdt_recorder *r);
void sdt_rec_facts_release(struct rec_facts *f);

#endif
