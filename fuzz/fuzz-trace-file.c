/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: a recording (sdtrace.data) from memory through the streaming reader and decoder,
 * with its user stacks (STACK records, samples that name one) and the mappings (MAPPING records)
 * their addresses are looked up in. Seeds: fuzz/corpus/fuzz-trace-file/ (stack-*.data from real
 * `record -g` runs).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "sdtrace/sdtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An event's stack: bounded, its id there exactly when it is, each address's mapping covers it. */
static void check_stack(const struct sdt_trace_reader *r, const struct sdt_trace_event *ev,
			size_t *lookups)
{
	struct sdt_trace_mapping m;
	const uint64_t *ips = NULL;
	size_t nr = sdt_trace_event__stack(ev, &ips), i;

	if (nr > SDT_TRACE_MAX_STACK || !nr != !sdt_trace_event__stack_id(ev))
		__builtin_trap();
	if (nr && !sdt_trace_reader__has_stacks(r))
		__builtin_trap();
	/* every address is read; the (linear) mapping lookups are capped per input */
	for (i = 0; i < nr; i++) {
		if (*lookups >= 4096) {
			(void)*(volatile const uint64_t *)&ips[i];
			continue;
		}
		++*lookups;
		if (!sdt_trace_reader__mapping(r, sdt_trace_event__pid(ev), ips[i], &m))
			continue;
		if (m.pid != sdt_trace_event__pid(ev) || ips[i] < m.start || ips[i] - m.start >= m.len)
			__builtin_trap();
		/* the file's strings are shorter than SDT_TRACE_MAX_STR, 4096 */
		if ((m.build_id && strlen(m.build_id) >= 4096) ||
		    (m.path && strlen(m.path) >= 4096))
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct sdt_trace_event *ev;
	struct sdt_trace_reader *r;
	struct sdt_trace_value v;
	uint64_t addr;
	size_t i, k, lookups = 0;
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
		check_stack(r, ev, &lookups);
	}
	/* after an error, reading on must fail again, not crash */
	if (err < 0 && sdt_trace_reader__next(r, &ev) >= 0)
		__builtin_trap();
	for (k = 0; k < sdt_trace_reader__kind_count(r); k++) {
		const struct sdt_trace_kind *kind = sdt_trace_reader__kind(r, k);

		for (i = 0; i < sdt_trace_event_desc__arg_count(sdt_trace_kind__desc(kind)); i++)
			(void)sdt_trace_event_desc__arg_unavailable(sdt_trace_kind__desc(kind), i);
	}
	sdt_trace_reader__free(r);
	return 0;
}
