/* SPDX-License-Identifier: MIT */
/*
 * The registry of engines (engine.h): the one file of the core that names them, and
 * opts.engine resolved once.
 */
#include <stdio.h>
#include <string.h>

#include "bpf/sdt_bpf.h"
#include "record/bpf/engine.h"
#include "record/engine.h"
#include "record/recorder.h"
#include "record/tracefs/engine.h"
#include "util/internal.h"

/*
 * What SDT_ENGINE_DEFAULT means in this version: auto, so that the default path fetches what the
 * BPF engine fetches (strings of 4 KiB, indexed and thread-local arguments) at its cost per hit,
 * and tracefs still runs where the BPF engine cannot.
 */
#define DEFAULT_ENGINE SDT_ENGINE_AUTO

/* auto: bpf, or tracefs with the reason the BPF engine cannot run (its message). */
static void choose_auto(struct sdt_recorder *r)
{
	const char *why = NULL;

	if (sdt_bpf_probe())
		why = "the BPF engine cannot run here";
	else if (sdt_engine_bpf.supported(r))
		why = "a site is not the BPF engine's";
	if (!why) {
		r->eng = &sdt_engine_bpf; /* the choice auto makes when it can: no reason to give */
	} else {
		r->eng = &sdt_engine_tracefs;
		snprintf(r->engine_why, sizeof(r->engine_why), "%s: %s", why, sdt_errmsg());
		r->engine_reason = r->engine_why;
	}
	sdt_err_clear();
}

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
			r->engine_reason = "the BPF engine is turned off (bpf_off in the recorder's "
					   "options, for tests)";
			break;
		}
		if (r->o.call_graph == SDT_CALL_GRAPH_DWARF &&
		    r->o.stack_user_bytes > SDT_BPF_USTACK_MAX) {
			r->eng = &sdt_engine_tracefs;
			r->engine_reason = DWARF_IS_TRACEFS;
			break;
		}
		/* -g (fp) is either engine's, so it picks neither */
		choose_auto(r);
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
