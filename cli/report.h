/* SPDX-License-Identifier: MIT */
/* The analyses and exports of `sdtrace report` (cli/report-*.c), each reading a recording once. */
#ifndef SDTRACE_REPORT_H
#define SDTRACE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sdtrace/sdtrace.h"

struct sdt_latency;

/* --pair START,END as given, in order. */
struct report_pairs {
	const char **start, **end;
	size_t n;
};

/* Make the latency model with the pairs given (none: the naming conventions). Exit code. */
int report_latency_new(const struct report_pairs *pairs, struct sdt_latency **out);

/* Describe to @l the kinds @r described since *@shown (call before each event). Exit code. */
int report_latency_kinds(const struct sdt_trace_reader *r, struct sdt_latency *l, size_t *shown);

/*
 * --latency: read every event of @r, then print per pair the numbers and a log2 histogram
 * (text, bars fitted to the terminal) or one JSON object (@json). Returns the exit code.
 */
int report_latency(struct sdt_trace_reader *r, const struct report_pairs *pairs, bool json,
		   FILE *out);

/* --format=chrome: the Chrome trace-event JSON of @r, streamed to @out. Returns the exit code. */
int report_chrome(struct sdt_trace_reader *r, const struct report_pairs *pairs, FILE *out);

/*
 * --format=csv: a header line, then one row per event (RFC 4180). @input is read twice (the first
 * pass finds the widest argument list), so @r must be freshly opened. Returns the exit code.
 */
int report_csv(struct sdt_trace_reader *r, const char *input, FILE *out);

/* Warnings every report gives at the end: a truncated file, lost events. */
void report_warn_end(const struct sdt_trace_reader *r, const char *input);

#endif
