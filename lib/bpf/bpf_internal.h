/* SPDX-License-Identifier: MIT */
/* The BPF stage's private side: struct sdt_bpf, shared by bpf.c and attach.c. */
#ifndef SDT_BPF_INTERNAL_H
#define SDT_BPF_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpf/uprobe_multi.h"
/* generated at build time by bpftool gen skeleton from sdt.bpf.c (CMakeLists.txt) */
#include "bpf/sdt.skel.h"

/* A record copied out of a ring during a drain, to be merged by time. */
struct pending {
	uint64_t time;
	size_t off; /* into ->bytes */
};

/* The ring_buffer callback's ctx: which ring (each ring's records are in time order). */
struct ring_ctx {
	struct sdt_bpf *b;
	size_t ring;
};

struct sdt_bpf {
	struct sdt_bpf_skel *skel;
	size_t ncpus;	/* possible CPUs: the ring and counter slots */
	size_t nevents;
	size_t ring_bytes;
	bool count_only;
	bool agg;
	size_t count_key, lat_key;
	bool multi; /* the program was loaded for uprobe_multi links */
	const char *method;
	int *ring_fds;
	struct ring_ctx *ring_ctx;
	/* per ring, the BPF rings' then the fast rings': its records in ->pend this drain */
	size_t *run_start, *run_len, *run_pos;
	/* the fast rings (plan.h), mapped: one region of fring_stride bytes per CPU */
	unsigned char *fring_map;
	size_t fring_stride, fring_len;
	uint64_t nrec_fast, nrec_bpf; /* records read through each (sdt_bpf__ring_counts()) */
	struct ring_buffer *rb;
	struct bpf_link *fork_link;
	/* perf-event uprobes (the fallback): libbpf links */
	struct bpf_link **links;
	size_t nlinks, links_cap;
	/* uprobe_multi links: plain fds */
	int *link_fds;
	size_t nlink_fds, link_fds_cap;
	/* a drain's records */
	struct pending *pend;
	size_t npend, pend_cap;
	unsigned char *bytes;
	size_t bytes_used, bytes_cap;
	uint64_t *lost;
};

extern char sdt_bpf_probe_msg[512];
/* msg.c: libbpf's messages */
/*
 * Around each call into libbpf that may print: its messages kept (the last for
 * sdt_bpf_last_libbpf_msg()), never printed; the host's print callback back at the leave.
 */
void sdt_bpf_libbpf_enter(void);
void sdt_bpf_libbpf_leave(void);
const char *sdt_bpf_last_libbpf_msg(void);

#endif
