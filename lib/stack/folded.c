/* SPDX-License-Identifier: MIT */
/*
 * Folded stacks (include/sdtrace/stack.h): the rest of a recording read, each event's stack
 * symbolized, and the distinct (event, stack) lines counted: "provider:name;root;...;leaf".
 * Counted in a hash table of the joined lines, then sorted in byte order as stackcollapse does.
 * A line keeps the build-ids of its unnamed frames ([FILE+0xOFF]), from its first event, for
 * those who show more than the name (the flame graph's tooltips).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sdtrace/stack.h"
#include "util/internal.h"

struct folded_entry {
	char *line;  /* "provider:name;root;...;leaf" */
	char *split; /* the same with every ';' a NUL */
	const char **frames;
	size_t depth;
	size_t evlen; /* the event's length in @line */
	uint64_t count;
	char **bids; /* per frame, root first: an unnamed frame's build-id; NULL: none has one */
	size_t nbids;
};

struct sdt_folded {
	struct folded_entry *e;
	size_t n, cap;
	size_t *slots; /* open addressing: entry index + 1, power-of-two capacity */
	size_t nslots;
	uint64_t total;
};

static size_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return (size_t)(h ^ (h >> 29));
}

static int rehash(struct sdt_folded *f)
{
	size_t cap = f->nslots ? 2 * f->nslots : 1024, i, j;
	size_t *ns = calloc(cap, sizeof(*ns));

	if (!ns)
		return -ENOMEM;
	for (i = 0; i < f->n; i++) {
		for (j = hash_str(f->e[i].line) & (cap - 1); ns[j]; j = (j + 1) & (cap - 1))
			;
		ns[j] = i + 1;
	}
	free(f->slots);
	f->slots = ns;
	f->nslots = cap;
	return 0;
}

/* The build-ids of @fr[0..n)'s unnamed frames, root first (NULL: none of them has one). */
static int frame_bids(const struct sdt_frame *fr, size_t n, char ***out)
{
	char **b = NULL;
	size_t k;

	*out = NULL;
	for (k = 0; k < n; k++) {
		const struct sdt_frame *x = &fr[n - 1 - k];

		if (x->sym || !x->build_id)
			continue;
		if (!b && !(b = calloc(n, sizeof(*b))))
			return -ENOMEM;
		if (!(b[k] = sdt_strdup(x->build_id)))
			goto nomem;
	}
	*out = b;
	return 0;
nomem:
	for (k = 0; k < n; k++)
		free(b[k]);
	free(b);
	return -ENOMEM;
}

static void free_bids(char **b, size_t n)
{
	size_t k;

	if (!b)
		return;
	for (k = 0; k < n; k++)
		free(b[k]);
	free(b);
}

/*
 * Count @line (taken over, or freed when already there); a new line's frames (@fr[0..@n), leaf
 * first) give it their build-ids.
 */
static int count_line(struct sdt_folded *f, char *line, size_t evlen, const struct sdt_frame *fr,
		      size_t n)
{
	size_t j;
	char **bids;

	if (2 * (f->n + 1) > f->nslots && rehash(f)) {
		free(line);
		return -ENOMEM;
	}
	for (j = hash_str(line) & (f->nslots - 1); f->slots[j]; j = (j + 1) & (f->nslots - 1))
		if (!strcmp(f->e[f->slots[j] - 1].line, line)) {
			f->e[f->slots[j] - 1].count++;
			free(line);
			return 0;
		}
	if (sdt_grow((void **)&f->e, &f->cap, f->n + 1, sizeof(*f->e)) || frame_bids(fr, n, &bids)) {
		free(line);
		return -ENOMEM;
	}
	memset(&f->e[f->n], 0, sizeof(f->e[f->n]));
	f->e[f->n].bids = bids;
	f->e[f->n].nbids = n;
	f->e[f->n].line = line;
	f->e[f->n].evlen = evlen;
	f->e[f->n].count = 1;
	f->slots[j] = ++f->n;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct folded_entry *)a)->line,
		      ((const struct folded_entry *)b)->line);
}

/* After sorting: each entry's frames, split out of its line. */
static int split_entries(struct sdt_folded *f)
{
	size_t i, k;
	char *p;

	for (i = 0; i < f->n; i++) {
		struct folded_entry *e = &f->e[i];

		e->split = sdt_strdup(e->line);
		if (!e->split)
			return -ENOMEM;
		for (p = e->split + e->evlen; *p; p++)
			e->depth += *p == ';';
		e->frames = calloc(e->depth ? e->depth : 1, sizeof(*e->frames));
		if (!e->frames)
			return -ENOMEM;
		for (k = 0, p = e->split + e->evlen; *p; p++)
			if (*p == ';') {
				*p = '\0';
				e->frames[k++] = p + 1;
			}
	}
	return 0;
}

/* A frame's name with ';' (the separator) made ':' and, with @offsets, "+0xOFF". */
static int add_frame(struct sdt_buf *b, const struct sdt_frame *fr, bool offsets)
{
	size_t start = b->len, i;
	int err = sdt_buf_addstr(b, ";") || sdt_buf_addstr(b, fr->name);

	if (!err && offsets && fr->sym && !fr->inlined)
		err = sdt_buf_addf(b, "+0x%" PRIx64, fr->sym_off);
	if (err)
		return -ENOMEM;
	for (i = start + 1; i < b->len; i++)
		if (b->buf[i] == ';')
			b->buf[i] = ':';
	return 0;
}

int sdt_folded__read(struct sdt_trace_reader *r, const struct sdt_folded_opts *opts,
		     struct sdt_folded **out)
{
	struct sdt_folded_opts o;
	struct sdt_symbolizer *s = NULL;
	struct sdt_folded *f;
	struct sdt_buf b = {0};
	const struct sdt_trace_event *ev;
	int err, n;

	*out = NULL;
	err = SDT_OPTS_COPY(&o, opts, sdt_folded_opts);
	if (err)
		return err;
	f = calloc(1, sizeof(*f));
	if (!f)
		return sdt_err(-ENOMEM, "out of memory");
	err = sdt_symbolizer__new(r, o.symbolizer, &s);
	while (!err && (err = sdt_trace_reader__next(r, &ev)) > 0) {
		const struct sdt_frame *fr;
		size_t evlen, nfr;

		n = sdt_symbolizer__frames(s, ev, &fr);
		if (n < 0) {
			err = n;
			break;
		}
		if (!n) {
			err = 0;
			continue;
		}
		sdt_buf_reset(&b);
		if (sdt_buf_addf(&b, "%s:%s", sdt_trace_event__provider(ev),
				 sdt_trace_event__name(ev))) {
			err = sdt_err(-ENOMEM, "out of memory");
			break;
		}
		evlen = b.len;
		nfr = (size_t)n;
		/* frames come leaf first: the line is root first */
		for (err = 0; n-- > 0 && !err;)
			err = add_frame(&b, &fr[n], o.offsets);
		if (!err)
			err = count_line(f, sdt_buf_take(&b), evlen, fr, nfr);
		if (err) {
			err = sdt_err(err, "out of memory");
			break;
		}
		f->total++;
	}
	sdt_buf_free(&b);
	sdt_symbolizer__free(s);
	if (!err && !f->n && !sdt_trace_reader__has_stacks(r))
		err = sdt_err(-ENODATA, "the recording has no stacks: record it with -g");
	if (!err) {
		if (f->n > 1) /* qsort(NULL, 0) is undefined */
			qsort(f->e, f->n, sizeof(*f->e), cmp_entry);
		if (split_entries(f))
			err = sdt_err(-ENOMEM, "out of memory");
	}
	if (err < 0) {
		sdt_folded__free(f);
		return err;
	}
	free(f->slots);
	f->slots = NULL;
	*out = f;
	return 0;
}

size_t sdt_folded__count(const struct sdt_folded *f)
{
	return f ? f->n : 0;
}

int sdt_folded__entry(const struct sdt_folded *f, size_t i, struct sdt_folded_entry *out)
{
	if (!f || i >= f->n)
		return -ERANGE;
	out->event = f->e[i].split;
	out->frames = f->e[i].frames;
	out->depth = f->e[i].depth;
	out->count = f->e[i].count;
	return 0;
}

const char *const *sdt_folded__build_ids(const struct sdt_folded *f, size_t i)
{
	if (!f || i >= f->n)
		return NULL;
	return (const char *const *)f->e[i].bids;
}

uint64_t sdt_folded__total(const struct sdt_folded *f)
{
	return f ? f->total : 0;
}

void sdt_folded__free(struct sdt_folded *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n; i++) {
		free(f->e[i].line);
		free(f->e[i].split);
		free(f->e[i].frames);
		free_bids(f->e[i].bids, f->e[i].nbids);
	}
	free(f->e);
	free(f->slots);
	free(f);
}
