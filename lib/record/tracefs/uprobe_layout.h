/* SPDX-License-Identifier: MIT */
/*
 * Which tracefs event each of a session's events goes into, when events may share one.
 *
 * Why share: the last close of a perf event on a uprobe trace event waits for a kernel grace
 * period (~80-100 ms here, under the global event_mutex), so 517 libjvm events took ~50 s to
 * tear down. The kernel lets one trace event hold many probes if every probe's arguments have
 * the same names and types; so the events of a session are packed into as few trace events as
 * possible, and each probe line carries its event's number in a first field (`ev=\12:u16`) that
 * the recorder reads to tell the events apart.
 *
 * Slots. A shared trace event has fields ev, a1, a2, ... each of one kernel type. Each argument
 * of a member event takes a free slot of its type (the first one, so arguments of equal types
 * line up); a member leaves the slots it does not use to immediates (`a3=\0:u64`).
 *
 * Types. To make events compatible, an integer argument is fetched as u64 when reading 8 bytes
 * is safe — a register, a constant, or a stack slot (%sp/%bp based) — and otherwise with its
 * exact size, unsigned (the reader takes size and sign from the SDT spec, not from the field).
 * Strings stay strings; other kernel types (bitfields, ustring, symbol, ...) are not shared.
 *
 * Pure computation: no kernel, no I/O (tests/unit/test-uprobe-layout.c).
 */
#ifndef SDT_UPROBE_LAYOUT_H
#define SDT_UPROBE_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SDT_SLOT_TYPE_MAX 8 /* "string" and "u64" fit, with the NUL */

/*
 * The kernel type that argument fetch @fetch ("%ax:s32", "+8(%sp):u8", "+0(%di):string") of an
 * argument of @size bytes (the SDT spec's) takes in a shared event, into @type; *@wide tells
 * whether it was widened to u64. Returns false when the argument cannot be shared.
 */
bool sdt_uprobe_share_type(const char *fetch, unsigned int size, char type[SDT_SLOT_TYPE_MAX],
			   bool *wide);

/* One event as the packing sees it. */
struct sdt_layout_event {
	bool shareable; /* false: a trace event of its own */
	bool is_return; /* r: probes never share with p: probes (the kernel refuses) */
	size_t nargs;
	/* per argument: its slot type; NULL when the argument has no field */
	const char *const *type;
};

struct sdt_layout {
	size_t nkev;
	/* per trace event */
	size_t *nslots;
	char (**slot_type)[SDT_SLOT_TYPE_MAX];
	size_t *nmembers;
	/* per event: its trace event and the slot of each argument (SIZE_MAX: none) */
	size_t *kev;
	size_t **slot;
	size_t nevents;
};

/*
 * Pack @n events into trace events of at most @max_slots slots, first fit, in event order (so the
 * first member of a trace event has the lowest index). 0 or -ENOMEM.
 */
int sdt_layout_pack(const struct sdt_layout_event *ev, size_t n, size_t max_slots,
		    struct sdt_layout *out);
void sdt_layout_release(struct sdt_layout *l);

#endif
