/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: report --format=perfetto (cli/report-perfetto.c) over a recording from memory.
 * The trace it writes is then read back by a wire-format walker that knows the schema of
 * cli/perfetto-trace.proto: every message must parse (tags, lengths within their parent), and
 * every `string` field must be valid UTF-8, which protobuf requires and Perfetto's parser
 * checks (the traced program's bytes are not). Seeds: fuzz/corpus/fuzz-perfetto/ (recordings of
 * the tests, one with hostile query texts and thread names: prog-hostile-text).
 *
 * Built with the command's sources but main.c (fuzz/CMakeLists.txt).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sdtrace/sdtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum msg {
	M_NONE,
	M_TRACE,
	M_PACKET,
	M_TRACK_EVENT,
	M_ANNOTATION,
	M_TRACK_DESC,
	M_PROCESS,
	M_THREAD,
	M_CLOCKS,
	M_CLOCK,
	M_INTERNED,
	M_NAMED, /* EventName, EventCategory, DebugAnnotationName: iid 1, name 2 */
	M_DEFAULTS,
};

#define STR (-1) /* a string field */

/* What field @f of message @m holds: a message, STR, or M_NONE (a scalar or unknown). */
static int field_kind(enum msg m, uint64_t f)
{
	switch (m) {
	case M_TRACE:
		return f == 1 ? M_PACKET : M_NONE;
	case M_PACKET:
		return f == 11 ? M_TRACK_EVENT : f == 60 ? M_TRACK_DESC : f == 6 ? M_CLOCKS
		       : f == 12 ? M_INTERNED : f == 59 ? M_DEFAULTS : M_NONE;
	case M_TRACK_EVENT:
		return f == 22 || f == 23 ? STR : f == 4 ? M_ANNOTATION : M_NONE;
	case M_ANNOTATION:
		return f == 10 || f == 6 ? STR : M_NONE;
	case M_TRACK_DESC:
		return f == 2 ? STR : f == 3 ? M_PROCESS : f == 4 ? M_THREAD : M_NONE;
	case M_PROCESS:
		return f == 6 ? STR : M_NONE;
	case M_THREAD:
		return f == 5 ? STR : M_NONE;
	case M_CLOCKS:
		return f == 1 ? M_CLOCK : M_NONE;
	case M_INTERNED:
		return f >= 1 && f <= 3 ? M_NAMED : M_NONE;
	case M_NAMED:
		return f == 2 ? STR : M_NONE;
	default:
		return M_NONE;
	}
}

static uint64_t varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;
	int shift = 0;

	while (*p < end && shift < 64) {
		uint8_t b = *(*p)++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
		shift += 7;
	}
	__builtin_trap(); /* a varint cut or longer than ten bytes */
}

static void utf8(const uint8_t *s, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i += k) {
		k = sdt_utf8_len((const char *)s + i, n - i);
		if (!k)
			__builtin_trap(); /* a string field that is not UTF-8 */
	}
}

static void walk(const uint8_t *p, const uint8_t *end, enum msg m, int depth)
{
	if (depth > 16)
		__builtin_trap();
	while (p < end) {
		uint64_t tag = varint(&p, end), n;
		int kind = field_kind(m, tag >> 3);

		switch (tag & 7) {
		case 0:
			varint(&p, end);
			break;
		case 1:
			if (end - p < 8)
				__builtin_trap();
			p += 8;
			break;
		case 5:
			if (end - p < 4)
				__builtin_trap();
			p += 4;
			break;
		case 2:
			n = varint(&p, end);
			if (n > (uint64_t)(end - p))
				__builtin_trap();
			if (kind == STR)
				utf8(p, (size_t)n);
			else if (kind != M_NONE)
				walk(p, p + n, (enum msg)kind, depth + 1);
			p += n;
			break;
		default:
			__builtin_trap();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct report_pairs pairs = {0};
	struct report_names slice = {0};
	struct sdt_trace_reader *r;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	if (sdt_trace_reader__open_mem(data, size, NULL, &r))
		return 0;
	out = open_memstream(&buf, &len);
	if (!out)
		abort();
	report_perfetto(r, &pairs, &slice, out);
	fclose(out);
	walk((const uint8_t *)buf, (const uint8_t *)buf + len, M_TRACE, 0);
	free(buf);
	sdt_trace_reader__free(r);
	return 0;
}
