/* SPDX-License-Identifier: MIT */
/* sdtrace record: probe SDT events and write every hit, with its arguments, to a file. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "record-setup.h"
#include "sdtrace/sdtrace.h"

static const char record_usage[] =
    "usage: sdtrace record -e SPEC [-e SPEC]... [-x PATH] [-o FILE] [options] -- CMD [ARGS...]\n"
    "       sdtrace record -e SPEC... -p PID[,PID...] [-o FILE]\n"
    "       sdtrace record -e SPEC... -a [--duration SECS] [-o FILE]\n"
    "\n"
    "Look the events up (in -x binaries, in the files the command or processes run, or in the\n"
    "cache), add the uprobes, record every hit with its arguments, and remove the uprobes again\n"
    "on every path (end, Ctrl-C, SIGTERM, SIGHUP, a crash of the command, an error).\n"
    "\n"
    "  -o, --output FILE     the recording (default sdtrace.data; an existing one is kept as\n"
    "                        FILE.old)\n"
    "  -g, --call-graph=fp   the user stack of every hit, by frame pointers (and the\n"
    "                        mappings of the target: report -g, report --format=folded)\n"
    "      --call-graph=dwarf[,BYTES]\n"
    "                        the user registers and BYTES (default 8192) of user stack per\n"
    "                        hit, unwound at report time from .eh_frame (programs built\n"
    "                        without frame pointers; x86-64; the BPF engine: at most\n"
    "                        8192 bytes)\n"
    "%s"
    "\n"
    "examples:\n"
    "  sdtrace record -e %%python:gc__start -e %%python:gc__done -- python3 -c 'import gc; "
    "gc.collect()'\n"
    "  sdtrace record -x ./myprog -e '%%myprov:*' -- ./myprog --flag\n"
    "  sdtrace record -e '%%postgresql:query__*' -p $(pgrep -d, postgres)\n"
    "  sdtrace record -e %%hotspot:thread__start -a --duration 10\n"
    "  sdtrace record -e '%%python:function__entry(file:string, func:string, line:s32)' \\\n"
    "      -- python3 app.py          # named, typed arguments: func=\"main\" in the report\n"
    "  sdtrace record --types ./myprov.d -e '%%myprov:*' -- ./myprog   # types from a .d file\n"
    "  sdtrace report                 # then read it\n"
    "\n"
    "Argument names and types: an event spec's (name[:type], ...) wins; else a provider type file\n"
    "declaring provider:event (--types FILE, then ~/.config/sdtrace/providers/*.d, then the "
    "shipped\n"
    "ones: python, postgresql, hotspot, ...), where its sizes agree with the note. A `string`\n"
    "records the text a pointer argument points to. A spec whose type's size differs from the\n"
    "note's is an error (exit 1) naming provider:event, the argument and both sizes; an unknown\n"
    "type or a bad name is a usage error (exit 2). `report --json` adds \"fields\" {name: "
    "value}.\n";

struct record_ctx {
	struct sdt_trace_writer *w;
	int err; /* first write error */
	uint64_t samples;
	uint64_t lost;
	uint64_t stacks, flat; /* -g fp: samples with a stack, and those one frame deep */
};

static int on_event_desc(void *ctx, const struct sdt_trace_event_desc *d)
{
	struct record_ctx *rc = ctx;
	int err = sdt_trace_writer__event(rc->w, d);

	if (err && !rc->err)
		rc->err = err;
	return err;
}

static int on_sample(void *ctx, const struct sdt_trace_sample *s)
{
	struct record_ctx *rc = ctx;
	int err = sdt_trace_writer__sample(rc->w, s);

	rc->samples++;
	if (s->callchain_nr) {
		rc->stacks++;
		rc->flat += s->callchain_nr <= 1;
	}
	if (err && !rc->err)
		rc->err = err;
	return err;
}

static void on_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm)
{
	struct record_ctx *rc = ctx;
	int err = sdt_trace_writer__comm(rc->w, pid, tid, comm);

	if (err && !rc->err)
		rc->err = err;
}

static void on_lost(void *ctx, uint32_t cpu, uint64_t count)
{
	struct record_ctx *rc = ctx;
	int err = sdt_trace_writer__lost(rc->w, cpu, count);

	rc->lost += count;
	if (err && !rc->err)
		rc->err = err;
}

static void on_mapping(void *ctx, const struct sdt_trace_mapping *m)
{
	struct record_ctx *rc = ctx;
	int err = sdt_trace_writer__mapping(rc->w, m);

	if (err && !rc->err)
		rc->err = err;
}

static void on_drained(void *ctx)
{
	struct record_ctx *rc = ctx;
	int err = sdt_trace_writer__flush(rc->w);

	if (err && !rc->err)
		rc->err = err;
}

/*
 * A recording that failed before its first event: remove the file, and when sdt_trace_writer__open
 * renamed an existing one to FILE.old, rename it back.
 */
static void discard_output(const char *output, bool existed)
{
	char *old = NULL;

	if (unlink(output) && errno != ENOENT)
		return;
	if (existed && asprintf(&old, "%s%s", output, SDT_TRACE_OLD_SUFFIX) >= 0)
		rename(old, output);
	free(old);
}

/* long-only options (>= 1000: no collision with the shared ones) */
enum { OPT_CALL_GRAPH = 1000 };

struct record_opts {
	const char *output;
	struct rec_setup *s;
};

/* --call-graph=dwarf[,BYTES]: BYTES as perf checks them (a multiple of 8, at most 65528). */
static int parse_dwarf(struct rec_setup *s, const char *bytes)
{
	unsigned long n = SDT_STACK_USER_DEFAULT;
	char *end;

	if (bytes) {
		errno = 0;
		n = strtoul(bytes, &end, 0);
		if (errno || end == bytes || *end || !n || n % 8 || n > SDT_STACK_USER_MAX)
			return cli_usage_error("record", "--call-graph=dwarf,%s: BYTES is a multiple "
							 "of 8 from 8 to %u", bytes, SDT_STACK_USER_MAX);
	}
	s->call_graph = SDT_CALL_GRAPH_DWARF;
	s->stack_user_bytes = (unsigned int)n;
	return 0;
}

/* record's own options. */
static int record_option(void *ctx, int c, const char *arg)
{
	struct record_opts *ro = ctx;

	switch (c) {
	case 'o':
		ro->output = arg;
		return 0;
	case 'g':
		ro->s->call_graph = SDT_CALL_GRAPH_FP;
		return 0;
	case OPT_CALL_GRAPH:
		if (!strcmp(arg, "fp")) {
			ro->s->call_graph = SDT_CALL_GRAPH_FP;
			return 0;
		}
		if (!strcmp(arg, "dwarf") || !strncmp(arg, "dwarf,", 6))
			return parse_dwarf(ro->s, arg[5] ? arg + 6 : NULL);
		return cli_usage_error("record", "--call-graph: expected fp or dwarf[,BYTES], not '%s'",
				       arg);
	default:
		return cli_usage_error("record", "bad option");
	}
}

int cmd_record(int argc, char **argv)
{
	static const struct option own[] = {
	    {"output", required_argument, NULL, 'o'},
	    {"call-graph", required_argument, NULL, OPT_CALL_GRAPH},
	    {NULL, 0, NULL, 0},
	};
	struct rec_setup s = {0};
	struct record_ctx rc = {0};
	struct sdt_recorder_sink sink = {
	    .ctx = &rc,
	    .on_event_desc = on_event_desc,
	    .on_sample = on_sample,
	    .on_comm = on_comm,
	    .on_lost = on_lost,
	    .on_drained = on_drained,
	    .on_mapping = on_mapping,
	};
	SDT_OPTS(sdt_trace_writer_opts, meta);
	struct record_opts ropts = {SDT_TRACE_DEFAULT_PATH, &s};
	const char *output;
	const struct rec_command cmd = {"record", record_usage, "o:g", own, record_option, &ropts};
	char *cmdline = NULL, *engine_line = NULL;
	bool existed;
	int ret = 0, err, status;

	ret = rec_setup_parse(&s, &cmd, argc, argv);
	if (ret) {
		ret = ret == REC_HELP ? 0 : ret;
		goto out;
	}
	output = ropts.output;
	ret = rec_setup_finish(&s, argc, argv, false);
	if (ret)
		goto out;

	cmdline = rec_cmdline(argc, argv);
	meta.cmdline = cmdline;
	meta.engine = sdt_recorder__engine(s.rec);
	if (sdt_recorder__engine_reason(s.rec)) {
		/* --engine=auto decided by an option: the header says why (report --header) */
		err = asprintf(&engine_line, "%s (auto: %s)", meta.engine,
			       sdt_recorder__engine_reason(s.rec));
		if (err < 0) {
			engine_line = NULL;
			cli_error("out of memory");
			ret = EXIT_RUNTIME;
			goto out;
		}
		meta.engine = engine_line;
	}
	existed = access(output, F_OK) == 0;
	err = sdt_trace_writer__open(output, &meta, &rc.w);
	if (err) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
		goto out;
	}
	err = sdt_recorder__run(s.rec, &sink);
	status = sdt_recorder__exit_status(s.rec);
	if (err && !rc.err) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
	}
	if (rc.err) {
		errno = -rc.err;
		cli_error("cannot write '%s': %s", output, strerror(-rc.err));
		ret = EXIT_RUNTIME;
	}
	err = sdt_trace_writer__finish(rc.w, rec_shell_status(status));
	rc.w = NULL;
	if (err && !ret) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
	}
	if (ret && !rc.samples) {
		/* nothing was recorded: leave no empty recording, put the previous one back */
		discard_output(output, existed);
		goto out;
	}
	fprintf(stderr, "sdtrace: %llu events recorded in '%s'", (unsigned long long)rc.samples,
		output);
	if (sdt_recorder__lost(s.rec) || rc.lost)
		fprintf(stderr, ", %llu LOST (the ring buffer was full: try -m with more pages)",
			(unsigned long long)(rc.lost ? rc.lost : sdt_recorder__lost(s.rec)));
	if (status >= 0) {
		if (WIFSIGNALED(status))
			fprintf(stderr, "; the command was killed by signal %d", WTERMSIG(status));
		else
			fprintf(stderr, "; the command exited with status %d",
				rec_shell_status(status));
	} else if (s.argv && !ret) {
		fprintf(stderr, "; the command was not started");
	}
	fputc('\n', stderr);
	if (!ret)
		rec_report_silence(&s);
	rec_setup_print_late(&s);
	/*
	 * -g walks frame pointers: in code built without them (Debian's python3.11, most distro
	 * binaries) the walk stops at the probe, and every stack is one frame. Say so, and what
	 * unwinds such code, rather than record one-frame stacks silently.
	 */
	if (rc.stacks && rc.flat * 10 >= rc.stacks * 9)
		cli_warn("%llu of %llu stacks are one frame deep: the probed code has no frame "
			 "pointers (built without -fno-omit-frame-pointer); --call-graph=dwarf "
			 "unwinds it",
			 (unsigned long long)rc.flat, (unsigned long long)rc.stacks);
	/* the command's status, unless sdtrace itself failed */
	ret = rec_exit_code(&s, ret);
out:
	sdt_trace_writer__free(rc.w);
	free(cmdline);
	free(engine_line);
	rec_setup_release(&s);
	return ret;
}
