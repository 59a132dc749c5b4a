/* SPDX-License-Identifier: MIT */
/*
 * Aggregation in the kernel with the BPF engine (stat --by, --latency; record.h's
 * opts.agg_for): before the load, what each event's hits do and where each argument's value
 * goes in the keys (the sites' plans, lib/bpf/plan.h); after the run, the kernel's maps read
 * back as rows.
 *
 * Keys. One layout for the group (--by) values and one for the pairing (--key) values, the same
 * for every event: a position holds a string (SDT_BPF_KEY_STR bytes) when the argument there is
 * a string, else an integer (8 bytes); an event whose argument at a position is of the other
 * kind is refused, as is a name an event lacks or cannot fetch.
 *
 * `pid` is no argument but the process the hit ran in (its thread group id, the filter's `pid`),
 * an integer part the program writes itself (SDT_BPF_ARG_PID): every event has it, so that
 * `stat --by pid` and `top --per-process` count each process's hits under one key. It wins
 * over an argument named pid, as in a filter; `argN` still names that argument.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/sdt_bpf.h"
#include "record/bpf/engine.h"
#include "record/recorder.h"
#include "trace/trace_event.h"
#include "util/internal.h"

/* agg_ev's by[]/key[] index of the process id (no argument) */
#define AGG_ARG_PID (-2)

static bool is_pid(const char *name)
{
	return !strcmp(name, "pid");
}

/* The names of @ev's by[] (@by) or key[] at their argument indices, into @idx. 0 or -errno. */
static int resolve(const struct sdt_trace_event_desc *d, const char *opt,
		   const char *const *names, size_t n, int8_t *idx)
{
	size_t p;

	if (n > SDT_AGG_MAX_PARTS)
		return sdt_err(-EINVAL, "%s: %zu arguments, at most %d", opt, n, SDT_AGG_MAX_PARTS);
	for (p = 0; p < n; p++) {
		int i = sdt_trace_event_desc__arg_index(d, names[p]);

		if (is_pid(names[p])) {
			idx[p] = AGG_ARG_PID;
			continue;
		}
		if (i < 0)
			return sdt_err(-EINVAL, "%s %s: %s:%s has no argument '%s'", opt, names[p],
				       d->provider, d->name, names[p]);
		if (d->args[i].unavailable)
			return sdt_err(-EINVAL, "%s %s: %s:%s cannot fetch it: %s", opt, names[p],
				       d->provider, d->name, d->args[i].unavailable);
		if (d->args[i].is_float || d->args[i].size > 8)
			return sdt_err(-EINVAL, "%s %s: %s:%s: a floating-point argument cannot be a "
						"key", opt, names[p], d->provider, d->name);
		idx[p] = (int8_t)i;
	}
	return 0;
}

/* Position @p of @lay takes argument @i of @d (or the pid): the same kind as every event before. */
static int place(struct agg_layout *lay, size_t p, int i, const struct sdt_trace_event_desc *d,
		 const char *opt)
{
	bool str = i >= 0 && d->args[i].is_string;

	if (p >= lay->n) {
		lay->str[p] = str;
		lay->n = p + 1;
		return 0;
	}
	if (lay->str[p] != str)
		return sdt_err(-EINVAL, "%s %s: a string in some events and a number in %s:%s", opt,
			       i >= 0 ? d->args[i].name : "pid", d->provider, d->name);
	return 0;
}

/* The program's keypart argument for agg_ev index @i. */
static uint8_t part_arg(int i)
{
	return i == AGG_ARG_PID ? SDT_BPF_ARG_PID : (uint8_t)i;
}

/*
 * The argument that counts string argument @i of @d's bytes: an integer NAME_len beside a string
 * NAME, the rule the report cuts by (lib/trace/decoder.c's find_counts()); SDT_BPF_NO_LEN if none.
 */
static uint8_t count_arg(const struct sdt_trace_event_desc *d, int i)
{
	const struct sdt_trace_arg *a, *b;
	size_t j, n;

	if (i < 0 || (size_t)i >= d->nargs || !d->args[i].is_string || !d->args[i].name)
		return SDT_BPF_NO_LEN;
	a = &d->args[i];
	n = strlen(a->name);
	for (j = 0; j < d->nargs && j < SDT_BPF_MAX_ARGS; j++) {
		b = &d->args[j];
		if (b->name && !b->is_string && !b->is_float && !b->unavailable && b->size <= 8 &&
		    !strncmp(b->name, a->name, n) && !strcmp(b->name + n, "_len"))
			return (uint8_t)j;
	}
	return SDT_BPF_NO_LEN;
}

static size_t lay_out(struct agg_layout *lay)
{
	size_t p, off = 8;

	for (p = 0; p < lay->n; p++) {
		lay->dst[p] = (uint16_t)off;
		off += lay->str[p] ? SDT_BPF_KEY_STR : 8;
	}
	return off;
}

int sdt_rec_bpf_agg_plan(struct rec_bpf *b, struct sdt_recorder *r)
{
	struct rec_agg *ag = &b->agg;
	bool counts = false, pairs = false;
	size_t e, k, p;
	int err;

	ag->ev = calloc(b->nevents ? b->nevents : 1, sizeof(*ag->ev));
	if (!ag->ev)
		return sdt_err(-ENOMEM, "out of memory");
	/* first every event, so that the caller knows them all (pairs need both sides) */
	for (e = 0; e < b->nevents; e++) {
		err = r->o.agg_for(r->o.agg_ctx, &b->events[e], NULL);
		if (err < 0)
			return sdt_err(err, "%s:%s: refused by the caller", b->events[e].provider,
				       b->events[e].name);
	}
	for (e = 0; e < b->nevents; e++) {
		const struct sdt_trace_event_desc *d = &b->events[e];
		struct agg_ev *ae = &ag->ev[e];
		struct sdt_agg_event q = {0};

		err = r->o.agg_for(r->o.agg_ctx, d, &q);
		if (err < 0)
			return sdt_err(err, "%s:%s: refused by the caller", d->provider, d->name);
		ae->role = q.role;
		ae->pair = q.pair;
		ae->any_thread = q.any_thread;
		if (q.role == SDT_AGG_IGNORE)
			continue;
		if (q.role == SDT_AGG_COUNT || q.role == SDT_AGG_START) {
			err = resolve(d, "--by", q.by, q.nby, ae->by);
			for (p = 0; !err && p < q.nby; p++)
				err = place(&ag->by, p, ae->by[p], d, "--by");
			ae->nby = (uint8_t)q.nby;
		}
		if (!err && (q.role == SDT_AGG_START || q.role == SDT_AGG_END)) {
			err = resolve(d, "--key", q.key, q.nkey, ae->key);
			for (p = 0; !err && p < q.nkey; p++)
				err = place(&ag->key, p, ae->key[p], d, "--key");
			ae->nkey = (uint8_t)q.nkey;
			if (q.pair >= ag->npairs)
				ag->npairs = q.pair + 1;
		}
		if (err)
			return err;
		counts |= q.role == SDT_AGG_COUNT;
		pairs |= q.role != SDT_AGG_COUNT;
	}
	/* every event of a pair gives all of its key's values, else its start and end never meet */
	for (e = 0; e < b->nevents; e++) {
		const struct agg_ev *ae = &ag->ev[e], *o;

		if (ae->role != SDT_AGG_START && ae->role != SDT_AGG_END)
			continue;
		for (k = 0; k < e; k++) {
			o = &ag->ev[k];
			if ((o->role == SDT_AGG_START || o->role == SDT_AGG_END) &&
			    o->pair == ae->pair && o->nkey != ae->nkey)
				return sdt_err(-EINVAL,
					       "--key: %s:%s has %u arguments of the key, %s:%s of "
					       "the same pair %u",
					       b->events[e].provider, b->events[e].name, ae->nkey,
					       b->events[k].provider, b->events[k].name, o->nkey);
		}
	}
	/* the kernel's open-pairs key holds the pair in 16 bits, its stack level above (sdt.bpf.c) */
	if (ag->npairs > 0xffff)
		return sdt_err(-E2BIG, "--latency: %zu pairs, more than the kernel's 65535",
			       ag->npairs);
	/* the first start of each pair decodes its rows' values */
	ag->pair_start = calloc(ag->npairs ? ag->npairs : 1, sizeof(*ag->pair_start));
	if (!ag->pair_start)
		return sdt_err(-ENOMEM, "out of memory");
	for (p = 0; p < ag->npairs; p++)
		ag->pair_start[p] = SIZE_MAX;
	for (e = 0; e < b->nevents; e++)
		if (ag->ev[e].role == SDT_AGG_START && ag->pair_start[ag->ev[e].pair] == SIZE_MAX)
			ag->pair_start[ag->ev[e].pair] = e;
	ag->count_key = counts ? lay_out(&ag->by) : 0;
	ag->lat_key = pairs ? lay_out(&ag->by) : 0;
	ag->start_key = pairs ? lay_out(&ag->key) : 0;
	for (k = 0; k < b->nsites; k++) {
		struct sdt_bpf_site *s = &b->sites[k];
		const struct agg_ev *ae = &ag->ev[s->event];

		s->role = ae->role == SDT_AGG_COUNT	? SDT_BPF_ROLE_COUNT
			  : ae->role == SDT_AGG_START ? SDT_BPF_ROLE_START
			  : ae->role == SDT_AGG_END   ? SDT_BPF_ROLE_END
						      : SDT_BPF_ROLE_SKIP;
		s->group = (uint32_t)ae->pair;
		s->any_thread = ae->any_thread;
		s->nby = ae->nby;
		s->nkey = ae->nkey;
		s->clear = ae->nby < ag->by.n || ae->nkey < ag->key.n;
		for (p = 0; p < ae->nby; p++)
			s->by[p] = (struct sdt_bpf_keypart){
			    .arg = part_arg(ae->by[p]),
			    .str = ag->by.str[p],
			    .dst = ag->by.dst[p],
			    .len_arg = count_arg(&b->events[s->event], ae->by[p])};
		for (p = 0; p < ae->nkey; p++)
			s->key[p] = (struct sdt_bpf_keypart){
			    .arg = part_arg(ae->key[p]),
			    .str = ag->key.str[p],
			    .dst = ag->key.dst[p],
			    .len_arg = count_arg(&b->events[s->event], ae->key[p])};
	}
	return 0;
}

/* The values of a key (past its 8-byte head) as event @e's by[] arguments say. */
static int decode_values(struct rec_agg *ag, const struct sdt_trace_event_desc *d,
			 const struct agg_ev *ae, const unsigned char *key, struct sdt_agg_row *row)
{
	struct sdt_agg_value *v = calloc(ae->nby ? ae->nby : 1, sizeof(*v));
	size_t p;

	if (!v)
		return sdt_err(-ENOMEM, "out of memory");
	row->values = v;
	row->nvalues = ae->nby;
	for (p = 0; p < ae->nby; p++, v++) {
		const struct sdt_trace_arg *a;
		const unsigned char *src = key + ag->by.dst[p];

		if (ae->by[p] == AGG_ARG_PID) { /* a pid_t */
			memcpy(&v->u, src, 8);
			v->is_signed = true;
			v->i = (int64_t)v->u;
			continue;
		}
		a = &d->args[ae->by[p]];
		if (ag->by.str[p]) {
			v->is_string = true;
			v->cut = src[SDT_BPF_KEY_STR - 1] != 0;
			v->str = sdt_strndup((const char *)src, SDT_BPF_KEY_STR - 2);
			if (!v->str)
				return sdt_err(-ENOMEM, "out of memory");
			continue;
		}
		memcpy(&v->u, src, 8);
		v->is_signed = a->is_signed;
		if (a->size < 8 && a->is_signed && (v->u >> (a->size * 8 - 1)) & 1)
			v->u |= ~0ull << (a->size * 8);
		v->i = (int64_t)v->u;
	}
	return 0;
}

static struct sdt_agg_row *new_row(struct rec_agg *ag)
{
	size_t cap = ag->rows_cap;

	if (sdt_grow((void **)&ag->rows, &cap, ag->nrows + 1, sizeof(*ag->rows)))
		return NULL;
	ag->rows_cap = cap;
	memset(&ag->rows[ag->nrows], 0, sizeof(*ag->rows));
	return &ag->rows[ag->nrows++];
}

static int on_count(void *ctx, const void *key, uint64_t count)
{
	struct rec_bpf *b = ctx;
	struct rec_agg *ag = &b->agg;
	uint32_t e;
	struct sdt_agg_row *row;

	memcpy(&e, key, 4);
	if (e >= b->nevents || ag->ev[e].role != SDT_AGG_COUNT)
		return 0;
	row = new_row(ag);
	if (!row)
		return sdt_err(-ENOMEM, "out of memory");
	row->event = e;
	row->count = count;
	return decode_values(ag, &b->events[e], &ag->ev[e], key, row);
}

/* A row of pair @pair's durations @v (its start event's, @past_cap: past the cap on keys). */
static struct sdt_agg_row *lat_row(struct rec_agg *ag, uint32_t pair, const struct sdt_bpf_lat *v,
				   bool past_cap)
{
	uint64_t *hist = malloc(sizeof(v->hist));
	struct sdt_agg_row *row = hist ? new_row(ag) : NULL;

	if (!row) {
		free(hist);
		sdt_err(-ENOMEM, "out of memory");
		return NULL;
	}
	memcpy(hist, v->hist, sizeof(v->hist));
	*row = (struct sdt_agg_row){.is_pair = true,
				    .pair = pair,
				    .event = (uint32_t)ag->pair_start[pair],
				    .count = v->count,
				    .sum_ns = v->sum,
				    .min_ns = v->min,
				    .max_ns = v->max,
				    .hist = hist,
				    .past_cap = past_cap};
	return row;
}

static int on_lat(void *ctx, const void *key, const struct sdt_bpf_lat *v)
{
	struct rec_bpf *b = ctx;
	struct rec_agg *ag = &b->agg;
	struct sdt_agg_row *row;
	uint32_t pair;
	size_t e;

	memcpy(&pair, key, 4);
	if (pair >= ag->npairs || (e = ag->pair_start[pair]) == SIZE_MAX)
		return 0;
	row = lat_row(ag, pair, v, false);
	if (!row)
		return -ENOMEM;
	return decode_values(ag, &b->events[e], &ag->ev[e], key, row);
}

/* A pair's durations past the cap on keys: a row of its own, without values. */
static int on_lat_over(void *ctx, const void *key, const struct sdt_bpf_lat *v)
{
	struct rec_bpf *b = ctx;
	struct rec_agg *ag = &b->agg;
	uint32_t pair;

	memcpy(&pair, key, 4);
	if (pair >= ag->npairs || ag->pair_start[pair] == SIZE_MAX)
		return 0;
	return lat_row(ag, pair, v, true) ? 0 : -ENOMEM;
}

/* The rows of the last read, gone (their values too). */
static void rows_release(struct rec_agg *ag)
{
	size_t i, p;

	for (i = 0; i < ag->nrows; i++) {
		for (p = 0; p < ag->rows[i].nvalues; p++)
			free((char *)ag->rows[i].values[p].str);
		free((void *)ag->rows[i].values);
		free((void *)ag->rows[i].hist);
	}
	ag->nrows = 0;
}

int sdt_rec_bpf_agg_read(struct rec_bpf *b)
{
	int err;

	rows_release(&b->agg);
	err = sdt_bpf__agg_counts(b->bpf, on_count, b);
	if (!err)
		err = sdt_bpf__agg_lat(b->bpf, on_lat, b);
	if (!err)
		err = sdt_bpf__agg_lat_over(b->bpf, on_lat_over, b);
	if (!err)
		err = sdt_bpf__agg_drops(b->bpf, b->agg.drops);
	return err;
}

void sdt_rec_bpf_agg_release(struct rec_agg *ag)
{
	rows_release(ag);
	free(ag->rows);
	free(ag->ev);
	free(ag->pair_start);
	memset(ag, 0, sizeof(*ag));
}

int sdt_recorder__agg_refresh(struct sdt_recorder *r)
{
	struct rec_bpf *b = sdt_rec_bpf_of(r);

	/* after the run the program is gone: the rows are its last */
	if (!b || !b->agg.ev || !b->bpf)
		return 0;
	return sdt_rec_bpf_agg_read(b);
}

size_t sdt_recorder__agg_count(const struct sdt_recorder *r)
{
	const struct rec_bpf *b = sdt_rec_bpf_of(r);

	return b ? b->agg.nrows : 0;
}

const struct sdt_agg_row *sdt_recorder__agg_row(const struct sdt_recorder *r, size_t i)
{
	const struct rec_bpf *b = sdt_rec_bpf_of(r);

	return b && i < b->agg.nrows ? &b->agg.rows[i] : NULL;
}

void sdt_recorder__agg_drops(const struct sdt_recorder *r, uint64_t *keys, uint64_t *starts,
			     uint64_t *unmatched)
{
	const struct rec_bpf *b = sdt_rec_bpf_of(r);
	const uint64_t *d = b ? b->agg.drops : NULL;

	if (keys)
		*keys = d ? d[SDT_BPF_DROP_KEYS] : 0;
	if (starts)
		*starts = d ? d[SDT_BPF_DROP_STARTS] : 0;
	if (unmatched)
		*unmatched = d ? d[SDT_BPF_DROP_UNMATCHED] : 0;
}

uint64_t sdt_recorder__agg_too_deep(const struct sdt_recorder *r)
{
	const struct rec_bpf *b = sdt_rec_bpf_of(r);

	return b ? b->agg.drops[SDT_BPF_DROP_DEPTH] : 0;
}

unsigned int sdt_recorder__agg_pair_depth(void)
{
	return SDT_BPF_PAIR_DEPTH;
}

/* Bucket @i's range [low, low + width) (lat_bucket() in sdt.bpf.c). */
static uint64_t bucket_low(unsigned int i, uint64_t *width)
{
	unsigned int b = i / 4, sub = i % 4;

	if (i < 8) { /* 4..7 are never used */
		*width = 1;
		return i;
	}
	*width = 1ull << (b - 2);
	return (1ull << b) + (uint64_t)sub * *width;
}

uint64_t sdt_agg_row__percentile(const struct sdt_agg_row *row, double p)
{
	uint64_t rank, seen = 0, low, width, mid;
	unsigned int i;

	if (!row || !row->hist || !row->count || p <= 0)
		return 0;
	if (p > 100)
		p = 100;
	rank = (uint64_t)((p / 100.0) * (double)row->count + 0.999999);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < SDT_AGG_BUCKETS; i++) {
		seen += row->hist[i];
		if (seen >= rank)
			break;
	}
	if (i == SDT_AGG_BUCKETS)
		return row->max_ns;
	low = bucket_low(i, &width);
	mid = low + width / 2;
	return mid < row->min_ns ? row->min_ns : mid > row->max_ns ? row->max_ns : mid;
}
