/* SPDX-License-Identifier: MIT */
/*
 * Test helper: write a synthetic recording through the data-file writer (lib/trace/trace_file.h), with
 * raw records laid out as tracefs would lay them out, so that `sdtrace report` can be tested
 * without tracefs, probes or root.
 *
 *	sdtrace-test-write [-o FILE] [-x STATUS] [-n COUNT] SCENARIO...
 *
 * Scenarios (each adds its own event; values are what the e2e tests expect):
 *	ints         every size and sign at its extremes, and specs narrower/wider than the field
 *	floats       4f@ and 8f@ from raw bits (also a 4f@ fetched as 64 bits)
 *	strings      :string args: plain, empty, quotes and control bytes, non-UTF-8, a fault
 *	unavailable  args that could not be fetched, between two that could
 *	rebase       a PIE library with several sites, an address immediate, ambiguous sites
 *	many         COUNT samples (default 1000) of a one-argument event, 4 threads, 2 CPUs
 *	lost         3 samples and lost counts on CPUs 0 and 3
 *	kill         COUNT samples 1 ms apart, then the helper SIGKILLs itself (a cut recording)
 * -o FILE: default sdtrace.data (an existing one becomes sdtrace.data.old); -x: the exit status
 * in the END record (default 0).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sdtrace/sdtrace.h"
#include "trace/trace_file.h"

#define MAX_FIELDS 16
#define TIME0	   1000000000000ull

struct ev {
	struct sdt_trace_event_desc d;
	struct sdt_trace_field fields[MAX_FIELDS];
	struct sdt_trace_arg args[MAX_FIELDS];
	uint64_t sites[4];
	uint32_t next_off;
	uint8_t raw[1024];
	uint32_t dyn; /* where the next __data_loc string goes */
};

static struct sdt_trace_writer *w;
static uint32_t next_index;
static uint64_t now = TIME0;

static void die(const char *what)
{
	fprintf(stderr, "sdtrace-test-write: %s: %s\n", what, sdt_errmsg());
	exit(1);
}

static void ev_init(struct ev *e, const char *provider, const char *name, const char *path,
		    const uint64_t *sites, size_t nsites)
{
	memset(e, 0, sizeof(*e));
	e->d.index = next_index++;
	e->d.provider = (char *)provider;
	e->d.name = (char *)name;
	e->d.path = (char *)path;
	e->d.build_id = (char *)"0123456789abcdef0123456789abcdef01234567";
	e->d.group = (char *)"sdtrace";
	e->d.event = (char *)name;
	e->d.tp_id = 1000 + e->d.index;
	memcpy(e->sites, sites, nsites * sizeof(*sites));
	e->d.site_addrs = e->sites;
	e->d.nsites = nsites;
	e->d.fields = e->fields;
	e->d.args = e->args;
	e->fields[0] =
	    (struct sdt_trace_field){.name = (char *)"__probe_ip", .offset = 8, .size = 8};
	e->d.nfields = 1;
	e->d.ip_field = 0;
	e->next_off = 16;
}

static char *arg_name(size_t i)
{
	static char names[MAX_FIELDS][8];

	snprintf(names[i], sizeof(names[i]), "arg%zu", i + 1);
	return names[i];
}

/* An argument fetched into a field of @fsize bytes (4 for a string's __data_loc). */
static void ev_arg(struct ev *e, const char *spec, unsigned int size, bool is_signed, unsigned fl,
		   unsigned int fsize, bool fsigned)
{
	struct sdt_trace_arg *a = &e->args[e->d.nargs];
	struct sdt_trace_field *f = &e->fields[e->d.nfields];

	e->next_off = (e->next_off + fsize - 1) / fsize * fsize;
	*f = (struct sdt_trace_field){.name = arg_name(e->d.nargs),
				      .offset = e->next_off,
				      .size = fsize,
				      .is_signed = fsigned,
				      .is_data_loc = fl & 4};
	e->next_off += fsize;
	*a = (struct sdt_trace_arg){.name = arg_name(e->d.nargs),
				    .spec = (char *)spec,
				    .size = (uint8_t)size,
				    .is_signed = is_signed,
				    .is_float = fl & 1,
				    .rebase = fl & 2,
				    .is_string = fl & 4,
				    .field = (int)e->d.nfields};
	e->d.nfields++;
	e->d.nargs++;
}

static void ev_unavailable(struct ev *e, const char *spec, unsigned int size, bool is_signed,
			   const char *why)
{
	e->args[e->d.nargs] = (struct sdt_trace_arg){.name = arg_name(e->d.nargs),
						     .spec = (char *)spec,
						     .size = (uint8_t)size,
						     .is_signed = is_signed,
						     .field = -1,
						     .unavailable = (char *)why};
	e->d.nargs++;
}

static void ev_describe(struct ev *e)
{
	if (sdt_trace_writer__event(w, &e->d))
		die("event");
}

/* Start a raw record: common header (type, flags, preempt count, pid) and __probe_ip. */
static void rec_begin(struct ev *e, uint32_t pid, uint64_t ip)
{
	uint16_t type = (uint16_t)e->d.tp_id;

	memset(e->raw, 0xee, sizeof(e->raw)); /* bytes no field covers must not matter */
	memcpy(e->raw, &type, 2);
	e->raw[2] = 0;
	e->raw[3] = 0;
	memcpy(e->raw + 4, &pid, 4);
	memcpy(e->raw + 8, &ip, 8);
	e->dyn = e->next_off;
}

static void rec_int(struct ev *e, size_t arg, uint64_t v)
{
	const struct sdt_trace_field *f = &e->fields[e->args[arg].field];
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (f->size) {
	case 1:
		memcpy(e->raw + f->offset, &u8, 1);
		break;
	case 2:
		memcpy(e->raw + f->offset, &u16, 2);
		break;
	case 4:
		memcpy(e->raw + f->offset, &u32, 4);
		break;
	default:
		memcpy(e->raw + f->offset, &v, 8);
		break;
	}
}

/* A string of @len bytes (its NUL included by the caller); NULL: a fault (length 0). */
static void rec_str(struct ev *e, size_t arg, const char *s, size_t len)
{
	const struct sdt_trace_field *f = &e->fields[e->args[arg].field];
	uint32_t loc = s ? (uint32_t)(len << 16 | e->dyn) : e->dyn;

	memcpy(e->raw + f->offset, &loc, 4);
	if (s) {
		memcpy(e->raw + e->dyn, s, len);
		e->dyn += (uint32_t)len;
	}
}

static void rec_end(struct ev *e, uint32_t cpu, uint32_t pid, uint32_t tid, uint64_t step)
{
	/* PERF_SAMPLE_RAW pads to 8 bytes: the writer must not store the padding */
	uint32_t size = (e->dyn + 4 + 7) / 8 * 8 - 4;
	struct sdt_trace_sample s = {.time_ns = now,
				     .cpu = cpu,
				     .pid = pid,
				     .tid = tid,
				     .event = e->d.index,
				     .raw = e->raw,
				     .raw_size = size};

	now += step;
	if (sdt_trace_writer__sample(w, &s))
		die("sample");
}

static void comm(uint32_t pid, uint32_t tid, const char *name)
{
	if (sdt_trace_writer__comm(w, pid, tid, name))
		die("comm");
}

static const uint64_t exe_site[] = {0x401136};

static void scenario_ints(void)
{
	static const uint64_t vals[4][10] = {
	    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
	    {0xff, 0x7f, 0xffff, 0x7fff, 0xffffffff, 0x7fffffff, UINT64_MAX, INT64_MAX,
	     0xfffffffffffffffb, 0xfb},
	    {1, 0x80, 1, 0x8000, 1, 0x80000000, 1, 0x8000000000000000, 0xffffffffffffff80, 0x80},
	    {0x80, 0xff, 0x8000, 0xffff, 0x80000000, 0xffffffff, 0x8000000000000000, UINT64_MAX,
	     0x7f, 0x7f},
	};
	struct ev e;
	size_t i, j;

	ev_init(&e, "test", "ints", "/usr/bin/test-prog", exe_site, 1);
	ev_arg(&e, "1@%al", 1, false, 0, 1, false);
	ev_arg(&e, "-1@%bl", 1, true, 0, 1, true);
	ev_arg(&e, "2@%cx", 2, false, 0, 2, false);
	ev_arg(&e, "-2@%dx", 2, true, 0, 2, true);
	ev_arg(&e, "4@%esi", 4, false, 0, 4, false);
	ev_arg(&e, "-4@%edi", 4, true, 0, 4, true);
	ev_arg(&e, "8@%r8", 8, false, 0, 8, false);
	ev_arg(&e, "-8@%r9", 8, true, 0, 8, true);
	/* the spec decides: a -1@ value fetched as 64 bits, and one fetched unsigned */
	ev_arg(&e, "-1@$-5", 1, true, 0, 8, false);
	ev_arg(&e, "-1@%r12b", 1, true, 0, 1, false);
	ev_describe(&e);
	comm(100, 100, "test-prog");
	for (i = 0; i < 4; i++) {
		rec_begin(&e, 100, exe_site[0]);
		for (j = 0; j < 10; j++)
			rec_int(&e, j, vals[i][j]);
		rec_end(&e, 1, 100, 100, 1000);
	}
}

static void scenario_floats(void)
{
	static const float f32[] = {1.5f, -0.25f, 3.4028234663852886e38f, 0.0f};
	static const double f64[] = {-0.1, 1e300, 4.9406564584124654e-324, -0.0};
	struct ev e;
	size_t i;

	ev_init(&e, "test", "floats", "/usr/bin/test-prog", exe_site, 1);
	ev_arg(&e, "4f@-12(%rbp)", 4, false, 1, 4, false);
	ev_arg(&e, "8f@%rax", 8, false, 1, 8, false);
	ev_arg(&e, "4f@%rcx", 4, false, 1, 8, false); /* fetched as :x64 */
	ev_describe(&e);
	for (i = 0; i < 4; i++) {
		uint32_t b32;
		uint64_t b64;

		rec_begin(&e, 100, exe_site[0]);
		memcpy(&b32, &f32[i], 4);
		rec_int(&e, 0, b32);
		memcpy(&b64, &f64[i], 8);
		rec_int(&e, 1, b64);
		rec_int(&e, 2, 0xdeadbeef00000000ull | b32); /* high bits must be ignored */
		rec_end(&e, 0, 100, 100, 1000);
	}
	/* NaN and infinity: not JSON numbers */
	rec_begin(&e, 100, exe_site[0]);
	rec_int(&e, 0, 0x7fc00000);
	rec_int(&e, 1, 0x7ff0000000000000ull);
	rec_int(&e, 2, 0xff800000);
	rec_end(&e, 0, 100, 100, 1000);
}

static void scenario_strings(void)
{
	static const char quotes[] = "say \"hi\"\\\n\ttab";
	static const char bad[] = "caf\xe9 \xff";
	char longs[256];
	struct ev e;

	memset(longs, 'x', sizeof(longs) - 1);
	longs[sizeof(longs) - 1] = '\0';
	ev_init(&e, "test", "strings", "/usr/bin/test-prog", exe_site, 1);
	ev_arg(&e, "8@%rdi", 8, false, 4, 4, false);
	ev_arg(&e, "-4@%esi", 4, true, 0, 4, true);
	ev_describe(&e);
	rec_begin(&e, 100, exe_site[0]);
	rec_str(&e, 0, "hello", 6);
	rec_int(&e, 1, (uint64_t)-1);
	rec_end(&e, 0, 100, 100, 1000);
	rec_begin(&e, 100, exe_site[0]);
	rec_str(&e, 0, "", 1);
	rec_int(&e, 1, 2);
	rec_end(&e, 0, 100, 100, 1000);
	rec_begin(&e, 100, exe_site[0]);
	rec_str(&e, 0, quotes, sizeof(quotes));
	rec_int(&e, 1, 3);
	rec_end(&e, 0, 100, 100, 1000);
	rec_begin(&e, 100, exe_site[0]);
	rec_str(&e, 0, bad, sizeof(bad));
	rec_int(&e, 1, 4);
	rec_end(&e, 0, 100, 100, 1000);
	rec_begin(&e, 100, exe_site[0]);
	rec_str(&e, 0, NULL, 0);
	rec_int(&e, 1, 5);
	rec_end(&e, 0, 100, 100, 1000);
	rec_begin(&e, 100, exe_site[0]);
	rec_str(&e, 0, longs, sizeof(longs));
	rec_int(&e, 1, 6);
	rec_end(&e, 0, 100, 100, 1000);
}

static void scenario_unavailable(void)
{
	struct ev e;

	ev_init(&e, "test", "unavailable", "/usr/bin/test-prog", exe_site, 1);
	ev_arg(&e, "-4@%eax", 4, true, 0, 4, true);
	ev_unavailable(&e, "-8@(%rdi,%rsi,8)", 8, true,
		       "indexed operand: no uprobe fetcharg can express it");
	ev_unavailable(&e, "16f@(%rsp)", 16, false, "16-byte floating-point argument");
	ev_arg(&e, "8@%rdx", 8, false, 0, 8, false);
	ev_describe(&e);
	rec_begin(&e, 100, exe_site[0]);
	rec_int(&e, 0, (uint64_t)-7);
	rec_int(&e, 3, 42);
	rec_end(&e, 0, 100, 100, 1000);
}

static void scenario_rebase(void)
{
	static const uint64_t lib_sites[] = {0x1130, 0x2248, 0x3130};
	static const uint64_t lib_sites2[] = {0x5130, 0x6130};
	static const uint64_t bias = 0x7f1234560000ull;
	struct ev e, e2;

	ev_init(&e, "test", "rebase", "/usr/lib/libtest.so", lib_sites, 3);
	ev_arg(&e, "8@$g_target", 8, false, 2, 8, false);
	ev_arg(&e, "-4@%esi", 4, true, 0, 4, true);
	ev_describe(&e);
	comm(200, 201, "worker");
	/* site 2 (0x2248): unique in its low 12 bits */
	rec_begin(&e, 200, bias + 0x2248);
	rec_int(&e, 0, 0x4010);
	rec_int(&e, 1, 1);
	rec_end(&e, 2, 200, 201, 1000);
	/* site 3 (0x3130) shares its low bits with site 1, but the process's bias is known now */
	rec_begin(&e, 200, bias + 0x3130);
	rec_int(&e, 0, 0x4010);
	rec_int(&e, 1, 2);
	rec_end(&e, 2, 200, 201, 1000);
	/* another process, first sample ambiguous: address and rebased value unknown */
	rec_begin(&e, 300, bias + 0x10000 + 0x1130);
	rec_int(&e, 0, 0x4010);
	rec_int(&e, 1, 3);
	rec_end(&e, 3, 300, 300, 1000);

	/* another event of the same library, both sites alike in their low bits: its first
	 * sample is placed by the bias the process showed for the first event */
	ev_init(&e2, "test", "rebase2", "/usr/lib/libtest.so", lib_sites2, 2);
	ev_arg(&e2, "8@$g_other", 8, false, 2, 8, false);
	ev_describe(&e2);
	rec_begin(&e2, 200, bias + 0x6130);
	rec_int(&e2, 0, 0x4020);
	rec_end(&e2, 2, 200, 201, 1000);
	rec_begin(&e2, 300, bias + 0x10000 + 0x5130);
	rec_int(&e2, 0, 0x4020);
	rec_end(&e2, 3, 300, 300, 1000);
}

static void scenario_many(unsigned long n, uint64_t step)
{
	struct ev e;
	unsigned long i;

	ev_init(&e, "test", "hot", "/usr/bin/test-prog", exe_site, 1);
	ev_arg(&e, "8@%rcx", 8, false, 0, 8, false);
	ev_describe(&e);
	comm(4000, 4000, "hot-main");
	comm(4000, 4001, "hot-worker1");
	comm(4000, 4002, "hot-worker2");
	comm(4000, 4003, "hot-worker3");
	for (i = 0; i < n; i++) {
		/* threads take turns every 16 events, as they would between context switches */
		uint32_t t = (uint32_t)(i / 16 % 4);

		rec_begin(&e, 4000, exe_site[0]);
		rec_int(&e, 0, i);
		rec_end(&e, t % 2, 4000, 4000 + t, step);
	}
}

static void scenario_lost(void)
{
	struct ev e;
	int i;

	ev_init(&e, "test", "lossy", "/usr/bin/test-prog", exe_site, 1);
	ev_arg(&e, "-4@%edi", 4, true, 0, 4, true);
	ev_describe(&e);
	for (i = 0; i < 3; i++) {
		rec_begin(&e, 100, exe_site[0]);
		rec_int(&e, 0, (uint64_t)i);
		rec_end(&e, 0, 100, 100, 1000);
		if (i == 1 && (sdt_trace_writer__lost(w, 0, 5) || sdt_trace_writer__lost(w, 3, 7)))
			die("lost");
	}
}

int main(int argc, char **argv)
{
	SDT_OPTS(sdt_trace_writer_opts, meta, .cmdline = "sdtrace record -e '%test:*' -- ./test-prog 1 2",
		 .hostname = "test-host", .kernel_release = "6.18.0-test",
		 .start_realtime_ns = 1764000000000000000ull, .start_monotonic_ns = TIME0);
	const char *out = SDT_TRACE_DEFAULT_PATH;
	unsigned long count = 1000;
	int c, status = 0, i;
	bool kill_me = false;

	while ((c = getopt(argc, argv, "o:x:n:")) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'x':
			status = atoi(optarg);
			break;
		case 'n':
			count = strtoul(optarg, NULL, 10);
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: sdtrace-test-write [-o FILE] [-x STATUS] [-n COUNT] "
				"SCENARIO...\n");
		return 2;
	}
	if (sdt_trace_writer__open(out, &meta, &w))
		die("open");
	for (i = optind; i < argc; i++) {
		if (!strcmp(argv[i], "ints"))
			scenario_ints();
		else if (!strcmp(argv[i], "floats"))
			scenario_floats();
		else if (!strcmp(argv[i], "strings"))
			scenario_strings();
		else if (!strcmp(argv[i], "unavailable"))
			scenario_unavailable();
		else if (!strcmp(argv[i], "rebase"))
			scenario_rebase();
		else if (!strcmp(argv[i], "many"))
			scenario_many(count, 1400);
		else if (!strcmp(argv[i], "lost"))
			scenario_lost();
		else if (!strcmp(argv[i], "kill")) {
			/* 1 ms apart: the writer flushes every 100 ms of sample time */
			scenario_many(count, 1000000);
			kill_me = true;
		} else {
			fprintf(stderr, "sdtrace-test-write: unknown scenario '%s'\n", argv[i]);
			return 2;
		}
	}
	if (kill_me) {
		/* what a SIGKILLed recorder leaves: what the writer flushed on its own, no END */
		raise(SIGKILL);
	}
	if (sdt_trace_writer__finish(w, status))
		die("finish");
	return 0;
}
