/* SPDX-License-Identifier: MIT */
/*
 * The library's messages for people (sdt_set_print()), as libbpf's pr_warn/pr_debug: the
 * library never writes to a terminal or a file by itself; it hands one line at a time to the
 * callback the program installed, if any. Errors are not messages: they are returned, with
 * sdt_errmsg(). These lines say what was done (which binary and offsets an event resolved to,
 * which lines went to uprobe_events), for `sdtrace -v`.
 */
#include <stdio.h>
#include <string.h>

#include "util/internal.h"

static sdt_print_fn_t print_fn;

sdt_print_fn_t sdt_set_print(sdt_print_fn_t fn)
{
	return __atomic_exchange_n(&print_fn, fn, __ATOMIC_ACQ_REL);
}

bool sdt_print_enabled(void)
{
	return __atomic_load_n(&print_fn, __ATOMIC_ACQUIRE) != NULL;
}

/* Call the callback with errno and the error message kept: a message never changes a result. */
static void vprint(enum sdt_print_level level, const char *fmt, va_list ap)
{
	sdt_print_fn_t fn = __atomic_load_n(&print_fn, __ATOMIC_ACQUIRE);
	int saved = errno;

	if (fn)
		fn(level, fmt, ap);
	errno = saved;
}

void sdt_print(enum sdt_print_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(level, fmt, ap);
	va_end(ap);
}

void sdt_print_lines(enum sdt_print_level level, const char *prefix, const char *text,
		     size_t len)
{
	size_t off = 0;

	if (!sdt_print_enabled())
		return;
	while (off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (text + off)) : len - off;

		sdt_print(level, "%s%.*s\n", prefix, (int)n, text + off);
		off += n + (nl != NULL);
	}
}
