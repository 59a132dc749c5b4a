/* SPDX-License-Identifier: MIT */
/*
 * prog-userprobe: targets for user probes (t12*). `prog-userprobe N` calls, N times each:
 * up_add(i, 100) (returns i + 100), up_name("userprobe-<i%10>", i) (returns the string's length
 * plus i), getppid() (libc), and fires the SDT probe up:tick(i). dup_fn is a static function
 * defined in two translation units (two symbols, one name). Prints "calls N sum S".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <unistd.h>

int dup_fn_b(int x);

static __attribute__((noinline)) int dup_fn(int x)
{
	return x * 3 + (int)getpid() % 2;
}

__attribute__((noinline)) long up_add(long a, long b)
{
	__asm__ volatile("" ::: "memory");
	return a + b;
}

__attribute__((noinline)) int up_name(const char *name, int flags)
{
	__asm__ volatile("" ::: "memory");
	return (int)strlen(name) + flags;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1, i, sum = 0;
	char buf[32];

	for (i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "userprobe-%ld", i % 10);
		sum += up_add(i, 100);
		sum += up_name(buf, (int)i);
		sum += getppid() > 0;
		STAP_PROBE1(up, tick, i);
	}
	sum += dup_fn(1) + dup_fn_b(1);
	printf("calls %ld sum %ld\n", n, sum);
	return 0;
}
