/* SPDX-License-Identifier: MIT */
/* The BPF engine's state (run.c: its operations; build.c builds its events and plans). */
#ifndef SDT_RECORD_ENGINE_BPF_H
#define SDT_RECORD_ENGINE_BPF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/plan.h"
#include "record/engine.h"
#include "record/recorder.h"
#include "sdtrace/record.h"

struct sdt_bpf;
struct sdt_file;
struct sdt_recorder;
struct sdt_trace_event_desc;

/*
 * Following (unless no_follow), the maps' room for the files armed during the run, past what
 * the start needs: site plans (about 250 bytes each) and events (a per-CPU counter each).
 */
#define SDT_BPF_LATE_SITES  4096
#define SDT_BPF_LATE_EVENTS 1024

/* Where plan k came from. */
struct bpf_site_of {
	const struct sdt_file *f;
	size_t site;
	size_t path; /* index into ->paths */
};

/* Aggregating (agg.c): where each position's value goes in a key. */
struct agg_layout {
	size_t n;
	bool str[SDT_BPF_KEY_PARTS];
	uint16_t dst[SDT_BPF_KEY_PARTS];
};

/* What an event's hits do (opts.agg_for), its by[] and key[] as argument indices. */
struct agg_ev {
	enum sdt_agg_role role;
	size_t pair;
	uint8_t nby, nkey;
	bool any_thread; /* pairs on the key alone */
	int8_t by[SDT_BPF_KEY_PARTS], key[SDT_BPF_KEY_PARTS];
};

struct rec_agg {
	struct agg_ev *ev; /* per event; NULL: not aggregating */
	struct agg_layout by, key;
	size_t npairs;
	size_t *pair_start; /* per pair, its first start event (SIZE_MAX: none) */
	size_t count_key, lat_key, start_key; /* the maps' key sizes (0: unused) */
	struct sdt_agg_row *rows;
	size_t nrows, rows_cap;
	uint64_t drops[SDT_BPF_DROP_N];
};

struct rec_bpf {
	struct sdt_bpf *bpf;
	struct sdt_trace_event_desc *events;
	const struct sdt_file **ev_file;
	size_t nevents, ev_cap;
	struct sdt_bpf_site *sites; /* the plans, by cookie */
	struct bpf_site_of *site_of;
	size_t nsites, sites_cap;
	char **paths; /* one per sdt_recorder__add(), absolute */
	size_t npaths, paths_cap;
	size_t npaths_linked; /* paths [0, npaths_linked) have their links */
	size_t sites_max, events_max; /* the maps' entries, once loaded (0: before) */
	struct rec_agg agg;
	struct sdt_bpf_filter *filters; /* per event, in the program (n == 0: none there) */
	bool any_filter;
	bool count_only; /* opts.count_only as the caller gave it (the run changes it) */
};

extern const struct sdt_engine_ops sdt_engine_bpf;

/* @r's BPF engine state (r->engine_data), or NULL: another engine, or none yet. */
static inline struct rec_bpf *sdt_rec_bpf_of(const struct sdt_recorder *r)
{
	return r->eng && r->eng->id == SDT_ENGINE_BPF ? r->engine_data : NULL;
}

/* Can the BPF engine place every site added to @r? 0, or -EOPNOTSUPP with the reason. */
int sdt_rec_bpf_supported(const struct sdt_recorder *r);
/* Event @event of a BPF recording (NULL: none, or past the end). */
const struct sdt_trace_event_desc *sdt_rec_bpf_event(const struct rec_bpf *b, size_t event);
/* What the BPF engine keeps until sdt_recorder__free(): the descriptions. */
void sdt_rec_bpf_free(struct rec_bpf *b);

/* The events and plans of every site added to @r. 0 or -errno. */
int sdt_rec_bpf_build(struct rec_bpf *b, const struct sdt_recorder *r);
/*
 * The events and plans of adds [@first, nadds) of @r, appended (their paths too); every site
 * checked and the room for their plans in the maps (->sites_max) before anything is added, the
 * room for their events (->events_max) once they are built (sites of one provider:event share
 * one). 0, or -EOPNOTSUPP / -ENOSPC with the reason (the numbers and the ways out), or -ENOMEM:
 * then @b is as it was.
 */
int sdt_rec_bpf_add(struct rec_bpf *b, const struct sdt_recorder *r, size_t first);

/*
 * Aggregating (agg.c): each event's role and keys from r->o.agg_for, the sites'
 * plans completed, the maps' key sizes. 0 or -errno with the message.
 */
int sdt_rec_bpf_agg_plan(struct rec_bpf *b, struct sdt_recorder *r);
/* The kernel's maps as rows (at the end, and when the sink asks: sdt_recorder__agg_refresh()). */
int sdt_rec_bpf_agg_read(struct rec_bpf *b);

struct sdt_filter;
/*
 * Filter @f of event @d for the program (filter.c): 0 and *out, or -ENOTSUP with the
 * reason as the message (the caller evaluates it in user space).
 */
int sdt_rec_bpf_filter_compile(const struct sdt_filter *f, const struct sdt_trace_event_desc *d,
			       struct sdt_bpf_filter *out);
void sdt_rec_bpf_agg_release(struct rec_agg *ag);

#endif
