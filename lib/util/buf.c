/* SPDX-License-Identifier: MIT */
/* struct sdt_buf: a growable NUL-terminated string. */
#include <stdio.h>
#include <string.h>

#include "util/internal.h"

int sdt_buf_add(struct sdt_buf *b, const char *s, size_t n)
{
	size_t need;

	if (__builtin_add_overflow(b->len, n + 1, &need))
		return -ENOMEM;
	if (sdt_grow((void **)&b->buf, &b->cap, need, 1))
		return -ENOMEM;
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
	return 0;
}

int sdt_buf_addstr(struct sdt_buf *b, const char *s)
{
	return sdt_buf_add(b, s, strlen(s));
}

int sdt_buf_addf(struct sdt_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* one pass when the text fits the room left (usually), a second after growing */
	if (b->cap - b->len < 128 && sdt_grow((void **)&b->buf, &b->cap, b->len + 128, 1))
		return -ENOMEM;
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->buf[b->len] = '\0';
		return -EINVAL;
	}
	if ((size_t)n >= b->cap - b->len) {
		if (sdt_grow((void **)&b->buf, &b->cap, b->len + (size_t)n + 1, 1)) {
			b->buf[b->len] = '\0';
			return -ENOMEM;
		}
		va_start(ap, fmt);
		vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	b->len += (size_t)n;
	return 0;
}

void sdt_buf_reset(struct sdt_buf *b)
{
	b->len = 0;
	if (b->buf)
		b->buf[0] = '\0';
}

void sdt_buf_free(struct sdt_buf *b)
{
	free(b->buf);
	b->buf = NULL;
	b->len = b->cap = 0;
}

char *sdt_buf_take(struct sdt_buf *b)
{
	char *s = b->buf;

	b->buf = NULL;
	b->len = b->cap = 0;
	return s;
}
