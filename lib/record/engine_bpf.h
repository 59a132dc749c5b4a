/* SPDX-License-Identifier: MIT */
/* The BPF engine's state (engine_bpf.c runs it, engine_bpf_build.c builds it). */
#ifndef SDT_RECORD_ENGINE_BPF_H
#define SDT_RECORD_ENGINE_BPF_H

#include <stddef.h>
#include <stdint.h>

#include "bpf/plan.h"
#include "record/engine.h"

struct sdt_bpf;
struct sdt_file;
struct sdt_trace_event_desc;

/* Where plan k came from. */
struct bpf_site_of {
	const struct sdt_file *f;
	size_t site;
	size_t path; /* index into ->paths */
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
};

/* The events and plans of every site added to @r. 0 or -errno. */
int sdt_rec_bpf_build(struct rec_bpf *b, const struct sdt_recorder *r);

#endif
