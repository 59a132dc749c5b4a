/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: the HTTP request path of `stat --serve` (cli/serve-http.c over libmicrohttpd, with
 * its limits): the input is what a client sends on one connection, then it ends its side; the
 * server must answer with HTTP responses only, or close, within its deadline, and keep serving
 * (each run ends with a well-formed scrape on a connection of its own).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "serve-http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char page[] = "# TYPE m counter\nm{a=\"b\"} 1\n";

static int metrics(void *ctx, char **out, size_t *len)
{
	(void)ctx;
	*out = strdup(page);
	*len = sizeof(page) - 1;
	return *out ? 0 : -1;
}

static struct serve_http *h;
static uint32_t client;

/* Send @data on a new connection, end it, read the answer into @buf until the server closes. */
static size_t exchange(const void *data, size_t size, char *buf, size_t cap)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(40000)};
	size_t got = 0, sent = 0;
	int sv[2], tries;

	/* a new client address each time: the per-address limit is not what is fuzzed */
	sa.sin_addr.s_addr = htonl(0x0a000000u | (++client & 0xffffff));
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		abort();
	if (serve_http_add(h, sv[0], (struct sockaddr *)&sa, sizeof(sa))) {
		close(sv[1]);
		return 0;
	}
	while (sent <
	       size) { /* the server reads as it answers: no deadlock below a socket buffer */
		ssize_t n = write(sv[1], (const char *)data + sent, size - sent);

		if (n <= 0)
			break;
		sent += (size_t)n;
	}
	/*
	 * libmicrohttpd reads once per wake-up: bytes and the end of file sent together leave the
	 * end unseen until its idle timeout. So the end is sent once the bytes are read.
	 */
	for (tries = 0; tries < 2000; tries++) {
		int unread = 0;

		if (ioctl(sv[1], SIOCOUTQ, &unread) || !unread)
			break;
		usleep(500);
	}
	shutdown(sv[1], SHUT_WR);
	for (;;) {
		struct pollfd p = {.fd = sv[1], .events = POLLIN};
		ssize_t n;

		/*
		 * A request the server still waits on (a body announced, not sent) is closed at its
		 * deadline; the client gives up first, within fuzz/run.sh's -timeout, and the
		 * scrape after checks that the server is still serving.
		 */
		if (poll(&p, 1, 3000) != 1)
			break;
		n = read(sv[1], buf + got, cap - got - 1);
		if (n <= 0)
			break;
		got += (size_t)n;
		if (got == cap - 1)
			got = 0; /* keep reading: only the start matters */
	}
	close(sv[1]);
	buf[got] = '\0';
	return got;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char scrape[] =
	    "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	static char buf[1 << 16];
	const struct serve_http_ops ops = {.metrics = metrics};
	size_t n;

	if (!h && serve_http_start(-1, &ops, &h))
		abort();
	if (size > 32768)
		return 0;
	n = exchange(data, size, buf, sizeof(buf));
	if (n && strncmp(buf, "HTTP/1.", 7))
		abort(); /* bytes that are no HTTP response */
	n = exchange(scrape, sizeof(scrape) - 1, buf, sizeof(buf));
	if (!n || strncmp(buf, "HTTP/1.1 200", 12) || !strstr(buf, page))
		abort(); /* the server stopped serving */
	return 0;
}
