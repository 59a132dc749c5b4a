/* SPDX-License-Identifier: MIT */
/*
 * sdtrace trace: the record pipeline, printing each event as it arrives (line-buffered).
 *
 * The recorder's samples are decoded in the sink, as they arrive, by the library's decoder
 * (sdt_trace_decoder), which decodes them as the reader decodes a recording, and printed by the
 * printer `report` uses: so what `trace` shows is exactly what `record` + `report` would show.
 * Rings are drained at least every --interval (default 50 ms), which bounds the delay of a line.
 *
 * --latency and --flow print pairs instead of events: the events go through the pairing of
 * `report --latency` (report_pairing_event(), report-latency.c: the same rules, provider notes,
 * keys and nesting stack), so the pairs printed are the pairs a recording of the run would give.
 * What a start's line needs at its end (its arguments, its name) is kept in a slot, the start's
 * tag; slots are reused, their buffers kept: nothing is allocated per event once warm.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "event-print.h"
#include "json.h"
#include "record-setup.h"
#include "report.h"
#include "sdtrace/sdtrace.h"

static const char trace_usage[] =
	"usage: sdtrace trace -e SPEC [-e SPEC]... [-x PATH] [--json] [options] -- CMD [ARGS...]\n"
	"       sdtrace trace -e SPEC... -p PID[,PID...] | -a [--duration SECS]\n"
	"\n"
	"Like record, but print each event as it arrives instead of writing a file: one line per\n"
	"event as `sdtrace report` prints them (or JSON Lines with --json), flushed line by line.\n"
	"\n"
	"      --json            JSON Lines, with the keys of 'sdtrace report --json'\n"
	"      --interval MS     drain the ring buffers at least this often (default 50)\n"
	"      --latency         print probe pairs, not events: one line per pair as it ends\n"
	"                        (start time, pid/tid, pair, duration, the start's arguments),\n"
	"                        paired as 'sdtrace report --latency' pairs (naming conventions,\n"
	"                        provider notes, keys, nesting); a closing line on stderr counts\n"
	"                        the pairs, the slowest, and those still open\n"
	"      --min DUR         with --latency: only the pairs that lasted DUR or longer\n"
	"                        (units ns, us, ms, s: 50ms, 1.5s)\n"
	"      --flow            entries and returns of pairs, indented by their nesting on each\n"
	"                        thread: '-> NAME' and '<- NAME', NAME the start's key arguments\n"
	"                        (a provider note's, e.g. python's filename.funcname) or the pair\n"
	"      --pair-by thread|key  with --latency or --flow: pair on the thread and key (the\n"
	"                        default) or on the key alone, as 'report --pair-by'\n"
	"%s"
	"\n"
	"examples:\n"
	"  sdtrace trace -e '%%python:gc__*' -- /usr/bin/python3.11 -c 'import gc; gc.collect()'\n"
	"  sdtrace trace -e '%%postgresql:query__start' -p $(pgrep -o postgres)\n"
	"  sdtrace trace -e '%%example:*' --json -- ./sdt-example | jq .args\n"
	"  sdtrace trace -e '%%python:function__entry' -- python3 app.py   # shipped types:\n"
	"                                 # filename=\"app.py\" funcname=\"main\" lineno=3\n"
	"  sdtrace trace -e '%%myprov:req(path:string, len:u32)' --json -- ./srv | jq .fields\n"
	"  sdtrace trace --latency --min 50ms -e '%%postgresql:query__*' -a   # slow queries\n"
	"  sdtrace trace --flow -e '%%python:function__*' -- python3 -c 'import sys; ...'\n";

enum trace_mode { TRACE_EVENTS, TRACE_LATENCY, TRACE_FLOW };

/* What a start keeps for its end (--latency: its arguments; --flow: its name). */
struct trace_slot {
	char *buf;
	size_t len, cap;
	size_t next_free; /* index + 1 of the next free slot, when free */
};

/*
 * --latency and --flow pair across threads and CPUs, so they take the samples in time order,
 * as report does from a recording: a drain takes each CPU's ring in turn, and a sample that
 * another CPU committed just after its ring was read comes with the next drain, after newer
 * samples of the rings read later (a request's end before its start). So samples are held, in
 * a min-heap on (time, arrival), and let out at the end of a drain up to the newest time the
 * previous drain had seen: a sample late by one drain is still in time. A line waits at most
 * two --interval for it.
 */
struct held {
	struct sdt_trace_sample s; /* ->raw: owned copy */
	uint64_t seq;
};

struct trace_hold {
	struct held *h;
	size_t n, cap;
	uint64_t seq;
	uint64_t newest, upto; /* the newest time seen; what the last drain may let out */
};

/* --latency and --flow: the pairing, the kinds not yet described to it, the slots, counts. */
struct trace_pairs {
	struct report_pairing pg;
	const struct sdt_trace_event_desc **pending; /* the recorder's, until it is freed */
	size_t npending, pending_cap;
	struct report_event ev;
	size_t args_cap;
	struct trace_slot *slots;
	size_t nslots, slots_cap, free_slot;
	uint64_t min_ns;
	uint64_t pairs, shown, unmatched_ends, open_at_end;
	uint64_t slowest_ns;
	size_t slowest_pair;
	size_t max_depth;
};

/* The sink's state: the decoder, how to print, the first failure. */
struct trace_ctx {
	struct sdt_trace_decoder *dec;
	struct sdt_recorder *rec;
	struct json j;
	bool json;
	enum trace_mode mode;
	struct trace_pairs tp;
	struct trace_hold hold;
	bool stopped; /* stdout failed (| head, a full disk): nothing more is printed */
	int err;
	char msg[512]; /* the first failure's message, as the decoder gave it */
};

/* Keep the first failure and its message (later calls of the library overwrite sdt_errmsg()). */
static int keep_err(struct trace_ctx *tc, int err)
{
	if (err && !tc->err) {
		tc->err = err;
		snprintf(tc->msg, sizeof(tc->msg), "%s", sdt_errmsg());
	}
	return err;
}

/* The same for a failure of trace's own: out of memory. */
static int no_memory(struct trace_ctx *tc)
{
	if (!tc->err) {
		tc->err = -ENOMEM;
		snprintf(tc->msg, sizeof(tc->msg), "out of memory");
	}
	return -ENOMEM;
}

static int on_event_desc(void *ctx, const struct sdt_trace_event_desc *d)
{
	struct trace_ctx *tc = ctx;
	struct trace_pairs *tp = &tc->tp;

	if (tc->mode != TRACE_EVENTS) {
		/* described to the pairing before the next sample, as report does it */
		if (tp->npending == tp->pending_cap) {
			size_t n = tp->pending_cap ? tp->pending_cap * 2 : 16;
			const struct sdt_trace_event_desc **p =
			    realloc(tp->pending, n * sizeof(*p));

			if (!p)
				return no_memory(tc);
			tp->pending = p;
			tp->pending_cap = n;
		}
		tp->pending[tp->npending++] = d;
	}
	return keep_err(tc, sdt_trace_decoder__add_desc(tc->dec, d));
}

/* A free slot: its tag (index + 1), or 0 on no memory. Its buffer is kept from its last use. */
static uint64_t slot_new(struct trace_pairs *tp)
{
	size_t i;

	if (tp->free_slot) {
		i = tp->free_slot - 1;
		tp->free_slot = tp->slots[i].next_free;
		tp->slots[i].len = 0;
		return i + 1;
	}
	if (tp->nslots == tp->slots_cap) {
		size_t n = tp->slots_cap ? tp->slots_cap * 2 : 64;
		struct trace_slot *sl = realloc(tp->slots, n * sizeof(*sl));

		if (!sl)
			return 0;
		tp->slots = sl;
		tp->slots_cap = n;
	}
	memset(&tp->slots[tp->nslots], 0, sizeof(*tp->slots));
	return ++tp->nslots;
}

static void slot_free(struct trace_pairs *tp, uint64_t tag)
{
	tp->slots[tag - 1].next_free = tp->free_slot;
	tp->free_slot = (size_t)tag;
}

/* Keep @t's text in slot @tag (its buffer grows, never shrinks). 0 or -ENOMEM. */
static int slot_set(struct trace_pairs *tp, uint64_t tag, const struct report_text *t)
{
	struct trace_slot *sl = &tp->slots[tag - 1];

	if (t->len + 1 > sl->cap) {
		char *b = realloc(sl->buf, t->len + 1);

		if (!b)
			return -ENOMEM;
		sl->buf = b;
		sl->cap = t->len + 1;
	}
	memcpy(sl->buf, t->buf ? t->buf : "", t->len);
	sl->buf[t->len] = 0;
	sl->len = t->len;
	return 0;
}

static void trace_pairs_free(struct trace_pairs *tp)
{
	size_t i;

	sdt_latency__free(tp->pg.l);
	report_pairing_release(&tp->pg);
	free(tp->pending);
	free(tp->ev.args);
	for (i = 0; i < tp->nslots; i++)
		free(tp->slots[i].buf);
	free(tp->slots);
}

/* "secs.nsecs pid/tid " of the lines of --latency and --flow. */
static void put_prefix(uint64_t t, unsigned int pid, unsigned int tid)
{
	printf("%" PRIu64 ".%09" PRIu64 " %7u/%-7u ", t / 1000000000u, t % 1000000000u, pid,
	       tid);
}

/* --latency: a pair that ended, @start_args its start's. 0 or -ENOMEM. */
static int print_pair(struct trace_ctx *tc, const struct sdt_latency_step *st,
		      const char *start_args)
{
	struct trace_pairs *tp = &tc->tp;
	const char *name = sdt_latency__pair_name(tp->pg.l, st->pair);
	char d[32];

	if (!tc->json) {
		put_prefix(st->start_ns, tp->ev.pid, tp->ev.tid);
		cli_put_escaped(stdout, name);
		printf("  %s  ", cli_fmt_ns(d, sizeof(d), (double)st->duration_ns));
		cli_put_escaped(stdout, start_args);
		putchar('\n');
		return 0;
	}
	/* the keys of `report --latency --top`'s "slowest" rows, and the end's time */
	if (report_args_text(&tp->ev, &tp->pg.t))
		return -ENOMEM;
	json_begin_object(&tc->j);
	json_key(&tc->j, "pair");
	json_string(&tc->j, name);
	json_key(&tc->j, "duration_ns");
	json_uint(&tc->j, st->duration_ns);
	json_key(&tc->j, "start_ns");
	json_uint(&tc->j, st->start_ns);
	json_key(&tc->j, "end_ns");
	json_uint(&tc->j, tp->ev.time_ns);
	json_key(&tc->j, "pid");
	json_uint(&tc->j, tp->ev.pid);
	json_key(&tc->j, "tid");
	json_uint(&tc->j, tp->ev.tid);
	json_key(&tc->j, "start_args");
	json_string(&tc->j, start_args);
	json_key(&tc->j, "end_args");
	json_string(&tc->j, tp->pg.t.buf ? tp->pg.t.buf : "");
	json_end_object(&tc->j);
	json_newline(&tc->j);
	return 0;
}

/* --flow: "-> NAME" or "<- NAME" indented by @depth (two spaces a level). */
static void print_flow(struct trace_ctx *tc, bool entry, size_t depth, const char *name,
		       const struct sdt_latency_step *st)
{
	struct trace_pairs *tp = &tc->tp;
	size_t i;

	if (!tc->json) {
		put_prefix(tp->ev.time_ns, tp->ev.pid, tp->ev.tid);
		for (i = 0; i < depth; i++)
			fputs("  ", stdout);
		fputs(entry ? "-> " : "<- ", stdout);
		cli_put_escaped(stdout, name);
		putchar('\n');
		return;
	}
	json_begin_object(&tc->j);
	json_key(&tc->j, "time_ns");
	json_uint(&tc->j, tp->ev.time_ns);
	json_key(&tc->j, "pid");
	json_uint(&tc->j, tp->ev.pid);
	json_key(&tc->j, "tid");
	json_uint(&tc->j, tp->ev.tid);
	json_key(&tc->j, "depth");
	json_uint(&tc->j, depth);
	json_key(&tc->j, "event");
	json_string(&tc->j, entry ? "entry" : "return");
	json_key(&tc->j, "pair");
	json_string(&tc->j, sdt_latency__pair_name(tp->pg.l, st->pair));
	json_key(&tc->j, "name");
	json_string(&tc->j, name);
	if (!entry) {
		json_key(&tc->j, "duration_ns");
		json_uint(&tc->j, st->duration_ns);
	}
	json_end_object(&tc->j);
	json_newline(&tc->j);
}

/*
 * --flow: a start's name, into tp->pg.t: the values of its key (its provider note's, e.g.
 * filename.funcname) joined by '.', else its pair's name. 0 or -ENOMEM.
 */
static int flow_name(struct trace_pairs *tp, const struct sdt_latency_step *st)
{
	const struct report_names *kn = report_pairing_key(&tp->pg, tp->ev.kind);
	struct report_text *t = &tp->pg.t;
	const char *name;
	size_t i;

	if (kn && report_names_in(kn, tp->ev.kind)) {
		if (report_values_text(&tp->ev, kn, t))
			return -ENOMEM;
		for (i = 0; i < t->len; i++)
			if (t->buf[i] == REPORT_SEP[0])
				t->buf[i] = '.';
		return 0;
	}
	name = sdt_latency__pair_name(tp->pg.l, st->pair);
	t->len = 0;
	return report_text_add(t, name, strlen(name)) ? -ENOMEM : 0;
}

/* --latency, --flow: one event through the pairing, what it ends printed. 0 or -errno. */
static int pair_event(struct trace_ctx *tc, const struct sdt_trace_event *e)
{
	struct trace_pairs *tp = &tc->tp;
	struct sdt_latency_step st;
	unsigned int tid;
	uint64_t tag;
	size_t depth;

	if (tp->npending) {
		if (report_latency_descs(tp->pg.l, tp->pg.types, tp->pending, tp->npending))
			return no_memory(tc);
		tp->npending = 0;
	}
	if (report_event_fill(&tp->ev, &tp->args_cap, e) || !(tag = slot_new(tp)) ||
	    report_pairing_event(&tp->pg, &tp->ev, tag, &st, &tid))
		return no_memory(tc);
	if (st.role == SDT_LATENCY_START) {
		/* its arguments (--latency) or its name (--flow), for its end */
		int err = tc->mode == TRACE_FLOW ? flow_name(tp, &st)
						 : report_args_text(&tp->ev, &tp->pg.t);

		if (err || slot_set(tp, tag, &tp->pg.t))
			return no_memory(tc);
		if (tc->mode == TRACE_FLOW) {
			depth = sdt_latency__depth(tp->pg.l, tid);
			if (depth > tp->max_depth)
				tp->max_depth = depth;
			if (!tc->stopped)
				print_flow(tc, true, depth - 1, tp->slots[tag - 1].buf, &st);
		}
		return 0;
	}
	slot_free(tp, tag);
	if (st.role == SDT_LATENCY_UNMATCHED && st.is_end)
		tp->unmatched_ends++;
	if (st.role != SDT_LATENCY_END)
		return 0;
	tp->pairs++;
	if (st.duration_ns > tp->slowest_ns || tp->pairs == 1) {
		tp->slowest_ns = st.duration_ns;
		tp->slowest_pair = st.pair;
	}
	if (tc->stopped) {
		/* stdout is gone: the recorder is stopping */
	} else if (tc->mode == TRACE_FLOW) {
		/* the matched start's level: the crossed pairs stay open above it */
		depth = sdt_latency__depth(tp->pg.l, tid) - st.ncrossed;
		print_flow(tc, false, depth, tp->slots[st.start_tag - 1].buf, &st);
	} else if (st.duration_ns >= tp->min_ns) {
		tp->shown++;
		if (print_pair(tc, &st, tp->slots[st.start_tag - 1].buf))
			return no_memory(tc);
	}
	slot_free(tp, st.start_tag);
	return 0;
}

static bool held_before(const struct held *a, const struct held *b)
{
	return a->s.time_ns != b->s.time_ns ? a->s.time_ns < b->s.time_ns : a->seq < b->seq;
}

/* Hold a copy of @s. 0 or -ENOMEM. */
static int hold_push(struct trace_hold *th, const struct sdt_trace_sample *s)
{
	struct held e = {.s = {.time_ns = s->time_ns,
			       .cpu = s->cpu,
			       .pid = s->pid,
			       .tid = s->tid,
			       .event = s->event,
			       .raw_size = s->raw_size},
			 .seq = th->seq++};
	size_t i;
	void *raw;

	if (th->n == th->cap) {
		size_t n = th->cap ? th->cap * 2 : 1024;
		struct held *h = realloc(th->h, n * sizeof(*h));

		if (!h)
			return -ENOMEM;
		th->h = h;
		th->cap = n;
	}
	raw = malloc(s->raw_size ? s->raw_size : 1);
	if (!raw)
		return -ENOMEM;
	memcpy(raw, s->raw, s->raw_size);
	e.s.raw = raw;
	for (i = th->n++; i && held_before(&e, &th->h[(i - 1) / 2]); i = (i - 1) / 2)
		th->h[i] = th->h[(i - 1) / 2];
	th->h[i] = e;
	if (s->time_ns > th->newest)
		th->newest = s->time_ns;
	return 0;
}

/* The oldest held sample, taken out (its ->raw the caller's to free). */
static struct held hold_pop(struct trace_hold *th)
{
	struct held top = th->h[0], last = th->h[--th->n];
	size_t i = 0, c;

	for (;; i = c) {
		c = 2 * i + 1;
		if (c >= th->n)
			break;
		if (c + 1 < th->n && held_before(&th->h[c + 1], &th->h[c]))
			c++;
		if (!held_before(&th->h[c], &last))
			break;
		th->h[i] = th->h[c];
	}
	if (th->n)
		th->h[i] = last;
	return top;
}

static int sample_out(struct trace_ctx *tc, const struct sdt_trace_sample *s);

/* Let out, in time order, the held samples up to @upto (all: UINT64_MAX). 0 or -errno. */
static int hold_release(struct trace_ctx *tc, uint64_t upto)
{
	struct trace_hold *th = &tc->hold;
	int err = 0;

	while (th->n && th->h[0].s.time_ns <= upto) {
		struct held e = hold_pop(th);

		if (!err)
			err = sample_out(tc, &e.s);
		free((void *)e.s.raw);
	}
	return err;
}

static void hold_free(struct trace_hold *th)
{
	while (th->n)
		free((void *)hold_pop(th).s.raw);
	free(th->h);
}

/* The end of a drain: let out what the previous drain had seen; hold the rest one more. */
static void on_drained(void *ctx)
{
	struct trace_ctx *tc = ctx;

	if (tc->mode == TRACE_EVENTS || tc->err)
		return;
	if (hold_release(tc, tc->hold.upto) < 0)
		sdt_recorder__stop(tc->rec);
	tc->hold.upto = tc->hold.newest;
}

/* A sample from the rings: printed now, or held for time order (--latency, --flow). */
static int on_sample(void *ctx, const struct sdt_trace_sample *s)
{
	struct trace_ctx *tc = ctx;

	if (tc->mode == TRACE_EVENTS)
		return sample_out(tc, s);
	return hold_push(&tc->hold, s) ? no_memory(tc) : 0;
}

/* Decode and print one event; once stdout has failed, ask the recorder to stop and clean up. */
static int sample_out(struct trace_ctx *tc, const struct sdt_trace_sample *s)
{
	const struct sdt_trace_event *ev;
	int err;

	err = keep_err(tc, sdt_trace_decoder__sample(tc->dec, s, &ev));
	if (err)
		return err;
	if (tc->mode != TRACE_EVENTS)
		err = pair_event(tc, ev);
	else if (tc->stopped)
		return 0;
	else if (tc->json)
		print_event_json(&tc->j, ev, NULL);
	else
		print_event_text(ev);
	if (!tc->stopped && ferror(stdout)) {
		tc->stopped = true;
		sdt_recorder__stop(tc->rec);
	}
	return err;
}

static void on_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm)
{
	struct trace_ctx *tc = ctx;

	keep_err(tc, sdt_trace_decoder__comm(tc->dec, pid, tid, comm));
}

/* trace's own options: --json, --interval, --latency, --min, --flow, --pair-by. */
struct trace_args {
	bool json;
	unsigned long interval;
	bool latency, flow, pair_by_key;
	const char *min, *pair_by; /* as given */
	uint64_t min_ns;
};

enum { OPT_LATENCY = 0x200, OPT_MIN, OPT_FLOW, OPT_PAIR_BY };

static int trace_option(void *ctx, int c, const char *arg)
{
	struct trace_args *a = ctx;
	char *end;

	switch (c) {
	case 'J':
		a->json = true;
		return 0;
	case 'I':
		a->interval = strtoul(arg, &end, 10);
		if (*end || !a->interval || a->interval > 60000)
			return cli_usage_error("trace", "--interval: '%s' is not 1..60000 ms", arg);
		return 0;
	case OPT_LATENCY:
		a->latency = true;
		return 0;
	case OPT_FLOW:
		a->flow = true;
		return 0;
	case OPT_MIN:
		a->min = arg;
		if (cli_parse_ns(arg, &a->min_ns))
			return cli_usage_error("trace",
					       "--min: '%s' is not a duration (a number and a unit: "
					       "ns, us, ms, s, as 50ms)",
					       arg);
		return 0;
	case OPT_PAIR_BY:
		a->pair_by = arg;
		if (strcmp(arg, "thread") && strcmp(arg, "key"))
			return cli_usage_error("trace", "--pair-by: '%s' is neither thread nor key",
					       arg);
		a->pair_by_key = !strcmp(arg, "key");
		return 0;
	default:
		return cli_usage_error("trace", "bad option");
	}
}

/* The combinations of --latency, --min, --flow, --pair-by: 0 or EXIT_USAGE. */
static int trace_check_args(const struct trace_args *a)
{
	if (a->latency && a->flow)
		return cli_usage_error("trace", "--latency and --flow are two ways to show pairs: "
						"choose one");
	if (a->min && !a->latency)
		return cli_usage_error("trace", "--min %s needs --latency (the pairs slower than "
						"it: 'sdtrace trace --latency --min %s ...')",
				       a->min, a->min);
	if (a->pair_by && !a->latency && !a->flow)
		return cli_usage_error("trace", "--pair-by needs --latency or --flow");
	return 0;
}

static int count_open(void *ctx, unsigned int pid, unsigned int tid,
		      const struct sdt_latency_open *o)
{
	(void)pid;
	(void)tid;
	(void)o;
	((struct trace_pairs *)ctx)->open_at_end++;
	return 0;
}

/*
 * --latency, --flow: the closing line, on stderr, never a silent zero: the pairs seen, those
 * shown, the slowest, the starts still open, the ends with no start.
 */
static void pairs_summary(struct trace_ctx *tc, const struct trace_args *a)
{
	struct trace_pairs *tp = &tc->tp;
	char d[32], m[32], line[1024];
	int n;

	sdt_latency__finish(tp->pg.l, count_open, tp);
	if (tc->mode == TRACE_FLOW)
		n = snprintf(line, sizeof(line), "%" PRIu64 " returns (pairs), depth at most %zu",
			     tp->pairs, tp->max_depth);
	else if (a->min)
		n = snprintf(line, sizeof(line), "%" PRIu64 " of %" PRIu64 " pairs lasted %s or longer",
			     tp->shown, tp->pairs, cli_fmt_ns(m, sizeof(m), (double)tp->min_ns));
	else
		n = snprintf(line, sizeof(line), "%" PRIu64 " pairs", tp->pairs);
	if (tp->pairs && n > 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, "; the slowest %s (%s)",
			      cli_fmt_ns(d, sizeof(d), (double)tp->slowest_ns),
			      sdt_latency__pair_name(tp->pg.l, tp->slowest_pair));
	if (n > 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n,
			      "; %" PRIu64 " still open at the end", tp->open_at_end);
	if (tp->unmatched_ends && n > 0 && (size_t)n < sizeof(line))
		snprintf(line + n, sizeof(line) - (size_t)n,
			 "; %" PRIu64 " ends with no start (begun before tracing)",
			 tp->unmatched_ends);
	/* names come from the binaries: escaped */
	fputs("sdtrace: ", stderr);
	cli_put_escaped(stderr, line);
	fputc('\n', stderr);
}

/* After the run, on stderr: lost events, how the command ended, the events with no hit. */
static void trace_summary(const struct rec_setup *s, int ret)
{
	if (sdt_recorder__lost(s->rec))
		cli_warn("%llu events LOST (the ring buffer was full: try -m with more pages)",
			 (unsigned long long)sdt_recorder__lost(s->rec));
	rec_setup_print_late(s);
	rec_report_command(s, ret != 0);
	if (!ret)
		rec_report_silence(s);
}

/* Record with @s, each event printed as it comes; the command's exit status, or sdtrace's. */
static int trace_run(struct rec_setup *s, struct trace_ctx *tc, const struct trace_args *a)
{
	struct sdt_recorder_sink sink = {
		.ctx = tc,
		.on_event_desc = on_event_desc,
		.on_sample = on_sample,
		.on_comm = on_comm,
		.on_drained = on_drained,
	};
	int err, ret = 0;

	if (sdt_trace_decoder__new(&tc->dec) ||
	    (tc->mode != TRACE_EVENTS && sdt_latency__new(&tc->tp.pg.l))) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	/* the provider files' `@sdtrace key:`, `pair:` and `pair-by:` notes, as report reads */
	tc->tp.pg.types = s->types;
	tc->rec = s->rec;
	json_init(&tc->j, stdout, false);
	setvbuf(stdout, NULL, _IOLBF, 0);
	err = sdt_recorder__run(s->rec, &sink);
	/* what is still held: in time order, now that no sample can come */
	if (!err && !tc->err)
		hold_release(tc, UINT64_MAX);
	if (tc->err) {
		cli_error("%s", tc->msg);
		ret = EXIT_RUNTIME;
	} else if (err) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
	}
	/*
	 * The reader went away (| head): it had what it wanted, and the probes are gone already;
	 * end quietly with 0, as perf and git do (the command was stopped because of it).
	 */
	if (!ret && tc->stopped && cli_stdout_closed())
		return 0;
	if (!ret && tc->mode != TRACE_EVENTS)
		pairs_summary(tc, a);
	trace_summary(s, ret);
	/* the command's status, unless sdtrace itself failed */
	return rec_exit_code(s, ret);
}

int cmd_trace(int argc, char **argv)
{
	static const struct option own[] = {
		{"json", no_argument, NULL, 'J'},
		{"interval", required_argument, NULL, 'I'},
		{"latency", no_argument, NULL, OPT_LATENCY},
		{"min", required_argument, NULL, OPT_MIN},
		{"flow", no_argument, NULL, OPT_FLOW},
		{"pair-by", required_argument, NULL, OPT_PAIR_BY},
		{NULL, 0, NULL, 0},
	};
	struct trace_args args = {.interval = 50};
	const struct rec_command cmd = {"trace", trace_usage, "", own, trace_option, &args};
	struct rec_setup s = {0};
	struct trace_ctx tc = {0};
	int ret;

	ret = rec_setup_parse(&s, &cmd, argc, argv);
	if (!ret)
		ret = trace_check_args(&args);
	if (!ret) {
		tc.json = args.json;
		tc.mode = args.latency ? TRACE_LATENCY : args.flow ? TRACE_FLOW : TRACE_EVENTS;
		tc.tp.min_ns = args.min_ns;
		tc.tp.pg.pair_by_key = args.pair_by_key;
		s.drain_interval_ms = (unsigned int)args.interval;
		ret = rec_setup_finish(&s, argc, argv, false);
	}
	if (!ret)
		ret = trace_run(&s, &tc, &args);
	sdt_trace_decoder__free(tc.dec);
	trace_pairs_free(&tc.tp);
	hold_free(&tc.hold);
	rec_setup_release(&s);
	return ret == REC_HELP ? 0 : ret;
}
