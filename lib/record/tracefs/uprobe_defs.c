/* SPDX-License-Identifier: MIT */
/*
 * The tracefs events of a set: which events share one (uprobe_layout.h), and the definition
 * lines ("p:...") and removal lines ("-:...") written for them (uprobe.h, "Sharing").
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan/file.h"
#include "record/tracefs/uprobe.h"
#include "record/tracefs/uprobe_layout.h"
#include "record/tracefs/uprobe_set.h"
#include "util/internal.h"

/*
 * The slot type of argument @a of event @i when shared, into @type ("" when the argument has no
 * field). All sites must agree: u64 when every site's fetch may be widened, else the exact type.
 * Returns false when the argument cannot be shared.
 */
static bool arg_share_type(const struct sdt_uprobe_set *s, size_t i, size_t a,
			   char type[SDT_SLOT_TYPE_MAX])
{
	const struct ev_extra *x = &s->extra[i];
	char t[SDT_SLOT_TYPE_MAX];
	bool wide, all_wide = true;
	size_t j;

	type[0] = '\0';
	if (!x->ftype[a])
		return true; /* unavailable: no field */
	for (j = 0; j < x->nsites; j++) {
		const char *fetch = x->site_fetch[j] ? x->site_fetch[j][a] : NULL;

		if (!fetch || strlen(fetch) > SHARE_MAX_FETCH ||
		    !sdt_uprobe_share_type(fetch, s->events[i].args[a].size, t, &wide))
			return false;
		if (!wide) {
			if (type[0] && strcmp(type, t))
				return false;
			memcpy(type, t, sizeof(t));
			all_wide = false;
		}
	}
	if (all_wide)
		snprintf(type, SDT_SLOT_TYPE_MAX, "u64");
	return true;
}

struct site_key {
	dev_t dev;
	ino_t ino;
	uint64_t off;
	bool is_return; /* an entry and a return probe at one place never share anyway */
	size_t event;
};

static int cmp_site_key(const void *pa, const void *pb)
{
	const struct site_key *a = pa, *b = pb;

	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	if (a->off != b->off)
		return a->off < b->off ? -1 : 1;
	return (int)a->is_return - (int)b->is_return;
}

/*
 * Events with a site at the same place as another event's site must not share a trace event (the
 * kernel refuses a second probe on one inode:offset within an event). Clears @ok[i] for them.
 */
static int mark_duplicate_sites(const struct sdt_uprobe_set *s, bool *ok)
{
	struct site_key *keys;
	size_t n = 0, i, j;

	for (i = 0; i < s->nevents; i++)
		n += s->extra[i].nsites;
	keys = sdt_reallocarray(NULL, n ? n : 1, sizeof(*keys));
	if (!keys)
		return -ENOMEM;
	for (i = 0, n = 0; i < s->nevents; i++) {
		const struct ev_extra *x = &s->extra[i];

		for (j = 0; j < x->nsites; j++)
			keys[n++] = (struct site_key){x->dev, x->ino,
						      x->file->sites[x->sites[j]].file_offset,
						      x->is_return, i};
	}
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(keys, n, sizeof(*keys), cmp_site_key);
	for (i = 1; i < n; i++) {
		if (!cmp_site_key(&keys[i - 1], &keys[i])) {
			ok[keys[i - 1].event] = false;
			ok[keys[i].event] = false;
		}
	}
	free(keys);
	return 0;
}

void sdt_uprobe_set_kevs_free(struct sdt_uprobe_set *s)
{
	size_t i;

	for (i = 0; i < s->nkev; i++)
		free(s->kev[i].name);
	free(s->kev);
	s->kev = NULL;
	s->nkev = 0;
	sdt_layout_release(&s->layout);
}

/* Which trace event each event goes into (s->layout, s->kev). 0 or -ENOMEM. */
static int pack(struct sdt_uprobe_set *s)
{
	struct sdt_layout_event *le = NULL;
	char(*types)[SDT_SLOT_TYPE_MAX] = NULL;
	const char **tptr = NULL;
	bool *ok = NULL;
	size_t i, a, nargs = 0;
	int err = -ENOMEM;

	for (i = 0; i < s->nevents; i++)
		nargs += s->events[i].nargs;
	le = calloc(s->nevents ? s->nevents : 1, sizeof(*le));
	ok = calloc(s->nevents ? s->nevents : 1, sizeof(*ok));
	types = calloc(nargs ? nargs : 1, sizeof(*types));
	tptr = calloc(nargs ? nargs : 1, sizeof(*tptr));
	if (!le || !ok || !types || !tptr)
		goto out;
	for (i = 0; i < s->nevents; i++)
		ok[i] = s->share && s->extra[i].ino && strlen(s->events[i].path) <= SHARE_MAX_PATH;
	if (s->share && mark_duplicate_sites(s, ok))
		goto out;
	for (i = 0, nargs = 0; i < s->nevents; i++) {
		le[i].is_return = s->extra[i].is_return;
		le[i].nargs = s->events[i].nargs;
		le[i].type = tptr + nargs;
		for (a = 0; a < s->events[i].nargs; a++, nargs++) {
			if (ok[i] && !arg_share_type(s, i, a, types[nargs]))
				ok[i] = false;
			tptr[nargs] = types[nargs][0] ? types[nargs] : NULL;
		}
		le[i].shareable = ok[i];
	}
	err = sdt_layout_pack(le, s->nevents, SHARE_MAX_SLOTS, &s->layout);
	if (err)
		goto out;
	err = -ENOMEM;
	s->kev = calloc(s->layout.nkev ? s->layout.nkev : 1, sizeof(*s->kev));
	if (!s->kev)
		goto out;
	s->nkev = s->layout.nkev;
	for (i = 0; i < s->nevents; i++) {
		struct kev *k = &s->kev[s->layout.kev[i]];

		if (k->name)
			continue;
		k->name = sdt_strdup(s->extra[i].lname);
		if (!k->name)
			goto out;
		k->pub.demux_offset = -1;
		k->pub.event = (uint32_t)i;
	}
	err = 0;
out:
	free(le);
	free(ok);
	free(types);
	free(tptr);
	return err;
}

/* More than one event in tracefs event @ki: the ev field and the a1..aN slots. */
bool sdt_uprobe_kev_shared(const struct sdt_uprobe_set *s, size_t ki)
{
	return s->layout.nmembers[ki] > 1;
}

/*
 * Long strings. The kernel's :string fetch counts each string's length first (strnlen_user(),
 * at most MAX_STRING_SIZE = 4096 bytes) and copies them in a second pass into a budget of their
 * sum; a string of 4096 bytes or more counts 0, and its copy then gets whatever the strings
 * after it did not use yet, cut there (trace_probe_tmpl.h store_trace_args(), trace_uprobe.c
 * fetch_store_string()). Alone it gets nothing: the value was lost. So every line with a string
 * ends with a room field,
 *
 *	query=+0(%r12):string _sdt_room=$comm
 *
 * the thread's name (2..16 bytes: no user memory read, never a fault): a string too long for the
 * kernel takes its room, comes back as its first bytes, and the room field comes back empty,
 * which tells the reader to mark it truncated (lib/trace/decode.c); a string that faulted leaves
 * the room as it was. What it costs a hit: one more field of a few bytes (BENCHMARKS.md).
 */
static bool is_string_type(const char *t)
{
	return t && (!strcmp(t, "string") || !strcmp(t, "ustring"));
}

/* Does the line of event @i (tracefs event @ki) fetch a string? */
static bool line_has_string(const struct sdt_uprobe_set *s, size_t i, size_t ki)
{
	size_t a;

	if (!sdt_uprobe_kev_shared(s, ki)) {
		for (a = 0; a < s->events[i].nargs; a++)
			if (is_string_type(s->extra[i].ftype[a]))
				return true;
		return false;
	}
	for (a = 0; a < s->layout.nslots[ki]; a++)
		if (is_string_type(s->layout.slot_type[ki][a]))
			return true;
	return false;
}

/* The definition line of site @j of event @i. */
static int site_line(struct sdt_uprobe_set *s, size_t i, size_t j, const size_t *arg_of_slot)
{
	const struct sdt_trace_event_desc *e = &s->events[i];
	const struct ev_extra *x = &s->extra[i];
	const struct sdt_site *st = &x->file->sites[x->sites[j]];
	size_t ki = s->layout.kev[i], t, a;
	const struct kev *k = &s->kev[ki];
	char *const *fetch = x->site_fetch[j];
	struct sdt_buf *l = &s->defs;
	int err;

	err = sdt_buf_addf(l, "%c:%s/%s %s:0x%" PRIx64, st->is_return ? 'r' : 'p', s->group,
			   k->name, e->path, st->file_offset);
	if (!err && s->use_ref_ctr && st->semaphore && st->has_semaphore_offset)
		err = sdt_buf_addf(l, "(0x%" PRIx64 ")", st->semaphore_offset);
	if (!sdt_uprobe_kev_shared(s, ki)) {
		for (a = 0; !err && a < e->nargs; a++)
			if (fetch && fetch[a])
				err = sdt_buf_addf(l, " %s=%s", e->args[a].name, fetch[a]);
		if (!err && line_has_string(s, i, ki))
			err = sdt_buf_addstr(l, " " ROOM_FIELD "=$comm");
		return err ? err : sdt_buf_addstr(l, "\n");
	}
	if (!err)
		err = sdt_buf_addf(l, " " DEMUX_FIELD "=\\%zu:u16", i);
	for (t = 0; !err && t < s->layout.nslots[ki]; t++) {
		const char *type = s->layout.slot_type[ki][t];

		a = arg_of_slot[t];
		if (a != SIZE_MAX) {
			const char *c = strrchr(fetch[a], ':');

			err = sdt_buf_addf(l, " a%zu=%.*s:%s", t + 1, (int)(c - fetch[a]), fetch[a],
					   type);
		} else if (!strcmp(type, "string")) {
			err = sdt_buf_addf(l, " a%zu=\\\"\":string", t + 1);
		} else {
			err = sdt_buf_addf(l, " a%zu=\\0:%s", t + 1, type);
		}
	}
	if (!err && line_has_string(s, i, ki))
		err = sdt_buf_addstr(l, " " ROOM_FIELD "=$comm");
	return err ? err : sdt_buf_addstr(l, "\n");
}

/* Pack the events into trace events, then rebuild the batch and the removal text. */
int sdt_uprobe_set_rebuild(struct sdt_uprobe_set *s)
{
	size_t *order = NULL, *start = NULL, arg_of_slot[SHARE_MAX_SLOTS];
	size_t i, j, a, k;
	int err;

	sdt_uprobe_set_kevs_free(s);
	sdt_buf_reset(&s->defs);
	sdt_buf_reset(&s->removal);
	err = pack(s);
	if (err)
		goto out;
	/* the events of each trace event together, trace events in order of their first event */
	err = -ENOMEM;
	order = calloc(s->nevents ? s->nevents : 1, sizeof(*order));
	start = calloc(s->nkev + 1, sizeof(*start));
	if (!order || !start)
		goto out;
	for (i = 0; i < s->nevents; i++)
		start[s->layout.kev[i] + 1]++;
	for (k = 0; k < s->nkev; k++)
		start[k + 1] += start[k];
	for (i = 0; i < s->nevents; i++)
		order[start[s->layout.kev[i]]++] = i;
	err = 0;
	for (j = 0; j < s->nevents && !err; j++) {
		struct sdt_trace_event_desc *e = &s->events[order[j]];
		char *name = sdt_strdup(s->kev[s->layout.kev[order[j]]].name);

		if (!name) {
			err = -ENOMEM;
			break;
		}
		free(e->event);
		e->event = name;
		for (a = 0; a < SHARE_MAX_SLOTS; a++)
			arg_of_slot[a] = SIZE_MAX;
		for (a = 0; a < e->nargs; a++)
			if (s->layout.slot[order[j]] &&
			    s->layout.slot[order[j]][a] < SHARE_MAX_SLOTS)
				arg_of_slot[s->layout.slot[order[j]][a]] = a;
		for (i = 0; i < s->extra[order[j]].nsites && !err; i++)
			err = site_line(s, order[j], i, arg_of_slot);
	}
	for (k = 0; k < s->nkev && !err; k++)
		err = sdt_buf_addf(&s->removal, "-:%s/%s\n", s->group, s->kev[k].name);
out:
	free(order);
	free(start);
	if (err)
		err = sdt_err(-ENOMEM, "out of memory");
	return err;
}

int sdt_uprobe_set__share(struct sdt_uprobe_set *s)
{
	if (s->registered)
		return sdt_err(-EBUSY, "uprobe set already created");
	if (s->share)
		return 0;
	s->share = true;
	return sdt_uprobe_set_rebuild(s);
}
