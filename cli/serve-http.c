/* SPDX-License-Identifier: MIT */
/* The HTTP server of stat --serve, its limits and its deadline (serve-http.h says which). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "serve-http.h"

/* How often the watchdog looks for connections past their deadline. */
#define WATCH_MS 250

/* A connection the watchdog knows: its socket while open (-1: a free slot), its request's start. */
struct conn_slot {
	int fd;
	bool cut; /* shut down already */
	uint64_t start_ns;
};

struct serve_http {
	struct serve_http_ops ops;
	struct MHD_Daemon *mhd;
	pthread_mutex_t lock; /* @slots, @stopping */
	pthread_cond_t wake;
	pthread_t watchdog;
	bool watching, stopping;
	/* more than MHD's limit: a slot frees only at NOTIFY_CLOSED, after MHD counts it gone */
	struct conn_slot slots[2 * SERVE_HTTP_MAX_CONNECTIONS];
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- the deadline ------------------------------------------------------------------------- */

/* libmicrohttpd's thread: a connection opens (a slot, its index + 1 as context) or closes. */
static void on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
			  enum MHD_ConnectionNotificationCode code)
{
	struct serve_http *h = cls;
	const union MHD_ConnectionInfo *ci;
	size_t i = (size_t)(uintptr_t)*socket_context;

	pthread_mutex_lock(&h->lock);
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
		for (i = 0; ci && i < sizeof(h->slots) / sizeof(h->slots[0]); i++) {
			if (h->slots[i].fd < 0) {
				h->slots[i] = (struct conn_slot){ci->connect_fd, false, mono_ns()};
				*socket_context = (void *)(uintptr_t)(i + 1);
				break;
			}
		}
	} else if (i) { /* closed: before libmicrohttpd closes the socket, so never a reused fd */
		h->slots[i - 1].fd = -1;
		*socket_context = NULL;
	}
	pthread_mutex_unlock(&h->lock);
}

/* libmicrohttpd's thread: a request answered; the next one on the connection starts its clock. */
static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
			 enum MHD_RequestTerminationCode code)
{
	struct serve_http *h = cls;
	const union MHD_ConnectionInfo *ci;
	size_t i;

	(void)con_cls;
	(void)code;
	ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	i = ci ? (size_t)(uintptr_t)ci->socket_context : 0;
	if (!i)
		return;
	pthread_mutex_lock(&h->lock);
	h->slots[i - 1].start_ns = mono_ns();
	pthread_mutex_unlock(&h->lock);
}

/* The watchdog: every WATCH_MS, shut down the connections past their deadline. */
static void *watchdog(void *arg)
{
	struct serve_http *h = arg;
	const uint64_t deadline = (uint64_t)SERVE_HTTP_DEADLINE_S * 1000000000u;
	struct timespec ts;
	size_t i;

	pthread_mutex_lock(&h->lock);
	while (!h->stopping) {
		uint64_t now = mono_ns();

		for (i = 0; i < sizeof(h->slots) / sizeof(h->slots[0]); i++) {
			struct conn_slot *s = &h->slots[i];

			/* libmicrohttpd sees its end of file, or a failed write, and closes it */
			if (s->fd >= 0 && !s->cut && now - s->start_ns > deadline) {
				shutdown(s->fd, SHUT_RDWR);
				s->cut = true;
			}
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += WATCH_MS * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&h->wake, &h->lock, &ts);
	}
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

/* ---- requests ----------------------------------------------------------------------------- */

static const char root_page[] =
    "<html><head><title>sdtrace stat</title></head><body>\n"
    "<p>sdtrace stat: the counts are at <a href=\"/metrics\">/metrics</a>.</p>\n"
    "</body></html>\n";

static enum MHD_Result reply(struct MHD_Connection *c, unsigned int status, const char *type,
			     const char *body, size_t len)
{
	struct MHD_Response *r;
	enum MHD_Result ret;

	r = MHD_create_response_from_buffer(len, (void *)body, MHD_RESPMEM_PERSISTENT);
	if (!r)
		return MHD_NO;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	ret = MHD_queue_response(c, status, r);
	MHD_destroy_response(r);
	return ret;
}

#define TEXT "text/plain; charset=utf-8"

/* libmicrohttpd's thread: once the request's headers are in. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
				  const char *method, const char *version, const char *upload,
				  size_t *upload_size, void **con_cls)
{
	static const char not_allowed[] = "only GET and HEAD\n";
	static const char not_found[] = "not found: the counts are at /metrics\n";
	static const char unavailable[] = "the counts could not be read (out of memory)\n";
	struct serve_http *h = cls;
	struct MHD_Response *r;
	enum MHD_Result ret;
	char *page = NULL;
	size_t len = 0;

	(void)version;
	(void)upload;
	(void)upload_size;
	(void)con_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, TEXT, not_allowed,
			     sizeof(not_allowed) - 1);
	if (!strcmp(url, "/"))
		return reply(c, MHD_HTTP_OK, "text/html; charset=utf-8", root_page,
			     sizeof(root_page) - 1);
	if (strcmp(url, "/metrics"))
		return reply(c, MHD_HTTP_NOT_FOUND, TEXT, not_found, sizeof(not_found) - 1);
	if (h->ops.metrics(h->ops.ctx, &page, &len))
		return reply(c, MHD_HTTP_SERVICE_UNAVAILABLE, TEXT, unavailable,
			     sizeof(unavailable) - 1);
	r = MHD_create_response_from_buffer(len, page, MHD_RESPMEM_MUST_FREE);
	if (!r) {
		free(page);
		return MHD_NO;
	}
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
				"text/plain; version=0.0.4; charset=utf-8");
	ret = MHD_queue_response(c, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return ret;
}

/* ---- start, stop -------------------------------------------------------------------------- */

int serve_http_start(int fd, const struct serve_http_ops *ops, struct serve_http **out)
{
	struct serve_http *h = calloc(1, sizeof(*h));
	pthread_condattr_t ca;
	struct MHD_OptionItem opts[] = {
	    {MHD_OPTION_LISTEN_SOCKET, fd, NULL}, /* first: left out without a socket */
	    {MHD_OPTION_CONNECTION_LIMIT, SERVE_HTTP_MAX_CONNECTIONS, NULL},
	    {MHD_OPTION_PER_IP_CONNECTION_LIMIT, SERVE_HTTP_PER_ADDRESS, NULL},
	    {MHD_OPTION_CONNECTION_TIMEOUT, SERVE_HTTP_IDLE_S, NULL},
	    {MHD_OPTION_CONNECTION_MEMORY_LIMIT, 16384, NULL},
	    {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)on_connection, h},
	    {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)on_completed, h},
	    {MHD_OPTION_END, 0, NULL},
	};
	sigset_t block, old;
	unsigned int flags = MHD_USE_AUTO_INTERNAL_THREAD;
	size_t i;
	int err = 0;

	*out = NULL;
	if (!h) {
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	h->ops = *ops;
	for (i = 0; i < sizeof(h->slots) / sizeof(h->slots[0]); i++)
		h->slots[i].fd = -1;
	pthread_mutex_init(&h->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&h->wake, &ca);
	pthread_condattr_destroy(&ca);
	if (fd < 0)
		flags |= MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC;
	/*
	 * The threads inherit this mask: every signal, so that those the recorder waits for reach
	 * its thread (sdtrace/record.h): the stop signals, and SIGCHLD, which tells it of the
	 * followed command's stops (taken by another thread, the command would stay stopped)
	 */
	sigfillset(&block);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	err = pthread_create(&h->watchdog, NULL, watchdog, h);
	h->watching = !err;
	if (!err)
		h->mhd = MHD_start_daemon(flags, 0, NULL, NULL, on_request, h, MHD_OPTION_ARRAY,
					  opts + (fd < 0), MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err || !h->mhd) {
		err = err ? -err : -EIO;
		if (fd >= 0)
			close(fd);
		serve_http_stop(h);
		return err;
	}
	*out = h;
	return 0;
}

int serve_http_add(struct serve_http *h, int fd, const struct sockaddr *sa, socklen_t len)
{
	return MHD_add_connection(h->mhd, fd, sa, len) == MHD_YES ? 0 : -EIO;
}

void serve_http_stop(struct serve_http *h)
{
	if (!h)
		return;
	if (h->mhd)
		MHD_stop_daemon(h->mhd); /* closes the listening socket and every connection */
	if (h->watching) {
		pthread_mutex_lock(&h->lock);
		h->stopping = true;
		pthread_cond_signal(&h->wake);
		pthread_mutex_unlock(&h->lock);
		pthread_join(h->watchdog, NULL);
	}
	pthread_cond_destroy(&h->wake);
	pthread_mutex_destroy(&h->lock);
	free(h);
}
