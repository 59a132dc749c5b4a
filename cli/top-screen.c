/* SPDX-License-Identifier: MIT */
/*
 * The frames of `sdtrace top` (top-screen.h). A frame is written whole, line by line: on a
 * terminal each line goes to its place (CUP, ESC [ row ; 1 H) and is cleared to its end
 * (EL, ESC [ K), and ED (ESC [ J) clears what is below the last one, so a frame never scrolls
 * and never leaves a longer line of the previous frame behind. Every byte shown that is not
 * printable ASCII becomes '?': event names come from ELF notes and the target from the command
 * line, and neither may send an escape sequence to the terminal. Being ASCII, a line's columns
 * are its bytes, so cutting to the width is cutting bytes.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "top-screen.h"

const char *top_sort_name(enum top_sort sort)
{
	switch (sort) {
	case TOP_SORT_TOTAL:
		return "total";
	case TOP_SORT_NAME:
		return "name";
	default:
		return "rate";
	}
}

static int cmp_name(const struct top_row *x, const struct top_row *y)
{
	int c = strcmp(x->provider, y->provider);

	return c ? c : strcmp(x->name, y->name);
}

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return (a < b) - (a > b);
}

static int cmp_rate(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;

	if (x->rate != y->rate)
		return x->rate < y->rate ? 1 : -1;
	if (x->total != y->total)
		return cmp_u64_desc(x->total, y->total);
	return cmp_name(x, y);
}

static int cmp_total(const void *a, const void *b)
{
	const struct top_row *x = a, *y = b;

	if (x->total != y->total)
		return cmp_u64_desc(x->total, y->total);
	return cmp_name(x, y);
}

static int cmp_by_name(const void *a, const void *b)
{
	return cmp_name(a, b);
}

void top_rows_sort(struct top_row *rows, size_t n, enum top_sort sort)
{
	int (*cmp)(const void *, const void *) = sort == TOP_SORT_TOTAL  ? cmp_total
						 : sort == TOP_SORT_NAME ? cmp_by_name
									 : cmp_rate;

	if (n)
		qsort(rows, n, sizeof(*rows), cmp);
}

/* Line @line (0-based) of the frame: the text of @fmt, shown safe and cut to @width. */
static void __attribute__((format(printf, 6, 7)))
put_line(FILE *fp, unsigned line, unsigned width, bool ansi, bool reverse, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;
	size_t len, i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	len = strlen(buf);
	for (i = 0; i < len; i++) {
		if ((unsigned char)buf[i] < 0x20 || (unsigned char)buf[i] >= 0x7f)
			buf[i] = '?';
	}
	if (width && len > width)
		len = width;
	if (!ansi) {
		fprintf(fp, "%.*s\n", (int)len, buf);
		return;
	}
	fprintf(fp, "\033[%u;1H%s%.*s", line + 1, reverse ? "\033[7m" : "", (int)len, buf);
	/* a reverse-video bar spans the width */
	for (i = len; reverse && i < width; i++)
		fputc(' ', fp);
	fprintf(fp, "%s\033[K", reverse ? "\033[0m" : "");
}

unsigned top_render_keys(FILE *fp, const char *title, const struct top_key *keys, size_t n,
			 unsigned line, unsigned width, unsigned lines, bool ansi)
{
	unsigned used = 0;
	size_t i;

	if (lines && lines < 2)
		return 0; /* no room for the title and one key */
	put_line(fp, line + used++, width, ansi, true, "%14s  %s", "count", title ? title : "key");
	for (i = 0; i < n && (!lines || used < lines); i++) {
		/* the last line that fits says what does not */
		if (lines && used + 1 == lines && i + 1 < n) {
			put_line(fp, line + used++, width, ansi, false, "%14s  ... %zu more keys", "",
				 n - i);
			break;
		}
		put_line(fp, line + used++, width, ansi, false, "%14llu  %s",
			 (unsigned long long)keys[i].count, keys[i].text);
	}
	return used;
}

unsigned top_render(FILE *fp, const struct top_header *h, const struct top_row *rows, size_t n,
		    size_t max_rows, const char *key_title, const struct top_key *keys,
		    size_t nkeys, unsigned width, unsigned height, bool ansi)
{
	unsigned line = 0, avail, key_lines = 0;
	size_t want, hidden, i;
	char engine[64];

	snprintf(engine, sizeof(engine), "%s  ", h->engine ? h->engine : "");
	/* the header: what the user watches first, the target last (a long command is cut) */
	if (!height || line < height)
		put_line(fp, line++, width, ansi, false,
			 "sdtrace top  %.1f s  %s%.1f hits/s  lost %llu  %s", h->elapsed_s, engine,
			 h->rate, (unsigned long long)h->lost, h->target ? h->target : "");
	if (!height || line < height)
		put_line(fp, line++, width, ansi, false, "%zu event%s, by %s%s%s", n,
			 n == 1 ? "" : "s", top_sort_name(h->sort), h->status ? "    " : "",
			 h->status ? h->status : "");
	if (!height || line < height)
		put_line(fp, line++, width, ansi, true, "%12s %10s %14s  %s", "rate/s", "interval",
			 "total", "event");
	avail = height ? height - line : 0;
	/* the keys of a --by get up to half of what is left, and a blank line above them */
	if (nkeys && height) {
		key_lines = (unsigned)(nkeys + 2 < avail / 2 ? nkeys + 2 : avail / 2);
		if (key_lines < 3)
			key_lines = 0;
		avail -= key_lines;
	}
	want = max_rows && max_rows < n ? max_rows : n;
	hidden = n - want;
	if (height && avail < want + (hidden ? 1 : 0)) {
		want = avail ? avail - 1 : 0; /* and the last line says how many more */
		hidden = n - want;
	}
	for (i = 0; i < want; i++)
		put_line(fp, line++, width, ansi, false, "%12.1f %10llu %14llu  %%%s:%s",
			 rows[i].rate, (unsigned long long)rows[i].count,
			 (unsigned long long)rows[i].total, rows[i].provider, rows[i].name);
	if (hidden && (!height || line < height))
		put_line(fp, line++, width, ansi, false, "%12s ... %zu more event%s", "", hidden,
			 hidden == 1 ? "" : "s");
	if (nkeys && (!height || key_lines)) {
		put_line(fp, line++, width, ansi, false, "%s", "");
		line += top_render_keys(fp, key_title, keys, nkeys, line, width,
					key_lines ? key_lines - 1 : 0, ansi);
	}
	if (ansi)
		fputs("\033[J", fp);
	return line;
}

static int cmp_proc(const void *a, const void *b)
{
	const struct top_proc *x = a, *y = b;

	if (x->busy != y->busy)
		return x->busy < y->busy ? 1 : -1;
	if (x->all != y->all)
		return cmp_u64_desc(x->all, y->all);
	return (x->pid > y->pid) - (x->pid < y->pid);
}

void top_procs_sort(struct top_proc *p, size_t n)
{
	if (n)
		qsort(p, n, sizeof(*p), cmp_proc);
}

unsigned top_render_procs(FILE *fp, const struct top_header *h, const struct top_proc *p,
			  size_t n, const char *const *cats, size_t ncats, size_t max_rows,
			  unsigned width, unsigned height, bool ansi)
{
	unsigned line = 0, avail;
	size_t want, hidden, i, k;
	char engine[64], row[4096];
	size_t len;

	snprintf(engine, sizeof(engine), "%s  ", h->engine ? h->engine : "");
	if (!height || line < height)
		put_line(fp, line++, width, ansi, false,
			 "sdtrace top  %.1f s  %s%.1f hits/s  lost %llu  %s", h->elapsed_s, engine,
			 h->rate, (unsigned long long)h->lost, h->target ? h->target : "");
	if (!height || line < height)
		put_line(fp, line++, width, ansi, false, "%zu process%s, busiest first%s%s", n,
			 n == 1 ? "" : "es", h->status ? "    " : "", h->status ? h->status : "");
	if (!height || line < height) {
		len = (size_t)snprintf(row, sizeof(row), "%7s %-16s", "PID", "COMM");
		for (k = 0; k < ncats && len < sizeof(row); k++)
			len += (size_t)snprintf(row + len, sizeof(row) - len, " %9s/s", cats[k]);
		put_line(fp, line++, width, ansi, true, "%s", row);
	}
	avail = height ? height - line : 0;
	want = max_rows && max_rows < n ? max_rows : n;
	hidden = n - want;
	if (height && avail < want + (hidden ? 1 : 0)) {
		want = avail ? avail - 1 : 0; /* and the last line says how many more */
		hidden = n - want;
	}
	for (i = 0; i < want; i++) {
		len = (size_t)snprintf(row, sizeof(row), "%7d %-16s", p[i].pid, p[i].comm);
		for (k = 0; k < ncats && len < sizeof(row); k++)
			len += (size_t)snprintf(row + len, sizeof(row) - len, " %11.1f", p[i].rate[k]);
		put_line(fp, line++, width, ansi, false, "%s", row);
	}
	if (hidden && (!height || line < height))
		put_line(fp, line++, width, ansi, false, "%7s ... %zu more process%s", "", hidden,
			 hidden == 1 ? "" : "es");
	if (ansi)
		fputs("\033[J", fp);
	return line;
}
