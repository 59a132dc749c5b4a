/* SPDX-License-Identifier: MIT */
/* Latency between probe pairs: pairing rules, per-thread stacks, histograms. See latency.h. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "util/internal.h"
#include "sdtrace/latency.h"

#define SUB_COUNT    (1u << SDT_LATENCY_SUB_BITS)	/* values counted exactly: 0..127 */
#define HALF_COUNT   (1u << (SDT_LATENCY_SUB_BITS - 1)) /* buckets per power of two above */
#define HIST_BUCKETS (SUB_COUNT + (64 - SDT_LATENCY_SUB_BITS) * HALF_COUNT)

struct lat_pair {
	char *key; /* auto: provider \1 stem; explicit: NULL */
	char *name, *start, *end;
	struct sdt_spec *s_start, *s_end; /* explicit only */
	bool has_start, has_end, is_explicit;
	uint64_t count, min, max, sum_lo, sum_hi;
	uint64_t unmatched_starts, unmatched_ends, key_mismatches, skipped;
	uint64_t *hist; /* HIST_BUCKETS, allocated with the first duration */
};

struct lat_kind {
	char *key; /* provider \1 name */
	size_t pair;
	enum sdt_latency_role role; /* NONE, START or END */
};

/* A named pairing (sdt_latency__add_rule()): provider:name opens or closes a pair. */
struct lat_rule {
	char *key; /* provider \1 name */
	size_t pair;
	enum sdt_latency_role role; /* START or END */
};

struct lat_thread {
	unsigned int pid, tid;
	struct sdt_latency_open *stack;
	size_t depth, cap;
};

/* Open addressing, linear probing; slots hold index + 1 (0: empty). */
struct lat_map {
	size_t *slots;
	size_t mask; /* slots - 1, or 0 before the first insert */
};

struct sdt_latency {
	struct lat_pair *pairs;
	size_t npairs, pairs_cap;
	struct lat_kind *kinds;
	size_t nkinds, kinds_cap;
	struct lat_thread *threads;
	size_t nthreads, threads_cap;
	struct lat_rule *rules; /* few: searched in order */
	size_t nrules, rules_cap;
	struct lat_map kind_map, pair_map, thread_map;
	bool is_explicit;
};

/*
 * The naming conventions, in the order they are tried (a `__` suffix before its `_` form, so the
 * stem never keeps an underscore):
 *	start		end		seen in
 *	__start		__done		python gc__start/gc__done, postgresql
 *	__begin		__end		hotspot gc__begin, ruby gc__mark__begin
 *	__entry		__return	python, ruby, php function__entry, hotspot method__entry
 *	__startup	__shutdown	php request__startup/request__shutdown
 *	_start		_end		read_start/read_end
 *	_begin		_complete	sssd sdap_search_user_save_begin/_end, io_begin/io_complete
 *	_send		_recv, _done	sssd sdap_*_send/_recv, dp_req_send/dp_req_done
 *	_pre		_post		sssd sdap_nested_group_*_pre/_post
 * Any start of a stem pairs with any end of that stem (job_start/job_complete too).
 */
static const char *const start_suffixes[] = {"__start", "__begin", "__entry", "__startup",
					     "_start",	"_begin",  "_send",   "_pre"};
static const char *const end_suffixes[] = {"__done",	"__end", "__return", "__shutdown", "_end",
					   "_complete", "_recv", "_done",    "_post"};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static uint64_t hash_u32(unsigned int v)
{
	uint64_t h = v * 0x9e3779b97f4a7c15ull;

	return h ^ (h >> 29);
}

/*
 * Find the slot for a key: the slot holding it, or the empty slot where it goes. @eq tells
 * whether the element at an index has the key.
 */
static size_t *map_slot(const struct lat_map *m, uint64_t h,
			bool (*eq)(const struct sdt_latency *l, size_t i, const void *key),
			const struct sdt_latency *l, const void *key)
{
	size_t i = (size_t)h & m->mask;

	if (!m->slots)
		return NULL;
	while (m->slots[i] && !eq(l, m->slots[i] - 1, key))
		i = (i + 1) & m->mask;
	return &m->slots[i];
}

/* Make room for @n + 1 elements (load at most 1/2), rehashing with @hash_of. */
static int map_reserve(struct lat_map *m, size_t n,
		       uint64_t (*hash_of)(const struct sdt_latency *l, size_t i),
		       const struct sdt_latency *l)
{
	size_t size = m->slots ? m->mask + 1 : 0, nsize, i, *slots;

	if ((n + 1) * 2 <= size)
		return 0;
	nsize = size ? size * 2 : 64;
	if (nsize < size)
		return -ENOMEM;
	slots = calloc(nsize, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; i < size; i++) {
		size_t j;

		if (!m->slots[i])
			continue;
		j = (size_t)hash_of(l, m->slots[i] - 1) & (nsize - 1);
		while (slots[j])
			j = (j + 1) & (nsize - 1);
		slots[j] = m->slots[i];
	}
	free(m->slots);
	m->slots = slots;
	m->mask = nsize - 1;
	return 0;
}

static bool kind_eq(const struct sdt_latency *l, size_t i, const void *key)
{
	return !strcmp(l->kinds[i].key, key);
}

static uint64_t kind_hash(const struct sdt_latency *l, size_t i)
{
	return hash_str(l->kinds[i].key);
}

static bool pair_eq(const struct sdt_latency *l, size_t i, const void *key)
{
	return l->pairs[i].key && !strcmp(l->pairs[i].key, key);
}

static uint64_t pair_hash(const struct sdt_latency *l, size_t i)
{
	return hash_str(l->pairs[i].key);
}

static bool thread_eq(const struct sdt_latency *l, size_t i, const void *key)
{
	return l->threads[i].tid == *(const unsigned int *)key;
}

static uint64_t thread_hash(const struct sdt_latency *l, size_t i)
{
	return hash_u32(l->threads[i].tid);
}

int sdt_latency__new(struct sdt_latency **out)
{
	struct sdt_latency *l = calloc(1, sizeof(*l));

	if (!l)
		return sdt_err(-ENOMEM, "out of memory");
	*out = l;
	return 0;
}

void sdt_latency__free(struct sdt_latency *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->npairs; i++) {
		struct lat_pair *p = &l->pairs[i];

		free(p->key);
		free(p->name);
		free(p->start);
		free(p->end);
		sdt_spec__free(p->s_start);
		sdt_spec__free(p->s_end);
		free(p->hist);
	}
	for (i = 0; i < l->nkinds; i++)
		free(l->kinds[i].key);
	for (i = 0; i < l->nthreads; i++)
		free(l->threads[i].stack);
	for (i = 0; i < l->nrules; i++)
		free(l->rules[i].key);
	free(l->rules);
	free(l->pairs);
	free(l->kinds);
	free(l->threads);
	free(l->kind_map.slots);
	free(l->pair_map.slots);
	free(l->thread_map.slots);
	free(l);
}

/* A new zeroed pair at the end of l->pairs; NULL on ENOMEM. */
static struct lat_pair *new_pair(struct sdt_latency *l)
{
	struct lat_pair *p;

	if (sdt_grow((void **)&l->pairs, &l->pairs_cap, l->npairs + 1, sizeof(*l->pairs)))
		return NULL;
	p = &l->pairs[l->npairs];
	memset(p, 0, sizeof(*p));
	p->min = UINT64_MAX;
	return p;
}

int sdt_latency__add_pair(struct sdt_latency *l, const char *start_spec, const char *end_spec)
{
	struct lat_pair *p = new_pair(l);
	int err;

	if (!p)
		return sdt_err(-ENOMEM, "out of memory");
	err = sdt_spec__parse(start_spec, &p->s_start);
	if (!err)
		err = sdt_spec__parse(end_spec, &p->s_end);
	if (!err) {
		p->name = sdt_asprintf("%s,%s", start_spec, end_spec);
		p->start = sdt_strdup(start_spec);
		p->end = sdt_strdup(end_spec);
		if (!p->name || !p->start || !p->end)
			err = sdt_err(-ENOMEM, "out of memory");
	}
	if (err) {
		/* not counted: free what was made */
		sdt_spec__free(p->s_start);
		sdt_spec__free(p->s_end);
		free(p->name);
		free(p->start);
		free(p->end);
		return err;
	}
	p->is_explicit = p->has_start = p->has_end = true;
	l->npairs++;
	l->is_explicit = true;
	return 0;
}

/* The role a name has by the conventions, and the length of its stem; NONE if it has none. */
static enum sdt_latency_role auto_role(const char *name, size_t *stem_len)
{
	size_t len = strlen(name), i;

	for (i = 0; i < ARRAY_SIZE(start_suffixes); i++) {
		size_t sl = strlen(start_suffixes[i]);

		if (len > sl && !strcmp(name + len - sl, start_suffixes[i])) {
			*stem_len = len - sl;
			return SDT_LATENCY_START;
		}
	}
	for (i = 0; i < ARRAY_SIZE(end_suffixes); i++) {
		size_t sl = strlen(end_suffixes[i]);

		if (len > sl && !strcmp(name + len - sl, end_suffixes[i])) {
			*stem_len = len - sl;
			return SDT_LATENCY_END;
		}
	}
	return SDT_LATENCY_NONE;
}

/* The auto pair of provider and stem, made on first sight: its index, or -ENOMEM. */
static long auto_pair(struct sdt_latency *l, const char *provider, const char *name,
		      size_t stem_len)
{
	char *key = sdt_asprintf("%s\1%.*s", provider, (int)stem_len, name);
	struct lat_pair *p;
	size_t *slot;

	if (!key || map_reserve(&l->pair_map, l->npairs, pair_hash, l))
		goto out_nomem;
	slot = map_slot(&l->pair_map, hash_str(key), pair_eq, l, key);
	if (*slot) {
		free(key);
		return (long)(*slot - 1);
	}
	p = new_pair(l);
	if (!p)
		goto out_nomem;
	p->key = key;
	p->name = sdt_asprintf("%s:%.*s", provider, (int)stem_len, name);
	if (!p->name) {
		p->key = NULL;
		goto out_nomem;
	}
	*slot = ++l->npairs;
	return (long)(l->npairs - 1);
out_nomem:
	free(key);
	return sdt_err(-ENOMEM, "out of memory");
}

static int classify(struct sdt_latency *l, struct lat_kind *k, const char *provider,
		    const char *name);

/* The pair a rule gives the kind of @key (provider \1 name), and its role; -1 if none. */
static long rule_of(const struct sdt_latency *l, const char *key, enum sdt_latency_role *role)
{
	size_t i;

	for (i = 0; i < l->nrules; i++)
		if (!strcmp(l->rules[i].key, key)) {
			*role = l->rules[i].role;
			return (long)l->rules[i].pair;
		}
	return -1;
}

/* Add the rule of provider:name, unless it has one: then it must be the same. 0 or -errno. */
static int rule_add(struct sdt_latency *l, const char *provider, const char *name, size_t pair,
		    enum sdt_latency_role role)
{
	char *key = sdt_asprintf("%s\1%s", provider, name);
	enum sdt_latency_role had;
	long pi;

	if (!key)
		return sdt_err(-ENOMEM, "out of memory");
	pi = rule_of(l, key, &had);
	if (pi >= 0) {
		free(key);
		if ((size_t)pi == pair && had == role)
			return 0;
		return sdt_err(-EINVAL, "%s:%s already %s the pair %s", provider, name,
			       had == SDT_LATENCY_START ? "opens" : "closes", l->pairs[pi].name);
	}
	if (sdt_grow((void **)&l->rules, &l->rules_cap, l->nrules + 1, sizeof(*l->rules))) {
		free(key);
		return sdt_err(-ENOMEM, "out of memory");
	}
	l->rules[l->nrules++] = (struct lat_rule){.key = key, .pair = pair, .role = role};
	return 0;
}

/*
 * The name of a rule's pair: the names' common prefix, up to a `_` (rpc_client_msg_tx_queue and
 * rpc_client_msg_rx: rpc_client_msg); the start's name when they have none.
 */
static char *rule_pair_name(const char *provider, const char *start, const char *end)
{
	size_t n = 0, cut = 0;

	while (start[n] && start[n] == end[n]) {
		if (start[n] == '_' && n > 0 && start[n - 1] != '_')
			cut = n;
		n++;
	}
	return sdt_asprintf("%s:%.*s", provider, cut ? (int)cut : (int)strlen(start), start);
}

int sdt_latency__add_rule(struct sdt_latency *l, const char *provider, const char *start,
			  const char *end)
{
	char *key = NULL, *name = NULL;
	struct lat_pair *p;
	size_t *slot, pi, i;
	int err;

	if (!provider || !start || !end || !*start || !*end || !strcmp(start, end))
		return sdt_err(-EINVAL, "a pair needs a start and another event as its end");
	if (l->is_explicit)
		return 0;
	/* one pair per start, whatever its ends */
	key = sdt_asprintf("%s\2%s", provider, start);
	if (!key || map_reserve(&l->pair_map, l->npairs, pair_hash, l))
		goto out_nomem;
	slot = map_slot(&l->pair_map, hash_str(key), pair_eq, l, key);
	if (*slot) {
		pi = *slot - 1;
		free(key);
	} else {
		name = rule_pair_name(provider, start, end);
		p = name ? new_pair(l) : NULL;
		if (!p)
			goto out_nomem;
		p->key = key;
		p->name = name;
		pi = l->npairs;
		*slot = ++l->npairs;
	}
	err = rule_add(l, provider, start, pi, SDT_LATENCY_START);
	if (!err)
		err = rule_add(l, provider, end, pi, SDT_LATENCY_END);
	if (err)
		return err;
	/* kinds described before the rule take it now */
	for (i = 0; i < l->nkinds; i++) {
		struct lat_kind *k = &l->kinds[i];
		const char *sep = strchr(k->key, '\1');

		if (sep && (size_t)(sep - k->key) == strlen(provider) &&
		    !strncmp(k->key, provider, (size_t)(sep - k->key)) &&
		    (!strcmp(sep + 1, start) || !strcmp(sep + 1, end)) &&
		    (err = classify(l, k, provider, sep + 1)))
			return err;
	}
	return 0;
out_nomem:
	free(key);
	free(name);
	return sdt_err(-ENOMEM, "out of memory");
}

/* Classify a kind: which pair it opens or closes, if any. */
static int classify(struct sdt_latency *l, struct lat_kind *k, const char *provider,
		    const char *name)
{
	struct lat_pair *p;
	size_t i, stem_len;
	long pi;

	k->role = SDT_LATENCY_NONE;
	if (l->is_explicit) {
		for (i = 0; i < l->npairs; i++) {
			p = &l->pairs[i];
			if (!p->is_explicit) /* a rule's, added before */
				continue;
			if (sdt_spec__match(p->s_start, provider, name))
				k->role = SDT_LATENCY_START;
			else if (sdt_spec__match(p->s_end, provider, name))
				k->role = SDT_LATENCY_END;
			if (k->role != SDT_LATENCY_NONE) {
				k->pair = i;
				return 0;
			}
		}
		return 0;
	}
	pi = rule_of(l, k->key, &k->role);
	if (pi < 0) {
		k->role = auto_role(name, &stem_len);
		if (k->role == SDT_LATENCY_NONE)
			return 0;
		pi = auto_pair(l, provider, name, stem_len);
		if (pi < 0)
			return (int)pi;
	}
	k->pair = (size_t)pi;
	p = &l->pairs[pi];
	if (k->role == SDT_LATENCY_START && !p->has_start) {
		p->has_start = true;
		p->start = sdt_asprintf("%s:%s", provider, name);
	} else if (k->role == SDT_LATENCY_END && !p->has_end) {
		p->has_end = true;
		p->end = sdt_asprintf("%s:%s", provider, name);
	}
	if ((p->has_start && !p->start) || (p->has_end && !p->end))
		return sdt_err(-ENOMEM, "out of memory");
	return 0;
}

/* The kind of provider:name, described on first sight; NULL on ENOMEM. */
static struct lat_kind *find_kind(struct sdt_latency *l, const char *provider, const char *name)
{
	char *key = sdt_asprintf("%s\1%s", provider ? provider : "", name ? name : "");
	struct lat_kind *k;
	size_t *slot;

	if (!key || map_reserve(&l->kind_map, l->nkinds, kind_hash, l))
		goto out_nomem;
	slot = map_slot(&l->kind_map, hash_str(key), kind_eq, l, key);
	if (*slot) {
		free(key);
		return &l->kinds[*slot - 1];
	}
	if (sdt_grow((void **)&l->kinds, &l->kinds_cap, l->nkinds + 1, sizeof(*l->kinds)))
		goto out_nomem;
	k = &l->kinds[l->nkinds];
	memset(k, 0, sizeof(*k));
	k->key = key;
	*slot = ++l->nkinds;
	if (classify(l, k, provider ? provider : "", name ? name : ""))
		return NULL;
	return k;
out_nomem:
	free(key);
	sdt_err(-ENOMEM, "out of memory");
	return NULL;
}

int sdt_latency__add_kind(struct sdt_latency *l, const char *provider, const char *name)
{
	return find_kind(l, provider, name) ? 0 : -ENOMEM;
}

enum sdt_latency_role sdt_latency__kind_role(struct sdt_latency *l, const char *provider,
					     const char *name, size_t *pair)
{
	struct lat_kind *k = find_kind(l, provider, name);

	if (!k || k->role == SDT_LATENCY_NONE || !sdt_latency__pair_active(l, k->pair))
		return SDT_LATENCY_NONE;
	*pair = k->pair;
	return k->role;
}

static struct lat_thread *find_thread(struct sdt_latency *l, unsigned int pid, unsigned int tid)
{
	struct lat_thread *t;
	size_t *slot;

	if (map_reserve(&l->thread_map, l->nthreads, thread_hash, l))
		return NULL;
	slot = map_slot(&l->thread_map, hash_u32(tid), thread_eq, l, &tid);
	if (*slot) {
		t = &l->threads[*slot - 1];
		t->pid = pid;
		return t;
	}
	if (sdt_grow((void **)&l->threads, &l->threads_cap, l->nthreads + 1, sizeof(*l->threads)))
		return NULL;
	t = &l->threads[l->nthreads];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->tid = tid;
	*slot = ++l->nthreads;
	return t;
}

static unsigned int hist_index(uint64_t v)
{
	unsigned int e;

	if (v < SUB_COUNT)
		return (unsigned int)v;
	e = 63 - (unsigned int)__builtin_clzll(v); /* >= SUB_BITS */
	return SUB_COUNT + (e - SDT_LATENCY_SUB_BITS) * HALF_COUNT +
	       (unsigned int)((v >> (e - SDT_LATENCY_SUB_BITS + 1)) - HALF_COUNT);
}

/* The lowest value of bucket @i, and its width. */
static uint64_t hist_low(unsigned int i, uint64_t *width)
{
	unsigned int e, sub;

	if (i < SUB_COUNT) {
		*width = 1;
		return i;
	}
	e = SDT_LATENCY_SUB_BITS + (i - SUB_COUNT) / HALF_COUNT;
	sub = (i - SUB_COUNT) % HALF_COUNT;
	*width = 1ull << (e - SDT_LATENCY_SUB_BITS + 1);
	return (uint64_t)(HALF_COUNT + sub) << (e - SDT_LATENCY_SUB_BITS + 1);
}

static int add_duration(struct lat_pair *p, uint64_t d)
{
	if (!p->hist) {
		p->hist = calloc(HIST_BUCKETS, sizeof(*p->hist));
		if (!p->hist)
			return sdt_err(-ENOMEM, "out of memory");
	}
	p->hist[hist_index(d)]++;
	p->count++;
	if (d < p->min)
		p->min = d;
	if (d > p->max)
		p->max = d;
	p->sum_lo += d;
	if (p->sum_lo < d)
		p->sum_hi++;
	return 0;
}

/* FNV-1a of a key's bytes. */
static uint64_t hash_key(const void *key, size_t len)
{
	const unsigned char *b = key;
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

/* The open start an end of @pair takes on @t: its index + 1, or 0. */
static size_t take_start(const struct lat_thread *t, size_t pair,
			 const struct sdt_latency_event_opts *o, uint64_t h, bool *mismatch)
{
	size_t i;
	bool first = true;

	for (i = t->depth; i > 0; i--) {
		const struct sdt_latency_open *s = &t->stack[i - 1];

		if (s->pair != pair)
			continue;
		/* a start without a key (its kind lacks the key's names) pairs with any end */
		if (!o->keyed || !s->keyed || s->key_hash == h)
			return i;
		if (first)
			*mismatch = true;
		first = false;
	}
	return 0;
}

int sdt_latency__event_opts(struct sdt_latency *l, const char *provider, const char *name,
			    unsigned int pid, unsigned int tid, uint64_t time_ns,
			    const struct sdt_latency_event_opts *opts,
			    struct sdt_latency_step *step)
{
	struct sdt_latency_event_opts o = {0};
	struct lat_kind *k = find_kind(l, provider, name);
	struct lat_thread *t;
	struct lat_pair *p;
	uint64_t h;
	size_t i;
	int err;

	memset(step, 0, sizeof(*step));
	if ((err = SDT_OPTS_COPY(&o, opts, sdt_latency_event_opts)))
		return err;
	if (!k)
		return -ENOMEM;
	if (k->role == SDT_LATENCY_NONE)
		return 0;
	p = &l->pairs[k->pair];
	if (!p->has_start || !p->has_end)
		return 0;
	t = find_thread(l, pid, tid);
	if (!t)
		return sdt_err(-ENOMEM, "out of memory");
	step->pair = k->pair;
	h = o.keyed ? hash_key(o.key, o.key_len) : 0;
	if (k->role == SDT_LATENCY_START) {
		if (t->depth >= SDT_LATENCY_MAX_DEPTH) {
			p->unmatched_starts++;
			step->role = SDT_LATENCY_UNMATCHED;
			return 0;
		}
		if (sdt_grow((void **)&t->stack, &t->cap, t->depth + 1, sizeof(*t->stack)))
			return sdt_err(-ENOMEM, "out of memory");
		t->stack[t->depth++] = (struct sdt_latency_open){.pair = k->pair,
								 .start_ns = time_ns,
								 .tag = o.tag,
								 .key_hash = h,
								 .keyed = o.keyed,
								 .verdict = (uint8_t)o.verdict};
		step->role = SDT_LATENCY_START;
		return 0;
	}
	i = take_start(t, k->pair, &o, h, &step->key_mismatch);
	if (step->key_mismatch)
		p->key_mismatches++;
	if (!i) {
		if (o.verdict == SDT_LATENCY_COUNT)
			p->unmatched_ends++;
		step->role = SDT_LATENCY_UNMATCHED;
		step->is_end = true;
		return 0;
	}
	i--;
	step->role = SDT_LATENCY_END;
	step->start_ns = t->stack[i].start_ns;
	step->start_tag = t->stack[i].tag;
	step->skipped =
	    t->stack[i].verdict == SDT_LATENCY_SKIP || o.verdict == SDT_LATENCY_SKIP ||
	    (t->stack[i].verdict == SDT_LATENCY_FOLLOW && o.verdict == SDT_LATENCY_FOLLOW);
	/* a clock that went back (another CPU's) is a zero duration, not 584 years */
	step->duration_ns = time_ns > step->start_ns ? time_ns - step->start_ns : 0;
	memmove(&t->stack[i], &t->stack[i + 1], (t->depth - i - 1) * sizeof(*t->stack));
	t->depth--;
	step->crossed = &t->stack[i];
	step->ncrossed = t->depth - i;
	if (step->skipped) {
		p->skipped++;
		return 0;
	}
	return add_duration(p, step->duration_ns);
}

int sdt_latency__event(struct sdt_latency *l, const char *provider, const char *name,
		       unsigned int pid, unsigned int tid, uint64_t time_ns,
		       struct sdt_latency_step *step)
{
	return sdt_latency__event_opts(l, provider, name, pid, tid, time_ns, NULL, step);
}

int sdt_latency__finish(struct sdt_latency *l,
			int (*cb)(void *ctx, unsigned int pid, unsigned int tid,
				  const struct sdt_latency_open *o),
			void *ctx)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < l->nthreads; i++) {
		struct lat_thread *t = &l->threads[i];

		while (t->depth) {
			const struct sdt_latency_open *o = &t->stack[--t->depth];

			if (o->verdict == SDT_LATENCY_COUNT)
				l->pairs[o->pair].unmatched_starts++;
			if (cb && !ret)
				ret = cb(ctx, t->pid, t->tid, o);
		}
	}
	return ret;
}

size_t sdt_latency__depth(const struct sdt_latency *l, unsigned int tid)
{
	const size_t *slot = map_slot(&l->thread_map, hash_u32(tid), thread_eq, l, &tid);

	return slot && *slot ? l->threads[*slot - 1].depth : 0;
}

size_t sdt_latency__pair_count(const struct sdt_latency *l)
{
	return l->npairs;
}

bool sdt_latency__pair_active(const struct sdt_latency *l, size_t pair)
{
	return pair < l->npairs && l->pairs[pair].has_start && l->pairs[pair].has_end;
}

const char *sdt_latency__pair_name(const struct sdt_latency *l, size_t pair)
{
	return pair < l->npairs ? l->pairs[pair].name : NULL;
}

const char *sdt_latency__pair_start(const struct sdt_latency *l, size_t pair)
{
	return pair < l->npairs ? l->pairs[pair].start : NULL;
}

const char *sdt_latency__pair_end(const struct sdt_latency *l, size_t pair)
{
	return pair < l->npairs ? l->pairs[pair].end : NULL;
}

uint64_t sdt_latency__percentile(const struct sdt_latency *l, size_t pair, double pct)
{
	const struct lat_pair *p;
	uint64_t rank, seen = 0, low, width, v;
	unsigned int i;

	if (pair >= l->npairs || !l->pairs[pair].count || !(pct > 0))
		return 0;
	p = &l->pairs[pair];
	if (pct >= 100)
		return p->max;
	rank = (uint64_t)ceil(pct / 100.0 * (double)p->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += p->hist[i];
		if (seen >= rank)
			break;
	}
	if (i == HIST_BUCKETS)
		return p->max;
	low = hist_low(i, &width);
	v = low + width / 2;
	if (v < p->min)
		v = p->min;
	if (v > p->max)
		v = p->max;
	return v;
}

void sdt_latency__stats(const struct sdt_latency *l, size_t pair, struct sdt_latency_stats *out)
{
	const struct lat_pair *p;

	memset(out, 0, sizeof(*out));
	if (pair >= l->npairs)
		return;
	p = &l->pairs[pair];
	out->count = p->count;
	out->unmatched_starts = p->unmatched_starts;
	out->unmatched_ends = p->unmatched_ends;
	out->key_mismatches = p->key_mismatches;
	out->skipped = p->skipped;
	if (!p->count)
		return;
	out->min_ns = p->min;
	out->max_ns = p->max;
	out->avg_ns =
	    ((double)p->sum_hi * 18446744073709551616.0 + (double)p->sum_lo) / (double)p->count;
	out->p50_ns = sdt_latency__percentile(l, pair, 50);
	out->p90_ns = sdt_latency__percentile(l, pair, 90);
	out->p99_ns = sdt_latency__percentile(l, pair, 99);
}

uint64_t sdt_latency__log2(const struct sdt_latency *l, size_t pair, unsigned int b)
{
	const struct lat_pair *p;
	uint64_t n = 0, width;
	unsigned int i;

	if (pair >= l->npairs || b >= SDT_LATENCY_LOG2_BUCKETS || !l->pairs[pair].hist)
		return 0;
	p = &l->pairs[pair];
	for (i = 0; i < HIST_BUCKETS; i++) {
		uint64_t low = hist_low(i, &width);
		unsigned int lb = low ? 64 - (unsigned int)__builtin_clzll(low) : 0;

		if (lb == b)
			n += p->hist[i];
	}
	return n;
}
