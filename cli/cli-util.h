/* SPDX-License-Identifier: MIT */
/* What every command calls back (cli-util.c): the global options, messages, escaped text. */
#ifndef SDTRACE_CLI_UTIL_H
#define SDTRACE_CLI_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

/* Exit codes: 0 ok, 1 runtime error, 2 usage error. */
#define EXIT_RUNTIME 1
#define EXIT_USAGE   2

struct cli_global {
	const char *cache_dir; /* --cache-dir, else NULL */
	int verbose;
	/* the exit code of a failure main() finds (output that cannot be written): 1, list's 2 */
	int exit_error;
};
extern struct cli_global cli;

/* "sdtrace: error: ..." on stderr (lowercase, the subject quoted by the caller). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Each warning of the tapsets @t read (sdt_types__warning()), as a warning. */
struct sdt_types;
void cli_types_warnings(const struct sdt_types *t);
/* "sdtrace: ..." on stderr: what the user should know that is neither (list found nothing). */
void cli_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * @prefix, then the message escaped for a terminal (sdt_fput_escaped(): it may name what other
 * users chose); a "\n" ending @fmt is its end. With @lines its inner line breaks are kept (the
 * four above: an error may list binaries one a line), else escaped: one line whatever it names
 * (the library's messages, main.c).
 */
int cli_vmessage(const char *prefix, bool lines, const char *fmt, va_list ap);
/* A usage error: the message, then "see 'sdtrace CMD --help'"; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Is stdout a pipe or socket whose reader is gone (sdtrace ... | head)? Then the output failed
 * because nobody wants more of it: stop quietly, as perf and git do, with no error.
 */
bool cli_stdout_closed(void);

/* Print @s to @fp escaped for a terminal: sdt_fput_escaped() (C0, DEL, C1, invalid UTF-8). */
void cli_put_escaped(FILE *fp, const char *s);

#endif
