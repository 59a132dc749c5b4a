/* SPDX-License-Identifier: MIT */
/* The accessors of the reader's objects (include/sdtrace/trace.h): session, kinds, events. */
#include <errno.h>

#include "trace/decode.h"
#include "sdtrace/trace.h"
#include "trace/reader.h"

const char *sdt_trace_reader__path(const struct sdt_trace_reader *r)
{
	return r->name;
}

const char *sdt_trace_reader__cmdline(const struct sdt_trace_reader *r)
{
	return r->cmdline;
}

const char *sdt_trace_reader__hostname(const struct sdt_trace_reader *r)
{
	return r->hostname;
}

const char *sdt_trace_reader__kernel_release(const struct sdt_trace_reader *r)
{
	return r->kernel;
}

const char *sdt_trace_reader__engine(const struct sdt_trace_reader *r)
{
	return r->engine;
}

uint64_t sdt_trace_reader__start_realtime_ns(const struct sdt_trace_reader *r)
{
	return r->start_rt;
}

uint64_t sdt_trace_reader__start_monotonic_ns(const struct sdt_trace_reader *r)
{
	return r->start_mono;
}

bool sdt_trace_reader__truncated(const struct sdt_trace_reader *r)
{
	return r->truncated;
}

int sdt_trace_reader__exit_status(const struct sdt_trace_reader *r, int *status)
{
	if (!r->have_exit)
		return -ENODATA;
	*status = r->exit_status;
	return 0;
}

uint64_t sdt_trace_reader__lost(const struct sdt_trace_reader *r)
{
	return r->lost;
}

size_t sdt_trace_reader__lost_cpus(const struct sdt_trace_reader *r)
{
	return r->nlost_cpu;
}

uint64_t sdt_trace_reader__lost_on_cpu(const struct sdt_trace_reader *r, size_t cpu)
{
	return cpu < r->nlost_cpu ? r->lost_cpu[cpu] : 0;
}

void sdt_trace_reader__set_filter(struct sdt_trace_reader *r, const struct sdt_filter *f)
{
	r->filter = f;
}

uint64_t sdt_trace_reader__filtered_out(const struct sdt_trace_reader *r)
{
	return r->filtered_out;
}

uint64_t sdt_trace_reader__sample_count(const struct sdt_trace_reader *r)
{
	return r->dec.nsamples;
}

size_t sdt_trace_reader__kind_count(const struct sdt_trace_reader *r)
{
	return r->dec.nkinds;
}

const struct sdt_trace_kind *sdt_trace_reader__kind(const struct sdt_trace_reader *r, size_t i)
{
	return i < r->dec.nkinds ? r->dec.kinds[i] : NULL;
}

/* A kind answers from its desc. */
uint64_t sdt_trace_kind__samples(const struct sdt_trace_kind *k)
{
	return k->samples;
}

const struct sdt_trace_event_desc *sdt_trace_kind__desc(const struct sdt_trace_kind *k)
{
	return &k->d;
}

const struct sdt_trace_kind *sdt_trace_event__kind(const struct sdt_trace_event *ev)
{
	return ev->k;
}

uint64_t sdt_trace_event__time_ns(const struct sdt_trace_event *ev)
{
	return ev->time_ns;
}

unsigned int sdt_trace_event__cpu(const struct sdt_trace_event *ev)
{
	return ev->cpu;
}

unsigned int sdt_trace_event__pid(const struct sdt_trace_event *ev)
{
	return ev->pid;
}

unsigned int sdt_trace_event__tid(const struct sdt_trace_event *ev)
{
	return ev->tid;
}

const char *sdt_trace_event__comm(const struct sdt_trace_event *ev)
{
	return ev->comm;
}

const char *sdt_trace_event__provider(const struct sdt_trace_event *ev)
{
	return ev->k->d.provider;
}

const char *sdt_trace_event__name(const struct sdt_trace_event *ev)
{
	return ev->k->d.name;
}

const char *sdt_trace_event__path(const struct sdt_trace_event *ev)
{
	return ev->k->d.path;
}

bool sdt_trace_event__address(const struct sdt_trace_event *ev, uint64_t *addr)
{
	if (ev->have_addr)
		*addr = ev->addr;
	return ev->have_addr;
}

bool sdt_trace_event__ip(const struct sdt_trace_event *ev, uint64_t *ip)
{
	if (ev->have_ip)
		*ip = ev->ip;
	return ev->have_ip;
}

size_t sdt_trace_event__stack(const struct sdt_trace_event *ev, const uint64_t **ips)
{
	if (ev->stack_nr)
		*ips = ev->stack;
	return ev->stack_nr;
}

uint32_t sdt_trace_event__stack_id(const struct sdt_trace_event *ev)
{
	return ev->stack_id;
}

/* The reader's mapping @m as the public struct. */
static void mapping_out(const struct reader_mapping *m, struct sdt_trace_mapping *out)
{
	*out = (struct sdt_trace_mapping){.pid = m->pid,
					  .start = m->start,
					  .len = m->len,
					  .pgoff = m->pgoff,
					  .build_id = m->build_id,
					  .path = m->path};
}

/* The latest mapping that covers @ip: later ones replace earlier ones (munmap, a new mmap). */
bool sdt_trace_reader__mapping(const struct sdt_trace_reader *r, uint32_t pid, uint64_t ip,
			       struct sdt_trace_mapping *out)
{
	size_t i;

	for (i = r->nmaps; i-- > 0;) {
		const struct reader_mapping *m = &r->maps[i];

		if (m->pid != pid || ip < m->start || ip - m->start >= m->len)
			continue;
		mapping_out(m, out);
		return true;
	}
	return false;
}

bool sdt_trace_event__user_stack(const struct sdt_trace_event *ev,
				 struct sdt_trace_user_stack *out)
{
	if (!ev->have_ustack)
		return false;
	*out = ev->ustack;
	return true;
}

bool sdt_trace_reader__mapping_at(const struct sdt_trace_reader *r, size_t i,
				  struct sdt_trace_mapping *out)
{
	const struct reader_mapping *m;

	if (i >= r->nmaps)
		return false;
	m = &r->maps[i];
	mapping_out(m, out);
	return true;
}

size_t sdt_trace_reader__mapping_count(const struct sdt_trace_reader *r)
{
	return r->nmaps;
}

bool sdt_trace_reader__has_stacks(const struct sdt_trace_reader *r)
{
	return r->stacks.n > 0 || r->has_ustacks;
}

size_t sdt_trace_event__arg_count(const struct sdt_trace_event *ev)
{
	return ev->k->d.nargs;
}

int sdt_trace_event__arg(const struct sdt_trace_event *ev, size_t i, struct sdt_trace_value *out)
{
	if (i >= ev->k->d.nargs)
		return -ERANGE;
	sdt_decode_arg(&ev->k->d, i, ev->raw, ev->raw_size, ev->dec->swap, ev->have_bias, ev->bias,
		       out);
	if (out->kind == SDT_VALUE_STRING && i < SDT_MAX_ARGS && ev->k->count_of[i] >= 0) {
		struct sdt_trace_value n;

		/* a counted string: the kernel read on to the next NUL; keep the counted bytes */
		sdt_decode_arg(&ev->k->d, (size_t)ev->k->count_of[i], ev->raw, ev->raw_size,
			       ev->dec->swap, ev->have_bias, ev->bias, &n);
		if ((n.kind == SDT_VALUE_UINT || (n.kind == SDT_VALUE_INT && n.i >= 0)) &&
		    n.u < out->len) {
			/* the reader's own buffer (parse_sample() rebuilt the record there) */
			((char *)out->str)[n.u] = '\0';
			out->len = (size_t)n.u;
			out->truncated = false; /* every counted byte is there */
		} else if ((n.kind == SDT_VALUE_UINT || (n.kind == SDT_VALUE_INT && n.i >= 0)) &&
			   out->truncated && n.u > out->min_len) {
			out->min_len = (size_t)n.u; /* the count says how long it was */
		}
	}
	return 0;
}
