/* SPDX-License-Identifier: MIT */
/* From ring records to sink calls: samples, thread names, mappings (recorder_samples.c, recorder_comms.c, recorder_maps.c). */
#ifndef SDT_RECORD_SAMPLES_H
#define SDT_RECORD_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/ring.h"
#include "record/sets.h"

struct sdt_filter;
struct sdt_recorder;
struct sdt_recorder_sink;
struct sdt_trace_decoder;
struct sdt_trace_mapping;

/* A tracefs event id, and the index of that tracefs event in the set. */
struct rec_tpmap {
	uint64_t id;
	uint32_t event;
	uint32_t set;
};

/*
 * The names of the threads seen (tid -> comm), so that a thread created by fork or clone, which
 * gets no COMM record, is named after its parent. Open addressing, grown on demand, bounded.
 */
struct rec_comm_slot {
	uint32_t tid; /* 0: empty */
	char comm[16];
};
#define COMM_MAP_MAX (1u << 20)

/* From ring records to sink calls (recorder_samples.c, recorder_comms.c): the ring ops' ctx. */
struct rec_samples {
	const struct rec_set *const *sets;    /* borrowed: &recorder->sets (it grows) */
	const struct sdt_recorder_sink *sink; /* borrowed */
	struct sdt_recorder *r;		      /* for the mmap records (recorder_late.c) */
	struct rec_tpmap *map; /* tracefs event id -> (set, index of its tracefs events), sorted */
	uint32_t *map_set;
	size_t nkev, map_cap;
	size_t nevents;
	uint64_t *counts; /* per event: samples, or in counting mode the counters' sum */
	uint64_t lost;
	struct rec_comm_slot *comms; /* tid -> name, see struct rec_comm_slot */
	size_t comms_cap, comms_n;
	/*
	 * Filters the kernel could not take (recorder_filter.c): per event the filter to apply to
	 * its decoded samples here, or NULL; the decoder that decodes them; what they dropped.
	 */
	const struct sdt_filter **ufilter;
	struct sdt_trace_decoder *fdec;
	uint64_t *filtered;
	/* the mappings handed to the sink (with -g), copied again for a forked process */
	struct rec_map *maps;
	size_t nmaps, maps_cap;
};

/* A mapping given to the sink (recorder_maps.c). */
struct rec_map {
	uint32_t pid;
	uint64_t start, len, pgoff;
	char *build_id, *path;
};

/* At most this many mappings kept for forks; past it, mappings still go to the sink. */
#define REC_MAX_MAPS (1u << 18)

/* recorder_samples.c */
/* Ready for the samples of @r's created sets[0], for @sink. 0 or -ENOMEM. */
int sdt_rec_samples_init(struct rec_samples *sp, struct sdt_recorder *r,
			 const struct sdt_recorder_sink *sink);
/* Set @setno of @sp->sets was created: map its tracefs events, count its events. 0 or -ENOMEM.
 * In recorder_late.c (the calls between it and recorder_samples.c go one way). */
int sdt_rec_samples_add_set(struct rec_samples *sp, uint32_t setno);
/* The ring callbacks, with @sp as their ctx. */
struct sdt_ring_ops sdt_rec_samples_ops(struct rec_samples *sp);
void sdt_rec_samples_release(struct rec_samples *sp);
/* A ring's MMAP2 record (@rm) to the sink as a MAPPING record (record -g), the build-id in hex. */
void sdt_rec_samples_mapping(struct rec_samples *sp, const struct sdt_ring_mmap *rm);

/* recorder_comms.c */
void sdt_rec_on_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm);
void sdt_rec_on_fork(void *ctx, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid);
/* The names the threads of @pids (and with @system_wide, of every process) have now. */
void sdt_rec_comms_synthesize(struct rec_samples *sp, const pid_t *pids, size_t npids,
			      bool system_wide);

/* recorder_maps.c */
/* The executable mappings @pids (with @system_wide, every process) have now, to the sink. */
void sdt_rec_maps_synthesize(struct rec_samples *sp, const pid_t *pids, size_t npids,
			     bool system_wide);
/* Mapping @m to the sink, and kept (at most REC_MAX_MAPS) for the processes @m->pid forks. */
void sdt_rec_maps_emit(struct rec_samples *sp, const struct sdt_trace_mapping *m);
/*
 * Process @ppid forked @pid (PERF_RECORD_FORK): its mappings again, as @pid's. A forked process
 * has its parent's mappings and the kernel writes no MMAP2 record for them: without these its
 * stacks could not be symbolized (nor dwarf stacks unwound).
 */
void sdt_rec_maps_fork(struct rec_samples *sp, uint32_t ppid, uint32_t pid);
void sdt_rec_maps_release(struct rec_samples *sp);

#endif
