/* SPDX-License-Identifier: MIT */
/* Text from elsewhere made safe for a terminal (include/sdtrace/text.h): one escaper for all. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/internal.h"
#include "sdtrace/text.h"

size_t sdt_utf8_len(const char *str, size_t avail)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n, i;
	uint32_t cp;

	if (!avail)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (n > avail)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	/* overlong forms, surrogates, beyond U+10FFFF */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/*
 * The escaped form of the text at @p (before @end) into @out (at most 8 bytes, no NUL);
 * returns its length and sets *@used to the bytes of @p it stands for.
 */
static size_t escape_one(const unsigned char *p, const unsigned char *end, unsigned int flags,
			 char *out, size_t *used)
{
	size_t n = sdt_utf8_len((const char *)p, (size_t)(end - p));

	if (n > 1 && !(p[0] == 0xc2 && p[1] < 0xa0)) {
		memcpy(out, p, n);
		*used = n;
		return n;
	}
	if (n == 2) { /* a C1 control: its two bytes */
		*used = 2;
		return (size_t)snprintf(out, 9, "\\x%02x\\x%02x", p[0], p[1]);
	}
	*used = 1;
	switch (*p) {
	case '\n':
		return (size_t)snprintf(out, 9, "\\n");
	case '\t':
		return (size_t)snprintf(out, 9, "\\t");
	case '\r':
		return (size_t)snprintf(out, 9, "\\r");
	case '"':
	case '\\':
		if (!(flags & SDT_ESC_QUOTED))
			break;
		out[0] = '\\';
		out[1] = (char)*p;
		return 2;
	case ';':
		if (flags & SDT_ESC_FOLDED)
			return (size_t)snprintf(out, 9, "\\x3b");
		break;
	}
	if (*p < 0x20 || *p >= 0x7f)
		return (size_t)snprintf(out, 9, "\\x%02x", *p);
	out[0] = (char)*p;
	return 1;
}

size_t sdt_escape(char *dst, size_t size, const char *s, size_t len, unsigned int flags)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	size_t total = 0, used, n;
	char one[9];

	while (p < end) {
		n = escape_one(p, end, flags, one, &used);
		if (size && total + n < size)
			memcpy(dst + total, one, n);
		else if (size && total < size)
			size = total + 1; /* full: nothing more, not even a later shorter escape */
		total += n;
		p += used;
	}
	if (size)
		dst[total < size ? total : size - 1] = '\0';
	return total;
}

int sdt_fput_escaped(FILE *fp, const char *s, size_t len, unsigned int flags)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	size_t used, n;
	char one[9];

	while (p < end) {
		n = escape_one(p, end, flags, one, &used);
		if (fwrite(one, 1, n, fp) != n)
			return EOF;
		p += used;
	}
	return 0;
}
