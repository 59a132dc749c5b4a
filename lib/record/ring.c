/* SPDX-License-Identifier: MIT */
/* Per-CPU perf ring buffers: mmap, drain, decode (see ring.h). */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/internal.h"
#include "record/perf_event.h"
#include "record/ring.h"
#include "sdtrace/trace.h"
#include "trace/trace_event.h"

#define SCRATCH_SIZE 65536 /* perf_event_header.size is a u16 */

int sdt_ring_map(struct sdt_ring *r, int fd, int cpu, size_t pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *base;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (!pages || (pages & (pages - 1)) || pages > (1u << 20))
		return sdt_err(-EINVAL, "ring size of %zu pages is not a power of two", pages);
	r->scratch = malloc(SCRATCH_SIZE);
	if (!r->scratch)
		return sdt_err(-ENOMEM, "out of memory");
	r->map_size = (pages + 1) * page;
	base = mmap(NULL, r->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (base == MAP_FAILED) {
		int e = errno;

		free(r->scratch);
		r->scratch = NULL;
		return sdt_err(-e, "cannot map a %zu KiB perf ring on cpu %d: %s%s",
			       pages * page / 1024, cpu, strerror(e),
			       e == EPERM ? " (see /proc/sys/kernel/perf_event_mlock_kb)" : "");
	}
	r->base = base;
	r->data = (unsigned char *)base + page;
	r->data_size = (uint64_t)pages * page;
	r->fd = fd;
	r->cpu = cpu;
	return 0;
}

void sdt_ring_unmap(struct sdt_ring *r)
{
	if (r->base)
		munmap(r->base, r->map_size);
	free(r->scratch);
	r->base = NULL;
	r->scratch = NULL;
	r->data = NULL;
}

/* Read @n bytes at @off of a record of @len bytes, or fail. */
#define NEED(off, n, len) ((len) < (off) || (len) - (off) < (n))

/*
 * PERF_SAMPLE_CALLCHAIN: u64 nr, nr x u64. The kernel marks where the user part begins with
 * PERF_CONTEXT_USER (values from PERF_CONTEXT_MAX up are such markers): they are dropped.
 */
static int decode_callchain(struct sdt_ring *r, const unsigned char *rec, size_t *off, size_t len,
			    struct sdt_trace_sample *s)
{
	uint64_t nr, ip, i;
	uint32_t n = 0;

	if (NEED(*off, 8, len))
		return -1;
	memcpy(&nr, rec + *off, 8);
	*off += 8;
	if (nr > (len - *off) / 8)
		return -1;
	for (i = 0; i < nr; i++) {
		memcpy(&ip, rec + *off + i * 8, 8);
		if (ip >= (uint64_t)PERF_CONTEXT_MAX)
			continue;
		if (n < SDT_RING_MAX_STACK)
			r->ips[n++] = ip;
	}
	*off += nr * 8;
	s->callchain = n ? r->ips : NULL;
	s->callchain_nr = n;
	return 0;
}

/*
 * PERF_SAMPLE_REGS_USER then PERF_SAMPLE_STACK_USER (after RAW): u64 abi (0: no user registers,
 * a kernel thread), then one u64 per bit of attr.sample_regs_user; u64 size (0: nothing copied),
 * size bytes from the user stack pointer, then u64 dyn_size, the bytes the kernel could copy
 * (up to the end of the stack's mapping). Only dyn_size bytes are kept.
 */
static int decode_stack_user(const struct sdt_ring *r, const unsigned char *rec, size_t *off,
			     size_t len, struct sdt_trace_sample *s)
{
	uint64_t abi, size, dyn, mask = sdt_perf_regs_user(r->callchain);
	unsigned int nregs = (unsigned int)__builtin_popcountll(mask);

	if (NEED(*off, 8, len))
		return -1;
	memcpy(&abi, rec + *off, 8);
	*off += 8;
	if (abi) {
		if (NEED(*off, (size_t)nregs * 8, len))
			return -1;
		s->user_regs = (const uint64_t *)(const void *)(rec + *off);
		s->user_regs_mask = mask;
		s->user_machine = 62; /* EM_X86_64 */
		*off += (size_t)nregs * 8;
	}
	if (NEED(*off, 8, len))
		return -1;
	memcpy(&size, rec + *off, 8);
	*off += 8;
	if (!size)
		return 0;
	if (NEED(*off, size, len) || NEED(*off + size, 8, len))
		return -1;
	memcpy(&dyn, rec + *off + size, 8);
	if (dyn > size)
		return -1;
	if (s->user_regs) {
		s->user_stack = rec + *off;
		s->user_stack_size = (uint32_t)dyn;
	}
	*off += size + 8;
	return 0;
}

/*
 * PERF_RECORD_MMAP2: pid, tid, addr, len, pgoff, then maj, min, ino, ino_generation or (misc
 * PERF_RECORD_MISC_MMAP_BUILD_ID) build_id_size, 3 reserved bytes, build_id[20]; prot, flags,
 * the file name (NUL-terminated, padded), then the 24-byte sample_id trailer (TIME at -16).
 */
static int decode_mmap2(struct sdt_ring *r, const struct perf_event_header *h,
			const unsigned char *rec, const struct sdt_ring_ops *ops)
{
	size_t len = h->size, off = sizeof(*h), end;
	struct sdt_ring_mmap m;
	uint32_t u32[2];

	if (!ops->mmap)
		return 0;
	if (NEED(off, 8 + 24 + 24 + 8 + 24, len)) {
		r->malformed++;
		return 0;
	}
	memset(&m, 0, sizeof(m));
	memcpy(u32, rec + off, 8);
	m.pid = u32[0];
	m.tid = u32[1];
	memcpy(&m.addr, rec + off + 8, 8);
	memcpy(&m.len, rec + off + 16, 8);
	memcpy(&m.pgoff, rec + off + 24, 8);
	off += 32;
	if (h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		m.build_id_size = rec[off];
		if (m.build_id_size > sizeof(m.build_id))
			m.build_id_size = sizeof(m.build_id);
		memcpy(m.build_id, rec + off + 4, sizeof(m.build_id));
	} else {
		memcpy(u32, rec + off, 8);
		m.maj = u32[0];
		m.min = u32[1];
		memcpy(&m.ino, rec + off + 8, 8);
	}
	off += 24;
	memcpy(u32, rec + off, 8);
	m.prot = u32[0];
	m.flags = u32[1];
	off += 8;
	if (!(m.prot & PROT_EXEC))
		return 0;
	memcpy(&m.time_ns, rec + len - 16, 8);
	end = len - 24;
	if (!memchr(rec + off, '\0', end - off)) {
		r->malformed++;
		return 0;
	}
	m.filename = (const char *)rec + off;
	ops->mmap(ops->ctx, &m);
	return 0;
}

static int decode(struct sdt_ring *r, const struct perf_event_header *h, const unsigned char *rec,
		  const struct sdt_ring_ops *ops)
{
	size_t len = h->size, off = sizeof(*h);
	struct sdt_trace_sample s;
	uint32_t u32[2], raw_size;
	uint64_t u64;

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (NEED(off, 8 + 8 + 8 + 4, len)) {
			r->malformed++;
			return 0;
		}
		memcpy(u32, rec + off, 8);
		s.pid = u32[0];
		s.tid = u32[1];
		memcpy(&u64, rec + off + 8, 8);
		s.time_ns = u64;
		memcpy(u32, rec + off + 16, 8);
		s.cpu = u32[0];
		off += 24;
		s.callchain = NULL;
		s.callchain_nr = 0;
		if (r->callchain && decode_callchain(r, rec, &off, len, &s) < 0) {
			r->malformed++;
			return 0;
		}
		if (NEED(off, 4, len)) {
			r->malformed++;
			return 0;
		}
		memcpy(&raw_size, rec + off, 4);
		off += 4;
		if (NEED(off, raw_size, len)) {
			r->malformed++;
			return 0;
		}
		s.raw = rec + off;
		s.raw_size = raw_size;
		s.event = 0;
		s.user_machine = 0;
		s.user_regs_mask = 0;
		s.user_regs = NULL;
		s.user_stack = NULL;
		s.user_stack_size = 0;
		off += raw_size;
		if (r->stack_user && decode_stack_user(r, rec, &off, len, &s) < 0) {
			r->malformed++;
			return 0;
		}
		return ops->sample ? ops->sample(ops->ctx, &s) : 0;
	case PERF_RECORD_COMM: {
		char comm[17];
		size_t n;

		if (NEED(off, 8, len)) {
			r->malformed++;
			return 0;
		}
		memcpy(u32, rec + off, 8);
		n = len - off - 8;
		if (n > sizeof(comm) - 1)
			n = sizeof(comm) - 1;
		memcpy(comm, rec + off + 8, n);
		comm[n] = '\0';
		if (ops->comm)
			ops->comm(ops->ctx, u32[0], u32[1], comm);
		return 0;
	}
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		uint32_t ids[4]; /* pid, ppid, tid, ptid */

		if (NEED(off, 16, len)) {
			r->malformed++;
			return 0;
		}
		memcpy(ids, rec + off, 16);
		if (h->type == PERF_RECORD_FORK && ops->fork)
			ops->fork(ops->ctx, ids[0], ids[1], ids[2], ids[3]);
		else if (h->type == PERF_RECORD_EXIT && ops->exit)
			ops->exit(ops->ctx, ids[0], ids[2]);
		return 0;
	}
	case PERF_RECORD_MMAP2:
		return decode_mmap2(r, h, rec, ops);
	case PERF_RECORD_LOST:
		if (NEED(off, 16, len)) {
			r->malformed++;
			return 0;
		}
		memcpy(&u64, rec + off + 8, 8);
		r->lost += u64;
		if (ops->lost)
			ops->lost(ops->ctx, (uint32_t)r->cpu, u64);
		return 0;
	default:
		return 0;
	}
}

int sdt_ring_drain(struct sdt_ring *r, const struct sdt_ring_ops *ops)
{
	struct perf_event_mmap_page *meta = r->base;
	uint64_t head, tail, mask = r->data_size - 1;
	int samples = 0, err = 0;

	head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	tail = meta->data_tail;
	while (tail < head) {
		struct perf_event_header h;
		const unsigned char *rec;
		uint64_t at = tail & mask;

		if (head - tail < sizeof(h))
			break;
		/* the header itself may wrap */
		if (r->data_size - at >= sizeof(h)) {
			memcpy(&h, r->data + at, sizeof(h));
		} else {
			size_t first = (size_t)(r->data_size - at);

			memcpy(&h, r->data + at, first);
			memcpy((unsigned char *)&h + first, r->data, sizeof(h) - first);
		}
		if (h.size < sizeof(h) || h.size > head - tail) {
			/* cannot happen with a sane kernel: resynchronise at head */
			r->malformed++;
			tail = head;
			break;
		}
		if (r->data_size - at >= h.size) {
			rec = r->data + at;
		} else {
			size_t first = (size_t)(r->data_size - at);

			memcpy(r->scratch, r->data + at, first);
			memcpy(r->scratch + first, r->data, h.size - first);
			rec = r->scratch;
		}
		err = decode(r, &h, rec, ops);
		if (err < 0)
			break;
		if (h.type == PERF_RECORD_SAMPLE) {
			samples++;
			r->samples++;
		}
		r->records++;
		tail += h.size;
	}
	__atomic_store_n(&meta->data_tail, tail, __ATOMIC_RELEASE);
	return err < 0 ? err : samples;
}

/*
 * Draining every ring at once, in time order.
 *
 * Each ring holds its CPU's records in time order, but a thread that moved from CPU 1 to CPU 0
 * has its later event in ring 0 and its earlier one in ring 1, and a process forked on one CPU
 * may fire on another before its parent's FORK record is read: draining ring after ring would
 * hand them over out of order. So the rings are merged: at each step the record with the oldest
 * timestamp among the rings' next records goes first (samples carry TIME; the other records carry
 * it in their sample_id trailer, attr.sample_id_all). What each ring holds is read at once, so
 * records that arrive while merging wait for the next drain: order holds within a drain, and
 * across drains up to the short moment between reading two rings' heads.
 */
struct cursor {
	struct sdt_ring *r;
	uint64_t head, tail;
	struct perf_event_header h;
	const unsigned char *rec;
	uint64_t time;
};

/* Load the record at c->tail; false when the ring has no complete record left. */
static bool cursor_load(struct cursor *c)
{
	struct sdt_ring *r = c->r;
	uint64_t mask = r->data_size - 1, at = c->tail & mask;

	if (c->tail >= c->head || c->head - c->tail < sizeof(c->h))
		return false;
	if (r->data_size - at >= sizeof(c->h)) {
		memcpy(&c->h, r->data + at, sizeof(c->h));
	} else {
		size_t first = (size_t)(r->data_size - at);

		memcpy(&c->h, r->data + at, first);
		memcpy((unsigned char *)&c->h + first, r->data, sizeof(c->h) - first);
	}
	if (c->h.size < sizeof(c->h) || c->h.size > c->head - c->tail) {
		r->malformed++;
		c->tail = c->head; /* resynchronise at head */
		return false;
	}
	if (r->data_size - at >= c->h.size) {
		c->rec = r->data + at;
	} else {
		size_t first = (size_t)(r->data_size - at);

		memcpy(r->scratch, r->data + at, first);
		memcpy(r->scratch + first, r->data, c->h.size - first);
		c->rec = r->scratch;
	}
	c->time = 0;
	if (c->h.type == PERF_RECORD_SAMPLE) {
		/* TID (8 bytes), then TIME */
		if (c->h.size >= sizeof(c->h) + 16)
			memcpy(&c->time, c->rec + sizeof(c->h) + 8, 8);
	} else if (c->h.size >= sizeof(c->h) + 24) {
		/* sample_id trailer: TID (8), TIME (8), CPU (8) */
		memcpy(&c->time, c->rec + c->h.size - 16, 8);
	}
	return true;
}

int sdt_rings_drain(struct sdt_ring *rings, size_t n, const struct sdt_ring_ops *ops)
{
	struct cursor stack[16], *cur = n <= 16 ? stack : calloc(n, sizeof(*cur));
	size_t i, live = 0, best;
	int samples = 0, err = 0;

	if (!cur)
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		struct perf_event_mmap_page *meta = rings[i].base;

		cur[i].r = &rings[i];
		cur[i].head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
		cur[i].tail = meta->data_tail;
		cur[i].rec = NULL;
		if (cursor_load(&cur[i]))
			live++;
		else
			cur[i].rec = NULL;
	}
	while (live) {
		best = n;
		for (i = 0; i < n; i++) {
			if (cur[i].rec && (best == n || cur[i].time < cur[best].time))
				best = i;
		}
		err = decode(cur[best].r, &cur[best].h, cur[best].rec, ops);
		if (err < 0)
			break;
		if (cur[best].h.type == PERF_RECORD_SAMPLE) {
			samples++;
			cur[best].r->samples++;
		}
		cur[best].r->records++;
		cur[best].tail += cur[best].h.size;
		if (!cursor_load(&cur[best])) {
			cur[best].rec = NULL;
			live--;
		}
	}
	for (i = 0; i < n; i++) {
		struct perf_event_mmap_page *meta = rings[i].base;

		__atomic_store_n(&meta->data_tail, cur[i].tail, __ATOMIC_RELEASE);
	}
	if (cur != stack)
		free(cur);
	return err < 0 ? err : samples;
}
