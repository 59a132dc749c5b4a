/* SPDX-License-Identifier: MIT */
/* The analyses and exports of `sdtrace report` (cli/report-*.c), each reading a recording once. */
#ifndef SDTRACE_REPORT_H
#define SDTRACE_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sdtrace/sdtrace.h"

struct sdt_latency;

/* One event of the reader, its arguments decoded (report-sort.c); valid until the next. */
struct report_event {
	uint64_t time_ns;
	unsigned int pid, tid, cpu;
	const struct sdt_trace_kind *kind; /* valid until the reader is freed */
	const char *comm;		   /* or NULL */
	size_t nargs;
	struct sdt_trace_value *args; /* ->unavailable is NULL */
	/* what the sorter's filter said (SDT_LATENCY_COUNT without one) */
	enum sdt_latency_verdict verdict;
};

/*
 * The events of @r (opened with time_order: in time order) as report_events:
 * report_sorter_next() returns 1 and *ev (valid until the next call), 0 at the end, or a
 * negative errno (a corrupt file: message in sdt_errmsg(); -ENOMEM).
 */
struct report_sorter;
/*
 * @ev (of a reader or a decoder) as a report_event @e: arguments decoded into e->args, grown as
 * needed (*@args_cap, initially 0; free e->args at the end), verdict COUNT. 0 or -ENOMEM.
 */
int report_event_fill(struct report_event *e, size_t *args_cap, const struct sdt_trace_event *ev);
int report_sorter_new(struct sdt_trace_reader *r, struct report_sorter **out);
int report_sorter_next(struct report_sorter *s, const struct report_event **ev);
/*
 * Judge every event by @f from now on (NULL: none): ->verdict is COUNT when it passes, SKIP when
 * it fails, FOLLOW when its kind lacks a name @f uses. @f must outlive @s.
 */
void report_sorter_set_filter(struct report_sorter *s, const struct sdt_filter *f);
void report_sorter_free(struct report_sorter *s);

/* --pair START,END as given, in order. */
struct report_pairs {
	const char **start, **end;
	size_t n;
};

/* Argument names given to --key, --by (NAME[,NAME...]): by name or argN. */
struct report_names {
	char **name;
	size_t n;
};
/* Parse @arg of option @opt into @n (appending). 0 or an exit code after printing the error. */
int report_names_parse(const char *cmd, const char *opt, const char *arg, struct report_names *n);
void report_names_free(struct report_names *n);
/* Has kind @k every name of @n (and @n at least one)? */
bool report_names_in(const struct report_names *n, const struct sdt_trace_kind *k);

/* A growing string. */
struct report_text {
	char *buf;
	size_t len, cap;
};
int report_text_add(struct report_text *t, const char *s, size_t len); /* 0 or -1 */
/* The values of @n's names in @ev, joined by REPORT_SEP (<none> for a name it lacks). 0 or -1. */
#define REPORT_SEP "\x1f"
int report_values_text(const struct report_event *ev, const struct report_names *n,
		       struct report_text *t);
/* "name=value ..." of every argument of @ev (strings quoted, not escaped). 0 or -1. */
int report_args_text(const struct report_event *ev, struct report_text *t);

/* Durations (or counts) per key text, with exact percentiles once sorted. */
struct report_group {
	char *key;
	uint64_t *d; /* durations, sorted by report_groups_sort() */
	size_t n, cap;
	uint64_t total;
};
struct report_groups {
	struct report_group *groups;
	size_t n, cap;
	size_t *slots; /* hash table: group index + 1 */
	size_t nslots;
};
/* FNV-1a of a string (the groups' table, perfetto's interned names) */
uint64_t report_hash_str(const char *s);
/* The group of @key, made when new: NULL on no memory. Pointers last until the next call. */
struct report_group *report_group_find(struct report_groups *g, const char *key);
int report_group_add(struct report_group *gr, uint64_t duration); /* 0 or -1 */
/* Durations sorted; groups by total time, then count, descending. No more finds after. */
void report_groups_sort(struct report_groups *g);
uint64_t report_group_percentile(const struct report_group *gr, double p);
void report_groups_free(struct report_groups *g);

/*
 * The pairing every path that prints pairs shares (report --latency, trace --latency and
 * --flow): one answer. Set ->l, ->key, ->types, ->pair_by_key; zero the rest.
 */
struct report_kind_key {
	const struct sdt_trace_kind *kind;
	struct report_names names; /* n == 0: none */
};
struct report_pairing {
	struct sdt_latency *l;		/* the model (not owned) */
	const struct report_names *key; /* --key: pair a start and an end of equal values */
	const struct sdt_types *types;	/* without --key: a kind's `@sdtrace key:` note; pair-by */
	bool pair_by_key;		/* --pair-by key: a start and an end pair on the key */
	/* remembered */
	struct report_kind_key *kkeys; /* a kind's key from its note */
	size_t nkkeys;
	unsigned char *by_key; /* per pair: 0 not known yet, 1 thread and key, 2 key alone */
	size_t nby_key;
	struct report_text t;
};
/*
 * @ev through the model, keyed as --key or its kind's note say, on its thread or (pair-by key)
 * on none: *@st, and *@tid (may be NULL) the thread it was fed as (0: pair-by key), the one
 * sdt_latency__depth() takes. @tag is handed back with the start's end. 0 or -ENOMEM.
 */
int report_pairing_event(struct report_pairing *pg, const struct report_event *ev, uint64_t tag,
			 struct sdt_latency_step *st, unsigned int *tid);
/* The key names of kind @k: --key, else its `@sdtrace key:` note; NULL when none. */
const struct report_names *report_pairing_key(struct report_pairing *pg,
					      const struct sdt_trace_kind *k);
void report_pairing_release(struct report_pairing *pg);

/* Make the latency model with the pairs given (none: the naming conventions). Exit code. */
int report_latency_new(const struct report_pairs *pairs, struct sdt_latency **out);

/*
 * Once @r was read: does every spec of @pairs match an event kind of the recording? Else an
 * error that names the spec and the nearest events of the recording ("did you mean"): a pair
 * that can never match is a typo, not a pair of count 0. Returns 0 or EXIT_RUNTIME.
 */
int report_pairs_check(const struct sdt_trace_reader *r, const struct report_pairs *pairs);

/*
 * Describe to @l the kinds @r described since *@shown (call before each event), with the pairs
 * the `@sdtrace pair:` notes of @types (may be NULL) state for them. Exit code.
 */
int report_latency_kinds(const struct sdt_trace_reader *r, struct sdt_latency *l,
			 const struct sdt_types *types, size_t *shown);
/*
 * The pairs the `@sdtrace pair: END...` note of provider:name in @types states, added to @l (a
 * note that cannot be followed: a warning). stat --latency and report --latency both use it.
 */
void report_latency_note_rules(const struct sdt_types *types, struct sdt_latency *l,
			       const char *provider, const char *name);
/* Does pair @pair of @l pair on its key alone: the `@sdtrace pair-by: key` note of its start? */
bool report_latency_note_by_key(const struct sdt_types *types, struct sdt_latency *l, size_t pair);

/* The same for @n descriptions (a recorder's, as trace is handed them). Exit code. */
int report_latency_descs(struct sdt_latency *l, const struct sdt_types *types,
			 const struct sdt_trace_event_desc *const *descs, size_t n);

/*
 * --latency: read every event of @r (a pair counts when @filter, may be NULL, passes its events:
 * the report_sorter_set_filter() verdicts), then print per pair the numbers and a log2 histogram
 * (text, bars fitted to the terminal) or one JSON object (@json). Returns the exit code.
 */
struct report_latency_opts {
	const struct report_pairs *pairs;
	const struct sdt_filter *filter; /* or NULL */
	const struct report_names *key;	 /* --key: pair a start and an end of equal values */
	const struct sdt_types *types;	 /* without --key: a kind's `@sdtrace key:` note */
	const struct report_names *by;	 /* --by: one row per value of the start (else the end) */
	size_t top;			 /* --top N: rows of --by, or the N slowest pairs */
	bool json;
	bool pair_by_key; /* --pair-by key: a start and an end pair on the key, any thread */
};
int report_latency(struct sdt_trace_reader *r, const struct report_latency_opts *o, FILE *out);
/*
 * --count --by: events per provider:event and value of @by, sorted by count; with @sum (--sum
 * NAME, may be NULL) also the sum of that integer argument, sorted by it. Exit code.
 */
int report_count_by(struct sdt_trace_reader *r, const struct report_names *by, const char *sum,
		    const struct sdt_filter *filter, size_t top, bool json, FILE *out);

/*
 * The timelines (report-timeline.c decides, a writer encodes): pairs as slices that nest on
 * each thread, other events as instants, thread and process names when first seen or renamed.
 */
enum timeline_phase { TIMELINE_BEGIN, TIMELINE_END, TIMELINE_INSTANT };
struct timeline_slice {
	enum timeline_phase phase;
	const char *name, *category; /* never NULL */
	uint64_t time_ns;	     /* CLOCK_MONOTONIC, as recorded */
	uint64_t rel_ns;	     /* from the start of the recording */
	unsigned int pid, tid;
	const struct report_event *ev; /* its arguments; NULL: a synthetic begin or end */
	const char *why;	       /* of a synthetic one: "split", "not ended in the recording" */
};
struct timeline_counts {
	uint64_t events, instants, begins, ends, dropped_ends, closed_at_end, split;
};
/* Each returns 0 or a negative errno (-ENOMEM); the output's own errors are ferror()'s. */
struct timeline_writer {
	int (*start)(void *w, uint64_t start_monotonic_ns); /* before any other call */
	int (*thread)(void *w, unsigned int pid, unsigned int tid, const char *name);
	int (*process)(void *w, unsigned int pid, const char *name);
	int (*slice)(void *w, const struct timeline_slice *s);
	int (*finish)(void *w, const struct timeline_counts *n, uint64_t base_ns);
};
/*
 * Read @r once in time order and hand @w its timeline. With @slice (--slice-name; NULL: none),
 * a slice is named by those values of its start and its pair is the category. Warns of what was
 * dropped or closed at the end. Returns the exit code.
 */
int report_timeline(struct sdt_trace_reader *r, const struct report_pairs *pairs,
		    const struct report_names *slice, const struct timeline_writer *w, void *wctx);

/* --format=chrome: the Chrome trace-event JSON of @r, streamed to @out. Exit code. */
int report_chrome(struct sdt_trace_reader *r, const struct report_pairs *pairs,
		  const struct report_names *slice, FILE *out);
/*
 * --format=perfetto: Perfetto's protobuf Trace (TrackEvent) of @r, streamed to @out: a track per
 * process and thread, interned names. Exit code.
 */
int report_perfetto(struct sdt_trace_reader *r, const struct report_pairs *pairs,
		    const struct report_names *slice, FILE *out);

/*
 * --format=csv: a header line, then one row per event (RFC 4180). @input is read twice (the first
 * pass finds the widest argument list), so @r must be freshly opened. Returns the exit code.
 */
int report_csv(struct sdt_trace_reader *r, const char *input, const struct sdt_filter *filter,
	       FILE *out);

/* Warnings every report gives at the end: a truncated file, lost events. */
void report_warn_end(const struct sdt_trace_reader *r, const char *input);

/* User stacks (report-stack.c): 0 or EXIT_RUNTIME after printing why. */
int report_folded(struct sdt_trace_reader *r, FILE *out);
int report_flamegraph(struct sdt_trace_reader *r, const char *title, FILE *out);
int report_stacks_text(struct sdt_trace_reader *r);
/* The symbolizer's options of every report output: --cache-dir, $SDTRACE_DEBUG_DIR. */
struct sdt_symbolizer_opts report_symbolizer_opts(void);

#endif
