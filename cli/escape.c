/* SPDX-License-Identifier: MIT */
/* Strings shown to a person: UTF-8 as it is, the rest escaped (see escape.h). */
#include <stdio.h>

#include "cli.h"
#include "escape.h"
#include "json.h"

void text_put_quoted(FILE *fp, const char *s, size_t len, bool cut)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	fputc('"', fp);
	while (p < end) {
		size_t n = *p >= 0x80 ? json_utf8_len(p) : 1;

		/* json_utf8_len() stops at the NUL that ends @s: never past @end */
		if (n > (size_t)(end - p))
			n = 0;
		if (n > 1 && !(p[0] == 0xc2 && p[1] < 0xa0)) {
			fwrite(p, 1, n, fp);
			p += n;
			continue;
		}
		if (n == 2) { /* a C1 control: its two bytes */
			fprintf(fp, "\\x%02x\\x%02x", p[0], p[1]);
			p += 2;
			continue;
		}
		switch (*p) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		default:
			if (*p < 0x20 || *p >= 0x7f)
				fprintf(fp, "\\x%02x", *p);
			else
				fputc(*p, fp);
		}
		p++;
	}
	if (cut)
		fputs("\xe2\x80\xa6", fp); /* … */
	fputc('"', fp);
}

const char *cli_fmt_ns(char *buf, size_t size, double v)
{
	if (v < 1e3)
		snprintf(buf, size, "%.0fns", v);
	else if (v < 1e6)
		snprintf(buf, size, "%.2fus", v / 1e3);
	else if (v < 1e9)
		snprintf(buf, size, "%.2fms", v / 1e6);
	else
		snprintf(buf, size, "%.3fs", v / 1e9);
	return buf;
}
