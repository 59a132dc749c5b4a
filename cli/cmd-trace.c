/* SPDX-License-Identifier: MIT */
/*
 * sdtrace trace: the record pipeline, printing each event as it arrives (line-buffered).
 *
 * The recorder's samples are decoded in the sink, as they arrive, by the library's decoder
 * (sdt_trace_decoder), which decodes them as the reader decodes a recording, and printed by the
 * printer `report` uses: so what `trace` shows is exactly what `record` + `report` would show.
 * Rings are drained at least every --interval (default 50 ms), which bounds the delay of a line.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cli.h"
#include "event-print.h"
#include "json.h"
#include "record-setup.h"
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
	"%s"
	"\n"
	"examples:\n"
	"  sdtrace trace -e '%%python:gc__*' -- /usr/bin/python3.11 -c 'import gc; gc.collect()'\n"
	"  sdtrace trace -e '%%postgresql:query__start' -p $(pgrep -o postgres)\n"
	"  sdtrace trace -e '%%example:*' --json -- ./sdt-example | jq .args\n"
	"  sdtrace trace -e '%%python:function__entry' -- python3 app.py   # shipped types:\n"
	"                                 # filename=\"app.py\" funcname=\"main\" lineno=3\n"
	"  sdtrace trace -e '%%myprov:req(path:string, len:u32)' --json -- ./srv | jq .fields\n";

/* The sink's state: the decoder, how to print, the first failure. */
struct trace_ctx {
	struct sdt_trace_decoder *dec;
	struct sdt_recorder *rec;
	struct json j;
	bool json;
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

static int on_event_desc(void *ctx, const struct sdt_trace_event_desc *d)
{
	struct trace_ctx *tc = ctx;

	return keep_err(tc, sdt_trace_decoder__add_desc(tc->dec, d));
}

/* Decode and print one event; once stdout has failed, ask the recorder to stop and clean up. */
static int on_sample(void *ctx, const struct sdt_trace_sample *s)
{
	struct trace_ctx *tc = ctx;
	const struct sdt_trace_event *ev;
	int err;

	err = keep_err(tc, sdt_trace_decoder__sample(tc->dec, s, &ev));
	if (err || tc->stopped)
		return err;
	if (tc->json)
		print_event_json(&tc->j, ev);
	else
		print_event_text(ev);
	if (ferror(stdout)) {
		tc->stopped = true;
		sdt_recorder__stop(tc->rec);
	}
	return 0;
}

static void on_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm)
{
	struct trace_ctx *tc = ctx;

	keep_err(tc, sdt_trace_decoder__comm(tc->dec, pid, tid, comm));
}

/* trace's own options: --json, --interval. */
struct trace_args {
	bool json;
	unsigned long interval;
};

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
	default:
		return cli_usage_error("trace", "bad option");
	}
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
static int trace_run(struct rec_setup *s, struct trace_ctx *tc)
{
	struct sdt_recorder_sink sink = {
		.ctx = tc,
		.on_event_desc = on_event_desc,
		.on_sample = on_sample,
		.on_comm = on_comm,
	};
	int err, ret = 0;

	if (sdt_trace_decoder__new(&tc->dec)) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	tc->rec = s->rec;
	json_init(&tc->j, stdout, false);
	setvbuf(stdout, NULL, _IOLBF, 0);
	err = sdt_recorder__run(s->rec, &sink);
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
	trace_summary(s, ret);
	/* the command's status, unless sdtrace itself failed */
	return rec_exit_code(s, ret);
}

int cmd_trace(int argc, char **argv)
{
	static const struct option own[] = {
		{"json", no_argument, NULL, 'J'},
		{"interval", required_argument, NULL, 'I'},
		{NULL, 0, NULL, 0},
	};
	struct trace_args args = {.interval = 50};
	const struct rec_command cmd = {"trace", trace_usage, "", own, trace_option, &args};
	struct rec_setup s = {0};
	struct trace_ctx tc = {0};
	int ret;

	ret = rec_setup_parse(&s, &cmd, argc, argv);
	if (!ret) {
		tc.json = args.json;
		s.drain_interval_ms = (unsigned int)args.interval;
		ret = rec_setup_finish(&s, argc, argv, false);
	}
	if (!ret)
		ret = trace_run(&s, &tc);
	sdt_trace_decoder__free(tc.dec);
	rec_setup_release(&s);
	return ret == REC_HELP ? 0 : ret;
}
