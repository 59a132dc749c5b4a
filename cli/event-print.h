/* SPDX-License-Identifier: MIT */
/* Printing one recorded event: shared by `report` (from a file) and `trace` (live). */
#ifndef SDTRACE_EVENT_PRINT_H
#define SDTRACE_EVENT_PRINT_H

#include "json.h"
#include "sdtrace/sdtrace.h"

/*
 * "comm pid/tid [cpu] secs.nsecs: provider:name: arg1=-5 arg2=1.5 arg3="text"" on stdout: signed
 * integers keep their sign, floats are decoded from their bits, strings are quoted and escaped,
 * rebased addresses are hex, and <unavailable> marks an argument that was not recorded. Strings
 * show valid UTF-8 as it is (cli/escape.h); one the kernel did not hand back whole shows the bytes
 * recorded and the least length it had: query="SELECT ...…"(truncated, 4096+ bytes). Arguments
 * a type named show that name (funcname="main"); x8..x64 are shown in hex (0x1f), char as a
 * quoted character ('A', '\x01').
 */
void print_event_text(const struct sdt_trace_event *ev);
/*
 * One JSON Lines object with exactly the keys time_ns, cpu, pid, tid, comm, provider, name, path,
 * address, args, and when the event has arguments a type named (the spec's "(name:type, ...)" or
 * a provider file's), an eleventh key "fields": {name: value} of those arguments only, in argument
 * order, each value exactly the one at its position in "args" (numbers stay numbers: hex and char
 * change only the text output). An event without named arguments has no "fields" key. An event
 * with a string the kernel did not hand back whole has a last key "truncated": {name: bytes},
 * that string's value being its first bytes and bytes the least length it had. An event with
 * a user stack has "stack": its frames' ips (hex strings, leaf first) and "frames": their names,
 * from symbolizer @s: the same chain report -g and --format=folded give; with @s NULL, "stack"
 * only, the raw recorded ips (trace: a live run records no stacks). 0, or -errno (out of
 * memory in the symbolizer; sdt_errmsg() says why).
 */
int print_event_json(struct json *j, const struct sdt_trace_event *ev, struct sdt_symbolizer *s);

#endif
