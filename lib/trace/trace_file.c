/* SPDX-License-Identifier: MIT */
/*
 * sdtrace.data: the writer (appends records as the recorder hands them over) and the streaming
 * reader behind include/sdtrace/trace.h. The format is described in trace_file.h.
 *
 * Why this shape:
 *  - Records are framed (type, length, body), so a reader stops cleanly at the last complete one
 *    when the file was cut, and skips record types added later.
 *  - A sample stores only what tracefs cannot give back: varint deltas for time, task and cpu,
 *    and the raw record after its 8-byte common header, trimmed to the fields the format lists
 *    (plus the __data_loc strings). The layout (fields, args, sites) is in the EVENT record, once.
 *  - The writer appends to one fixed buffer: no allocation per record. The reader reuses one
 *    record buffer and one raw buffer: memory does not grow with the number of events.
 *  - Every length and count the reader meets is bounded (trace_file.h) and checked by
 *    subtraction before use: the file is hostile input, it may come from another machine.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "scan/argspec.h"
#include "trace/decode.h"
#include "util/internal.h"
#include "util/lockfile.h"
#include "sdtrace/trace.h"
#include "trace/trace_file.h"

enum rec_type {
	REC_META = 1,
	REC_EVENT = 2,
	REC_SAMPLE = 3,
	REC_SAMPLE_SAME_TASK = 4,
	REC_COMM = 5,
	REC_LOST = 6,
	REC_END = 7,
	REC_FIRST_OPTIONAL = 64, /* types from here on may be skipped by older readers */
};

#define ORDER_LITTLE   1
#define ORDER_BIG      2
#define COMM_LEN       16 /* TASK_COMM_LEN, with the NUL */
#define COMMON_HEADER  8
#define WBUF_SIZE      (256u << 10)
#define FLUSH_NS       (100ull * 1000 * 1000) /* write out at least every 100 ms of sample time */
#define MAX_CPUS       65536
#define MAX_THREADS    (1u << 20)
#define FIELD_SIGNED   1
#define FIELD_DATA_LOC 2
#define ARG_SIGNED     1
#define ARG_FLOAT      2
#define ARG_STRING     4
#define ARG_REBASE     8
/* Added within version 1 (readers before ignore them): the type kind in bits 4-6, named. */
#define ARG_TYPE_SHIFT 4
#define ARG_TYPE_MASK  0x70
#define ARG_NAMED      0x80

static uint8_t host_order(void)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ORDER_LITTLE : ORDER_BIG;
}

/* ---- the event desc, shared ---------------------------------------------------------------- */

void sdt_trace_event_desc_release(struct sdt_trace_event_desc *d)
{
	size_t i;

	if (!d)
		return;
	free(d->provider);
	free(d->name);
	free(d->path);
	free(d->build_id);
	free(d->site_addrs);
	free(d->group);
	free(d->event);
	for (i = 0; d->fields && i < d->nfields; i++)
		free(d->fields[i].name);
	free(d->fields);
	for (i = 0; d->args && i < d->nargs; i++) {
		free(d->args[i].name);
		free(d->args[i].spec);
		free(d->args[i].unavailable);
	}
	free(d->args);
	memset(d, 0, sizeof(*d));
	d->ip_field = -1;
}

static bool str_ok(const char *s)
{
	return !s || strlen(s) < SDT_TRACE_MAX_STR;
}

int sdt_trace_desc_check(const struct sdt_trace_event_desc *d)
{
	const char *what = NULL;
	size_t i;

	if (d->index >= SDT_TRACE_MAX_EVENTS)
		what = "event index too large";
	else if (!d->provider || !d->name)
		what = "no provider or name";
	else if (!str_ok(d->provider) || !str_ok(d->name) || !str_ok(d->path) ||
		 !str_ok(d->build_id) || !str_ok(d->group) || !str_ok(d->event))
		what = "string too long";
	else if (d->nsites > SDT_TRACE_MAX_SITES || (d->nsites && !d->site_addrs))
		what = "bad site list";
	else if (d->nfields > SDT_TRACE_MAX_FIELDS || (d->nfields && !d->fields))
		what = "too many fields";
	else if (d->nargs > SDT_MAX_ARGS || (d->nargs && !d->args))
		what = "too many arguments";
	else if (d->ip_field < -1 || (d->ip_field >= 0 && ((size_t)d->ip_field >= d->nfields ||
							   d->fields[d->ip_field].is_data_loc)))
		what = "bad __probe_ip field";
	for (i = 0; !what && i < d->nfields; i++) {
		const struct sdt_trace_field *f = &d->fields[i];

		if (!f->name || !str_ok(f->name))
			what = "field without a name";
		else if (f->is_data_loc
			     ? f->size != 4
			     : !(f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8))
			what = "bad field size";
		else if (f->offset > SDT_TRACE_MAX_RAW || SDT_TRACE_MAX_RAW - f->offset < f->size)
			what = "field outside the record";
	}
	for (i = 0; !what && i < d->nargs; i++) {
		const struct sdt_trace_arg *a = &d->args[i];

		if (!str_ok(a->name) || !str_ok(a->spec) || !str_ok(a->unavailable))
			what = "string too long";
		else if (!(a->size == 1 || a->size == 2 || a->size == 4 || a->size == 8 ||
			   a->size == 16))
			what = "bad argument size";
		else if (a->field < -1 || (a->field >= 0 && (size_t)a->field >= d->nfields))
			what = "bad argument field";
	}
	if (what)
		return sdt_err(-EINVAL, "event %u (%s:%s): %s", d->index,
			       d->provider ? d->provider : "?", d->name ? d->name : "?", what);
	return 0;
}

/*
 * Where a sample's stored bytes start and where its fixed fields end. The common header before
 * the first field is not stored; both sides compute the same layout from the desc.
 */
static void desc_layout(const struct sdt_trace_event_desc *d, uint32_t *skip, uint32_t *fixed_end)
{
	uint32_t lo = COMMON_HEADER, hi = 0;
	size_t i;

	for (i = 0; i < d->nfields; i++) {
		if (i == 0 || d->fields[i].offset < lo)
			lo = d->fields[i].offset;
		if (d->fields[i].offset + d->fields[i].size > hi)
			hi = d->fields[i].offset + d->fields[i].size;
	}
	if (hi < lo)
		hi = lo;
	*skip = lo;
	*fixed_end = hi;
}

/* ---- varints ------------------------------------------------------------------------------- */

static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	p[n++] = (uint8_t)v;
	return n;
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* ---- the writer ---------------------------------------------------------------------------- */

struct wevent {
	bool known;
	uint32_t skip;
	uint32_t fixed_end;
	uint32_t ndl;
	uint32_t *dl_offsets; /* offsets of the __data_loc fields */
};

struct sdt_trace_writer {
	int fd;
	char *name;
	uint8_t *buf;
	size_t len;
	struct wevent *events;
	size_t nevents;
	bool have_prev;
	uint64_t prev_time;
	uint32_t prev_cpu, prev_pid, prev_tid;
	uint64_t last_flush_time;
	uint64_t samples, lost, bytes;
	int err; /* sticky: after a failed write, every call fails */
};

static int write_all(struct sdt_trace_writer *w, const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n) {
		ssize_t k = write(w->fd, b, n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			w->err = -errno;
			return sdt_err(w->err, "cannot write '%s': %s", w->name, strerror(errno));
		}
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

int sdt_trace_writer__flush(struct sdt_trace_writer *w)
{
	int err;

	if (w->err)
		return sdt_err(w->err, "cannot write '%s': %s", w->name, strerror(-w->err));
	if (!w->len)
		return 0;
	err = write_all(w, w->buf, w->len);
	w->len = 0;
	return err;
}

/* Append one record: type, length, @hdr, @payload. Big bodies bypass the buffer. */
static int emit(struct sdt_trace_writer *w, uint8_t type, const void *hdr, size_t hlen,
		const void *payload, size_t plen)
{
	uint8_t frame[11];
	size_t flen, body = hlen + plen;
	int err;

	if (w->err)
		return sdt_err(w->err, "cannot write '%s': %s", w->name, strerror(-w->err));
	frame[0] = type;
	flen = 1 + put_varint(frame + 1, body);
	w->bytes += flen + body;
	if (WBUF_SIZE - w->len < flen + body) {
		err = sdt_trace_writer__flush(w);
		if (err)
			return err;
	}
	if (WBUF_SIZE - w->len < flen + body) {
		err = write_all(w, frame, flen);
		if (!err && hlen)
			err = write_all(w, hdr, hlen);
		if (!err && plen)
			err = write_all(w, payload, plen);
		return err;
	}
	memcpy(w->buf + w->len, frame, flen);
	w->len += flen;
	if (hlen)
		memcpy(w->buf + w->len, hdr, hlen);
	w->len += hlen;
	if (plen)
		memcpy(w->buf + w->len, payload, plen);
	w->len += plen;
	return 0;
}

/* A growable byte string for the rare, variable records (META, EVENT). */
static int b_varint(struct sdt_buf *b, uint64_t v)
{
	uint8_t tmp[10];

	return sdt_buf_add(b, (const char *)tmp, put_varint(tmp, v));
}

static int b_byte(struct sdt_buf *b, uint8_t v)
{
	return sdt_buf_add(b, (const char *)&v, 1);
}

/* "str": varint (length + 1), 0 for NULL; longer than SDT_TRACE_MAX_STR - 1 is cut. */
static int b_str(struct sdt_buf *b, const char *s)
{
	size_t n;

	if (!s)
		return b_varint(b, 0);
	n = strnlen(s, SDT_TRACE_MAX_STR - 1);
	return b_varint(b, n + 1) ?: sdt_buf_add(b, s, n);
}

static int encode_meta(struct sdt_buf *b, const struct sdt_trace_meta *m)
{
	struct utsname u;
	struct timespec ts;
	uint64_t rt = m ? m->start_realtime_ns : 0, mono = m ? m->start_monotonic_ns : 0;
	const char *host = m ? m->hostname : NULL, *rel = m ? m->kernel_release : NULL;
	int err = 0;

	if ((!host || !rel) && uname(&u) == 0) {
		host = host ? host : u.nodename;
		rel = rel ? rel : u.release;
	}
	if (!rt && clock_gettime(CLOCK_REALTIME, &ts) == 0)
		rt = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (!mono && clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
		mono = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	err = err ?: b_str(b, m ? m->cmdline : NULL);
	err = err ?: b_str(b, host);
	err = err ?: b_str(b, rel);
	err = err ?: b_varint(b, rt);
	err = err ?: b_varint(b, mono);
	return err;
}

int sdt_trace_writer__open_fd(int fd, const char *name, const struct sdt_trace_meta *meta,
			      struct sdt_trace_writer **out)
{
	struct sdt_trace_writer *w;
	struct sdt_buf b = {0};
	uint8_t hdr[SDT_TRACE_HEADER_SIZE] = {0};
	int err;

	w = calloc(1, sizeof(*w));
	if (!w) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	w->fd = fd;
	w->name = sdt_strdup(name ? name : "(fd)");
	w->buf = malloc(WBUF_SIZE);
	if (!w->name || !w->buf) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto fail;
	}
	memcpy(hdr, SDT_TRACE_MAGIC, 8);
	hdr[8] = SDT_TRACE_VERSION; /* u32 LE */
	hdr[12] = host_order();
	memcpy(w->buf, hdr, sizeof(hdr));
	w->len = sizeof(hdr);
	w->bytes = sizeof(hdr);
	err = encode_meta(&b, meta);
	if (err) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto fail;
	}
	err = emit(w, REC_META, b.buf, b.len, NULL, 0);
	err = err ?: sdt_trace_writer__flush(w);
	if (err)
		goto fail;
	sdt_buf_free(&b);
	*out = w;
	return 0;
fail:
	sdt_buf_free(&b);
	sdt_trace_writer__free(w);
	return err;
}

/*
 * A regular file at @path is renamed to @path.old (as perf keeps perf.data.old) and the new
 * recording created O_EXCL | O_NOFOLLOW: it is never written into an existing inode (a hard link,
 * a file another process holds open) nor through a link, and anything else at @path is refused
 * (sdt_output_check). It is written in place, not renamed in at the end: a recording cut by a
 * crash or SIGKILL is still there and readable up to its last complete record.
 */
int sdt_trace_writer__open(const char *path, const struct sdt_trace_meta *meta,
			   struct sdt_trace_writer **out)
{
	bool exists;
	char *old;
	int fd, err;

	err = sdt_output_check(path, &exists);
	if (err)
		return err;
	if (exists) {
		old = sdt_asprintf("%s%s", path, SDT_TRACE_OLD_SUFFIX);
		if (!old)
			return sdt_err(-ENOMEM, "out of memory");
		if (rename(path, old) < 0) {
			err = -errno;
			sdt_err(err, "cannot rename '%s' to '%s': %s", path, old, strerror(-err));
			free(old);
			return err;
		}
		free(old);
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0600);
	if (fd < 0)
		return sdt_err(-errno, "cannot create '%s': %s", path, strerror(errno));
	return sdt_trace_writer__open_fd(fd, path, meta, out);
}

static int encode_desc(struct sdt_buf *b, const struct sdt_trace_event_desc *d)
{
	int err = 0;
	size_t i;

	err = err ?: b_varint(b, d->index);
	err = err ?: b_str(b, d->provider);
	err = err ?: b_str(b, d->name);
	err = err ?: b_str(b, d->path);
	err = err ?: b_str(b, d->build_id);
	err = err ?: b_str(b, d->group);
	err = err ?: b_str(b, d->event);
	err = err ?: b_varint(b, d->tp_id);
	err = err ?: b_varint(b, d->nsites);
	for (i = 0; !err && i < d->nsites; i++)
		err = b_varint(b, d->site_addrs[i]);
	err = err ?: b_varint(b, d->nfields);
	for (i = 0; !err && i < d->nfields; i++) {
		const struct sdt_trace_field *f = &d->fields[i];

		err = err ?: b_str(b, f->name);
		err = err ?: b_varint(b, f->offset);
		err = err ?: b_varint(b, f->size);
		err = err
			  ?: b_byte(b, (uint8_t)((f->is_signed ? FIELD_SIGNED : 0) |
						 (f->is_data_loc ? FIELD_DATA_LOC : 0)));
	}
	err = err ?: b_varint(b, zigzag(d->ip_field));
	err = err ?: b_varint(b, d->nargs);
	for (i = 0; !err && i < d->nargs; i++) {
		const struct sdt_trace_arg *a = &d->args[i];

		err = err ?: b_str(b, a->name);
		err = err ?: b_str(b, a->spec);
		err = err ?: b_varint(b, a->size);
		err = err
			  ?: b_byte(b, (uint8_t)((a->is_signed ? ARG_SIGNED : 0) |
						 (a->is_float ? ARG_FLOAT : 0) |
						 (a->is_string ? ARG_STRING : 0) |
						 (a->rebase ? ARG_REBASE : 0) |
						 ((a->type << ARG_TYPE_SHIFT) & ARG_TYPE_MASK) |
						 (a->named ? ARG_NAMED : 0)));
		err = err ?: b_varint(b, zigzag(a->field));
		err = err ?: b_str(b, a->unavailable);
	}
	return err;
}

int sdt_trace_writer__event(struct sdt_trace_writer *w, const struct sdt_trace_event_desc *d)
{
	struct sdt_buf b = {0};
	struct wevent *we;
	size_t i;
	int err;

	err = sdt_trace_desc_check(d);
	if (err)
		return sdt_err_prefix(err, "'%s'", w->name);
	if (d->index < w->nevents && w->events[d->index].known)
		return sdt_err(-EEXIST, "'%s': event %u (%s:%s) is already described", w->name,
			       d->index, d->provider, d->name);
	if (d->index >= w->nevents) {
		size_t n = (size_t)d->index + 1;
		struct wevent *ne = sdt_reallocarray(w->events, n, sizeof(*ne));

		if (!ne)
			return sdt_err(-ENOMEM, "out of memory");
		memset(ne + w->nevents, 0, (n - w->nevents) * sizeof(*ne));
		w->events = ne;
		w->nevents = n;
	}
	we = &w->events[d->index];
	desc_layout(d, &we->skip, &we->fixed_end);
	we->ndl = 0;
	for (i = 0; i < d->nfields; i++)
		we->ndl += d->fields[i].is_data_loc;
	if (we->ndl) {
		we->dl_offsets = calloc(we->ndl, sizeof(*we->dl_offsets));
		if (!we->dl_offsets)
			return sdt_err(-ENOMEM, "out of memory");
		we->ndl = 0;
		for (i = 0; i < d->nfields; i++) {
			if (d->fields[i].is_data_loc)
				we->dl_offsets[we->ndl++] = d->fields[i].offset;
		}
	}
	if (encode_desc(&b, d)) {
		sdt_buf_free(&b);
		return sdt_err(-ENOMEM, "out of memory");
	}
	err = emit(w, REC_EVENT, b.buf, b.len, NULL, 0);
	sdt_buf_free(&b);
	if (!err)
		we->known = true;
	return err;
}

int sdt_trace_writer__sample(struct sdt_trace_writer *w, const struct sdt_trace_sample *s)
{
	const uint8_t *raw = s->raw;
	const struct wevent *we;
	uint8_t hdr[60];
	size_t h = 0;
	uint32_t used, i;
	bool same;
	int err;

	if (s->event >= w->nevents || !w->events[s->event].known)
		return sdt_err(-EINVAL, "'%s': sample of undescribed event %u", w->name, s->event);
	we = &w->events[s->event];
	if (s->raw_size < we->fixed_end || s->raw_size > SDT_TRACE_MAX_RAW)
		return sdt_err(-EINVAL,
			       "'%s': sample of event %u: record of %u bytes, fields need %u",
			       w->name, s->event, s->raw_size, we->fixed_end);
	used = we->fixed_end;
	for (i = 0; i < we->ndl; i++) {
		uint32_t loc, end;

		memcpy(&loc, raw + we->dl_offsets[i], 4);
		end = (loc & 0xffff) + (loc >> 16);
		if (end <= s->raw_size && end > used)
			used = end;
	}
	same =
	    w->have_prev && s->cpu == w->prev_cpu && s->pid == w->prev_pid && s->tid == w->prev_tid;
	h += put_varint(hdr + h, s->event);
	h += put_varint(hdr + h, zigzag((int64_t)(s->time_ns - w->prev_time)));
	if (!same) {
		h += put_varint(hdr + h, s->cpu);
		h += put_varint(hdr + h, s->pid);
		h += put_varint(hdr + h, zigzag((int64_t)s->tid - (int64_t)s->pid));
	}
	err = emit(w, same ? REC_SAMPLE_SAME_TASK : REC_SAMPLE, hdr, h, raw + we->skip,
		   used - we->skip);
	if (err)
		return err;
	w->have_prev = true;
	w->prev_time = s->time_ns;
	w->prev_cpu = s->cpu;
	w->prev_pid = s->pid;
	w->prev_tid = s->tid;
	w->samples++;
	/* signed: samples of another CPU may come a little earlier than the last flush */
	if ((int64_t)(s->time_ns - w->last_flush_time) >= (int64_t)FLUSH_NS) {
		w->last_flush_time = s->time_ns;
		return sdt_trace_writer__flush(w);
	}
	return 0;
}

int sdt_trace_writer__comm(struct sdt_trace_writer *w, uint32_t pid, uint32_t tid, const char *comm)
{
	uint8_t hdr[32];
	size_t h = 0, n = strnlen(comm ? comm : "", COMM_LEN - 1);

	h += put_varint(hdr + h, pid);
	h += put_varint(hdr + h, zigzag((int64_t)tid - (int64_t)pid));
	h += put_varint(hdr + h, n + 1);
	return emit(w, REC_COMM, hdr, h, comm, n);
}

int sdt_trace_writer__lost(struct sdt_trace_writer *w, uint32_t cpu, uint64_t count)
{
	uint8_t hdr[24];
	size_t h = 0;

	h += put_varint(hdr + h, cpu);
	h += put_varint(hdr + h, count);
	w->lost += count;
	return emit(w, REC_LOST, hdr, h, NULL, 0);
}

uint64_t sdt_trace_writer__samples(const struct sdt_trace_writer *w)
{
	return w->samples;
}

uint64_t sdt_trace_writer__bytes(const struct sdt_trace_writer *w)
{
	return w->bytes;
}

int sdt_trace_writer__finish(struct sdt_trace_writer *w, int exit_status)
{
	uint8_t hdr[32];
	size_t h = 0;
	int err;

	h += put_varint(hdr + h, zigzag(exit_status));
	h += put_varint(hdr + h, w->samples);
	h += put_varint(hdr + h, w->lost);
	err = emit(w, REC_END, hdr, h, NULL, 0);
	err = err ?: sdt_trace_writer__flush(w);
	if (!err && fsync(w->fd) < 0 && errno != EINVAL && errno != EROFS)
		err = sdt_err(-errno, "cannot write '%s': %s", w->name, strerror(errno));
	if (close(w->fd) < 0 && !err)
		err = sdt_err(-errno, "cannot write '%s': %s", w->name, strerror(errno));
	w->fd = -1;
	sdt_trace_writer__free(w);
	return err;
}

void sdt_trace_writer__free(struct sdt_trace_writer *w)
{
	size_t i;

	if (!w)
		return;
	if (w->fd >= 0) {
		if (!w->err)
			sdt_trace_writer__flush(w);
		close(w->fd);
	}
	for (i = 0; i < w->nevents; i++)
		free(w->events[i].dl_offsets);
	free(w->events);
	free(w->buf);
	free(w->name);
	free(w);
}

/* ---- the reader ---------------------------------------------------------------------------- */

struct sdt_trace_kind {
	struct sdt_trace_event_desc d;
	/*
	 * Per argument: the argument that counts its string's bytes, or -1. HotSpot passes names
	 * as a pointer to bytes that are not NUL-terminated and a length: NAME and NAME_len.
	 */
	int8_t count_of[SDT_MAX_ARGS];
	uint32_t skip, fixed_end;
	uint64_t samples;
	uint32_t path_hash; /* of d.path, for the bias cache */
};

/*
 * The load bias last seen per (process, binary): it tells apart the sites of an event whose
 * addresses share their low 12 bits, from the first sample of that event on, as soon as any
 * event of the same binary fired in the process. Direct-mapped: a collision only forgets.
 */
#define BIAS_SLOTS 1024
struct bias_slot {
	bool used;
	uint32_t pid;
	uint32_t path_hash;
	uint64_t bias;
};

struct sdt_trace_event {
	const struct sdt_trace_reader *r;
	const struct sdt_trace_kind *k;
	uint64_t time_ns;
	uint32_t cpu, pid, tid;
	const char *comm;
	bool have_ip, have_addr, have_bias;
	uint64_t ip, addr, bias;
	const uint8_t *raw;
	size_t raw_size;
};

struct comm_entry {
	uint32_t tid;
	bool used;
	char comm[COMM_LEN];
};

struct sdt_trace_reader {
	char *name;
	int fd;
	const uint8_t *mem;
	size_t mem_len;
	uint8_t *ibuf; /* fd input: buffer, position, fill */
	size_t ipos, ilen;
	uint64_t off; /* file offset of the next byte */
	bool swap;
	char *cmdline, *hostname, *kernel;
	uint64_t start_rt, start_mono;
	struct sdt_trace_kind **by_index; /* by event index, grown on demand */
	size_t index_cap;
	struct sdt_trace_kind **kinds; /* file order */
	size_t nkinds, kinds_cap;
	struct comm_entry *comms;
	size_t ncomms, comms_cap; /* power of two */
	uint64_t *lost_cpu;
	size_t nlost_cpu;
	uint64_t lost;
	uint64_t nsamples;
	bool ended, truncated, have_exit, failed;
	int exit_status;
	bool have_prev;
	uint64_t prev_time;
	uint32_t prev_cpu, prev_pid, prev_tid;
	uint8_t *rec; /* the current record's body */
	size_t rec_cap;
	uint8_t *raw; /* the current sample's record, rebuilt with its common header */
	size_t raw_cap;
	struct sdt_trace_event ev;
	struct bias_slot bias[BIAS_SLOTS];
};

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
	return c->bad ? -EINVAL : 0;
}

static void kind_free(struct sdt_trace_kind *k)
{
	if (!k)
		return;
	sdt_trace_event_desc_release(&k->d);
	free(k);
}

static int parse_desc(struct cur *c, struct sdt_trace_event_desc *d)
{
	size_t i;

	d->ip_field = -1;
	d->index = (uint32_t)get_bounded(c, SDT_TRACE_MAX_EVENTS - 1);
	d->provider = get_str(c);
	d->name = get_str(c);
	d->path = get_str(c);
	d->build_id = get_str(c);
	d->group = get_str(c);
	d->event = get_str(c);
	d->tp_id = get_varint(c);
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
	for (i = 0; i < d->nfields && !c->bad; i++) {
		struct sdt_trace_field *f = &d->fields[i];
		uint8_t fl;

		f->name = get_str(c);
		f->offset = (uint32_t)get_bounded(c, SDT_TRACE_MAX_RAW);
		f->size = (uint32_t)get_bounded(c, 8);
		fl = get_byte(c);
		f->is_signed = fl & FIELD_SIGNED;
		f->is_data_loc = fl & FIELD_DATA_LOC;
	}
	d->ip_field = (int)unzigzag(get_bounded(c, 2 * SDT_TRACE_MAX_FIELDS));
	d->nargs = (size_t)get_bounded(c, SDT_MAX_ARGS);
	if (c->bad)
		return -EINVAL;
	d->args = calloc(d->nargs ? d->nargs : 1, sizeof(*d->args));
	if (!d->args)
		return -ENOMEM;
	for (i = 0; i < d->nargs && !c->bad; i++) {
		struct sdt_trace_arg *a = &d->args[i];
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
	return c->bad ? -EINVAL : 0;
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

static int add_kind(struct sdt_trace_reader *r, struct cur *c, uint64_t at)
{
	struct sdt_trace_kind *k;
	int err;

	k = calloc(1, sizeof(*k));
	if (!k)
		return sdt_err(-ENOMEM, "out of memory");
	err = parse_desc(c, &k->d);
	if (err == -ENOMEM) {
		kind_free(k);
		return sdt_err(-ENOMEM, "out of memory");
	}
	if (err || c->p != c->end) {
		kind_free(k);
		return corrupt(r, at, "bad event description");
	}
	err = sdt_trace_desc_check(&k->d);
	if (err) {
		kind_free(k);
		r->failed = true;
		return sdt_err_prefix(err, "'%s': corrupt recording at byte %llu", r->name,
				      (unsigned long long)at);
	}
	if (k->d.index >= r->index_cap) {
		size_t n = r->index_cap ? r->index_cap * 2 : 16;
		struct sdt_trace_kind **ni;

		while (n <= k->d.index)
			n *= 2;
		if (n > SDT_TRACE_MAX_EVENTS)
			n = SDT_TRACE_MAX_EVENTS;
		ni = sdt_reallocarray(r->by_index, n, sizeof(*ni));

		if (!ni) {
			kind_free(k);
			return sdt_err(-ENOMEM, "out of memory");
		}
		memset(ni + r->index_cap, 0, (n - r->index_cap) * sizeof(*ni));
		r->by_index = ni;
		r->index_cap = n;
	}
	if (r->by_index[k->d.index]) {
		kind_free(k);
		return corrupt(r, at, "event described twice");
	}
	if (sdt_grow((void **)&r->kinds, &r->kinds_cap, r->nkinds + 1, sizeof(*r->kinds))) {
		kind_free(k);
		return sdt_err(-ENOMEM, "out of memory");
	}
	desc_layout(&k->d, &k->skip, &k->fixed_end);
	find_counts(k);
	k->path_hash = fnv1a(k->d.path ? k->d.path : "");
	r->by_index[k->d.index] = k;
	r->kinds[r->nkinds++] = k;
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

/* The thread-name table: open addressing on tid, no deletion. */
static struct comm_entry *comm_slot(struct comm_entry *tab, size_t cap, uint32_t tid)
{
	size_t i = (tid * 2654435761u) & (cap - 1);

	while (tab[i].used && tab[i].tid != tid)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

static int comm_set(struct sdt_trace_reader *r, uint32_t tid, const char *comm, size_t len)
{
	struct comm_entry *e;
	size_t i;

	if ((r->ncomms + 1) * 2 > r->comms_cap) {
		size_t ncap = r->comms_cap ? r->comms_cap * 2 : 64;
		struct comm_entry *nt;

		if (r->ncomms >= MAX_THREADS)
			return -E2BIG;
		nt = calloc(ncap, sizeof(*nt));
		if (!nt)
			return -ENOMEM;
		for (i = 0; i < r->comms_cap; i++) {
			if (r->comms[i].used)
				*comm_slot(nt, ncap, r->comms[i].tid) = r->comms[i];
		}
		free(r->comms);
		r->comms = nt;
		r->comms_cap = ncap;
	}
	e = comm_slot(r->comms, r->comms_cap, tid);
	if (!e->used)
		r->ncomms++;
	e->used = true;
	e->tid = tid;
	memcpy(e->comm, comm, len);
	e->comm[len] = '\0';
	return 0;
}

static const char *comm_get(const struct sdt_trace_reader *r, uint32_t tid)
{
	const struct comm_entry *e;

	if (!r->comms_cap)
		return NULL;
	e = comm_slot(r->comms, r->comms_cap, tid);
	return e->used ? e->comm : NULL;
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
	err = comm_set(r, (uint32_t)tid, (const char *)c->p, n - 1);
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

static int parse_sample(struct sdt_trace_reader *r, struct cur *c, bool same, uint64_t at)
{
	struct sdt_trace_event *ev = &r->ev;
	struct sdt_trace_kind *k;
	struct bias_slot *slot;
	uint64_t idx, ip;
	size_t plen;
	long site;
	bool hint;

	idx = get_bounded(c, SDT_TRACE_MAX_EVENTS - 1);
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
	k = idx < r->index_cap ? r->by_index[idx] : NULL;
	if (!k)
		return corrupt(r, at, "sample of an event not described before");
	plen = (size_t)(c->end - c->p);
	if (plen > SDT_TRACE_MAX_RAW || k->fixed_end - k->skip > plen)
		return corrupt(r, at, "sample shorter than its event's fields");
	if (sdt_grow((void **)&r->raw, &r->raw_cap, k->skip + plen + 1, 1))
		return sdt_err(-ENOMEM, "out of memory");
	memset(r->raw, 0, k->skip);
	memcpy(r->raw + k->skip, c->p, plen);

	memset(ev, 0, sizeof(*ev));
	ev->r = r;
	ev->k = k;
	ev->time_ns = r->prev_time;
	ev->cpu = r->prev_cpu;
	ev->pid = r->prev_pid;
	ev->tid = r->prev_tid;
	ev->comm = comm_get(r, ev->tid);
	ev->raw = r->raw;
	ev->raw_size = k->skip + plen;
	if (sdt_decode_probe_ip(&k->d, ev->raw, ev->raw_size, r->swap, &ip)) {
		ev->have_ip = true;
		ev->ip = ip;
		slot = &r->bias[(ev->pid * 2654435761u ^ k->path_hash) % BIAS_SLOTS];
		hint = slot->used && slot->pid == ev->pid && slot->path_hash == k->path_hash;
		site = sdt_decode_site(&k->d, ip, hint, slot->bias);
		if (site >= 0) {
			ev->have_addr = ev->have_bias = true;
			ev->addr = k->d.site_addrs[site];
			ev->bias = ip - ev->addr;
			/* a lone site is taken on trust: only a page-aligned bias teaches the cache
			 */
			if (ev->bias % 4096 == 0) {
				slot->used = true;
				slot->pid = ev->pid;
				slot->path_hash = k->path_hash;
				slot->bias = ev->bias;
			}
		}
	} else if (k->d.nsites == 1) {
		ev->have_addr = true;
		ev->addr = k->d.site_addrs[0];
	}
	k->samples++;
	r->nsamples++;
	return 1;
}

int sdt_trace_reader__next(struct sdt_trace_reader *r, const struct sdt_trace_event **out)
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
		c.p = r->rec;
		c.end = r->rec + len;
		c.bad = false;
		switch (type) {
		case REC_SAMPLE:
		case REC_SAMPLE_SAME_TASK:
			ret = parse_sample(r, &c, type == REC_SAMPLE_SAME_TASK, at);
			if (ret > 0)
				*out = &r->ev;
			return ret;
		case REC_EVENT:
			ret = add_kind(r, &c, at);
			break;
		case REC_COMM:
			ret = parse_comm(r, &c, at);
			break;
		case REC_LOST:
			ret = parse_lost(r, &c, at);
			break;
		case REC_END: {
			int64_t st = unzigzag(get_varint(&c));

			get_varint(&c); /* samples written: for tools that want to cross-check */
			get_varint(&c); /* events lost */
			if (c.bad || st < INT32_MIN || st > INT32_MAX)
				return corrupt(r, at, "bad end record");
			r->exit_status = (int)st;
			r->have_exit = true;
			r->ended = true;
			ret = 0;
			break;
		}
		case REC_META:
			return corrupt(r, at, "a second session record");
		default:
			if (type < REC_FIRST_OPTIONAL || type == 0)
				return corrupt(r, at, "unknown record type");
			ret = 0; /* a newer optional record: skip it */
			break;
		}
		if (ret < 0)
			return ret;
	}
	return 0;
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
	r->swap = hdr[12] != host_order();
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

static int reader_new(const char *name, struct sdt_trace_reader **out)
{
	struct sdt_trace_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return sdt_err(-ENOMEM, "out of memory");
	r->fd = -1;
	r->name = sdt_strdup(name);
	if (!r->name) {
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

	(void)opts;
	err = reader_new(path, &r);
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
	err = reader_new(name, &r);
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
	size_t i;

	if (!r)
		return;
	if (r->fd >= 0)
		close(r->fd);
	for (i = 0; i < r->nkinds; i++)
		kind_free(r->kinds[i]);
	free(r->kinds);
	free(r->by_index);
	free(r->comms);
	free(r->lost_cpu);
	free(r->rec);
	free(r->raw);
	free(r->ibuf);
	free(r->cmdline);
	free(r->hostname);
	free(r->kernel);
	free(r->name);
	free(r);
}

/* ---- accessors ----------------------------------------------------------------------------- */

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

uint64_t sdt_trace_reader__sample_count(const struct sdt_trace_reader *r)
{
	return r->nsamples;
}

size_t sdt_trace_reader__kind_count(const struct sdt_trace_reader *r)
{
	return r->nkinds;
}

const struct sdt_trace_kind *sdt_trace_reader__kind(const struct sdt_trace_reader *r, size_t i)
{
	return i < r->nkinds ? r->kinds[i] : NULL;
}

const char *sdt_trace_kind__provider(const struct sdt_trace_kind *k)
{
	return k->d.provider;
}

const char *sdt_trace_kind__name(const struct sdt_trace_kind *k)
{
	return k->d.name;
}

const char *sdt_trace_kind__path(const struct sdt_trace_kind *k)
{
	return k->d.path;
}

const char *sdt_trace_kind__build_id(const struct sdt_trace_kind *k)
{
	return k->d.build_id;
}

size_t sdt_trace_kind__arg_count(const struct sdt_trace_kind *k)
{
	return k->d.nargs;
}

const char *sdt_trace_kind__arg_name(const struct sdt_trace_kind *k, size_t i)
{
	return i < k->d.nargs ? k->d.args[i].name : NULL;
}

bool sdt_trace_kind__arg_named(const struct sdt_trace_kind *k, size_t i)
{
	return i < k->d.nargs && k->d.args[i].named;
}

enum sdt_type_kind sdt_trace_kind__arg_type(const struct sdt_trace_kind *k, size_t i)
{
	return i < k->d.nargs ? (enum sdt_type_kind)k->d.args[i].type : SDT_TYPE_DEFAULT;
}

const char *sdt_trace_kind__arg_spec(const struct sdt_trace_kind *k, size_t i)
{
	return i < k->d.nargs ? k->d.args[i].spec : NULL;
}

const char *sdt_trace_kind__arg_unavailable(const struct sdt_trace_kind *k, size_t i)
{
	if (i >= k->d.nargs || k->d.args[i].field >= 0)
		return NULL;
	return k->d.args[i].unavailable ? k->d.args[i].unavailable : "not recorded";
}

uint64_t sdt_trace_kind__samples(const struct sdt_trace_kind *k)
{
	return k->samples;
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

size_t sdt_trace_event__arg_count(const struct sdt_trace_event *ev)
{
	return ev->k->d.nargs;
}

int sdt_trace_event__arg(const struct sdt_trace_event *ev, size_t i, struct sdt_trace_value *out)
{
	if (i >= ev->k->d.nargs)
		return -ERANGE;
	sdt_decode_arg(&ev->k->d, i, ev->raw, ev->raw_size, ev->r->swap, ev->have_bias, ev->bias,
		       out);
	if (out->kind == SDT_VALUE_STRING && i < SDT_MAX_ARGS && ev->k->count_of[i] >= 0) {
		struct sdt_trace_value n;

		/* a counted string: the kernel read on to the next NUL; keep the counted bytes */
		sdt_decode_arg(&ev->k->d, (size_t)ev->k->count_of[i], ev->raw, ev->raw_size,
			       ev->r->swap, ev->have_bias, ev->bias, &n);
		if ((n.kind == SDT_VALUE_UINT || (n.kind == SDT_VALUE_INT && n.i >= 0)) &&
		    n.u < out->len) {
			/* the reader's own buffer (parse_sample() rebuilt the record there) */
			((char *)out->str)[n.u] = '\0';
			out->len = (size_t)n.u;
		}
	}
	return 0;
}
