/* SPDX-License-Identifier: MIT */
/*
 * libsdtrace: Linux SDT/USDT probes, scanned, cached and recorded.
 *
 * Conventions for every call of the library:
 *  - Functions returning int return 0 (or a count) on success and a negative errno on failure.
 *    Functions returning a pointer return NULL and set errno on failure.
 *  - On failure, one message with context (file, provider:event, offset) is stored per thread;
 *    sdt_errmsg() returns it. The library never prints and never exits.
 *  - Objects are opaque; each has __new/__open and __free, and __free accepts NULL.
 *  - Options come in `struct sdt_<verb>_opts` whose first member is `size_t sz`; declare them with
 *    SDT_OPTS() so that fields added later are zero. A NULL opts means all defaults.
 *
 * Example:
 *	struct sdt_file *f;
 *	if (sdt_file__open("/usr/bin/python3.11", NULL, &f) < 0) {
 *		fprintf(stderr, "%s\n", sdt_errmsg());
 *		return 1;
 *	}
 *	for (size_t i = 0; i < sdt_file__site_count(f); i++) {
 *		const struct sdt_site *s = sdt_file__site(f, i);
 *		printf("%s:%s\n", sdt_site__provider(s), sdt_site__name(s));
 *	}
 *	sdt_file__free(f);
 */
#ifndef SDTRACE_SDTRACE_H
#define SDTRACE_SDTRACE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include <sdtrace/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version, "MAJOR.MINOR.PATCH". */
SDT_API const char *sdt_version(void);

/*
 * The message of the last failure in this thread, or "" if none. The string is owned by the
 * library and valid until the next failing call in the same thread.
 */
SDT_API const char *sdt_errmsg(void);

/* How much a message of the library matters (as libbpf's enum libbpf_print_level). */
enum sdt_print_level {
	SDT_WARN,  /* something the caller should know, though nothing failed */
	SDT_INFO,  /* what is being done, briefly */
	SDT_DEBUG, /* what was done, in detail: for -v */
};

/*
 * The receiver of the library's messages: one line per call, @fmt ends with "\n" (a callback
 * can be as short as `return vfprintf(stderr, fmt, ap);`). The return value is ignored.
 */
typedef int (*sdt_print_fn_t)(enum sdt_print_level level, const char *fmt, va_list ap);

/*
 * Send the library's messages to @fn; NULL (the default) sends them nowhere: the library never
 * prints by itself. Returns the previous callback (as libbpf_set_print()). @fn is called in the
 * thread doing the work (cache add's workers too), never from a signal handler, and must not call
 * back into the library; errno is kept across it. The debug lines are:
 *  - every event resolved from the cache: the binary, its build-id, the site's address, file
 *    offset and semaphore offset (sdt_cache__resolve());
 *  - the cache entry chosen for a binary found through the event index (its build-id);
 *  - every uprobe definition written to uprobe_events, and every removal line.
 */
SDT_API sdt_print_fn_t sdt_set_print(sdt_print_fn_t fn);

/*
 * May an output the user named (record -o, report -o, stat -o) be put at @path? Root writes
 * where it is told, often in a directory others can write: a link planted there must not
 * redirect the write (a dangling one would create a file wherever it points, one to a device
 * would overwrite it), a FIFO must not block it, a device must not be opened. So only nothing
 * or a regular file may be there; lstat: a link is never followed. Returns 0 (*@exists: a
 * regular file is there, to be replaced by a rename, never written into), or -errno with the
 * message naming @path and what is there. The caller still creates with O_EXCL or renames over
 * @path: this check names the refusal, those make a swap meanwhile harmless.
 * sdt_trace_writer__open() makes this check itself.
 */
SDT_API int sdt_output_check(const char *path, bool *exists);

#ifdef __cplusplus
}
#endif

#include <sdtrace/scan.h>
#include <sdtrace/spec.h>
#include <sdtrace/types.h>
#include <sdtrace/proc.h>
#include <sdtrace/trace.h>
#include <sdtrace/trace_writer.h>
#include <sdtrace/latency.h>
#include <sdtrace/filter.h>
#include <sdtrace/cache.h>
#include <sdtrace/debuginfod.h>
#include <sdtrace/record.h>
#include <sdtrace/record_specs.h>
#include <sdtrace/probe.h>
#include <sdtrace/stack.h>
#include <sdtrace/text.h>

#endif
