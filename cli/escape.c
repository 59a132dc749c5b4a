/* SPDX-License-Identifier: MIT */
/* Strings shown to a person: UTF-8 as it is, the rest escaped (sdt_fput_escaped(), escape.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int cli_parse_ns(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
	char *end;
	double v;
	size_t i;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	v = strtod(s, &end);
	if (end == s || v != v)
		return -1;
	if (!*end && v == 0) {
		*ns = 0;
		return 0;
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].unit))
			continue;
		v *= units[i].scale;
		if (v >= 18446744073709551616.0)
			return -1;
		*ns = (uint64_t)(v + 0.5);
		return 0;
	}
	return -1;
}
