/* SPDX-License-Identifier: MIT */
/* A set of our uprobe events: its lifecycle and what it tells (see uprobe.h). */
#include <stdio.h>
#include <string.h>

#include "record/tracefs/session.h"
#include "record/tracefs/uprobe.h"
#include "record/tracefs/uprobe_set.h"
#include "util/internal.h"

int sdt_uprobe_set__new(const struct sdt_uprobe_set_opts *opts, struct sdt_uprobe_set **out)
{
	struct sdt_uprobe_set *s;
	int err;

	s = calloc(1, sizeof(*s));
	if (!s)
		return sdt_err(-ENOMEM, "out of memory");
	s->use_ref_ctr = opts && opts->use_ref_ctr;
	s->no_args = opts && opts->no_args;
	s->share = opts && opts->share;
	s->index_base = opts ? opts->index_base : 0;
	if (opts && opts->group) {
		if (!sdt_valid_event_name(opts->group, SDT_MAX_EVENT_NAME)) {
			free(s);
			return sdt_err(-EINVAL, "'%s': not a valid tracefs group name",
				       opts->group);
		}
		snprintf(s->group, sizeof(s->group), "%s", opts->group);
	} else {
		err = sdt_uprobe_session_group(s->group, sizeof(s->group));
		if (err) {
			free(s);
			return err;
		}
	}
	*out = s;
	return 0;
}

const char *sdt_uprobe_set__group(const struct sdt_uprobe_set *s)
{
	return s->group;
}

const char *sdt_uprobe_set__defs(const struct sdt_uprobe_set *s, size_t *len)
{
	*len = s->defs.len;
	return s->defs.buf ? s->defs.buf : "";
}

const char *sdt_uprobe_set__removal(const struct sdt_uprobe_set *s, size_t *len)
{
	*len = s->removal.len;
	return s->removal.buf ? s->removal.buf : "";
}

size_t sdt_uprobe_set__event_count(const struct sdt_uprobe_set *s)
{
	return s->nevents;
}

const struct sdt_trace_event_desc *sdt_uprobe_set__event(const struct sdt_uprobe_set *s, size_t i)
{
	return i < s->nevents ? &s->events[i] : NULL;
}

size_t sdt_uprobe_set__kernel_event_count(const struct sdt_uprobe_set *s)
{
	return s->nkev;
}

const struct sdt_uprobe_kevent *sdt_uprobe_set__kernel_event(const struct sdt_uprobe_set *s,
							     size_t i)
{
	return i < s->nkev ? &s->kev[i].pub : NULL;
}

void sdt_uprobe_set__free(struct sdt_uprobe_set *s)
{
	size_t i, j, k;

	if (!s)
		return;
	sdt_uprobe_set__unpoke(s);
	if (s->registered && sdt_uprobe_set__remove(s) < 0)
		sdt_uprobe_registry_del(s); /* cannot do more; a later sdtrace removes it as stale */
	for (i = 0; i < s->nevents; i++) {
		struct ev_extra *x = &s->extra[i];

		for (j = 0; x->ftype && j < s->events[i].nargs; j++)
			free(x->ftype[j]);
		free(x->ftype);
		for (k = 0; k < x->nsites; k++) {
			for (j = 0; x->site_fetch[k] && j < s->events[i].nargs; j++)
				free(x->site_fetch[k][j]);
			free(x->site_fetch[k]);
		}
		free(x->site_fetch);
		free(x->lname);
		sdt_trace_event_desc_release(&s->events[i]);
		free(x->sites);
	}
	sdt_uprobe_set_kevs_free(s);
	free(s->events);
	free(s->extra);
	free(s->poked);
	sdt_buf_free(&s->defs);
	sdt_buf_free(&s->removal);
	free(s);
}
