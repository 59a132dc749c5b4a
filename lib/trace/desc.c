/* SPDX-License-Identifier: MIT */
/*
 * The event description (trace/trace_event.h) that the writer and the reader share: its release,
 * the check both sides make (the writer to refuse early, the reader against hostile input), and
 * the layout of a sample's stored bytes, which both sides must compute alike; and the accessors
 * of the opaque desc of include/sdtrace/trace.h.
 */
#include <stdlib.h>
#include <string.h>

#include "scan/argspec.h"
#include "util/internal.h"
#include "trace/trace_file.h"

void sdt_trace_event_desc_release(struct sdt_trace_event_desc *d)
{
	size_t i;

	if (!d)
		return;
	free(d->provider);
	free(d->name);
	free(d->path);
	free(d->build_id);
	free(d->site_addrs);
	free(d->group);
	free(d->event);
	for (i = 0; d->fields && i < d->nfields; i++)
		free(d->fields[i].name);
	free(d->fields);
	for (i = 0; d->args && i < d->nargs; i++) {
		free(d->args[i].name);
		free(d->args[i].spec);
		free(d->args[i].unavailable);
	}
	free(d->args);
	memset(d, 0, sizeof(*d));
	d->ip_field = -1;
}

/* *@dst = a copy of @s, or NULL for NULL: false when out of memory. */
static bool dup_str(char **dst, const char *s)
{
	*dst = s ? sdt_strdup(s) : NULL;
	return !s || *dst;
}

/* @s's fields and arguments into @dst, whose counts grow as each is copied (releasable). */
static int copy_fields_args(struct sdt_trace_event_desc *dst, const struct sdt_trace_event_desc *s)
{
	size_t i;

	for (i = 0; i < s->nfields; i++) {
		dst->fields[i] = s->fields[i];
		dst->nfields = i + 1;
		if (!dup_str(&dst->fields[i].name, s->fields[i].name))
			return -ENOMEM;
	}
	for (i = 0; i < s->nargs; i++) {
		struct sdt_trace_arg *b = &dst->args[i];

		*b = s->args[i];
		b->name = b->spec = b->unavailable = NULL;
		dst->nargs = i + 1;
		if (!dup_str(&b->name, s->args[i].name) || !dup_str(&b->spec, s->args[i].spec) ||
		    !dup_str(&b->unavailable, s->args[i].unavailable))
			return -ENOMEM;
	}
	return 0;
}

/* A copy of @s's strings and arrays into @dst (zeroed): 0, or -ENOMEM with @dst releasable. */
static int copy_parts(struct sdt_trace_event_desc *dst, const struct sdt_trace_event_desc *s)
{
	if (!dup_str(&dst->provider, s->provider) || !dup_str(&dst->name, s->name) ||
	    !dup_str(&dst->path, s->path) || !dup_str(&dst->build_id, s->build_id) ||
	    !dup_str(&dst->group, s->group) || !dup_str(&dst->event, s->event))
		return -ENOMEM;
	dst->site_addrs = sdt_reallocarray(NULL, s->nsites ? s->nsites : 1, sizeof(uint64_t));
	dst->fields = calloc(s->nfields ? s->nfields : 1, sizeof(*dst->fields));
	dst->args = calloc(s->nargs ? s->nargs : 1, sizeof(*dst->args));
	if (!dst->site_addrs || !dst->fields || !dst->args)
		return -ENOMEM;
	if (s->nsites)
		memcpy(dst->site_addrs, s->site_addrs, s->nsites * sizeof(uint64_t));
	dst->nsites = s->nsites;
	return copy_fields_args(dst, s);
}

int sdt_trace_desc_copy(struct sdt_trace_event_desc *dst, const struct sdt_trace_event_desc *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->index = src->index;
	dst->tp_id = src->tp_id;
	dst->ip_field = src->ip_field;
	if (copy_parts(dst, src)) {
		sdt_trace_event_desc_release(dst);
		return -ENOMEM;
	}
	return 0;
}

static bool str_ok(const char *s)
{
	return !s || strlen(s) < SDT_TRACE_MAX_STR;
}

/* What is wrong with the event's own strings and counts, or NULL. */
static const char *check_event(const struct sdt_trace_event_desc *d)
{
	if (d->index >= SDT_TRACE_MAX_EVENTS)
		return "event index too large";
	if (!d->provider || !d->name)
		return "no provider or name";
	if (!str_ok(d->provider) || !str_ok(d->name) || !str_ok(d->path) || !str_ok(d->build_id) ||
	    !str_ok(d->group) || !str_ok(d->event))
		return "string too long";
	if (d->nsites > SDT_TRACE_MAX_SITES || (d->nsites && !d->site_addrs))
		return "bad site list";
	if (d->nfields > SDT_TRACE_MAX_FIELDS || (d->nfields && !d->fields))
		return "too many fields";
	if (d->nargs > SDT_MAX_ARGS || (d->nargs && !d->args))
		return "too many arguments";
	if (d->ip_field < -1 || (d->ip_field >= 0 && ((size_t)d->ip_field >= d->nfields ||
						      d->fields[d->ip_field].is_data_loc)))
		return "bad __probe_ip field";
	return NULL;
}

/* What is wrong with field @f, or NULL: a name, a size its kind has, inside the record. */
static const char *check_field(const struct sdt_trace_field *f)
{
	if (!f->name || !str_ok(f->name))
		return "field without a name";
	if (f->is_data_loc
		? f->size != 4
		: !(f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8 || f->size == 16))
		return "bad field size";
	if (f->float_format > SDT_FLOAT_IBM128)
		return "bad float format";
	if (f->is_room && !f->is_data_loc)
		return "a room field that is no __data_loc";
	if (f->offset > SDT_TRACE_MAX_RAW || SDT_TRACE_MAX_RAW - f->offset < f->size)
		return "field outside the record";
	return NULL;
}

/* What is wrong with argument @a of @d, or NULL. */
static const char *check_arg(const struct sdt_trace_event_desc *d, const struct sdt_trace_arg *a)
{
	if (!str_ok(a->name) || !str_ok(a->spec) || !str_ok(a->unavailable))
		return "string too long";
	if (!(a->size == 1 || a->size == 2 || a->size == 4 || a->size == 8 || a->size == 16))
		return "bad argument size";
	if (a->field < -1 || (a->field >= 0 && (size_t)a->field >= d->nfields))
		return "bad argument field";
	return NULL;
}

int sdt_trace_desc_check(const struct sdt_trace_event_desc *d)
{
	const char *what = check_event(d);
	size_t i;

	for (i = 0; !what && i < d->nfields; i++)
		what = check_field(&d->fields[i]);
	for (i = 0; !what && i < d->nargs; i++)
		what = check_arg(d, &d->args[i]);
	for (i = 0; !what && i < d->nargs; i++)
		if (d->args[i].field >= 0 && d->fields[d->args[i].field].is_room)
			what = "an argument in the room field";
	if (!what && sdt_trace_room_field(d) == -2)
		what = "two room fields";
	if (what)
		return sdt_err(-EINVAL, "event %u (%s:%s): %s", d->index,
			       d->provider ? d->provider : "?", d->name ? d->name : "?", what);
	return 0;
}

int sdt_trace_room_field(const struct sdt_trace_event_desc *d)
{
	int room = -1;
	size_t i;

	for (i = 0; i < d->nfields; i++) {
		if (!d->fields[i].is_room)
			continue;
		if (room >= 0)
			return -2;
		room = (int)i;
	}
	return room;
}

/*
 * Where a sample's stored bytes start and where its fixed fields end. The common header before
 * the first field is not stored; both sides compute the same layout from the desc. The offsets
 * of the __data_loc fields say where the strings after the fixed fields end; the room field's
 * string is not among them (not stored: only its __data_loc word is read).
 */
int sdt_trace_layout_init(struct sdt_trace_layout *l, const struct sdt_trace_event_desc *d)
{
	uint32_t lo = COMMON_HEADER, hi = 0;
	size_t i;

	sdt_trace_layout_release(l);
	for (i = 0; i < d->nfields; i++) {
		if (i == 0 || d->fields[i].offset < lo)
			lo = d->fields[i].offset;
		if (d->fields[i].offset + d->fields[i].size > hi)
			hi = d->fields[i].offset + d->fields[i].size;
		l->ndl += d->fields[i].is_data_loc && !d->fields[i].is_room;
	}
	if (hi < lo)
		hi = lo;
	l->skip = lo;
	l->fixed_end = hi;
	if (!l->ndl)
		return 0;
	l->dl_offsets = calloc(l->ndl, sizeof(*l->dl_offsets));
	if (!l->dl_offsets) {
		l->ndl = 0;
		return -ENOMEM;
	}
	l->ndl = 0;
	for (i = 0; i < d->nfields; i++) {
		if (d->fields[i].is_data_loc && !d->fields[i].is_room)
			l->dl_offsets[l->ndl++] = d->fields[i].offset;
	}
	return 0;
}

/*
 * The end of what a sample of @size bytes (at least ->fixed_end) stores: its fixed fields and
 * the __data_loc strings that lie inside the record; the PERF_SAMPLE_RAW padding is left out.
 */
uint32_t sdt_trace_layout_used(const struct sdt_trace_layout *l, const uint8_t *raw, uint32_t size)
{
	uint32_t used = l->fixed_end, i;

	for (i = 0; i < l->ndl; i++) {
		uint32_t loc, end;

		memcpy(&loc, raw + l->dl_offsets[i], 4);
		end = (loc & 0xffff) + (loc >> 16);
		if (end <= size && end > used)
			used = end;
	}
	return used;
}

void sdt_trace_layout_release(struct sdt_trace_layout *l)
{
	free(l->dl_offsets);
	memset(l, 0, sizeof(*l));
}

/* The public accessors (include/sdtrace/trace.h). */

uint32_t sdt_trace_event_desc__index(const struct sdt_trace_event_desc *d)
{
	return d->index;
}

const char *sdt_trace_event_desc__provider(const struct sdt_trace_event_desc *d)
{
	return d->provider;
}

const char *sdt_trace_event_desc__name(const struct sdt_trace_event_desc *d)
{
	return d->name;
}

const char *sdt_trace_event_desc__path(const struct sdt_trace_event_desc *d)
{
	return d->path;
}

const char *sdt_trace_event_desc__build_id(const struct sdt_trace_event_desc *d)
{
	return d->build_id;
}

size_t sdt_trace_event_desc__site_count(const struct sdt_trace_event_desc *d)
{
	return d->nsites;
}

uint64_t sdt_trace_event_desc__site_address(const struct sdt_trace_event_desc *d, size_t i)
{
	return i < d->nsites ? d->site_addrs[i] : 0;
}

size_t sdt_trace_event_desc__arg_count(const struct sdt_trace_event_desc *d)
{
	return d->nargs;
}

const char *sdt_trace_event_desc__arg_name(const struct sdt_trace_event_desc *d, size_t i)
{
	return i < d->nargs ? d->args[i].name : NULL;
}

const char *sdt_trace_event_desc__arg_spec(const struct sdt_trace_event_desc *d, size_t i)
{
	return i < d->nargs ? d->args[i].spec : NULL;
}

bool sdt_trace_event_desc__arg_named(const struct sdt_trace_event_desc *d, size_t i)
{
	return i < d->nargs && d->args[i].named;
}

enum sdt_type_kind sdt_trace_event_desc__arg_type(const struct sdt_trace_event_desc *d, size_t i)
{
	return i < d->nargs ? (enum sdt_type_kind)d->args[i].type : SDT_TYPE_DEFAULT;
}

/* Why argument @i was not recorded ("not recorded" when the desc gives no reason), or NULL. */
const char *sdt_trace_event_desc__arg_unavailable(const struct sdt_trace_event_desc *d, size_t i)
{
	if (i >= d->nargs || d->args[i].field >= 0)
		return NULL;
	return d->args[i].unavailable ? d->args[i].unavailable : "not recorded";
}

int sdt_trace_event_desc__arg_index(const struct sdt_trace_event_desc *d, const char *name)
{
	size_t i, n = sdt_trace_event_desc__arg_count(d);
	char *end;
	unsigned long k;

	for (i = 0; i < n; i++) {
		const char *an = sdt_trace_event_desc__arg_name(d, i);

		if (an && !strcmp(an, name))
			return (int)i;
	}
	if (!strncmp(name, "arg", 3) && name[3] >= '1' && name[3] <= '9') {
		k = strtoul(name + 3, &end, 10);
		if (!*end && k >= 1 && k <= n)
			return (int)(k - 1);
	}
	return -1;
}
