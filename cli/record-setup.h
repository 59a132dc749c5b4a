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
#include <sys/types.h>

#include "sdtrace/sdtrace.h"

struct rec_setup {
	const char *cmd; /* "record", "trace", "stat": for messages */
	/* from the command line */
	char **specs_text;
	size_t nspecs;
	char **paths; /* -x */
	size_t npaths;
	pid_t *pids;
	size_t npids;
	bool system_wide;
	unsigned int duration_ms;
	enum sdt_semaphore_method semaphore;
	size_t ring_pages;
	unsigned int drain_interval_ms; /* 0: the recorder's default */
	char **argv;			/* the command, NULL-terminated, or NULL */
	const char **type_files;	/* --types, in order */
	size_t ntype_files;
	/* resolved */
	struct sdt_spec **specs; /* parsed; with -x, one per spec and binary */
	size_t nspecs_parsed;
	struct sdt_targets *targets;
	struct sdt_types *types; /* --types, the user's and the shipped provider files */
	struct sdt_recorder *rec;
};

/*
 * Handle one option shared by the three commands (getopt's @c and optarg). Returns 1 when it was
 * one of ours, 0 when not, or EXIT_USAGE after printing the usage error.
 */
int rec_setup_option(struct rec_setup *s, int c, const char *arg);
/* Long options of the shared set, for getopt_long; the short ones are "e:x:p:a". */
#define REC_SETUP_LONGOPTS                                                                         \
	{"event", required_argument, NULL, 'e'}, {"exec", required_argument, NULL, 'x'},           \
	    {"pid", required_argument, NULL, 'p'}, {"all-cpus", no_argument, NULL, 'a'},           \
	    {"duration", required_argument, NULL, 'D'},                                            \
	    {"semaphore", required_argument, NULL, 'S'}, {"types", required_argument, NULL, 'T'},  \
	{                                                                                          \
		"mmap-pages", required_argument, NULL, 'm'                                         \
	}
#define REC_SETUP_SHORTOPTS "e:x:p:am:"
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
void rec_setup_release(struct rec_setup *s);

/* A wait status as a shell reports it: the exit code, or 128 + the signal; 0 for -1 (none). */
int rec_shell_status(int ws);
/*
 * sdtrace's exit code after a run: @ret when sdtrace itself failed (1 runtime, 2 usage: a line
 * "sdtrace: error: ..." said why; also 0 when stdout has failed, which main() makes 1); else,
 * with a command, the command's (rec_shell_status()), or 128 + the signal that stopped sdtrace
 * before the command started; else 0.
 */
int rec_exit_code(const struct rec_setup *s, int ret);

/* "sdtrace " + the command's arguments as one string (the recording's metadata); malloc'ed. */
char *rec_cmdline(int argc, char **argv);

#endif
