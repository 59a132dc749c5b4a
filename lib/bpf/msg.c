/* SPDX-License-Identifier: MIT */
/*
 * libbpf's messages: never printed (the library does not print), the last warning kept for our
 * error messages (sdt_bpf_last_libbpf_msg()). libbpf's print callback is process-wide: ours is
 * set only around our own calls (sdt_bpf_libbpf_enter() .. _leave()) and the host's put back
 * after; libbpf's strict mode is never touched (libbpf 1.x is strict always).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "bpf/bpf_internal.h"

static __thread char last_msg[256];

static int on_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	size_t n;

	if (level == LIBBPF_DEBUG)
		return 0;
	vsnprintf(last_msg, sizeof(last_msg), fmt, ap);
	n = strlen(last_msg);
	while (n && last_msg[n - 1] == '\n')
		last_msg[--n] = '\0';
	return 0;
}

const char *sdt_bpf_last_libbpf_msg(void)
{
	return last_msg[0] ? last_msg : "no detail from libbpf";
}

static __thread libbpf_print_fn_t host_print;
static __thread int depth;

void sdt_bpf_libbpf_enter(void)
{
	if (!depth++)
		host_print = libbpf_set_print(on_libbpf_print);
	last_msg[0] = '\0';
}

void sdt_bpf_libbpf_leave(void)
{
	if (depth > 0 && !--depth)
		libbpf_set_print(host_print);
}

