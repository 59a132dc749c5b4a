/* SPDX-License-Identifier: MIT */
/* The protobuf wire format, for writing (protobuf.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "protobuf.h"
#include "sdtrace/text.h"

enum { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2 };

/* Room for @n more bytes: 0, or -ENOMEM (kept in ->err). */
static int room(struct pb *p, size_t n)
{
	size_t cap;
	unsigned char *b;

	if (p->err)
		return p->err;
	if (p->cap - p->len >= n)
		return 0;
	cap = p->cap ? p->cap : 256;
	while (cap - p->len < n) {
		if (cap > SIZE_MAX / 2)
			return p->err = -ENOMEM;
		cap *= 2;
	}
	b = realloc(p->buf, cap);
	if (!b)
		return p->err = -ENOMEM;
	p->buf = b;
	p->cap = cap;
	return 0;
}

static void varint(struct pb *p, uint64_t v)
{
	if (room(p, 10))
		return;
	while (v >= 0x80) {
		p->buf[p->len++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	p->buf[p->len++] = (unsigned char)v;
}

static void tag(struct pb *p, unsigned int field, unsigned int type)
{
	varint(p, (uint64_t)field << 3 | type);
}

void pb_reset(struct pb *p)
{
	p->len = 0;
	p->err = 0;
}

void pb_free(struct pb *p)
{
	free(p->buf);
	memset(p, 0, sizeof(*p));
}

void pb_uint(struct pb *p, unsigned int field, uint64_t v)
{
	tag(p, field, PB_VARINT);
	varint(p, v);
}

void pb_int(struct pb *p, unsigned int field, int64_t v)
{
	tag(p, field, PB_VARINT);
	varint(p, (uint64_t)v);
}

void pb_double(struct pb *p, unsigned int field, double v)
{
	uint64_t bits;
	int i;

	memcpy(&bits, &v, sizeof(bits));
	tag(p, field, PB_I64);
	if (room(p, 8))
		return;
	for (i = 0; i < 8; i++)
		p->buf[p->len++] = (unsigned char)(bits >> (8 * i));
}

void pb_bytes(struct pb *p, unsigned int field, const void *s, size_t n)
{
	tag(p, field, PB_LEN);
	varint(p, n);
	if (n && !room(p, n)) {
		memcpy(p->buf + p->len, s, n);
		p->len += n;
	}
}

void pb_string_n(struct pb *p, unsigned int field, const char *s, size_t n)
{
	static const char fffd[] = "\xef\xbf\xbd";
	size_t i, k, out = 0;

	for (i = 0; i < n; i += k ? k : 1)
		out += (k = sdt_utf8_len(s + i, n - i)) ? k : sizeof(fffd) - 1;
	if (out == n) {
		pb_bytes(p, field, s, n);
		return;
	}
	tag(p, field, PB_LEN);
	varint(p, out);
	if (room(p, out))
		return;
	for (i = 0; i < n; i += k ? k : 1) {
		k = sdt_utf8_len(s + i, n - i);
		memcpy(p->buf + p->len, k ? s + i : fffd, k ? k : sizeof(fffd) - 1);
		p->len += k ? k : sizeof(fffd) - 1;
	}
}

void pb_string(struct pb *p, unsigned int field, const char *s)
{
	pb_string_n(p, field, s, strlen(s));
}

void pb_message(struct pb *p, unsigned int field, const struct pb *m)
{
	if (m->err && !p->err)
		p->err = m->err;
	pb_bytes(p, field, m->buf, m->len);
}
