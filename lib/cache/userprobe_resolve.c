/* SPDX-License-Identifier: MIT */
/*
 * User probes for `record`/`trace`/`stat -e NAME`: the specs that name user probes become
 * targets like SDT events do (a freshly scanned file, its identity, site indices), so the
 * recorder places, records and removes them the same way.
 *
 *	-e NAME               the probe NAME (in any binary; ambiguous when in more than one)
 *	-e GROUP:NAME         perf's full name (probe_prog:work), globs allowed in NAME
 *	-x PATH -e NAME       the probe NAME of PATH
 *
 * Found through the event index ("u:NAME" -> the entries holding it), then read from those
 * entries' probes files only. A probe was defined on one build: a file whose build-id is not that
 * one any more is an error (define the probe again), never probed. In that build (scanned now,
 * its build-id checked) the probe's definition, the location in its header, is resolved again;
 * that gives its sites (offsets, semaphores, entry or return), which its stored `p:`/`r:` lines
 * must agree with, or it is refused (userprobe_verify.c): no offset is taken from the file's
 * text. The sites are appended to the scanned file (provider = the group, name = the probe's
 * name), each argument fetched as stored (checked again), named as defined.
 */
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "scan/file.h"
#include "cache/index.h"
#include "cache/target.h"
#include "scan/sdt_elf.h"
#include "cache/userprobe.h"
#include "scan/find.h"

/* The build a target's probes are resolved in: its scan (the target's file) and its ELF. */
struct verified {
	struct sdt_file *f; /* borrowed: the target's */
	size_t nnotes;	    /* its SDT notes: the sites before the probes' */
	struct sdt_elf e;
};

bool sdt_userprobe_spec(const struct sdt_spec *spec)
{
	const char *prov = sdt_spec__provider(spec), *ev = sdt_spec__event(spec);

	if (strpbrk(prov, "*?["))
		return false;
	if (!strcmp(ev, "*") && sdt_valid_event_name(prov, SDT_MAX_EVENT_NAME) &&
	    strncmp(prov, "sdt_", 4))
		return true; /* NAME */
	return !strncmp(prov, "probe_", 6);
}

static bool spec_matches(const struct sdt_spec *spec, const char *real,
			 const struct sdt_user_probe *p)
{
	const char *prov = sdt_spec__provider(spec), *ev = sdt_spec__event(spec);

	if (real && strcmp(real, p->path))
		return false;
	if (!strcmp(ev, "*") && !strcmp(prov, p->name))
		return true;
	return !strcmp(prov, p->group) && !fnmatch(ev, p->name, 0);
}

/* "NAME=FETCH[:TYPE]": size and sign for the event's description */
static void arg_shape(const char *fetch, uint8_t *size, bool *is_signed)
{
	const char *t = strrchr(fetch, ':');

	*size = 8;
	*is_signed = false;
	if (!t || strchr(t, ')'))
		return;
	t++;
	if ((t[0] == 'u' || t[0] == 's' || t[0] == 'x') && t[1] >= '1' && t[1] <= '8') {
		unsigned int bits = (unsigned int)strtoul(t + 1, NULL, 10);

		*size = (uint8_t)(bits / 8 ? bits / 8 : 8);
		*is_signed = t[0] == 's';
	}
}

/*
 * The text of @p that reaches the kernel as written (its group, its arguments) checked again:
 * the cache file may have been edited by anyone. 0 or -EINVAL with the message.
 */
static int check_stored_text(const struct sdt_file *f, const struct sdt_user_probe *p)
{
	size_t i;

	if (!sdt_valid_event_name(p->group, SDT_MAX_EVENT_NAME))
		return sdt_err(-EINVAL, "'%s': the probe '%s' has a bad group in the cache",
			       p->path, p->name);
	for (i = 0; i < p->nargs; i++) {
		const char *why;

		if (!strchr(p->args[i], '='))
			/* perf's unnamed argument: not expressible as ours */
			return sdt_err(-EINVAL,
				       "'%s': argument '%s' of '%s' has no name (written by "
				       "perf?): define the probe with NAME=FETCH",
				       p->path, p->args[i], p->name);
		if (!sdt_uprobe_arg_valid(p->args[i], f->machine, f->elfclass, p->is_return,
					  &why))
			return sdt_err(-EINVAL,
				       "'%s': argument %zu of the probe '%s' in the cache: %s",
				       p->path, i + 1, p->name, why);
	}
	return 0;
}

/*
 * Where @p's uprobes go: its definition resolved again in the verified build @v, which its
 * stored lines must agree with (userprobe_verify.c). 0 with *sites, or -errno with a message that
 * names the disagreement and what to do.
 */
static int locate(struct verified *v, const struct sdt_user_probe *p,
		  struct sdt_uprobe_site **sites, size_t *n)
{
	int err = sdt_userprobe_locate(&v->e, v->f, v->nnotes, p, sites, n);
	char *msg;

	if (err != -EINVAL && err != -EOPNOTSUPP)
		return err;
	msg = sdt_strdup(sdt_errmsg());
	if (err == -EOPNOTSUPP)
		err = sdt_err(err, "'%s' (build-id %s): the user probe '%s' %s", p->path,
			      p->build_id, p->name, msg ? msg : "cannot be verified");
	else
		err = sdt_err(err,
			      "'%s' (build-id %s): the user probe '%s' %s: refused (the probes "
			      "file of its cache entry was changed: run 'sdtrace cache check "
			      "--repair', and define it again with 'sdtrace probe add')",
			      p->path, p->build_id, p->name,
			      msg ? msg : "does not match its binary");
	free(msg);
	return err;
}

/* The site of uprobe @u of @p: its fields from the binary (@f), its arguments from @p. */
static int make_site(const struct sdt_file *f, size_t nnotes, const struct sdt_user_probe *p,
		     const struct sdt_uprobe_site *u, struct sdt_site *s, struct sdt_arg_type **types)
{
	struct sdt_arg_type *ty;
	size_t i, k;

	memset(s, 0, sizeof(*s));
	*types = NULL;
	s->file_offset = u->offset;
	s->semaphore = u->semaphore;
	s->semaphore_offset = u->semaphore_offset;
	s->has_semaphore_offset = u->semaphore != 0;
	s->is_return = u->is_return;
	/* the link-time address, from the SDT site at that place, else the offset */
	s->address = s->file_offset;
	for (k = 0; k < nnotes && k < f->nsites; k++) {
		if (f->sites[k].file_offset == s->file_offset) {
			s->address = f->sites[k].address;
			s->text_bias = f->sites[k].text_bias;
			break;
		}
	}
	s->provider = sdt_strdup(p->group);
	s->name = sdt_strdup(p->name);
	s->args_text = sdt_strdup("");
	s->args = calloc(p->nargs ? p->nargs : 1, sizeof(*s->args));
	ty = calloc(p->nargs ? p->nargs : 1, sizeof(*ty));
	if (!s->provider || !s->name || !s->args_text || !s->args || !ty)
		goto nomem;
	for (i = 0; i < p->nargs; i++) {
		const char *eq = strchr(p->args[i], '=');
		struct sdt_arg *a = &s->args[s->nargs];

		a->spec = sdt_strdup(p->args[i]);
		a->fetch = sdt_strdup(eq + 1);
		ty[i].name = sdt_strndup(p->args[i], (size_t)(eq - p->args[i]));
		s->nargs++;
		if (!a->spec || !a->fetch || !ty[i].name)
			goto nomem;
		a->kind = SDT_ARG_REG;
		arg_shape(eq + 1, &a->size, &a->is_signed);
		ty[i].kind = SDT_TYPE_DEFAULT;
	}
	*types = ty;
	return 0;
nomem:
	sdt_site_release(s);
	sdt_arg_types__free(ty, p->nargs);
	return sdt_err(-ENOMEM, "out of memory");
}

/*
 * Append the sites of @p to the file of @t (verified as @v) through the scan model
 * (sdt_file_add_site()), after its SDT notes; their indices into @t.
 */
static int add_sites(struct verified *v, const struct sdt_user_probe *p, struct sdt_target *t,
		     size_t spec_index)
{
	struct sdt_file *f = t->file;
	struct sdt_uprobe_site *u = NULL;
	size_t l, n = 0, cap;
	int err;

	err = check_stored_text(f, p);
	if (!err)
		err = locate(v, p, &u, &n);
	if (err)
		return err;
	/* room for every site: sites, spec, types and ntypes grow together */
	cap = t->nsites;
	err = sdt_grow((void **)&t->sites, &cap, t->nsites + n, sizeof(*t->sites));
	cap = t->nsites;
	err = err ? err : sdt_grow((void **)&t->spec, &cap, t->nsites + n, sizeof(*t->spec));
	cap = t->nsites;
	err = err ? err : sdt_grow((void **)&t->types, &cap, t->nsites + n, sizeof(*t->types));
	cap = t->nsites;
	err = err ? err : sdt_grow((void **)&t->ntypes, &cap, t->nsites + n, sizeof(*t->ntypes));
	if (err)
		err = sdt_err(-ENOMEM, "out of memory");
	for (l = 0; l < n && !err; l++) {
		struct sdt_arg_type *ty;
		struct sdt_site s;

		err = make_site(f, v->nnotes, p, &u[l], &s, &ty);
		if (err)
			break;
		if (sdt_file_add_site(f, &s)) {
			sdt_site_release(&s);
			sdt_arg_types__free(ty, p->nargs);
			err = sdt_err(-ENOMEM, "out of memory");
			break;
		}
		t->sites[t->nsites] = sdt_file__site_count(f) - 1;
		t->spec[t->nsites] = spec_index;
		t->types[t->nsites] = ty;
		t->ntypes[t->nsites] = p->nargs;
		t->nsites++;
	}
	free(u);
	return err;
}

/*
 * Scan @p's binary now and make it a target, verified as @v (its ELF kept open to resolve the
 * definitions of its probes); 1 to skip it (gone, skip_missing), -ESTALE when it is another build.
 */
static int new_target(const struct sdt_user_probe *p, const struct sdt_resolve_opts *o,
		      struct sdt_target *t, struct verified *v)
{
	struct sdt_file *f = NULL;
	struct stat st;
	int fd, err;

	memset(t, 0, sizeof(*t));
	memset(v, 0, sizeof(*v));
	v->e.fd = -1;
	fd = open(p->path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
		errno = EBADF;
	}
	if (fd < 0) {
		if (errno != ENOENT && errno != EBADF)
			return sdt_err(-errno, "cannot open '%s': %s", p->path, strerror(errno));
		if (o->skip_missing)
			return 1;
		return sdt_err(-ENOENT, "'%s' (build-id %s, probe '%s') is gone", p->path,
			       p->build_id, p->name);
	}
	err = sdt_build_open(fd, p->path, NULL, &f, &v->e);
	close(fd);
	if (err)
		return err;
	if (!f->build_id || strcmp(f->build_id, p->build_id)) {
		err =
		    sdt_err(-ESTALE,
			    "'%s' changed since the probe '%s' was defined (build-id %s, now %s): "
			    "define it again with 'sdtrace probe add'",
			    p->path, p->name, p->build_id, f->build_id ? f->build_id : "none");
		sdt_file__free(f);
		sdt_elf_close(&v->e);
		return err;
	}
	v->f = f;
	v->nnotes = f->nsites;
	t->path = sdt_strdup(p->path);
	t->build_id = sdt_strdup(p->build_id);
	t->file = f;
	t->dev = (uint64_t)st.st_dev;
	t->ino = (uint64_t)st.st_ino;
	t->size = (uint64_t)st.st_size;
	t->mtime_sec = (int64_t)st.st_mtim.tv_sec;
	t->mtime_nsec = (int64_t)st.st_mtim.tv_nsec;
	if (!t->path || !t->build_id) {
		sdt_target_release(t);
		sdt_elf_close(&v->e);
		return sdt_err(-ENOMEM, "out of memory");
	}
	return 0;
}

/* The entries the index names for a spec: (build-id, path) pairs */
struct idx_hits {
	char **bid, **path;
	size_t n, cap, pcap;
	const char *glob; /* for sdt_index_each(): the names to keep */
};

static int add_hit(struct idx_hits *h, const char *val, size_t len)
{
	const char *nul = memchr(val, '\0', len);
	char *b, *p;
	size_t i;

	if (!nul)
		return 0;
	for (i = 0; i < h->n; i++) {
		if (!strcmp(h->bid[i], val) &&
		    strlen(h->path[i]) == len - (size_t)(nul + 1 - val) &&
		    !memcmp(h->path[i], nul + 1, len - (size_t)(nul + 1 - val)))
			return 0;
	}
	b = sdt_strdup(val);
	p = sdt_strndup(nul + 1, len - (size_t)(nul + 1 - val));
	if (!b || !p || sdt_grow((void **)&h->bid, &h->cap, h->n + 1, sizeof(char *)) ||
	    sdt_grow((void **)&h->path, &h->pcap, h->n + 1, sizeof(char *))) {
		free(b);
		free(p);
		return -ENOMEM;
	}
	h->bid[h->n] = b;
	h->path[h->n++] = p;
	return 0;
}

static int on_value(const char *val, size_t len, void *ctx)
{
	return add_hit(ctx, val, len);
}

static int on_record(const char *key, size_t klen, const char *val, size_t vlen, void *ctx)
{
	struct idx_hits *h = ctx;
	char name[SDT_MAX_EVENT_NAME + 1];

	if (klen < 3 || klen - 2 > SDT_MAX_EVENT_NAME)
		return 0;
	memcpy(name, key + 2, klen - 2);
	name[klen - 2] = '\0';
	return fnmatch(h->glob, name, 0) ? 0 : add_hit(h, val, vlen);
}

static void hits_release(struct idx_hits *h)
{
	size_t i;

	for (i = 0; i < h->n; i++) {
		free(h->bid[i]);
		free(h->path[i]);
	}
	free(h->bid);
	free(h->path);
	memset(h, 0, sizeof(*h));
}

/* The user probes spec @k may name: through the index ("u:NAME"), then their entries. */
static int probes_for_spec(struct sdt_cache *c, struct sdt_index *idx, const struct sdt_spec *spec,
			   struct sdt_user_probe **all, size_t *nall)
{
	const char *prov = sdt_spec__provider(spec), *ev = sdt_spec__event(spec);
	struct idx_hits h = {0};
	size_t cap = 0, i;
	char key[SDT_MAX_EVENT_NAME + 3];
	int err;

	*all = NULL;
	*nall = 0;
	if (!strcmp(ev, "*") && strncmp(prov, "probe_", 6)) {
		if (strlen(prov) > SDT_MAX_EVENT_NAME)
			return 0;
		snprintf(key, sizeof(key), "u:%s", prov);
		err = sdt_index_find(idx, key, on_value, &h);
	} else {
		h.glob = ev;
		err = sdt_index_each(idx, "u:", on_record, &h);
	}
	for (i = 0; !err && i < h.n; i++)
		err = sdt_userprobe_entry(c, h.bid[i], h.path[i], h.glob ? h.glob : prov, all, nall,
					  &cap);
	hits_release(&h);
	if (err) {
		sdt_userprobe_array_free(*all, *nall);
		*all = NULL;
		*nall = 0;
		return err == -ENOMEM ? sdt_err(err, "out of memory") : err;
	}
	return 0;
}

/* The targets the user probes of a resolution give, each with the build its probes resolve in. */
struct probe_targets {
	const struct sdt_resolve_opts *o;
	struct sdt_target *tg;
	struct verified *vs; /* vs[j]: the build of tg[j] */
	size_t n, cap, vcap;
};

/*
 * How many of the @nall probes spec @spec matches (in @real, when it names a binary): *nmatch.
 * -ENOTUNIQ when one name is in more than one binary (unless all_matches).
 */
static int count_matches(const struct probe_targets *pt, const struct sdt_spec *spec,
			 const char *real, const struct sdt_user_probe *all, size_t nall,
			 size_t *nmatch)
{
	size_t i, first = SIZE_MAX;

	*nmatch = 0;
	for (i = 0; i < nall; i++) {
		if (!all[i].build_id || !spec_matches(spec, real, &all[i]))
			continue;
		++*nmatch;
		if (first == SIZE_MAX)
			first = i;
		else if (!pt->o->all_matches && !strcmp(all[i].name, all[first].name) &&
			 strcmp(all[i].path, all[first].path))
			return sdt_err(-ENOTUNIQ,
				       "the probe '%s' is in more than one binary: %s:%s ('%s') "
				       "and %s:%s ('%s'); name one so, or with -x PATH",
				       all[i].name, all[first].group, all[first].name,
				       all[first].path, all[i].group, all[i].name, all[i].path);
	}
	return 0;
}

/*
 * The index into @pt of the target for the binary of @p, made (scanned now) when it is the first
 * probe of that binary: 0 with *j, 1 to skip @p (its binary is gone, skip_missing), -ESTALE when
 * the binary is another build than @p's, -errno.
 */
static int target_for(struct probe_targets *pt, const struct sdt_user_probe *p, size_t *j)
{
	struct sdt_target nt;
	struct verified nv;
	int v;

	for (*j = 0; *j < pt->n && strcmp(pt->tg[*j].path, p->path); ++*j)
		;
	if (*j < pt->n && strcmp(pt->tg[*j].build_id, p->build_id))
		/* a probe of an older build of the file: its definition was of that */
		return sdt_err(-ESTALE,
			       "'%s' changed since the probe '%s' was defined (build-id %s, now "
			       "%s): define it again with 'sdtrace probe add'",
			       p->path, p->name, p->build_id, pt->tg[*j].build_id);
	if (*j < pt->n)
		return 0;
	v = new_target(p, pt->o, &nt, &nv);
	if (v)
		return v;
	if (sdt_grow((void **)&pt->tg, &pt->cap, pt->n + 1, sizeof(*pt->tg)) ||
	    sdt_grow((void **)&pt->vs, &pt->vcap, pt->n + 1, sizeof(*pt->vs))) {
		sdt_target_release(&nt);
		sdt_elf_close(&nv.e);
		return sdt_err(-ENOMEM, "out of memory");
	}
	pt->vs[pt->n] = nv;
	pt->tg[pt->n++] = nt;
	return 0;
}

/*
 * The user probes spec @k names (through @idx) into @pt: their sites appended to the targets of
 * their binaries. *handled: the spec named some (the SDT lookup skips it).
 */
static int resolve_spec(struct probe_targets *pt, struct sdt_cache *c, struct sdt_index *idx,
			const struct sdt_spec *spec, size_t k, bool *handled)
{
	const char *path = sdt_spec__path(spec);
	struct sdt_user_probe *all = NULL;
	size_t nall = 0, nmatch = 0, i, j;
	char *real = NULL;
	int err;

	if (path) {
		real = sdt_user_path(path, true);
		if (!real)
			return 0;
	}
	err = probes_for_spec(c, idx, spec, &all, &nall);
	if (!err)
		err = count_matches(pt, spec, real, all, nall, &nmatch);
	*handled = !err && nmatch;
	for (i = 0; i < nall && !err && nmatch; i++) {
		if (!all[i].build_id || !spec_matches(spec, real, &all[i]))
			continue;
		err = target_for(pt, &all[i], &j);
		if (err > 0) {
			err = 0;
			continue;
		}
		if (!err)
			err = add_sites(&pt->vs[j], &all[i], &pt->tg[j], k);
	}
	sdt_userprobe_array_free(all, nall);
	free(real);
	return err;
}

int sdt_userprobe_resolve(struct sdt_cache *c, struct sdt_index *idx,
			  struct sdt_spec *const *specs, size_t nspecs,
			  const struct sdt_resolve_opts *o, bool *handled, struct sdt_target **out,
			  size_t *nout)
{
	struct probe_targets pt = {.o = o};
	size_t k, j;
	int err = 0;

	*out = NULL;
	*nout = 0;
	for (k = 0; k < nspecs; k++)
		handled[k] = false;
	for (k = 0; k < nspecs && !err; k++) {
		if (sdt_userprobe_spec(specs[k]))
			err = resolve_spec(&pt, c, idx, specs[k], k, &handled[k]);
	}
	for (j = 0; j < pt.n; j++)
		sdt_elf_close(&pt.vs[j].e);
	free(pt.vs);
	if (err) {
		sdt_target_array_free(pt.tg, pt.n);
		return err;
	}
	*out = pt.tg;
	*nout = pt.n;
	return 0;
}
