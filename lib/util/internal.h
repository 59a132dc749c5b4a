/* SPDX-License-Identifier: MIT */
/* Helpers shared by the library's files: errors, checked allocation, small strings. */
#ifndef SDT_INTERNAL_H
#define SDT_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "sdtrace/sdtrace.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Store the thread's error message (printf format) and return @err, a negative errno, so that
 * failures read `return sdt_err(-EINVAL, "'%s': ...", path);`.
 */
int sdt_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prefix the stored message: "PREFIX: old message". Returns @err. */
int sdt_err_prefix(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sdt_err_clear(void);

/*
 * Messages for people (util/print.c): one line (@fmt ends with "\n") to the sdt_set_print()
 * callback, if the program installed one. Never for errors: those are returned.
 */
void sdt_print(enum sdt_print_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define sdt_debug(...) sdt_print(SDT_DEBUG, __VA_ARGS__)
/* Is there a callback? (to skip building a message nobody reads) */
bool sdt_print_enabled(void);
/* Each line of @text (@len bytes, newline-separated) as one message "PREFIXline\n". */
void sdt_print_lines(enum sdt_print_level level, const char *prefix, const char *text, size_t len);

/*
 * Open @path for reading only if it is a regular file (util/open.c): O_NONBLOCK | O_CLOEXEC, so
 * that a FIFO cannot block the open, then fstat. Returns the fd, or -errno with a message
 * (-ENOEXEC: not a regular file). The fd stays O_NONBLOCK, which a regular file ignores.
 */
int sdt_open_regular(const char *path);

/* Allocation that checks n * size for overflow; NULL with errno = ENOMEM on failure. */
void *sdt_reallocarray(void *ptr, size_t n, size_t size);
char *sdt_strdup(const char *s);
char *sdt_strndup(const char *s, size_t n);
/* malloc'ed printf; NULL on failure. */
char *sdt_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Grow *arr (of *cap elements of @size) so that it holds at least @need; returns 0 or -ENOMEM.
 * Capacity doubles, so appending n elements costs O(n).
 */
int sdt_grow(void **arr, size_t *cap, size_t need, size_t size);

/* A growable string (git's strbuf, reduced). buf is always NUL-terminated once allocated. */
struct sdt_buf {
	char *buf;
	size_t len;
	size_t cap;
};
int sdt_buf_add(struct sdt_buf *b, const char *s, size_t n);
int sdt_buf_addstr(struct sdt_buf *b, const char *s);
int sdt_buf_addf(struct sdt_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sdt_buf_reset(struct sdt_buf *b);
void sdt_buf_free(struct sdt_buf *b);
/* Hand the string over to the caller (NULL if nothing was added); the buffer is left empty. */
char *sdt_buf_take(struct sdt_buf *b);

/*
 * Copy a public `_opts` struct (@opts, may be NULL) into the library's own @dst of @dst_sz bytes,
 * zero-filling what the caller's shorter struct lacks; -EINVAL when the caller's struct is
 * longer and sets a byte this library does not know (util/opts.c). dst->sz becomes @dst_sz.
 */
int sdt_opts_copy(void *dst, size_t dst_sz, const void *opts, const char *type_name);
#define SDT_OPTS_COPY(dst, opts, type) sdt_opts_copy((dst), sizeof(*(dst)), (opts), #type)

/* Event, group and provider names tracefs accepts: [A-Za-z_][A-Za-z0-9_]*, 1..max bytes. */
bool sdt_valid_event_name(const char *s, size_t max);
/* Kernel limit for a tracefs event or group name (MAX_EVENT_NAME_LEN). */
#define SDT_MAX_EVENT_NAME 64

/* CLOCK_MONOTONIC in nanoseconds (util/clock.c): the recorders' deadlines and timings. */
uint64_t sdt_mono_ns(void);

#endif
