/* SPDX-License-Identifier: MIT */
/* Where each event's filter runs: the engine, or here on the decoded samples (recorder_filter.c). */
#ifndef SDT_RECORD_FILTERS_H
#define SDT_RECORD_FILTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rec_samples;
struct sdt_filter;
struct sdt_recorder;
struct sdt_trace_event_desc;
struct sdt_trace_sample;

/* Where each event's filter runs (recorder_filter.c). */
struct rec_filters {
	const struct sdt_filter **of; /* per event, from opts.filter_for (NULL: none) */
	uint8_t *place;		      /* per event: SDT_FILTER_NONE, _KERNEL, _USER */
	char **why;		      /* per event: why not in the kernel (malloc'ed), or NULL */
	size_t nevents;
};

/*
 * For an engine that places the filters itself (the tracefs engine's, on its perf events): each
 * of the @n events of sets[0] gets its filter from opts.filter_for (r->filters.of). 0 or -ENOMEM.
 */
int sdt_rec_filters_prepare(struct sdt_recorder *r, size_t n);
/* Event @ev's filter runs here, not in the kernel, because of @why. 0 or -ENOMEM. */
int sdt_rec_filters_refuse(struct rec_filters *fl, size_t ev, const char *why);
/*
 * The decoder and per-event filters for the filters refused (sdt_rec_filters_refuse()). 0 or
 * -errno (-ENOTSUP when counting, which sees no samples).
 */
int sdt_rec_filters_user_side(struct sdt_recorder *r);
/* How an engine with its own filters (the BPF program's) takes them. */
struct rec_filter_engine {
	/*
	 * Put filter @f of event @ev (@d) in the engine: 0, or -ENOTSUP with the reason as the
	 * message (it is evaluated here, on the decoded samples), or another -errno (fatal).
	 */
	int (*in_kernel)(void *ctx, size_t ev, const struct sdt_filter *f,
			 const struct sdt_trace_event_desc *d);
	void *ctx;
	/* non-NULL: no sample reaches this side (counting in the kernel), and it says why */
	const char *no_user;
};

/*
 * For an engine with its own filters (the BPF engine): every event's filter (opts.filter_for of
 * @descs, @n events) goes to @eng; what it refuses runs here on the decoded samples, the reason
 * kept for sdt_recorder__filter_place(). -ENOTSUP when eng->no_user and something was refused.
 */
int sdt_rec_filters_apply_here(struct sdt_recorder *r, const struct sdt_trace_event_desc *descs,
			       size_t n, const struct rec_filter_engine *eng);
void sdt_rec_filters_release(struct sdt_recorder *r);
/* In on_sample: does event @ev's sample @s pass the filter applied here (true when none)? */
bool sdt_rec_filters_pass(struct rec_samples *sp, uint32_t ev, const struct sdt_trace_sample *s);

#endif
