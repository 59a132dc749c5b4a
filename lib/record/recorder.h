/* SPDX-License-Identifier: MIT */
/*
 * The recorder's private side: the public API is include/sdtrace/record.h.
 *
 * Stages of sdt_recorder__run(), each undone in reverse on every path:
 *	1. start the command stopped (fork; the child blocks on a pipe before exec)
 *	2. create the uprobes (uprobe.c, one batch)
 *	3. open the perf events per CPU x target x event, map one ring per CPU (perf_event.c,
 *ring.c)
 *	4. enable them (a command: enable_on_exec), poke semaphores if needed, release the command
 *	5. read rings on watermark wake-ups until the targets exit, a stop or the duration
 *	6. drain, close, unmap, restore semaphores, remove the uprobes, reap the command
 */
#ifndef SDT_RECORDER_H
#define SDT_RECORDER_H

#include "sdtrace/record.h"

/* Default data pages per CPU ring. */
#define SDT_RING_PAGES_DEFAULT 1024
/* Cap on perf events opened by one recorder (events x CPUs x threads). */
#define SDT_MAX_PERF_FDS 1000000

#endif
