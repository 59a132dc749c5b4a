/* SPDX-License-Identifier: MIT */
/*
 * The recording's data file (sdtrace.data): written as samples arrive, read back as a stream.
 *
 * The file is self-describing: a reader needs neither tracefs nor the probed binaries, so a
 * recording made on one machine is reported on another. Layout (integers are LEB128 varints
 * unless said otherwise; "str" is varint (length + 1) then the bytes, 0 meaning NULL):
 *
 *	header   8 bytes magic "\x89SDTRACE", u32 LE version (3; 1 and 2 are read too), u8 byte order of the raw
 *	         payloads (1 little, 2 big: the recording host's), 3 bytes zero
 *	records  u8 type, varint body length, body
 *
 *	type 1 META     (first record) str cmdline, str hostname, str kernel release,
 *	                start time CLOCK_REALTIME ns, the same instant in CLOCK_MONOTONIC ns,
 *	                then (later in version 1, absent from older files) str engine: "bpf",
 *	                "tracefs"
 *	type 2 EVENT    one struct sdt_trace_event_desc, before its samples:
 *	                index, str provider, str name, str path, str build_id, str group,
 *	                str event, tp_id, nsites, nsites x site address, nfields, per field
 *	                {str name, offset, size, u8 flags (1 signed, 2 __data_loc, bits 2-3
 *	                the float format of a 16-byte field: enum sdt_float_format, 0x10 the
 *	                room field of long strings: version 2)},
 *	                zigzag ip_field, nargs, per arg {str name, str spec, size, u8 flags
 *	                (1 signed, 2 float, 4 string, 8 rebase, bits 4-6 the type kind to show
 *	                it as (enum sdt_type_kind), 0x80 named by a type), zigzag field,
 *	                str unavailable}; flags 0x10-0x80 came later in version 1: older readers
 *	                ignore them; 16-byte fields (long doubles) and their format bits came
 *	                later too: older readers refuse such a file
 *	type 3 SAMPLE   event, zigzag time delta (to the previous sample), cpu, pid,
 *	                zigzag (tid - pid), then the raw tracefs record from its first field on:
 *	                the 8-byte common header is not stored, the record ends with the last
 *	                field or __data_loc string (the PERF_SAMPLE_RAW padding is trimmed);
 *	                the bytes of the room field's string are not stored (it is last: they
 *	                are trimmed with the padding; its __data_loc word is, and says it all)
 *	type 4 SAMPLE_SAME_TASK   the same without cpu, pid, tid: equal to the previous sample's
 *	type 5 COMM     pid, zigzag (tid - pid), str comm (at most 15 bytes)
 *	type 6 LOST     cpu, count
 *	type 7 END      zigzag exit status, samples written, events lost (last record)
 *	type 8 STACK    id (1, 2, ... in file order), depth, depth x zigzag (ip - previous ip,
 *	                the first from 0): a user stack, the probe ip first (version 3)
 *	type 9 MAPPING  pid, start, len, pgoff, str build-id (hex), str path (version 3)
 *	type 10 SAMPLE_STACK            as SAMPLE with the stack id after the event (version 3)
 *	type 11 SAMPLE_STACK_SAME_TASK  as SAMPLE_SAME_TASK, the same way (version 3)
 *
 * Version 2 adds the room field (struct sdt_trace_field's is_room): a string that took its room
 * is cut and marked truncated. A version-1 file reads as before. A version-1 reader refuses a
 * version-2 file (-ENOTSUP, "newer than this sdtrace reads"): it would show such a string's
 * first bytes as the whole string.
 *
 * Version 3 adds user stacks and mappings (record -g): a STACK record precedes the first sample
 * that refers to it. Versions 1 and 2 read as before; a version-2 reader refuses version 3.
 *
 *	type 65 USER_STACK  (optional: older readers skip it) the user registers and stack bytes of
 *	                the sample record that follows (record --call-graph=dwarf): format (1),
 *	                e_machine, perf register mask, popcount(mask) x register, stack size, the
 *	                stack bytes (from the stack pointer up; those the kernel copied) as runs:
 *	                {varint n, n literal bytes, varint z, z zero bytes} until the size is
 *	                reached (zero runs of 16 bytes or more are not stored: the untouched pages
 *	                of a stack and its ASLR gap below the environment are zero). A reader
 *	                skips a format it does not know (the sample reads without a stack); a record
 *	                that does not parse, or a USER_STACK not followed by a sample, is corruption
 *
 * A sample of a one-argument event costs 21-27 bytes (perf.data: 80). Record types from 64 up
 * may be skipped by readers that do not know them; an unknown type below 64 is corruption.
 *
 * Crash safety: records are appended to a buffer that is written out when it fills, when the
 * sample clock has moved 100 ms since the last write, and on sdt_trace_writer__flush(); a
 * recording cut by SIGKILL loses at most those last moments, and the reader stops cleanly at the
 * last complete record, reporting that the file is truncated (no END record). The writer has no
 * clock of its own: a recorder should call sdt_trace_writer__flush() after each drain of its
 * rings, or samples buffered just before a quiet spell wait for the next sample. The writer's
 * API is public (include/sdtrace/trace_writer.h); this header is the format both sides share.
 */
#ifndef SDT_TRACE_FILE_H
#define SDT_TRACE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sdtrace/trace_writer.h"
#include "trace/trace_event.h"

#define SDT_TRACE_MAGIC	      "\x89SDTRACE"
#define SDT_TRACE_VERSION     3
#define SDT_TRACE_HEADER_SIZE 16

/* Bounds the reader enforces (and the writer refuses to exceed). */
#define SDT_TRACE_MAX_EVENTS 65536	 /* event indexes 0..65535 */
#define SDT_TRACE_MAX_RAW    65536	 /* raw record bytes of one sample */
#define SDT_TRACE_MAX_FIELDS 128	 /* fields per event */
#define SDT_TRACE_MAX_SITES  (1u << 20)	 /* sites per event */
#define SDT_TRACE_MAX_STR    4096	 /* any string of the file */
#define SDT_TRACE_MAX_RECORD (16u << 20) /* body of one record */

/* The records and their flag bits, as described above (shared by writer.c and reader.c). */
enum rec_type {
	REC_META = 1,
	REC_EVENT = 2,
	REC_SAMPLE = 3,
	REC_SAMPLE_SAME_TASK = 4,
	REC_COMM = 5,
	REC_LOST = 6,
	REC_END = 7,
	REC_STACK = 8,
	REC_MAPPING = 9,
	REC_SAMPLE_STACK = 10,
	REC_SAMPLE_STACK_SAME_TASK = 11,
	REC_FIRST_OPTIONAL = 64, /* types from here on may be skipped by older readers */
	REC_USER_STACK = 65,
};

#define USER_STACK_FORMAT 1
#define SDT_TRACE_MAX_USER_STACK 65536 /* bytes of user stack of one sample */
#define USER_STACK_MIN_ZEROS 16	       /* the shortest zero run left out */

#define ORDER_LITTLE   1
#define ORDER_BIG      2
#define COMM_LEN       16 /* TASK_COMM_LEN, with the NUL */
#define COMMON_HEADER  8
#define WBUF_SIZE      (256u << 10)
#define FIELD_SIGNED   1
#define FIELD_DATA_LOC 2
/* Added within version 1: the float format of a 16-byte field in bits 2-3. */
#define FIELD_FLOAT_SHIFT 2
#define FIELD_FLOAT_MASK  0x0c
/* Version 2: the room field of long strings. */
#define FIELD_ROOM 0x10
#define ARG_SIGNED     1
#define ARG_FLOAT      2
#define ARG_STRING     4
#define ARG_REBASE     8
/* Added within version 1 (readers before ignore them): the type kind in bits 4-6, named. */
#define ARG_TYPE_SHIFT 4
#define ARG_TYPE_MASK  0x70
#define ARG_NAMED      0x80

static inline uint8_t host_order(void)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ORDER_LITTLE : ORDER_BIG;
}

/* The writer itself is public: include/sdtrace/trace_writer.h. */

/*
 * Would the reader accept @d? 0, or -EINVAL with a message naming what is wrong. Shared by the
 * writer (refuse early) and the reader (hostile input).
 */
int sdt_trace_desc_check(const struct sdt_trace_event_desc *d);
/* A deep copy of @src into @dst: 0, or -ENOMEM (no message) with @dst released. */
int sdt_trace_desc_copy(struct sdt_trace_event_desc *dst, const struct sdt_trace_event_desc *src);

/* Where the bytes a sample stores lie in its raw record (desc.c). */
struct sdt_trace_layout {
	uint32_t skip;	      /* the common header before the first field is not stored */
	uint32_t fixed_end;   /* the end of the last fixed field */
	uint32_t ndl;	      /* __data_loc fields (strings after the fixed fields) */
	uint32_t *dl_offsets; /* their offsets */
};

/* @l (zeroed or initialised) for @d: 0 or -ENOMEM (no message). */
int sdt_trace_layout_init(struct sdt_trace_layout *l, const struct sdt_trace_event_desc *d);
/*
 * The end of the bytes a sample of @size stores (@size >= ->fixed_end, @raw in host byte
 * order): its fixed fields and its strings that lie inside the record.
 */
uint32_t sdt_trace_layout_used(const struct sdt_trace_layout *l, const uint8_t *raw,
			       uint32_t size);
void sdt_trace_layout_release(struct sdt_trace_layout *l);

#endif
