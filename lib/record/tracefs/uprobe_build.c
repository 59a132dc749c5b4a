/* SPDX-License-Identifier: MIT */
/*
 * Which sites become which events of a set: each site's arguments built (names, fetches, the
 * description the reader decodes them with), then the site joins an event of the same
 * provider:name, file and argument layout, or starts a new one (uprobe.h, "Grouping").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "scan/file.h"
#include "record/arg_begin.h"
#include "record/tracefs/uprobe.h"
#include "record/tracefs/uprobe_set.h"
#include "trace/decode_float.h"
#include "util/internal.h"
#include "scan/find.h"

/*
 * One site's arguments as the uprobe line will have them: names, fetches, and the description
 * the reader decodes them with. Two sites share an event when everything but the fetch
 * expressions agrees (the kernel's rule is names and types; the description must agree too).
 */
struct site_args {
	struct sdt_trace_arg *args; /* nargs entries, owned until moved into an event */
	char **fetch;		    /* the fetcharg text, NULL when unavailable; owned */
	size_t nargs;
	bool is_return;
};

static void site_args_release(struct site_args *sa)
{
	size_t i;

	for (i = 0; i < sa->nargs; i++) {
		if (sa->args) {
			free(sa->args[i].name);
			free(sa->args[i].spec);
			free(sa->args[i].unavailable);
		}
		if (sa->fetch)
			free(sa->fetch[i]);
	}
	free(sa->args);
	free(sa->fetch);
	memset(sa, 0, sizeof(*sa));
}

/* The type part of a fetcharg: "u64" of "%bx:u64", "string" of "+0(%bx):string". */
static const char *fetch_type(const char *fetch)
{
	const char *c = fetch ? strrchr(fetch, ':') : NULL;

	return c ? c + 1 : "";
}

/*
 * Build argument @i of site @st with @type (NULL or SDT_TYPE_DEFAULT: the note's). A type that
 * cannot be applied to this site's operand (a string through a constant) gives way to the note's
 * fetch; the name stays. Returns 0 or -errno.
 */
static int build_arg(const struct sdt_file *f, const struct sdt_site *st, size_t i,
		     const struct sdt_arg_type *type, struct sdt_trace_arg *t, char **fetch)
{
	const struct sdt_arg *a = &st->args[i];
	enum sdt_type_kind kind = type ? type->kind : SDT_TYPE_DEFAULT;
	int err;

	*fetch = NULL;
	err = sdt_rec_arg_begin(st, i, type, t);
	if (err)
		return err;
	if (!a->fetch) {
		t->unavailable = sdt_strdup(a->unavailable ? a->unavailable : "unavailable");
		t->type = (uint8_t)kind;
		t->is_signed = a->is_signed;
		t->is_float = a->is_float;
		return t->unavailable ? 0 : sdt_err(-ENOMEM, "out of memory");
	}
	if (kind != SDT_TYPE_DEFAULT) {
		err = sdt_arg__typed_fetch(f, st, i, type, fetch);
		if (err == -ENOTSUP) {
			sdt_err_clear();
			kind = SDT_TYPE_DEFAULT;
		} else if (err) {
			return err;
		}
	}
	if (!*fetch) {
		*fetch = sdt_strdup(a->fetch);
		if (!*fetch)
			return sdt_err(-ENOMEM, "out of memory");
	}
	t->type = (uint8_t)kind;
	/* a user probe's argument may be fetched as a string already (+0(%di):string) */
	t->is_string = kind == SDT_TYPE_STRING || !strcmp(fetch_type(*fetch), "string") ||
		       !strcmp(fetch_type(*fetch), "ustring");
	t->is_float = kind == SDT_TYPE_FLOAT ||
		      ((kind == SDT_TYPE_DEFAULT || kind == SDT_TYPE_CHAR) && a->is_float);
	t->is_signed = kind == SDT_TYPE_INT   ? type->is_signed
		       : kind == SDT_TYPE_HEX ? false
					      : a->is_signed;
	t->rebase = kind != SDT_TYPE_STRING && sdt_arg__needs_rebase(a);
	/* a long double's 16 bytes are read by the format of the file's architecture */
	if (t->is_float && t->size == 16)
		t->float_format = (uint8_t)sdt_float_format_of(f->machine);
	return 0;
}

/* Site @st's arguments with @types (st->nargs entries, or NULL) into @sa. 0 or -errno. */
static int build_site_args(const struct sdt_file *f, const struct sdt_site *st,
			   const struct sdt_arg_type *types, struct site_args *sa)
{
	size_t i, j;
	int err;

	memset(sa, 0, sizeof(*sa));
	sa->is_return = st->is_return;
	if (!st->nargs)
		return 0;
	sa->args = calloc(st->nargs, sizeof(*sa->args));
	sa->fetch = calloc(st->nargs, sizeof(*sa->fetch));
	if (!sa->args || !sa->fetch) {
		free(sa->args);
		free(sa->fetch);
		sa->args = NULL;
		sa->fetch = NULL;
		return sdt_err(-ENOMEM, "out of memory");
	}
	sa->nargs = st->nargs;
	for (i = 0; i < st->nargs; i++) {
		err = build_arg(f, st, i, types ? &types[i] : NULL, &sa->args[i], &sa->fetch[i]);
		if (err)
			goto fail;
		for (j = 0; j < i; j++) {
			if (!strcmp(sa->args[j].name, sa->args[i].name)) {
				err = sdt_err(
				    -EINVAL, "%s:%s: arguments %zu and %zu are both named '%s'",
				    st->provider, st->name, j + 1, i + 1, sa->args[i].name);
				goto fail;
			}
		}
	}
	return 0;
fail:
	site_args_release(sa);
	return err;
}

/* Can a site with arguments @sa join event @e: names, types and descriptions all equal? */
static bool same_layout(const struct ev_extra *x, const struct sdt_trace_event_desc *e,
			const struct site_args *sa)
{
	size_t i;

	if (e->nargs != sa->nargs || x->is_return != sa->is_return)
		return false;
	for (i = 0; i < sa->nargs; i++) {
		const struct sdt_trace_arg *p = &e->args[i], *q = &sa->args[i];

		if (!!x->ftype[i] != !!sa->fetch[i] ||
		    (sa->fetch[i] && strcmp(x->ftype[i], fetch_type(sa->fetch[i]))))
			return false;
		if (!sdt_rec_arg_same(p, q))
			return false;
	}
	return true;
}

static bool name_taken(const struct sdt_uprobe_set *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nevents; i++)
		if (!strcmp(s->extra[i].lname, name))
			return true;
	return false;
}

/* "<provider>_<name>", "_<k>" for the k-th layout, cut with the event number past 64 bytes. */
static char *event_name(const struct sdt_uprobe_set *s, const char *prov, const char *name)
{
	char buf[3 * SDT_MAX_EVENT_NAME], suffix[32];
	unsigned int k;
	size_t len;

	for (k = 1; k < 1000; k++) {
		if (k == 1)
			suffix[0] = '\0';
		else
			snprintf(suffix, sizeof(suffix), "_%u", k);
		snprintf(buf, sizeof(buf), "%s_%s%s", prov, name, suffix);
		if (strlen(buf) > SDT_MAX_EVENT_NAME)
			break;
		if (!name_taken(s, buf))
			return sdt_strdup(buf);
	}
	/* Too long or too many layouts: the event number makes it unique in the group. */
	snprintf(suffix, sizeof(suffix), "_e%zu", s->nevents);
	snprintf(buf, sizeof(buf), "%s_%s", prov, name);
	len = SDT_MAX_EVENT_NAME - strlen(suffix);
	if (strlen(buf) > len)
		buf[len] = '\0';
	strcat(buf, suffix);
	return sdt_strdup(buf);
}

static bool path_ok(const char *p)
{
	for (; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return false;
	return true;
}

/* A new event for site @st, taking @sa's arguments over (on success). */
static int new_event(struct sdt_uprobe_set *s, const struct sdt_file *f, const char *path,
		     const struct stat *fst, const struct sdt_site *st, struct site_args *sa)
{
	struct sdt_trace_event_desc *e;
	struct ev_extra *x;
	size_t cap = s->cap, i;

	if (s->nevents >= MAX_EVENTS)
		return sdt_err(-E2BIG, "more than %d events in one session", MAX_EVENTS);
	if (sdt_grow((void **)&s->events, &cap, s->nevents + 1, sizeof(*s->events)))
		goto oom;
	cap = s->cap;
	if (sdt_grow((void **)&s->extra, &cap, s->nevents + 1, sizeof(*s->extra)))
		goto oom;
	s->cap = cap;
	e = &s->events[s->nevents];
	x = &s->extra[s->nevents];
	memset(e, 0, sizeof(*e));
	memset(x, 0, sizeof(*x));
	e->index = s->index_base + (uint32_t)s->nevents;
	e->ip_field = -1;
	e->provider = sdt_strdup(st->provider);
	e->name = sdt_strdup(st->name);
	e->path = sdt_strdup(path);
	e->build_id = f->build_id ? sdt_strdup(f->build_id) : NULL;
	e->group = sdt_strdup(s->group);
	x->lname = event_name(s, st->provider, st->name);
	/* the trace event's name: see sdt_uprobe_set_rebuild() */
	e->event = x->lname ? sdt_strdup(x->lname) : NULL;
	x->file = f;
	x->is_return = st->is_return;
	x->dev = fst ? fst->st_dev : 0;
	x->ino = fst ? fst->st_ino : 0;
	if (!e->provider || !e->name || !e->path || (f->build_id && !e->build_id) || !e->group ||
	    !e->event)
		goto fail;
	if (sa->nargs) {
		x->ftype = calloc(sa->nargs, sizeof(*x->ftype));
		if (!x->ftype)
			goto fail;
		for (i = 0; i < sa->nargs; i++) {
			if (!sa->fetch[i])
				continue;
			x->ftype[i] = sdt_strdup(fetch_type(sa->fetch[i]));
			if (!x->ftype[i])
				goto fail;
		}
	}
	/* the arguments move into the event; the fetches stay with the caller (for the line) */
	e->args = sa->args;
	e->nargs = sa->nargs;
	sa->args = NULL;
	s->nevents++;
	return 0;
fail:
	s->nevents++; /* so that the release below reaches it */
	sdt_trace_event_desc_release(e);
	free(x->lname);
	x->lname = NULL;
	for (i = 0; x->ftype && i < sa->nargs; i++)
		free(x->ftype[i]);
	free(x->ftype);
	x->ftype = NULL;
	s->nevents--;
oom:
	return sdt_err(-ENOMEM, "out of memory");
}

static int add_site(struct sdt_uprobe_set *s, const struct sdt_file *f, const char *path,
		    const struct stat *fst, size_t si, const struct sdt_arg_type *types)
{
	const struct sdt_site *st = &f->sites[si];
	struct sdt_trace_event_desc *e = NULL;
	struct site_args sa;
	struct ev_extra *x = NULL;
	size_t i, ecap;
	int err;

	/* built (and so checked: names, types) even when counting, then dropped */
	err = build_site_args(f, st, types, &sa);
	if (err)
		return err;
	if (s->no_args) {
		site_args_release(&sa);
		memset(&sa, 0, sizeof(sa));
		sa.is_return = st->is_return;
	}
	for (i = 0; i < s->nevents; i++) {
		if (s->extra[i].file == f && !strcmp(s->events[i].provider, st->provider) &&
		    !strcmp(s->events[i].name, st->name) &&
		    same_layout(&s->extra[i], &s->events[i], &sa)) {
			e = &s->events[i];
			x = &s->extra[i];
			break;
		}
	}
	if (!e) {
		err = new_event(s, f, path, fst, st, &sa);
		if (err)
			goto out;
		e = &s->events[s->nevents - 1];
		x = &s->extra[s->nevents - 1];
	}
	err = -ENOMEM;
	ecap = x->cap;
	if (sdt_grow((void **)&x->sites, &ecap, x->nsites + 1, sizeof(*x->sites)))
		goto out;
	ecap = x->cap;
	if (sdt_grow((void **)&x->site_fetch, &ecap, x->nsites + 1, sizeof(*x->site_fetch)))
		goto out;
	x->cap = ecap;
	ecap = x->nsites;
	if (sdt_grow((void **)&e->site_addrs, &ecap, x->nsites + 1, sizeof(*e->site_addrs)))
		goto out;
	/* the fetches move to the site (NULL for an event without arguments) */
	x->site_fetch[x->nsites] = sa.fetch;
	sa.fetch = NULL;
	x->sites[x->nsites++] = si;
	e->site_addrs[e->nsites++] = st->address;
	err = 0;
out:
	if (err == -ENOMEM)
		err = sdt_err(-ENOMEM, "out of memory");
	site_args_release(&sa);
	return err;
}

int sdt_uprobe_set__add(struct sdt_uprobe_set *s, const struct sdt_file *f, const size_t *sites,
			size_t n)
{
	return sdt_uprobe_set__add_typed(s, f, sites, n, NULL);
}

int sdt_uprobe_set__add_typed(struct sdt_uprobe_set *s, const struct sdt_file *f,
			      const size_t *sites, size_t n, struct sdt_arg_type *const *types)
{
	struct stat fst;
	bool have_st;
	char *path;
	size_t i;
	int err = 0;

	if (s->registered)
		return sdt_err(-EBUSY, "uprobe set already created");
	/*
	 * tracefs resolves the path in the writer's context: make it absolute. A path through
	 * /proc/PID/root/ or /proc/PID/map_files/ stays as it is: it reaches the inode the process
	 * runs (another mount namespace, a deleted file), which realpath() would lose; the rest of
	 * a /proc/PID/root/ path is resolved inside that root (its absolute links are the
	 * process's).
	 */
	path = strncmp(f->path, "/proc/", 6) || sdt_proc_root_prefix(f->path)
		   ? sdt_user_path(f->path, false)
		   : NULL;
	if (!path)
		path = sdt_strdup(f->path);
	if (!path)
		return sdt_err(-ENOMEM, "out of memory");
	if (!path_ok(path)) {
		err = sdt_err(-EINVAL,
			      "'%s': a path with whitespace or control characters cannot "
			      "be given to uprobe_events (the tracefs engine); --engine=bpf "
			      "arms it",
			      path);
		goto out;
	}
	have_st = stat(path, &fst) == 0;
	for (i = 0; i < n; i++) {
		if (sites[i] >= f->nsites) {
			err = sdt_err(-ERANGE, "'%s': no site %zu", path, sites[i]);
			goto out;
		}
		err =
		    add_site(s, f, path, have_st ? &fst : NULL, sites[i], types ? types[i] : NULL);
		if (err)
			goto out;
	}
	err = sdt_uprobe_set_rebuild(s);
out:
	free(path);
	return err;
}
