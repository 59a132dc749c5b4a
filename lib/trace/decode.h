/* SPDX-License-Identifier: MIT */
/*
 * Raw tracefs record + event desc -> typed argument values.
 *
 * The record is the PERF_SAMPLE_RAW payload laid out as events/GROUP/EVENT/format says (the
 * common header first, then __probe_ip, then one field per fetched argument), in the byte order
 * of the host that recorded it. Every offset and length comes from a file: nothing is read
 * outside [raw, raw + size).
 *
 *	field (format)          arg spec      value
 *	u8 = 0xfb               -1@%al        INT -5        (sign from the spec, not the fetch)
 *	s64 = 0xff..fb          -1@...        INT -5        (truncated to the spec's size)
 *	u32 = 0x3fc00000        4f@...        FLOAT 1.5     (raw bits)
 *	u64 = bits of -0.1      8f@...        FLOAT -0.1
 *	__data_loc char[]       8@%rdi :string STRING       (u32 = len << 16 | offset, len with NUL)
 *	u64 = 0x4010            8@$g rebase   UINT 0x4010 + (probe ip - site address)
 *	u64[] (16 bytes)        16f@-32(%rbp) FLOAT ->ld    (x87 on x86, binary128, double-double)
 *	(no field)              16f@%st       UNAVAILABLE   (the desc's reason)
 */
#ifndef SDT_DECODE_H
#define SDT_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sdtrace/trace.h"
#include "trace/trace_event.h"

/* Read an unsigned integer of @size (1, 2, 4, 8) bytes at @p; @swap: other byte order. */
uint64_t sdt_decode_uint(const void *p, size_t size, bool swap);
/* Sign-extend the low @size bytes of @v. */
int64_t sdt_decode_sext(uint64_t v, size_t size);

/*
 * Field @f of the record as an integer (zero-extended). false when the field lies outside the
 * record or is not 1, 2, 4 or 8 bytes.
 */
bool sdt_decode_field(const struct sdt_trace_field *f, const void *raw, size_t size, bool swap,
		      uint64_t *out);

/* The record's __probe_ip (runtime address of the probe). false when none. */
bool sdt_decode_probe_ip(const struct sdt_trace_event_desc *d, const void *raw, size_t size,
			 bool swap, uint64_t *ip);

/*
 * Which of the desc's sites fired at runtime address @ip: the site whose address is @ip (a
 * non-PIE file), else the one whose load bias (ip - address) is a multiple of 4096 (loads are
 * page-aligned); among several such, the one giving @hint_bias when @have_hint (the bias last
 * seen in the same process). Returns the site's index, or -1 when none or several qualify
 * (rather unknown than wrong). A single-site event always answers 0.
 */
long sdt_decode_site(const struct sdt_trace_event_desc *d, uint64_t ip, bool have_hint,
		     uint64_t hint_bias);

/*
 * Decode argument @i of @d from the record into @out. @have_bias/@bias: the load bias (probe
 * ip - site address) for rebased arguments; without it they are unavailable. String
 * values point into @raw. Never fails: what cannot be decoded is SDT_VALUE_UNAVAILABLE with the
 * reason (a static string or the desc's).
 */
void sdt_decode_arg(const struct sdt_trace_event_desc *d, size_t i, const void *raw, size_t size,
		    bool swap, bool have_bias, uint64_t bias, struct sdt_trace_value *out);

#endif
