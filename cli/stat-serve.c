/* SPDX-License-Identifier: MIT */
/* stat --serve: the counts over HTTP at /metrics (stat-serve.h says how). */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <microhttpd.h>

#include "cli.h"
#include "prom-text.h"
#include "stat-agg.h"
#include "stat-serve.h"

/* Labels of one row: provider, event, binary; room for the keys a --by would add. */
#define ROW_MAX_LABELS 8
/* Connections served at once, and how long an idle one may stay (a scraper needs one). */
#define SERVE_MAX_CONNECTIONS 32
#define SERVE_IDLE_TIMEOUT_S 10

struct serve_row {
	struct prom_label labels[ROW_MAX_LABELS]; /* values borrowed from the recorder's descs */
	size_t nlabels;
	uint64_t count;
};

struct stat_serve {
	const struct stat_agg *agg; /* --by, --latency: keyed series too */
	struct MHD_Daemon *mhd;
	pthread_mutex_t lock;
	char *page; /* under @lock: the last rendering, @page_len bytes */
	size_t page_len;
	/* the recorder thread's own */
	size_t nevents;
	size_t *row_of; /* per recorder event, its row (SIZE_MAX: not served) */
	struct serve_row *rows;
	size_t nrows;
	uint64_t dropped; /* rows beyond STAT_SERVE_MAX_SERIES */
};

/* ---- ADDR:PORT ---------------------------------------------------------------------------- */

int stat_serve_parse(const char *text, struct stat_serve_addr *a)
{
	struct addrinfo hints = {0}, *ai = NULL;
	char host[INET6_ADDRSTRLEN + 64];
	const char *colon, *port, *h = text, *hend;
	char *end;
	unsigned long p;
	size_t hlen;

	memset(a, 0, sizeof(*a));
	a->text = text;
	if (*text == '[') { /* [IPv6]:PORT */
		hend = strchr(text, ']');
		if (!hend || hend[1] != ':')
			return -EINVAL;
		h = text + 1;
		colon = hend + 1;
	} else {
		colon = strrchr(text, ':');
		if (!colon || memchr(text, ':', (size_t)(colon - text)))
			return -EINVAL; /* no port, or a bare IPv6 address: it needs its [] */
		hend = colon;
	}
	port = colon + 1;
	if (*port < '0' || *port > '9')
		return -EINVAL;
	errno = 0;
	p = strtoul(port, &end, 10);
	if (*end || errno || p > 65535)
		return -EINVAL;
	hlen = (size_t)(hend - h);
	if (hlen >= sizeof(host))
		return -EINVAL;
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	if (!hlen && *text == '[')
		return -EINVAL;
	if (!hlen) { /* every address: IPv6 with IPv4 mapped (stat_serve_start() falls back) */
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&a->ss;

		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_any;
		s6->sin6_port = htons((uint16_t)p);
		a->len = sizeof(*s6);
		a->any = true;
		return 0;
	}
	if (!strcmp(host, "localhost"))
		memcpy(host, "127.0.0.1", sizeof("127.0.0.1"));
	hints.ai_family = *text == '[' ? AF_INET6 : AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	if (getaddrinfo(host, port, &hints, &ai) || !ai || ai->ai_addrlen > sizeof(a->ss)) {
		if (ai)
			freeaddrinfo(ai);
		return -EINVAL;
	}
	memcpy(&a->ss, ai->ai_addr, ai->ai_addrlen);
	a->len = ai->ai_addrlen;
	freeaddrinfo(ai);
	return 0;
}

/* "127.0.0.1:9464", "[::1]:9464" of a bound socket, into @buf. */
static void addr_text(const struct sockaddr_storage *ss, char *buf, size_t size)
{
	char host[INET6_ADDRSTRLEN + 32] = "?", port[16] = "?";

	getnameinfo((const struct sockaddr *)ss, sizeof(*ss), host, sizeof(host), port,
		    sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV);
	snprintf(buf, size, ss->ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, port);
}

/* A listening socket on @a, or -1 with errno. */
static int listen_on(const struct stat_serve_addr *a, struct sockaddr_storage *bound)
{
	struct sockaddr_in any4 = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_ANY)};
	const struct sockaddr *sa = (const struct sockaddr *)&a->ss;
	socklen_t len = a->len, blen = sizeof(*bound);
	int fd, one = 1, zero = 0, err;

	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 && a->any && errno == EAFNOSUPPORT) { /* a kernel without IPv6 */
		any4.sin_port = ((const struct sockaddr_in6 *)&a->ss)->sin6_port;
		sa = (const struct sockaddr *)&any4;
		len = sizeof(any4);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	}
	if (fd < 0)
		return -1;
	/* a restart right after a stop finds its port in TIME_WAIT; a live listener still refuses */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (sa->sa_family == AF_INET6 && a->any)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, sa, len) || listen(fd, 64) ||
	    getsockname(fd, (struct sockaddr *)bound, &blen)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* ---- the page ----------------------------------------------------------------------------- */

static const char root_page[] =
    "<html><head><title>sdtrace stat</title></head><body>\n"
    "<p>sdtrace stat: the counts are at <a href=\"/metrics\">/metrics</a>.</p>\n"
    "</body></html>\n";

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status, const char *type,
			     const char *body, size_t len)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_MUST_COPY);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

/* libmicrohttpd's thread: GET /metrics is the last page; / points there; the rest is 404. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	struct stat_serve *sv = cls;
	struct MHD_Response *r;
	enum MHD_Result ret;

	(void)version;
	(void)upload;
	(void)upload_size;
	(void)con_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, "text/plain; charset=utf-8",
			     "only GET and HEAD\n", 18);
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", root_page,
			     sizeof(root_page) - 1);
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, "text/plain; charset=utf-8",
			     "not found: the counts are at /metrics\n", 38);
	pthread_mutex_lock(&sv->lock);
	r = MHD_create_response_from_buffer(sv->page_len, sv->page, MHD_RESPMEM_MUST_COPY);
	pthread_mutex_unlock(&sv->lock);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, PROM_TEXT_CONTENT_TYPE);
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

void stat_serve_set_agg(struct stat_serve *sv, const struct stat_agg *agg)
{
	if (sv)
		sv->agg = agg;
}

/* The label name of --by name @i: itself when it can be one and is not ours, else key_N. */
static const char *by_label(const char *name, size_t i, char *buf, size_t size)
{
	static const char *const ours[] = {"provider", "event", "binary", "pair", "quantile", "le"};
	size_t k;

	for (k = 0; k < sizeof(ours) / sizeof(ours[0]); k++)
		if (!strcmp(name, ours[k]))
			break;
	if (k == sizeof(ours) / sizeof(ours[0]) && prom_name_ok(name) && strncmp(name, "__", 2))
		return name;
	snprintf(buf, size, "key_%zu", i + 1);
	return buf;
}

#define KEY_LABELS (4 + SDT_AGG_MAX_PARTS)

/* The kernel's rows of --by / --latency: a series each (at most STAT_SERVE_MAX_SERIES). */
static void render_keys(const struct stat_serve *sv, FILE *fp, const struct sdt_recorder *rec,
			uint64_t *dropped)
{
	static const double qs[] = {0.5, 0.9, 0.99};
	static const char *const qtext[] = {"0.5", "0.9", "0.99"};
	char names[SDT_AGG_MAX_PARTS][32], vals[SDT_AGG_MAX_PARTS][160];
	struct prom_label l[KEY_LABELS + 1];
	size_t i, p, nby, n = sdt_recorder__agg_count(rec), shown = 0;
	const char *const *by = stat_agg_by(sv->agg, &nby);
	bool lat = stat_agg_latency(sv->agg);
	const char *fam = lat ? "sdtrace_pair_duration_seconds" : "sdtrace_probe_key_hits_total";

	prom_family(fp, fam, lat ? "summary" : "counter",
		    lat ? "Durations of each probe pair (start to end on one thread), per pair and "
			  "--by values, timed in the kernel; quantiles within 12.5%."
			: "Hits of each SDT event per --by values, counted in the kernel.");
	for (i = 0; i < n; i++) {
		const struct sdt_agg_row *r = sdt_recorder__agg_row(rec, i);
		const struct sdt_trace_event_desc *d = sdt_recorder__event(rec, r->event);
		size_t nl = 0, q;

		if (shown++ >= STAT_SERVE_MAX_SERIES) {
			(*dropped)++;
			continue;
		}
		if (lat) {
			l[nl++] = (struct prom_label){"pair", stat_agg_pair_name(sv->agg, r->pair)};
		} else {
			l[nl++] = (struct prom_label){"provider", d ? sdt_trace_event_desc__provider(d) : "?"};
			l[nl++] = (struct prom_label){"event", d ? sdt_trace_event_desc__name(d) : "?"};
			l[nl++] = (struct prom_label){"binary", d ? sdt_trace_event_desc__path(d) : "?"};
		}
		for (p = 0; p < r->nvalues && p < nby && p < SDT_AGG_MAX_PARTS; p++)
			l[nl++] = (struct prom_label){
			    by_label(by[p], p, names[p], sizeof(names[p])),
			    stat_agg_value_text(&r->values[p], vals[p], sizeof(vals[p]))};
		if (!lat) {
			prom_sample_u64(fp, fam, l, nl, r->count);
			continue;
		}
		for (q = 0; q < 3; q++) {
			l[nl] = (struct prom_label){"quantile", qtext[q]};
			prom_sample_double(fp, fam, l, nl + 1,
					   (double)sdt_agg_row__percentile(r, qs[q] * 100) / 1e9);
		}
		prom_sample_double(fp, "sdtrace_pair_duration_seconds_sum", l, nl,
				   (double)r->sum_ns / 1e9);
		prom_sample_u64(fp, "sdtrace_pair_duration_seconds_count", l, nl, r->count);
	}
}

/* The whole page from the rows; NULL when out of memory. */
static char *render(const struct stat_serve *sv, const struct sdt_recorder *rec, bool armed,
		    uint64_t lost, uint64_t elapsed_ns, size_t *len)
{
	uint64_t dropped = sv->dropped;
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	size_t i;

	if (!fp)
		return NULL;
	prom_family(fp, "sdtrace_probe_hits_total", "counter",
		    "Hits of each SDT event since sdtrace armed its probes, per provider, event "
		    "and binary.");
	for (i = 0; i < sv->nrows; i++)
		prom_sample_u64(fp, "sdtrace_probe_hits_total", sv->rows[i].labels,
				sv->rows[i].nlabels, sv->rows[i].count);
	if (sv->agg && armed && rec)
		render_keys(sv, fp, rec, &dropped);
	prom_family(fp, "sdtrace_lost_total", "counter",
		    "Hits not counted: records the kernel dropped because a ring buffer was full.");
	prom_sample_u64(fp, "sdtrace_lost_total", NULL, 0, lost);
	prom_family(fp, "sdtrace_elapsed_seconds", "gauge",
		    "Seconds from every probe armed to the last read of the counters.");
	prom_sample_double(fp, "sdtrace_elapsed_seconds", NULL, 0, (double)elapsed_ns / 1e9);
	prom_family(fp, "sdtrace_armed", "gauge", "1 once every probe is armed and counting.");
	prom_sample_u64(fp, "sdtrace_armed", NULL, 0, armed);
	prom_family(fp, "sdtrace_series_dropped", "gauge",
		    "Series not served: beyond the cap of sdtrace stat --serve.");
	prom_sample_u64(fp, "sdtrace_series_dropped", NULL, 0, dropped);
	if (sv->agg) {
		uint64_t keys = 0;

		if (rec)
			sdt_recorder__agg_drops(rec, &keys, NULL, NULL);
		prom_family(fp, "sdtrace_key_hits_dropped_total", "counter",
			    "Hits of new --by keys past the kernel map's cap (--max-keys): not "
			    "counted per key.");
		prom_sample_u64(fp, "sdtrace_key_hits_dropped_total", NULL, 0, keys);
	}
	if (fclose(fp)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Swap @page (malloc'ed, @len bytes) in as the page served. */
static void publish(struct stat_serve *sv, char *page, size_t len)
{
	char *old;

	pthread_mutex_lock(&sv->lock);
	old = sv->page;
	sv->page = page;
	sv->page_len = len;
	pthread_mutex_unlock(&sv->lock);
	free(old);
}

/* ---- rows --------------------------------------------------------------------------------- */

struct event_key {
	const char *provider, *name, *path;
	size_t event;
};

static int cmp_key(const void *a, const void *b)
{
	const struct event_key *x = a, *y = b;
	int c = strcmp(x->provider, y->provider);

	if (!c)
		c = strcmp(x->name, y->name);
	if (!c)
		c = strcmp(x->path, y->path);
	return c;
}

/*
 * The rows of @rec's events, once (the events are fixed once armed): one per provider, event and
 * binary, sorted; every event's row in @sv->row_of. 0 or -ENOMEM.
 */
static int build_rows(struct stat_serve *sv, const struct sdt_recorder *rec)
{
	size_t n = sdt_recorder__event_count(rec), i, k = 0, cur = SIZE_MAX;
	struct event_key *keys = calloc(n ? n : 1, sizeof(*keys));
	size_t *row_of = malloc((n ? n : 1) * sizeof(*row_of));
	struct serve_row *rows = calloc(n ? n : 1, sizeof(*rows));
	int ret = -ENOMEM;

	if (!keys || !row_of || !rows)
		goto out;
	for (i = 0; i < n; i++) {
		const struct sdt_trace_event_desc *d = sdt_recorder__event(rec, i);
		const char *path = d ? sdt_trace_event_desc__path(d) : NULL;

		row_of[i] = SIZE_MAX;
		if (!d || !sdt_trace_event_desc__provider(d) || !sdt_trace_event_desc__name(d))
			continue;
		keys[k].provider = sdt_trace_event_desc__provider(d);
		keys[k].name = sdt_trace_event_desc__name(d);
		keys[k].path = path ? path : "";
		keys[k].event = i;
		k++;
	}
	qsort(keys, k, sizeof(*keys), cmp_key);
	sv->nrows = 0;
	sv->dropped = 0;
	for (i = 0; i < k; i++) {
		if (!i || cmp_key(&keys[i - 1], &keys[i])) {
			if (sv->nrows == STAT_SERVE_MAX_SERIES) {
				sv->dropped++;
				cur = SIZE_MAX;
			} else {
				struct serve_row *r = &rows[cur = sv->nrows++];

				r->labels[0] = (struct prom_label){"provider", keys[i].provider};
				r->labels[1] = (struct prom_label){"event", keys[i].name};
				r->labels[2] = (struct prom_label){"binary", keys[i].path};
				r->nlabels = 3;
			}
		}
		row_of[keys[i].event] = cur;
	}
	free(sv->row_of);
	free(sv->rows);
	sv->row_of = row_of;
	sv->rows = rows;
	sv->nevents = n;
	row_of = NULL;
	rows = NULL;
	ret = 0;
out:
	free(keys);
	free(row_of);
	free(rows);
	return ret;
}

void stat_serve_update(struct stat_serve *sv, const struct sdt_recorder *rec, bool armed,
		       uint64_t elapsed_ns)
{
	size_t i, len = 0;
	char *page;

	if (!sv)
		return;
	if (armed && !sv->row_of && build_rows(sv, rec))
		return;
	for (i = 0; i < sv->nrows; i++)
		sv->rows[i].count = 0;
	for (i = 0; i < sv->nevents; i++) {
		if (sv->row_of[i] != SIZE_MAX)
			sv->rows[sv->row_of[i]].count += sdt_recorder__count(rec, i);
	}
	page = render(sv, rec, armed, sdt_recorder__lost(rec), elapsed_ns, &len);
	if (page)
		publish(sv, page, len);
}

/* ---- start, stop -------------------------------------------------------------------------- */

int stat_serve_start(const struct stat_serve_addr *a, struct stat_serve **out)
{
	struct sockaddr_storage bound;
	struct stat_serve *sv = calloc(1, sizeof(*sv));
	sigset_t block, old;
	char text[INET6_ADDRSTRLEN + 48];
	int fd = -1;

	*out = NULL;
	if (!sv) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	pthread_mutex_init(&sv->lock, NULL);
	sv->page = render(sv, NULL, false, 0, 0, &sv->page_len);
	if (!sv->page) {
		cli_error("out of memory");
		goto fail;
	}
	fd = listen_on(a, &bound);
	if (fd < 0) {
		cli_error("cannot serve metrics on '%s': %s", a->text, strerror(errno));
		goto fail;
	}
	/*
	 * libmicrohttpd's thread inherits this mask: every signal, so that those the recorder waits
	 * for reach its thread (sdtrace/record.h): the stop signals, and SIGCHLD, which tells it
	 * of the followed command's stops (taken by this thread, the command would stay stopped)
	 */
	sigfillset(&block);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	sv->mhd = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL, on_request, sv,
				   MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
				   MHD_OPTION_CONNECTION_LIMIT, (unsigned int)SERVE_MAX_CONNECTIONS,
				   MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)SERVE_IDLE_TIMEOUT_S,
				   MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!sv->mhd) {
		cli_error("cannot serve metrics on '%s': libmicrohttpd did not start", a->text);
		goto fail;
	}
	addr_text(&bound, text, sizeof(text));
	fprintf(stderr, "sdtrace: serving metrics on http://%s/metrics\n", text);
	*out = sv;
	return 0;
fail:
	if (fd >= 0)
		close(fd);
	pthread_mutex_destroy(&sv->lock);
	free(sv->page);
	free(sv);
	return EXIT_RUNTIME;
}

void stat_serve_stop(struct stat_serve *sv)
{
	if (!sv)
		return;
	if (sv->mhd)
		MHD_stop_daemon(sv->mhd); /* closes the listening socket too */
	pthread_mutex_destroy(&sv->lock);
	free(sv->page);
	free(sv->row_of);
	free(sv->rows);
	free(sv);
}
