/* SPDX-License-Identifier: MIT */
/*
 * sdtrace report: print a recording (sdtrace.data) as text, JSON Lines or counts, analyse the
 * latency between probe pairs (report-latency.c), or export it as a timeline (report-timeline.c:
 * Chrome JSON in report-chrome.c, Perfetto's protobuf in report-perfetto.c) or CSV (report-csv.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fetch.h"
#include "filter.h"
#include "event-print.h"
#include "json.h"
#include "report.h"
#include "sdtrace/sdtrace.h"

static const char report_usage[] =
    "usage: sdtrace report [-i FILE] [-o FILE] [--filter EXPR] [--json] [--stats] [--header]\n"
    "       sdtrace report [-i FILE] [-o FILE] [--filter EXPR] --latency [--json]\n"
    "                      [--pair START,END]... [--key ARGS] [--by ARGS] [--top N]\n"
    "       sdtrace report [-i FILE] [-o FILE] [--filter EXPR] --count --by ARGS [--sum NAME]\n"
    "                      [--top N]\n"
    "                      [--json]\n"
    "       sdtrace report [-i FILE] [-o FILE] [--filter EXPR] --format=chrome|perfetto|csv\n"
    "                      [--pair START,END]... [--slice-name ARGS]\n"
    "       sdtrace report [-i FILE] [-o FILE] [--filter EXPR] -g\n"
    "       sdtrace report [-i FILE] [-o FILE] [--filter EXPR] --format=folded|flamegraph\n"
    "                      [--title TITLE]\n"
    "\n"
    "Print the events of a recording, one line each, oldest first as recorded. The file\n"
    "describes itself: no tracefs, no probed binary and no root are needed, so a recording\n"
    "made on one machine is reported on another.\n"
    "\n"
    "  -i, --input FILE  the recording (default: sdtrace.data)\n"
    "  -o, --output FILE write there instead of stdout (replaced only once complete)\n"
    "      --json        JSON Lines: one object per event with the keys time_ns, cpu, pid,\n"
    "                    tid, comm (null when no name was recorded), provider, name, path,\n"
    "                    address (the site's link-time address, as 'sdtrace list --json'\n"
    "                    gives it; null when the probe ip cannot tell the site) and args\n"
    "                    (integers with the spec's sign and size, floats as numbers,\n"
    "                    strings as strings, null for an argument that was not recorded)\n"
    "      --filter EXPR only the events EXPR passes (FILTERS below); with --latency, the\n"
    "                    pairs whose events pass it\n"
    "      --stats       events per provider:event and binary, and events lost per CPU\n"
    "      --header      first the session: command line, host, kernel, start, event kinds\n"
    "                    and why any argument was not recorded\n"
    "      --latency     the time between the two probes of a pair on the same thread: per\n"
    "                    pair the count, min, avg, p50, p90, p99, max and a log2 histogram\n"
    "                    (bars as wide as $COLUMNS, else the terminal, else 80); with --json\n"
    "                    one object: {\"pairs\": [{name, start, end, count, min_ns, avg_ns,\n"
    "                    p50_ns, p90_ns, p99_ns, max_ns, unmatched_starts, unmatched_ends,\n"
    "                    histogram: [{low_ns, high_ns (exclusive), count}]}]}\n"
    "      --key ARGS    with --latency: a start and an end pair only on the same thread\n"
    "                    and with equal values of these arguments (NAME[,NAME...], by name\n"
    "                    or argN); an end whose pair's latest start had another key passes\n"
    "                    over it and is counted as a key mismatch, never paired silently.\n"
    "                    An event that lacks a name pairs as without a key (a warning).\n"
    "                    Without --key, a provider file's `@sdtrace key:` note is the key\n"
    "                    of its probe (CPython's function__entry/return: filename,funcname;\n"
    "                    HotSpot's method__*: class_name,method_name,signature; its\n"
    "                    mem__pool__gc__*: manager_name,pool_name). Starts nest: an end\n"
    "                    closes the most recent open start of its pair, thread and key\n"
    "      --pair-by thread|key  with --latency: pair on the thread and key (the default)\n"
    "                    or on the key alone, whatever the thread (a server handing a\n"
    "                    request between threads)\n"
    "      --by ARGS     with --latency: one row per value of these arguments of the start\n"
    "                    (or of the end, when the start lacks them): count, min, avg, p50,\n"
    "                    p90, p99 (exact), max and total, sorted by total time; in JSON a\n"
    "                    \"groups\" array per pair. With --count: events per provider:event\n"
    "                    and value, most first\n"
    "      --top N       the first N rows of --by; without --by, the N slowest single pairs\n"
    "                    with their start's and end's arguments (JSON: \"slowest\")\n"
    "      --count       with --by: count events per value instead of listing them\n"
    "      --sum NAME    with --count: also the sum of this integer argument per row, and\n"
    "                    the rows sorted by it (bytes allocated per class)\n"
    "      --slice-name ARGS  with --format=chrome or perfetto: name each slice by these\n"
    "                    arguments of its start (the query text, the method); the pair is\n"
    "                    its category\n"
    "      --pair START,END  a pair of event specs (globs allowed); repeatable. Without it,\n"
    "                    pairs follow the naming conventions: an event ending in __start,\n"
    "                    __begin, __entry, __startup, _start, _begin, _send or _pre opens,\n"
    "                    one ending in __done, __end, __return, __shutdown, _end,\n"
    "                    _complete, _recv, _done or _post closes, the pair of the same\n"
    "                    provider and stem (job__start/job__done, gc__begin/gc__end,\n"
    "                    function__entry/function__return, req_send/req_recv, save_pre/\n"
    "                    save_post), once both were recorded\n"
    "  -g                with a recording made with record -g: after each event's line, its\n"
    "                    user stack, leaf first, one frame a line: '\\tIP FUNCTION+0xOFF (FILE)';\n"
    "                    inlined functions are frames of their own, '(inlined)'; a frame\n"
    "                    nothing names is [BUILD-ID+0xFILE-OFFSET] (or [0xIP] outside every\n"
    "                    mapping), never dropped. Files are found by build-id: at their\n"
    "                    recorded path, else the cache's copy, else\n"
    "                    DIR/.build-id/xx/rest.debug, DIR each of $SDTRACE_DEBUG_DIR\n"
    "                    (default /usr/lib/debug), where a stripped file's symbols are too\n"
    "      --title TITLE with --format=flamegraph: the image's title\n"
    "      --format=FMT  text (default), json (= --json), chrome, perfetto, csv, folded or\n"
    "                    flamegraph:\n"
    "                    chrome: a Chrome trace-event JSON file for ui.perfetto.dev or\n"
    "                      chrome://tracing: pairs as B/E slices, other events as instant\n"
    "                      events, with their named arguments; timestamps in microseconds\n"
    "                      from the start of the recording (3 decimals); process and thread\n"
    "                      names as metadata; written as it is read (any size)\n"
    "                    perfetto: Perfetto's own protobuf trace (TrackEvent) for\n"
    "                      ui.perfetto.dev and trace_processor, the same slices and instants\n"
    "                      on a track per process and thread, arguments as debug\n"
    "                      annotations, names interned, CLOCK_MONOTONIC nanoseconds; 0.37-0.39\n"
    "                      of chrome's size (bench/b90); binary: with -o, or stdout not a tty\n"
    "                    csv: a header line, then one row per event (RFC 4180): time_ns,\n"
    "                      time_us (from the start), cpu, pid, tid, comm, provider, name,\n"
    "                      path, address, then one column per argument position (as many\n"
    "                      as the widest event has; empty when not recorded)\n"
    "                    folded: the user stacks (record -g), symbolized as with -g, one line\n"
    "                      per distinct event and stack, root first, with its count:\n"
    "                      'provider:event;main;outer;inner 50', sorted (flamegraph.pl,\n"
    "                      inferno and speedscope read it)\n"
    "                    flamegraph: the same stacks as one self-contained interactive SVG\n"
    "                      (click to zoom, hover for the frame), each event a root frame\n"
    "\n"
    "Text lines read like perf script: comm, pid/tid, [cpu], time (CLOCK_MONOTONIC seconds),\n"
    "provider:event, then name=value for each argument: signed integers keep their sign\n"
    "(-5, not 251), floats are decoded from their bits, strings are quoted, rebased addresses\n"
    "are hex, and <unavailable> marks an argument that could not be recorded.\n"
    "A recording that was cut short (the recorder was killed) is read up to its last complete\n"
    "event, with a warning; lost events are always reported on stderr.\n"
    "\n"
    "Pairs: a start is pushed on its thread's stack and an end takes the most recent open\n"
    "start of its pair on that thread, so nested and recursive pairs match. Ends with no\n"
    "start (the recording began inside the pair) and starts never ended are counted and\n"
    "reported, never dropped silently. Percentiles are nearest-rank, exact below 128 ns and\n"
    "otherwise within 1/128 (0.8%) of the exact value; counts, min, max, avg and the\n"
    "histogram are exact. In the timeline, slices nest on each thread as Perfetto requires:\n"
    "an end without its start is left out (counted on stderr), a start never ended is ended\n"
    "at the end of the trace, and a slice crossed by another pair's end is split there.\n"
    "\n"
    "Filters: EXPR is tests joined by && and ||, negated by !, grouped by parentheses. A test\n"
    "is NAME [& MASK] [OP VALUE]: NAME an argument by its name (as the report shows it) or\n"
    "number (arg1 is the first), or pid, tid, comm, cpu; OP one of == != < <= > >= and ~ !~\n"
    "(a string against a glob: * ? [...]); VALUE an integer (decimal, 0x hex, negative), a\n"
    "float or a \"string\". With no OP a test is true when the value is not 0 (or not empty).\n"
    "A test on an argument that was not recorded is false. Events of a kind that lacks a\n"
    "name the filter uses are left out with a warning (with --latency they follow the other\n"
    "event of their pair: a pair counts when each of its events that has the names passes,\n"
    "and at least one has them); if no kind has them, it is an error.\n"
    "\n"
    "examples:\n"
    "  sdtrace report                              the events of ./sdtrace.data\n"
    "  sdtrace report --filter 'delta > 1000 && comm == \"worker\"'\n"
    "  sdtrace report --latency --filter 'query ~ \"SELECT*\"'\n"
    "  sdtrace report --latency --key filename,funcname --by funcname --top 10\n"
    "  sdtrace report --latency --top 5           the 5 slowest pairs, with their arguments\n"
    "  sdtrace report --count --by query --top 20\n"
    "  sdtrace report --count --by classname --sum length   (ruby's string__create)\n"
    "  sdtrace report --format=chrome --slice-name query -o trace.json\n"
    "  sdtrace report -i run1.data --stats         how many of each, and losses\n"
    "  sdtrace report --json | python3 -c 'import json,sys; [print(json.loads(l)[\"args\"]) "
    "for l in sys.stdin]'\n"
    "  sdtrace report --json | jq -c 'select(.name == \"query__start\") | .args[0]'\n"
    "  sdtrace report --latency                    job__start..job__done and the like\n"
    "  sdtrace report --latency --pair %example:job__start,%example:job__done\n"
    "  sdtrace report --latency --json | jq '.pairs[] | {name, p99_ns}'\n"
    "  sdtrace report --format=chrome -o trace.json   then open it in ui.perfetto.dev\n"
    "  sdtrace report --format=perfetto -o trace.pftrace\n"
    "  sdtrace report --format=csv -o events.csv\n"
    "  sdtrace report -g                           each event with its user stack\n"
    "  sdtrace report --format=folded | flamegraph.pl >stacks.svg\n"
    "  sdtrace report --format=flamegraph --title 'stack:hit' -o stacks.svg\n";

enum report_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_CHROME,
	FORMAT_PERFETTO,
	FORMAT_CSV,
	FORMAT_FOLDED,
	FORMAT_FLAMEGRAPH
};
/* The stack outputs (report-stack.c). */
#define FORMAT_STACKS(f) ((f) == FORMAT_FOLDED || (f) == FORMAT_FLAMEGRAPH)

enum { OPT_TITLE = 1000, OPT_PAIR_BY, OPT_SUM };

/* The timelines: chrome and perfetto take the same options. */
#define FORMAT_TIMELINE(f) ((f) == FORMAT_CHROME || (f) == FORMAT_PERFETTO)

struct report_opts {
	const char *input, *output;
	bool json, stats, header, latency, stacks;
	bool pair_by_key; /* --pair-by key */
	const char *sum;  /* --sum NAME */
	enum report_format format;
	const char *title;
	struct report_pairs pairs;
	const char *filter_text;
	struct sdt_filter *filter;
	struct report_names key, by, slice;
	size_t top;
	bool count;
	struct json j;
};

static void header(const struct sdt_trace_reader *r)
{
	time_t secs = (time_t)(sdt_trace_reader__start_realtime_ns(r) / 1000000000u);
	char when[64] = "?";
	struct tm tm;

	if (gmtime_r(&secs, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fputs("# command: ", stdout);
	cli_put_escaped(stdout, sdt_trace_reader__cmdline(r) ? sdt_trace_reader__cmdline(r) : "?");
	fputs("\n# host: ", stdout);
	cli_put_escaped(stdout,
			sdt_trace_reader__hostname(r) ? sdt_trace_reader__hostname(r) : "?");
	fputs("\n# kernel: ", stdout);
	cli_put_escaped(stdout, sdt_trace_reader__kernel_release(r)
				    ? sdt_trace_reader__kernel_release(r)
				    : "?");
	fputs("\n# engine: ", stdout);
	cli_put_escaped(stdout, sdt_trace_reader__engine(r) ? sdt_trace_reader__engine(r)
							    : "? (not recorded)");
	printf("\n# started: %s (monotonic %" PRIu64 ".%09" PRIu64 ")\n", when,
	       sdt_trace_reader__start_monotonic_ns(r) / 1000000000u,
	       sdt_trace_reader__start_monotonic_ns(r) % 1000000000u);
}

/* Kinds are described as the file goes: print each one the first time it is seen. */
static void header_kinds(const struct sdt_trace_reader *r, size_t *shown)
{
	size_t n = sdt_trace_reader__kind_count(r), i;

	for (; *shown < n; (*shown)++) {
		const struct sdt_trace_kind *k = sdt_trace_reader__kind(r, *shown);

		const struct sdt_trace_event_desc *d = sdt_trace_kind__desc(k);

		fputs("# event ", stdout);
		cli_put_escaped(stdout, sdt_trace_event_desc__provider(d));
		putchar(':');
		cli_put_escaped(stdout, sdt_trace_event_desc__name(d));
		fputs(" in ", stdout);
		cli_put_escaped(
		    stdout, sdt_trace_event_desc__path(d) ? sdt_trace_event_desc__path(d) : "?");
		fputs(" (build-id ", stdout);
		cli_put_escaped(stdout, sdt_trace_event_desc__build_id(d)
					    ? sdt_trace_event_desc__build_id(d)
					    : "none");
		fputs(")\n", stdout);
		for (i = 0; i < sdt_trace_event_desc__arg_count(d); i++) {
			const char *why = sdt_trace_event_desc__arg_unavailable(d, i);

			fputs("#   ", stdout);
			cli_put_escaped(stdout, sdt_trace_event_desc__arg_name(d, i));
			putchar(' ');
			cli_put_escaped(stdout, sdt_trace_event_desc__arg_spec(d, i)
						    ? sdt_trace_event_desc__arg_spec(d, i)
						    : "?");
			if (why) {
				fputs(": unavailable: ", stdout);
				cli_put_escaped(stdout, why);
			}
			putchar('\n');
		}
	}
}

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_kind(const void *pa, const void *pb)
{
	const struct sdt_trace_kind *a = *(const struct sdt_trace_kind *const *)pa;
	const struct sdt_trace_kind *b = *(const struct sdt_trace_kind *const *)pb;
	int c = cmp_str(sdt_trace_event_desc__provider(sdt_trace_kind__desc(a)),
			sdt_trace_event_desc__provider(sdt_trace_kind__desc(b)));

	if (!c)
		c = cmp_str(sdt_trace_event_desc__name(sdt_trace_kind__desc(a)),
			    sdt_trace_event_desc__name(sdt_trace_kind__desc(b)));
	if (!c)
		c = cmp_str(sdt_trace_event_desc__path(sdt_trace_kind__desc(a)),
			    sdt_trace_event_desc__path(sdt_trace_kind__desc(b)));
	return c;
}

/* Counts per provider:event and binary (events split over several tracefs events merged). */
static int stats(struct report_opts *o, const struct sdt_trace_reader *r)
{
	size_t n = sdt_trace_reader__kind_count(r), i, cpu;
	const struct sdt_trace_kind **ks;
	int status;

	ks = calloc(n ? n : 1, sizeof(*ks));
	if (!ks) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	for (i = 0; i < n; i++)
		ks[i] = sdt_trace_reader__kind(r, i);
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(ks, n, sizeof(*ks), cmp_kind);
	if (o->json) {
		json_begin_object(&o->j);
		json_key(&o->j, "events");
		json_begin_array(&o->j);
	} else {
		printf("%12s  %s\n", "events", "provider:event  binary");
	}
	for (i = 0; i < n;) {
		uint64_t count = 0;
		size_t e = i;

		while (e < n && !cmp_kind(&ks[i], &ks[e]))
			count += sdt_trace_kind__samples(ks[e++]);
		if (o->json) {
			json_begin_object(&o->j);
			json_key(&o->j, "provider");
			json_string(&o->j,
				    sdt_trace_event_desc__provider(sdt_trace_kind__desc(ks[i])));
			json_key(&o->j, "name");
			json_string(&o->j, sdt_trace_event_desc__name(sdt_trace_kind__desc(ks[i])));
			json_key(&o->j, "path");
			json_string(&o->j, sdt_trace_event_desc__path(sdt_trace_kind__desc(ks[i])));
			json_key(&o->j, "count");
			json_uint(&o->j, count);
			json_end_object(&o->j);
		} else {
			const struct sdt_trace_event_desc *d = sdt_trace_kind__desc(ks[i]);

			printf("%12" PRIu64 "  ", count);
			cli_put_escaped(stdout, sdt_trace_event_desc__provider(d));
			putchar(':');
			cli_put_escaped(stdout, sdt_trace_event_desc__name(d));
			fputs("  ", stdout);
			cli_put_escaped(stdout, sdt_trace_event_desc__path(d)
						    ? sdt_trace_event_desc__path(d)
						    : "?");
			putchar('\n');
		}
		i = e;
	}
	free(ks);
	if (o->json) {
		json_end_array(&o->j);
		json_key(&o->j, "total");
		json_uint(&o->j, sdt_trace_reader__sample_count(r));
		if (o->filter) {
			json_key(&o->j, "filtered_out");
			json_uint(&o->j, sdt_trace_reader__filtered_out(r));
		}
		json_key(&o->j, "lost");
		json_uint(&o->j, sdt_trace_reader__lost(r));
		json_key(&o->j, "lost_per_cpu");
		json_begin_object(&o->j);
		for (cpu = 0; cpu < sdt_trace_reader__lost_cpus(r); cpu++) {
			char key[24];

			if (!sdt_trace_reader__lost_on_cpu(r, cpu))
				continue;
			snprintf(key, sizeof(key), "%zu", cpu);
			json_key(&o->j, key);
			json_uint(&o->j, sdt_trace_reader__lost_on_cpu(r, cpu));
		}
		json_end_object(&o->j);
		json_key(&o->j, "truncated");
		json_bool(&o->j, sdt_trace_reader__truncated(r));
		json_key(&o->j, "exit_status");
		if (sdt_trace_reader__exit_status(r, &status) == 0)
			json_int(&o->j, status);
		else
			json_null(&o->j);
		json_end_object(&o->j);
		json_newline(&o->j);
		return 0;
	}
	printf("%12" PRIu64 "  total\n", sdt_trace_reader__sample_count(r));
	if (o->filter)
		printf("%12" PRIu64 "  filtered out (--filter)\n",
		       sdt_trace_reader__filtered_out(r));
	printf("%12" PRIu64 "  lost", sdt_trace_reader__lost(r));
	for (cpu = 0; cpu < sdt_trace_reader__lost_cpus(r); cpu++) {
		if (sdt_trace_reader__lost_on_cpu(r, cpu))
			printf(" (cpu %zu: %" PRIu64 ")", cpu,
			       sdt_trace_reader__lost_on_cpu(r, cpu));
	}
	putchar('\n');
	if (sdt_trace_reader__exit_status(r, &status) == 0)
		printf("command exit status: %d\n", status);
	else
		printf("command exit status: unknown (the recording was cut short)\n");
	return 0;
}

static int report(struct report_opts *o)
{
	SDT_OPTS(sdt_trace_open_opts, ro);
	const struct sdt_trace_event *ev;
	struct sdt_trace_reader *r;
	struct sdt_symbolizer *sym = NULL;
	size_t shown = 0;
	int err, ret = 0;

	/* the analyses pair each thread's events: in time order, not as the rings were drained */
	ro.time_order = o->latency ||
			(!o->count && (o->format == FORMAT_CHROME || o->format == FORMAT_PERFETTO));
	err = sdt_trace_reader__open(o->input, &ro, &r);
	if (err) {
		cli_error("%s", sdt_errmsg());
		if (err == -ENOENT && !strcmp(o->input, "sdtrace.data"))
			fprintf(stderr,
				"hint: make one with 'sdtrace record', or name one with -i\n");
		return EXIT_RUNTIME;
	}
	if (o->latency) {
		struct sdt_types *types = NULL;

		/*
		 * the provider files' `@sdtrace key:` notes (default keys) and `pair:` notes
		 * (none if unreadable)
		 */
		if (sdt_types__new(&types) || sdt_types__load_default(types, NULL, 0) < 0) {
			sdt_types__free(types);
			types = NULL;
		}
		struct report_latency_opts lo = {
		    .pairs = &o->pairs,
		    .filter = o->filter,
		    .key = o->key.n ? &o->key : NULL,
		    .types = types,
		    .by = o->by.n ? &o->by : NULL,
		    .top = o->top,
		    .json = o->json,
		    .pair_by_key = o->pair_by_key,
		};

		ret = report_latency(r, &lo, stdout);
		sdt_types__free(types);
		goto out;
	}
	if (o->count) {
		ret = report_count_by(r, &o->by, o->sum, o->filter, o->top, o->json, stdout);
		goto out;
	}
	sdt_trace_reader__set_filter(r, o->filter);
	if (o->format == FORMAT_CHROME) {
		ret = report_chrome(r, &o->pairs, o->slice.n ? &o->slice : NULL, stdout);
		goto out;
	}
	if (o->format == FORMAT_PERFETTO) {
		ret = report_perfetto(r, &o->pairs, o->slice.n ? &o->slice : NULL, stdout);
		goto out;
	}
	if (o->format == FORMAT_CSV) {
		ret = report_csv(r, o->input, o->filter, stdout);
		goto out;
	}
	if (o->format == FORMAT_FOLDED) {
		ret = report_folded(r, stdout);
		goto out;
	}
	if (o->format == FORMAT_FLAMEGRAPH) {
		ret = report_flamegraph(r, o->title, stdout);
		goto out;
	}
	if (o->stacks) {
		ret = report_stacks_text(r);
		goto out;
	}
	if (o->json)
		json_init(&o->j, stdout, false);
	if (o->header && !o->json)
		header(r);
	while ((err = sdt_trace_reader__next(r, &ev)) > 0) {
		if (o->stats)
			continue;
		if (o->header && !o->json)
			header_kinds(r, &shown);
		/*
		 * JSON's "stack": the chain report -g and --format=folded give (one answer), from one
		 * symbolizer made once the recording shows stacks (their records come before their
		 * events); a recording without stacks never makes one
		 */
		if (o->json && !sym && sdt_trace_reader__has_stacks(r)) {
			struct sdt_symbolizer_opts so = report_symbolizer_opts();

			err = sdt_symbolizer__new(r, &so, &sym);
			if (err)
				break;
		}
		if (o->json)
			err = print_event_json(&o->j, ev, sym);
		else
			print_event_text(ev);
		if (err < 0 || ferror(stdout))
			break; /* | head had enough, or the disk is full: main() tells which */
	}
	sdt_symbolizer__free(sym);
	if (err < 0) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
	} else if (o->stats) {
		ret = stats(o, r);
	}
out:
	/* a reader that went away (| head) wanted no more: not of the file's state either */
	if (ferror(stdout) && cli_stdout_closed()) {
		sdt_trace_reader__free(r);
		return ret;
	}
	/* the kinds are all known once the file was read */
	if (o->filter && !ret)
		ret = cli_filter_check_kinds("report", o->filter, r, o->latency);
	cli_fetch_recorded(r);
	if (sdt_trace_reader__truncated(r))
		cli_warn("'%s' is truncated (the recording was cut short): %" PRIu64
			 " events read up to the last complete record",
			 o->input, sdt_trace_reader__sample_count(r));
	if (sdt_trace_reader__lost(r))
		cli_warn("%" PRIu64 " events were lost (the ring buffers overflowed): see "
			 "'sdtrace report --stats'",
			 sdt_trace_reader__lost(r));
	sdt_trace_reader__free(r);
	return ret;
}

/* "START,END": split at the comma outside parentheses (a spec's typed list may hold some). */
static int add_pair(struct report_pairs *p, const char *arg)
{
	const char *comma = NULL, *c;
	const char **ns, **ne;
	int depth = 0;

	for (c = arg; *c; c++) {
		if (*c == '(')
			depth++;
		else if (*c == ')' && depth > 0)
			depth--;
		else if (*c == ',' && !depth) {
			if (comma)
				return cli_usage_error("report", "--pair '%s': two commas", arg);
			comma = c;
		}
	}
	if (!comma || comma == arg || !comma[1])
		return cli_usage_error("report", "--pair '%s': expected START,END", arg);
	ns = realloc(p->start, (p->n + 1) * sizeof(*ns));
	if (ns)
		p->start = ns;
	ne = realloc(p->end, (p->n + 1) * sizeof(*ne));
	if (ne)
		p->end = ne;
	if (!ns || !ne) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	p->start[p->n] = strndup(arg, (size_t)(comma - arg));
	p->end[p->n] = strdup(comma + 1);
	p->n++;
	if (!p->start[p->n - 1] || !p->end[p->n - 1]) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	return 0;
}

static void free_pairs(struct report_pairs *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free((char *)p->start[i]);
		free((char *)p->end[i]);
	}
	free(p->start);
	free(p->end);
}

/*
 * -o FILE: stdout goes to a temporary file beside it, renamed over FILE only when the report
 * succeeded and was written out whole; otherwise FILE is left as it was (cli/output.c).
 */
static int report_to_file(struct report_opts *o)
{
	char *tmp;
	int fd, saved, ret;

	fd = cli_output_create(o->output, &tmp);
	if (fd < 0)
		return EXIT_RUNTIME;
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fd, STDOUT_FILENO) < 0) {
		cli_error("cannot write '%s': %s", o->output, strerror(errno));
		ret = EXIT_RUNTIME;
		goto out;
	}
	ret = report(o);
	if ((fflush(stdout) || ferror(stdout)) && !ret) {
		cli_error("cannot write '%s': %s", o->output, strerror(errno));
		ret = EXIT_RUNTIME;
	}
	clearerr(stdout);
	dup2(saved, STDOUT_FILENO);
out:
	ret = cli_output_done(fd, tmp, o->output, ret);
	if (saved >= 0)
		close(saved);
	close(fd);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"input", required_argument, NULL, 'i'},  {"output", required_argument, NULL, 'o'},
	    {"json", no_argument, NULL, 'J'},	      {"stats", no_argument, NULL, 'S'},
	    {"header", no_argument, NULL, 'H'},	      {"latency", no_argument, NULL, 'L'},
	    {"pair", required_argument, NULL, 'P'},   {"format", required_argument, NULL, 'F'},
	    {"filter", required_argument, NULL, 'f'}, {"key", required_argument, NULL, 'K'},
	    {"by", required_argument, NULL, 'B'},     {"top", required_argument, NULL, 'N'},
	    {"count", no_argument, NULL, 'C'},	      {"slice-name", required_argument, NULL, 'Z'},
	    {"title", required_argument, NULL, OPT_TITLE},
	    {"pair-by", required_argument, NULL, OPT_PAIR_BY},
	    {"sum", required_argument, NULL, OPT_SUM},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct report_opts o = {.input = "sdtrace.data"};
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+i:o:gh", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			o.input = optarg;
			break;
		case 'o':
			o.output = optarg;
			break;
		case 'g':
			o.stacks = true;
			break;
		case OPT_PAIR_BY:
			if (strcmp(optarg, "thread") && strcmp(optarg, "key")) {
				ret = cli_usage_error("report", "--pair-by: '%s' is neither thread nor key",
						      optarg);
				goto out;
			}
			o.pair_by_key = !strcmp(optarg, "key");
			break;
		case OPT_TITLE:
			o.title = optarg;
			break;
		case OPT_SUM:
			o.sum = optarg;
			break;
		case 'J':
			o.json = true;
			break;
		case 'S':
			o.stats = true;
			break;
		case 'H':
			o.header = true;
			break;
		case 'L':
			o.latency = true;
			break;
		case 'f':
			if (o.filter_text) {
				ret = cli_usage_error("report",
						      "--filter is given once (join with &&)");
				goto out;
			}
			o.filter_text = optarg;
			break;
		case 'K':
			if ((ret = report_names_parse("report", "--key", optarg, &o.key)))
				goto out;
			break;
		case 'B':
			if ((ret = report_names_parse("report", "--by", optarg, &o.by)))
				goto out;
			break;
		case 'N': {
			char *end;
			unsigned long v = strtoul(optarg, &end, 10);

			if (*end || !*optarg || v < 1 || v > 1000000) {
				ret = cli_usage_error(
				    "report", "--top: '%s' is not a count (1 to 1000000)", optarg);
				goto out;
			}
			o.top = v;
			break;
		}
		case 'C':
			o.count = true;
			break;
		case 'Z':
			if ((ret = report_names_parse("report", "--slice-name", optarg, &o.slice)))
				goto out;
			break;
		case 'P':
			ret = add_pair(&o.pairs, optarg);
			if (ret)
				goto out;
			break;
		case 'F':
			if (!strcmp(optarg, "text")) {
				o.format = FORMAT_TEXT;
			} else if (!strcmp(optarg, "json")) {
				o.format = FORMAT_JSON;
				o.json = true;
			} else if (!strcmp(optarg, "chrome")) {
				o.format = FORMAT_CHROME;
			} else if (!strcmp(optarg, "perfetto")) {
				o.format = FORMAT_PERFETTO;
			} else if (!strcmp(optarg, "csv")) {
				o.format = FORMAT_CSV;
			} else if (!strcmp(optarg, "folded")) {
				o.format = FORMAT_FOLDED;
			} else if (!strcmp(optarg, "flamegraph")) {
				o.format = FORMAT_FLAMEGRAPH;
			} else {
				ret = cli_usage_error("report",
						      "unknown format '%s' (text, json, chrome, "
						      "perfetto, csv, folded, flamegraph)",
						      optarg);
				goto out;
			}
			break;
		case 'h':
			fputs(report_usage, stdout);
			ret = 0;
			goto out;
		default:
			ret = cli_bad_option("report", argc, argv, longopts);
			goto out;
		}
	}
	ret = 0;
	if (optind < argc)
		ret = cli_usage_error("report", "unexpected argument '%s'", argv[optind]);
	else if ((FORMAT_TIMELINE(o.format) || o.format == FORMAT_CSV) &&
		 (o.json || o.stats || o.header || o.latency))
		ret = cli_usage_error("report",
				      "--format=%s goes alone (not with --json, "
				      "--stats, --header or --latency)",
				      o.format == FORMAT_CHROME	    ? "chrome"
				      : o.format == FORMAT_PERFETTO ? "perfetto"
								    : "csv");
	else if ((FORMAT_STACKS(o.format) || o.stacks) &&
		 (o.json || o.stats || o.header || o.latency || o.count || o.pairs.n || o.slice.n ||
		  (o.stacks && o.format != FORMAT_TEXT)))
		ret = cli_usage_error("report", "-g, --format=folded and --format=flamegraph go "
						"alone (with -i, -o, --filter; --title)");
	else if (o.title && o.format != FORMAT_FLAMEGRAPH)
		ret = cli_usage_error("report", "--title is for --format=flamegraph");
	else if (o.format == FORMAT_PERFETTO && !o.output && isatty(STDOUT_FILENO))
		ret = cli_usage_error("report", "--format=perfetto is binary: give -o FILE "
						"(or redirect stdout)");
	else if (o.latency && (o.stats || o.header))
		ret = cli_usage_error("report", "--latency goes without --stats and --header");
	else if (o.pair_by_key && !o.latency)
		ret = cli_usage_error("report", "--pair-by goes with --latency");
	else if ((o.key.n || (o.by.n && !o.count) || o.top) && !o.latency && !o.count)
		ret = cli_usage_error("report",
				      "--key, --by and --top are for --latency (or --count --by)");
	else if (o.count && (!o.by.n || o.latency || o.key.n || o.stats || o.header ||
			     FORMAT_TIMELINE(o.format) || o.format == FORMAT_CSV))
		ret = cli_usage_error("report",
				      "--count goes with --by (and --top, --filter, --json)");
	else if (o.sum && !o.count)
		ret = cli_usage_error("report", "--sum goes with --count --by");
	else if (o.slice.n && !FORMAT_TIMELINE(o.format))
		ret = cli_usage_error("report", "--slice-name is for --format=chrome and perfetto");
	else if (o.pairs.n && !o.latency && !FORMAT_TIMELINE(o.format))
		ret = cli_usage_error("report",
				      "--pair is for --latency and --format=chrome or perfetto");
	if (!ret && o.filter_text)
		ret = cli_filter_parse("report", o.filter_text, &o.filter);
	if (!ret)
		ret = o.output ? report_to_file(&o) : report(&o);
out:
	sdt_filter__free(o.filter);
	report_names_free(&o.key);
	report_names_free(&o.by);
	report_names_free(&o.slice);
	free_pairs(&o.pairs);
	return ret;
}
