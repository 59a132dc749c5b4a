/* SPDX-License-Identifier: MIT */
/* sdtrace stat: how often each SDT event fires, counted in the kernel (no ring buffer). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "cli.h"
#include "json.h"
#include "record-setup.h"
#include "stat-rows.h"

static const char stat_usage[] =
    "usage: sdtrace stat -e SPEC [-e SPEC]... [-x PATH] [--json] [-o FILE] [options] "
    "-- CMD [ARGS...]\n"
    "       sdtrace stat -e SPEC... -p PID[,PID...] | -a [--duration SECS]\n"
    "\n"
    "Count the hits of each event, in the kernel: no ring buffer, no data file, the cheapest way\n"
    "to ask \"how often\". Counts are per provider:event (sites with different argument layouts\n"
    "are added up). More than 8 events are counted from argument-less samples of one shared\n"
    "tracefs event instead (the kernel closes each counted event in ~90 ms); hits a full ring\n"
    "loses are reported.\n"
    "\n"
    "      --json            one JSON object: {\"events\": [{\"provider\", \"name\", \"count\"}],\n"
    "                        \"elapsed_s\", \"lost\", \"exit_status\"}\n"
    "  -o, --output FILE     write the counts there instead of stdout (the command keeps it)\n"
    "  -I, --interval MS     also print the counts every MS milliseconds (10 or more): per\n"
    "                        interval the time since the probes were armed, and per event\n"
    "                        the hits of the interval and their rate per second; with --json\n"
    "                        one object per interval: {\"interval\", \"elapsed_s\", \"events\":\n"
    "                        [{\"provider\", \"name\", \"count\", \"total\", \"rate\"}]}\n"
    "%s"
    "\n"
    "examples:\n"
    "  sdtrace stat -e '%%python:*' -- python3 -c 'import json'\n"
    "  sdtrace stat -e '%%postgresql:transaction__*' -p $(pgrep -d, postgres) --duration 5\n"
    "  sdtrace stat --types ./myprov.d -e '%%myprov:*' -- ./myprog   # types are checked too\n"
    "  sdtrace stat -e '%%postgresql:query__start' -a -I 1000      # rates, every second\n";

struct stat_ctx {
	struct stat_names names;
	/* --interval */
	struct sdt_recorder *rec;
	FILE *out;
	bool json;
	uint64_t armed_ns, last_ns, intervals;
	struct stat_row *rows;
	uint64_t *prev; /* per row, the total at the last interval */
	size_t nrows;
	int err; /* ENOMEM at a tick: said at the end */
};

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void on_armed(void *ctx)
{
	struct stat_ctx *sc = ctx;

	sc->armed_ns = sc->last_ns = mono_ns();
}

static int on_event_desc(void *ctx, const struct sdt_trace_event_desc *d)
{
	struct stat_ctx *sc = ctx;

	return stat_names_add(&sc->names, d);
}

/* One --interval line per event (or one JSON object), from the counts just read. */
static void on_tick(void *ctx)
{
	struct stat_ctx *sc = ctx;
	uint64_t now = mono_ns(), span;
	size_t i, n;
	struct json j;

	if (!sc->armed_ns)
		return; /* not armed yet */
	if (!sc->rows) {
		sc->rows = calloc(sc->names.n ? sc->names.n : 1, sizeof(*sc->rows));
		sc->prev = calloc(sc->names.n ? sc->names.n : 1, sizeof(*sc->prev));
		if (!sc->rows || !sc->prev) {
			sc->err = ENOMEM;
			return;
		}
	}
	n = stat_rows_collect(&sc->names, sc->rec, sc->rows);
	if (n != sc->nrows) { /* the first tick: the rows are fixed from now on */
		memset(sc->prev, 0, (sc->names.n ? sc->names.n : 1) * sizeof(*sc->prev));
		sc->nrows = n;
	}
	span = now - sc->last_ns;
	sc->last_ns = now;
	sc->intervals++;
	if (sc->json) {
		json_init(&j, sc->out, false);
		json_begin_object(&j);
		json_key(&j, "interval");
		json_uint(&j, sc->intervals);
		json_key(&j, "elapsed_s");
		json_double(&j, (double)(now - sc->armed_ns) / 1e9);
		json_key(&j, "events");
		json_begin_array(&j);
	} else if (sc->intervals == 1) {
		fprintf(sc->out, "#%13s  %14s  %14s  %s\n", "time (s)", "count", "rate/s", "event");
	}
	for (i = 0; i < n; i++) {
		uint64_t d = sc->rows[i].count - sc->prev[i];
		double rate = span ? (double)d * 1e9 / (double)span : 0;

		sc->prev[i] = sc->rows[i].count;
		if (sc->json) {
			json_begin_object(&j);
			json_key(&j, "provider");
			json_string(&j, sc->rows[i].provider);
			json_key(&j, "name");
			json_string(&j, sc->rows[i].name);
			json_key(&j, "count");
			json_uint(&j, d);
			json_key(&j, "total");
			json_uint(&j, sc->rows[i].count);
			json_key(&j, "rate");
			json_double(&j, rate);
			json_end_object(&j);
		} else {
			fprintf(sc->out, "%14.3f  %14llu  %14.1f  %%%s:%s\n",
				(double)(now - sc->armed_ns) / 1e9, (unsigned long long)d, rate,
				sc->rows[i].provider, sc->rows[i].name);
		}
	}
	if (sc->json) {
		json_end_array(&j);
		json_end_object(&j);
		json_newline(&j);
	}
	fflush(sc->out);
}

/* stat's own options: --json, -o, --interval. */
struct stat_args {
	bool json;
	const char *output;
	unsigned long interval;
};

static int stat_option(void *ctx, int c, const char *arg)
{
	struct stat_args *a = ctx;

	switch (c) {
	case 'J':
		a->json = true;
		return 0;
	case 'o':
		a->output = arg;
		return 0;
	case 'I': {
		char *end;

		a->interval = strtoul(arg, &end, 10);
		if (*end || !*arg || a->interval < 10 || a->interval > 3600000)
			return cli_usage_error("stat",
					       "--interval: '%s' is not a number of "
					       "milliseconds (10 to 3600000)",
					       arg);
		return 0;
	}
	default:
		return cli_usage_error("stat", "bad option");
	}
}

int cmd_stat(int argc, char **argv)
{
	static const struct option own[] = {
	    {"json", no_argument, NULL, 'J'},
	    {"output", required_argument, NULL, 'o'},
	    {"interval", required_argument, NULL, 'I'},
	    {NULL, 0, NULL, 0},
	};
	struct rec_setup s = {0};
	struct stat_ctx sc = {0};
	struct sdt_recorder_sink sink = {
	    .ctx = &sc, .on_event_desc = on_event_desc, .on_armed = on_armed};
	struct stat_row *rows = NULL;
	struct stat_args args = {0};
	const struct rec_command cmd = {"stat", stat_usage, "o:I:", own, stat_option, &args};
	bool json = false;
	const char *output = NULL;
	FILE *out = stdout;
	char *tmp = NULL;
	size_t i, n;
	int ret = 0, status, fd = -1;

	ret = rec_setup_parse(&s, &cmd, argc, argv);
	if (ret) {
		ret = ret == REC_HELP ? 0 : ret;
		goto out;
	}
	json = args.json;
	output = args.output;
	if (args.interval) {
		s.drain_interval_ms = (unsigned int)args.interval;
		sink.on_drained = on_tick;
	}
	ret = rec_setup_finish(&s, argc, argv, true);
	if (ret)
		goto out;
	/* -o: refused or created before any probe is placed, renamed into place at the end */
	if (output) {
		fd = cli_output_create(output, &tmp);
		out = fd < 0 ? NULL : fdopen(fd, "w");
		if (!out) {
			if (fd >= 0)
				cli_error("cannot write '%s': %s", output, strerror(errno));
			out = stdout;
			ret = EXIT_RUNTIME;
			goto out;
		}
		fd = -1; /* out owns it */
	}
	sc.rec = s.rec;
	sc.out = out;
	sc.json = json;
	if (sdt_recorder__run(s.rec, &sink)) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
		goto out;
	}
	status = sdt_recorder__exit_status(s.rec);
	if (sc.err) {
		cli_error("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	rows = calloc(sc.names.n ? sc.names.n : 1, sizeof(*rows));
	if (!rows) {
		cli_error("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	n = stat_rows_collect(&sc.names, s.rec, rows);
	/* many events are counted from samples (lib/record/recorder.c): a full ring loses some */
	if (sdt_recorder__lost(s.rec))
		fprintf(stderr,
			"sdtrace: %llu hits were not counted (the ring buffers were full): the "
			"counts are low\n",
			(unsigned long long)sdt_recorder__lost(s.rec));
	rec_setup_print_late(&s);
	if (json) {
		struct json j;

		json_init(&j, out, false);
		json_begin_object(&j);
		json_key(&j, "events");
		json_begin_array(&j);
		for (i = 0; i < n; i++) {
			json_begin_object(&j);
			json_key(&j, "provider");
			json_string(&j, rows[i].provider);
			json_key(&j, "name");
			json_string(&j, rows[i].name);
			json_key(&j, "count");
			json_uint(&j, rows[i].count);
			json_end_object(&j);
		}
		json_end_array(&j);
		json_key(&j, "elapsed_s");
		json_double(&j, (double)sdt_recorder__elapsed_ns(s.rec) / 1e9);
		json_key(&j, "lost");
		json_uint(&j, sdt_recorder__lost(s.rec));
		json_key(&j, "exit_status");
		if (status >= 0)
			json_int(&j, rec_shell_status(status));
		else
			json_null(&j);
		json_end_object(&j);
		json_newline(&j);
	} else {
		if (args.interval)
			fprintf(out, "# total\n");
		fprintf(out, "%14s  %s\n", "count", "event");
		for (i = 0; i < n; i++)
			fprintf(out, "%14llu  %%%s:%s\n", (unsigned long long)rows[i].count,
				rows[i].provider, rows[i].name);
		if (sdt_recorder__elapsed_ns(s.rec))
			fprintf(out, "\n%14.3f  seconds elapsed\n",
				(double)sdt_recorder__elapsed_ns(s.rec) / 1e9);
		if (status >= 0 && WIFSIGNALED(status))
			fprintf(stderr, "sdtrace: the command was killed by signal %d\n",
				WTERMSIG(status));
		else if (status >= 0 && WEXITSTATUS(status))
			fprintf(stderr, "sdtrace: the command exited with status %d\n",
				WEXITSTATUS(status));
		else if (status < 0 && s.argv)
			fprintf(stderr, "sdtrace: the command was not started\n");
	}
	rec_report_silence(&s);
	if (out != stdout && (fflush(out) || ferror(out))) {
		cli_error("cannot write '%s': %s", output, strerror(errno));
		ret = EXIT_RUNTIME;
	}
out:
	if (tmp)
		ret = cli_output_done(out != stdout ? fileno(out) : fd, tmp, output, ret);
	if (out != stdout)
		fclose(out);
	if (fd >= 0)
		close(fd);
	/* the command's status, unless sdtrace itself failed (after -o is in place) */
	ret = rec_exit_code(&s, ret);
	stat_names_free(&sc.names);
	free(sc.rows);
	free(sc.prev);
	free(rows);
	rec_setup_release(&s);
	return ret;
}
