/* SPDX-License-Identifier: MIT */
/*
 * A program for following (exec chains, late arming): fires follow:first as the very first thing
 * main() does, then follow:tick N times; optionally waits for a library to appear, dlopen()s it
 * and calls into it (its probe follow_lib:call), or spins.
 *
 * Usage: prog-follow [N [LIB GO]]    prog-follow spin N
 *	follow:first arg1=N                     once, first thing in main
 *	follow:tick arg1=i                      i = 0..N-1
 *	with LIB and GO: waits (up to 60 s) until LIB exists, dlopen()s it, prints "loaded", waits
 *	until GO exists, then calls follow_lib_call(i) N times (follow_lib:call arg1=i).
 *	spin N: follow:spin arg1=i arg2=T N times in a tight loop from the first instruction of
 *	main, T being CLOCK_MONOTONIC (ns) at main's start (the arming window benchmark).
 * With FOLLOW_WAIT=FILE in the environment, waits (up to 60 s) for FILE after follow:first.
 * Prints "probe ..." lines as prog.h says (not in spin mode) and "done".
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <time.h>
#include <unistd.h>

static void wait_for(const char *path)
{
	int n;

	for (n = 0; n < 12000 && access(path, F_OK) != 0; n++)
		usleep(5000);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1, i;

	STAP_PROBE1(follow, first, n);
	if (argc > 2 && !strcmp(argv[1], "spin")) {
		struct timespec ts;
		long long t0;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		t0 = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
		n = atol(argv[2]);
		for (i = 0; i < n; i++)
			STAP_PROBE2(follow, spin, i, t0);
		printf("done\n");
		return 0;
	}
	printf("probe follow:first arg1=%ld\n", n);
	if (getenv("FOLLOW_WAIT"))
		wait_for(getenv("FOLLOW_WAIT"));
	for (i = 0; i < n; i++) {
		printf("probe follow:tick arg1=%ld\n", i);
		STAP_PROBE1(follow, tick, i);
	}
	if (argc > 3) {
		void (*call)(long);
		void *h;

		wait_for(argv[2]);
		h = dlopen(argv[2], RTLD_NOW);
		if (!h) {
			fprintf(stderr, "dlopen: %s\n", dlerror());
			return 1;
		}
		*(void **)&call = dlsym(h, "follow_lib_call");
		if (!call)
			return 1;
		printf("loaded\n");
		fflush(stdout);
		wait_for(argv[3]);
		for (i = 0; i < n; i++) {
			printf("probe follow_lib:call arg1=%ld\n", i);
			call(i);
		}
	}
	printf("done\n");
	return 0;
}
