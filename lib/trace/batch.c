/* SPDX-License-Identifier: MIT */
/*
 * Events by the batch (sdt_trace_reader__read_batch, include/sdtrace/trace.h): the reader's
 * events and their decoded arguments copied into columns, so that a caller pays one call per
 * batch instead of about ten per event (Python through cffi: BENCHMARKS.md, "Python").
 */
#include <string.h>

#include "util/internal.h"
#include "sdtrace/trace.h"
#include "trace/decoder.h"

#define DEFAULT_MAX_EVENTS 65536
#define COMM_SLOTS	   256 /* thread names met lately, by tid: each stored once a batch */

struct comm_slot {
	uint32_t tid;
	uint64_t off; /* SDT_TRACE_NO_STRING: empty */
};

struct sdt_trace_batch {
	size_t max, count;
	/* per event: max elements (the two *_first: max + 1) */
	uint64_t *time_ns, *comm, *address, *stack_first, *arg_first;
	uint32_t *cpu, *pid, *tid, *kind, *stack_id;
	uint8_t *flags;
	/* per argument slot */
	size_t nslots, slots_cap;
	uint8_t *arg_kind, *arg_flags;
	uint64_t *arg_value, *arg_len, *arg_min_len;
	size_t slots_caps[5]; /* sdt_grow's capacity of each slot array */
	uint64_t *ips;
	size_t nips, ips_cap;
	struct sdt_buf strings;
	struct comm_slot comms[COMM_SLOTS];
};

void sdt_trace_batch__free(struct sdt_trace_batch *b)
{
	if (!b)
		return;
	free(b->time_ns);
	free(b->comm);
	free(b->address);
	free(b->stack_first);
	free(b->arg_first);
	free(b->cpu);
	free(b->pid);
	free(b->tid);
	free(b->kind);
	free(b->stack_id);
	free(b->flags);
	free(b->arg_kind);
	free(b->arg_flags);
	free(b->arg_value);
	free(b->arg_len);
	free(b->arg_min_len);
	free(b->ips);
	sdt_buf_free(&b->strings);
	free(b);
}

int sdt_trace_batch__new(const struct sdt_trace_batch_opts *opts, struct sdt_trace_batch **out)
{
	struct sdt_trace_batch_opts o;
	struct sdt_trace_batch *b;
	size_t n;
	int err;

	err = SDT_OPTS_COPY(&o, opts, sdt_trace_batch_opts);
	if (err)
		return err;
	n = o.max_events ? o.max_events : DEFAULT_MAX_EVENTS;
	if (n > (size_t)INT32_MAX)
		return sdt_err(-EINVAL, "struct sdt_trace_batch_opts: max_events %zu is more than %d",
			       n, INT32_MAX);
	b = calloc(1, sizeof(*b));
	if (!b)
		return sdt_err(-ENOMEM, "out of memory");
	b->max = n;
	b->time_ns = sdt_reallocarray(NULL, n, sizeof(*b->time_ns));
	b->comm = sdt_reallocarray(NULL, n, sizeof(*b->comm));
	b->address = sdt_reallocarray(NULL, n, sizeof(*b->address));
	b->stack_first = sdt_reallocarray(NULL, n + 1, sizeof(*b->stack_first));
	b->arg_first = sdt_reallocarray(NULL, n + 1, sizeof(*b->arg_first));
	b->cpu = sdt_reallocarray(NULL, n, sizeof(*b->cpu));
	b->pid = sdt_reallocarray(NULL, n, sizeof(*b->pid));
	b->tid = sdt_reallocarray(NULL, n, sizeof(*b->tid));
	b->kind = sdt_reallocarray(NULL, n, sizeof(*b->kind));
	b->stack_id = sdt_reallocarray(NULL, n, sizeof(*b->stack_id));
	b->flags = malloc(n);
	if (!b->time_ns || !b->comm || !b->address || !b->stack_first || !b->arg_first ||
	    !b->cpu || !b->pid || !b->tid || !b->kind || !b->stack_id || !b->flags) {
		sdt_trace_batch__free(b);
		return sdt_err(-ENOMEM, "out of memory");
	}
	b->stack_first[0] = 0;
	b->arg_first[0] = 0;
	*out = b;
	return 0;
}

/* Room for @need argument slots in every slot array. */
static int grow_slots(struct sdt_trace_batch *b, size_t need)
{
	if (need <= b->slots_cap)
		return 0;
	if (sdt_grow((void **)&b->arg_kind, &b->slots_caps[0], need, sizeof(*b->arg_kind)) ||
	    sdt_grow((void **)&b->arg_flags, &b->slots_caps[1], need, sizeof(*b->arg_flags)) ||
	    sdt_grow((void **)&b->arg_value, &b->slots_caps[2], need, sizeof(*b->arg_value)) ||
	    sdt_grow((void **)&b->arg_len, &b->slots_caps[3], need, sizeof(*b->arg_len)) ||
	    sdt_grow((void **)&b->arg_min_len, &b->slots_caps[4], need, sizeof(*b->arg_min_len)))
		return -ENOMEM;
	b->slots_cap = b->slots_caps[0];
	for (size_t i = 1; i < 5; i++)
		if (b->slots_caps[i] < b->slots_cap)
			b->slots_cap = b->slots_caps[i];
	return 0;
}

/* @s (@len bytes) appended to the strings with its NUL: 0 and *off, or -ENOMEM. */
static int add_string(struct sdt_trace_batch *b, const char *s, size_t len, uint64_t *off)
{
	*off = b->strings.len;
	if (sdt_buf_add(&b->strings, s, len) || sdt_buf_add(&b->strings, "", 1))
		return -ENOMEM;
	return 0;
}

/* The thread name's offset: stored once per thread and name in a batch, as names change. */
static int add_comm(struct sdt_trace_batch *b, uint32_t tid, const char *comm, uint64_t *off)
{
	struct comm_slot *c = &b->comms[(tid * 2654435761u) >> 24 & (COMM_SLOTS - 1)];
	int err;

	if (!comm) {
		*off = SDT_TRACE_NO_STRING;
		return 0;
	}
	if (c->off != SDT_TRACE_NO_STRING && c->tid == tid &&
	    !strcmp(b->strings.buf + c->off, comm)) {
		*off = c->off;
		return 0;
	}
	err = add_string(b, comm, strlen(comm), off);
	if (err)
		return err;
	c->tid = tid;
	c->off = *off;
	return 0;
}

/* Event @ev appended as element b->count. */
static int add_event(struct sdt_trace_batch *b, const struct sdt_trace_event *ev)
{
	size_t i = b->count, nargs = ev->k->d.nargs, s = b->nslots, a;
	struct sdt_trace_value v;
	uint64_t addr = 0;

	b->time_ns[i] = ev->time_ns;
	b->cpu[i] = ev->cpu;
	b->pid[i] = ev->pid;
	b->tid[i] = ev->tid;
	b->kind[i] = ev->k->pos;
	b->stack_id[i] = ev->stack_id;
	b->flags[i] = sdt_trace_event__address(ev, &addr) ? SDT_TRACE_EVENT_ADDRESS : 0;
	b->address[i] = addr;
	if (add_comm(b, ev->tid, ev->comm, &b->comm[i]))
		return -ENOMEM;
	if (ev->stack_nr) {
		if (sdt_grow((void **)&b->ips, &b->ips_cap, b->nips + ev->stack_nr, sizeof(*b->ips)))
			return -ENOMEM;
		memcpy(b->ips + b->nips, ev->stack, ev->stack_nr * sizeof(*b->ips));
		b->nips += ev->stack_nr;
	}
	if (grow_slots(b, s + nargs))
		return -ENOMEM;
	for (a = 0; a < nargs; a++, s++) {
		sdt_trace_event__arg(ev, a, &v);
		b->arg_kind[s] = (uint8_t)v.kind;
		b->arg_flags[s] = v.is_address ? SDT_TRACE_ARG_ADDRESS : 0;
		b->arg_len[s] = 0;
		b->arg_min_len[s] = 0;
		switch (v.kind) {
		case SDT_VALUE_INT:
			b->arg_value[s] = (uint64_t)v.i;
			break;
		case SDT_VALUE_UINT:
			b->arg_value[s] = v.u;
			break;
		case SDT_VALUE_FLOAT:
			memcpy(&b->arg_value[s], &v.f, sizeof(v.f));
			break;
		case SDT_VALUE_STRING:
			if (add_string(b, v.str, v.len, &b->arg_value[s]))
				return -ENOMEM;
			b->arg_len[s] = v.len;
			if (v.truncated) {
				b->arg_flags[s] |= SDT_TRACE_ARG_TRUNCATED;
				b->arg_min_len[s] = v.min_len;
			}
			break;
		default:
			b->arg_value[s] = 0;
			break;
		}
	}
	/* the event is whole: only now counted */
	b->nslots = s;
	b->count = i + 1;
	b->arg_first[b->count] = b->nslots;
	b->stack_first[b->count] = b->nips;
	return 0;
}

int sdt_trace_reader__read_batch(struct sdt_trace_reader *r, struct sdt_trace_batch *b)
{
	const struct sdt_trace_event *ev;
	size_t i;
	int ret;

	b->count = 0;
	b->nslots = 0;
	b->nips = 0;
	sdt_buf_reset(&b->strings);
	for (i = 0; i < COMM_SLOTS; i++)
		b->comms[i].off = SDT_TRACE_NO_STRING;
	while (b->count < b->max) {
		ret = sdt_trace_reader__next(r, &ev);
		if (ret < 0)
			return ret;
		if (!ret)
			break;
		if (add_event(b, ev)) {
			/* the events before it stay */
			b->arg_first[b->count] = b->nslots;
			b->stack_first[b->count] = b->nips;
			return sdt_err(-ENOMEM, "out of memory");
		}
	}
	return (int)b->count;
}

void sdt_trace_batch__columns(const struct sdt_trace_batch *b, struct sdt_trace_columns *out)
{
	struct sdt_trace_columns c = {
	    .sz = sizeof(c),
	    .count = b->count,
	    .time_ns = b->time_ns,
	    .cpu = b->cpu,
	    .pid = b->pid,
	    .tid = b->tid,
	    .kind = b->kind,
	    .stack_id = b->stack_id,
	    .comm = b->comm,
	    .address = b->address,
	    .flags = b->flags,
	    .stack_first = b->stack_first,
	    .ips = b->ips,
	    .arg_first = b->arg_first,
	    .arg_kind = b->arg_kind,
	    .arg_flags = b->arg_flags,
	    .arg_value = b->arg_value,
	    .arg_len = b->arg_len,
	    .arg_min_len = b->arg_min_len,
	    .strings = b->strings.len ? b->strings.buf : "",
	    .strings_len = b->strings.len,
	};
	size_t sz = out->sz;

	/* a caller built against an older header knows fewer fields: only those are written */
	if (sz > sizeof(c))
		sz = sizeof(c);
	if (sz <= sizeof(c.sz))
		return;
	memcpy((char *)out + sizeof(c.sz), (const char *)&c + sizeof(c.sz), sz - sizeof(c.sz));
}
