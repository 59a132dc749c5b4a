/* SPDX-License-Identifier: MIT */
/*
 * Where each event's filter (opts.filter_for) runs: in the engine (the tracefs engine's kernel
 * event filters, tracefs/filter.c; the BPF program's postfix steps, through a rec_filter_engine),
 * or here, on the decoded samples, when the engine cannot take it (a pid test, floats, an
 * address; or a filter the kernel refuses): such events still cross the ring buffer, and the
 * caller is told (sdt_recorder__filter_place()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/engine.h"
#include "record/recorder.h"
#include "trace/trace_event.h"
#include "util/internal.h"

int sdt_rec_filters_refuse(struct rec_filters *fl, size_t ev, const char *why)
{
	free(fl->why[ev]);
	fl->why[ev] = sdt_strdup(why);
	fl->place[ev] = SDT_FILTER_USER;
	return fl->why[ev] ? 0 : sdt_err(-ENOMEM, "out of memory");
}

int sdt_rec_filters_user_side(struct sdt_recorder *r)
{
	struct rec_filters *fl = &r->filters;
	struct rec_samples *sp = &r->samples;
	size_t i;
	int err;

	for (i = 0; i < fl->nevents; i++)
		if (fl->place[i] == SDT_FILTER_USER)
			break;
	if (i == fl->nevents)
		return 0;
	if (r->counting)
		return sdt_err(-ENOTSUP,
			       "%s:%s: %s; counting sees no event to evaluate it on (record or "
			       "trace can)",
			       r->eng->event(r, i)->provider, r->eng->event(r, i)->name, fl->why[i]);
	sp->ufilter = calloc(fl->nevents, sizeof(*sp->ufilter));
	sp->filtered = calloc(fl->nevents, sizeof(*sp->filtered));
	if (!sp->ufilter || !sp->filtered)
		return sdt_err(-ENOMEM, "out of memory");
	if ((err = sdt_trace_decoder__new(&sp->fdec)))
		return err;
	for (i = 0; i < fl->nevents; i++) {
		if (fl->place[i] != SDT_FILTER_USER)
			continue;
		sp->ufilter[i] = fl->of[i];
		if ((err = sdt_trace_decoder__add_desc(sp->fdec, r->eng->event(r, i))))
			return err;
	}
	return 0;
}

int sdt_rec_filters_prepare(struct sdt_recorder *r, size_t n)
{
	struct rec_filters *fl = &r->filters;
	size_t i;

	fl->nevents = n;
	fl->of = calloc(n ? n : 1, sizeof(*fl->of));
	fl->place = calloc(n ? n : 1, sizeof(*fl->place));
	fl->why = calloc(n ? n : 1, sizeof(*fl->why));
	if (!fl->of || !fl->place || !fl->why)
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		fl->of[i] = r->o.filter_for(r->o.filter_ctx, r->eng->event(r, i));
	return 0;
}

bool sdt_rec_filters_pass(struct rec_samples *sp, uint32_t ev, const struct sdt_trace_sample *s)
{
	const struct sdt_trace_event *e;

	if (!sp->ufilter || !sp->ufilter[ev])
		return true;
	/* a sample the decoder cannot take is kept: the recording says what it is */
	if (sdt_trace_decoder__sample(sp->fdec, s, &e))
		return true;
	if (sdt_filter__match(sp->ufilter[ev], e))
		return true;
	sp->filtered[ev]++;
	return false;
}

void sdt_rec_filters_release(struct sdt_recorder *r)
{
	struct rec_filters *fl = &r->filters;
	size_t i;

	for (i = 0; fl->why && i < fl->nevents; i++)
		free(fl->why[i]);
	free(fl->why);
	free(fl->place);
	free(fl->of);
	memset(fl, 0, sizeof(*fl));
	sdt_trace_decoder__free(r->samples.fdec);
	free(r->samples.ufilter);
	free(r->samples.filtered);
	r->samples.fdec = NULL;
	r->samples.ufilter = NULL;
	r->samples.filtered = NULL;
}

int sdt_recorder__filter_place(const struct sdt_recorder *r, size_t event, const char **why)
{
	if (why)
		*why = NULL;
	if (event >= r->filters.nevents)
		return SDT_FILTER_NONE;
	if (why)
		*why = r->filters.why[event];
	return r->filters.place[event];
}

uint64_t sdt_recorder__filtered(const struct sdt_recorder *r, size_t event)
{
	return r->samples.filtered && event < r->filters.nevents ? r->samples.filtered[event] : 0;
}

int sdt_rec_filters_apply_here(struct sdt_recorder *r, const struct sdt_trace_event_desc *descs,
			       size_t n, const struct rec_filter_engine *eng)
{
	struct rec_filters *fl = &r->filters;
	struct rec_samples *sp = &r->samples;
	char why[1024];
	size_t i;
	int err;

	if (!r->o.filter_for)
		return 0;
	fl->nevents = n;
	fl->of = calloc(n ? n : 1, sizeof(*fl->of));
	fl->place = calloc(n ? n : 1, sizeof(*fl->place));
	fl->why = calloc(n ? n : 1, sizeof(*fl->why));
	sp->ufilter = calloc(n ? n : 1, sizeof(*sp->ufilter));
	sp->filtered = calloc(n ? n : 1, sizeof(*sp->filtered));
	if (!fl->of || !fl->place || !fl->why || !sp->ufilter || !sp->filtered)
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		fl->of[i] = r->o.filter_for(r->o.filter_ctx, &descs[i]);
		if (!fl->of[i])
			continue;
		err = eng->in_kernel(eng->ctx, i, fl->of[i], &descs[i]);
		if (!err) {
			fl->place[i] = SDT_FILTER_KERNEL;
			continue;
		}
		if (err != -ENOTSUP)
			return err;
		snprintf(why, sizeof(why), "%s", sdt_errmsg());
		if (eng->no_user)
			return sdt_err(-ENOTSUP, "%s:%s: %s; %s", descs[i].provider, descs[i].name,
				       why, eng->no_user);
		if ((err = sdt_rec_filters_refuse(fl, i, why)))
			return err;
		if (!sp->fdec && (err = sdt_trace_decoder__new(&sp->fdec)))
			return err;
		if ((err = sdt_trace_decoder__add_desc(sp->fdec, &descs[i])))
			return err;
		sp->ufilter[i] = fl->of[i];
	}
	return 0;
}
