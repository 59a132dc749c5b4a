/* SPDX-License-Identifier: MIT */
/* libFuzzer: a recording (sdtrace.data) from memory through the streaming reader and decoder. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sdtrace/sdtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct sdt_trace_event *ev;
	struct sdt_trace_reader *r;
	struct sdt_trace_value v;
	uint64_t addr;
	size_t i, k;
	int err;

	if (sdt_trace_reader__open_mem(data, size, NULL, &r))
		return 0;
	while ((err = sdt_trace_reader__next(r, &ev)) > 0) {
		struct sdt_trace_user_stack us;

		if (sdt_trace_event__address(ev, &addr) && !sdt_trace_event__kind(ev))
			__builtin_trap();
		/* a dwarf sample's registers and bytes: as many as said, all readable */
		if (sdt_trace_event__user_stack(ev, &us)) {
			volatile uint64_t sum = 0;

			if (us.nregs != (uint32_t)__builtin_popcountll(us.regs_mask) || !us.nregs)
				__builtin_trap();
			for (k = 0; k < us.nregs; k++)
				sum += us.regs[k];
			for (k = 0; k < us.stack_size; k++)
				sum += us.stack[k];
			(void)sum;
		}
		for (i = 0; i < sdt_trace_event__arg_count(ev); i++) {
			if (sdt_trace_event__arg(ev, i, &v))
				__builtin_trap();
			/* a string is NUL-terminated where its length says */
			if (v.kind == SDT_VALUE_STRING && strlen(v.str) != v.len)
				__builtin_trap();
			if (v.kind == SDT_VALUE_UNAVAILABLE && !v.unavailable)
				__builtin_trap();
		}
	}
	/* after an error, reading on must fail again, not crash */
	if (err < 0 && sdt_trace_reader__next(r, &ev) >= 0)
		__builtin_trap();
	for (k = 0; k < sdt_trace_reader__kind_count(r); k++) {
		const struct sdt_trace_kind *kind = sdt_trace_reader__kind(r, k);

		for (i = 0; i < sdt_trace_kind__arg_count(kind); i++)
			(void)sdt_trace_kind__arg_unavailable(kind, i);
	}
	sdt_trace_reader__free(r);
	return 0;
}
