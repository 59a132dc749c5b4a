/* SPDX-License-Identifier: MIT */
/*
 * sdtrace trace: the record pipeline, printing each event as it arrives (line-buffered).
 *
 * The recorder's samples go through the data file writer into a pipe, and a reader thread reads
 * the pipe with the same reader `report` uses: one decoder and one printer for both, so what
 * `trace` shows is exactly what `record` + `report` would show. Rings are drained at least every
 * --interval (default 50 ms), which bounds the delay of a line.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace/trace_file.h"
#include "cli.h"
#include "event-print.h"
#include "json.h"
#include "record-setup.h"

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

struct trace_ctx {
	struct sdt_trace_writer *w;
	int err;
	int read_fd;
	bool json;
	struct sdt_recorder *rec;
	int reader_err;
	char reader_msg[512];
};

static void keep_err(struct trace_ctx *tc, int err)
{
	if (err && !tc->err)
		tc->err = err;
}

static int on_event_desc(void *ctx, const struct sdt_trace_event_desc *d)
{
	struct trace_ctx *tc = ctx;
	int err = sdt_trace_writer__event(tc->w, d);

	keep_err(tc, err);
	return err;
}

static int on_sample(void *ctx, const struct sdt_trace_sample *s)
{
	struct trace_ctx *tc = ctx;
	int err = sdt_trace_writer__sample(tc->w, s);

	keep_err(tc, err);
	return err;
}

static void on_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm)
{
	struct trace_ctx *tc = ctx;

	keep_err(tc, sdt_trace_writer__comm(tc->w, pid, tid, comm));
}

static void on_lost(void *ctx, uint32_t cpu, uint64_t count)
{
	struct trace_ctx *tc = ctx;

	keep_err(tc, sdt_trace_writer__lost(tc->w, cpu, count));
}

static void on_drained(void *ctx)
{
	struct trace_ctx *tc = ctx;

	keep_err(tc, sdt_trace_writer__flush(tc->w));
}

/* The reader thread: decode and print until the writer closes the pipe. */
static void *reader_main(void *arg)
{
	struct trace_ctx *tc = arg;
	struct sdt_trace_reader *r = NULL;
	const struct sdt_trace_event *ev;
	struct json j;
	char path[64];
	bool stopped = false;
	int err;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", tc->read_fd);
	err = sdt_trace_reader__open(path, NULL, &r);
	if (!err) {
		json_init(&j, stdout, false);
		while ((err = sdt_trace_reader__next(r, &ev)) > 0) {
			if (stopped)
				continue;
			if (tc->json)
				print_event_json(&j, ev);
			else
				print_event_text(ev);
			if (ferror(stdout)) {
				/* the reader of our output is gone (| head): stop, clean up */
				stopped = true;
				sdt_recorder__stop(tc->rec);
			}
		}
	}
	if (err < 0) {
		tc->reader_err = err;
		snprintf(tc->reader_msg, sizeof(tc->reader_msg), "%s", sdt_errmsg());
	}
	sdt_trace_reader__free(r);
	/* keep the pipe drained, so that the writer never blocks on a reader that stopped */
	if (err < 0) {
		char buf[4096];

		while (read(tc->read_fd, buf, sizeof(buf)) > 0)
			;
	}
	return NULL;
}

/*
 * The reader thread, with every signal blocked: a signal for the recorder (SIGINT, SIGTERM,
 * SIGHUP) must reach its epoll_pwait(), not interrupt the reader's read().
 */
static int start_reader(pthread_t *t, struct trace_ctx *tc)
{
	sigset_t all, old;
	int err;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(t, NULL, reader_main, tc);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
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

int cmd_trace(int argc, char **argv)
{
	static const struct option own[] = {
		{"json", no_argument, NULL, 'J'},
		{"interval", required_argument, NULL, 'I'},
		{NULL, 0, NULL, 0},
	};
	struct rec_setup s = {0};
	struct trace_ctx tc = {.read_fd = -1};
	struct sdt_recorder_sink sink = {
		.ctx = &tc,
		.on_event_desc = on_event_desc,
		.on_sample = on_sample,
		.on_comm = on_comm,
		.on_lost = on_lost,
		.on_drained = on_drained,
	};
	SDT_OPTS(sdt_trace_writer_opts, meta);
	struct trace_args args = {.interval = 50};
	const struct rec_command cmd = {"trace", trace_usage, "", own, trace_option, &args};
	unsigned long interval;
	pthread_t reader;
	bool reader_started = false;
	char *cmdline = NULL;
	int ret = 0, err, status, fds[2] = {-1, -1};

	ret = rec_setup_parse(&s, &cmd, argc, argv);
	if (ret) {
		ret = ret == REC_HELP ? 0 : ret;
		goto out;
	}
	tc.json = args.json;
	interval = args.interval;
	s.drain_interval_ms = (unsigned int)interval;
	ret = rec_setup_finish(&s, argc, argv, false);
	if (ret)
		goto out;

	if (pipe2(fds, O_CLOEXEC)) {
		cli_error("cannot create a pipe: %s", strerror(errno));
		ret = EXIT_RUNTIME;
		goto out;
	}
	tc.read_fd = fds[0];
	cmdline = rec_cmdline(argc, argv);
	meta.cmdline = cmdline;
	err = sdt_trace_writer__open_fd(fds[1], "<trace pipe>", &meta, &tc.w);
	fds[1] = -1; /* the writer owns it now */
	if (err) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
		goto out;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	tc.rec = s.rec;
	if (start_reader(&reader, &tc)) {
		cli_error("cannot start the reader thread");
		ret = EXIT_RUNTIME;
		goto out;
	}
	reader_started = true;

	err = sdt_recorder__run(s.rec, &sink);
	status = sdt_recorder__exit_status(s.rec);
	if (err && !tc.err) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
	}
	sdt_trace_writer__finish(tc.w, rec_shell_status(status));
	tc.w = NULL;
	pthread_join(reader, NULL);
	reader_started = false;
	if (tc.reader_err) {
		cli_error("%s", tc.reader_msg);
		ret = EXIT_RUNTIME;
	}
	if (sdt_recorder__lost(s.rec))
		cli_warn("%llu events LOST (the ring buffer was full: try -m with more pages)",
			 (unsigned long long)sdt_recorder__lost(s.rec));
	if (status >= 0 && WIFSIGNALED(status))
		fprintf(stderr, "sdtrace: the command was killed by signal %d\n", WTERMSIG(status));
	else if (status >= 0 && WEXITSTATUS(status))
		fprintf(stderr, "sdtrace: the command exited with status %d\n", WEXITSTATUS(status));
	else if (status < 0 && s.argv && !ret)
		fprintf(stderr, "sdtrace: the command was not started\n");
	/* the command's status, unless sdtrace itself failed */
	ret = rec_exit_code(&s, ret);
out:
	sdt_trace_writer__free(tc.w); /* closes the pipe: the reader ends */
	if (reader_started)
		pthread_join(reader, NULL);
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	free(cmdline);
	rec_setup_release(&s);
	return ret;
}
