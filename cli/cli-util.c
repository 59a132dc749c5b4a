/* SPDX-License-Identifier: MIT */
/*
 * What every command calls back: the global options' values, the messages on stderr, whether
 * stdout's reader is gone, escaped text. Apart from main.c (which only dispatches), as git
 * keeps its helpers out of git.c: the commands depend on this file, never on main.c.
 */
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli-util.h"

struct cli_global cli = {.exit_error = EXIT_RUNTIME};

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("sdtrace: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("sdtrace: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_note(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("sdtrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fputs("sdtrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nsee 'sdtrace %s%s--help'\n", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_USAGE;
}

bool cli_stdout_closed(void)
{
	struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};
	struct stat st;

	if (fstat(STDOUT_FILENO, &st) || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return false;
	/* a pipe without readers polls as POLLERR, a socket whose peer left as POLLHUP */
	return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

void cli_put_escaped(FILE *fp, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			fprintf(fp, "\\x%02x", c);
		else
			fputc(c, fp);
	}
}
