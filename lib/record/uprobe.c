/* SPDX-License-Identifier: MIT */
/* Our uprobe events: build, create, describe, remove (see uprobe.h for naming and grouping). */
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "record/event_format.h"
#include "scan/file.h"
#include "util/internal.h"
#include "record/session.h"
#include "record/tracefs.h"
#include "record/uprobe.h"
#include "record/uprobe_layout.h"

#define MAX_EVENTS   65536
#define GROUP_PREFIX "sdtrace_"
/* Sharing: slots per shared trace event, and the longest path/fetch that may share (so that a
 * line stays far below tracefs' 4096-byte command limit: 33 fields of <= 72 bytes + path). */
#define SHARE_MAX_SLOTS 32
#define SHARE_MAX_PATH	1024
#define SHARE_MAX_FETCH 64
#define DEMUX_FIELD	"ev"

/* What the set keeps per event beyond the shared description. */
struct ev_extra {
	const struct sdt_file *file;
	size_t *sites; /* indices into file's sites */
	size_t nsites, cap;
	/* per argument: the fetch type ("u64", "string", "b8@8/64"), NULL when unavailable; owned
	 */
	char **ftype;
	/* per site: its fetch per argument (NULL when unavailable), for the definition lines */
	char ***site_fetch;
	char *lname;	/* the event's own unique name; the trace event's is e->event */
	bool is_return; /* r: sites */
	dev_t dev;	/* the file, as the kernel tells probes apart (0/0: unknown) */
	ino_t ino;
};

/* One tracefs event: one session event, or several sharing it (uprobe_layout.h). */
struct kev {
	char *name;		      /* its first event's own name */
	struct sdt_uprobe_kevent pub; /* .event: its first event */
};

struct poked {
	pid_t pid;
	uint64_t addr;
};

struct sdt_uprobe_set {
	char group[SDT_MAX_EVENT_NAME + 1];
	bool use_ref_ctr;
	bool no_args;
	bool share;
	struct sdt_trace_event_desc *events;
	struct ev_extra *extra;
	size_t nevents, cap;
	/* the tracefs events, rebuilt after each add */
	struct kev *kev;
	size_t nkev;
	struct sdt_layout layout;
	struct sdt_buf defs;
	struct sdt_buf removal;
	bool registered; /* in the registry: definitions may exist in the kernel */
	struct sdt_uprobe_set *next;
	struct poked *poked;
	size_t npoked, poked_cap;
};

/* Sets whose events may exist in the kernel; walked without a lock by the emergency path. */
static struct sdt_uprobe_set *volatile registry;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int group_seq;

int sdt_uprobe_session_group(char *buf, size_t size)
{
	struct sdt_session_id id;
	int err;

	err = sdt_session_self(&id);
	if (err)
		return err;
	id.seq = __atomic_fetch_add(&group_seq, 1, __ATOMIC_RELAXED);
	return sdt_session_format(buf, size, &id);
}

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
	t->name = type && type->name ? sdt_strdup(type->name) : sdt_asprintf("arg%zu", i + 1);
	t->named = type && type->name;
	t->spec = sdt_strdup(a->spec ? a->spec : "");
	t->size = a->size;
	t->field = -1;
	if (!t->name || !t->spec)
		return sdt_err(-ENOMEM, "out of memory");
	if (t->named && !sdt_type__valid_name(t->name))
		return sdt_err(-EINVAL, "%s:%s: '%s' is not a valid argument name", st->provider,
			       st->name, t->name);
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

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
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
		if (strcmp(p->name, q->name) || p->named != q->named || p->type != q->type ||
		    p->size != q->size || p->is_signed != q->is_signed ||
		    p->is_float != q->is_float || p->is_string != q->is_string ||
		    p->rebase != q->rebase || !same_str(p->unavailable, q->unavailable))
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
	e->index = (uint32_t)s->nevents;
	e->ip_field = -1;
	e->provider = sdt_strdup(st->provider);
	e->name = sdt_strdup(st->name);
	e->path = sdt_strdup(path);
	e->build_id = f->build_id ? sdt_strdup(f->build_id) : NULL;
	e->group = sdt_strdup(s->group);
	x->lname = event_name(s, st->provider, st->name);
	e->event = x->lname ? sdt_strdup(x->lname) : NULL; /* the trace event's: see rebuild() */
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

/* ---- the tracefs events: which events share one, and the definition lines ------------ */

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

static void kevs_free(struct sdt_uprobe_set *s)
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
static bool kev_shared(const struct sdt_uprobe_set *s, size_t ki)
{
	return s->layout.nmembers[ki] > 1;
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
	if (!kev_shared(s, ki)) {
		for (a = 0; !err && a < e->nargs; a++)
			if (fetch && fetch[a])
				err = sdt_buf_addf(l, " %s=%s", e->args[a].name, fetch[a]);
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
	return err ? err : sdt_buf_addstr(l, "\n");
}

/* Pack the events into trace events, then rebuild the batch and the removal text. */
static int rebuild(struct sdt_uprobe_set *s)
{
	size_t *order = NULL, *start = NULL, arg_of_slot[SHARE_MAX_SLOTS];
	size_t i, j, a, k;
	int err;

	kevs_free(s);
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
	/* tracefs resolves the path in the writer's context: make it absolute. */
	path = realpath(f->path, NULL);
	if (!path)
		path = sdt_strdup(f->path);
	if (!path)
		return sdt_err(-ENOMEM, "out of memory");
	if (!path_ok(path)) {
		err = sdt_err(-EINVAL,
			      "'%s': a path with whitespace or control characters cannot "
			      "be given to uprobe_events",
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
	err = rebuild(s);
out:
	free(path);
	return err;
}

int sdt_uprobe_set__share(struct sdt_uprobe_set *s)
{
	if (s->registered)
		return sdt_err(-EBUSY, "uprobe set already created");
	if (s->share)
		return 0;
	s->share = true;
	return rebuild(s);
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

static void registry_add(struct sdt_uprobe_set *s)
{
	pthread_mutex_lock(&registry_lock);
	s->next = registry;
	__atomic_store_n(&registry, s, __ATOMIC_RELEASE);
	s->registered = true;
	pthread_mutex_unlock(&registry_lock);
}

static void registry_del(struct sdt_uprobe_set *s)
{
	struct sdt_uprobe_set *volatile *pp;

	pthread_mutex_lock(&registry_lock);
	for (pp = &registry; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			__atomic_store_n(pp, s->next, __ATOMIC_RELEASE);
			break;
		}
	}
	s->registered = false;
	pthread_mutex_unlock(&registry_lock);
}

/*
 * Write removal lines: the batch first; when the kernel stops at a line (an event that was never
 * created answers ENOENT), line by line. Returns the first error other than ENOENT.
 */
static int remove_lines(const char *text, size_t len)
{
	char msg[1024];
	size_t off = 0;
	int first = 0, err;

	sdt_print_lines(SDT_DEBUG, "uprobe_events: remove ", text, len);
	if (!len || sdt_tracefs_uprobe_write(text, len) == 0)
		return 0;
	while (off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (text + off)) + 1 : len - off;

		err = sdt_tracefs_uprobe_write(text + off, n);
		if (err && err != -ENOENT && !first) {
			first = err;
			snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
		}
		off += n;
	}
	if (first)
		sdt_err(first, "%s", msg);
	return first;
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

static int describe(struct sdt_uprobe_set *s, struct kev *k)
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
	if (!kev_shared(s, (size_t)(k - s->kev))) {
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

int sdt_uprobe_set__create(struct sdt_uprobe_set *s)
{
	size_t i;
	int err;

	if (s->registered)
		return sdt_err(-EBUSY, "uprobe group '%s' already created", s->group);
	if (!s->nevents)
		return sdt_err(-ENOENT, "no probe sites to create");
	registry_add(s);
	sdt_print_lines(SDT_DEBUG, "uprobe_events: add ", s->defs.buf, s->defs.len);
	err = sdt_tracefs_uprobe_write(s->defs.buf, s->defs.len);
	if (err && s->share) {
		/*
		 * A kernel that refuses the shared form (immediates came in 5.7): once more with
		 * an event of its own for each event. If that fails too, its error is the one.
		 */
		char msg[1024];

		snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
		if (sdt_uprobe_set__remove(s))
			return sdt_err(err, "%s",
				       msg); /* still registered: its removal text stays */
		s->share = false;
		err = rebuild(s);
		if (err)
			return err;
		sdt_err_clear();
		return sdt_uprobe_set__create(s);
	}
	if (err)
		goto fail;
	for (i = 0; i < s->nkev; i++) {
		err = describe(s, &s->kev[i]);
		if (err)
			goto fail;
	}
	return 0;
fail : {
	char msg[1024];

	snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
	sdt_uprobe_set__remove(s);
	return sdt_err(err, "%s", msg);
}
}

int sdt_uprobe_set__remove(struct sdt_uprobe_set *s)
{
	int err;

	if (!s || !s->registered)
		return 0;
	err = remove_lines(s->removal.buf, s->removal.len);
	if (err)
		return sdt_err_prefix(err, "cannot remove uprobe group '%s'", s->group);
	registry_del(s);
	return 0;
}

void sdt_uprobe_emergency_remove(void)
{
	static const char *const files[] = {"/sys/kernel/tracing/uprobe_events",
					    "/sys/kernel/debug/tracing/uprobe_events"};
	struct sdt_uprobe_set *s;
	size_t i;
	int fd = -1;

	for (i = 0; i < ARRAY_SIZE(files) && fd < 0; i++)
		fd = open(files[i], O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return;
	for (s = __atomic_load_n(&registry, __ATOMIC_ACQUIRE); s; s = s->next) {
		const char *p = s->removal.buf, *end = p + s->removal.len;

		/* One line per write: one missing event must not stop the others. */
		while (p && p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

			if (write(fd, p, n) < 0) {
				/* nothing to do: best effort */
			}
			p += n;
		}
	}
	close(fd);
}

void sdt_uprobe_set__free(struct sdt_uprobe_set *s)
{
	size_t i, j, k;

	if (!s)
		return;
	sdt_uprobe_set__unpoke(s);
	if (s->registered && sdt_uprobe_set__remove(s) < 0)
		registry_del(s); /* cannot do more; a later sdtrace removes it as stale */
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
	kevs_free(s);
	free(s->events);
	free(s->extra);
	free(s->poked);
	sdt_buf_free(&s->defs);
	sdt_buf_free(&s->removal);
	free(s);
}

/* ---- semaphores by hand: /proc/PID/mem ------------------------------------------------ */

struct sem {
	const struct sdt_file *file;
	uint64_t off;
};

/* The distinct (file, semaphore offset) pairs of the set; *out malloc'ed. */
static int semaphores(const struct sdt_uprobe_set *s, struct sem **out, size_t *n)
{
	struct sem *arr = NULL;
	size_t cap = 0, cnt = 0, i, j, k;

	for (i = 0; i < s->nevents; i++) {
		const struct ev_extra *x = &s->extra[i];

		for (j = 0; j < x->nsites; j++) {
			const struct sdt_site *st = &x->file->sites[x->sites[j]];

			if (!st->semaphore || !st->has_semaphore_offset)
				continue;
			for (k = 0; k < cnt; k++)
				if (arr[k].file == x->file && arr[k].off == st->semaphore_offset)
					break;
			if (k < cnt)
				continue;
			if (sdt_grow((void **)&arr, &cap, cnt + 1, sizeof(*arr))) {
				free(arr);
				return -ENOMEM;
			}
			arr[cnt].file = x->file;
			arr[cnt++].off = st->semaphore_offset;
		}
	}
	*out = arr;
	*n = cnt;
	return 0;
}

size_t sdt_uprobe_set__semaphore_count(const struct sdt_uprobe_set *s)
{
	struct sem *arr;
	size_t n = 0;

	if (semaphores(s, &arr, &n))
		return 0;
	free(arr);
	return n;
}

/*
 * The address of file offset @off of the file (@dev, @ino) in process @pid, from /proc/PID/maps;
 * a writable mapping is preferred. 0 or -ENOENT.
 */
static int map_addr(pid_t pid, dev_t dev, ino_t ino, uint64_t off, uint64_t *addr)
{
	char path[64], line[4096];
	bool found = false;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long start, end, pgoff, inode;
		unsigned int maj, min;
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu", &start, &end, perms, &pgoff, &maj,
			   &min, &inode) != 7)
			continue;
		if (inode != ino || makedev(maj, min) != dev)
			continue;
		if (off < pgoff || off - pgoff >= end - start)
			continue;
		*addr = start + (off - pgoff);
		found = true;
		if (perms[1] == 'w')
			break;
	}
	fclose(fp);
	return found ? 0 : -ENOENT;
}

static int mem_add(int fd, uint64_t addr, int delta)
{
	uint16_t v;

	if (pread(fd, &v, sizeof(v), (off_t)addr) != sizeof(v))
		return -errno ? -errno : -EIO;
	if (delta < 0 && v == 0)
		return 0;
	v = (uint16_t)(v + delta);
	if (pwrite(fd, &v, sizeof(v), (off_t)addr) != sizeof(v))
		return -errno ? -errno : -EIO;
	return 0;
}

int sdt_uprobe_set__poke(struct sdt_uprobe_set *s, pid_t pid)
{
	struct sem *sems = NULL;
	char path[64];
	size_t n, i;
	int fd = -1, err, done = 0;

	err = semaphores(s, &sems, &n);
	if (err)
		return sdt_err(err, "out of memory");
	if (!n)
		goto out;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		err = sdt_err(-errno, "cannot open '%s' to enable semaphores: %s", path,
			      strerror(errno));
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct stat st;
		uint64_t addr;
		size_t cap;

		if (stat(sems[i].file->path, &st))
			continue;
		if (map_addr(pid, st.st_dev, st.st_ino, sems[i].off, &addr))
			continue; /* this process does not map that file */
		cap = s->poked_cap;
		if (sdt_grow((void **)&s->poked, &cap, s->npoked + 1, sizeof(*s->poked))) {
			err = sdt_err(-ENOMEM, "out of memory");
			goto out;
		}
		s->poked_cap = cap;
		err = mem_add(fd, addr, +1);
		if (err) {
			err = sdt_err(err,
				      "cannot enable the semaphore at 0x%" PRIx64 " of '%s' in "
				      "process %d: %s",
				      addr, sems[i].file->path, (int)pid, strerror(-err));
			goto out;
		}
		s->poked[s->npoked].pid = pid;
		s->poked[s->npoked++].addr = addr;
		done++;
	}
	err = done;
out:
	if (fd >= 0)
		close(fd);
	free(sems);
	return err;
}

void sdt_uprobe_set__unpoke(struct sdt_uprobe_set *s)
{
	pid_t open_pid = 0;
	char path[64];
	size_t i;
	int fd = -1;

	if (!s)
		return;
	for (i = 0; i < s->npoked; i++) {
		if (s->poked[i].pid != open_pid || fd < 0) {
			if (fd >= 0)
				close(fd);
			open_pid = s->poked[i].pid;
			snprintf(path, sizeof(path), "/proc/%d/mem", (int)open_pid);
			fd = open(path, O_RDWR | O_CLOEXEC);
		}
		if (fd >= 0)
			mem_add(fd, s->poked[i].addr, -1);
	}
	if (fd >= 0)
		close(fd);
	s->npoked = 0;
}

/* ---- stale sessions ------------------------------------------------------------------- */

int sdt_uprobe_remove_stale(char **names)
{
	struct sdt_session_sweep sweep = {0};
	struct sdt_buf rm = {0}, groups = {0};
	char *text = NULL, *p, *end;
	size_t len, last_len = 0;
	const char *last = NULL;
	int err, count = 0;

	if (names)
		*names = NULL;
	err = sdt_tracefs_read("uprobe_events", &text, &len);
	if (err)
		return err;
	for (p = text, end = text + len; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *le = nl ? nl : end, *g, *slash, *sp;

		/* "p:GROUP/EVENT ..." (also r:) */
		g = p + 2;
		if (le - p > 2 && p[1] == ':' && (size_t)(le - g) > strlen(GROUP_PREFIX) &&
		    !memcmp(g, GROUP_PREFIX, strlen(GROUP_PREFIX))) {
			slash = memchr(g, '/', (size_t)(le - g));
			sp = slash ? memchr(slash, ' ', (size_t)(le - slash)) : NULL;
			if (!sp)
				sp = le;
			if (slash && sdt_session_group_dead(&sweep, g, (size_t)(slash - g))) {
				err = sdt_buf_addf(&rm, "-:%.*s\n", (int)(sp - g), g);
				if (!err && !(last && last_len == (size_t)(slash - g) &&
					      !memcmp(last, g, last_len))) {
					err = sdt_buf_addf(&groups, "%s%.*s", count ? ", " : "",
							   (int)(slash - g), g);
					count++;
					last = g;
					last_len = (size_t)(slash - g);
				}
				if (err) {
					err = sdt_err(-ENOMEM, "out of memory");
					goto out;
				}
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (rm.len) {
		err = remove_lines(rm.buf, rm.len);
		if (err) {
			sdt_err_prefix(err, "cannot remove the uprobes of dead sdtrace sessions");
			goto out;
		}
	}
	err = count;
	if (names && count)
		*names = sdt_buf_take(&groups);
out:
	sdt_buf_free(&rm);
	sdt_buf_free(&groups);
	free(text);
	return err;
}
