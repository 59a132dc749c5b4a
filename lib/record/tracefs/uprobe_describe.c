/* SPDX-License-Identifier: MIT */
/*
 * What a created tracefs event looks like: its id and the fields of its format, and which field
 * holds each argument of each event in it (the shared ones: the ev field and the a1..aN slots).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/tracefs/event_format.h"
#include "record/tracefs/tracefs.h"
#include "record/tracefs/uprobe_set.h"
#include "trace/trace_event.h"
#include "util/internal.h"

/* Mark the room field of long strings (uprobe_defs.c), a __data_loc named ROOM_FIELD. */
static void mark_room(struct sdt_trace_field *fields, size_t n)
{
	size_t j;

	for (j = 0; j < n; j++)
		fields[j].is_room = fields[j].is_data_loc && !strcmp(fields[j].name, ROOM_FIELD);
}

/* Map each argument to the field named like it. */
static void map_args(struct sdt_trace_event_desc *e)
{
	size_t i, j;

	for (i = 0; i < e->nargs; i++) {
		struct sdt_trace_arg *a = &e->args[i];

		a->field = -1;
		if (a->unavailable)
			continue;
		for (j = 0; j < e->nfields; j++) {
			if (!strcmp(e->fields[j].name, a->name)) {
				a->field = (int)j;
				e->fields[j].float_format = a->float_format;
				break;
			}
		}
		if (a->field < 0)
			a->unavailable = sdt_strdup("the kernel's event format has no such field");
	}
}

/* Is @name a slot of a shared event ("a1".."a32") or its ev field? */
static bool slot_name(const char *name, size_t *slot)
{
	char *end;
	unsigned long v;

	if (!strcmp(name, DEMUX_FIELD)) {
		*slot = SIZE_MAX;
		return true;
	}
	if (name[0] != 'a' || name[1] < '1' || name[1] > '9')
		return false;
	v = strtoul(name + 1, &end, 10);
	if (*end || v > SHARE_MAX_SLOTS)
		return false;
	*slot = (size_t)v - 1;
	return true;
}

/*
 * Event @i's view of its shared trace event: the probe fields and its own slots (so the data
 * file stores no other event's arguments), each argument mapped to its slot.
 */
static int describe_member(struct sdt_uprobe_set *s, size_t i, const struct sdt_trace_field *all,
			   size_t nall, int ip_field)
{
	struct sdt_trace_event_desc *e = &s->events[i];
	const size_t *slots = s->layout.slot[i];
	size_t f, a, slot;

	e->fields = calloc(nall ? nall : 1, sizeof(*e->fields));
	if (!e->fields)
		return sdt_err(-ENOMEM, "out of memory");
	e->nfields = 0;
	e->ip_field = -1;
	for (a = 0; a < e->nargs; a++)
		if (!e->args[a].unavailable)
			e->args[a].field = -1;
	for (f = 0; f < nall; f++) {
		bool is_slot = slot_name(all[f].name, &slot), mine = !is_slot;

		for (a = 0; is_slot && slot != SIZE_MAX && a < e->nargs; a++) {
			if (slots && slots[a] == slot) {
				e->args[a].field = (int)e->nfields;
				mine = true;
			}
		}
		if (!mine)
			continue;
		if ((int)f == ip_field)
			e->ip_field = (int)e->nfields;
		e->fields[e->nfields] = all[f];
		for (a = 0; is_slot && slot != SIZE_MAX && a < e->nargs; a++)
			if (slots && slots[a] == slot)
				e->fields[e->nfields].float_format = e->args[a].float_format;
		e->fields[e->nfields].name = sdt_strdup(all[f].name);
		if (!e->fields[e->nfields++].name)
			return sdt_err(-ENOMEM, "out of memory");
	}
	for (a = 0; a < e->nargs; a++)
		if (!e->args[a].unavailable && e->args[a].field < 0)
			e->args[a].unavailable =
			    sdt_strdup("the kernel's event format has no such field");
	return 0;
}

int sdt_uprobe_describe(struct sdt_uprobe_set *s, struct kev *k)
{
	struct sdt_trace_field *fields = NULL;
	char rel[256], *text = NULL;
	size_t len, nfields = 0, i, f;
	int ip_field = -1, err;

	err = sdt_tracefs_event_id(s->group, k->name, &k->pub.tp_id);
	if (err)
		return err;
	snprintf(rel, sizeof(rel), "events/%s/%s/format", s->group, k->name);
	err = sdt_tracefs_read(rel, &text, &len);
	if (err)
		return err;
	err = sdt_event_format_parse(text, len, &fields, &nfields, &ip_field);
	free(text);
	if (err)
		return sdt_err_prefix(err, "'%s'", rel);
	mark_room(fields, nfields);
	if (!sdt_uprobe_kev_shared(s, (size_t)(k - s->kev))) {
		struct sdt_trace_event_desc *e = &s->events[k->pub.event];

		e->tp_id = k->pub.tp_id;
		e->fields = fields;
		e->nfields = nfields;
		e->ip_field = ip_field;
		map_args(e);
		return 0;
	}
	for (f = 0; f < nfields; f++)
		if (!strcmp(fields[f].name, DEMUX_FIELD) && fields[f].size == 2 &&
		    !fields[f].is_data_loc)
			k->pub.demux_offset = (int32_t)fields[f].offset;
	if (k->pub.demux_offset < 0) {
		err = sdt_err(-EPROTO, "'%s': no 2-byte field '" DEMUX_FIELD "'", rel);
		goto out;
	}
	for (i = k->pub.event; i < s->nevents && !err; i++) {
		if (&s->kev[s->layout.kev[i]] != k)
			continue;
		s->events[i].tp_id = k->pub.tp_id;
		err = describe_member(s, i, fields, nfields, ip_field);
	}
out:
	sdt_trace_fields_free(fields, nfields);
	return err;
}
