/* SPDX-License-Identifier: MIT */
/*
 * The decoder (trace/decoder.h): samples -> events, for the reader of a file and for samples
 * straight from the recorder alike. It keeps the event kinds, the thread names and the load
 * biases; apart from the reader, which only parses the file's records.
 */
#include <string.h>

#include "trace/decode.h"
#include "util/internal.h"
#include "trace/decoder.h"

#define MAX_THREADS    (1u << 20)

void sdt_trace_kind_free(struct sdt_trace_kind *k)
{
	if (!k)
		return;
	sdt_trace_event_desc_release(&k->d);
	sdt_trace_layout_release(&k->lay);
	free(k);
}

/* Free what the decoder holds (not @dec itself). */
void sdt_trace_decoder_release(struct sdt_trace_decoder *dec)
{
	size_t i;

	for (i = 0; i < dec->nkinds; i++)
		sdt_trace_kind_free(dec->kinds[i]);
	free(dec->kinds);
	free(dec->by_index);
	free(dec->comms);
	free(dec->raw);
	memset(dec, 0, sizeof(*dec));
}

static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

/* count_of[]: a string argument NAME whose event also has an integer argument NAME_len. */
static void find_counts(struct sdt_trace_kind *k)
{
	size_t i, j, n;

	for (i = 0; i < SDT_MAX_ARGS; i++)
		k->count_of[i] = -1;
	for (i = 0; i < k->d.nargs && i < SDT_MAX_ARGS; i++) {
		const struct sdt_trace_arg *a = &k->d.args[i];

		if (!a->is_string || !a->name)
			continue;
		n = strlen(a->name);
		for (j = 0; j < k->d.nargs; j++) {
			const struct sdt_trace_arg *b = &k->d.args[j];

			if (b->name && !b->is_string && !b->is_float &&
			    !strncmp(b->name, a->name, n) && !strcmp(b->name + n, "_len")) {
				k->count_of[i] = (int8_t)j;
				break;
			}
		}
	}
}

/*
 * Take @k (a checked desc) as the kind of its event index: 0, -EEXIST (the index is taken) or
 * -ENOMEM, without a message; @k is the decoder's on success only.
 */
int sdt_trace_decoder_add_kind(struct sdt_trace_decoder *dec, struct sdt_trace_kind *k)
{
	if (k->d.index >= dec->index_cap) {
		size_t n = dec->index_cap ? dec->index_cap * 2 : 16;
		struct sdt_trace_kind **ni;

		while (n <= k->d.index)
			n *= 2;
		if (n > SDT_TRACE_MAX_EVENTS)
			n = SDT_TRACE_MAX_EVENTS;
		ni = sdt_reallocarray(dec->by_index, n, sizeof(*ni));

		if (!ni)
			return -ENOMEM;
		memset(ni + dec->index_cap, 0, (n - dec->index_cap) * sizeof(*ni));
		dec->by_index = ni;
		dec->index_cap = n;
	}
	if (dec->by_index[k->d.index])
		return -EEXIST;
	if (sdt_grow((void **)&dec->kinds, &dec->kinds_cap, dec->nkinds + 1, sizeof(*dec->kinds)))
		return -ENOMEM;
	if (sdt_trace_layout_init(&k->lay, &k->d))
		return -ENOMEM;
	find_counts(k);
	k->path_hash = fnv1a(k->d.path ? k->d.path : "");
	dec->by_index[k->d.index] = k;
	k->pos = (uint32_t)dec->nkinds;
	dec->kinds[dec->nkinds++] = k;
	return 0;
}

/* The thread-name table: open addressing on tid, no deletion. */
static struct comm_entry *comm_slot(struct comm_entry *tab, size_t cap, uint32_t tid)
{
	size_t i = (tid * 2654435761u) & (cap - 1);

	while (tab[i].used && tab[i].tid != tid)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

int sdt_trace_decoder_set_comm(struct sdt_trace_decoder *dec, uint32_t tid, const char *comm, size_t len)
{
	struct comm_entry *e;
	size_t i;

	if ((dec->ncomms + 1) * 2 > dec->comms_cap) {
		size_t ncap = dec->comms_cap ? dec->comms_cap * 2 : 64;
		struct comm_entry *nt;

		if (dec->ncomms >= MAX_THREADS)
			return -E2BIG;
		nt = calloc(ncap, sizeof(*nt));
		if (!nt)
			return -ENOMEM;
		for (i = 0; i < dec->comms_cap; i++) {
			if (dec->comms[i].used)
				*comm_slot(nt, ncap, dec->comms[i].tid) = dec->comms[i];
		}
		free(dec->comms);
		dec->comms = nt;
		dec->comms_cap = ncap;
	}
	e = comm_slot(dec->comms, dec->comms_cap, tid);
	if (!e->used)
		dec->ncomms++;
	e->used = true;
	e->tid = tid;
	memcpy(e->comm, comm, len);
	e->comm[len] = '\0';
	return 0;
}

static const char *comm_get(const struct sdt_trace_decoder *dec, uint32_t tid)
{
	const struct comm_entry *e;

	if (!dec->comms_cap)
		return NULL;
	e = comm_slot(dec->comms, dec->comms_cap, tid);
	return e->used ? e->comm : NULL;
}

/*
 * The event of one sample of @k: @s its task and time, @stored the @len bytes the file stores of
 * its raw record (from k->lay.skip on, at least its fixed fields). The record is rebuilt in the
 * decoder's buffer, its common header zeroed; the site and load bias come from the probe ip.
 * 0 or -ENOMEM (without a message).
 */
/*
 * Which site of @k fired at probe ip @ev->ip, and so the load bias: by address, helped by the
 * bias last seen in the same process for the same binary, which a page-aligned bias updates.
 */
static void locate_site(struct sdt_trace_decoder *dec, const struct sdt_trace_kind *k,
			struct sdt_trace_event *ev)
{
	struct bias_slot *slot;
	long site;
	bool hint;

	slot = &dec->bias[(ev->pid * 2654435761u ^ k->path_hash) % BIAS_SLOTS];
	hint = slot->used && slot->pid == ev->pid && slot->path_hash == k->path_hash;
	site = sdt_decode_site(&k->d, ev->ip, hint, slot->bias);
	if (site < 0)
		return;
	ev->have_addr = ev->have_bias = true;
	ev->addr = k->d.site_addrs[site];
	ev->bias = ev->ip - ev->addr;
	/* a lone site is taken on trust: only a page-aligned bias teaches the cache */
	if (ev->bias % 4096 == 0) {
		slot->used = true;
		slot->pid = ev->pid;
		slot->path_hash = k->path_hash;
		slot->bias = ev->bias;
	}
}

int sdt_trace_decoder_stored(struct sdt_trace_decoder *dec, struct sdt_trace_kind *k,
			     const struct sdt_trace_sample *s, const uint8_t *stored, size_t len)
{
	struct sdt_trace_event *ev = &dec->ev;

	if (sdt_grow((void **)&dec->raw, &dec->raw_cap, k->lay.skip + len + 1, 1))
		return -ENOMEM;
	memset(dec->raw, 0, k->lay.skip);
	memcpy(dec->raw + k->lay.skip, stored, len);

	memset(ev, 0, sizeof(*ev));
	ev->dec = dec;
	ev->k = k;
	ev->time_ns = s->time_ns;
	ev->cpu = s->cpu;
	ev->pid = s->pid;
	ev->tid = s->tid;
	ev->comm = comm_get(dec, ev->tid);
	ev->raw = dec->raw;
	ev->raw_size = k->lay.skip + len;
	if (sdt_decode_probe_ip(&k->d, ev->raw, ev->raw_size, dec->swap, &ev->ip)) {
		ev->have_ip = true;
		locate_site(dec, k, ev);
	} else if (k->d.nsites == 1) {
		ev->have_addr = true;
		ev->addr = k->d.site_addrs[0];
	}
	k->samples++;
	dec->nsamples++;
	return 0;
}

/* The public decoder (include/sdtrace/trace.h): samples straight from a recorder. */

int sdt_trace_decoder__new(struct sdt_trace_decoder **out)
{
	struct sdt_trace_decoder *dec = calloc(1, sizeof(*dec));

	if (!dec)
		return sdt_err(-ENOMEM, "out of memory");
	*out = dec;
	return 0;
}

void sdt_trace_decoder__free(struct sdt_trace_decoder *dec)
{
	if (!dec)
		return;
	sdt_trace_decoder_release(dec);
	free(dec);
}

int sdt_trace_decoder__add_desc(struct sdt_trace_decoder *dec,
				const struct sdt_trace_event_desc *d)
{
	struct sdt_trace_kind *k;
	int err;

	err = sdt_trace_desc_check(d);
	if (err)
		return err;
	k = calloc(1, sizeof(*k));
	if (!k || sdt_trace_desc_copy(&k->d, d)) {
		free(k);
		return sdt_err(-ENOMEM, "out of memory");
	}
	err = sdt_trace_decoder_add_kind(dec, k);
	if (err)
		sdt_trace_kind_free(k);
	if (err == -EEXIST)
		return sdt_err(-EEXIST, "event %u (%s:%s) is already described", d->index,
			       d->provider, d->name);
	if (err)
		return sdt_err(err, "out of memory");
	return 0;
}

/* As the writer keeps it (COMM_LEN - 1 bytes at most), so that both paths name threads alike. */
int sdt_trace_decoder__comm(struct sdt_trace_decoder *dec, uint32_t pid, uint32_t tid,
			    const char *comm)
{
	const char *c = comm ? comm : "";
	int err;

	(void)pid; /* threads are named by tid, as in the file */
	err = sdt_trace_decoder_set_comm(dec, tid, c, strnlen(c, COMM_LEN - 1));
	if (err == -E2BIG)
		return sdt_err(err, "more than 1M threads named");
	if (err)
		return sdt_err(err, "out of memory");
	return 0;
}

/*
 * The bytes the writer would store of @s (sdt_trace_layout_used()) are decoded as the reader
 * decodes them from the file: `sdtrace trace` shows what `record` + `report` would.
 */
int sdt_trace_decoder__sample(struct sdt_trace_decoder *dec, const struct sdt_trace_sample *s,
			      const struct sdt_trace_event **ev)
{
	struct sdt_trace_kind *k = s->event < dec->index_cap ? dec->by_index[s->event] : NULL;
	const uint8_t *raw = s->raw;
	uint32_t used;

	if (!k)
		return sdt_err(-EINVAL, "sample of undescribed event %u", s->event);
	if (s->raw_size < k->lay.fixed_end || s->raw_size > SDT_TRACE_MAX_RAW)
		return sdt_err(-EINVAL, "sample of event %u: record of %u bytes, fields need %u",
			       s->event, s->raw_size, k->lay.fixed_end);
	used = sdt_trace_layout_used(&k->lay, raw, s->raw_size);
	if (sdt_trace_decoder_stored(dec, k, s, raw + k->lay.skip, used - k->lay.skip))
		return sdt_err(-ENOMEM, "out of memory");
	*ev = &dec->ev;
	return 0;
}
