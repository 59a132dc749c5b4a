/* SPDX-License-Identifier: MIT */
/*
 * User stacks of a recording, symbolized offline: frame by frame (`sdtrace report -g`) and
 * folded (`sdtrace report --format=folded`, the input of flame graphs).
 *
 * A recording made with `record -g` (`--call-graph=fp`) keeps, per event, the id of its
 * user stack (each distinct stack is stored once) and, per process, its mappings (start, length,
 * file offset, build-id, path); one made with `--call-graph=dwarf` keeps, per event, the user
 * registers and the top of the user stack instead, unwound here with libdwfl from the mapped
 * files' CFI (.eh_frame, .debug_frame) into the same addresses. The symbolizer turns a stack's addresses into frames with
 * elfutils' libdwfl, finding each mapped file by build-id: at its recorded path when the
 * build-id there matches, else the cache's copy (~/.debug layout), else
 * /usr/lib/debug/.build-id/xx/rest.debug, else debuginfod (sdtrace/debuginfod.h). Inlined frames
 * are frames of their own (inner first). A frame nothing names is `[FILE+0xOFF]` (the file's
 * name, the offset in it; ->path and ->build_id say which file), `[BUILDID+0xOFF]` without a
 * path, or `[0xIP]` outside every mapping: never dropped.
 *
 * Folded stacks: one entry per distinct (event, stack) with its count; frames root first
 * (`main;outer;inner`), as flamegraph.pl, inferno and speedscope read them.
 *
 * Example:
 *	struct sdt_trace_reader *r;
 *	struct sdt_folded *f;
 *	struct sdt_folded_entry e;
 *	if (sdt_trace_reader__open("sdtrace.data", NULL, &r) < 0 ||
 *	    sdt_folded__read(r, NULL, &f) < 0)
 *		errx(1, "%s", sdt_errmsg());
 *	for (size_t i = 0; i < sdt_folded__count(f); i++) {
 *		sdt_folded__entry(f, i, &e);
 *		printf("%s", e.event);
 *		for (size_t j = 0; j < e.depth; j++)
 *			printf(";%s", e.frames[j]);
 *		printf(" %llu\n", (unsigned long long)e.count);
 *	}
 *	sdt_folded__free(f);
 *	sdt_trace_reader__free(r);
 *
 * Lifetimes: a symbolizer borrows its reader (free the symbolizer first); frames and their
 * strings are borrowed until the symbolizer's next call or __free(). A folded set owns
 * everything it hands out until sdt_folded__free(); it does not need its reader afterwards.
 */
#ifndef SDTRACE_STACK_H
#define SDTRACE_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sdtrace/common.h>
#include <sdtrace/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sdt_symbolizer;
struct sdt_folded;

struct sdt_symbolizer_opts {
	size_t sz;
	/* The cache whose copies are looked up by build-id; NULL: the default (~/.debug). */
	const char *cache_dir;
	/* Do not ask debuginfod (also off when $DEBUGINFOD_URLS is unset). */
	bool no_debuginfod;
	/* Directories of separate debug files by build-id; NULL: /usr/lib/debug. */
	const char *debug_dir;
};

/* One frame of a stack. */
struct sdt_frame {
	uint64_t ip;	      /* the address in the process */
	const char *sym;      /* the function, NULL when unknown */
	uint64_t sym_off;     /* ip - the function's start (0 for an inlined frame) */
	const char *path;     /* the mapped file as recorded, NULL outside every mapping */
	const char *build_id; /* hex, NULL when not recorded */
	uint64_t file_off;    /* the ip's offset in the file (valid with ->path) */
	bool inlined;	      /* a function inlined into the next frame */
	const char *name;     /* what the frame prints as: ->sym, or [BUILDID+0xOFF] etc. */
};

/* A symbolizer over the mappings and stacks of @r (borrowed). 0 and *out, or -errno. */
SDT_API int sdt_symbolizer__new(struct sdt_trace_reader *r, const struct sdt_symbolizer_opts *opts,
				struct sdt_symbolizer **out);
SDT_API void sdt_symbolizer__free(struct sdt_symbolizer *s);
/*
 * The frames of event @ev's user stack (the event most recently read from the reader), leaf
 * first, inlined frames included: the count (0 when the event has no stack) and *frames, or
 * -errno (-ENOMEM; a dwarf stack that cannot be unwound at all gives its first frame only).
 */
SDT_API int sdt_symbolizer__frames(struct sdt_symbolizer *s, const struct sdt_trace_event *ev,
				   const struct sdt_frame **frames);

struct sdt_folded_opts {
	size_t sz;
	const struct sdt_symbolizer_opts *symbolizer;
	/* Append "+0xOFF" to each named frame (default: the function name only). */
	bool offsets;
};

/* One distinct (event, stack), borrowed from its set. */
struct sdt_folded_entry {
	const char *event;	    /* "provider:name" */
	const char *const *frames;  /* root first (the event is not one of them) */
	size_t depth;		    /* the number of frames */
	uint64_t count;		    /* events with this stack */
};

/*
 * Read the rest of @r (its filter applied) into folded stacks: 0 and *out, or -errno (the
 * reader's errors; -ENODATA when the recording has no stacks: it was not made with -g).
 * Entries are sorted by event, then frames (byte order), as stackcollapse sorts them.
 */
SDT_API int sdt_folded__read(struct sdt_trace_reader *r, const struct sdt_folded_opts *opts,
			     struct sdt_folded **out);
SDT_API size_t sdt_folded__count(const struct sdt_folded *f);
/* Entry @i: 0 and *out, or -ERANGE. */
SDT_API int sdt_folded__entry(const struct sdt_folded *f, size_t i, struct sdt_folded_entry *out);
/*
 * Entry @i's build-ids, one per frame (root first, as ->frames): the build-id of the file of a
 * frame nothing names ([FILE+0xOFF]) when it was recorded, NULL for the others. NULL when none
 * of its frames has one, or @i is out of range. Borrowed from the set.
 */
SDT_API const char *const *sdt_folded__build_ids(const struct sdt_folded *f, size_t i);
/* The sum of the counts (the events with a stack). */
SDT_API uint64_t sdt_folded__total(const struct sdt_folded *f);
SDT_API void sdt_folded__free(struct sdt_folded *f);

#ifdef __cplusplus
}
#endif

#endif
