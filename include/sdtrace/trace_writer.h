/* SPDX-License-Identifier: MIT */
/*
 * Writing a recording (sdtrace.data), the file `sdtrace report` and sdt_trace_reader__open()
 * read: from a recorder's sink (sdtrace/record.h: every callback has a writer call of the same
 * name), as `sdtrace record` does.
 *
 * The writer appends records as they come: a description before the first sample of each event,
 * then samples, thread names, lost counts, and at the end the command's exit status. Records are
 * buffered and written out when the buffer fills, when the samples' clock has moved 100 ms since
 * the last write, and on sdt_trace_writer__flush() (call it from on_drained); so a recording cut
 * by SIGKILL loses at most those last moments, and reads up to its last complete record. A
 * sample costs about 21-27 bytes: the raw record is kept from its first field on, without the
 * tracefs common header or the ring's padding.
 *
 * Lifetimes: the writer copies what it needs; descriptions and samples are read during the call
 * only. After a failed write every later call fails with the same error.
 *
 * A program may also write a recording of its own: descriptions built with
 * sdt_trace_event_desc__new() and __add_arg(), samples packed from values with __pack(). A
 * recorder's sink forwards its callbacks to the writer calls of the same names instead.
 *
 * Example (one event of one's own, one sample):
 *	SDT_OPTS(sdt_trace_writer_opts, o, .cmdline = "my-tool");
 *	struct sdt_arg_type ty = {.name = (char *)"n", .kind = SDT_TYPE_DEFAULT};
 *	struct sdt_trace_value v = {.kind = SDT_VALUE_INT, .i = -5};
 *	struct sdt_trace_sample s = {.time_ns = 1000, .pid = 42, .tid = 42, .event = 0};
 *	struct sdt_trace_event_desc *d = NULL;
 *	struct sdt_trace_writer *w = NULL;
 *	unsigned char raw[64];
 *	int size;
 *	if (sdt_trace_writer__open(SDT_TRACE_DEFAULT_PATH, &o, &w) < 0 ||
 *	    sdt_trace_event_desc__new(0, "myprov", "tick", NULL, &d) < 0 ||
 *	    sdt_trace_event_desc__add_arg(d, "-4@%eax", &ty) < 0 ||
 *	    sdt_trace_writer__event(w, d) < 0 ||
 *	    (size = sdt_trace_event_desc__pack(d, 0, &v, 1, raw, sizeof(raw))) < 0)
 *		errx(1, "%s", sdt_errmsg());
 *	s.raw = raw;
 *	s.raw_size = (uint32_t)size;
 *	if (sdt_trace_writer__sample(w, &s) < 0 || sdt_trace_writer__finish(w, 0) < 0)
 *		errx(1, "%s", sdt_errmsg());
 *	sdt_trace_event_desc__free(d);
 */
#ifndef SDTRACE_TRACE_WRITER_H
#define SDTRACE_TRACE_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sdtrace/common.h>
#include <sdtrace/trace.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The default file name, and the suffix a previous recording is kept under (as perf does). */
#define SDT_TRACE_DEFAULT_PATH "sdtrace.data"
#define SDT_TRACE_OLD_SUFFIX   ".old"

struct sdt_trace_writer;

/* The session, written once at the start (sdt_trace_reader__cmdline() ...). Strings are copied. */
struct sdt_trace_writer_opts {
	size_t sz;
	const char *cmdline;	     /* the command line, one string (NULL: none) */
	const char *hostname;	     /* NULL: uname()'s nodename */
	const char *kernel_release;  /* NULL: uname()'s release */
	uint64_t start_realtime_ns;  /* wall-clock start (0: now) */
	uint64_t start_monotonic_ns; /* the same instant on the samples' clock (0: now) */
	const char *engine;	     /* what recorded it: "bpf", "tracefs" (NULL: not said) */
};

/*
 * Create @path (0600, O_EXCL | O_NOFOLLOW). An existing regular file at @path is first renamed
 * to @path.old, replacing any older one; anything else there (a symlink, even a dangling one, a
 * FIFO, a directory, a device) is refused, -EEXIST or -EISDIR. Writes the header and the session.
 * Returns 0 and *out, or -errno (-EINVAL: @opts set an option this library does not know).
 */
SDT_API int sdt_trace_writer__open(const char *path, const struct sdt_trace_writer_opts *opts,
				   struct sdt_trace_writer **out);
/* The same on an open file descriptor, which the writer then owns (closes, also on failure). */
SDT_API int sdt_trace_writer__open_fd(int fd, const char *name,
				      const struct sdt_trace_writer_opts *opts,
				      struct sdt_trace_writer **out);

/*
 * Describe an event once, before its first sample. Returns 0, -EEXIST (its index is described
 * already), -EINVAL (a desc a reader would reject: the message says what), -errno (write).
 */
SDT_API int sdt_trace_writer__event(struct sdt_trace_writer *w,
				    const struct sdt_trace_event_desc *d);
/*
 * One sample; @s->raw is the full tracefs record. No allocation. 0, -EINVAL (an undescribed
 * event, a record shorter than its fields), -errno (write).
 */
SDT_API int sdt_trace_writer__sample(struct sdt_trace_writer *w, const struct sdt_trace_sample *s);
/*
 * A mapping of a process (before the samples that need it). Each distinct @s->callchain of a
 * sample is written once and referred to by id; a sample with one costs a few bytes more.
 */
SDT_API int sdt_trace_writer__mapping(struct sdt_trace_writer *w, const struct sdt_trace_mapping *m);
/* Thread @tid of process @pid is now called @comm (at most 15 bytes are kept). */
SDT_API int sdt_trace_writer__comm(struct sdt_trace_writer *w, uint32_t pid, uint32_t tid,
				   const char *comm);
/* @count events were lost on @cpu (PERF_RECORD_LOST). */
SDT_API int sdt_trace_writer__lost(struct sdt_trace_writer *w, uint32_t cpu, uint64_t count);
/* Write out what is buffered (call it after each drain of the rings). */
SDT_API int sdt_trace_writer__flush(struct sdt_trace_writer *w);
/*
 * End the recording: the END record with @exit_status (the command's, as a shell reports it:
 * 128 + signal when it was killed), flush, fsync, close. Returns 0 or -errno; @w is freed
 * either way.
 */
SDT_API int sdt_trace_writer__finish(struct sdt_trace_writer *w, int exit_status);
/* Close without an END record (a reader will call the file truncated). Accepts NULL. */
SDT_API void sdt_trace_writer__free(struct sdt_trace_writer *w);

/* Samples written so far, and the bytes of the file (buffered ones too). */
SDT_API uint64_t sdt_trace_writer__samples(const struct sdt_trace_writer *w);
SDT_API uint64_t sdt_trace_writer__bytes(const struct sdt_trace_writer *w);

/*
 * Descriptions by hand (desc_build.c has the record layout they get). Index, provider and name
 * are required; the rest is optional. Freed with sdt_trace_event_desc__free(), which is only for
 * descriptions made here (a recorder's and a kind's belong to them).
 */
struct sdt_trace_event_desc_opts {
	size_t sz;
	const char *path;	    /* the binary the event is in (NULL: none) */
	const char *build_id;	    /* its build-id in hex (NULL: none) */
	const uint64_t *site_addrs; /* link-time addresses of its sites (copied), for */
	size_t nsites;		    /* sdt_trace_event__address() */
};

/*
 * A description of event @index (0..65535) with no arguments yet: 0 and *out, or -EINVAL (a bad
 * option, index or string) / -ENOMEM.
 */
SDT_API int sdt_trace_event_desc__new(uint32_t index, const char *provider, const char *name,
				      const struct sdt_trace_event_desc_opts *opts,
				      struct sdt_trace_event_desc **out);
/*
 * Append an argument as a note has it: @spec "[-]SIZE[f]@OPERAND" ("-4@%eax": a signed 32-bit
 * integer, "8f@%xmm0": a double) gives its size, sign and float-ness; @type (NULL: none) names it
 * and says how to show it, as for the recorder (SDT_TYPE_STRING: a string, with a pointer-sized
 * spec). A 16-byte argument is described but not recorded. 0, -EINVAL (a bad spec, name or type;
 * a name taken), -E2BIG (too many), -ENOMEM; @d is unchanged on failure.
 */
SDT_API int sdt_trace_event_desc__add_arg(struct sdt_trace_event_desc *d, const char *spec,
					  const struct sdt_arg_type *type);
/*
 * The raw record of one sample of @d into @buf: probe ip @ip and one value per argument
 * (@nargs == its argument count): SDT_VALUE_INT or _UINT (->i, ->u) for integers, _FLOAT (->f)
 * for floats, _STRING (->str, ->len bytes) for strings, _UNAVAILABLE for a string that could not
 * be read; the value of an argument not recorded is ignored. Returns the record's size, for
 * struct sdt_trace_sample.raw_size; -EINVAL (a value of another kind), -ENOSPC (@size too small).
 */
SDT_API int sdt_trace_event_desc__pack(const struct sdt_trace_event_desc *d, uint64_t ip,
				       const struct sdt_trace_value *args, size_t nargs, void *buf,
				       size_t size);
SDT_API void sdt_trace_event_desc__free(struct sdt_trace_event_desc *d);

#ifdef __cplusplus
}
#endif

#endif
