/* SPDX-License-Identifier: MIT */
/* The library prog-follow dlopen()s: follow_lib:call arg1=I per call. */
#include <sys/sdt.h>

void follow_lib_call(long i);

void follow_lib_call(long i)
{
	STAP_PROBE1(follow_lib, call, i);
}
