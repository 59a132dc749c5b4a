/* SPDX-License-Identifier: MIT */
/* Strings shown to a person: UTF-8 as it is, the rest escaped (sdt_fput_escaped(), escape.h). */
#include <stdio.h>

#include "cli.h"
#include "escape.h"
#include "sdtrace/text.h"

void text_put_quoted(FILE *fp, const char *s, size_t len, bool cut)
{
	fputc('"', fp);
	sdt_fput_escaped(fp, s, len, SDT_ESC_QUOTED);
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
