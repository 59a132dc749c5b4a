/* SPDX-License-Identifier: MIT */
/*
 * stat --serve ADDR:PORT: the counts of a running `sdtrace stat` over HTTP, at /metrics, in the
 * Prometheus text format (prom-text.h), for a scraper to collect from a fleet of machines.
 *
 * Two threads. The recorder's (sdt_recorder__run(), whose on_drained reads the counters) calls
 * stat_serve_update(): it adds the counters up into rows and renders the whole page into a new
 * buffer, then swaps it in under the mutex. libmicrohttpd's own thread answers each request with a
 * copy of the last page, taken under the same mutex; it touches nothing of the recorder. So a
 * scrape never waits for the kernel, and the page is at most one drain interval old.
 *
 * Rows: one per provider, event and binary (sites of one event with different argument layouts,
 * several recorder events, are added up), each with its labels in a list, so that more labels
 * (`--by` keys) can join: at most STAT_SERVE_MAX_SERIES rows are served; those beyond are counted
 * in sdtrace_series_dropped.
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
 * Listen on @a and serve from libmicrohttpd's own thread; then print "sdtrace: serving metrics on
 * http://ADDR:PORT/metrics" to stderr. Until the first stat_serve_update() with rows, the page
 * has no hits. Returns 0 and *@out, or EXIT_RUNTIME after printing why (the address and
 * strerror: a port in use). Call it before any probe is placed.
 */
int stat_serve_start(const struct stat_serve_addr *a, struct stat_serve **out);
/*
 * From the recorder's thread, while @rec runs (on_drained) or after: the counts of @rec, its lost
 * records and @elapsed_ns since the probes were armed (@armed false: not yet) become the page.
 * Strings of @rec's event descriptions are borrowed until stat_serve_stop(), which must come
 * before sdt_recorder__free(). Out of memory, the previous page stays.
 */
void stat_serve_update(struct stat_serve *sv, const struct sdt_recorder *rec, bool armed,
		       uint64_t elapsed_ns);
struct stat_agg;
/*
 * With --by or --latency: the kernel's rows (sdt_recorder__agg_row()) are served too, as
 * sdtrace_probe_key_hits_total{provider,event,binary,NAME="value",...} (counting) or the summary
 * sdtrace_pair_duration_seconds{pair,NAME="value",...} (pairs: quantiles 0.5, 0.9, 0.99, _sum,
 * _count); a --by name that is no valid label name, or one of those, is served as key_N.
 */
void stat_serve_set_agg(struct stat_serve *sv, const struct stat_agg *agg);
/* Stop serving (waits for libmicrohttpd's thread), close the socket, free @sv; NULL is fine. */
void stat_serve_stop(struct stat_serve *sv);

#endif
