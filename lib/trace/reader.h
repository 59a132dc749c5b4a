/* SPDX-License-Identifier: MIT */
/*
 * The reader of include/sdtrace/trace.h, shared by reader.c, which fills it from the file, and
 * access.c, which answers for it (its kinds and events are the decoder's: decoder.h).
 */
#ifndef SDT_TRACE_READER_H
#define SDT_TRACE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/decoder.h"
#include "trace/reorder.h"
#include "trace/stack_table.h"

struct sdt_trace_reader {
	char *name;
	int fd;
	const uint8_t *mem;
	size_t mem_len;
	uint8_t *ibuf; /* fd input: buffer, position, fill */
	size_t ipos, ilen;
	uint64_t off; /* file offset of the next byte */
	uint32_t version; /* of the file's format */
	char *cmdline, *hostname, *kernel;
	char *engine; /* NULL: a file from before the field */
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
	const struct sdt_filter *filter; /* sdt_trace_reader__set_filter() */
	uint64_t filtered_out;
	struct stack_table stacks; /* STACK records by id */
	uint64_t *stack_buf;	   /* one STACK record's ips */
	struct reader_mapping *maps; /* MAPPING records in file order */
	size_t nmaps, maps_cap;
	/* the USER_STACK record waiting for its sample, and whether there was any */
	bool ustack_pending, has_ustacks;
	struct sdt_trace_user_stack ustack;
	uint64_t ustack_regs[64];
	uint8_t *ustack_buf; /* SDT_TRACE_MAX_USER_STACK bytes */
	/* opts.time_order: events through a reorder window (reorder.c) */
	bool time_order, read_all;
	struct sdt_reorder order;
};

/* At most this many mappings in one recording. */
#define SDT_TRACE_MAX_MAPPINGS (1u << 20)

struct reader_mapping {
	uint32_t pid;
	uint64_t start, len, pgoff;
	char *build_id, *path;
};

#endif
