/* SPDX-License-Identifier: MIT */
/*
 * The tracefs engine's filters in the kernel (its ->open, after the perf events are opened
 * and before they are enabled). Each event's filter (opts.filter_for) becomes the
 * filter of its tracefs event, in the kernel's language (sdt_filter__ftrace()), set with
 * PERF_EVENT_IOC_SET_FILTER on every perf event of it, before any is enabled: a hit that fails it
 * never reaches the ring buffer. A tracefs event shared by several events gets one filter that
 * tells them apart by the event number the probe line stores (DEMUX_FIELD):
 *
 *	(ev == 3 && (delta > 100)) || ev == 4
 *
 * What the kernel cannot take (a pid test, floats, an address; or a filter it refuses) is
 * evaluated on the decoded samples instead (recorder_filter.c).
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "record/recorder.h"
#include "record/tracefs/engine.h"
#include "record/tracefs/uprobe.h"
#include "record/tracefs/uprobe_set.h"
#include "util/internal.h"

/* The filter text of tracefs event @k (events with a filter the kernel cannot take: USER). */
static int kernel_text(struct sdt_recorder *r, size_t k, struct sdt_buf *b, bool *any)
{
	const struct sdt_uprobe_kevent *kv = sdt_uprobe_set__kernel_event(r->sets[0].eng, k);
	struct rec_filters *fl = &r->filters;
	size_t i, nparts = 0;
	char *text;
	int err;

	*any = false;
	for (i = 0; i < fl->nevents; i++) {
		const struct sdt_trace_event_desc *d = sdt_uprobe_set__event(r->sets[0].eng, i);

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
				err = sdt_rec_filters_refuse(fl, i, sdt_errmsg());
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
	const struct sdt_uprobe_kevent *kv = sdt_uprobe_set__kernel_event(r->sets[0].eng, k);
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
		if (sdt_uprobe_set__event(r->sets[0].eng, i)->tp_id == kv->tp_id &&
		    fl->place[i] == SDT_FILTER_KERNEL && (err = sdt_rec_filters_refuse(fl, i, why)))
			return err;
	return 0;
}

int sdt_tfs_filters_apply(struct sdt_recorder *r)
{
	struct sdt_uprobe_set *set = r->sets[0].eng;
	size_t k, nkev;
	int err;

	if (!r->o.filter_for)
		return 0;
	err = sdt_rec_filters_prepare(r, sdt_uprobe_set__event_count(set));
	if (err)
		return err;
	nkev = sdt_uprobe_set__kernel_event_count(set);
	for (k = 0; k < nkev; k++) {
		struct sdt_buf b = {0};
		bool any;

		err = kernel_text(r, k, &b, &any);
		if (!err && any && b.buf) {
			int kerr = set_kernel(r, k, b.buf);

			sdt_debug("tracefs event %llu: the kernel's filter '%s'%s%s\n",
				  (unsigned long long)sdt_uprobe_set__kernel_event(set, k)->tp_id,
				  b.buf, kerr ? ": refused: " : "", kerr ? strerror(-kerr) : "");
			if (kerr)
				err = refused(r, k, b.buf, kerr);
		}
		sdt_buf_free(&b);
		if (err)
			return err;
	}
	return sdt_rec_filters_user_side(r);
}
