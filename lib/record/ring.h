/* SPDX-License-Identifier: MIT */
/*
 * One perf ring buffer (one per CPU, shared by every event on that CPU) and its reader.
 *
 * The kernel writes records at data_head; we read from data_tail up to data_head (loaded with
 * acquire) and then publish the new data_tail (with release), which frees the space. A record that
 * wraps around the end of the ring is copied into a scratch buffer first, so handlers always see
 * it contiguous. Records are decoded here: SAMPLE (TID, TIME, CPU, [CALLCHAIN], RAW, [REGS_USER,
 * STACK_USER], in that order, as perf_event.h's sample_type asks), COMM, FORK, MMAP2 and LOST; others are skipped. Nothing is allocated per
 * record.
 */
#ifndef SDT_RING_H
#define SDT_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sdt_trace_sample;
struct sdt_trace_mapping;

/* A PERF_RECORD_MMAP2 (ring.c): an executable mapping, from the watch event (perf_event.h). */
struct sdt_ring_mmap {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	uint32_t maj, min; /* the device and inode: 0 when the record carries the build-id */
	uint64_t ino;
	unsigned char build_id[20];
	uint8_t build_id_size; /* 0: none (the kernel could not read it, or too old) */
	uint32_t prot, flags;
	const char *filename; /* in the process's mount namespace */
	uint64_t time_ns;
};

struct sdt_ring_ops {
	void *ctx;
	/* A sample; ->event is not set (the caller maps the raw record's common_type). */
	int (*sample)(void *ctx, struct sdt_trace_sample *s);
	void (*comm)(void *ctx, uint32_t pid, uint32_t tid, const char *comm);
	void (*lost)(void *ctx, uint32_t cpu, uint64_t count);
	/* Thread @ptid of @ppid created thread @tid of @pid (PERF_RECORD_FORK); may be NULL. */
	void (*fork)(void *ctx, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid);
	/* A new executable mapping (PERF_RECORD_MMAP2 with PROT_EXEC); may be NULL. */
	void (*mmap)(void *ctx, const struct sdt_ring_mmap *m);
	/* Thread @tid of @pid ended (PERF_RECORD_EXIT); may be NULL. */
	void (*exit)(void *ctx, uint32_t pid, uint32_t tid);
};

#define SDT_RING_MAX_STACK 512 /* PERF_MAX_STACK_DEPTH's order; deeper frames are cut */

struct sdt_ring {
	int fd;
	int cpu;
	void *base; /* the mmap: one metadata page, then data_size bytes */
	size_t map_size;
	unsigned char *data;
	uint64_t data_size;	/* a power of two */
	unsigned char *scratch; /* 64 KiB: a wrapped record */
	uint64_t lost;		/* sum of PERF_RECORD_LOST counts */
	uint64_t samples;	/* SAMPLE records read */
	uint64_t records;
	uint64_t malformed; /* records too short for their type (should never happen) */
	bool callchain;	    /* samples carry PERF_SAMPLE_CALLCHAIN */
	bool stack_user;    /* samples carry PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER */
	uint64_t ips[SDT_RING_MAX_STACK]; /* a sample's user stack, its context markers dropped */
};

/* Map the ring of event @fd on @cpu: @pages data pages (a power of two). 0 or -errno. */
int sdt_ring_map(struct sdt_ring *r, int fd, int cpu, size_t pages);
void sdt_ring_unmap(struct sdt_ring *r);
/*
 * Hand every record available now to @ops. Returns the number of samples, or the first negative
 * value a handler returned (the records before it are consumed, the rest stay).
 */
int sdt_ring_drain(struct sdt_ring *r, const struct sdt_ring_ops *ops);
/*
 * The same for @n rings at once, merged in time order (see ring.c), so that a thread that moved
 * between CPUs, or a process forked on another CPU, is handed over in the order it happened.
 */
int sdt_rings_drain(struct sdt_ring *rings, size_t n, const struct sdt_ring_ops *ops);

#endif
