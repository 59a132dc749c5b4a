/* SPDX-License-Identifier: MIT */
/* --filter of record, trace and stat: see record-filter.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "filter.h"
#include "record-filter.h"
#include "record-setup.h"

/* One -e's filter: its own and-ed with the one given first; NULL when neither. */
struct rec_filter {
	struct sdt_spec *spec;
	struct sdt_filter *f;
};

struct rec_filters_cli {
	struct sdt_filter *all; /* before any -e */
	char **text;		/* per -e: its own, or NULL */
	size_t ntext;
	struct rec_filter *per; /* per -e, built by rec_filter_setup() */
	size_t nper;
};

static struct rec_filters_cli *state(struct rec_setup *s)
{
	if (!s->filters)
		s->filters = calloc(1, sizeof(*s->filters));
	return s->filters;
}

int rec_filter_option(struct rec_setup *s, const char *arg)
{
	struct rec_filters_cli *st = state(s);
	struct sdt_filter *f;
	char **text;
	int ret;

	if (!st) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	if ((ret = cli_filter_parse(s->cmd, arg, &f)))
		return ret;
	if (!s->nspecs) {
		if (st->all) {
			sdt_filter__free(f);
			return cli_usage_error(s->cmd, "--filter before any -e is given once");
		}
		st->all = f;
		return 0;
	}
	sdt_filter__free(f);
	if (st->ntext < s->nspecs) {
		text = realloc(st->text, s->nspecs * sizeof(*text));
		if (!text) {
			cli_error("out of memory");
			return EXIT_RUNTIME;
		}
		memset(text + st->ntext, 0, (s->nspecs - st->ntext) * sizeof(*text));
		st->text = text;
		st->ntext = s->nspecs;
	}
	if (st->text[s->nspecs - 1])
		return cli_usage_error(s->cmd, "-e '%s' has a --filter already (join with &&)",
				       s->specs_text[s->nspecs - 1]);
	st->text[s->nspecs - 1] = strdup(arg);
	if (!st->text[s->nspecs - 1]) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	return 0;
}

/* -e @i's filter: its own and the first one, and-ed (texts that parsed already). */
static struct sdt_filter *combined(struct rec_filters_cli *st, size_t i)
{
	const char *own = i < st->ntext ? st->text[i] : NULL;
	struct sdt_filter *f = NULL;
	char *text;

	if (!own && !st->all)
		return NULL;
	if (!own || !st->all) {
		sdt_filter__parse(own ? own : sdt_filter__text(st->all), &f, NULL);
		return f;
	}
	if (asprintf(&text, "(%s) && (%s)", sdt_filter__text(st->all), own) < 0)
		return NULL;
	sdt_filter__parse(text, &f, NULL);
	free(text);
	return f;
}

void rec_filter_setup(struct rec_setup *s, struct sdt_recorder_opts *o)
{
	struct rec_filters_cli *st = s->filters;
	size_t i;

	if (!st || !(st->per = calloc(s->nspecs ? s->nspecs : 1, sizeof(*st->per))))
		return;
	for (i = 0; i < s->nspecs; i++) {
		st->per[i].f = combined(st, i);
		sdt_spec__parse(s->specs_text[i], &st->per[i].spec);
	}
	st->nper = s->nspecs;
	o->filter_for = rec_filter_for;
	o->filter_ctx = s;
}

const struct sdt_filter *rec_filter_for(void *ctx, const struct sdt_trace_event_desc *d)
{
	const struct rec_setup *s = ctx;
	const struct rec_filters_cli *st = s->filters;
	size_t i;

	/* the first -e that names it decides, as it decided its types */
	for (i = 0; st && i < st->nper; i++)
		if (st->per[i].spec &&
		    sdt_spec__match(st->per[i].spec, sdt_trace_event_desc__provider(d),
				    sdt_trace_event_desc__name(d)))
			return st->per[i].f;
	return st ? st->all : NULL;
}

void rec_filter_report(const struct rec_setup *s)
{
	size_t n = sdt_recorder__event_count(s->rec), i, shown = 0;
	const char *why;

	if (!s->filters)
		return;
	for (i = 0; i < n; i++) {
		const struct sdt_trace_event_desc *d = sdt_recorder__event(s->rec, i);

		if (!d || sdt_recorder__filter_place(s->rec, i, &why) != SDT_FILTER_USER)
			continue;
		if (shown++ == REC_SILENCE_MAX)
			break;
		cli_warn("%%%s:%s: filtered in user space, its hits still cross the ring buffer "
			 "(%" PRIu64 " dropped here): %s",
			 sdt_trace_event_desc__provider(d), sdt_trace_event_desc__name(d),
			 sdt_recorder__filtered(s->rec, i), why ? why : "?");
	}
}

bool rec_filter_silence(const struct rec_setup *s, size_t event, char *text, size_t size)
{
	const struct sdt_trace_event_desc *d = sdt_recorder__event(s->rec, event);
	const struct sdt_filter *f = d ? rec_filter_for((void *)s, d) : NULL;
	int place = sdt_recorder__filter_place(s->rec, event, NULL);

	if (!f || place == SDT_FILTER_NONE)
		return false;
	snprintf(text, size, "the filter '%s' passed none of its hits%s", sdt_filter__text(f),
		 place == SDT_FILTER_KERNEL ? " (in the kernel, which does not count what it "
					      "drops), if it was hit at all"
					    : "");
	return true;
}

void rec_filter_release(struct rec_setup *s)
{
	struct rec_filters_cli *st = s->filters;
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->nper; i++) {
		sdt_spec__free(st->per[i].spec);
		sdt_filter__free(st->per[i].f);
	}
	for (i = 0; i < st->ntext; i++)
		free(st->text[i]);
	free(st->text);
	free(st->per);
	sdt_filter__free(st->all);
	free(st);
	s->filters = NULL;
}
