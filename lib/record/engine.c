/* SPDX-License-Identifier: MIT */
/* Which engine runs a recording (engine.h): opts.engine resolved once. */
#include <string.h>

#include "bpf/sdt_bpf.h"
#include "record/engine.h"
#include "record/recorder.h"
#include "util/internal.h"

/* What SDT_ENGINE_DEFAULT means in this version. */
#define DEFAULT_ENGINE SDT_ENGINE_TRACEFS

const char *sdt_rec_engine(struct sdt_recorder *r)
{
	enum sdt_engine e = r->o.engine == SDT_ENGINE_DEFAULT ? DEFAULT_ENGINE : r->o.engine;

	if (r->engine)
		return r->engine;
	/* aggregation in the kernel is the BPF engine's (recorder_run.c refuses tracefs) */
	if (r->o.agg_for && r->o.engine != SDT_ENGINE_TRACEFS)
		e = SDT_ENGINE_BPF;
	switch (e) {
	case SDT_ENGINE_BPF:
		r->engine = "bpf";
		break;
	case SDT_ENGINE_AUTO:
		if (r->o.call_graph == SDT_CALL_GRAPH_DWARF &&
		    r->o.stack_user_bytes > SDT_BPF_USTACK_MAX) {
			r->engine = "tracefs";
			r->engine_reason = DWARF_IS_TRACEFS;
			break;
		}
		/*
		 * -g (fp) is either engine's, so it picks neither; the probe's or the sites'
		 * reason is dropped: tracefs takes over
		 */
		r->engine = !sdt_bpf_probe() && !sdt_rec_bpf_supported(r) ? "bpf" : "tracefs";
		sdt_err_clear();
		break;
	default:
		r->engine = "tracefs";
		break;
	}
	return r->engine;
}

bool sdt_rec_engine_is_bpf(struct sdt_recorder *r)
{
	return !strcmp(sdt_rec_engine(r), "bpf");
}

const char *sdt_recorder__engine(struct sdt_recorder *r)
{
	return sdt_rec_engine(r);
}

const char *sdt_recorder__engine_reason(struct sdt_recorder *r)
{
	sdt_rec_engine(r);
	return r->engine_reason;
}
