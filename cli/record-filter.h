/* SPDX-License-Identifier: MIT */
/*
 * --filter EXPR of record, trace and stat: which events each one applies to, the recorder's
 * filter_for, and what is said after the run (filters evaluated in user space, none passed).
 */
#ifndef SDTRACE_RECORD_FILTER_H
#define SDTRACE_RECORD_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "sdtrace/sdtrace.h"

struct rec_setup;

/*
 * --filter @arg: given before any -e, for every event; after one, for the events of the last
 * -e (and-ed with a first one). Parsed now: a malformed one is a usage error. Exit code.
 */
int rec_filter_option(struct rec_setup *s, const char *arg);
/* Put the filters into the recorder's options, when there are any. */
void rec_filter_setup(struct rec_setup *s, struct sdt_recorder_opts *o);
/* The filter of event @d (the first -e whose provider:event matches it that has one). */
const struct sdt_filter *rec_filter_for(void *ctx, const struct sdt_trace_event_desc *d);
/* After the run: a warning per filter evaluated in user space, and why. */
void rec_filter_report(const struct rec_setup *s);
/*
 * For an event with no hit: true with @text (a "filtered" reason) when it had a filter, which
 * may have passed none of its hits.
 */
bool rec_filter_silence(const struct rec_setup *s, size_t event, char *text, size_t size);
void rec_filter_release(struct rec_setup *s);

#endif
