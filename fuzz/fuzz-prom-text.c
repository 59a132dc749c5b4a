/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: the Prometheus text writer (cli/prom-text.c) on hostile label values and numbers. The
 * input is cut at NUL bytes into label values; the page must be UTF-8 with no raw newline inside a
 * sample, each value must read back to its bytes (\\ a backslash, \xHH a byte: distinct keys stay
 * distinct), and two distinct values never give one text.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "prom-text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_VALUES 8

/* The label value of the text between the quotes (format escapes, then sdtrace's). */
static size_t read_back(const char *q, size_t n, char *out)
{
	size_t i, o = 0;
	char v[4096 * 4 + 8];
	size_t vn = 0;

	for (i = 0; i < n; i++) { /* the format: \\ \" \n */
		if (q[i] == '\\') {
			if (++i >= n)
				abort();
			if (q[i] == 'n')
				v[vn++] = '\n';
			else if (q[i] == '\\' || q[i] == '"')
				v[vn++] = q[i];
			else
				abort(); /* no other escape */
		} else {
			if (q[i] == '"' || q[i] == '\n')
				abort();
			v[vn++] = q[i];
		}
	}
	for (i = 0; i < vn; i++) { /* sdtrace's: \\ and \xHH */
		if (v[i] != '\\') {
			out[o++] = v[i];
			continue;
		}
		if (i + 1 < vn && v[i + 1] == '\\') {
			out[o++] = '\\';
			i++;
		} else if (i + 3 < vn && v[i + 1] == 'x') {
			char hex[3] = {v[i + 2], v[i + 3], 0};

			out[o++] = (char)strtoul(hex, NULL, 16);
			i += 3;
		} else {
			abort(); /* a lone backslash: not reversible */
		}
	}
	return o;
}

static void check_utf8(const unsigned char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		k = json_utf8_len(s + i);
		if (!k || k > n - i)
			abort();
		i += k;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[MAX_VALUES] = {"a", "b", "c", "d", "e", "f", "g", "h"};
	struct prom_label l[MAX_VALUES];
	char *vals[MAX_VALUES] = {0}, *page = NULL, *back = NULL, *p;
	size_t nl = 0, off = 0, len = 0, i;
	double d = 0;
	FILE *fp;

	if (size > 4096)
		return 0;
	while (off <= size && nl < MAX_VALUES) {
		const uint8_t *z = memchr(data + off, 0, size - off);
		size_t n = z ? (size_t)(z - (data + off)) : size - off;

		vals[nl] = strndup((const char *)data + off, n);
		if (!vals[nl])
			abort();
		l[nl] = (struct prom_label){names[nl], vals[nl]};
		nl++;
		off += n + 1;
	}
	if (size >= sizeof(d))
		memcpy(&d, data, sizeof(d));
	fp = open_memstream(&page, &len);
	if (!fp)
		abort();
	prom_family(fp, "m", "counter", "Help text: a \\ and a\nnewline.");
	prom_sample_u64(fp, "m", l, nl, 7);
	prom_sample_double(fp, "m", l, nl, d);
	if (fclose(fp))
		abort();
	check_utf8((const unsigned char *)page, len);
	/* line 3 (the first sample): m{a="...",b="..."} 7 */
	p = page;
	for (i = 0; i < 2; i++) {
		p = memchr(p, '\n', len - (size_t)(p - page));
		if (!p)
			abort();
		p++;
	}
	if (strncmp(p, "m{", 2))
		abort();
	p += 2;
	back = malloc(4096 * 4 + 8);
	if (!back)
		abort();
	for (i = 0; i < nl; i++) {
		char *q, *e;
		size_t bn;

		if (strncmp(p, names[i], 1) || strncmp(p + 1, "=\"", 2))
			abort();
		q = p + 3;
		for (e = q; *e && *e != '"'; e += *e == '\\' && e[1] ? 2 : 1)
			; /* an escape pair whole */
		if (*e != '"')
			abort();
		bn = read_back(q, (size_t)(e - q), back);
		if (bn != strlen(vals[i]) || memcmp(back, vals[i], bn))
			abort(); /* not reversible: two keys could share a label set */
		p = e + 1;
		if (*p == ',')
			p++;
	}
	if (strncmp(p, "} 7\n", 4))
		abort();
	free(back);
	free(page);
	for (i = 0; i < nl; i++)
		free(vals[i]);
	return 0;
}
