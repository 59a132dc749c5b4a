/* SPDX-License-Identifier: MIT */
/*
 * Filters in the kernel (recorder.h, stage 3b). Each event's filter (opts.filter_for) becomes the
 * filter of its tracefs event, in the kernel's language (sdt_filter__ftrace()), set with
 * PERF_EVENT_IOC_SET_FILTER on every perf event of it, before any is enabled: a hit that fails it
 * never reaches the ring buffer. A tracefs event shared by several events gets one filter that
 * tells them apart by the event number the probe line stores (DEMUX_FIELD):
 *
 *	(ev == 3 && (delta > 100)) || ev == 4
 *
 * What the kernel cannot take (a pid test, floats, an address; or a filter it refuses) is
 * evaluated here on the decoded samples instead: such events still cross the ring buffer, and
 * the caller is told (sdt_recorder__filter_place()).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "record/recorder.h"
#include "record/tracefs/uprobe.h"
#include "record/tracefs/uprobe_set.h"
#include "util/internal.h"

static int set_why(struct rec_filters *fl, size_t ev, const char *why)
{
	free(fl->why[ev]);
	fl->why[ev] = sdt_strdup(why);
	fl->place[ev] = SDT_FILTER_USER;
	return fl->why[ev] ? 0 : sdt_err(-ENOMEM, "out of memory");
}

/* The filter text of tracefs event @k (events with a filter the kernel cannot take: USER). */
static int kernel_text(struct sdt_recorder *r, size_t k, struct sdt_buf *b, bool *any)
{
	const struct sdt_uprobe_kevent *kv = sdt_uprobe_set__kernel_event(r->set, k);
	struct rec_filters *fl = &r->filters;
	size_t i, nparts = 0;
	char *text;
	int err;

	*any = false;
	for (i = 0; i < fl->nevents; i++) {
		const struct sdt_trace_event_desc *d = sdt_uprobe_set__event(r->set, i);

		if (d->tp_id != kv->tp_id)
			continue;
		if (kv->demux_offset < 0 && !fl->of[i])
			return 0;
		text = NULL;
		if (fl->of[i]) {
			/* a name the event lacks: its tests are false, as a report says them */
			err = sdt_filter__check_desc(fl->of[i], d);
			if (!err)
				err = sdt_filter__ftrace(fl->of[i], d, &text);
			else if (err == -ENOENT)
				err = -ENOTSUP;
			if (err == -ENOTSUP)
				err = set_why(fl, i, sdt_errmsg());
			else if (!err)
				fl->place[i] = SDT_FILTER_KERNEL;
			if (err) {
				free(text);
				return err;
			}
			*any = true;
		}
		if (kv->demux_offset < 0)
			err = text ? sdt_buf_addstr(b, text) : 0;
		else if (text)
			err = sdt_buf_addf(b, "%s(" DEMUX_FIELD " == %zu && %s)",
					   nparts ? " || " : "", i, text);
		else
			err = sdt_buf_addf(b, "%s" DEMUX_FIELD " == %zu", nparts ? " || " : "", i);
		nparts++;
		free(text);
		if (err)
			return sdt_err(-ENOMEM, "out of memory");
	}
	return 0;
}

/* Set @text on every perf event of tracefs event @k: 0, or the kernel's -errno. */
static int set_kernel(struct sdt_recorder *r, size_t k, const char *text)
{
	size_t i;

	for (i = 0; i < r->perf.nfds; i++) {
		if (r->perf.fd_event[i] != k)
			continue;
		if (ioctl(r->perf.fds[i], PERF_EVENT_IOC_SET_FILTER, text) < 0)
			return -errno;
	}
	return 0;
}

/* The events of tracefs event @k whose filter was to run in the kernel run here instead. */
static int refused(struct sdt_recorder *r, size_t k, const char *text, int kerr)
{
	const struct sdt_uprobe_kevent *kv = sdt_uprobe_set__kernel_event(r->set, k);
	struct rec_filters *fl = &r->filters;
	char why[512];
	size_t i;
	int err;

	snprintf(why, sizeof(why), "the kernel refused the event filter '%s': %s", text,
		 strerror(-kerr));
	/*
	 * The kernel refuses at the first perf event (the same text goes to each); one that took
	 * it before a later failure filters in both places, which comes to the same.
	 */
	for (i = 0; i < fl->nevents; i++)
		if (sdt_uprobe_set__event(r->set, i)->tp_id == kv->tp_id &&
		    fl->place[i] == SDT_FILTER_KERNEL && (err = set_why(fl, i, why)))
			return err;
	return 0;
}

/* The decoder and per-event filters for what runs here. */
static int user_side(struct sdt_recorder *r)
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
			       sdt_uprobe_set__event(r->set, i)->provider,
			       sdt_uprobe_set__event(r->set, i)->name, fl->why[i]);
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
		if ((err = sdt_trace_decoder__add_desc(sp->fdec, sdt_uprobe_set__event(r->set, i))))
			return err;
	}
	return 0;
}

int sdt_rec_filters_apply(struct sdt_recorder *r)
{
	struct rec_filters *fl = &r->filters;
	size_t i, k, nkev;
	int err;

	if (!r->o.filter_for)
		return 0;
	fl->nevents = sdt_uprobe_set__event_count(r->set);
	fl->of = calloc(fl->nevents ? fl->nevents : 1, sizeof(*fl->of));
	fl->place = calloc(fl->nevents ? fl->nevents : 1, sizeof(*fl->place));
	fl->why = calloc(fl->nevents ? fl->nevents : 1, sizeof(*fl->why));
	if (!fl->of || !fl->place || !fl->why)
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < fl->nevents; i++)
		fl->of[i] = r->o.filter_for(r->o.filter_ctx, sdt_uprobe_set__event(r->set, i));
	nkev = sdt_uprobe_set__kernel_event_count(r->set);
	for (k = 0; k < nkev; k++) {
		struct sdt_buf b = {0};
		bool any;

		err = kernel_text(r, k, &b, &any);
		if (!err && any && b.buf) {
			int kerr = set_kernel(r, k, b.buf);

			sdt_debug("tracefs event %llu: the kernel's filter '%s'%s%s\n",
				  (unsigned long long)sdt_uprobe_set__kernel_event(r->set, k)->tp_id,
				  b.buf, kerr ? ": refused: " : "", kerr ? strerror(-kerr) : "");
			if (kerr)
				err = refused(r, k, b.buf, kerr);
		}
		sdt_buf_free(&b);
		if (err)
			return err;
	}
	return user_side(r);
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
		if ((err = set_why(fl, i, why)))
			return err;
		if (!sp->fdec && (err = sdt_trace_decoder__new(&sp->fdec)))
			return err;
		if ((err = sdt_trace_decoder__add_desc(sp->fdec, &descs[i])))
			return err;
		sp->ufilter[i] = fl->of[i];
	}
	return 0;
}
