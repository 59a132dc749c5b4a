/* SPDX-License-Identifier: MIT */
/*
 * The HTTP server of `stat --serve` (libmicrohttpd, one thread of its own): GET or HEAD /metrics
 * answers with the page the caller's metrics() gives; / points there; another path is 404,
 * another method 405.
 *
 * Its clients are not trusted: anyone who can reach the address may connect. One address may not
 * starve the others, and no connection holds a slot for long:
 *
 *	limit                                   what happens past it
 *	SERVE_HTTP_PER_ADDRESS connections      the next one from that address is closed at once
 *	  from one client address
 *	SERVE_HTTP_MAX_CONNECTIONS in all       new ones wait in the kernel's backlog
 *	SERVE_HTTP_DEADLINE_S for one request,  the connection is shut down (a watchdog thread):
 *	  from its first byte (or the end of    a client sending a header line every few
 *	  the last one) to its answer's last    seconds, or reading the answer a byte at a
 *	  byte                                  time, is cut at the deadline
 *	SERVE_HTTP_IDLE_S without a byte        closed (libmicrohttpd's own timeout)
 *	16 KiB of request headers               refused (libmicrohttpd's memory limit)
 *
 * So a scraper from another address than the clients holding connections is answered at once,
 * and one from the same address within SERVE_HTTP_DEADLINE_S.
 */
#ifndef SDTRACE_CLI_SERVE_HTTP_H
#define SDTRACE_CLI_SERVE_HTTP_H

#include <stddef.h>
#include <sys/socket.h>

#define SERVE_HTTP_PER_ADDRESS	   8
#define SERVE_HTTP_MAX_CONNECTIONS 128
#define SERVE_HTTP_DEADLINE_S	   10
#define SERVE_HTTP_IDLE_S	   10

struct serve_http_ops {
	/*
	 * In the server's thread, for GET or HEAD /metrics: the page, malloc'ed (the server frees
	 * it), into *@page and *@len. 0, or -errno: the client gets a 503.
	 */
	int (*metrics)(void *ctx, char **page, size_t *len);
	void *ctx;
};

struct serve_http;

/*
 * Serve on the listening socket @fd (taken: closed by serve_http_stop(), or here on failure),
 * or on no socket (@fd -1: connections come from serve_http_add()). 0 and *@out, or -errno
 * (nothing printed). Every signal is blocked in the server's threads.
 */
int serve_http_start(int fd, const struct serve_http_ops *ops, struct serve_http **out);
/* A connected socket @fd to serve (taken), from the client at @sa. 0 or -errno. */
int serve_http_add(struct serve_http *h, int fd, const struct sockaddr *sa, socklen_t len);
/* Stop: waits for the threads, closes every connection and the socket; NULL is fine. */
void serve_http_stop(struct serve_http *h);

#endif
