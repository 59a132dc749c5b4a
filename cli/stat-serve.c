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
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "prom-text.h"
#include "serve-http.h"
#include "stat-agg.h"
#include "stat-serve.h"

/* Labels of one row: provider, event, binary. */
#define ROW_MAX_LABELS 3
/* The longest a scrape waits for the recorder's drain before it gets the last page. */
#define SERVE_WAIT_MS 2000

struct serve_row {
	struct prom_label labels[ROW_MAX_LABELS]; /* values borrowed from the recorder's descs */
	size_t nlabels;
	uint64_t count;
};

struct stat_serve {
	const struct stat_agg *agg; /* --by, --latency: keyed series too */
	struct sdt_recorder *rec;   /* asked to drain at each scrape */
	struct serve_http *http;
	pthread_mutex_t lock;
	pthread_cond_t fresh; /* a page was published */
	/* under @lock */
	char *page; /* the last rendering, @page_len bytes */
	size_t page_len;
	bool live;	   /* the recorder's loop runs: a scrape asks it to drain */
	uint64_t want;	   /* the ticket of the scrape waiting (0: none) */
	uint64_t answered; /* the page was rendered from a drain that answers tickets up to it */
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
	/* a restart right after a stop finds its port in TIME_WAIT; a live listener refuses */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (sa->sa_family == AF_INET6 && a->any)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, sa, len) || listen(fd, 128) ||
	    getsockname(fd, (struct sockaddr *)bound, &blen)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

/* ---- the page ----------------------------------------------------------------------------- */

void stat_serve_set_agg(struct stat_serve *sv, const struct stat_agg *agg)
{
	if (sv)
		sv->agg = agg;
}

/*
 * The label name of --by name @i: itself when it can be one, is not ours and not an earlier
 * one's (@taken, @ntaken), else key_N.
 */
static const char *by_label(const char *name, size_t i, const char *const *taken, size_t ntaken,
			    char *buf, size_t size)
{
	static const char *const ours[] = {"provider", "event", "binary", "pair", "quantile", "le"};
	bool ok = prom_name_ok(name) && strncmp(name, "__", 2) && strncmp(name, "key_", 4);
	size_t k;

	for (k = 0; ok && k < sizeof(ours) / sizeof(ours[0]); k++)
		ok = strcmp(name, ours[k]) != 0;
	for (k = 0; ok && k < ntaken; k++)
		ok = strcmp(name, taken[k]) != 0;
	if (ok)
		return name;
	snprintf(buf, size, "key_%zu", i + 1);
	return buf;
}

/*
 * The histogram's bounds: every power of two from 2^HIST_FIRST ns (1.024 us) to 2^HIST_LAST ns
 * (34.4 s), then +Inf. Each is a bucket boundary of the kernel's (4 per power of two: bucket
 * 4 * b starts at 2^b ns), so each _bucket count is exact: the pairs shorter than the bound.
 */
#define HIST_FIRST  10
#define HIST_LAST   35
#define HIST_BOUNDS (HIST_LAST - HIST_FIRST + 1)

/* One series of the keys' family: its labels as text (name="value",...), its numbers. */
struct key_sample {
	char *labels;
	uint64_t count, sum_ns;
	uint64_t below[HIST_BOUNDS]; /* pairs: those shorter than 2^(HIST_FIRST + i) ns */
};

static int cmp_sample(const void *a, const void *b)
{
	return strcmp(((const struct key_sample *)a)->labels,
		      ((const struct key_sample *)b)->labels);
}

/* @r's pair durations below each bound (cumulative, as Prometheus's le buckets). */
static void hist_below(const struct sdt_agg_row *r, uint64_t *below)
{
	uint64_t seen = 0;
	size_t i, b = 0;

	for (i = 0; r->hist && i < 4 * (size_t)HIST_LAST; i++) {
		if (i == 4 * (size_t)(HIST_FIRST + b))
			below[b++] = seen;
		seen += r->hist[i];
	}
	for (; b < HIST_BOUNDS; b++)
		below[b] = seen;
}

#define KEY_LABELS (4 + SDT_AGG_MAX_PARTS)

/*
 * The kernel's rows as samples, their labels rendered: @*out (@*n of them), sorted by labels and
 * merged where two rows have one label set (one event's sites with two argument layouts), so
 * that no two samples share one. 0 or -ENOMEM.
 */
static int key_samples(const struct stat_serve *sv, const struct sdt_recorder *rec,
		       struct key_sample **out, size_t *nout)
{
	char names[SDT_AGG_MAX_PARTS][32], vals[SDT_AGG_MAX_PARTS][160];
	const char *taken[KEY_LABELS];
	struct prom_label l[KEY_LABELS];
	size_t i, p, k, nby, n = sdt_recorder__agg_count(rec), len;
	const char *const *by = stat_agg_by(sv->agg, &nby);
	bool lat = stat_agg_latency(sv->agg);
	struct key_sample *ks = calloc(n ? n : 1, sizeof(*ks));
	FILE *fp;

	if (!ks)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct sdt_agg_row *r = sdt_recorder__agg_row(rec, i);
		const struct sdt_trace_event_desc *d = sdt_recorder__event(rec, r->event);
		size_t nl = 0;

		if (r->past_cap)
			continue; /* counted by sdtrace_key_hits_dropped_total */
		if (lat) {
			l[nl++] = (struct prom_label){"pair", stat_agg_pair_name(sv->agg, r->pair)};
		} else {
			l[nl++] = (struct prom_label){"provider",
						      d ? sdt_trace_event_desc__provider(d) : "?"};
			l[nl++] =
			    (struct prom_label){"event", d ? sdt_trace_event_desc__name(d) : "?"};
			l[nl++] =
			    (struct prom_label){"binary", d ? sdt_trace_event_desc__path(d) : "?"};
		}
		for (p = 0; p < r->nvalues && p < nby && p < SDT_AGG_MAX_PARTS; p++) {
			for (k = 0; k < p; k++)
				taken[k] = l[nl - p + k].name;
			l[nl++] = (struct prom_label){
			    by_label(by[p], p, taken, p, names[p], sizeof(names[p])),
			    stat_agg_value_text(&r->values[p], vals[p], sizeof(vals[p]))};
		}
		fp = open_memstream(&ks[i].labels, &len);
		if (!fp)
			goto fail;
		prom_put_labels(fp, l, nl);
		if (fclose(fp))
			goto fail;
		ks[i].count = r->count;
		ks[i].sum_ns = r->sum_ns;
		if (lat)
			hist_below(r, ks[i].below);
	}
	qsort(ks, n, sizeof(*ks), cmp_sample);
	for (i = k = 0; i < n; i++) {
		if (k && !strcmp(ks[k - 1].labels, ks[i].labels)) {
			ks[k - 1].count += ks[i].count;
			ks[k - 1].sum_ns += ks[i].sum_ns;
			for (p = 0; p < HIST_BOUNDS; p++)
				ks[k - 1].below[p] += ks[i].below[p];
			free(ks[i].labels);
		} else {
			ks[k++] = ks[i];
		}
	}
	*out = ks;
	*nout = k;
	return 0;
fail:
	for (k = 0; k <= i && k < n; k++)
		free(ks[k].labels);
	free(ks);
	return -ENOMEM;
}

/* The kernel's rows of --by / --latency: a series each (at most STAT_SERVE_MAX_SERIES). */
static int render_keys(const struct stat_serve *sv, FILE *fp, const struct sdt_recorder *rec,
		       uint64_t *dropped)
{
	static const char hist_fam[] = "sdtrace_pair_duration_seconds";
	struct key_sample *ks = NULL;
	size_t i, b, n = 0;
	bool lat = stat_agg_latency(sv->agg);
	int err = key_samples(sv, rec, &ks, &n);

	if (err)
		return err;
	if (lat)
		prom_family(
		    fp, hist_fam, "histogram",
		    "Durations of each probe pair (start to end on one thread), per pair and "
		    "--by values, timed in the kernel; le: the pairs shorter than it.");
	else
		prom_family(fp, "sdtrace_probe_key_hits_total", "counter",
			    "Hits of each SDT event per --by values, counted in the kernel.");
	for (i = 0; i < n; i++) {
		const char *sep = *ks[i].labels ? "," : "";

		if (i >= STAT_SERVE_MAX_SERIES) {
			(*dropped)++;
		} else if (!lat) {
			fprintf(fp, "sdtrace_probe_key_hits_total{%s} %llu\n", ks[i].labels,
				(unsigned long long)ks[i].count);
		} else {
			for (b = 0; b < HIST_BOUNDS; b++)
				fprintf(fp, "%s_bucket{%s%sle=\"%.15g\"} %llu\n", hist_fam,
					ks[i].labels, sep, (double)(1ull << (HIST_FIRST + b)) / 1e9,
					(unsigned long long)ks[i].below[b]);
			fprintf(fp, "%s_bucket{%s%sle=\"+Inf\"} %llu\n", hist_fam, ks[i].labels,
				sep, (unsigned long long)ks[i].count);
			fprintf(fp, "%s_sum{%s} %.15g\n", hist_fam, ks[i].labels,
				(double)ks[i].sum_ns / 1e9);
			fprintf(fp, "%s_count{%s} %llu\n", hist_fam, ks[i].labels,
				(unsigned long long)ks[i].count);
		}
		free(ks[i].labels);
	}
	free(ks);
	return 0;
}

/* The whole page from the rows; NULL when out of memory. */
static char *render(const struct stat_serve *sv, const struct sdt_recorder *rec, bool armed,
		    uint64_t lost, uint64_t elapsed_ns, size_t *len)
{
	uint64_t dropped = sv->dropped;
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	size_t i;
	int err = 0;

	if (!fp)
		return NULL;
	prom_family(fp, "sdtrace_probe_hits_total", "counter",
		    "Hits of each SDT event since sdtrace armed its probes, per provider, event "
		    "and binary.");
	for (i = 0; i < sv->nrows; i++)
		prom_sample_u64(fp, "sdtrace_probe_hits_total", sv->rows[i].labels,
				sv->rows[i].nlabels, sv->rows[i].count);
	if (sv->agg && armed && rec)
		err = render_keys(sv, fp, rec, &dropped);
	prom_family(fp, "sdtrace_lost_total", "counter",
		    "Hits not counted: records the kernel dropped because a ring buffer was full.");
	prom_sample_u64(fp, "sdtrace_lost_total", NULL, 0, lost);
	prom_family(fp, "sdtrace_elapsed_seconds", "gauge",
		    "Seconds from every probe armed to this scrape's read of the counters.");
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
	if (fclose(fp) || err) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * libmicrohttpd's thread, for GET /metrics: while counting, ask the recorder for a drain and
 * wait (at most SERVE_WAIT_MS) for the page rendered from it; then a copy of the page.
 */
static int get_page(void *ctx, char **page, size_t *len)
{
	struct stat_serve *sv = ctx;
	struct timespec until;
	uint64_t ticket;
	char *copy;

	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += SERVE_WAIT_MS / 1000;
	until.tv_nsec += (SERVE_WAIT_MS % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&sv->lock);
	if (sv->live) {
		ticket = sdt_recorder__drain_now(sv->rec);
		sv->want = ticket;
		while (sv->live && sv->answered < ticket &&
		       pthread_cond_timedwait(&sv->fresh, &sv->lock, &until) != ETIMEDOUT)
			;
		sv->want = 0;
	}
	copy = malloc(sv->page_len ? sv->page_len : 1);
	if (copy)
		memcpy(copy, sv->page, sv->page_len);
	*len = sv->page_len;
	pthread_mutex_unlock(&sv->lock);
	*page = copy;
	return copy ? 0 : -ENOMEM;
}

bool stat_serve_wanted(struct stat_serve *sv, const struct sdt_recorder *rec)
{
	bool w;

	if (!sv)
		return false;
	pthread_mutex_lock(&sv->lock);
	w = sv->want && sdt_recorder__drained(rec) >= sv->want;
	pthread_mutex_unlock(&sv->lock);
	return w;
}

/* Swap @page (malloc'ed, @len bytes) in as the page served, answering the asks up to @ticket. */
static void publish(struct stat_serve *sv, char *page, size_t len, uint64_t ticket, bool live)
{
	char *old = NULL;

	pthread_mutex_lock(&sv->lock);
	if (page) {
		old = sv->page;
		sv->page = page;
		sv->page_len = len;
	}
	if (ticket > sv->answered)
		sv->answered = ticket;
	sv->live = live;
	pthread_cond_broadcast(&sv->fresh);
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

/* The rows' counts now, the page from them: published, answering the scrapes @ticket covers. */
static void update(struct stat_serve *sv, const struct sdt_recorder *rec, bool armed,
		   uint64_t elapsed_ns, bool live)
{
	uint64_t ticket = rec ? sdt_recorder__drained(rec) : 0;
	size_t i, len = 0;
	char *page = NULL;

	/* the events grow when a file met during the run is armed: its rows join */
	if (armed && (!sv->row_of || sdt_recorder__event_count(rec) != sv->nevents) &&
	    build_rows(sv, rec))
		goto out;
	for (i = 0; i < sv->nrows; i++)
		sv->rows[i].count = 0;
	for (i = 0; i < sv->nevents; i++) {
		if (sv->row_of[i] != SIZE_MAX)
			sv->rows[sv->row_of[i]].count += sdt_recorder__count(rec, i);
	}
	page = render(sv, rec, armed, sdt_recorder__lost(rec), elapsed_ns, &len);
out: /* out of memory: the last page stays, the scrape is answered with it */
	publish(sv, page, len, ticket, live);
}

void stat_serve_update(struct stat_serve *sv, const struct sdt_recorder *rec, bool armed,
		       uint64_t elapsed_ns)
{
	if (sv)
		update(sv, rec, armed, elapsed_ns, armed);
}

void stat_serve_finish(struct stat_serve *sv, const struct sdt_recorder *rec, bool armed,
		       uint64_t elapsed_ns)
{
	if (sv)
		update(sv, rec, armed, elapsed_ns, false);
}

/* ---- start, stop -------------------------------------------------------------------------- */

int stat_serve_start(const struct stat_serve_addr *a, struct sdt_recorder *rec,
		     struct stat_serve **out)
{
	const struct serve_http_ops ops = {.metrics = get_page};
	struct sockaddr_storage bound;
	struct stat_serve *sv = calloc(1, sizeof(*sv));
	struct serve_http_ops o = ops;
	pthread_condattr_t ca;
	char text[INET6_ADDRSTRLEN + 48];
	int fd, err;

	*out = NULL;
	if (!sv) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	sv->rec = rec;
	pthread_mutex_init(&sv->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&sv->fresh, &ca);
	pthread_condattr_destroy(&ca);
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
	o.ctx = sv;
	err = serve_http_start(fd, &o, &sv->http);
	if (err) {
		cli_error("cannot serve metrics on '%s': libmicrohttpd did not start: %s", a->text,
			  strerror(-err));
		goto fail;
	}
	addr_text(&bound, text, sizeof(text));
	fprintf(stderr, "sdtrace: serving metrics on http://%s/metrics\n", text);
	*out = sv;
	return 0;
fail:
	stat_serve_stop(sv);
	return EXIT_RUNTIME;
}

void stat_serve_stop(struct stat_serve *sv)
{
	if (!sv)
		return;
	if (sv->http) {
		/* a scrape waiting for a drain gets the last page at once */
		publish(sv, NULL, 0, 0, false);
		serve_http_stop(sv->http);
	}
	pthread_cond_destroy(&sv->fresh);
	pthread_mutex_destroy(&sv->lock);
	free(sv->page);
	free(sv->row_of);
	free(sv->rows);
	free(sv);
}
