/* SPDX-License-Identifier: MIT */
/*
 * The integers of sdtrace.data (trace_file.h): LEB128 varints, and zigzag for signed values
 * (0, -1, 1, -2 -> 0, 1, 2, 3: small either way). Inline: the writer puts several per sample.
 */
#ifndef SDT_TRACE_VARINT_H
#define SDT_TRACE_VARINT_H

#include <stddef.h>
#include <stdint.h>

static inline size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

static inline uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

#endif
