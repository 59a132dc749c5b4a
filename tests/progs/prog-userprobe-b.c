/* SPDX-License-Identifier: MIT */
/* prog-userprobe's second translation unit: another static dup_fn (a symbol defined twice). */
#include <unistd.h>

int dup_fn_b(int x);

static __attribute__((noinline)) int dup_fn(int x)
{
	return x * 5 + (int)getpid() % 3;
}

int dup_fn_b(int x)
{
	return dup_fn(x);
}
