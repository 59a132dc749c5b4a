/* SPDX-License-Identifier: MIT */
/*
 * One question, every path (tests/e2e/t2100-one-answer.sh): the shapes on which the kernel's
 * answers and the report's used to differ. Provider "oneq", built -O2, with threads.
 *
 *	call__entry/call__return(fn, depth)  "top" around fib(11) and fib(10) on the main thread,
 *	                                     then fib(12) on each of 3 threads at once: nested
 *	                                     pairs of one thread and key
 *	op__start/op__done(key)              crossing pairs: start 1, start 2, done 1, done 2
 *	req__start/req__done(id)             a request handed between threads: started on one,
 *	                                     ended on another (pairs only by key)
 *	rpc_client_msg_tx_queue(client, serial)
 *	rpc_client_msg_rx(client, serial)    libvirt-style: with each request, a message queued on
 *	                                     the main thread and its reply received on the other;
 *	                                     differently named (paired by a provider file's
 *	                                     `@sdtrace pair:` note), client 1 and 2 in turn, serial
 *	                                     counting per client (pairs only by both)
 *	text(text, size)                     strings of lengths 0..10000 (size is not named
 *	                                     text_len: cut at the NUL), then one with every byte
 *	                                     value 1..255
 *	name(name, name_len)                 HotSpot-style: name_len bytes, not NUL-terminated
 *	                                     (0xff bytes follow, then a NUL)
 *	val(v)                               doubles 1.5, inf, -inf, nan
 *	deep__entry/deep__return(level)      with argument "deep" only: one recursion 1100 deep
 *	                                     (past the kernel's 1024 levels), nothing else
 *
 * Output (prog.h's format does not fit strings of any byte; these lines are the truth the test
 * compares with):
 *	calls N              the call__entry hits (every one returns)
 *	outer LO HI          the "top" call of the main thread lasted at least LO and at
 *	                     most HI ns between its two probes (CLOCK_MONOTONIC)
 *	text LEN HEX         per text hit, its bytes
 *	name LEN HEX         per name hit, the counted bytes
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <time.h>

#include "prog.h"

/* written at the start: a page never touched cannot be read by the probes */
static char fname[8], top[8];
static long calls;
static pthread_mutex_t calls_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static long fib(int n, int depth)
{
	long r;

	pthread_mutex_lock(&calls_lock);
	calls++;
	pthread_mutex_unlock(&calls_lock);
	STAP_PROBE2(oneq, call__entry, fname, depth);
	r = n < 2 ? n : fib(n - 1, depth + 1) + fib(n - 2, depth + 1);
	STAP_PROBE2(oneq, call__return, fname, depth);
	return r;
}

static void deep(int level)
{
	STAP_PROBE1(oneq, deep__entry, level);
	if (level < 1100)
		deep(level + 1);
	STAP_PROBE1(oneq, deep__return, level);
}

static void *worker(void *arg)
{
	(void)arg;
	fib(12, 0);
	return NULL;
}

/* a global: its operand is memory (8f@val_now(%rip)), which tracefs fetches too (not %xmm0) */
static double val_now;
static long req_id, req_client, req_serial;
static pthread_mutex_t req_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t req_cond = PTHREAD_COND_INITIALIZER;
static int req_ready, req_done;

/* The server's other thread: ends the request the main thread started. */
static void *finisher(void *arg)
{
	long n = (long)arg, i;

	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&req_lock);
		while (!req_ready)
			pthread_cond_wait(&req_cond, &req_lock);
		req_ready = 0;
		STAP_PROBE2(oneq, rpc_client_msg_rx, req_client, req_serial);
		STAP_PROBE1(oneq, req__done, req_id);
		req_done = 1;
		pthread_cond_broadcast(&req_cond);
		pthread_mutex_unlock(&req_lock);
	}
	return NULL;
}

static void put_hex(const char *what, const char *s, size_t len)
{
	size_t i;

	printf("%s %zu ", what, len);
	for (i = 0; i < len; i++)
		printf("%02x", (unsigned char)s[i]);
	putchar('\n');
}

static void texts(void)
{
	static const size_t lens[] = {0, 1, 125, 126, 127, 128, 4094, 4095, 4096, 5000, 10000};
	char *s = malloc(10001);
	size_t i, k;
	int size;

	if (!s)
		exit(1);
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		for (k = 0; k < lens[i]; k++)
			s[k] = (char)('a' + (k * 7) % 26);
		s[lens[i]] = '\0';
		size = (int)lens[i];
		put_hex("text", s, lens[i]);
		STAP_PROBE2(oneq, text, s, size);
	}
	for (k = 0; k < 255; k++)
		s[k] = (char)(k + 1);
	s[255] = '\0';
	size = 255;
	put_hex("text", s, 255);
	STAP_PROBE2(oneq, text, s, size);
	free(s);
}

static void names(void)
{
	static const char *const n[] = {"checkIndex", "hashCode", "<init>", ""};
	char buf[64];
	size_t i, len;
	int name_len;

	for (i = 0; i < sizeof(n) / sizeof(n[0]); i++) {
		len = strlen(n[i]);
		memcpy(buf, n[i], len);
		memset(buf + len, 0xff, 8); /* what follows the name: not part of it */
		buf[len + 8] = '\0';
		name_len = (int)len;
		put_hex("name", buf, len);
		STAP_PROBE2(oneq, name, buf, name_len);
	}
}

int main(int argc, char **argv)
{
	static const double vals[] = {1.5, INFINITY, -INFINITY, NAN};
	pthread_t t[3], f;
	unsigned long long t0, t1, t2, t3;
	long n = prog_rounds(argc, argv), i;
	int key;

	if (argc > 1 && !strcmp(argv[1], "deep")) {
		deep(1);
		return 0;
	}
	strcpy(fname, "fib");
	strcpy(top, "top");
	/* recursion: the outermost call's bounds, inside and outside its probes */
	calls++;
	t0 = now_ns();
	STAP_PROBE2(oneq, call__entry, top, 0);
	t1 = now_ns();
	fib(11, 1);
	fib(10, 1);
	t2 = now_ns();
	STAP_PROBE2(oneq, call__return, top, 0);
	t3 = now_ns();
	printf("outer %llu %llu\n", t2 - t1, t3 - t0);
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	/* crossing pairs */
	for (i = 0; i < n; i++) {
		key = 1;
		STAP_PROBE1(oneq, op__start, key);
		key = 2;
		STAP_PROBE1(oneq, op__start, key);
		key = 1;
		STAP_PROBE1(oneq, op__done, key);
		key = 2;
		STAP_PROBE1(oneq, op__done, key);
	}
	/* requests handed to another thread */
	pthread_create(&f, NULL, finisher, (void *)n);
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&req_lock);
		req_id = 1000 + i;
		req_client = 1 + i % 2;
		req_serial = i / 2;
		STAP_PROBE1(oneq, req__start, req_id);
		STAP_PROBE2(oneq, rpc_client_msg_tx_queue, req_client, req_serial);
		req_ready = 1;
		req_done = 0;
		pthread_cond_broadcast(&req_cond);
		while (!req_done)
			pthread_cond_wait(&req_cond, &req_lock);
		pthread_mutex_unlock(&req_lock);
	}
	pthread_join(f, NULL);
	texts();
	names();
	for (i = 0; i < 4; i++) {
		val_now = vals[i];
		STAP_PROBE1(oneq, val, val_now);
	}
	printf("calls %ld\n", calls);
	return 0;
}
