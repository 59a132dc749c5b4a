/* SPDX-License-Identifier: MIT */
/*
 * The flame graph of `sdtrace report --format=flamegraph` (cli/flamegraph.c): folded stacks in,
 * one self-contained interactive SVG out, laid out as Brendan Gregg's flamegraph.pl lays it out.
 */
#ifndef SDTRACE_FLAMEGRAPH_H
#define SDTRACE_FLAMEGRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One distinct stack of one event and how many times it was seen. */
struct fg_entry {
	const char *event;	    /* "provider:name" (or NULL) */
	const char *const *frames; /* root first; a NULL frame is drawn as [unknown] */
	size_t depth;		    /* number of frames */
	uint64_t count;
	/* per frame (as ->frames), the build-id an unnamed frame's tooltip shows; NULL: none */
	const char *const *build_ids;
};

struct fg_opts {
	const char *title; /* NULL: "Flame Graph" */
	unsigned width;	   /* of the image in pixels; 0: 1200 */
	/* NULL: every event, the event's name as the root frame of each of its stacks;
	 * else only the entries of this event (its name in the subtitle) */
	const char *event;
	/* frames narrower than this (pixels) are not drawn, nor their children; 0: 0.1, as
	 * flamegraph.pl's --minwidth. 10,000 stacks of their own each draw ~0.12 px wide at
	 * 1200 px: 0.1 keeps ~100,000 frames (a 22 MB file), 0.5 keeps ~400 (bench/b19) */
	double min_px;
};

/* Layout counters of the last flamegraph_write() (for tests). */
struct fg_stats {
	size_t nodes;	 /* frames of the merged tree, the root "all" included */
	size_t drawn;	 /* of those, wide enough to draw (>= 0.1 px) */
	uint64_t total; /* samples */
	size_t max_depth;
};

/*
 * Write the SVG of @entries[0..n) to @out; @stats (or NULL) gets the layout counters.
 * 0, -ENOMEM, or -EIO when @out failed.
 */
int flamegraph_write(FILE *out, const struct fg_entry *entries, size_t n,
		     const struct fg_opts *opts, struct fg_stats *stats);

/* Write @s[0..len) as XML character data: valid UTF-8 kept, < > & " ' as entities, control
 * characters and bytes that are not UTF-8 as U+FFFD; at most @max characters (0: no limit),
 * cut with "..". */
void fg_xml_text(FILE *out, const char *s, size_t len, size_t max);

#endif
