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
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli-util.h"
#include "sdtrace/text.h"
#include "sdtrace/types.h"

struct cli_global cli = {.exit_error = EXIT_RUNTIME};

/*
 * One message on stderr: @prefix, then the text, escaped as a terminal needs (sdtrace/text.h):
 * it names paths and values others chose (a directory named with ESC). A "\n" ending @fmt is
 * the message's end. With @lines, the line breaks inside are kept (the library's message of an
 * ambiguous event lists the binaries one a line); without, they are escaped too, so that one
 * message is one line whatever it names (the library's warnings, one line each by contract).
 */
int cli_vmessage(const char *prefix, bool lines, const char *fmt, va_list ap)
{
	char *text = NULL, *p, *nl;
	int n = vasprintf(&text, fmt, ap);

	fflush(stdout);
	fputs(prefix, stderr);
	if (n < 0) {
		fputs("(out of memory)\n", stderr);
		return -1;
	}
	if (n > 0 && text[n - 1] == '\n')
		text[--n] = '\0';
	for (p = text; lines && (nl = memchr(p, '\n', (size_t)(text + n - p))); p = nl + 1) {
		sdt_fput_escaped(stderr, p, (size_t)(nl - p), 0);
		fputc('\n', stderr);
	}
	sdt_fput_escaped(stderr, p, (size_t)(text + n - p), 0);
	fputc('\n', stderr);
	free(text);
	return n;
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vmessage("sdtrace: error: ", true, fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vmessage("sdtrace: warning: ", true, fmt, ap);
	va_end(ap);
}

void cli_types_warnings(const struct sdt_types *t)
{
	size_t i;

	for (i = 0; i < sdt_types__warning_count(t); i++)
		cli_warn("tapset %s", sdt_types__warning(t, i));
}

void cli_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vmessage("sdtrace: ", true, fmt, ap);
	va_end(ap);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vmessage("sdtrace: ", true, fmt, ap);
	va_end(ap);
	fprintf(stderr, "see 'sdtrace %s%s--help'\n", cmd ? cmd : "", cmd ? " " : "");
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
	sdt_fput_escaped(fp, s, strlen(s), 0);
}
