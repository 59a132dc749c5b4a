/* SPDX-License-Identifier: MIT */
/*
 * What `record`, `trace` and `stat` share: the options that say what to probe and where
 * (-e, -x, -p, -a, --duration, --semaphore, -- CMD), resolving the event specs to binaries and
 * sites through the cache, and a recorder set up with them.
 */
#ifndef SDTRACE_RECORD_SETUP_H
#define SDTRACE_RECORD_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <getopt.h>
#include <sys/types.h>

#include "sdtrace/sdtrace.h"

struct rec_setup {
	const char *cmd; /* "record", "trace", "stat": for messages */
	/* from the command line */
	char **specs_text;
	size_t nspecs;
	char **paths; /* -x, bare names replaced by the file found (owned: @found) */
	size_t npaths;
	char **found;
	size_t nfound;
	pid_t *pids;
	size_t npids;
	bool system_wide;
	unsigned int duration_ms;
	enum sdt_semaphore_method semaphore;
	size_t ring_pages;
	enum sdt_engine engine; /* --engine, else $SDTRACE_ENGINE, else the library's default */
	bool engine_named;	/* by --engine (not $SDTRACE_ENGINE, a default) */
	unsigned int drain_interval_ms; /* 0: the recorder's default */
	enum sdt_call_graph call_graph; /* record -g / --call-graph */
	unsigned int stack_user_bytes; /* --call-graph=dwarf,BYTES */
	char **argv;			/* the command, NULL-terminated, or NULL */
	const char **type_files;	/* --types, in order */
	size_t ntype_files;
	/* resolved */
	struct sdt_types *types; /* --types, the user's and the shipped provider files */
	struct sdt_recorder *rec;
	struct rec_filters_cli *filters; /* --filter (record-filter.c), or NULL */
	/* stat --by, --latency: the recorder's opts.agg_for (stat-agg.c), set before finish */
	int (*agg_for)(void *ctx, const struct sdt_trace_event_desc *d, struct sdt_agg_event *out);
	void *agg_ctx;
	size_t agg_max_keys;
	/* following (--no-follow turns it off) */
	bool no_follow;
	bool deferred; /* nothing matched at the start: the command's execs will tell */
	/* --owner (with -a): arm only the files this uid owns */
	bool owner_only;
	uid_t owner;
};

/*
 * One command's own options, beside the shared ones: a getopt_long table entry each (the short
 * letter as val), handled by @handle (return 0, or an exit code after printing the error).
 */
struct rec_command {
	const char *name;	   /* "record": for messages */
	const char *usage;	   /* printf format; its one %s is rec_setup_usage */
	const char *shortopts;	   /* the command's own short options, getopt's form ("o:") */
	const struct option *opts; /* the command's own, ending with {NULL}; may be NULL */
	int (*handle)(void *ctx, int c, const char *arg);
	void *ctx;
};
/* rec_setup_parse() after printing --help: the command ends with status 0. */
#define REC_HELP (-1)
/*
 * The one option parser of record, trace and stat: the shared options into @s, the command's own
 * through @cmd->handle, -h/--help, and a bad option as a usage error; stops at the first
 * non-option (the command, after `--`). Returns 0, REC_HELP, or an exit code.
 */
int rec_setup_parse(struct rec_setup *s, const struct rec_command *cmd, int argc, char **argv);
/* The usage lines of the shared options. */
extern const char rec_setup_usage[];

/*
 * After getopt: take the command (argv[optind..]), check the combination, resolve the specs,
 * give each site its argument names and types (the spec's "(name:type, ...)", else the provider
 * type files: --types, the user's directory, the shipped one) and build the recorder (s->rec)
 * with @count_only. Prints what went wrong; returns 0, EXIT_USAGE or EXIT_RUNTIME (a type that
 * does not fit a note is a runtime error: the spec is well-formed, the binary disagrees).
 */
int rec_setup_finish(struct rec_setup *s, int argc, char **argv, bool count_only);
/* -v: the engine that runs, and why auto chose it; tracefs's limit on strings. */
void rec_say_engine(struct rec_setup *s);
void rec_setup_release(struct rec_setup *s);

/*
 * After a run, on stderr, in provider:event order: one line per provider:event that had no hit,
 * saying why that is
 * likely (sdt_recorder__silence(): the most specific reason of its events), and one per event
 * that was hit but that a provider note says fires only in some conditions; at most
 * REC_SILENCE_MAX, then how many more. The form, for scripts:
 *	sdtrace: 0 hits: %provider:event: KEY: TEXT
 * KEY is not-armed (a file met during the run whose sites could not be placed: said also when
 * other files' sites were hit), not-mapped, semaphore, needs, fires, not-run or filtered (a
 * --filter may have passed none of its hits).
 */
#define REC_SILENCE_MAX 20
void rec_report_silence(const struct rec_setup *s);

/*
 * After a run, on stderr: how the command ended when that was not a success ("sdtrace: the
 * command was killed by signal N", "... exited with status N"), or that it was not started
 * (unless @failed: sdtrace's own error then said why). Nothing without a command.
 */
void rec_report_command(const struct rec_setup *s, bool failed);

struct json;
/* "exit_status": the command's (rec_shell_status() of wait status @ws), or null (-1: none). */
void rec_json_exit_status(struct json *j, int ws);

/* A wait status as a shell reports it: the exit code, or 128 + the signal; 0 for -1 (none). */
int rec_shell_status(int ws);
/*
 * sdtrace's exit code after a run: @ret when sdtrace itself failed (1 runtime, 2 usage: a line
 * "sdtrace: error: ..." said why; also 0 when stdout has failed, which main() makes 1); else,
 * with a command, the command's (rec_shell_status()), or 128 + the signal that stopped sdtrace
 * before the command started; else 0.
 */
int rec_exit_code(const struct rec_setup *s, int ret);

/*
 * The end-of-run line about following: "N binaries armed during the run" on stderr, when any
 * was (record, trace and stat print it with their other end-of-run lines).
 */
void rec_setup_print_late(const struct rec_setup *s);

/* "sdtrace " + the command's arguments as one string (the recording's metadata); malloc'ed. */
char *rec_cmdline(int argc, char **argv);

#endif
