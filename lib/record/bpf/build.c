/* SPDX-License-Identifier: MIT */
/*
 * The BPF engine's events and site plans, before anything is loaded: each site's arguments
 * (names and types as the tracefs engine gives them, what this engine can fetch), the event it
 * joins (same file, provider:name and argument layout), the fields of that event's record, and
 * the site's fetch plan (lib/bpf/plan.h) that puts each value at its field.
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpf/sdt_bpf.h"
#include "scan/file.h"
#include "scan/types.h"
#include "record/arg_begin.h"
#include "record/engine.h"
#include "record/bpf/engine.h"
#include "record/recorder.h"
#include "trace/decode_float.h"
#include "trace/trace_event.h"
#include "util/internal.h"

static void args_release(struct sdt_trace_arg *args, size_t n)
{
	size_t i;

	for (i = 0; args && i < n; i++) {
		free(args[i].name);
		free(args[i].spec);
		free(args[i].unavailable);
	}
	free(args);
}

/* Argument @i of site @st with @type: its description in @t, its plan in @pa. 0 or -errno. */
static int build_arg(const struct sdt_file *f, const struct sdt_site *st, size_t i,
		     const struct sdt_arg_type *type, struct sdt_trace_arg *t,
		     struct sdt_bpf_arg *pa)
{
	const struct sdt_arg *a = &st->args[i];
	enum sdt_type_kind kind = type ? type->kind : SDT_TYPE_DEFAULT;
	struct sdt_type_ctx ctx;
	bool string = kind == SDT_TYPE_STRING;
	const char *why;
	int err;

	err = sdt_rec_arg_begin(st, i, type, t);
	if (err)
		return err;
	if (kind != SDT_TYPE_DEFAULT) {
		sdt_site_type_ctx(f, st, i, &ctx);
		err = sdt_type_fits(a, type, &ctx);
		if (err)
			return err;
	}
	err = sdt_bpf_arg_plan(a, string, pa, &why);
	if (err == -EDOM) {
		/* a string through a constant: the value, as the tracefs engine does */
		kind = SDT_TYPE_DEFAULT;
		string = false;
		err = sdt_bpf_arg_plan(a, false, pa, &why);
	}
	t->type = (uint8_t)kind;
	if (err) {
		pa->fetch = SDT_BPF_NONE;
		t->unavailable = sdt_strdup(why ? why : "unavailable");
		t->is_signed = a->is_signed;
		t->is_float = a->is_float;
		return t->unavailable ? 0 : sdt_err(-ENOMEM, "out of memory");
	}
	t->is_string = string;
	t->is_float = kind == SDT_TYPE_FLOAT ||
		      ((kind == SDT_TYPE_DEFAULT || kind == SDT_TYPE_CHAR) && a->is_float);
	t->is_signed = kind == SDT_TYPE_INT   ? type->is_signed
		       : kind == SDT_TYPE_HEX ? false
					      : a->is_signed;
	t->rebase = !string && a->kind == SDT_ARG_ADDR;
	/* a long double's 16 bytes are read by the format of the file's architecture */
	if (t->is_float && t->size == 16)
		t->float_format = (uint8_t)sdt_float_format_of(f->machine);
	return 0;
}

static bool same_args(const struct sdt_trace_arg *p, const struct sdt_trace_arg *q, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++, p++, q++) {
		if (!sdt_rec_arg_same(p, q))
			return false;
	}
	return true;
}

/*
 * The fields of a new event with @args: __probe_ip, then each fetched argument, aligned; with a
 * string among them, the room field last (tracefs's, trace_event.h): the program leaves it empty
 * at the end of a string it had to cut, and the reader marks that string truncated.
 */
static int lay_out(struct sdt_trace_event_desc *e)
{
	uint32_t off = SDT_BPF_IP_OFF + 8;
	bool strings = false;
	size_t i;

	e->fields = calloc(e->nargs + 2, sizeof(*e->fields));
	if (!e->fields)
		return -ENOMEM;
	e->fields[0].name = sdt_strdup("__probe_ip");
	e->fields[0].offset = SDT_BPF_IP_OFF;
	e->fields[0].size = 8;
	if (!e->fields[0].name)
		return -ENOMEM;
	e->nfields = 1;
	e->ip_field = 0;
	for (i = 0; i < e->nargs; i++) {
		struct sdt_trace_arg *a = &e->args[i];
		struct sdt_trace_field *fl = &e->fields[e->nfields];
		uint32_t size = a->is_string ? 4 : a->size;

		if (a->unavailable)
			continue;
		off = (off + size - 1) & ~(size - 1);
		fl->name = sdt_strdup(a->name);
		if (!fl->name)
			return -ENOMEM;
		fl->offset = off;
		fl->size = size;
		fl->is_signed = a->is_signed && !a->is_string;
		fl->is_data_loc = a->is_string;
		fl->float_format = a->float_format;
		a->field = (int)e->nfields++;
		off += size;
		strings |= a->is_string;
	}
	if (strings) {
		struct sdt_trace_field *fl = &e->fields[e->nfields++];

		fl->name = sdt_strdup("_sdt_room");
		if (!fl->name)
			return -ENOMEM;
		fl->offset = (off + 3) & ~3u;
		fl->size = 4;
		fl->is_data_loc = true;
		fl->is_room = true;
	}
	return 0;
}

/* The room field's offset, for the program, or SDT_BPF_REG_NONE. */
static uint16_t room_dst(const struct sdt_trace_event_desc *e)
{
	int r = sdt_trace_room_field(e);

	return r >= 0 ? (uint16_t)e->fields[r].offset : SDT_BPF_REG_NONE;
}

static uint32_t fixed_end(const struct sdt_trace_event_desc *e)
{
	const struct sdt_trace_field *l = &e->fields[e->nfields - 1];

	return l->offset + l->size;
}

/* A new event of @f for @st, taking @args over. Its index in *ev. 0 or -ENOMEM. */
static int new_event(struct rec_bpf *b, const struct sdt_file *f, const struct sdt_site *st,
		     struct sdt_trace_arg *args, size_t nargs, size_t *ev)
{
	struct sdt_trace_event_desc *e;
	size_t cap = b->ev_cap;

	if (sdt_grow((void **)&b->events, &cap, b->nevents + 1, sizeof(*b->events)))
		return -ENOMEM;
	cap = b->ev_cap;
	if (sdt_grow((void **)&b->ev_file, &cap, b->nevents + 1, sizeof(*b->ev_file)))
		return -ENOMEM;
	b->ev_cap = cap;
	e = &b->events[b->nevents];
	memset(e, 0, sizeof(*e));
	b->ev_file[b->nevents] = f;
	b->nevents++;
	e->index = (uint32_t)(b->nevents - 1);
	e->ip_field = -1;
	e->args = args;
	e->nargs = nargs;
	e->provider = sdt_strdup(st->provider);
	e->name = sdt_strdup(st->name);
	e->path = sdt_strdup(b->paths[b->npaths - 1]);
	e->build_id = f->build_id ? sdt_strdup(f->build_id) : NULL;
	e->group = sdt_strdup("bpf");
	e->event = sdt_asprintf("%s_%s", st->provider, st->name);
	if (!e->provider || !e->name || !e->path || (f->build_id && !e->build_id) || !e->group ||
	    !e->event || lay_out(e))
		return -ENOMEM;
	*ev = b->nevents - 1;
	return 0;
}

/*
 * Site @si of @f with @types into an event (one of those from @ev_from on, or a new one) and a
 * plan. 0 or -errno.
 */
static int add_site(struct rec_bpf *b, size_t ev_from, bool no_args, const struct sdt_file *f,
		    size_t si, const struct sdt_arg_type *types)
{
	const struct sdt_site *st = &f->sites[si];
	struct sdt_trace_arg *args = NULL;
	struct sdt_bpf_site *plan;
	struct sdt_trace_event_desc *e;
	size_t i, j, nargs = st->nargs, ev = 0, cap;
	int err = 0;

	cap = b->sites_cap;
	if (sdt_grow((void **)&b->sites, &cap, b->nsites + 1, sizeof(*b->sites)) ||
	    sdt_grow((void **)&b->site_of, &b->sites_cap, b->nsites + 1, sizeof(*b->site_of)))
		return sdt_err(-ENOMEM, "out of memory");
	plan = &b->sites[b->nsites];
	memset(plan, 0, sizeof(*plan));
	if (nargs) {
		args = calloc(nargs, sizeof(*args));
		if (!args)
			return sdt_err(-ENOMEM, "out of memory");
	}
	for (i = 0; i < nargs; i++) {
		err = build_arg(f, st, i, types ? &types[i] : NULL, &args[i],
				i < SDT_BPF_MAX_ARGS ? &plan->args[i] : &(struct sdt_bpf_arg){0});
		for (j = 0; !err && j < i; j++)
			if (!strcmp(args[j].name, args[i].name))
				err = sdt_err(-EINVAL,
					      "%s:%s: arguments %zu and %zu are both named '%s'",
					      st->provider, st->name, j + 1, i + 1, args[i].name);
		if (err)
			goto fail;
	}
	/* built (and so checked: names, types) even when counting, then dropped */
	if (no_args) {
		args_release(args, nargs);
		args = NULL;
		nargs = 0;
	}
	for (i = ev_from; i < b->nevents; i++) {
		e = &b->events[i];
		if (b->ev_file[i] == f && !strcmp(e->provider, st->provider) &&
		    !strcmp(e->name, st->name) && e->nargs == nargs &&
		    same_args(e->args, args, nargs))
			break;
	}
	if (i < b->nevents) {
		ev = i;
		args_release(args, nargs);
		args = NULL;
	} else {
		err = new_event(b, f, st, args, nargs, &ev);
		args = NULL; /* the event owns them, even on failure */
		if (err) {
			err = sdt_err(-ENOMEM, "out of memory");
			goto fail;
		}
	}
	e = &b->events[ev];
	cap = e->nsites;
	if (sdt_grow((void **)&e->site_addrs, &cap, e->nsites + 1, sizeof(*e->site_addrs))) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto fail;
	}
	e->site_addrs[e->nsites++] = st->address;
	plan->address = st->address;
	plan->event = (uint32_t)ev;
	plan->nargs = (uint16_t)nargs;
	plan->fixed_end = (uint16_t)fixed_end(e);
	plan->room = room_dst(e);
	for (i = 0; i < nargs; i++) {
		if (e->args[i].field < 0)
			plan->args[i].fetch = SDT_BPF_NONE;
		else
			plan->args[i].dst = (uint16_t)e->fields[e->args[i].field].offset;
	}
	b->site_of[b->nsites].f = f;
	b->site_of[b->nsites].site = si;
	b->site_of[b->nsites].path = b->npaths - 1;
	b->nsites++;
	return 0;
fail:
	args_release(args, nargs);
	return err;
}

/* Can the BPF engine place site @st of @f? 0, or -EOPNOTSUPP with the reason. */
static int site_supported(const struct sdt_file *f, const struct sdt_site *st)
{
	size_t i;

	if (f->machine != EM_X86_64 || f->elfclass != ELFCLASS64)
		return sdt_err(-EOPNOTSUPP, "'%s' is not an x86_64 file: the BPF engine reads "
					    "x86_64 registers only", f->path);
	if (st->is_return)
		return sdt_err(-EOPNOTSUPP, "%s:%s: a return probe: the BPF engine places entry "
					    "probes only", st->provider, st->name);
	if (st->nargs > SDT_BPF_MAX_ARGS)
		return sdt_err(-EOPNOTSUPP, "%s:%s: %zu arguments, more than the BPF engine's %d",
			       st->provider, st->name, st->nargs, SDT_BPF_MAX_ARGS);
	for (i = 0; i < st->nargs; i++) {
		/*
		 * a user probe's own fetch (lib/cache/userprobe_resolve.c: a REG argument with
		 * no register, the fetch given as is) is tracefs syntax
		 */
		if (st->args[i].fetch && !st->args[i].reg[0] &&
		    (st->args[i].kind == SDT_ARG_INVALID || st->args[i].kind == SDT_ARG_REG))
			return sdt_err(-EOPNOTSUPP, "%s:%s: a user probe's fetch '%s' is tracefs "
						    "syntax", st->provider, st->name,
				       st->args[i].fetch);
	}
	return 0;
}

int sdt_rec_bpf_supported(const struct sdt_recorder *r)
{
	size_t i, k;
	int err;

	/* the BPF engine's links raise semaphores through the kernel (ref_ctr_offset), never poke */
	if (r->o.semaphore == SDT_SEMAPHORE_POKE)
		return sdt_err(-ENOTSUP, "--semaphore=poke is the tracefs engine's: the BPF engine "
					 "raises semaphores through the kernel's ref_ctr_offset "
					 "(--engine=tracefs to poke them)");
	if (r->o.call_graph == SDT_CALL_GRAPH_DWARF && r->o.stack_user_bytes > SDT_BPF_USTACK_MAX)
		return sdt_err(-ENOTSUP, DWARF_IS_TRACEFS);
	for (i = 0; i < r->nadds; i++) {
		for (k = 0; k < r->adds[i].n; k++) {
			err = site_supported(r->adds[i].f, &r->adds[i].f->sites[r->adds[i].sites[k]]);
			if (err)
				return err;
		}
	}
	return 0;
}

/* Can the program fetch the site's arguments inline (plan.h's `fast`)? */
static bool site_fast(const struct sdt_bpf_site *s)
{
	size_t i;

	if (s->nargs > SDT_BPF_FAST_ARGS)
		return false;
	for (i = 0; i < s->nargs; i++)
		if (s->args[i].fetch != SDT_BPF_NONE &&
		    ((s->args[i].flags & SDT_BPF_STRING) || s->args[i].size > 8))
			return false;
	return true;
}

/* The path @b links file @f by: its real path, or as it is (a /proc/PID/root/... one). */
static char *link_path(const struct sdt_file *f)
{
	char *path = strncmp(f->path, "/proc/", 6) ? realpath(f->path, NULL) : NULL;

	return path ? path : sdt_strdup(f->path);
}

/* The maps' sizes are fixed when the program loads: what a late file that does not fit needs. */
#define LATE_ROOM                                                                                  \
	"the maps are sized when the program loads, with room for %d more for the files met "      \
	"during the run"
#define LATE_WAYS "--engine=tracefs arms it, or name fewer events (-e)"

/* Back to @nsites plans, @nevents events and @npaths paths: what a refused add made. */
static void rollback(struct rec_bpf *b, size_t nsites, size_t nevents, size_t npaths)
{
	while (b->nevents > nevents)
		sdt_trace_event_desc_release(&b->events[--b->nevents]);
	while (b->npaths > npaths)
		free(b->paths[--b->npaths]);
	b->nsites = nsites;
}

int sdt_rec_bpf_add(struct rec_bpf *b, const struct sdt_recorder *r, size_t first)
{
	size_t i, k, cap, n = 0, from = b->nsites, ev0 = b->nevents, path0 = b->npaths;
	int err;

	for (i = first; i < r->nadds; i++) {
		n += r->adds[i].n;
		for (k = 0; k < r->adds[i].n; k++) {
			err = site_supported(r->adds[i].f, &r->adds[i].f->sites[r->adds[i].sites[k]]);
			if (err)
				return err;
		}
	}
	/* the plans before anything is built; the events once built (sites share them) */
	if (b->sites_max && b->nsites + n > b->sites_max)
		return sdt_err(
		    -ENOSPC,
		    "its %zu sites do not fit in the BPF engine's maps: %zu "
		    "more site plans fit (%zu of %zu are used; " LATE_ROOM "); " LATE_WAYS,
		    n, b->sites_max - b->nsites, b->nsites, b->sites_max, SDT_BPF_LATE_SITES);
	for (i = first; i < r->nadds; i++) {
		const struct rec_added *a = &r->adds[i];
		char *path = link_path(a->f);

		cap = b->paths_cap;
		if (!path || sdt_grow((void **)&b->paths, &cap, b->npaths + 1, sizeof(*b->paths))) {
			free(path);
			rollback(b, from, ev0, path0);
			return sdt_err(-ENOMEM, "out of memory");
		}
		b->paths_cap = cap;
		b->paths[b->npaths++] = path;
		for (k = 0; k < a->n; k++) {
			/* counting keeps no arguments, unless aggregating (its keys are arguments) */
			err = add_site(b, ev0, r->o.count_only && !r->o.agg_for, a->f, a->sites[k],
				       a->types ? a->types[k] : NULL);
			if (err) {
				rollback(b, from, ev0, path0);
				return err;
			}
		}
	}
	if (b->events_max && b->nevents > b->events_max) {
		size_t nev = b->nevents - ev0;

		rollback(b, from, ev0, path0);
		return sdt_err(-ENOSPC,
			       "its %zu events do not fit in the BPF engine's maps: %zu "
			       "more events fit (%zu of %zu are used; " LATE_ROOM "); " LATE_WAYS,
			       nev, b->events_max - b->nevents, b->nevents, b->events_max,
			       SDT_BPF_LATE_EVENTS);
	}
	for (k = from; k < b->nsites; k++)
		b->sites[k].fast = site_fast(&b->sites[k]);
	return 0;
}

int sdt_rec_bpf_build(struct rec_bpf *b, const struct sdt_recorder *r)
{
	int err = sdt_rec_bpf_supported(r);

	return err ? err : sdt_rec_bpf_add(b, r, 0);
}

void sdt_rec_bpf_free(struct rec_bpf *b)
{
	size_t i;

	if (!b)
		return;
	sdt_bpf__free(b->bpf);
	sdt_rec_bpf_agg_release(&b->agg);
	for (i = 0; i < b->nevents; i++)
		sdt_trace_event_desc_release(&b->events[i]);
	free(b->events);
	free(b->ev_file);
	free(b->sites);
	free(b->filters);
	free(b->site_of);
	for (i = 0; i < b->npaths; i++)
		free(b->paths[i]);
	free(b->paths);
	free(b);
}

const struct sdt_trace_event_desc *sdt_rec_bpf_event(const struct rec_bpf *b, size_t event)
{
	return b && event < b->nevents ? &b->events[event] : NULL;
}
