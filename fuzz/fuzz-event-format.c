/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: a tracefs event `format` file through its parser. Every accepted field must lie
 * inside the largest record, have a name, and not be a common_* field; __probe_ip's index is in
 * range.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "record/tracefs/event_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* event_format.c's bound on a raw record */
#define MAX_RECORD 65536u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sdt_trace_field *fields = NULL;
	size_t n = 0, i;
	int ip = -1;

	if (sdt_event_format_parse((const char *)data, size, &fields, &n, &ip))
		return 0;
	if (n > SDT_FORMAT_MAX_FIELDS || ip < -1 || (ip >= 0 && (size_t)ip >= n))
		__builtin_trap();
	if (ip >= 0 && strcmp(fields[ip].name, "__probe_ip"))
		__builtin_trap();
	for (i = 0; i < n; i++) {
		const struct sdt_trace_field *f = &fields[i];

		if (!f->name || !*f->name || (!strncmp(f->name, "common_", 7) && f->name[7]))
			__builtin_trap();
		if (f->size == 0 || f->offset > MAX_RECORD || f->size > MAX_RECORD - f->offset)
			__builtin_trap();
		if (f->is_data_loc && f->size != 4)
			__builtin_trap();
	}
	sdt_trace_fields_free(fields, n);
	return 0;
}
