/* SPDX-License-Identifier: MIT */
/*
 * stat --by and --latency: what each event's hits do, said to the recorder (opts.agg_for), and
 * the rows the kernel aggregated, printed as text or JSON.
 */
#ifndef SDTRACE_CLI_STAT_AGG_H
#define SDTRACE_CLI_STAT_AGG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sdtrace/sdtrace.h"

struct stat_agg_args {
	const char *by;	 /* --by NAME[,NAME...] */
	const char *key; /* --key NAME[,NAME...] */
	bool pair_by_key; /* --pair-by key: the key alone, any thread */
	bool latency;
	const char **pairs; /* --pair START,END */
	size_t npairs;
	unsigned long top; /* --top N (0: every row) */
	unsigned long max_keys; /* --max-keys N (0: the library's) */
};

struct stat_agg;

/* Is any of it asked? */
bool stat_agg_wanted(const struct stat_agg_args *a);
/*
 * Ready for a run: the names split, the explicit pairs parsed. Prints the error and returns an
 * exit code (EXIT_USAGE), or 0 and *@out.
 */
int stat_agg_new(const struct stat_agg_args *a, const struct sdt_types *types,
		 struct stat_agg **out);
/* The provider files whose `@sdtrace key:` notes give the pairs' default keys (NULL: none). */
void stat_agg_set_types(struct stat_agg *sa, const struct sdt_types *types);
/* The recorder's opts.agg_for, with a stat_agg as @ctx. */
int stat_agg_for(void *ctx, const struct sdt_trace_event_desc *d, struct sdt_agg_event *out);
/* Did stat_agg_for() print an error (the run then failed with it)? */
bool stat_agg_failed(const struct stat_agg *sa);
/* After the run: the rows, sorted, and what the kernel could not aggregate (on stderr). */
void stat_agg_print(struct stat_agg *sa, const struct sdt_recorder *rec, FILE *out, bool json,
		    int status);
/* --serve's view: the --by names, whether pairs are timed, a pair's name ("provider:stem"). */
const char *const *stat_agg_by(const struct stat_agg *sa, size_t *n);
bool stat_agg_latency(const struct stat_agg *sa);
const char *stat_agg_pair_name(const struct stat_agg *sa, size_t pair);
/* A row's value @i as text into @buf (a string cut: with "..."). */
const char *stat_agg_value_text(const struct sdt_agg_value *v, char *buf, size_t size);
/* --interval: the rows so far, as interval @tick (JSON: one object with "interval", "elapsed_s"). */
void stat_agg_print_tick(struct stat_agg *sa, const struct sdt_recorder *rec, FILE *out,
			 bool json, uint64_t tick, uint64_t elapsed_ns);
void stat_agg_free(struct stat_agg *sa);

#endif
