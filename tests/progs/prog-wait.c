/* SPDX-License-Identifier: MIT */
/*
 * A program that runs until signalled, for tests that attach to a running process (-p PID).
 * Linked with libprog-lib.so. Built -O2 (PIE).
 *
 * Usage: prog-wait [PIDFILE]
 * It writes its pid to PIDFILE (atomically: a temporary file renamed into place, so that a test
 * polling for the file reads a whole pid) and prints "ready PID". Then it waits:
 *	SIGUSR1            one round: the lines below, ROUND counting from 0
 *	SIGTERM/INT/HUP    prints "exit" and exits 0
 *
 * Output, per SIGUSR1 (see prog.h and prog-lib.h):
 *	probe wait:tick arg1=ROUND
 *	probe lib:call arg1=ROUND arg2=libprog
 *	probe lib:gated arg1=ROUND arg2=-ROUND      (only when raised)
 */
#include <signal.h>
#include <stdio.h>
#include <sys/sdt.h>
#include <unistd.h>

#include "prog-lib.h"
#include "prog.h"

static int write_pidfile(const char *path)
{
	char tmp[4096];
	FILE *fp;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return -1;
	fp = fopen(tmp, "we");
	if (!fp)
		return -1;
	fprintf(fp, "%ld\n", (long)getpid());
	if (fclose(fp) || rename(tmp, path))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	sigset_t set;
	long round = 0;
	int sig;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL)) {
		perror("prog-wait: sigprocmask");
		return 1;
	}
	if (argc > 1 && write_pidfile(argv[1])) {
		perror("prog-wait: cannot write the pid file");
		return 1;
	}
	printf("ready %ld\n", (long)getpid());
	fflush(stdout);
	for (;;) {
		if (sigwait(&set, &sig))
			return 1;
		if (sig != SIGUSR1)
			break;
		printf("probe wait:tick arg1=%ld\n", round);
		fflush(stdout);
		STAP_PROBE1(wait, tick, round);
		prog_lib_call(round);
		round++;
	}
	printf("exit\n");
	fflush(stdout);
	return 0;
}
