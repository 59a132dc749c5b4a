/* SPDX-License-Identifier: MIT */
/* The analyses and exports of `sdtrace report` (cli/report-*.c), each reading a recording once. */
#ifndef SDTRACE_REPORT_H
#define SDTRACE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sdtrace/sdtrace.h"

struct sdt_latency;

/* One event copied out of the reader (report-sort.c): its strings are its own. */
struct report_event {
	uint64_t time_ns;
	uint64_t seq; /* position in the file */
	size_t size;  /* of the copy, in bytes */
	unsigned int pid, tid, cpu;
	const struct sdt_trace_kind *kind; /* valid until the reader is freed */
	char *comm;			   /* or NULL */
	size_t nargs;
	struct sdt_trace_value *args; /* ->unavailable is NULL */
	/* what the sorter's filter said (SDT_LATENCY_COUNT without one) */
	enum sdt_latency_verdict verdict;
};

/*
 * The events of @r in time order (a reorder window, see report-sort.c): report_sorter_next()
 * returns 1 and *ev (valid until the next call), 0 at the end, or a negative errno (a corrupt
 * file: message in sdt_errmsg(); -ENOMEM).
 */
struct report_sorter;
int report_sorter_new(struct sdt_trace_reader *r, struct report_sorter **out);
int report_sorter_next(struct report_sorter *s, const struct report_event **ev);
/*
 * Judge every event by @f from now on (NULL: none): ->verdict is COUNT when it passes, SKIP when
 * it fails, FOLLOW when its kind lacks a name @f uses. @f must outlive @s.
 */
void report_sorter_set_filter(struct report_sorter *s, const struct sdt_filter *f);
/* Events that came later than the window allowed (passed on out of order). */
uint64_t report_sorter_late(const struct report_sorter *s);
void report_sorter_free(struct report_sorter *s);

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
 * --latency: read every event of @r (a pair counts when @filter, may be NULL, passes its events:
 * the report_sorter_set_filter() verdicts), then print per pair the numbers and a log2 histogram
 * (text, bars fitted to the terminal) or one JSON object (@json). Returns the exit code.
 */
int report_latency(struct sdt_trace_reader *r, const struct report_pairs *pairs,
		   const struct sdt_filter *filter, bool json, FILE *out);

/* --format=chrome: the Chrome trace-event JSON of @r, streamed to @out. Returns the exit code. */
int report_chrome(struct sdt_trace_reader *r, const struct report_pairs *pairs, FILE *out);

/*
 * --format=csv: a header line, then one row per event (RFC 4180). @input is read twice (the first
 * pass finds the widest argument list), so @r must be freshly opened. Returns the exit code.
 */
int report_csv(struct sdt_trace_reader *r, const char *input, const struct sdt_filter *filter,
	       FILE *out);

/* Warnings every report gives at the end: a truncated file, lost events. */
void report_warn_end(const struct sdt_trace_reader *r, const char *input);

#endif
