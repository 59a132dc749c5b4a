/* SPDX-License-Identifier: MIT */
/*
 * The frames of `sdtrace top` (cli/top-screen.c): a header, one row per event sorted, and a
 * section of key rows (the top keys of a --by), cut to a terminal's width and height. Pure
 * rendering into a FILE: the terminal (termios, keys, the alternate screen) is cmd-top.c's.
 */
#ifndef SDTRACE_CLI_TOP_SCREEN_H
#define SDTRACE_CLI_TOP_SCREEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One event's row: the hits of the last interval, their rate, and the total so far. */
struct top_row {
	const char *provider; /* borrowed (from the stat_names of cmd-top.c) */
	const char *name;
	uint64_t count; /* in the last interval */
	uint64_t total;
	double rate; /* per second, over the last interval */
};

/* One key of a --by and its hits (the seam for --by, which stat does not have yet). */
struct top_key {
	const char *text; /* borrowed; printed escaped */
	uint64_t count;
};

enum top_sort {
	TOP_SORT_RATE = 0, /* highest rate first (then total, then name) */
	TOP_SORT_TOTAL,	   /* highest total first */
	TOP_SORT_NAME,	   /* provider:event */
	TOP_SORT_COUNT_	   /* how many there are: the `s` key cycles through them */
};
/* "rate", "total", "name". */
const char *top_sort_name(enum top_sort sort);
void top_rows_sort(struct top_row *rows, size_t n, enum top_sort sort);

/* What the header says. */
struct top_header {
	const char *target; /* "-- CMD ARGS", "-p PID,PID", "-a": printed escaped */
	const char *engine; /* "tracefs", "bpf", or NULL before the run knows */
	double elapsed_s;
	double rate; /* every event's hits per second in the last interval */
	uint64_t lost;
	enum top_sort sort;
	const char *status; /* the second line's words ("q quit  s sort"), or NULL */
};

/*
 * A frame: the header (2 lines), the column titles, the rows of @rows (already sorted) as many
 * as fit (at most @max_rows when that is not 0; the last line that fits says how many more
 * there are), then the key rows of @keys under @key_title when @nkeys is not 0. Every line is
 * cut to @width columns; at most @height lines. @width or @height 0: no limit.
 * With @ansi, for a terminal: each line is placed with a cursor position and cleared to its
 * end, the column titles in reverse video, and the rest of the screen cleared; else plain lines
 * ending with '\n'. Returns the number of lines written.
 */
unsigned top_render(FILE *fp, const struct top_header *h, const struct top_row *rows, size_t n,
		    size_t max_rows, const char *key_title, const struct top_key *keys,
		    size_t nkeys, unsigned width, unsigned height, bool ansi);

/*
 * The key rows alone, from screen line @line (0-based; for @ansi): @title, then one line per
 * key ("count  key"), in the order given, at most @lines lines in all (0: no limit), each cut to
 * @width. Returns the number of lines written. A --by for top renders its (key, count) pairs
 * here: top_render() calls it under the event rows.
 */
unsigned top_render_keys(FILE *fp, const char *title, const struct top_key *keys, size_t n,
			 unsigned line, unsigned width, unsigned lines, bool ansi);

/*
 * top --per-process: one row per process, a column per category (the `@sdtrace category:` notes
 * of the provider files: BCC ustat's method, gc, objnew, ...), each the rate of its hits.
 */
#define TOP_MAX_CATS 16

struct top_proc {
	int pid;
	char comm[17];		      /* /proc/PID/comm when first seen; "?" when it was gone */
	uint64_t total[TOP_MAX_CATS]; /* per category, since armed */
	uint64_t prev[TOP_MAX_CATS];  /* @total at the last frame */
	uint64_t count[TOP_MAX_CATS]; /* in the last interval */
	double rate[TOP_MAX_CATS];    /* per second, over the last interval */
	double busy;		      /* the rates added up: the order */
	uint64_t all;		      /* the totals added up */
};

/* Busiest first: the rates added up, then the totals, then the pid. */
void top_procs_sort(struct top_proc *p, size_t n);

/*
 * A frame of top --per-process: the header (2 lines, "N processes"), the column titles (PID,
 * COMM, then "NAME/s" for each of @cats), a row per process as many as fit (@max_rows,
 * @width, @height and @ansi as for top_render()). Returns the number of lines written.
 */
unsigned top_render_procs(FILE *fp, const struct top_header *h, const struct top_proc *p,
			  size_t n, const char *const *cats, size_t ncats, size_t max_rows,
			  unsigned width, unsigned height, bool ansi);

#endif
