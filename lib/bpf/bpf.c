/* SPDX-License-Identifier: MIT */
/*
 * The program loaded, its maps sized and filled, the per-CPU ring buffers created and read
 * (bpf.h). libbpf's messages never reach stderr (the library does not print): the last one is
 * kept for our error message.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/sdt_bpf.h"
#include "bpf/bpf_internal.h"
#include "util/internal.h"

char sdt_bpf_probe_msg[512];

int sdt_bpf_probe(void)
{
	static int result = 1; /* 1: not probed yet */
	struct sdt_bpf_opts o = {.nsites = 1, .nevents = 1, .ring_bytes = 4096};
	struct sdt_bpf *b;
	int err;

	if (result <= 0) {
		if (result < 0)
			return sdt_err(result, "%s", sdt_bpf_probe_msg);
		return 0;
	}
	err = sdt_bpf__open(&o, &b);
	if (err) {
		result = err;
		snprintf(sdt_bpf_probe_msg, sizeof(sdt_bpf_probe_msg), "%s", sdt_errmsg());
		return err;
	}
	sdt_bpf__free(b);
	result = 0;
	return 0;
}

/* The record's raw bytes, and its stack (with the leaf's words, or dwarf's registers and stack)
 * after them, within its @size bytes. */
static bool rec_fits(const struct sdt_bpf_rec *h, size_t size)
{
	size_t raw_end = sizeof(*h) + (size_t)h->raw_size;

	if (h->raw_size > size - sizeof(*h))
		return false;
	if (!h->nips && !h->nregs)
		return !h->ustack;
	raw_end = (raw_end + 7) & ~(size_t)7;
	if (raw_end > size)
		return false;
	if (h->nregs && !h->nips)
		return h->nregs == SDT_BPF_UREGS && h->ustack <= SDT_BPF_USTACK_MAX &&
		       size - raw_end >= (size_t)h->nregs * 8 + h->ustack;
	if (h->nips > SDT_BPF_STACK_MAX || (size - raw_end) / 8 < h->nips)
		return false;
	/* -g: the leaf's words after the ips, or nothing */
	if (h->nregs)
		return h->nregs == 1 && h->ustack == SDT_BPF_LEAF_BYTES &&
		       size - raw_end - (size_t)h->nips * 8 >= 8 + (size_t)h->ustack;
	return !h->ustack;
}

/* A record of ring @ring (a BPF ring's, then a fast ring's) copied out, to be merged by time. */
static int keep(struct sdt_bpf *b, size_t ring, const void *data, size_t size)
{
	struct pending *p;
	/* records of any length, each kept at an 8-byte boundary (struct sdt_bpf_rec's alignment) */
	size_t cap = b->pend_cap, off = (b->bytes_used + 7) & ~(size_t)7;

	if (size < sizeof(struct sdt_bpf_rec) || !rec_fits(data, size))
		return 0;
	if (sdt_grow((void **)&b->pend, &cap, b->npend + 1, sizeof(*b->pend)))
		return -ENOMEM;
	b->pend_cap = cap;
	cap = b->bytes_cap;
	if (sdt_grow((void **)&b->bytes, &cap, off + size, 1))
		return -ENOMEM;
	b->bytes_cap = cap;
	memcpy(b->bytes + off, data, size);
	b->bytes_used = off + size;
	if (ring < b->ncpus)
		b->nrec_bpf++;
	else
		b->nrec_fast++;
	/* each ring is read whole before the next: one run each */
	if (!b->run_len[ring])
		b->run_start[ring] = b->npend;
	b->run_len[ring]++;
	p = &b->pend[b->npend];
	p->time = ((const struct sdt_bpf_rec *)data)->time_ns;
	p->off = off;
	b->npend++;
	return 0;
}

/* A BPF ring's record (a wake-up word of fring_wakeup() is shorter than a head: dropped). */
static int ring_cb(void *ctx, void *data, size_t size)
{
	struct ring_ctx *rc = ctx;

	return keep(rc->b, rc->ring, data, size);
}

/*
 * The fast ring of @cpu read up to its head, then its tail moved there (plan.h). The head is
 * loaded with acquire and the tail stored with release: the producer writes a record's bytes
 * before its head, and reuses the bytes only once the tail has passed them.
 */
static int drain_fring(struct sdt_bpf *b, size_t cpu)
{
	struct sdt_fring *r = (void *)(b->fring_map + cpu * b->fring_stride);
	uint64_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE), tail = r->tail;
	uint64_t size = b->ring_bytes;
	int err;

	if (head - tail > size)
		return sdt_err(-EIO,
			       "the fast ring of CPU %zu is corrupt: %" PRIu64
			       " bytes waiting in a ring of %" PRIu64,
			       cpu, head - tail, size);
	while (tail != head) {
		const unsigned char *at = r->data + (tail & (size - 1));
		uint64_t len;

		memcpy(&len, at, sizeof(len));
		if (len < sizeof(struct sdt_bpf_rec) || len > SDT_FRING_REC_MAX ||
		    ((8 + len + 7) & ~(uint64_t)7) > head - tail)
			return sdt_err(-EIO,
				       "the fast ring of CPU %zu is corrupt: a record of %" PRIu64
				       " bytes at %" PRIu64,
				       cpu, len, tail);
		err = keep(b, b->ncpus + cpu, at + 8, (size_t)len);
		if (err)
			return err;
		tail += (8 + len + 7) & ~(uint64_t)7;
	}
	__atomic_store_n(&r->tail, tail, __ATOMIC_RELEASE);
	return 0;
}

/* The rings, before the load: the first is also the outer map's template (its size). */
static int create_rings(struct sdt_bpf *b)
{
	size_t i;

	b->ring_fds = calloc(b->ncpus, sizeof(*b->ring_fds));
	b->ring_ctx = calloc(b->ncpus, sizeof(*b->ring_ctx));
	b->run_start = calloc(2 * b->ncpus, sizeof(*b->run_start));
	b->run_len = calloc(2 * b->ncpus, sizeof(*b->run_len));
	b->run_pos = calloc(2 * b->ncpus, sizeof(*b->run_pos));
	if (!b->ring_fds || !b->ring_ctx || !b->run_start || !b->run_len || !b->run_pos)
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < b->ncpus; i++)
		b->ring_fds[i] = -1;
	for (i = 0; i < b->ncpus; i++) {
		int fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "sdt_ring", 0, 0,
					(uint32_t)b->ring_bytes, NULL);

		if (fd < 0 && (errno == EPERM || errno == EACCES))
			return sdt_err(-errno, "loading the BPF program needs root (or CAP_BPF and "
					       "CAP_PERFMON): %s", strerror(errno));
		if (fd < 0)
			return sdt_err(-errno, "creating a BPF ring buffer: %s", strerror(errno));
		b->ring_fds[i] = fd;
	}
	return 0;
}

/*
 * Each ring in its CPU's slot of the outer map, in one batch: the kernel waits for an RCU grace
 * period after every update of a map of maps (maybe_wait_bpf_programs(): a program may still
 * hold the old inner map), once per batch since Linux 6.8; one by one where batches fail.
 */
static int fill_rings(struct sdt_bpf *b, int outer)
{
	uint32_t *keys = calloc(b->ncpus, sizeof(*keys)), count = (uint32_t)b->ncpus, i;
	int err = 0;

	if (!keys)
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < b->ncpus; i++)
		keys[i] = i;
	if (bpf_map_update_batch(outer, keys, b->ring_fds, &count, NULL) || count != b->ncpus) {
		for (i = 0; !err && i < b->ncpus; i++)
			if (bpf_map_update_elem(outer, &keys[i], &b->ring_fds[i], BPF_ANY))
				err = sdt_err(-errno, "adding a BPF ring buffer: %s",
					      strerror(errno));
	}
	free(keys);
	return err;
}

/* After the load: each ring in its CPU's slot, and all of them read by one ring_buffer. */
static int add_rings(struct sdt_bpf *b)
{
	int outer = bpf_map__fd(b->skel->maps.rings), err;
	size_t i;

	err = fill_rings(b, outer);
	if (err)
		return err;
	for (i = 0; i < b->ncpus; i++) {
		int fd = b->ring_fds[i];

		b->ring_ctx[i].b = b;
		b->ring_ctx[i].ring = i;
		if (!b->rb) {
			b->rb = ring_buffer__new(fd, ring_cb, &b->ring_ctx[i], NULL);
			if (!b->rb)
				return sdt_err(-errno, "reading a BPF ring buffer: %s",
					       strerror(errno));
		} else {
			err = ring_buffer__add(b->rb, fd, ring_cb, &b->ring_ctx[i]);
			if (err)
				return sdt_err(err, "reading a BPF ring buffer: %s",
					       strerror(-err));
		}
	}
	return 0;
}

/*
 * Which records go into the fast rings (the program's fring_mode): all (2), unless opts.rings
 * says only those written in place (1: the others through the BPF rings, as a preempted hit's
 * go) or none (0). For tests and benchmarks.
 */
static uint8_t fring_mode(const struct sdt_bpf_opts *o)
{
	return o->rings == 1 ? 1 : o->rings == 2 ? 0 : 2;
}

/*
 * The fast rings' sizes, before the load (sdt.bpf.c): each CPU's region as large as its BPF ring,
 * at a page boundary of the mapping; the smallest that loads when no hit is recorded. A region
 * is one map value, whose size the kernel takes as 32 bits.
 */
static int size_frings(struct sdt_bpf *b, const struct sdt_bpf_opts *o)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), ring = b->ring_bytes;
	size_t ncpus = b->ncpus;

	if (o->count_only || o->agg) {
		ring = 4096;
		ncpus = 1;
	}
	if (ring > (1ul << 31))
		return sdt_err(-E2BIG, "a ring of %zu bytes per CPU: the BPF engine's are at most "
				       "2 GiB (-m 524288)", ring);
	b->fring_stride =
	    (sizeof(struct sdt_fring) + ring + SDT_FRING_SLACK + page - 1) & ~(page - 1);
	b->fring_len = b->fring_stride * ncpus;
	b->skel->rodata->fring_mask = ring - 1;
	b->skel->rodata->fring_mode = fring_mode(o);
	bpf_map__set_value_size(b->skel->maps.frings, (uint32_t)b->fring_stride);
	bpf_map__set_max_entries(b->skel->maps.frings, (uint32_t)ncpus);
	return 0;
}

/* After the load: the fast rings mapped for reading (their tails written here). */
static int map_frings(struct sdt_bpf *b)
{
	void *m = mmap(NULL, b->fring_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		       bpf_map__fd(b->skel->maps.frings), 0);

	if (m == MAP_FAILED)
		return sdt_err(-errno, "mapping the BPF fast rings: %s", strerror(errno));
	b->fring_map = m;
	return 0;
}

/* The aggregation maps' key and value sizes and caps, before the load (sdt.bpf.c). */
static void size_agg_maps(struct sdt_bpf *b, const struct sdt_bpf_opts *o)
{
	uint32_t cap = (uint32_t)(o->max_keys ? o->max_keys : 10240);
	struct sdt_bpf_skel *k = b->skel;

	if (o->count_key) {
		bpf_map__set_key_size(k->maps.agg_counts, (uint32_t)o->count_key);
		bpf_map__set_max_entries(k->maps.agg_counts, cap);
	}
	if (o->lat_key) {
		bpf_map__set_key_size(k->maps.agg_lat, (uint32_t)o->lat_key);
		bpf_map__set_max_entries(k->maps.agg_lat, cap);
		bpf_map__set_key_size(k->maps.agg_starts, (uint32_t)o->start_key);
		/* the stack's depth, the start's time, then its group's key */
		bpf_map__set_value_size(k->maps.agg_starts, (uint32_t)(16 + o->lat_key));
		bpf_map__set_max_entries(k->maps.agg_starts, 65536);
		bpf_map__set_max_entries(k->maps.agg_lat_over,
					 (uint32_t)(o->npairs ? o->npairs : 1));
	}
}

static int open_program(const struct sdt_bpf_opts *o, struct sdt_bpf **out)
{
	struct sdt_bpf *b;
	int ncpus, err;

	*out = NULL;
	if (access("/sys/kernel/btf/vmlinux", R_OK))
		return sdt_err(-EOPNOTSUPP, "the kernel has no BTF (/sys/kernel/btf/vmlinux): the "
					    "BPF engine needs it (--engine=tracefs does not)");
	ncpus = libbpf_num_possible_cpus();
	if (ncpus <= 0)
		return sdt_err(ncpus < 0 ? ncpus : -EINVAL, "cannot count the CPUs");
	b = calloc(1, sizeof(*b));
	if (!b)
		return sdt_err(-ENOMEM, "out of memory");
	b->ncpus = (size_t)ncpus;
	b->nevents = o->nevents;
	b->count_only = o->count_only;
	b->ring_bytes = o->ring_bytes ? o->ring_bytes : (4u << 20);
	b->multi = !o->no_multi;
	b->skel = sdt_bpf_skel__open();
	if (!b->skel) {
		err = sdt_err(-errno ? -errno : -EINVAL, "opening the BPF program: %s",
			      sdt_bpf_last_libbpf_msg());
		goto fail;
	}
	b->agg = o->agg;
	b->count_key = o->count_key;
	b->lat_key = o->lat_key;
	b->skel->rodata->count_only = o->count_only;
	b->skel->rodata->agg = o->agg;
	b->skel->rodata->filter = o->filter;
	b->skel->rodata->wakeup_bytes = b->ring_bytes / 4;
	bpf_map__set_max_entries(b->skel->maps.sites, (uint32_t)(o->nsites ? o->nsites : 1));
	bpf_map__set_max_entries(b->skel->maps.counts, (uint32_t)(o->nevents ? o->nevents : 1));
	b->skel->rodata->has_filters = o->filters;
	b->skel->rodata->max_stack = o->max_stack > SDT_BPF_STACK_MAX ? SDT_BPF_STACK_MAX
								     : o->max_stack;
	b->skel->rodata->stack_user = o->max_stack ? 0 : o->stack_user;
	if (o->filters)
		bpf_map__set_max_entries(b->skel->maps.filters,
					 (uint32_t)(o->nevents ? o->nevents : 1));
	bpf_map__set_max_entries(b->skel->maps.rings, (uint32_t)b->ncpus);
	err = size_frings(b, o);
	if (err)
		goto fail;
	if (o->agg)
		size_agg_maps(b, o);
	if (!o->count_only && !o->agg) {
		err = create_rings(b);
		if (err)
			goto fail;
		bpf_map__set_inner_map_fd(b->skel->maps.rings, b->ring_fds[0]);
	}
	if (b->multi)
		bpf_program__set_expected_attach_type(b->skel->progs.sdt_hit,
						      SDT_BPF_TRACE_UPROBE_MULTI);
	if (!o->filter)
		bpf_program__set_autoload(b->skel->progs.sdt_fork, false);
	err = sdt_bpf_skel__load(b->skel);
	if (err == -EPERM) {
		err = sdt_err(err, "loading the BPF program needs root (or CAP_BPF and "
				   "CAP_PERFMON): %s", strerror(-err));
		goto fail;
	}
	if (err) {
		err = sdt_err(err < 0 ? err : -EINVAL, "loading the BPF program: %s",
			      sdt_bpf_last_libbpf_msg());
		goto fail;
	}
	if (!o->count_only && !o->agg) {
		err = add_rings(b);
		if (!err)
			err = map_frings(b);
		if (err)
			goto fail;
	}
	if (o->filter) {
		b->fork_link = bpf_program__attach(b->skel->progs.sdt_fork);
		if (!b->fork_link) {
			err = sdt_err(-errno, "attaching to sched_process_fork: %s",
				      sdt_bpf_last_libbpf_msg());
			goto fail;
		}
	}
	*out = b;
	return 0;
fail:
	sdt_bpf__free(b);
	return err;
}

int sdt_bpf__open(const struct sdt_bpf_opts *o, struct sdt_bpf **out)
{
	int err;

	sdt_bpf_libbpf_enter();
	err = open_program(o, out);
	sdt_bpf_libbpf_leave();
	return err;
}

void sdt_bpf__free(struct sdt_bpf *b)
{
	size_t i;

	if (!b)
		return;
	sdt_bpf__detach(b);
	bpf_link__destroy(b->fork_link);
	ring_buffer__free(b->rb);
	if (b->fring_map)
		munmap(b->fring_map, b->fring_len);
	for (i = 0; b->ring_fds && i < b->ncpus; i++)
		if (b->ring_fds[i] >= 0)
			close(b->ring_fds[i]);
	free(b->ring_fds);
	free(b->ring_ctx);
	free(b->run_start);
	free(b->run_len);
	free(b->run_pos);
	sdt_bpf_skel__destroy(b->skel);
	free(b->links);
	free(b->link_fds);
	free(b->pend);
	free(b->bytes);
	free(b->lost);
	free(b);
}

int sdt_bpf__set_site(struct sdt_bpf *b, uint32_t idx, const struct sdt_bpf_site *s)
{
	if (bpf_map_update_elem(bpf_map__fd(b->skel->maps.sites), &idx, s, BPF_ANY))
		return sdt_err(-errno, "site plan %u: %s", idx, strerror(errno));
	return 0;
}

int sdt_bpf__set_filter(struct sdt_bpf *b, uint32_t ev, const struct sdt_bpf_filter *f)
{
	if (bpf_map_update_elem(bpf_map__fd(b->skel->maps.filters), &ev, f, BPF_ANY))
		return sdt_err(-errno, "the filter of event %u: %s", ev, strerror(errno));
	return 0;
}

int sdt_bpf__follow(struct sdt_bpf *b, pid_t tgid)
{
	uint32_t key = (uint32_t)tgid;
	uint8_t one = 1;

	if (bpf_map_update_elem(bpf_map__fd(b->skel->maps.tgids), &key, &one, BPF_ANY))
		return sdt_err(-errno, "following process %d: %s", (int)tgid, strerror(errno));
	return 0;
}

int sdt_bpf__epoll_fd(const struct sdt_bpf *b)
{
	return b->rb ? ring_buffer__epoll_fd(b->rb) : -1;
}

/* The next record in time order: the earliest head of the rings' runs, or NULL. */
static const struct pending *next_pending(struct sdt_bpf *b)
{
	const struct pending *best = NULL;
	size_t i, which = 0;

	for (i = 0; i < 2 * b->ncpus; i++) {
		const struct pending *p;

		if (b->run_pos[i] >= b->run_len[i])
			continue;
		p = &b->pend[b->run_start[i] + b->run_pos[i]];
		if (!best || p->time < best->time) {
			best = p;
			which = i;
		}
	}
	if (best)
		b->run_pos[which]++;
	return best;
}

long sdt_bpf__drain(struct sdt_bpf *b, sdt_bpf_rec_fn fn, void *ctx)
{
	const struct pending *p;
	size_t i;
	long n = 0;
	int err;

	if (!b->rb)
		return 0;
	b->npend = 0;
	b->bytes_used = 0;
	memset(b->run_len, 0, 2 * b->ncpus * sizeof(*b->run_len));
	memset(b->run_pos, 0, 2 * b->ncpus * sizeof(*b->run_pos));
	err = ring_buffer__consume(b->rb);
	if (err < 0 && err != -EINTR)
		return sdt_err(err, "reading the BPF ring buffers: %s", strerror(-err));
	for (i = 0; i < b->ncpus; i++) {
		err = drain_fring(b, i);
		if (err)
			return err;
	}
	/* each ring's records are in time order: merged, not sorted */
	while ((p = next_pending(b))) {
		const struct sdt_bpf_rec *h = (const void *)(b->bytes + p->off);

		err = fn(ctx, h, h + 1);
		if (err < 0)
			return err;
		n++;
	}
	b->npend = 0;
	b->bytes_used = 0;
	return n;
}

void sdt_bpf__ring_counts(const struct sdt_bpf *b, uint64_t *fast, uint64_t *bpf)
{
	*fast = b->nrec_fast;
	*bpf = b->nrec_bpf;
}

int sdt_bpf__count(const struct sdt_bpf *b, uint32_t ev, uint64_t *out)
{
	uint64_t *v = calloc(b->ncpus, sizeof(*v));
	size_t i;

	*out = 0;
	if (!v)
		return sdt_err(-ENOMEM, "out of memory");
	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.counts), &ev, v)) {
		free(v);
		return sdt_err(-errno, "reading the counters: %s", strerror(errno));
	}
	for (i = 0; i < b->ncpus; i++)
		*out += v[i];
	free(v);
	return 0;
}

int sdt_bpf__lost(const struct sdt_bpf *b, uint64_t **per_cpu, size_t *ncpus)
{
	uint32_t zero = 0;
	uint64_t *v = calloc(b->ncpus, sizeof(*v));

	*per_cpu = NULL;
	*ncpus = 0;
	if (!v)
		return sdt_err(-ENOMEM, "out of memory");
	if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.lost), &zero, v)) {
		free(v);
		return sdt_err(-errno, "reading the loss counters: %s", strerror(errno));
	}
	*per_cpu = v;
	*ncpus = b->ncpus;
	return 0;
}

/* Every key of @map (@ksz bytes) and its per-CPU values (@vsz bytes each): @fn(ctx, key, vals). */
static int each_key(const struct sdt_bpf *b, int fd, size_t ksz, size_t vsz,
		    int (*fn)(void *ctx, const void *key, const void *vals), void *ctx)
{
	size_t stride = (vsz + 7) & ~(size_t)7;
	unsigned char *key = calloc(2, ksz), *next = key + ksz, *vals;
	bool first = true;
	int err = 0;

	vals = calloc(b->ncpus, stride);
	if (!key || !vals) {
		free(key);
		free(vals);
		return sdt_err(-ENOMEM, "out of memory");
	}
	while (!bpf_map_get_next_key(fd, first ? NULL : key, next)) {
		first = false;
		memcpy(key, next, ksz);
		if (bpf_map_lookup_elem(fd, key, vals)) {
			if (errno == ENOENT)
				continue;
			err = sdt_err(-errno, "reading the aggregation maps: %s", strerror(errno));
			break;
		}
		err = fn(ctx, key, vals);
		if (err < 0)
			break;
	}
	free(key);
	free(vals);
	return err < 0 ? err : 0;
}

struct count_each {
	const struct sdt_bpf *b;
	sdt_bpf_count_fn fn;
	void *ctx;
};

static int sum_counts(void *ctx, const void *key, const void *vals)
{
	struct count_each *ce = ctx;
	const uint64_t *v = vals;
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < ce->b->ncpus; i++)
		n += v[i];
	return ce->fn(ce->ctx, key, n);
}

int sdt_bpf__agg_counts(const struct sdt_bpf *b, sdt_bpf_count_fn fn, void *ctx)
{
	struct count_each ce = {b, fn, ctx};

	if (!b->agg || !b->count_key)
		return 0;
	return each_key(b, bpf_map__fd(b->skel->maps.agg_counts), b->count_key, sizeof(uint64_t),
			sum_counts, &ce);
}

struct lat_each {
	const struct sdt_bpf *b;
	sdt_bpf_lat_fn fn;
	void *ctx;
};

static int merge_lat(void *ctx, const void *key, const void *vals)
{
	struct lat_each *le = ctx;
	const struct sdt_bpf_lat *v = vals;
	struct sdt_bpf_lat m;
	size_t i, k;

	memset(&m, 0, sizeof(m));
	for (i = 0; i < le->b->ncpus; i++) {
		if (!v[i].count)
			continue;
		if (!m.count || v[i].min < m.min)
			m.min = v[i].min;
		if (v[i].max > m.max)
			m.max = v[i].max;
		m.count += v[i].count;
		m.sum += v[i].sum;
		for (k = 0; k < SDT_BPF_LAT_BUCKETS; k++)
			m.hist[k] += v[i].hist[k];
	}
	return m.count ? le->fn(le->ctx, key, &m) : 0;
}

int sdt_bpf__agg_lat(const struct sdt_bpf *b, sdt_bpf_lat_fn fn, void *ctx)
{
	struct lat_each le = {b, fn, ctx};

	if (!b->agg || !b->lat_key)
		return 0;
	return each_key(b, bpf_map__fd(b->skel->maps.agg_lat), b->lat_key,
			sizeof(struct sdt_bpf_lat), merge_lat, &le);
}

int sdt_bpf__agg_lat_over(const struct sdt_bpf *b, sdt_bpf_lat_fn fn, void *ctx)
{
	struct lat_each le = {b, fn, ctx};

	if (!b->agg || !b->lat_key)
		return 0;
	return each_key(b, bpf_map__fd(b->skel->maps.agg_lat_over), 4,
			sizeof(struct sdt_bpf_lat), merge_lat, &le);
}

int sdt_bpf__agg_drops(const struct sdt_bpf *b, uint64_t out[SDT_BPF_DROP_N])
{
	uint64_t *v = calloc(b->ncpus, sizeof(*v));
	uint32_t k;
	size_t i;

	if (!v)
		return sdt_err(-ENOMEM, "out of memory");
	for (k = 0; k < SDT_BPF_DROP_N; k++) {
		out[k] = 0;
		if (bpf_map_lookup_elem(bpf_map__fd(b->skel->maps.agg_drops), &k, v)) {
			free(v);
			return sdt_err(-errno, "reading the aggregation counters: %s",
				       strerror(errno));
		}
		for (i = 0; i < b->ncpus; i++)
			out[k] += v[i];
	}
	free(v);
	return 0;
}
