/* SPDX-License-Identifier: MIT */
/*
 * stat --serve ADDR:PORT: the counts of a running `sdtrace stat` over HTTP, at /metrics, in the
 * Prometheus text format (prom-text.h), for a scraper to collect from a fleet of machines.
 *
 * Two threads, and the HTTP server's (serve-http.c: its limits and deadline). A scrape asks the
 * recorder to drain now (sdt_recorder__drain_now()) and waits, at most SERVE_WAIT_MS, for the
 * page rendered from that drain: the counters are read when the scrape arrives, so a scrape after
 * the work sees all of it. The recorder's thread (its on_drained) calls stat_serve_wanted() and
 * stat_serve_update(): it adds the counters up into rows and renders the page into a new buffer,
 * swapped in under the mutex. The server's thread answers with a copy of the page; it touches
 * nothing of the recorder but its drain_now.
 *
 * Rows: one per provider, event and binary (sites of one event with different argument layouts,
 * several recorder events, are added up), each with its labels in a list, so that more labels
 * (`--by` keys) can join; a file armed during the run (a program started later, a binary
 * replaced) brings its rows at the next scrape. At most STAT_SERVE_MAX_SERIES rows of each family
 * are served; those beyond are counted in sdtrace_series_dropped.
 */
#ifndef SDTRACE_CLI_STAT_SERVE_H
#define SDTRACE_CLI_STAT_SERVE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include <sdtrace/record.h>
#include <sdtrace/trace.h>

/* At most this many sdtrace_probe_hits_total series on the page (a scraper's memory is finite). */
#define STAT_SERVE_MAX_SERIES 10000u

/* ADDR:PORT as parsed: where to listen, and the text given (for messages). */
struct stat_serve_addr {
	struct sockaddr_storage ss;
	socklen_t len;
	bool any; /* ":PORT": every address, IPv6 and IPv4 */
	const char *text; /* borrowed: the option's argument */
};

/*
 * Parse @text: "ADDR:PORT" with ADDR a numeric IPv4 address, "[IPv6]", "localhost" (127.0.0.1)
 * or empty (every address), PORT 0 to 65535 (0: one the kernel picks; the message at the start
 * says which). Returns 0, or -EINVAL (nothing printed: the caller's usage error names @text).
 */
int stat_serve_parse(const char *text, struct stat_serve_addr *a);

struct stat_serve;

/*
 * Listen on @a and serve @rec's counts from libmicrohttpd's own thread; then print "sdtrace: serving metrics on
 * http://ADDR:PORT/metrics" to stderr. Until the first stat_serve_update() with rows, the page
 * has no hits. Returns 0 and *@out, or EXIT_RUNTIME after printing why (the address and
 * strerror: a port in use). Call it before any probe is placed.
 */
int stat_serve_start(const struct stat_serve_addr *a, struct sdt_recorder *rec,
		     struct stat_serve **out);
/*
 * From the recorder's thread, while @rec runs (on_drained) or after: the counts of @rec, its lost
 * records and @elapsed_ns since the probes were armed (@armed false: not yet) become the page.
 * Strings of @rec's event descriptions are borrowed until stat_serve_stop(), which must come
 * before sdt_recorder__free(). Out of memory, the previous page stays.
 */
void stat_serve_update(struct stat_serve *sv, const struct sdt_recorder *rec, bool armed,
		       uint64_t elapsed_ns);
/* In on_drained: does a scrape wait for this drain (then stat_serve_update())? */
bool stat_serve_wanted(struct stat_serve *sv, const struct sdt_recorder *rec);
/* After the run: the last page, served as it is until stat_serve_stop(). */
void stat_serve_finish(struct stat_serve *sv, const struct sdt_recorder *rec, bool armed,
		       uint64_t elapsed_ns);
struct stat_agg;
/*
 * With --by or --latency: the kernel's rows (sdt_recorder__agg_row()) are served too, as
 * sdtrace_probe_key_hits_total{provider,event,binary,NAME="value",...} (counting) or the histogram
 * sdtrace_pair_duration_seconds{pair,NAME="value",...} (pairs: _bucket with le from 1.024 us to
 * 34.4 s by powers of two, then +Inf; _sum, _count); a --by name that is no valid label name,
 * one of those, or one given before, is served as key_N. Rows whose labels are the same (one
 * event's sites with two argument layouts) are added up: never two samples with one label set.
 */
void stat_serve_set_agg(struct stat_serve *sv, const struct stat_agg *agg);
/* Stop serving (waits for libmicrohttpd's thread), close the socket, free @sv; NULL is fine. */
void stat_serve_stop(struct stat_serve *sv);

#endif
