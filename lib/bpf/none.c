/* SPDX-License-Identifier: MIT */
/*
 * The BPF engine left out (-DSDTRACE_BPF=OFF, or an architecture the program is not built for):
 * bpf.c, attach.c and msg.c are not compiled, and these stand in for them. Opening fails with the
 * reason, so the recorder's engine choice falls back to tracefs and --engine=bpf says why; the
 * other calls are never reached without an open engine.
 */
#include <errno.h>

#include "bpf/sdt_bpf.h"
#include "util/internal.h"

static int not_built(void)
{
	return sdt_err(-EOPNOTSUPP, "this sdtrace was built without the BPF engine "
				    "(SDTRACE_BPF=OFF): --engine=tracefs does the same work");
}

int sdt_bpf_probe(void)
{
	return not_built();
}

int sdt_bpf__open(const struct sdt_bpf_opts *o, struct sdt_bpf **out)
{
	(void)o;
	*out = NULL;
	return not_built();
}

void sdt_bpf__free(struct sdt_bpf *b)
{
	(void)b;
}

int sdt_bpf__set_site(struct sdt_bpf *b, uint32_t idx, const struct sdt_bpf_site *s)
{
	(void)b, (void)idx, (void)s;
	return not_built();
}

int sdt_bpf__set_filter(struct sdt_bpf *b, uint32_t ev, const struct sdt_bpf_filter *f)
{
	(void)b, (void)ev, (void)f;
	return not_built();
}

int sdt_bpf__follow(struct sdt_bpf *b, pid_t tgid)
{
	(void)b, (void)tgid;
	return not_built();
}

int sdt_bpf__attach(struct sdt_bpf *b, const char *path, const uint64_t *offsets,
		    const uint64_t *ref_ctr, const uint64_t *cookies, size_t n)
{
	(void)b, (void)path, (void)offsets, (void)ref_ctr, (void)cookies, (void)n;
	return not_built();
}

void sdt_bpf__detach(struct sdt_bpf *b)
{
	(void)b;
}

const char *sdt_bpf__attach_method(const struct sdt_bpf *b)
{
	(void)b;
	return NULL;
}

int sdt_bpf__epoll_fd(const struct sdt_bpf *b)
{
	(void)b;
	return -1;
}

long sdt_bpf__drain(struct sdt_bpf *b, sdt_bpf_rec_fn fn, void *ctx)
{
	(void)b, (void)fn, (void)ctx;
	return not_built();
}

void sdt_bpf__ring_counts(const struct sdt_bpf *b, uint64_t *fast, uint64_t *bpf)
{
	(void)b;
	*fast = 0;
	*bpf = 0;
}

int sdt_bpf__count(const struct sdt_bpf *b, uint32_t ev, uint64_t *out)
{
	(void)b, (void)ev;
	*out = 0;
	return not_built();
}

int sdt_bpf__agg_counts(const struct sdt_bpf *b, sdt_bpf_count_fn fn, void *ctx)
{
	(void)b, (void)fn, (void)ctx;
	return not_built();
}

int sdt_bpf__agg_lat(const struct sdt_bpf *b, sdt_bpf_lat_fn fn, void *ctx)
{
	(void)b, (void)fn, (void)ctx;
	return not_built();
}

int sdt_bpf__agg_drops(const struct sdt_bpf *b, uint64_t out[SDT_BPF_DROP_N])
{
	(void)b, (void)out;
	return not_built();
}

int sdt_bpf__lost(const struct sdt_bpf *b, uint64_t **per_cpu, size_t *ncpus)
{
	(void)b;
	*per_cpu = NULL;
	*ncpus = 0;
	return not_built();
}
