/* SPDX-License-Identifier: MIT */
/*
 * The decoder: samples -> the events of include/sdtrace/trace.h. An event kind per event index
 * (its desc, the layout of its samples, which string argument another one counts), the names of
 * the threads, the load bias last seen per process and binary; the current event, rebuilt in
 * the decoder's own buffer. The reader (reader.c) embeds one and feeds it the file's records.
 */
#ifndef SDT_TRACE_DECODER_H
#define SDT_TRACE_DECODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scan/argspec.h"
#include "trace/trace_file.h"

struct sdt_trace_kind {
	struct sdt_trace_event_desc d;
	/*
	 * Per argument: the argument that counts its string's bytes, or -1. HotSpot passes names
	 * as a pointer to bytes that are not NUL-terminated and a length: NAME and NAME_len.
	 */
	int8_t count_of[SDT_MAX_ARGS];
	struct sdt_trace_layout lay;
	uint64_t samples;
	uint32_t path_hash; /* of d.path, for the bias cache */
	uint32_t pos;	    /* its place in the decoder's kinds[] (sdt_trace_reader__kind()) */
};

/*
 * The load bias last seen per (process, binary): it tells apart the sites of an event whose
 * addresses share their low 12 bits, from the first sample of that event on, as soon as any
 * event of the same binary fired in the process. Direct-mapped: a collision only forgets.
 */
#define BIAS_SLOTS 1024
struct bias_slot {
	bool used;
	uint32_t pid;
	uint32_t path_hash;
	uint64_t bias;
};

struct sdt_trace_event {
	const struct sdt_trace_decoder *dec;
	const struct sdt_trace_kind *k;
	uint64_t time_ns;
	uint32_t cpu, pid, tid;
	const char *comm;
	bool have_ip, have_addr, have_bias;
	uint64_t ip, addr, bias;
	const uint8_t *raw;
	size_t raw_size;
	uint32_t stack_id, stack_nr; /* the user stack (a recording's, borrowed from its table) */
	const uint64_t *stack;
	bool have_ustack; /* a dwarf sample's registers and stack bytes (borrowed from the reader) */
	struct sdt_trace_user_stack ustack;
};

struct comm_entry {
	uint32_t tid;
	bool used;
	char comm[COMM_LEN];
};

/*
 * What turns samples into events, whether they come from a file or from the recorder: the kinds
 * by event index, the thread names, the load biases, the current event and its record.
 */
struct sdt_trace_decoder {
	bool swap; /* the raw records are in the other byte order */
	struct sdt_trace_kind **by_index; /* by event index, grown on demand */
	size_t index_cap;
	struct sdt_trace_kind **kinds; /* in the order described */
	size_t nkinds, kinds_cap;
	struct comm_entry *comms;
	size_t ncomms, comms_cap; /* power of two */
	uint64_t nsamples;
	uint8_t *raw; /* the current sample's record, rebuilt with its common header */
	size_t raw_cap;
	struct sdt_trace_event ev;
	struct bias_slot bias[BIAS_SLOTS];
};

/* Free @k and its desc (accepts NULL). */
void sdt_trace_kind_free(struct sdt_trace_kind *k);
/* Free what the decoder holds (not @dec itself). */
void sdt_trace_decoder_release(struct sdt_trace_decoder *dec);
/*
 * Take @k (a checked desc) as the kind of its event index: 0, -EEXIST (the index is taken) or
 * -ENOMEM, without a message; @k is the decoder's on success only.
 */
int sdt_trace_decoder_add_kind(struct sdt_trace_decoder *dec, struct sdt_trace_kind *k);
/* Thread @tid is called @comm (@len bytes, < COMM_LEN): 0, -E2BIG (1M threads), -ENOMEM. */
int sdt_trace_decoder_set_comm(struct sdt_trace_decoder *dec, uint32_t tid, const char *comm,
			       size_t len);
/*
 * The event of one sample of @k into dec->ev: @s its task and time, @stored the @len bytes the
 * file stores of its raw record (from k->lay.skip on, at least its fixed fields). 0 or -ENOMEM
 * (without a message).
 */
int sdt_trace_decoder_stored(struct sdt_trace_decoder *dec, struct sdt_trace_kind *k,
			     const struct sdt_trace_sample *s, const uint8_t *stored, size_t len);

#endif
