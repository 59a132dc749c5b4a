/* SPDX-License-Identifier: MIT */
/* sdtrace report --latency: per probe pair the count, percentiles and a log2 histogram. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "json.h"
#include "sdtrace/latency.h"
#include "report.h"

int report_latency_new(const struct report_pairs *pairs, struct sdt_latency **out)
{
	struct sdt_latency *l;
	size_t i;

	if (sdt_latency__new(&l)) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	for (i = 0; pairs && i < pairs->n; i++) {
		if (sdt_latency__add_pair(l, pairs->start[i], pairs->end[i])) {
			cli_error("bad --pair '%s,%s': %s", pairs->start[i], pairs->end[i],
				  sdt_errmsg());
			sdt_latency__free(l);
			return EXIT_USAGE;
		}
	}
	*out = l;
	return 0;
}

int report_latency_kinds(const struct sdt_trace_reader *r, struct sdt_latency *l, size_t *shown)
{
	size_t n = sdt_trace_reader__kind_count(r);

	for (; *shown < n; (*shown)++) {
		const struct sdt_trace_kind *k = sdt_trace_reader__kind(r, *shown);

		if (sdt_latency__add_kind(l, sdt_trace_kind__provider(k),
					  sdt_trace_kind__name(k))) {
			cli_error("%s", sdt_errmsg());
			return EXIT_RUNTIME;
		}
	}
	return 0;
}

/* The terminal's width: $COLUMNS, else the tty's, else 80. */
static unsigned int term_width(FILE *out)
{
	const char *cols = getenv("COLUMNS");
	struct winsize ws;
	char *end;

	if (cols && *cols) {
		unsigned long v = strtoul(cols, &end, 10);

		if (!*end && v >= 20 && v <= 1000)
			return (unsigned int)v;
	}
	if (isatty(fileno(out)) && !ioctl(fileno(out), TIOCGWINSZ, &ws) && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/* A duration for people: 850ns, 12.34us, 1.50ms, 2.000s. */
static const char *fmt_ns(char *buf, size_t size, double v)
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

/* A power of two of nanoseconds, as bpftrace labels its buckets: 512, 1K, 64M, 2G. */
static const char *fmt_pow2(char *buf, size_t size, unsigned int b)
{
	static const char units[] = " KMGTPE";
	unsigned int u = b / 10;

	if (b >= 64)
		snprintf(buf, size, "2^64");
	else
		snprintf(buf, size, "%" PRIu64 "%.*s", (uint64_t)1 << (b - u * 10), u ? 1 : 0,
			 &units[u]);
	return buf;
}

/* The log2 buckets to show: from the first to the last non-empty one. */
static bool log2_range(const struct sdt_latency *l, size_t pair, unsigned int *lo, unsigned int *hi)
{
	unsigned int b;
	bool any = false;

	for (b = 0; b < SDT_LATENCY_LOG2_BUCKETS; b++) {
		if (!sdt_latency__log2(l, pair, b))
			continue;
		if (!any)
			*lo = b;
		*hi = b;
		any = true;
	}
	return any;
}

static void print_text(const struct sdt_latency *l, size_t pair, unsigned int width, FILE *out)
{
	struct sdt_latency_stats s;
	char a[32], b[32], c[32], d[32], e[32], f[32];
	unsigned int lo = 0, hi = 0, i, bar;
	uint64_t most = 0;

	sdt_latency__stats(l, pair, &s);
	/* names come from the file: escaped */
	cli_put_escaped(out, sdt_latency__pair_name(l, pair));
	fputs("  (", out);
	cli_put_escaped(out, sdt_latency__pair_start(l, pair));
	fputs(" -> ", out);
	cli_put_escaped(out, sdt_latency__pair_end(l, pair));
	fputs(")\n", out);
	fprintf(out, "  count %" PRIu64, s.count);
	if (s.count)
		fprintf(
		    out, "  min %s  avg %s  p50 %s  p90 %s  p99 %s  max %s",
		    fmt_ns(a, sizeof(a), (double)s.min_ns), fmt_ns(b, sizeof(b), s.avg_ns),
		    fmt_ns(c, sizeof(c), (double)s.p50_ns), fmt_ns(d, sizeof(d), (double)s.p90_ns),
		    fmt_ns(e, sizeof(e), (double)s.p99_ns), fmt_ns(f, sizeof(f), (double)s.max_ns));
	fputc('\n', out);
	if (s.unmatched_starts || s.unmatched_ends)
		fprintf(out,
			"  unmatched: %" PRIu64 " starts (never ended), %" PRIu64
			" ends (no start on their thread)\n",
			s.unmatched_starts, s.unmatched_ends);
	if (!log2_range(l, pair, &lo, &hi)) {
		fputc('\n', out);
		return;
	}
	for (i = lo; i <= hi; i++)
		if (sdt_latency__log2(l, pair, i) > most)
			most = sdt_latency__log2(l, pair, i);
	/* "  [512, 1K)  12345678 |@@@@   |": 2 + 14 + 1 + 10 + 2 + bar + 1 */
	bar = width > 30 + 10 ? width - 30 : 10;
	fprintf(out, "  %-14s %10s\n", "ns (K=1024)", "count");
	for (i = lo; i <= hi; i++) {
		uint64_t n = sdt_latency__log2(l, pair, i);
		unsigned int w = (unsigned int)((double)n * bar / (double)most + 0.5), k;
		char label[80];

		if (i == 0)
			snprintf(label, sizeof(label), "[0]");
		else
			snprintf(label, sizeof(label), "[%s, %s)", fmt_pow2(a, sizeof(a), i - 1),
				 fmt_pow2(b, sizeof(b), i));
		if (n && !w)
			w = 1;
		fprintf(out, "  %-14s %10" PRIu64 " |", label, n);
		for (k = 0; k < bar; k++)
			fputc(k < w ? '@' : ' ', out);
		fputs("|\n", out);
	}
	fputc('\n', out);
}

static void print_json(struct json *j, const struct sdt_latency *l, size_t pair)
{
	struct sdt_latency_stats s;
	unsigned int lo = 0, hi = 0, b;

	sdt_latency__stats(l, pair, &s);
	json_begin_object(j);
	json_key(j, "name");
	json_string(j, sdt_latency__pair_name(l, pair));
	json_key(j, "start");
	json_string(j, sdt_latency__pair_start(l, pair));
	json_key(j, "end");
	json_string(j, sdt_latency__pair_end(l, pair));
	json_key(j, "count");
	json_uint(j, s.count);
#define STAT(key, expr)                                                                            \
	do {                                                                                       \
		json_key(j, key);                                                                  \
		if (s.count)                                                                       \
			json_uint(j, expr);                                                        \
		else                                                                               \
			json_null(j);                                                              \
	} while (0)
	STAT("min_ns", s.min_ns);
	json_key(j, "avg_ns");
	if (s.count)
		json_double(j, s.avg_ns);
	else
		json_null(j);
	STAT("p50_ns", s.p50_ns);
	STAT("p90_ns", s.p90_ns);
	STAT("p99_ns", s.p99_ns);
	STAT("max_ns", s.max_ns);
#undef STAT
	json_key(j, "unmatched_starts");
	json_uint(j, s.unmatched_starts);
	json_key(j, "unmatched_ends");
	json_uint(j, s.unmatched_ends);
	json_key(j, "histogram");
	json_begin_array(j);
	if (log2_range(l, pair, &lo, &hi)) {
		for (b = lo; b <= hi; b++) {
			json_begin_object(j);
			json_key(j, "low_ns");
			json_uint(j, b ? (uint64_t)1 << (b - 1) : 0);
			json_key(j, "high_ns"); /* exclusive */
			json_uint(j, b == 64 ? UINT64_MAX : (uint64_t)1 << b);
			json_key(j, "count");
			json_uint(j, sdt_latency__log2(l, pair, b));
			json_end_object(j);
		}
	}
	json_end_array(j);
	json_end_object(j);
}

int report_latency(struct sdt_trace_reader *r, const struct report_pairs *pairs,
		   const struct sdt_filter *filter, bool json, FILE *out)
{
	const struct report_event *ev;
	struct report_sorter *sorter = NULL;
	struct sdt_latency_step step;
	struct sdt_latency *l;
	size_t shown = 0, i, active = 0;
	struct json j;
	int err, ret;

	ret = report_latency_new(pairs, &l);
	if (ret)
		return ret;
	if (report_sorter_new(r, &sorter)) {
		cli_error("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	report_sorter_set_filter(sorter, filter);
	while ((err = report_sorter_next(sorter, &ev)) > 0) {
		struct sdt_latency_event_opts eo = {.sz = sizeof(eo), .verdict = ev->verdict};

		ret = report_latency_kinds(r, l, &shown);
		if (ret)
			goto out;
		if (sdt_latency__event_opts(l, sdt_trace_kind__provider(ev->kind),
					    sdt_trace_kind__name(ev->kind), ev->pid, ev->tid,
					    ev->time_ns, &eo, &step)) {
			err = -ENOMEM;
			break;
		}
	}
	if (err < 0) {
		cli_error("%s", err == -ENOMEM ? "out of memory" : sdt_errmsg());
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (report_sorter_late(sorter))
		cli_warn("%" PRIu64
			 " events came more than 1 s after newer ones: paired out of order",
			 report_sorter_late(sorter));
	sdt_latency__finish(l, NULL, NULL);
	if (json) {
		json_init(&j, out, false);
		json_begin_object(&j);
		json_key(&j, "pairs");
		json_begin_array(&j);
	}
	for (i = 0; i < sdt_latency__pair_count(l); i++) {
		if (!sdt_latency__pair_active(l, i))
			continue;
		active++;
		if (json)
			print_json(&j, l, i);
		else
			print_text(l, i, term_width(out), out);
	}
	if (json) {
		json_end_array(&j);
		json_key(&j, "percentiles");
		json_string(&j, "nearest rank; exact below 128 ns, else within 1/128 (0.8%)");
		json_end_object(&j);
		json_newline(&j);
	} else if (!active) {
		cli_warn("no probe pairs in the recording: name them with --pair START,END");
	}
out:
	report_sorter_free(sorter);
	sdt_latency__free(l);
	return ret;
}
