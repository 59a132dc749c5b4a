/* SPDX-License-Identifier: MIT */
/* What the subcommands share: the command table's signature, exit codes, messages. */
#ifndef SDTRACE_CLI_H
#define SDTRACE_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct sdt_spec;

/* Exit codes: 0 ok, 1 runtime error, 2 usage error. */
#define EXIT_RUNTIME 1
#define EXIT_USAGE 2

struct cli_global {
	const char *cache_dir; /* --cache-dir, else NULL */
	int verbose;
	/* the exit code of a failure main() finds (output that cannot be written): 1, list's 2 */
	int exit_error;
};
extern struct cli_global cli;

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

/* "sdtrace: error: ..." on stderr (lowercase, the subject quoted by the caller). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "sdtrace: ..." on stderr: what the user should know that is neither (list found nothing). */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A usage error: the message, then "see 'sdtrace CMD --help'"; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

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
 * Is stdout a pipe or socket whose reader is gone (sdtrace ... | head)? Then the output failed
 * because nobody wants more of it: stop quietly, as perf and git do, with no error.
 */
bool cli_stdout_closed(void);

/*
 * "Did you mean" (cli/suggest.c): "; did you mean %python:gc__start?" for @spec among @names
 * ("provider:event"), or NULL when nothing is near (or out of memory). free() it.
 */
char *cli_hint(const struct sdt_spec *spec, const char *const *names, size_t n);

/* A duration for people (cli/escape.c): 850ns, 12.34us, 1.50ms, 2.000s. */
const char *cli_fmt_ns(char *buf, size_t size, double v);

/* Print @s to @fp with control and non-ASCII bytes escaped as \xNN (for text output). */
void cli_put_escaped(FILE *fp, const char *s);

#endif
