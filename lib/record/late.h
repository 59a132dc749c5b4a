/* SPDX-License-Identifier: MIT */
/* Files met during the run, armed as sets of their own (recorder_late.c). */
#ifndef SDT_RECORD_LATE_H
#define SDT_RECORD_LATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sdt_recorder;
struct sdt_ring_mmap;

/* A file seen mapped executable by a followed process (recorder_late.c). */
struct rec_known_file {
	dev_t dev;
	ino_t ino;
	unsigned char build_id[20];
	uint8_t build_id_size;
	int set;	  /* the rec_set arming it, -1: nothing to arm (no site matched) */
};

/* Thread @tid has set @set's perf events (opened on it, or inherited) since @since_ns. */
struct rec_cover {
	pid_t tid;
	uint32_t set;
};

/* An executable mapping read from a ring, handled after the drain (recorder_late.c). */
struct rec_pending_map {
	pid_t pid;
	uint32_t maj, min;
	uint64_t ino;
	unsigned char build_id[20];
	uint8_t build_id_size;
	uint64_t time_ns; /* the record's (CLOCK_MONOTONIC) */
	char *filename;
};

/* A provider:event of a file met during the run that could not be armed (recorder_late.c). */
struct rec_unarmed_event {
	size_t add;		     /* its file's index in ->adds (its reason: ->unarmed) */
	const char *provider, *name; /* borrowed from the add's file */
};

/*
 * One exec a followed process made, in the order they came (recorder_late.c): what the command
 * ran, for the end's reasons (recorder_silence.c) and sdt_recorder__exec().
 */
struct rec_exec {
	pid_t pid;
	char *path;   /* the executable (a script's interpreter), a path in our mount namespace */
	char *script; /* the script it runs (the exec's file name, made absolute), or NULL */
	char *interp; /* a script's interpreter as its #! line names it (its argv[0]), or NULL */
	dev_t dev;    /* @path's */
	ino_t ino;
};
/* At most this many execs kept (a build runs thousands): the rest only counted. */
#define REC_EXECS_MAX 256

/* Arming files during the run (recorder_late.c). */
struct rec_late {
	bool on;	  /* following: new files are armed (not with no_follow) */
	bool in_callback; /* inside opts.on_file: sdt_recorder__add_typed() may add */
	struct rec_known_file *files;
	size_t nfiles, files_cap;
	struct rec_cover *cover;
	size_t ncover, cover_cap;
	struct rec_pending_map *pending;
	size_t npending, pending_cap;
	uint64_t pending_dropped;
	size_t armed_files; /* files armed during the run */
	struct rec_unarmed_event *unarmed; /* the provider:events of files that could not be armed */
	size_t nunarmed, unarmed_cap;
	int sem_poke;	    /* 1: poke sets[0]'s semaphores at the command's exec; 2: done */
	bool ref_ctr;	    /* the late sets' semaphore method, as the first set's */
	struct rec_exec *execs; /* the followed processes' execs, in order (REC_EXECS_MAX) */
	size_t nexecs, execs_cap;
	uint64_t execs_more; /* execs past REC_EXECS_MAX */
};

/* recorder_late.c: files armed during the run */
/* Before the run: the files of the adds and what is known of their mapping. 0 or -errno. */
int sdt_rec_late_init(struct sdt_recorder *r);
/*
 * Thread @pid (stopped, at its exec; or a process that mapped it) maps file @path (dev, ino; a
 * build-id or NULL): arm it if new and the caller's on_file adds sites; give @pid's threads the
 * perf events of the set arming it if they do not have them. 0, or -errno (the run ends).
 */
int sdt_rec_late_exec(struct sdt_recorder *r, pid_t pid, pid_t former_tid);
/* Thread @tid was created by @parent: it has the perf events @parent had (inherit). */
void sdt_rec_late_inherit(struct sdt_recorder *r, pid_t parent, pid_t tid);
/*
 * Process @child, forked by @parent and stopped before its first instruction: anchors on it,
 * appended to *@fds (*@n of *@cap): a disabled, not inherited event on each tracefs event of
 * every set whose events @parent has (sdt_rec_perf_open_anchors()). Best effort (a child gone
 * needs none): 0, or -ENOMEM.
 */
int sdt_rec_late_anchor(struct sdt_recorder *r, pid_t parent, pid_t child, int **fds, size_t *n,
			size_t *cap);
/* Thread @tid exited. */
void sdt_rec_late_gone(struct sdt_recorder *r, pid_t tid);
/* The ring's mmap op: queue it for sdt_rec_late_pending(). */
void sdt_rec_late_on_mmap(void *ctx, const struct sdt_ring_mmap *m);
/* Handle the queued mappings (after each drain). 0 or -errno. */
int sdt_rec_late_pending(struct sdt_recorder *r);
void sdt_rec_late_release(struct sdt_recorder *r);

#endif
