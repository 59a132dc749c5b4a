/* SPDX-License-Identifier: MIT */
/*
 * The writer of sdtrace.data (trace_file.h, include/sdtrace/trace_writer.h): appends records as
 * the recorder hands them over.
 *
 * Why this shape:
 *  - A sample stores only what tracefs cannot give back: varint deltas for time, task and cpu,
 *    and the raw record after its 8-byte common header, trimmed to the fields the format lists
 *    (plus the __data_loc strings). The layout (fields, args, sites) is in the EVENT record, once.
 *  - The writer appends to one fixed buffer: no allocation per record.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "util/internal.h"
#include "util/lockfile.h"
#include "trace/stack_table.h"
#include "trace/trace_file.h"
#include "trace/varint.h"

#define FLUSH_NS       (100ull * 1000 * 1000) /* write out at least every 100 ms of sample time */

struct wevent {
	bool known;
	struct sdt_trace_layout lay;
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
	struct stack_table stacks;
	uint8_t *sbuf; /* a STACK record's body */
	uint8_t *ubuf; /* a USER_STACK record's body */
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

static int encode_meta(struct sdt_buf *b, const struct sdt_trace_writer_opts *m)
{
	struct utsname u;
	struct timespec ts;
	uint64_t rt = m->start_realtime_ns, mono = m->start_monotonic_ns;
	const char *host = m->hostname, *rel = m->kernel_release;
	int err = 0;

	if ((!host || !rel) && uname(&u) == 0) {
		host = host ? host : u.nodename;
		rel = rel ? rel : u.release;
	}
	if (!rt && clock_gettime(CLOCK_REALTIME, &ts) == 0)
		rt = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	if (!mono && clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
		mono = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	err = err ?: b_str(b, m->cmdline);
	err = err ?: b_str(b, host);
	err = err ?: b_str(b, rel);
	err = err ?: b_varint(b, rt);
	err = err ?: b_varint(b, mono);
	/* added within version 1: older readers stop before it */
	err = err ?: (m->engine ? b_str(b, m->engine) : 0);
	return err;
}

int sdt_trace_writer__open_fd(int fd, const char *name, const struct sdt_trace_writer_opts *opts,
			      struct sdt_trace_writer **out)
{
	struct sdt_trace_writer_opts o;
	struct sdt_trace_writer *w;
	struct sdt_buf b = {0};
	uint8_t hdr[SDT_TRACE_HEADER_SIZE] = {0};
	int err;

	err = SDT_OPTS_COPY(&o, opts, sdt_trace_writer_opts);
	if (err) {
		close(fd);
		return err;
	}
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
	err = encode_meta(&b, &o);
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
int sdt_trace_writer__open(const char *path, const struct sdt_trace_writer_opts *opts,
			   struct sdt_trace_writer **out)
{
	struct sdt_trace_writer_opts o;
	bool exists;
	char *old;
	int fd, err;

	/* a refused option renames nothing */
	err = SDT_OPTS_COPY(&o, opts, sdt_trace_writer_opts);
	err = err ?: sdt_output_check(path, &exists);
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
	return sdt_trace_writer__open_fd(fd, path, &o, out);
}

/* One field of an EVENT record: str name, offset, size, u8 flags. */
static int encode_field(struct sdt_buf *b, const struct sdt_trace_field *f)
{
	int err = 0;

	err = err ?: b_str(b, f->name);
	err = err ?: b_varint(b, f->offset);
	err = err ?: b_varint(b, f->size);
	err = err ?: b_byte(b, (uint8_t)((f->is_signed ? FIELD_SIGNED : 0) |
					 (f->is_data_loc ? FIELD_DATA_LOC : 0) |
					 ((f->float_format << FIELD_FLOAT_SHIFT) &
					  FIELD_FLOAT_MASK) |
					 (f->is_room ? FIELD_ROOM : 0)));
	return err;
}

/* One argument of an EVENT record: str name, str spec, size, u8 flags, zigzag field, str why. */
static int encode_arg(struct sdt_buf *b, const struct sdt_trace_arg *a)
{
	int err = 0;

	err = err ?: b_str(b, a->name);
	err = err ?: b_str(b, a->spec);
	err = err ?: b_varint(b, a->size);
	err = err ?: b_byte(b, (uint8_t)((a->is_signed ? ARG_SIGNED : 0) |
					 (a->is_float ? ARG_FLOAT : 0) |
					 (a->is_string ? ARG_STRING : 0) |
					 (a->rebase ? ARG_REBASE : 0) |
					 ((a->type << ARG_TYPE_SHIFT) & ARG_TYPE_MASK) |
					 (a->named ? ARG_NAMED : 0)));
	err = err ?: b_varint(b, zigzag(a->field));
	err = err ?: b_str(b, a->unavailable);
	return err;
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
	for (i = 0; !err && i < d->nfields; i++)
		err = encode_field(b, &d->fields[i]);
	err = err ?: b_varint(b, zigzag(d->ip_field));
	err = err ?: b_varint(b, d->nargs);
	for (i = 0; !err && i < d->nargs; i++)
		err = encode_arg(b, &d->args[i]);
	return err;
}

int sdt_trace_writer__event(struct sdt_trace_writer *w, const struct sdt_trace_event_desc *d)
{
	struct sdt_buf b = {0};
	struct wevent *we;
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
	if (sdt_trace_layout_init(&we->lay, d))
		return sdt_err(-ENOMEM, "out of memory");
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

/*
 * The id of stack @ips: a STACK record the first time it is seen (cut to SDT_TRACE_MAX_STACK
 * frames). A frame is at most 10 bytes.
 */
static int write_stack(struct sdt_trace_writer *w, const uint64_t *ips, uint32_t nr, uint32_t *id)
{
	uint64_t prev = 0;
	size_t h = 0;
	bool is_new;
	uint32_t i;
	int err;

	if (nr > SDT_TRACE_MAX_STACK)
		nr = SDT_TRACE_MAX_STACK;
	err = sdt_stack_table_intern(&w->stacks, ips, nr, id, &is_new);
	if (err == -E2BIG)
		return sdt_err(err, "'%s': more than %u distinct stacks", w->name,
			       SDT_TRACE_MAX_STACKS);
	if (err)
		return sdt_err(err, "out of memory");
	if (!is_new)
		return 0;
	if (!w->sbuf && !(w->sbuf = malloc(10 * (SDT_TRACE_MAX_STACK + 2))))
		return sdt_err(-ENOMEM, "out of memory");
	h += put_varint(w->sbuf + h, *id);
	h += put_varint(w->sbuf + h, nr);
	for (i = 0; i < nr; i++) {
		h += put_varint(w->sbuf + h, zigzag((int64_t)(ips[i] - prev)));
		prev = ips[i];
	}
	return emit(w, REC_STACK, w->sbuf, h, NULL, 0);
}

int sdt_trace_writer__mapping(struct sdt_trace_writer *w, const struct sdt_trace_mapping *m)
{
	struct sdt_buf b = {0};
	int err = 0;

	err = err ?: b_varint(&b, m->pid);
	err = err ?: b_varint(&b, m->start);
	err = err ?: b_varint(&b, m->len);
	err = err ?: b_varint(&b, m->pgoff);
	err = err ?: b_str(&b, m->build_id);
	err = err ?: b_str(&b, m->path);
	if (err) {
		sdt_buf_free(&b);
		return sdt_err(-ENOMEM, "out of memory");
	}
	err = emit(w, REC_MAPPING, b.buf, b.len, NULL, 0);
	sdt_buf_free(&b);
	return err;
}

/* The length of the run of zero bytes at @p (at most @n), a word at a time while it can. */
static size_t zeros_at(const uint8_t *p, size_t n)
{
	size_t z = 0;
	uint64_t v;

	while (n - z >= 8) {
		memcpy(&v, p + z, 8);
		if (v)
			break;
		z += 8;
	}
	while (z < n && !p[z])
		z++;
	return z;
}

/* The first word-sized step at @p that holds a zero byte (0 to 8), past non-zero words. */
static size_t nonzero_words(const uint8_t *p, size_t n)
{
	size_t k = 0;
	uint64_t v;

	while (n - k >= 8) {
		memcpy(&v, p + k, 8);
		/* a zero byte in v (the classic test): stop at that word */
		if ((v - 0x0101010101010101ull) & ~v & 0x8080808080808080ull)
			break;
		k += 8;
	}
	return k;
}

/*
 * The USER_STACK record of the sample about to be written (trace_file.h): the stack bytes as
 * literal runs and zero runs. Its body is at most 700 bytes of registers, then per zero run
 * left out (16 bytes or more) 6 bytes of lengths at most: under 2 x the stack's size.
 */
static int write_user_stack(struct sdt_trace_writer *w, const struct sdt_trace_sample *s)
{
	unsigned int nregs = (unsigned int)__builtin_popcountll(s->user_regs_mask), i;
	const uint8_t *st = s->user_stack;
	size_t h = 0, n = s->user_stack_size, at = 0;

	if (n > SDT_TRACE_MAX_USER_STACK || (n && !st))
		return sdt_err(-EINVAL, "'%s': a user stack of %zu bytes", w->name, n);
	if (!w->ubuf && !(w->ubuf = malloc(1024 + 2 * SDT_TRACE_MAX_USER_STACK)))
		return sdt_err(-ENOMEM, "out of memory");
	h += put_varint(w->ubuf + h, USER_STACK_FORMAT);
	h += put_varint(w->ubuf + h, s->user_machine);
	h += put_varint(w->ubuf + h, s->user_regs_mask);
	for (i = 0; i < nregs; i++)
		h += put_varint(w->ubuf + h, s->user_regs[i]);
	h += put_varint(w->ubuf + h, n);
	while (at < n) {
		size_t lit = at, z = 0;

		/* the literal run ends where a long enough zero run begins */
		while (lit < n) {
			lit += nonzero_words(st + lit, n - lit);
			if (lit == n) {
				z = 0;
				break;
			}
			z = st[lit] ? 0 : zeros_at(st + lit, n - lit);
			if (z >= USER_STACK_MIN_ZEROS || lit + z == n)
				break;
			lit += z ? z : 1;
		}
		h += put_varint(w->ubuf + h, lit - at);
		memcpy(w->ubuf + h, st + at, lit - at);
		h += lit - at;
		h += put_varint(w->ubuf + h, z);
		at = lit + z;
	}
	return emit(w, REC_USER_STACK, w->ubuf, h, NULL, 0);
}

int sdt_trace_writer__sample(struct sdt_trace_writer *w, const struct sdt_trace_sample *s)
{
	const uint8_t *raw = s->raw;
	const struct wevent *we;
	uint8_t hdr[60];
	size_t h = 0;
	uint32_t used, stack_id = 0;
	bool same;
	int err;

	if (s->callchain_nr) {
		err = write_stack(w, s->callchain, s->callchain_nr, &stack_id);
		if (err)
			return err;
	}
	if (s->event >= w->nevents || !w->events[s->event].known)
		return sdt_err(-EINVAL, "'%s': sample of undescribed event %u", w->name, s->event);
	we = &w->events[s->event];
	if (s->raw_size < we->lay.fixed_end || s->raw_size > SDT_TRACE_MAX_RAW)
		return sdt_err(-EINVAL,
			       "'%s': sample of event %u: record of %u bytes, fields need %u",
			       w->name, s->event, s->raw_size, we->lay.fixed_end);
	used = sdt_trace_layout_used(&we->lay, raw, s->raw_size);
	if (s->user_regs) {
		err = write_user_stack(w, s);
		if (err)
			return err;
	}
	same =
	    w->have_prev && s->cpu == w->prev_cpu && s->pid == w->prev_pid && s->tid == w->prev_tid;
	h += put_varint(hdr + h, s->event);
	if (stack_id)
		h += put_varint(hdr + h, stack_id);
	h += put_varint(hdr + h, zigzag((int64_t)(s->time_ns - w->prev_time)));
	if (!same) {
		h += put_varint(hdr + h, s->cpu);
		h += put_varint(hdr + h, s->pid);
		h += put_varint(hdr + h, zigzag((int64_t)s->tid - (int64_t)s->pid));
	}
	err = emit(w,
		   stack_id ? (same ? REC_SAMPLE_STACK_SAME_TASK : REC_SAMPLE_STACK)
			    : (same ? REC_SAMPLE_SAME_TASK : REC_SAMPLE),
		   hdr, h, raw + we->lay.skip,
		   used - we->lay.skip);
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
		sdt_trace_layout_release(&w->events[i].lay);
	free(w->events);
	sdt_stack_table_release(&w->stacks);
	free(w->sbuf);
	free(w->ubuf);
	free(w->buf);
	free(w->name);
	free(w);
}
