/* SPDX-License-Identifier: MIT */
/* Printing one recorded event: shared by `report` (from a file) and `trace` (live). */
#ifndef SDTRACE_EVENT_PRINT_H
#define SDTRACE_EVENT_PRINT_H

#include "json.h"
#include "sdtrace/sdtrace.h"

/*
 * "comm pid/tid [cpu] secs.nsecs: provider:name: arg1=-5 arg2=1.5 arg3="text"" on stdout: signed
 * integers keep their sign, floats are decoded from their bits, strings are quoted and escaped,
 * rebased addresses are hex, and <unavailable> marks an argument that was not recorded.
 */
void print_event_text(const struct sdt_trace_event *ev);
/*
 * One JSON Lines object with exactly the keys time_ns, cpu, pid, tid, comm, provider, name, path,
 * address, args.
 */
void print_event_json(struct json *j, const struct sdt_trace_event *ev);

#endif
