/* SPDX-License-Identifier: MIT */
/*
 * The streaming reader of sdtrace.data (trace_file.h) behind include/sdtrace/trace.h.
 *
 * Why this shape:
 *  - Records are framed (type, length, body), so a reader stops cleanly at the last complete one
 *    when the file was cut, and skips record types added later.
 *  - The reader reuses one record buffer and one raw buffer: memory does not grow with the
 *    number of events.
 *  - Every length and count the reader meets is bounded (trace_file.h) and checked by
 *    subtraction before use: the file is hostile input, it may come from another machine.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "sdtrace/trace.h"
#include "sdtrace/filter.h"
#include "trace/reader.h"
#include "trace/varint.h"

#define MAX_CPUS       65536

/* Read up to @n bytes; returns how many (fewer at the end of the file) or -errno. */
static ssize_t in_read(struct sdt_trace_reader *r, void *dst, size_t n)
{
	uint8_t *d = dst;
	size_t got = 0;

	if (r->mem) {
		size_t left = r->mem_len - (size_t)r->off;

		got = n < left ? n : left;
		memcpy(d, r->mem + r->off, got);
		r->off += got;
		return (ssize_t)got;
	}
	while (got < n) {
		size_t k;

		if (r->ipos == r->ilen) {
			ssize_t m = read(r->fd, r->ibuf, WBUF_SIZE);

			if (m < 0) {
				if (errno == EINTR)
					continue;
				return sdt_err(-errno, "cannot read '%s': %s", r->name,
					       strerror(errno));
			}
			if (m == 0)
				break;
			r->ipos = 0;
			r->ilen = (size_t)m;
		}
		k = r->ilen - r->ipos;
		if (k > n - got)
			k = n - got;
		memcpy(d + got, r->ibuf + r->ipos, k);
		r->ipos += k;
		got += k;
	}
	r->off += got;
	return (ssize_t)got;
}

static int corrupt(struct sdt_trace_reader *r, uint64_t at, const char *what)
{
	r->failed = true;
	return sdt_err(-EINVAL, "'%s': corrupt recording at byte %llu: %s", r->name,
		       (unsigned long long)at, what);
}

/* A cursor over a record body. Reads past the end set ->bad and return 0. */
struct cur {
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t get_varint(struct cur *c)
{
	uint64_t v = 0;
	unsigned int shift = 0;

	while (c->p < c->end) {
		uint8_t b = *c->p++;

		if (shift == 63 && b > 1)
			break;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
		shift += 7;
		if (shift > 63)
			break;
	}
	c->bad = true;
	return 0;
}

static uint64_t get_bounded(struct cur *c, uint64_t max)
{
	uint64_t v = get_varint(c);

	if (v > max)
		c->bad = true;
	return c->bad ? 0 : v;
}

static uint8_t get_byte(struct cur *c)
{
	if (c->p >= c->end) {
		c->bad = true;
		return 0;
	}
	return *c->p++;
}

/* A "str" as a new C string (NULL for a NULL one, or on error with ->bad set). */
static char *get_str(struct cur *c)
{
	uint64_t n = get_bounded(c, SDT_TRACE_MAX_STR);
	char *s;

	if (c->bad || n == 0)
		return NULL;
	n--;
	if ((size_t)(c->end - c->p) < n || memchr(c->p, '\0', n)) {
		c->bad = true;
		return NULL;
	}
	s = sdt_strndup((const char *)c->p, n);
	if (!s) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	return s;
}

/* Read one record (frame and body): 1 with its type and length, 0 at the end, -errno. */
static int read_record(struct sdt_trace_reader *r, uint8_t *type, size_t *len)
{
	uint64_t start = r->off, v = 0;
	unsigned int shift = 0;
	uint8_t b;
	ssize_t n;

	n = in_read(r, type, 1);
	if (n <= 0)
		return (int)n;
	for (;;) {
		n = in_read(r, &b, 1);
		if (n < 0)
			return (int)n;
		if (n == 0) {
			r->truncated = true;
			return 0;
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
		shift += 7;
		if (shift > 28)
			return corrupt(r, start, "record length too large");
	}
	if (v > SDT_TRACE_MAX_RECORD)
		return corrupt(r, start, "record length too large");
	/* in memory, a length past the end is known before allocating for it */
	if (r->mem && v > r->mem_len - r->off) {
		r->truncated = true;
		return 0;
	}
	if (sdt_grow((void **)&r->rec, &r->rec_cap, (size_t)v ? (size_t)v : 1, 1))
		return sdt_err(-ENOMEM, "out of memory");
	n = in_read(r, r->rec, (size_t)v);
	if (n < 0)
		return (int)n;
	if ((size_t)n < v) {
		r->truncated = true;
		return 0;
	}
	*len = (size_t)v;
	return 1;
}

static int parse_meta(struct sdt_trace_reader *r, struct cur *c)
{
	r->cmdline = get_str(c);
	r->hostname = get_str(c);
	r->kernel = get_str(c);
	r->start_rt = get_varint(c);
	r->start_mono = get_varint(c);
	if (!c->bad && c->p < c->end) {
		/* the engine (later in version 1); bytes after the fields known stay ignored */
		struct cur e = *c;

		r->engine = get_str(&e);
		if (e.bad) {
			free(r->engine);
			r->engine = NULL;
		}
	}
	return c->bad ? -EINVAL : 0;
}

/* One field of an EVENT record: str name, offset, size, u8 flags (FIELD_ROOM: version 2). */
static void parse_field(struct cur *c, uint32_t version, struct sdt_trace_field *f)
{
	uint8_t fl;

	f->name = get_str(c);
	f->offset = (uint32_t)get_bounded(c, SDT_TRACE_MAX_RAW);
	f->size = (uint32_t)get_bounded(c, 16);
	fl = get_byte(c);
	f->is_signed = fl & FIELD_SIGNED;
	f->is_data_loc = fl & FIELD_DATA_LOC;
	f->float_format = (uint8_t)((fl & FIELD_FLOAT_MASK) >> FIELD_FLOAT_SHIFT);
	f->is_room = version >= 2 && (fl & FIELD_ROOM);
}

/* One argument of an EVENT record: str name, str spec, size, u8 flags, zigzag field, str why. */
static void parse_arg(struct cur *c, struct sdt_trace_arg *a)
{
	uint8_t fl;

	a->name = get_str(c);
	a->spec = get_str(c);
	a->size = (uint8_t)get_bounded(c, 16);
	fl = get_byte(c);
	a->is_signed = fl & ARG_SIGNED;
	a->is_float = fl & ARG_FLOAT;
	a->is_string = fl & ARG_STRING;
	a->rebase = fl & ARG_REBASE;
	a->type = (uint8_t)((fl & ARG_TYPE_MASK) >> ARG_TYPE_SHIFT);
	a->named = fl & ARG_NAMED;
	a->field = (int)unzigzag(get_bounded(c, 2 * SDT_TRACE_MAX_FIELDS));
	a->unavailable = get_str(c);
}

/* The names of an EVENT record, up to its sites: index, provider, name, ..., tp_id. */
static void parse_names(struct cur *c, struct sdt_trace_event_desc *d)
{
	d->index = (uint32_t)get_bounded(c, SDT_TRACE_MAX_EVENTS - 1);
	d->provider = get_str(c);
	d->name = get_str(c);
	d->path = get_str(c);
	d->build_id = get_str(c);
	d->group = get_str(c);
	d->event = get_str(c);
	d->tp_id = get_varint(c);
}

/* An EVENT record's body -> @d: 0, -EINVAL (malformed), -ENOMEM. */
static int parse_desc(struct cur *c, uint32_t version, struct sdt_trace_event_desc *d)
{
	size_t i;

	d->ip_field = -1;
	parse_names(c, d);
	d->nsites = (size_t)get_bounded(c, SDT_TRACE_MAX_SITES);
	/* every site takes at least one byte: a count beyond the body is a lie */
	if (c->bad || d->nsites > (size_t)(c->end - c->p))
		return -EINVAL;
	d->site_addrs = calloc(d->nsites ? d->nsites : 1, sizeof(*d->site_addrs));
	if (!d->site_addrs)
		return -ENOMEM;
	for (i = 0; i < d->nsites; i++)
		d->site_addrs[i] = get_varint(c);
	d->nfields = (size_t)get_bounded(c, SDT_TRACE_MAX_FIELDS);
	if (c->bad)
		return -EINVAL;
	d->fields = calloc(d->nfields ? d->nfields : 1, sizeof(*d->fields));
	if (!d->fields)
		return -ENOMEM;
	for (i = 0; i < d->nfields && !c->bad; i++)
		parse_field(c, version, &d->fields[i]);
	d->ip_field = (int)unzigzag(get_bounded(c, 2 * SDT_TRACE_MAX_FIELDS));
	d->nargs = (size_t)get_bounded(c, SDT_MAX_ARGS);
	if (c->bad)
		return -EINVAL;
	d->args = calloc(d->nargs ? d->nargs : 1, sizeof(*d->args));
	if (!d->args)
		return -ENOMEM;
	for (i = 0; i < d->nargs && !c->bad; i++)
		parse_arg(c, &d->args[i]);
	return c->bad ? -EINVAL : 0;
}

static int add_kind(struct sdt_trace_reader *r, struct cur *c, uint64_t at)
{
	struct sdt_trace_kind *k;
	int err;

	k = calloc(1, sizeof(*k));
	if (!k)
		return sdt_err(-ENOMEM, "out of memory");
	err = parse_desc(c, r->version, &k->d);
	if (err == -ENOMEM) {
		sdt_trace_kind_free(k);
		return sdt_err(-ENOMEM, "out of memory");
	}
	if (err || c->p != c->end) {
		sdt_trace_kind_free(k);
		return corrupt(r, at, "bad event description");
	}
	err = sdt_trace_desc_check(&k->d);
	if (err) {
		sdt_trace_kind_free(k);
		r->failed = true;
		return sdt_err_prefix(err, "'%s': corrupt recording at byte %llu", r->name,
				      (unsigned long long)at);
	}
	err = sdt_trace_decoder_add_kind(&r->dec, k);
	if (err)
		sdt_trace_kind_free(k);
	if (err == -EEXIST)
		return corrupt(r, at, "event described twice");
	if (err)
		return sdt_err(err, "out of memory");
	return 0;
}

/* A tid stored as zigzag (tid - pid): -1 when it is no 32-bit id (and no signed overflow). */
static int64_t task_id(struct cur *c, uint64_t pid)
{
	int64_t d = unzigzag(get_varint(c));

	if (c->bad || d < -(int64_t)UINT32_MAX || d > (int64_t)UINT32_MAX)
		return -1;
	return (int64_t)pid + d;
}

static int parse_comm(struct sdt_trace_reader *r, struct cur *c, uint64_t at)
{
	uint64_t pid = get_bounded(c, UINT32_MAX), n;
	int64_t tid = task_id(c, pid);
	int err;

	n = get_bounded(c, COMM_LEN);
	if (c->bad || n == 0 || tid < 0 || tid > UINT32_MAX || (size_t)(c->end - c->p) != n - 1 ||
	    memchr(c->p, '\0', n - 1))
		return corrupt(r, at, "bad thread name record");
	err = sdt_trace_decoder_set_comm(&r->dec, (uint32_t)tid, (const char *)c->p, n - 1);
	if (err == -E2BIG)
		return corrupt(r, at, "more than 1M threads");
	if (err)
		return sdt_err(err, "out of memory");
	return 0;
}

static int parse_lost(struct sdt_trace_reader *r, struct cur *c, uint64_t at)
{
	uint64_t cpu = get_bounded(c, UINT32_MAX), count = get_varint(c);

	if (c->bad || c->p != c->end)
		return corrupt(r, at, "bad lost-events record");
	/* a CPU number beyond any machine (a recorder's "unknown") counts in the total only */
	if (cpu < MAX_CPUS && cpu >= r->nlost_cpu) {
		uint64_t *n = sdt_reallocarray(r->lost_cpu, (size_t)cpu + 1, sizeof(*n));

		if (!n)
			return sdt_err(-ENOMEM, "out of memory");
		memset(n + r->nlost_cpu, 0, ((size_t)cpu + 1 - r->nlost_cpu) * sizeof(*n));
		r->lost_cpu = n;
		r->nlost_cpu = (size_t)cpu + 1;
	}
	/* saturate: a hostile count must not wrap the total to something small */
	if (cpu < MAX_CPUS)
		r->lost_cpu[cpu] =
		    r->lost_cpu[cpu] + count < count ? UINT64_MAX : r->lost_cpu[cpu] + count;
	r->lost = r->lost + count < count ? UINT64_MAX : r->lost + count;
	return 0;
}

/* A STACK record: the next id, its depth, its ips as zigzag deltas. */
static int parse_stack(struct sdt_trace_reader *r, struct cur *c, uint64_t at)
{
	uint64_t id = get_bounded(c, SDT_TRACE_MAX_STACKS), nr, prev = 0, i;
	int err;

	nr = get_bounded(c, SDT_TRACE_MAX_STACK);
	if (c->bad || nr == 0 || id != r->stacks.n + 1)
		return corrupt(r, at, "bad stack record");
	if (!r->stack_buf &&
	    !(r->stack_buf = calloc(SDT_TRACE_MAX_STACK, sizeof(*r->stack_buf))))
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < nr; i++) {
		prev += (uint64_t)unzigzag(get_varint(c));
		r->stack_buf[i] = prev;
	}
	if (c->bad || c->p != c->end)
		return corrupt(r, at, "bad stack record");
	err = sdt_stack_table_append(&r->stacks, r->stack_buf, (uint32_t)nr);
	if (err == -E2BIG)
		return corrupt(r, at, "too many stacks");
	if (err)
		return sdt_err(err, "out of memory");
	return 0;
}

/* A MAPPING record: pid, start, len, pgoff, str build-id, str path. */
static int parse_mapping(struct sdt_trace_reader *r, struct cur *c, uint64_t at)
{
	struct reader_mapping m = {0};

	m.pid = (uint32_t)get_bounded(c, UINT32_MAX);
	m.start = get_varint(c);
	m.len = get_varint(c);
	m.pgoff = get_varint(c);
	m.build_id = get_str(c);
	m.path = get_str(c);
	if (c->bad || c->p != c->end || m.len == 0 || m.start + m.len < m.start ||
	    r->nmaps >= SDT_TRACE_MAX_MAPPINGS) {
		free(m.build_id);
		free(m.path);
		return corrupt(r, at, "bad mapping record");
	}
	if (sdt_grow((void **)&r->maps, &r->maps_cap, r->nmaps + 1, sizeof(*r->maps))) {
		free(m.build_id);
		free(m.path);
		return sdt_err(-ENOMEM, "out of memory");
	}
	r->maps[r->nmaps++] = m;
	return 0;
}

/*
 * A USER_STACK record (trace_file.h): kept for the sample that follows. A format this reader does
 * not know is skipped (that sample has no stack); what does not parse is corruption.
 */
static int parse_user_stack(struct sdt_trace_reader *r, struct cur *c, uint64_t at)
{
	struct sdt_trace_user_stack *u = &r->ustack;
	uint64_t fmt, size, done;
	unsigned int i;

	if (r->ustack_pending)
		return corrupt(r, at, "a user stack record not followed by its sample");
	fmt = get_varint(c);
	if (c->bad)
		return corrupt(r, at, "bad user stack record");
	if (fmt != USER_STACK_FORMAT)
		return 0;
	u->machine = (uint16_t)get_bounded(c, UINT16_MAX);
	u->regs_mask = get_varint(c);
	u->nregs = (uint32_t)__builtin_popcountll(u->regs_mask);
	for (i = 0; i < u->nregs; i++)
		r->ustack_regs[i] = get_varint(c);
	size = get_bounded(c, SDT_TRACE_MAX_USER_STACK);
	if (c->bad || !u->nregs)
		return corrupt(r, at, "bad user stack record");
	if (!r->ustack_buf && !(r->ustack_buf = malloc(SDT_TRACE_MAX_USER_STACK)))
		return sdt_err(-ENOMEM, "out of memory");
	/* runs: literal bytes, then zeros, until the size (each length within what is left) */
	for (done = 0; done < size;) {
		uint64_t lit = get_bounded(c, size - done), z;

		if (c->bad || (uint64_t)(c->end - c->p) < lit)
			return corrupt(r, at, "bad user stack record");
		memcpy(r->ustack_buf + done, c->p, (size_t)lit);
		c->p += lit;
		done += lit;
		z = get_bounded(c, size - done);
		if (c->bad || (!lit && !z))
			return corrupt(r, at, "bad user stack record");
		memset(r->ustack_buf + done, 0, (size_t)z);
		done += z;
	}
	if (c->p != c->end)
		return corrupt(r, at, "bad user stack record");
	u->regs = r->ustack_regs;
	u->stack = r->ustack_buf;
	u->stack_size = (uint32_t)size;
	r->ustack_pending = true;
	r->has_ustacks = true;
	return 0;
}

/* A SAMPLE record: its task (or the previous one's: @same), its time, its stored bytes. */
static int parse_sample(struct sdt_trace_reader *r, struct cur *c, bool same, bool stack,
			uint64_t at)
{
	struct sdt_trace_sample s;
	struct sdt_trace_kind *k;
	uint64_t idx, stack_id = 0;
	size_t plen;

	idx = get_bounded(c, SDT_TRACE_MAX_EVENTS - 1);
	if (stack) {
		stack_id = get_bounded(c, SDT_TRACE_MAX_STACKS);
		if (!c->bad && (stack_id == 0 || stack_id > r->stacks.n))
			return corrupt(r, at, "sample of a stack not recorded before");
	}
	r->prev_time += (uint64_t)unzigzag(get_varint(c));
	if (!same) {
		int64_t tid;

		r->prev_cpu = (uint32_t)get_bounded(c, UINT32_MAX);
		r->prev_pid = (uint32_t)get_bounded(c, UINT32_MAX);
		tid = task_id(c, r->prev_pid);
		if (tid < 0 || tid > UINT32_MAX)
			c->bad = true;
		r->prev_tid = (uint32_t)tid;
		r->have_prev = true;
	} else if (!r->have_prev) {
		return corrupt(r, at, "sample without a previous task");
	}
	if (c->bad)
		return corrupt(r, at, "bad sample record");
	k = idx < r->dec.index_cap ? r->dec.by_index[idx] : NULL;
	if (!k)
		return corrupt(r, at, "sample of an event not described before");
	plen = (size_t)(c->end - c->p);
	if (plen > SDT_TRACE_MAX_RAW || k->lay.fixed_end - k->lay.skip > plen)
		return corrupt(r, at, "sample shorter than its event's fields");
	s = (struct sdt_trace_sample){.time_ns = r->prev_time,
				      .cpu = r->prev_cpu,
				      .pid = r->prev_pid,
				      .tid = r->prev_tid,
				      .event = (uint32_t)idx};
	if (sdt_trace_decoder_stored(&r->dec, k, &s, c->p, plen))
		return sdt_err(-ENOMEM, "out of memory");
	if (stack_id) {
		r->dec.ev.stack_id = (uint32_t)stack_id;
		r->dec.ev.stack_nr =
		    sdt_stack_table_get(&r->stacks, (uint32_t)stack_id, &r->dec.ev.stack);
	}
	if (r->ustack_pending) {
		r->dec.ev.have_ustack = true;
		r->dec.ev.ustack = r->ustack;
		r->ustack_pending = false;
	}
	return 1;
}

/* The END record: zigzag exit status, samples written, events lost. */
static int parse_end(struct sdt_trace_reader *r, struct cur *c, uint64_t at)
{
	int64_t st = unzigzag(get_varint(c));

	get_varint(c); /* samples written: for tools that want to cross-check */
	get_varint(c); /* events lost */
	if (c->bad || st < INT32_MIN || st > INT32_MAX)
		return corrupt(r, at, "bad end record");
	r->exit_status = (int)st;
	r->have_exit = true;
	r->ended = true;
	return 0;
}

/* One record of type @type after the session's: 1 for a sample (the decoder's event), 0, -errno. */
static int parse_record(struct sdt_trace_reader *r, uint8_t type, struct cur *c, uint64_t at)
{
	if (r->ustack_pending && type != REC_SAMPLE && type != REC_SAMPLE_SAME_TASK &&
	    type != REC_SAMPLE_STACK && type != REC_SAMPLE_STACK_SAME_TASK)
		return corrupt(r, at, "a user stack record not followed by its sample");
	switch (type) {
	case REC_SAMPLE:
	case REC_SAMPLE_SAME_TASK:
		return parse_sample(r, c, type == REC_SAMPLE_SAME_TASK, false, at);
	case REC_SAMPLE_STACK:
	case REC_SAMPLE_STACK_SAME_TASK:
		if (r->version < 3)
			return corrupt(r, at, "unknown record type");
		return parse_sample(r, c, type == REC_SAMPLE_STACK_SAME_TASK, true, at);
	case REC_STACK:
		if (r->version < 3)
			return corrupt(r, at, "unknown record type");
		return parse_stack(r, c, at);
	case REC_MAPPING:
		if (r->version < 3)
			return corrupt(r, at, "unknown record type");
		return parse_mapping(r, c, at);
	case REC_EVENT:
		return add_kind(r, c, at);
	case REC_COMM:
		return parse_comm(r, c, at);
	case REC_LOST:
		return parse_lost(r, c, at);
	case REC_END:
		return parse_end(r, c, at);
	case REC_META:
		return corrupt(r, at, "a second session record");
	case REC_USER_STACK:
		return parse_user_stack(r, c, at);
	default:
		if (type < REC_FIRST_OPTIONAL || type == 0)
			return corrupt(r, at, "unknown record type");
		return 0; /* a newer optional record: skip it */
	}
}

/* The next event in file order. */
static int next_in_file(struct sdt_trace_reader *r, const struct sdt_trace_event **out)
{
	uint8_t type;
	size_t len;
	int ret;

	while (!r->ended && !r->truncated) {
		uint64_t at = r->off;
		struct cur c;

		if (r->failed)
			return sdt_err(-EINVAL, "'%s': cannot read on after an error", r->name);
		ret = read_record(r, &type, &len);
		if (ret < 0)
			return ret;
		if (ret == 0) {
			/* the end of the file without an END record: cut short */
			r->truncated = true;
			break;
		}
		c = (struct cur){.p = r->rec, .end = r->rec + len};
		ret = parse_record(r, type, &c, at);
		if (ret > 0 && r->filter && !sdt_filter__match(r->filter, &r->dec.ev)) {
			/* counted as read by the decoder: uncounted, as if it were not there */
			((struct sdt_trace_kind *)r->dec.ev.k)->samples--; /* the decoder's own */
			r->dec.nsamples--;
			r->filtered_out++;
			continue;
		}
		if (ret > 0)
			*out = &r->dec.ev;
		if (ret)
			return ret;
	}
	return 0;
}

int sdt_trace_reader__next(struct sdt_trace_reader *r, const struct sdt_trace_event **out)
{
	const struct sdt_trace_event *ev;
	int ret;

	if (!r->time_order)
		return next_in_file(r, out);
	while (!r->read_all && sdt_reorder_wants(&r->order)) {
		ret = next_in_file(r, &ev);
		if (ret < 0)
			return ret;
		if (!ret) {
			r->read_all = true;
			break;
		}
		if (sdt_reorder_push(&r->order, ev))
			return sdt_err(-ENOMEM, "out of memory");
	}
	ev = sdt_reorder_pop(&r->order);
	if (!ev)
		return 0;
	*out = ev;
	return 1;
}

uint64_t sdt_trace_reader__late(const struct sdt_trace_reader *r)
{
	return r->order.late;
}

static int reader_start(struct sdt_trace_reader *r)
{
	uint8_t hdr[SDT_TRACE_HEADER_SIZE];
	uint32_t version;
	uint8_t type;
	size_t len;
	ssize_t n;
	struct cur c;
	int ret;

	n = in_read(r, hdr, sizeof(hdr));
	if (n < 0)
		return (int)n;
	if (n == 0)
		return sdt_err(-EINVAL, "'%s': empty file, not a sdtrace recording", r->name);
	if ((size_t)n < 8 ? memcmp(hdr, SDT_TRACE_MAGIC, (size_t)n)
			  : memcmp(hdr, SDT_TRACE_MAGIC, 8))
		return sdt_err(-EINVAL, "'%s': not a sdtrace recording (bad magic)", r->name);
	if ((size_t)n < sizeof(hdr))
		return sdt_err(-EINVAL, "'%s': truncated recording (no complete header)", r->name);
	version = (uint32_t)hdr[8] | (uint32_t)hdr[9] << 8 | (uint32_t)hdr[10] << 16 |
		  (uint32_t)hdr[11] << 24;
	if (version == 0)
		return sdt_err(-EINVAL, "'%s': corrupt recording: format version 0", r->name);
	if (version > SDT_TRACE_VERSION)
		return sdt_err(-ENOTSUP,
			       "'%s': recording format version %u is newer than this sdtrace reads "
			       "(%u)",
			       r->name, version, SDT_TRACE_VERSION);
	if (hdr[12] != ORDER_LITTLE && hdr[12] != ORDER_BIG)
		return sdt_err(-EINVAL, "'%s': corrupt recording: bad byte order", r->name);
	r->dec.swap = hdr[12] != host_order();
	r->version = version;
	ret = read_record(r, &type, &len);
	if (ret < 0)
		return ret;
	if (ret == 0)
		return sdt_err(-EINVAL, "'%s': truncated recording (no session record)", r->name);
	c.p = r->rec;
	c.end = r->rec + len;
	c.bad = false;
	if (type != REC_META || parse_meta(r, &c))
		return corrupt(r, SDT_TRACE_HEADER_SIZE, "bad session record");
	return 0;
}

static int reader_new(const char *name, const struct sdt_trace_open_opts *opts,
		      struct sdt_trace_reader **out)
{
	struct sdt_trace_open_opts o;
	struct sdt_trace_reader *r;
	int err;

	err = SDT_OPTS_COPY(&o, opts, sdt_trace_open_opts);
	if (err)
		return err;
	r = calloc(1, sizeof(*r));
	if (!r)
		return sdt_err(-ENOMEM, "out of memory");
	r->fd = -1;
	r->name = sdt_strdup(name);
	r->time_order = o.time_order;
	if (!r->name || (r->time_order && sdt_reorder_init(&r->order))) {
		free(r->name);
		free(r);
		return sdt_err(-ENOMEM, "out of memory");
	}
	*out = r;
	return 0;
}

int sdt_trace_reader__open(const char *path, const struct sdt_trace_open_opts *opts,
			   struct sdt_trace_reader **out)
{
	struct sdt_trace_reader *r = NULL;
	int err;

	err = reader_new(path, opts, &r);
	if (err)
		return err;
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0) {
		err = sdt_err(-errno, "cannot open '%s': %s", path, strerror(errno));
		goto fail;
	}
	r->ibuf = malloc(WBUF_SIZE);
	if (!r->ibuf) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto fail;
	}
	err = reader_start(r);
	if (err)
		goto fail;
	*out = r;
	return 0;
fail:
	sdt_trace_reader__free(r);
	return err;
}

int sdt_trace_reader__open_mem(const void *buf, size_t len, const struct sdt_trace_open_opts *opts,
			       struct sdt_trace_reader **out)
{
	const char *name = "(memory)";
	struct sdt_trace_reader *r = NULL;
	int err;

	if (opts && opts->sz > offsetof(struct sdt_trace_open_opts, name) && opts->name)
		name = opts->name;
	err = reader_new(name, opts, &r);
	if (err)
		return err;
	r->mem = buf ? buf : (const uint8_t *)"";
	r->mem_len = buf ? len : 0;
	err = reader_start(r);
	if (err) {
		sdt_trace_reader__free(r);
		return err;
	}
	*out = r;
	return 0;
}

void sdt_trace_reader__free(struct sdt_trace_reader *r)
{
	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	sdt_reorder_release(&r->order);
	sdt_trace_decoder_release(&r->dec);
	sdt_stack_table_release(&r->stacks);
	free(r->stack_buf);
	free(r->ustack_buf);
	for (size_t i = 0; i < r->nmaps; i++) {
		free(r->maps[i].build_id);
		free(r->maps[i].path);
	}
	free(r->maps);
	free(r->lost_cpu);
	free(r->rec);
	free(r->ibuf);
	free(r->cmdline);
	free(r->hostname);
	free(r->engine);
	free(r->kernel);
	free(r->name);
	free(r);
}
