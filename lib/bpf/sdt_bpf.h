/* SPDX-License-Identifier: MIT */
/*
 * The BPF engine's kernel side: the one program (sdt.bpf.c, embedded as a skeleton), its maps,
 * the links that place it on the sites, and the per-CPU ring buffers it writes to. The recorder
 * (lib/record/bpf/) decides what to probe; this stage loads, attaches, reads and counts.
 *
 * Everything lives in file descriptors: sdt_bpf__free() (or the death of the process, even by
 * SIGKILL) detaches every link and frees every map. Nothing is written to tracefs.
 */
#ifndef SDT_BPF_SDT_BPF_H
#define SDT_BPF_SDT_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bpf/plan.h"
#include "scan/argspec.h"

/* x86_64 struct pt_regs byte offset of register @name ("ax", "r12", "sp"), or -1. */
int sdt_bpf_reg_offset(const char *name);
/*
 * The BPF engine's capability: can it fetch @a (as the pointer to a string when @string)? 0 and
 * the plan of its value in @out (->dst is the caller's), or -EOPNOTSUPP with the reason in *why
 * (the argument is unavailable), or -EDOM when @string asks a string of a constant (the caller
 * records the value as the tracefs engine does).
 */
int sdt_bpf_arg_plan(const struct sdt_arg *a, bool string, struct sdt_bpf_arg *out,
		     const char **why);

/*
 * Can this machine run the engine: a kernel with BPF ring buffers and BTF, the privilege to load
 * (CAP_BPF + CAP_PERFMON, or root)? 0, or -errno with the reason as the message. Loads the
 * program once and frees it.
 */
int sdt_bpf_probe(void);

struct sdt_bpf;

struct sdt_bpf_opts {
	size_t nsites;	     /* entries of the sites map */
	size_t nevents;	     /* counters */
	bool count_only;     /* stat: counters, no ring buffers */
	bool filter;	     /* only the tgids added (and their children), else every process */
	size_t ring_bytes;   /* per CPU, a power of two (0: 4 MiB) */
	/*
	 * Aggregating (stat --by, --latency; plan.h): no rings, no counters. Key sizes in bytes,
	 * heads included: count_key for agg_counts (0: not counting by key), lat_key for agg_lat
	 * (0: no pairs), start_key for the open pairs; max_keys caps each map (0: 10240).
	 */
	bool agg;
	size_t count_key, lat_key, start_key, max_keys;
	size_t npairs; /* pairs timed (agg_lat_over's entries) */
	/* some event has a filter in the program (sdt_bpf__set_filter(), before any hit) */
	bool filters;
	/* record -g: each record carries the user stack, at most this deep (SDT_BPF_STACK_MAX) */
	unsigned max_stack;
	/*
	 * --call-graph=dwarf (with max_stack 0): each record carries the user registers and this
	 * many bytes of the user stack at most (SDT_BPF_USTACK_MAX, a multiple of 8; 0: none)
	 */
	unsigned stack_user;
	/*
	 * Tests and benchmarks: which records the fast rings take (0: every one they can; 1: only
	 * those written in place, the others through the BPF ring buffers; 2: none); never a
	 * uprobe_multi link
	 */
	uint8_t rings;
	bool no_multi;
};

/* Open and load. 0, or -errno with the message. */
int sdt_bpf__open(const struct sdt_bpf_opts *o, struct sdt_bpf **out);
void sdt_bpf__free(struct sdt_bpf *b);
/* Site @idx's plan (the program reads it at the hit whose cookie is @idx). */
int sdt_bpf__set_site(struct sdt_bpf *b, uint32_t idx, const struct sdt_bpf_site *s);
/* Event @ev's filter (plan.h), opened with opts.filters. 0, or -errno with the message. */
int sdt_bpf__set_filter(struct sdt_bpf *b, uint32_t ev, const struct sdt_bpf_filter *f);
/* Follow process @tgid (with opts.filter). */
int sdt_bpf__follow(struct sdt_bpf *b, pid_t tgid);
/*
 * Place the program on @n sites of the file @path: @offsets (file offsets), @ref_ctr (the
 * semaphores' file offsets, 0: none), @cookies (the sites' plan indices). One uprobe_multi link
 * for the file when the kernel has it, else one perf-event uprobe per site.
 * opts.no_multi forces the second way (tests).
 */
int sdt_bpf__attach(struct sdt_bpf *b, const char *path, const uint64_t *offsets,
		    const uint64_t *ref_ctr, const uint64_t *cookies, size_t n);
/* Detach every link: no more hits (the maps stay readable). */
void sdt_bpf__detach(struct sdt_bpf *b);
/* "uprobe_multi" or "perf_event" (how the last file was attached), NULL before any. */
const char *sdt_bpf__attach_method(const struct sdt_bpf *b);
/* An fd that polls readable when a ring has data (-1 when counting). */
int sdt_bpf__epoll_fd(const struct sdt_bpf *b);

/*
 * One record of the rings: @h, then h->raw_size bytes at @raw, then h->nips stack addresses, or
 * h->nregs registers and h->ustack stack bytes, at the next 8-byte boundary (plan.h; checked to
 * fit the record). A negative return stops.
 */
typedef int (*sdt_bpf_rec_fn)(void *ctx, const struct sdt_bpf_rec *h, const void *raw);
/*
 * Every record the rings hold now, merged in time order: the fast rings (plan.h) and the BPF
 * ring buffers. The count, or the first error.
 */
long sdt_bpf__drain(struct sdt_bpf *b, sdt_bpf_rec_fn fn, void *ctx);
/*
 * The records read so far through the fast rings (*fast) and through the BPF ring buffers
 * (*bpf: the hits of other sites, and those that found their CPU's fast ring busy).
 * opts.rings at open sends every record through the BPF ring buffers, or those of the sites not
 * written in place (tests, benchmarks).
 */
void sdt_bpf__ring_counts(const struct sdt_bpf *b, uint64_t *fast, uint64_t *bpf);
/* Event @ev's hits, summed over CPUs (counting mode). */
int sdt_bpf__count(const struct sdt_bpf *b, uint32_t ev, uint64_t *out);
/*
 * Every aggregated key (sizes as opened): count_key bytes and its count summed over CPUs, or
 * lat_key bytes and its durations merged over CPUs. A negative return of @fn stops.
 */
typedef int (*sdt_bpf_count_fn)(void *ctx, const void *key, uint64_t count);
typedef int (*sdt_bpf_lat_fn)(void *ctx, const void *key, const struct sdt_bpf_lat *v);
int sdt_bpf__agg_counts(const struct sdt_bpf *b, sdt_bpf_count_fn fn, void *ctx);
int sdt_bpf__agg_lat(const struct sdt_bpf *b, sdt_bpf_lat_fn fn, void *ctx);
/* Per pair (@key: its 4-byte number), the durations past the cap on keys (agg_lat_over). */
int sdt_bpf__agg_lat_over(const struct sdt_bpf *b, sdt_bpf_lat_fn fn, void *ctx);
/* The agg_drops counters (enum sdt_bpf_drop), summed over CPUs. */
int sdt_bpf__agg_drops(const struct sdt_bpf *b, uint64_t out[SDT_BPF_DROP_N]);

/* The records CPU @cpu could not write (ring full); *ncpus is the number of CPUs. */
int sdt_bpf__lost(const struct sdt_bpf *b, uint64_t **per_cpu, size_t *ncpus);

#endif
