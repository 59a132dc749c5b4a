/* SPDX-License-Identifier: MIT */
/* sdtrace: the command table and the global options. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sdtrace/sdtrace.h"

/* "+name" for each feature compiled in, "-name" for each left out (CMakeLists.txt). */
#ifndef SDTRACE_FEATURES
#define SDTRACE_FEATURES ""
#endif

static const struct cli_command commands[] = {
	{"list", cmd_list, "list the SDT probes of files, processes or the cache"},
	{"record", cmd_record, "record SDT events (with their arguments) of a command, processes or the system"},
	{"trace", cmd_trace, "print SDT events live, as they fire"},
	{"stat", cmd_stat, "count SDT events in the kernel, without recording them"},
	{"top", cmd_top, "a full-screen live view of the rate of each SDT event"},
	{"report", cmd_report, "print a recording (sdtrace.data): text, JSON Lines or counts"},
	{"cache", cmd_cache, "add binaries to the SDT cache, list, remove, purge, check it"},
	{"probe", cmd_probe, "define user probes (functions, offsets, returns) in the SDT cache"},
};

static void usage(FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: sdtrace [--cache-dir DIR] [-v] <command> [options]\n"
		    "       sdtrace help <command>\n\n"
		    "commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(fp, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(fp, "\nglobal options:\n"
		    "  --cache-dir DIR  the build-id cache (default: $SDTRACE_CACHE_DIR, else "
		    "~/.debug)\n"
		    "  -v, --verbose    more detail on stderr: what the library does (each event's\n"
		    "                   binary, build-id and offsets, each line written to\n"
		    "                   uprobe_events)\n"
		    "  --version        print the version and the features compiled in\n"
		    "\nSee 'sdtrace <command> --help' for a command's options.\n");
}

/*
 * Flush stdout and report a write error (a full disk); returns @code, or cli.exit_error when
 * the command had succeeded. A reader that went away (sdtrace list | head) is no error: errno
 * may no longer say EPIPE by now (stdio keeps only that the stream failed), so stdout itself is
 * asked whether its reader is gone.
 */
static int cli_finish(int code)
{
	if (fflush(stdout) || ferror(stdout)) {
		int e = errno;

		if (e == EPIPE || cli_stdout_closed())
			return code;
		fprintf(stderr, "sdtrace: error: cannot write output: %s\n", strerror(e));
		return code ? code : cli.exit_error;
	}
	return code;
}

/*
 * The library's messages on stderr: its warnings always, what it did (resolved offsets, the
 * lines written to uprobe_events) with -v. Each line is whole: stdout is flushed first so that
 * the two streams interleave in order on a terminal.
 */
static int cli_print(enum sdt_print_level level, const char *fmt, va_list ap)
{
	static const char *const prefix[] = {
	    [SDT_WARN] = "sdtrace: warning: ",
	    [SDT_INFO] = "sdtrace: ",
	    [SDT_DEBUG] = "sdtrace: debug: ",
	};

	if (level != SDT_WARN && cli.verbose < 1)
		return 0;
	if ((unsigned int)level >= sizeof(prefix) / sizeof(prefix[0]))
		level = SDT_DEBUG;
	return cli_vmessage(prefix[level], false, fmt, ap);
}

static struct sigaction sigpipe_at_start;

/* In a child (the command of record, trace, stat): SIGPIPE as sdtrace was started with. */
static void restore_sigpipe(void)
{
	sigaction(SIGPIPE, &sigpipe_at_start, NULL);
}

static const struct cli_command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	}
	return NULL;
}

/* Parse the global options and run the command; returns the exit code (main() flushes). */
static int run(int argc, char **argv)
{
	const struct cli_command *cmd;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--cache-dir") && i + 1 < argc) {
			cli.cache_dir = argv[++i];
		} else if (!strncmp(a, "--cache-dir=", 12)) {
			cli.cache_dir = a + 12;
		} else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
			cli.verbose++;
		} else if (!strcmp(a, "--version")) {
			printf("sdtrace %s\nfeatures: %s\n", sdt_version(), SDTRACE_FEATURES);
			return 0;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else {
			return cli_usage_error(NULL, "unknown option '%s'", a);
		}
	}
	if (i >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	sdt_set_print(cli_print);
	if (!strcmp(argv[i], "help")) {
		if (i + 1 >= argc) {
			usage(stdout);
			return 0;
		}
		cmd = find_command(argv[i + 1]);
		if (!cmd)
			return cli_usage_error(NULL, "'%s' is not a sdtrace command", argv[i + 1]);
		char *help_argv[] = {(char *)cmd->name, (char *)"--help", NULL};

		return cmd->fn(2, help_argv);
	}
	cmd = find_command(argv[i]);
	if (!cmd) {
		const char *names[sizeof(commands) / sizeof(commands[0])], *near;
		size_t k;

		for (k = 0; k < sizeof(commands) / sizeof(commands[0]); k++)
			names[k] = commands[k].name;
		near = cli_nearest(argv[i], names, k);
		return cli_usage_error(NULL, "'%s' is not a sdtrace command%s%s%s", argv[i],
				       near ? "; did you mean '" : "", near ? near : "",
				       near ? "'?" : "");
	}
	return cmd->fn(argc - i, argv + i);
}

/*
 * Every command ends here: its exit code, then one flush of stdout, so that a write error (a
 * full disk, a closed pipe) is reported once, whatever the command, and turns 0 into 1.
 */
int main(int argc, char **argv)
{
	/*
	 * A closed output pipe is a write error to handle (and clean up after), not a death. A
	 * command sdtrace runs gets SIGPIPE as sdtrace got it.
	 */
	sigaction(SIGPIPE, NULL, &sigpipe_at_start);
	pthread_atfork(NULL, NULL, restore_sigpipe);
	signal(SIGPIPE, SIG_IGN);
	return cli_finish(run(argc, argv));
}
