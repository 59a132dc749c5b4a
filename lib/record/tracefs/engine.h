/* SPDX-License-Identifier: MIT */
/* The tracefs engine (engine.c): uprobe events in tracefs, perf events on them, perf rings. */
#ifndef SDT_RECORD_TRACEFS_ENGINE_H
#define SDT_RECORD_TRACEFS_ENGINE_H

#include "record/engine.h"

struct sdt_recorder;

extern const struct sdt_engine_ops sdt_engine_tracefs;

/*
 * Each event's filter (opts.filter_for) in the kernel's event filter language, set on the perf
 * events of its tracefs event; what the kernel cannot take is evaluated on the decoded samples
 * instead. 0 or -errno (-ENOTSUP when counting, which sees no samples, meets a filter the kernel
 * cannot take). filter.c.
 */
int sdt_tfs_filters_apply(struct sdt_recorder *r);

#endif
