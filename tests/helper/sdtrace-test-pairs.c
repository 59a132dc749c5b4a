/* SPDX-License-Identifier: MIT */
/*
 * Test helper: write a synthetic recording of probe pairs (for report --latency and
 * --format=chrome/csv) through the data-file writer, as tracefs would lay the records out.
 *
 *	sdtrace-test-pairs [-o FILE] pairs
 *	sdtrace-test-pairs [-o FILE] -n COUNT load
 *	sdtrace-test-pairs [-o FILE] migrate
 *
 * pairs: every case of the pairing rules, on 3 threads of 2 processes: an end before any start
 *   (the recording began inside the pair), nesting, recursion, pairs of every naming convention,
 *   one pair crossing another, starts never ended, a thread renamed, string and negative args.
 * migrate: one thread's events in the file out of time order, as two CPUs' rings give them.
 * load: COUNT events (pairs nested two deep and instants) on 8 threads of 2 processes, with
 *   pseudo-random durations: for memory and speed measurements.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sdtrace/sdtrace.h"
#include "trace/trace_file.h"

#define TIME0	 5000000000000ull
#define MAX_ARGS 4

struct kind {
	struct sdt_trace_event_desc d;
	struct sdt_trace_field fields[MAX_ARGS + 1];
	struct sdt_trace_arg args[MAX_ARGS];
};

static struct sdt_trace_writer *w;
static uint32_t next_index;
static const uint64_t site[] = {0x401200};

static void die(const char *what)
{
	fprintf(stderr, "sdtrace-test-pairs: %s: %s\n", what, sdt_errmsg());
	exit(1);
}

/*
 * A kind whose args are named by @names ("id,status"); a name starting with '$' is a string, the
 * others signed 64-bit integers. Layout: __probe_ip at 8, then one 8-byte field per argument
 * (strings: a 4-byte __data_loc in it).
 */
static void kind_init(struct kind *k, const char *provider, const char *name, const char *names)
{
	static char buf[64][16];
	static size_t nbuf;
	const char *p = names;

	memset(k, 0, sizeof(*k));
	k->d.index = next_index++;
	k->d.provider = (char *)provider;
	k->d.name = (char *)name;
	k->d.path = (char *)"/usr/bin/pairs-app";
	k->d.build_id = (char *)"00112233445566778899aabbccddeeff00112233";
	k->d.group = (char *)"sdtrace";
	k->d.event = (char *)name;
	k->d.tp_id = 2000 + k->d.index;
	k->d.site_addrs = (uint64_t *)site;
	k->d.nsites = 1;
	k->d.fields = k->fields;
	k->d.args = k->args;
	k->fields[0] =
	    (struct sdt_trace_field){.name = (char *)"__probe_ip", .offset = 8, .size = 8};
	k->d.nfields = 1;
	k->d.ip_field = 0;
	while (p && *p && k->d.nargs < MAX_ARGS) {
		size_t len = strcspn(p, ",");
		bool str = *p == '$';
		char *n = buf[nbuf++ % 64];
		size_t i = k->d.nargs;

		snprintf(n, sizeof(buf[0]), "%.*s", (int)(len - str), p + str);
		k->fields[i + 1] = (struct sdt_trace_field){.name = n,
							    .offset = (uint32_t)(16 + 8 * i),
							    .size = str ? 4 : 8,
							    .is_signed = !str,
							    .is_data_loc = str};
		k->args[i] = (struct sdt_trace_arg){.name = n,
						    .spec = (char *)(str ? "8@%rdi" : "-8@%rax"),
						    .size = 8,
						    .is_signed = !str,
						    .is_string = str,
						    .field = (int)(i + 1)};
		k->d.nfields++;
		k->d.nargs++;
		p += len + (p[len] == ',');
	}
	if (sdt_trace_writer__event(w, &k->d))
		die("event");
}

/* One sample of @k at @t: integer args from @v, string args from @s. */
static void emit(const struct kind *k, uint32_t pid, uint32_t tid, uint64_t t, const int64_t *v,
		 const char *s)
{
	uint8_t raw[256];
	uint32_t dyn = (uint32_t)(16 + 8 * k->d.nargs);
	uint64_t ip = site[0];
	uint16_t type = (uint16_t)k->d.tp_id;
	size_t i;
	struct sdt_trace_sample smp = {
	    .time_ns = t, .cpu = tid % 2, .pid = pid, .tid = tid, .event = k->d.index, .raw = raw};

	memset(raw, 0, sizeof(raw));
	memcpy(raw, &type, 2);
	memcpy(raw + 4, &pid, 4);
	memcpy(raw + 8, &ip, 8);
	for (i = 0; i < k->d.nargs; i++) {
		if (k->args[i].is_string) {
			const char *str = s ? s : "";
			size_t len = strlen(str) + 1;
			uint32_t loc = (uint32_t)(len << 16 | dyn);

			memcpy(raw + 16 + 8 * i, &loc, 4);
			memcpy(raw + dyn, str, len);
			dyn += (uint32_t)len;
		} else {
			memcpy(raw + 16 + 8 * i, &v[i], 8);
		}
	}
	smp.raw_size = (dyn + 4 + 7) / 8 * 8 - 4;
	if (sdt_trace_writer__sample(w, &smp))
		die("sample");
}

static void comm(uint32_t pid, uint32_t tid, const char *name)
{
	if (sdt_trace_writer__comm(w, pid, tid, name))
		die("comm");
}

#define V(...) ((const int64_t[]){__VA_ARGS__})

static void scenario_pairs(void)
{
	struct kind req_s, req_d, step_b, step_e, fn_in, fn_out, io_s, io_e, tick, lonely;
	uint64_t t = TIME0 + 1000;

	kind_init(&req_s, "app", "req__start", "id,$url");
	kind_init(&req_d, "app", "req__done", "id,status");
	kind_init(&step_b, "app", "step__begin", "n");
	kind_init(&step_e, "app", "step__end", "n");
	kind_init(&fn_in, "app", "fn__entry", "depth");
	kind_init(&fn_out, "app", "fn__return", "depth");
	kind_init(&io_s, "app", "io_start", "");
	kind_init(&io_e, "app", "io_end", "bytes");
	kind_init(&tick, "app", "tick", "v");
	kind_init(&lonely, "app", "lonely__start", "x"); /* no end recorded: an instant */
	comm(500, 500, "pairs-main");
	comm(500, 501, "pairs-worker");

	/* thread 500: the recording began inside a request */
	emit(&req_d, 500, 500, t += 10, V(0, 200), NULL);
	emit(&req_s, 500, 500, t += 100, V(1), "/a,\"quoted\"");
	emit(&step_b, 500, 500, t += 1000, V(1), NULL);
	emit(&tick, 500, 500, t += 50, V(-7), NULL);
	emit(&step_e, 500, 500, t += 2000, V(1), NULL);
	emit(&step_b, 500, 500, t += 10, V(2), NULL);
	emit(&step_b, 500, 500, t += 10, V(3), NULL); /* nested step */
	emit(&step_e, 500, 500, t += 300, V(3), NULL);
	emit(&step_e, 500, 500, t += 400, V(2), NULL);
	emit(&req_d, 500, 500, t += 5000, V(1, 200), NULL);
	emit(&lonely, 500, 500, t += 5, V(9), NULL);
	/* thread 501, interleaved in time: io crosses a request */
	emit(&io_s, 500, 501, t += 7, V(0), NULL);
	emit(&req_s, 500, 501, t += 20, V(2), "/b");
	emit(&io_e, 500, 501, t += 1500, V(4096), NULL);
	emit(&tick, 500, 500, t += 1, V(1), NULL);
	emit(&req_d, 500, 501, t += 800, V(2, 404), NULL);
	/* process 600: recursion three deep */
	comm(600, 600, "pairs-other");
	emit(&fn_in, 600, 600, t += 3, V(1), NULL);
	emit(&fn_in, 600, 600, t += 30, V(2), NULL);
	emit(&fn_in, 600, 600, t += 30, V(3), NULL);
	emit(&fn_out, 600, 600, t += 70, V(3), NULL);
	emit(&fn_out, 600, 600, t += 90, V(2), NULL);
	emit(&fn_out, 600, 600, t += 110, V(1), NULL);
	/* renamed, then requests never ended */
	comm(500, 501, "pairs-renamed");
	emit(&req_s, 500, 501, t += 40, V(3), "/c");
	emit(&step_b, 500, 501, t += 40, V(4), NULL);
	emit(&fn_in, 600, 600, t += 1, V(1), NULL);
	emit(&tick, 500, 500, t += 1000, V(2), NULL);
}

/*
 * A thread that moved between CPUs: the rings are drained CPU by CPU, so the file holds the
 * second CPU's events (later) before the first's (earlier). In time order, every pair matches.
 */
static void scenario_migrate(void)
{
	struct kind s, d;
	uint64_t t = TIME0 + 1000;

	kind_init(&s, "mig", "work__start", "id");
	kind_init(&d, "mig", "work__done", "id");
	comm(800, 800, "migrant");
	/* drained from CPU 0 first: work 1 done (t+500), work 2 start (t+600) */
	emit(&d, 800, 800, t + 500, V(1), NULL);
	emit(&s, 800, 800, t + 600, V(2), NULL);
	/* then CPU 1: work 1 start (t+100), and after the move back work 2 done on CPU 1 */
	emit(&s, 800, 800, t + 100, V(1), NULL);
	emit(&d, 800, 800, t + 900, V(2), NULL);
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void scenario_load(unsigned long n)
{
	struct kind op_s, op_d, sub_s, sub_d, tick;
	uint64_t t = TIME0 + 1000, x = 0x9e3779b97f4a7c15ull;
	unsigned long i = 0;
	char name[16];
	uint32_t th;

	kind_init(&op_s, "load", "op__start", "id,$name");
	kind_init(&op_d, "load", "op__done", "id,ret");
	kind_init(&sub_s, "load", "sub__start", "id");
	kind_init(&sub_d, "load", "sub__done", "id");
	kind_init(&tick, "load", "tick", "v");
	for (th = 0; th < 8; th++) {
		snprintf(name, sizeof(name), "load-%u", th);
		comm(700 + th / 4 * 100, 700 + th / 4 * 100 + th % 4, name);
	}
	/* in rounds of 6 events per thread: op { sub { } tick } */
	while (i < n) {
		th = (uint32_t)(rnd(&x) % 8);
		uint32_t pid = 700 + th / 4 * 100, tid = pid + th % 4;
		int64_t id = (int64_t)i;

		emit(&op_s, pid, tid, t += rnd(&x) % 500, V(id), "operation");
		emit(&sub_s, pid, tid, t += rnd(&x) % 5000, V(id), NULL);
		emit(&sub_d, pid, tid, t += rnd(&x) % 50000, V(id), NULL);
		emit(&tick, pid, tid, t += rnd(&x) % 500, V(id), NULL);
		emit(&op_d, pid, tid, t += rnd(&x) % 100000, V(id, -1), NULL);
		emit(&tick, pid, tid, t += 1, V(id + 1), NULL);
		i += 6;
	}
}

int main(int argc, char **argv)
{
	SDT_OPTS(sdt_trace_writer_opts, meta, .cmdline = "sdtrace record -e '%app:*' -- pairs-app",
		 .hostname = "test-host", .kernel_release = "6.18.0-test",
		 .start_realtime_ns = 1764000000000000000ull, .start_monotonic_ns = TIME0);
	const char *out = SDT_TRACE_DEFAULT_PATH;
	unsigned long count = 1000;
	int c;

	while ((c = getopt(argc, argv, "o:n:")) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'n':
			count = strtoul(optarg, NULL, 10);
			break;
		default:
			return 2;
		}
	}
	if (optind + 1 != argc || (strcmp(argv[optind], "pairs") && strcmp(argv[optind], "load") &&
				   strcmp(argv[optind], "migrate"))) {
		fprintf(stderr,
			"usage: sdtrace-test-pairs [-o FILE] [-n COUNT] pairs|load|migrate\n");
		return 2;
	}
	if (sdt_trace_writer__open(out, &meta, &w))
		die("open");
	if (!strcmp(argv[optind], "pairs"))
		scenario_pairs();
	else if (!strcmp(argv[optind], "migrate"))
		scenario_migrate();
	else
		scenario_load(count);
	if (sdt_trace_writer__finish(w, 0))
		die("finish");
	return 0;
}
