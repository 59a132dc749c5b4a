/* SPDX-License-Identifier: MIT */
/* Per-CPU perf ring buffers: mmap, drain, decode (see ring.h). */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "ring.h"
#include "trace_event.h"

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
		memcpy(&raw_size, rec + off + 24, 4);
		off += 28;
		if (NEED(off, raw_size, len)) {
			r->malformed++;
			return 0;
		}
		s.raw = rec + off;
		s.raw_size = raw_size;
		s.event = 0;
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
