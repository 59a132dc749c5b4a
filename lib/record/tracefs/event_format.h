/* SPDX-License-Identifier: MIT */
/*
 * Parsing a tracefs event `format` file into the fields of the raw record.
 *
 *	name: job__start
 *	ID: 1690
 *	format:
 *		field:unsigned short common_type;	offset:0;	size:2;	signed:0;
 *		...
 *		field:unsigned long __probe_ip;	offset:8;	size:8;	signed:0;
 *		field:u64 arg1;	offset:16;	size:8;	signed:0;
 *		field:__data_loc char[] arg2;	offset:24;	size:4;	signed:1;
 *
 * common_* fields are dropped. A field's name is the last word of its declaration (an array
 * suffix "[4]" removed). The text comes from the kernel, but is still read as hostile: every
 * number is range checked, a field must lie inside MAX_RECORD bytes, and the count is capped.
 */
#ifndef SDT_EVENT_FORMAT_H
#define SDT_EVENT_FORMAT_H

#include <stddef.h>

#include "trace/trace_event.h"

/* At most this many fields per event (uprobes take at most 128 args). */
#define SDT_FORMAT_MAX_FIELDS 256

/*
 * Parse @len bytes of @text. On success *fields (owned by the caller, free with
 * sdt_trace_fields_free()) holds *n fields in record order and *ip_field the index of
 * __probe_ip or -1. Returns 0, -EINVAL (malformed; the message names the line) or -ENOMEM.
 */
int sdt_event_format_parse(const char *text, size_t len, struct sdt_trace_field **fields, size_t *n,
			   int *ip_field);
void sdt_trace_fields_free(struct sdt_trace_field *fields, size_t n);

#endif
