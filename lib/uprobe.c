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

#include "event_format.h"
#include "file.h"
#include "internal.h"
#include "tracefs.h"
#include "uprobe.h"

#define MAX_EVENTS   65536
#define GROUP_PREFIX "sdtrace_"

/* What the set keeps per event beyond the shared description. */
struct ev_extra {
	const struct sdt_file *file;
	size_t *sites; /* indices into file's sites */
	size_t nsites, cap;
	/* per argument: the fetch type ("u64", "string", "b8@8/64"), NULL when unavailable; owned
	 */
	char **ftype;
};

struct poked {
	pid_t pid;
	uint64_t addr;
};

struct sdt_uprobe_set {
	char group[SDT_MAX_EVENT_NAME + 1];
	bool use_ref_ctr;
	bool no_args;
	struct sdt_trace_event_desc *events;
	struct ev_extra *extra;
	size_t nevents, cap;
	/* per event: its definition lines, so that the batch is written in event order */
	struct sdt_buf *lines;
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

static int proc_starttime(pid_t pid, unsigned long long *start)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = '\0';
	/* comm may hold spaces and ')': fields start after the last ')'. */
	p = strrchr(buf, ')');
	if (!p)
		return -EIO;
	/* field 3 (state) is the first after ')'; starttime is field 22. */
	for (i = 3; i <= 22 && p; i++)
		p = strchr(p + 1, ' ');
	if (!p)
		return -EIO;
	*start = strtoull(p + 1, NULL, 10);
	return 0;
}

int sdt_uprobe_session_group(char *buf, size_t size)
{
	unsigned long long start = 0;
	unsigned int seq;
	int err, n;

	err = proc_starttime(getpid(), &start);
	if (err)
		return sdt_err(err, "cannot read the start time of this process: %s",
			       strerror(-err));
	seq = __atomic_fetch_add(&group_seq, 1, __ATOMIC_RELAXED);
	n = snprintf(buf, size, GROUP_PREFIX "%d_%llu_%u", (int)getpid(), start, seq);
	if (n < 0 || (size_t)n >= size || n > SDT_MAX_EVENT_NAME)
		return sdt_err(-ENAMETOOLONG, "session group name too long");
	return 0;
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

	if (e->nargs != sa->nargs)
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
		if (!strcmp(s->events[i].event, name))
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
		     const struct sdt_site *st, struct site_args *sa)
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
	cap = s->cap;
	if (sdt_grow((void **)&s->lines, &cap, s->nevents + 1, sizeof(*s->lines)))
		goto oom;
	s->cap = cap;
	e = &s->events[s->nevents];
	x = &s->extra[s->nevents];
	memset(e, 0, sizeof(*e));
	memset(x, 0, sizeof(*x));
	memset(&s->lines[s->nevents], 0, sizeof(s->lines[0]));
	e->index = (uint32_t)s->nevents;
	e->ip_field = -1;
	e->provider = sdt_strdup(st->provider);
	e->name = sdt_strdup(st->name);
	e->path = sdt_strdup(path);
	e->build_id = f->build_id ? sdt_strdup(f->build_id) : NULL;
	e->group = sdt_strdup(s->group);
	e->event = event_name(s, st->provider, st->name);
	x->file = f;
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
	for (i = 0; x->ftype && i < sa->nargs; i++)
		free(x->ftype[i]);
	free(x->ftype);
	x->ftype = NULL;
	s->nevents--;
oom:
	return sdt_err(-ENOMEM, "out of memory");
}

static int add_site(struct sdt_uprobe_set *s, const struct sdt_file *f, const char *path, size_t si,
		    const struct sdt_arg_type *types)
{
	const struct sdt_site *st = &f->sites[si];
	struct sdt_trace_event_desc *e = NULL;
	struct site_args sa;
	struct ev_extra *x = NULL;
	struct sdt_buf *l;
	size_t i, ecap;
	int err;

	/* built (and so checked: names, types) even when counting, then dropped */
	err = build_site_args(f, st, types, &sa);
	if (err)
		return err;
	if (s->no_args) {
		site_args_release(&sa);
		memset(&sa, 0, sizeof(sa));
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
		err = new_event(s, f, path, st, &sa);
		if (err)
			goto out;
		e = &s->events[s->nevents - 1];
		x = &s->extra[s->nevents - 1];
	}
	err = -ENOMEM;
	ecap = x->cap;
	if (sdt_grow((void **)&x->sites, &ecap, x->nsites + 1, sizeof(*x->sites)))
		goto out;
	x->cap = ecap;
	ecap = x->nsites;
	if (sdt_grow((void **)&e->site_addrs, &ecap, x->nsites + 1, sizeof(*e->site_addrs)))
		goto out;
	x->sites[x->nsites++] = si;
	e->site_addrs[e->nsites++] = st->address;

	l = &s->lines[e->index];
	err = sdt_buf_addf(l, "%c:%s/%s %s:0x%" PRIx64, st->is_return ? 'r' : 'p', s->group,
			   e->event, path, st->file_offset);
	if (!err && s->use_ref_ctr && st->semaphore && st->has_semaphore_offset)
		err = sdt_buf_addf(l, "(0x%" PRIx64 ")", st->semaphore_offset);
	for (i = 0; !err && i < e->nargs; i++)
		if (sa.fetch[i])
			err = sdt_buf_addf(l, " %s=%s", e->args[i].name, sa.fetch[i]);
	if (!err)
		err = sdt_buf_addstr(l, "\n");
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
	for (i = 0; i < n; i++) {
		if (sites[i] >= f->nsites) {
			err = sdt_err(-ERANGE, "'%s': no site %zu", path, sites[i]);
			goto out;
		}
		err = add_site(s, f, path, sites[i], types ? types[i] : NULL);
		if (err)
			goto out;
	}
	/* Rebuild the batch in event order; the removal text with it. */
	sdt_buf_reset(&s->defs);
	sdt_buf_reset(&s->removal);
	for (i = 0; i < s->nevents && !err; i++) {
		err = sdt_buf_add(&s->defs, s->lines[i].buf, s->lines[i].len);
		if (!err)
			err = sdt_buf_addf(&s->removal, "-:%s/%s\n", s->group, s->events[i].event);
	}
	if (err)
		err = sdt_err(-ENOMEM, "out of memory");
out:
	free(path);
	return err;
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

static int describe(struct sdt_trace_event_desc *e)
{
	char rel[256], *text = NULL;
	size_t len;
	int err;

	err = sdt_tracefs_event_id(e->group, e->event, &e->tp_id);
	if (err)
		return err;
	snprintf(rel, sizeof(rel), "events/%s/%s/format", e->group, e->event);
	err = sdt_tracefs_read(rel, &text, &len);
	if (err)
		return err;
	err = sdt_event_format_parse(text, len, &e->fields, &e->nfields, &e->ip_field);
	free(text);
	if (err)
		return sdt_err_prefix(err, "'%s'", rel);
	map_args(e);
	return 0;
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
	err = sdt_tracefs_uprobe_write(s->defs.buf, s->defs.len);
	if (err)
		goto fail;
	for (i = 0; i < s->nevents; i++) {
		err = describe(&s->events[i]);
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
	size_t i, j;

	if (!s)
		return;
	sdt_uprobe_set__unpoke(s);
	if (s->registered && sdt_uprobe_set__remove(s) < 0)
		registry_del(s); /* cannot do more; a later sdtrace removes it as stale */
	for (i = 0; i < s->nevents; i++) {
		for (j = 0; s->extra[i].ftype && j < s->events[i].nargs; j++)
			free(s->extra[i].ftype[j]);
		free(s->extra[i].ftype);
		sdt_trace_event_desc_release(&s->events[i]);
		free(s->extra[i].sites);
		sdt_buf_free(&s->lines[i]);
	}
	free(s->events);
	free(s->extra);
	free(s->lines);
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

/* Is the owner of group "sdtrace_<pid>_<start>_<seq>" alive? Unparsable names count as alive. */
static bool owner_alive(const char *group, size_t len)
{
	unsigned long long start, now;
	char buf[SDT_MAX_EVENT_NAME + 1];
	unsigned int seq;
	int pid, used = 0;

	if (len >= sizeof(buf))
		return true;
	memcpy(buf, group, len);
	buf[len] = '\0';
	if (sscanf(buf, GROUP_PREFIX "%d_%llu_%u%n", &pid, &start, &seq, &used) != 3 ||
	    (size_t)used != len || pid <= 0)
		return true;
	if (proc_starttime(pid, &now))
		return false;
	return now == start;
}

int sdt_uprobe_remove_stale(char **names)
{
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
			if (slash && !owner_alive(g, (size_t)(slash - g))) {
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
