/* SPDX-License-Identifier: MIT */
/*
 * The registry of engines (engine.h): the one file of the core that names them, and
 * opts.engine resolved once.
 */
#include <string.h>

#include "bpf/sdt_bpf.h"
#include "record/bpf/engine.h"
#include "record/engine.h"
#include "record/recorder.h"
#include "record/tracefs/engine.h"
#include "util/internal.h"

/* What SDT_ENGINE_DEFAULT means in this version. */
#define DEFAULT_ENGINE SDT_ENGINE_TRACEFS

static const struct sdt_engine_ops *const engines[] = {&sdt_engine_tracefs, &sdt_engine_bpf};

const struct sdt_engine_ops *sdt_rec_engine(struct sdt_recorder *r)
{
	enum sdt_engine e = r->o.engine == SDT_ENGINE_DEFAULT ? DEFAULT_ENGINE : r->o.engine;

	if (r->eng)
		return r->eng;
	/* aggregation in the kernel is the BPF engine's (the tracefs engine refuses it) */
	if (r->o.agg_for && r->o.engine != SDT_ENGINE_TRACEFS)
		e = SDT_ENGINE_BPF;
	switch (e) {
	case SDT_ENGINE_BPF:
		r->eng = &sdt_engine_bpf;
		break;
	case SDT_ENGINE_AUTO:
		if (r->o.bpf_off) {
			r->eng = &sdt_engine_tracefs;
			break;
		}
		if (r->o.call_graph == SDT_CALL_GRAPH_DWARF &&
		    r->o.stack_user_bytes > SDT_BPF_USTACK_MAX) {
			r->eng = &sdt_engine_tracefs;
			r->engine_reason = DWARF_IS_TRACEFS;
			break;
		}
		/*
		 * -g (fp) is either engine's, so it picks neither; the probe's or the sites'
		 * reason is dropped: tracefs takes over
		 */
		r->eng = !sdt_bpf_probe() && !sdt_engine_bpf.supported(r) ? &sdt_engine_bpf
									  : &sdt_engine_tracefs;
		sdt_err_clear();
		break;
	default:
		r->eng = &sdt_engine_tracefs;
		break;
	}
	return r->eng;
}

void sdt_rec_engines_at_exit(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(engines); i++)
		if (engines[i]->at_exit)
			engines[i]->at_exit();
}

const char *sdt_recorder__engine(struct sdt_recorder *r)
{
	return sdt_rec_engine(r)->name;
}

const char *sdt_recorder__engine_reason(struct sdt_recorder *r)
{
	sdt_rec_engine(r);
	return r->engine_reason;
}
