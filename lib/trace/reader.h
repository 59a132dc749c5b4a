/* SPDX-License-Identifier: MIT */
/*
 * The reader's objects (include/sdtrace/trace.h: reader, kind, event), shared by reader.c, which
 * fills them from the file, and access.c, which answers for them.
 */
#ifndef SDT_TRACE_READER_H
#define SDT_TRACE_READER_H

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

struct sdt_trace_reader {
	char *name;
	int fd;
	const uint8_t *mem;
	size_t mem_len;
	uint8_t *ibuf; /* fd input: buffer, position, fill */
	size_t ipos, ilen;
	uint64_t off; /* file offset of the next byte */
	char *cmdline, *hostname, *kernel;
	uint64_t start_rt, start_mono;
	uint64_t *lost_cpu;
	size_t nlost_cpu;
	uint64_t lost;
	bool ended, truncated, have_exit, failed;
	int exit_status;
	bool have_prev;
	uint64_t prev_time;
	uint32_t prev_cpu, prev_pid, prev_tid;
	uint8_t *rec; /* the current record's body */
	size_t rec_cap;
	struct sdt_trace_decoder dec;
};

#endif
