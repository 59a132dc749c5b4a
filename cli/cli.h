/* SPDX-License-Identifier: MIT */
/* What the subcommands share: the command table's signature, exit codes, messages. */
#ifndef SDTRACE_CLI_H
#define SDTRACE_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli-util.h"

struct sdt_spec;

/*
 * One subcommand: `int cmd_list(int argc, char **argv)`, argv[0] being the command name. It
 * returns its exit code; main() then flushes stdout once and reports a write error (a command
 * does not flush at its end itself).
 */
struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

int cmd_list(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_cache(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_probe(int argc, char **argv);

/*
 * -o FILE (cli/output.c): create a temporary beside @path (0600), after refusing anything but a
 * regular file at @path. Returns its fd and *@tmp, or -1 after printing the error.
 */
int cli_output_create(const char *path, char **tmp);
/*
 * Finish it: when @ret is 0, fsync @fd and rename @tmp over @path, else (or on failure) unlink
 * @tmp. Frees @tmp; the caller closes @fd. Returns @ret, or EXIT_RUNTIME after printing why.
 */
int cli_output_done(int fd, char *tmp, const char *path, int ret);

/*
 * "Did you mean" (cli/suggest.c): "; did you mean %python:gc__start?" for @spec among @names
 * ("provider:event"), or NULL when nothing is near (or out of memory). free() it.
 */
char *cli_hint(const struct sdt_spec *spec, const char *const *names, size_t n);
/* The one of @names a typo of @word would be (1 or 2 edits), or NULL (cli/suggest.c). */
const char *cli_nearest(const char *word, const char *const *names, size_t n);
/*
 * record, stat, trace, top (cli/privilege.c): 0 when this process may record (root, or the
 * capabilities), else EXIT_RUNTIME after the error that says it needs root.
 */
int cli_check_can_record(const char *cmd);
struct option;
/*
 * After getopt_long() returned '?' for @cmd: the usage error for argv[optind - 1], with "did you
 * mean '--duration'?" for a mistyped long option of @longopts, or the hint that '--cache-dir'
 * is a global option (before the command). Returns EXIT_USAGE.
 */
int cli_bad_option(const char *cmd, int argc, char **argv, const struct option *longopts);

/* A duration for people (cli/escape.c): 850ns, 12.34us, 1.50ms, 2.000s. */
const char *cli_fmt_ns(char *buf, size_t size, double v);
/*
 * A duration a person typed, in those units: "50ms", "1.5s", "200us", "100ns" (a unit is
 * needed, but for 0). 0 and *@ns, or -1 (not a duration, or beyond 2^64 ns).
 */
int cli_parse_ns(const char *s, uint64_t *ns);

#endif
