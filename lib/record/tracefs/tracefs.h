/* SPDX-License-Identifier: MIT */
/*
 * tracefs: where it is, what it offers, and the few files sdtrace reads and writes.
 *
 * tracefs is found at /sys/kernel/tracing or /sys/kernel/debug/tracing, and mounted at the first
 * when neither holds it and we may mount. Its README is read once to learn the features of the
 * running kernel (ref_ctr_offset: semaphores handled by the kernel, Linux 4.20+).
 *
 * uprobe_events is only ever opened O_WRONLY | O_APPEND: opening it without O_APPEND truncates it
 * and deletes every uprobe of every other tool. The kernel applies a write line by line and stops
 * at the first line it refuses; the reason is in error_log, whose last entry goes into our message.
 */
#ifndef SDT_TRACEFS_H
#define SDT_TRACEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The tracefs mount point ("/sys/kernel/tracing"), found or mounted once. 0 or -errno. */
int sdt_tracefs_dir(const char **dir);
/* Does the kernel take (ref_ctr_offset) in uprobe definitions? 1, 0, or -errno. */
int sdt_tracefs_has_ref_ctr(void);

/*
 * Append @len bytes of definitions ("p:..." / "-:..." lines, each ending in '\n') to
 * uprobe_events, in as few write()s as the kernel accepts (it takes up to ~4 KiB per write).
 * Returns 0, or -errno with the offending line and the kernel's error_log entry in the message.
 * On failure, the lines before the offending one have been applied.
 */
int sdt_tracefs_uprobe_write(const char *text, size_t len);

/* Read tracefs file @rel ("events/G/E/format") into a malloc'ed NUL-terminated string (cap 64 MiB).
 */
int sdt_tracefs_read(const char *rel, char **out, size_t *len);
/* The id of event GROUP/EVENT (PERF_TYPE_TRACEPOINT config). 0 or -errno. */
int sdt_tracefs_event_id(const char *group, const char *event, uint64_t *id);

#endif
