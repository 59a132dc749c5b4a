/* SPDX-License-Identifier: MIT */
/*
 * The events of a reader opened with time_order (the library's reorder window), as the
 * analyses (--latency, --format=chrome, perfetto) take them: a view with the arguments decoded
 * and, for --latency, the filter's verdict on each event.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct report_sorter {
	struct sdt_trace_reader *r;
	struct report_event ev;
	size_t args_cap;
	const struct sdt_filter *filter;
	/* per kind (by pointer) whether the filter can be applied to it, remembered */
	const struct sdt_trace_kind **kinds;
	bool *applies;
	size_t nkinds, last;
};

void report_sorter_set_filter(struct report_sorter *s, const struct sdt_filter *f)
{
	s->filter = f;
}

/* Whether @s's filter has every name it uses in kind @k: 1, 0, or -ENOMEM. */
static int filter_applies(struct report_sorter *s, const struct sdt_trace_kind *k)
{
	const struct sdt_trace_kind **kinds;
	bool *applies;
	size_t i;

	/* events of one kind come in runs: the last one found is looked at first */
	if (s->nkinds && s->kinds[s->last] == k)
		return s->applies[s->last];
	for (i = s->nkinds; i > 0; i--)
		if (s->kinds[i - 1] == k) {
			s->last = i - 1;
			return s->applies[i - 1];
		}
	kinds = realloc(s->kinds, (s->nkinds + 1) * sizeof(*kinds));
	if (kinds)
		s->kinds = kinds;
	applies = realloc(s->applies, (s->nkinds + 1) * sizeof(*applies));
	if (applies)
		s->applies = applies;
	if (!kinds || !applies)
		return -ENOMEM;
	s->kinds[s->nkinds] = k;
	s->applies[s->nkinds] = !sdt_filter__check_desc(s->filter, sdt_trace_kind__desc(k));
	s->last = s->nkinds;
	return s->applies[s->nkinds++];
}

int report_sorter_new(struct sdt_trace_reader *r, struct report_sorter **out)
{
	struct report_sorter *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->r = r;
	*out = s;
	return 0;
}

void report_sorter_free(struct report_sorter *s)
{
	if (!s)
		return;
	free(s->ev.args);
	free(s->kinds);
	free(s->applies);
	free(s);
}

int report_event_fill(struct report_event *e, size_t *args_cap, const struct sdt_trace_event *ev)
{
	size_t nargs = sdt_trace_event__arg_count(ev), i;

	if (nargs > *args_cap) {
		struct sdt_trace_value *na = realloc(e->args, nargs * sizeof(*na));

		if (!na)
			return -ENOMEM;
		e->args = na;
		*args_cap = nargs;
	}
	e->verdict = SDT_LATENCY_COUNT;
	e->time_ns = sdt_trace_event__time_ns(ev);
	e->pid = sdt_trace_event__pid(ev);
	e->tid = sdt_trace_event__tid(ev);
	e->cpu = sdt_trace_event__cpu(ev);
	e->kind = sdt_trace_event__kind(ev);
	e->comm = sdt_trace_event__comm(ev);
	e->nargs = nargs;
	for (i = 0; i < nargs; i++) {
		if (sdt_trace_event__arg(ev, i, &e->args[i]))
			memset(&e->args[i], 0, sizeof(e->args[i]));
		e->args[i].unavailable = NULL; /* what the analyses were always given */
	}
	return 0;
}

int report_sorter_next(struct report_sorter *s, const struct report_event **out)
{
	const struct sdt_trace_event *ev;
	struct report_event *e = &s->ev;
	int err, a;

	err = sdt_trace_reader__next(s->r, &ev);
	if (err <= 0)
		return err;
	if (report_event_fill(e, &s->args_cap, ev))
		return -ENOMEM;
	if (s->filter) {
		a = filter_applies(s, e->kind);
		if (a < 0)
			return -ENOMEM;
		e->verdict = !a					? SDT_LATENCY_FOLLOW
			     : sdt_filter__match(s->filter, ev) ? SDT_LATENCY_COUNT
								: SDT_LATENCY_SKIP;
	}
	*out = e;
	return 1;
}
