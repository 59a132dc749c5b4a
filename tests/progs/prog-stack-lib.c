/* SPDX-License-Identifier: MIT */
/*
 * The shared library in prog-stack's call chain: stack_lib_mid() calls back into the program
 * (not as a tail call, so its frame stays on the stack). Built with and without frame pointers
 * as its program is (libprog-stack-lib-fp.so, libprog-stack-lib-nofp.so).
 */
#include "prog-stack-lib.h"

__attribute__((noinline)) void stack_lib_mid(void (*cb)(long), long i)
{
	cb(i);
	__asm__ volatile("" ::: "memory"); /* no tail call */
}
