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
#include "stat-agg.h"
#include "stat-rows.h"
#include "stat-serve.h"

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
    "                        [{\"provider\", \"name\", \"count\", \"total\", \"rate\"}]};\n"
    "                        with --by / --latency the rows so far, each interval\n"
    "      --by ARGS         count per value of these arguments (names or argN, comma-\n"
    "                        separated, at most 4; strings by their first 126 bytes), in\n"
    "                        the kernel (BPF engine): a row per event and value, most\n"
    "                        hits first; with --json {\"by\", \"rows\": [{\"provider\",\n"
    "                        \"name\", \"key\": {NAME: VALUE}, \"count\"}], \"dropped_keys\"}\n"
    "      --latency         time the pairs (as report --latency pairs them: the provider\n"
    "                        files' pair notes, __start/__done, __begin/__end,\n"
    "                        __entry/__return, or --pair) in the kernel (BPF\n"
    "                        engine): per pair count, min, avg, p50/p90/p99 (within 12.5%%),\n"
    "                        max, total; with --by a row per value of the start's ARGS\n"
    "      --key ARGS        with --latency: a start and an end pair only on the same\n"
    "                        thread and these values (default: the provider file's key\n"
    "                        note). Starts nest: an end closes the most recent open\n"
    "                        start of its pair, thread and key (1024 deep; deeper starts\n"
    "                        are counted and said)\n"
    "      --pair-by thread|key  with --latency: pair on the thread and key (the default)\n"
    "                        or on the key alone, whatever the thread (a server handing a\n"
    "                        request between threads; also a pair whose provider file\n"
    "                        says pair-by: key)\n"
    "      --pair START,END  with --latency: a pair of event specs; repeatable\n"
    "      --top N           the first N rows (per pair with --latency)\n"
    "      --max-keys N      at most N keys per kernel map (default 10240); the hits of\n"
    "                        more keys are counted and said, not aggregated\n"
    "      --serve ADDR:PORT serve the counts over HTTP at /metrics, in the Prometheus text\n"
    "                        format, until the end (127.0.0.1:9464, [::1]:9464, :9464 for\n"
    "                        every address); read when a scrape arrives; with --by a\n"
    "                        series per key, with --latency a histogram per key too\n"
    "%s"
    "\n"
    "examples:\n"
    "  sdtrace stat -e '%%python:*' -- python3 -c 'import json'\n"
    "  sdtrace stat -e '%%postgresql:transaction__*' -p $(pgrep -d, postgres) --duration 5\n"
    "  sdtrace stat --types ./myprov.d -e '%%myprov:*' -- ./myprog   # types are checked too\n"
    "  sdtrace stat -e '%%postgresql:query__start' -a -I 1000      # rates, every second\n"
    "  sdtrace stat --by query --top 10 -e '%%postgresql:query__start' -a --duration 10\n"
    "  sdtrace stat --latency --by query -e '%%postgresql:query__*' -p $(pgrep -d, postgres)\n"
    "  sdtrace stat -e '%%postgresql:query__start' -a --serve 127.0.0.1:9464   # for Prometheus\n";

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
	bool interval;
	struct stat_serve *serve; /* --serve, or NULL */
	struct stat_agg *agg;	  /* --by, --latency, or NULL */
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
	stat_serve_update(sc->serve, sc->rec, true, 0); /* --serve: every series, at 0 */
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

/* The counters were just read: --interval's lines, --serve's page. */
static void on_drained(void *ctx)
{
	struct stat_ctx *sc = ctx;
	/* a scrape waiting for this drain (not every drain: the kernel's keys are a walk) */
	bool serve = stat_serve_wanted(sc->serve, sc->rec);

	/* the kernel's rows, read once for both (a walk of its maps) */
	if (sc->agg && sc->armed_ns && (sc->interval || serve) &&
	    sdt_recorder__agg_refresh(sc->rec))
		cli_warn("the kernel's keys were not read: %s", sdt_errmsg());
	if (sc->interval && sc->agg && sc->armed_ns)
		stat_agg_print_tick(sc->agg, sc->rec, sc->out, sc->json, ++sc->intervals,
				    mono_ns() - sc->armed_ns);
	else if (sc->interval)
		on_tick(sc);
	if (serve)
		stat_serve_update(sc->serve, sc->rec, sc->armed_ns != 0,
				  sc->armed_ns ? mono_ns() - sc->armed_ns : 0);
}

/* stat's own options: --json, -o, --interval, --serve, and those of stat-agg.h. */
struct stat_args {
	bool json;
	const char *output;
	unsigned long interval;
	struct stat_agg_args agg;
	struct stat_serve_addr serve;
	bool serving;
};

/* values of stat's own long options: apart from the shared ones (record-setup.c, 0x100...) */
enum {
	OPT_BY = 1000,
	OPT_LATENCY,
	OPT_KEY,
	OPT_PAIR,
	OPT_PAIR_BY,
	OPT_TOP,
	OPT_MAX_KEYS,
	OPT_SERVE
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
	case OPT_BY:
		a->agg.by = arg;
		return 0;
	case OPT_KEY:
		a->agg.key = arg;
		return 0;
	case OPT_LATENCY:
		a->agg.latency = true;
		return 0;
	case OPT_PAIR_BY:
		if (strcmp(arg, "thread") && strcmp(arg, "key"))
			return cli_usage_error("stat", "--pair-by: '%s' is neither thread nor key", arg);
		a->agg.pair_by_key = !strcmp(arg, "key");
		return 0;
	case OPT_PAIR: {
		const char **p = realloc(a->agg.pairs, (a->agg.npairs + 1) * sizeof(*p));

		if (!p) {
			cli_error("out of memory");
			return EXIT_RUNTIME;
		}
		a->agg.pairs = p;
		p[a->agg.npairs++] = arg;
		return 0;
	}
	case OPT_TOP: {
		char *end;

		a->agg.top = strtoul(arg, &end, 10);
		if (*end || !*arg || !a->agg.top || a->agg.top > 1000000)
			return cli_usage_error("stat", "--top: '%s' is not a number of rows (1 to "
					       "1000000)", arg);
		return 0;
	}
	case OPT_MAX_KEYS: {
		char *end;

		a->agg.max_keys = strtoul(arg, &end, 10);
		if (*end || !*arg || !a->agg.max_keys || a->agg.max_keys > 1000000)
			return cli_usage_error("stat", "--max-keys: '%s' is not a number of keys (1 "
					       "to 1000000)", arg);
		return 0;
	}
	case OPT_SERVE:
		if (stat_serve_parse(arg, &a->serve))
			return cli_usage_error("stat",
					       "--serve: '%s' is not ADDR:PORT (127.0.0.1:9464, "
					       "[::1]:9464, :9464)",
					       arg);
		a->serving = true;
		return 0;
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
	    {"by", required_argument, NULL, OPT_BY},
	    {"latency", no_argument, NULL, OPT_LATENCY},
	    {"key", required_argument, NULL, OPT_KEY},
	    {"pair", required_argument, NULL, OPT_PAIR},
	    {"pair-by", required_argument, NULL, OPT_PAIR_BY},
	    {"top", required_argument, NULL, OPT_TOP},
	    {"max-keys", required_argument, NULL, OPT_MAX_KEYS},
	    {"serve", required_argument, NULL, OPT_SERVE},
	    {NULL, 0, NULL, 0},
	};
	struct rec_setup s = {0};
	struct stat_ctx sc = {0};
	struct sdt_recorder_sink sink = {
	    .ctx = &sc, .on_event_desc = on_event_desc, .on_armed = on_armed};
	struct stat_row *rows = NULL;
	struct stat_args args = {0};
	struct stat_agg *agg = NULL;
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
	if ((args.agg.top || args.agg.max_keys) && !stat_agg_wanted(&args.agg)) {
		ret = cli_usage_error("stat", "%s goes with --by or --latency",
				      args.agg.top ? "--top" : "--max-keys");
		goto out;
	}
	if (args.interval) {
		s.drain_interval_ms = (unsigned int)args.interval;
		sink.on_drained = on_drained;
		sc.interval = true;
	}
	if (args.serving) { /* a scrape asks for a drain: no need of one every 100 ms */
		s.drain_interval_ms = args.interval ? (unsigned int)args.interval : 1000;
		sink.on_drained = on_drained;
	}
	if (stat_agg_wanted(&args.agg)) {
		/* the types are loaded by rec_setup_finish(), before the run asks for keys */
		ret = stat_agg_new(&args.agg, NULL, &agg);
		if (ret)
			goto out;
		s.agg_for = stat_agg_for;
		s.agg_ctx = agg;
		sc.agg = agg;
		s.agg_max_keys = args.agg.max_keys;
	}
	ret = rec_setup_finish(&s, argc, argv, true);
	if (ret)
		goto out;
	if (agg)
		stat_agg_set_types(agg, s.types);
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
	/* --serve: listening before any probe is placed, so before the command is released */
	if (args.serving) {
		ret = stat_serve_start(&args.serve, s.rec, &sc.serve);
		if (ret)
			goto out;
		stat_serve_set_agg(sc.serve, agg);
	}
	if (sdt_recorder__run(s.rec, &sink)) {
		if (!agg || !stat_agg_failed(agg))
			cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
		goto out;
	}
	status = sdt_recorder__exit_status(s.rec);
	stat_serve_finish(sc.serve, s.rec, sdt_recorder__elapsed_ns(s.rec) != 0,
			  sdt_recorder__elapsed_ns(s.rec));
	stat_serve_stop(sc.serve);
	sc.serve = NULL;
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
	if (agg) {
		stat_agg_print(agg, s.rec, out, json, status);
		if (!json)
			rec_report_command(&s, false);
	} else if (json) {
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
		rec_json_exit_status(&j, status);
		json_end_object(&j);
		json_newline(&j);
	} else {
		size_t np = stat_rows_collect_paths(&sc.names, s.rec, rows);
		bool by_binary = np > n;

		if (args.interval)
			fprintf(out, "# total\n");
		/* an event counted in more than one binary: whose hits they are, per binary */
		if (by_binary) {
			fprintf(out, "%14s  %s  %s\n", "count", "event", "binary");
			n = np;
		} else {
			fprintf(out, "%14s  %s\n", "count", "event");
		}
		for (i = 0; i < n; i++) {
			fprintf(out, "%14llu  %%", (unsigned long long)rows[i].count);
			cli_put_escaped(out, rows[i].provider);
			fputc(':', out);
			cli_put_escaped(out, rows[i].name);
			if (by_binary) {
				fputs("  ", out);
				cli_put_escaped(out, rows[i].path);
			}
			fputc('\n', out);
		}
		if (sdt_recorder__elapsed_ns(s.rec))
			fprintf(out, "\n%14.3f  seconds elapsed\n",
				(double)sdt_recorder__elapsed_ns(s.rec) / 1e9);
		rec_report_command(&s, false);
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
	stat_serve_stop(sc.serve);
	stat_names_free(&sc.names);
	free(sc.rows);
	free(sc.prev);
	free(rows);
	stat_agg_free(agg);
	free(args.agg.pairs);
	rec_setup_release(&s);
	return ret;
}
