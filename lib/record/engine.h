/* SPDX-License-Identifier: MIT */
/*
 * The recording engines behind sdt_recorder__run(): which one runs, and the BPF engine's entry.
 *
 *	tracefs  today's path: uprobe events in tracefs, perf events and rings (recorder_*.c)
 *	bpf      one BPF program on every site, per-CPU BPF ring buffers (engine_bpf.c, lib/bpf/)
 *
 * Both hand the same samples (raw records laid out as tracefs would: fields, __data_loc strings)
 * and the same event descriptions to the sink, so the recording is one format. They differ in
 * what they can fetch (the BPF engine adds indexed and thread-local arguments) and in what they
 * leave behind when killed (the BPF engine: nothing; tracefs: a group the next run removes).
 */
#ifndef SDT_RECORD_ENGINE_H
#define SDT_RECORD_ENGINE_H

#include <stdbool.h>

struct sdt_recorder;
struct sdt_recorder_sink;
struct rec_bpf;

/* Why --call-graph=dwarf,BYTES runs on tracefs (auto's reason, the BPF engine's refusal). */
#define DWARF_IS_TRACEFS                                                                    \
	"--call-graph=dwarf above 8192 bytes is the tracefs engine's: the BPF engine copies at " \
	"most 8192 bytes of user stack per hit (its per-CPU scratch)"

/*
 * The engine @r runs with, "bpf" or "tracefs": opts.engine resolved once (auto: bpf when the
 * kernel, BTF and privileges allow it and every site can be placed by it, else tracefs).
 */
const char *sdt_rec_engine(struct sdt_recorder *r);
bool sdt_rec_engine_is_bpf(struct sdt_recorder *r);

/* The BPF engine's sdt_recorder__run() (the stages of recorder.h, through lib/bpf/). */
int sdt_rec_bpf_run(struct sdt_recorder *r, const struct sdt_recorder_sink *sink);
/* Can the BPF engine place every site added to @r? 0, or -EOPNOTSUPP with the reason. */
int sdt_rec_bpf_supported(const struct sdt_recorder *r);
/* Event @event of a BPF recording (NULL: none, or past the end). */
const struct sdt_trace_event_desc *sdt_rec_bpf_event(const struct rec_bpf *b, size_t event);
/* What the BPF engine keeps until sdt_recorder__free(): the descriptions. */
void sdt_rec_bpf_free(struct rec_bpf *b);

#endif
