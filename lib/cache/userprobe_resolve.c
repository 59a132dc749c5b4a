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
 * entries' probes files only. The probe's `p:`/`r:` lines become sites appended to the scanned file
 *(provider = the group, name = the probe's name), each argument fetched as stored, named as
 *defined. The offsets in the lines were computed from one build: a file whose build-id is not that
 *one any more is an error (define the probe again), never probed.
 */
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "scan/file.h"
#include "cache/index.h"
#include "cache/userprobe.h"

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

/* Append the sites of @p (its lines) to @f; their indices into @t. 0 or -errno. */
static int add_sites(struct sdt_file *f, const struct sdt_user_probe *p, struct sdt_target *t,
		     size_t spec_index)
{
	size_t l, i, cap;

	/* room for every line: sites, spec, types and ntypes grow together */
	cap = t->nsites;
	if (sdt_grow((void **)&t->sites, &cap, t->nsites + p->nlines, sizeof(*t->sites)))
		return sdt_err(-ENOMEM, "out of memory");
	cap = t->nsites;
	if (sdt_grow((void **)&t->spec, &cap, t->nsites + p->nlines, sizeof(*t->spec)))
		return sdt_err(-ENOMEM, "out of memory");
	cap = t->nsites;
	if (sdt_grow((void **)&t->types, &cap, t->nsites + p->nlines, sizeof(*t->types)))
		return sdt_err(-ENOMEM, "out of memory");
	cap = t->nsites;
	if (sdt_grow((void **)&t->ntypes, &cap, t->nsites + p->nlines, sizeof(*t->ntypes)))
		return sdt_err(-ENOMEM, "out of memory");

	for (l = 0; l < p->nlines; l++) {
		const char *line = p->lines[l], *sp, *colon;
		struct sdt_site s = {0};
		struct sdt_arg_type *ty = NULL;
		char *end;
		size_t k;

		/* "p:GROUP/NAME PATH:0xOFF[(0xREF)] ARGS" */
		sp = strchr(line, ' ');
		colon = sp ? strstr(sp, ":0x") : NULL;
		if ((line[0] != 'p' && line[0] != 'r') || !colon)
			return sdt_err(-EINVAL, "'%s': malformed probe line of '%s' in the cache",
				       p->path, p->name);
		s.file_offset = strtoull(colon + 3, &end, 16);
		if (*end == '(') {
			s.semaphore_offset = strtoull(end + 1, &end, 16);
			s.has_semaphore_offset = true;
			/* the semaphore's address: that of the SDT site at the same place */
			for (k = 0; k < f->nsites; k++) {
				if (f->sites[k].file_offset == s.file_offset &&
				    f->sites[k].has_semaphore_offset &&
				    f->sites[k].semaphore_offset == s.semaphore_offset) {
					s.semaphore = f->sites[k].semaphore;
					break;
				}
			}
			if (!s.semaphore)
				s.has_semaphore_offset = false;
		}
		s.is_return = line[0] == 'r';
		/* the link-time address, from the SDT site or the segment holding the offset */
		s.address = s.file_offset;
		for (k = 0; k < f->nsites; k++) {
			if (f->sites[k].file_offset == s.file_offset) {
				s.address = f->sites[k].address;
				s.text_bias = f->sites[k].text_bias;
				break;
			}
		}
		/* the cache file may have been edited by anyone: its text is checked again */
		if (!sdt_valid_event_name(p->group, SDT_MAX_EVENT_NAME))
			return sdt_err(-EINVAL, "'%s': the probe '%s' has a bad group in the cache",
				       p->path, p->name);
		for (i = 0; i < p->nargs; i++) {
			const char *why;

			if (strchr(p->args[i], '=') &&
			    !sdt_uprobe_arg_valid(p->args[i], f->machine, f->elfclass, s.is_return,
						  &why))
				return sdt_err(-EINVAL,
					       "'%s': argument %zu of the probe '%s' in the cache: "
					       "%s",
					       p->path, i + 1, p->name, why);
		}
		s.provider = sdt_strdup(p->group);
		s.name = sdt_strdup(p->name);
		s.args_text = sdt_strdup("");
		s.args = calloc(p->nargs ? p->nargs : 1, sizeof(*s.args));
		ty = calloc(p->nargs ? p->nargs : 1, sizeof(*ty));
		if (!s.provider || !s.name || !s.args_text || !s.args || !ty)
			goto nomem;
		for (i = 0; i < p->nargs; i++) {
			const char *eq = strchr(p->args[i], '=');
			struct sdt_arg *a = &s.args[s.nargs];

			if (!eq) {
				/* perf's unnamed argument: not expressible as ours */
				sdt_site_release(&s);
				sdt_arg_types__free(ty, i);
				return sdt_err(
				    -EINVAL,
				    "'%s': argument '%s' of '%s' has no name (written by "
				    "perf?): define the probe with NAME=FETCH",
				    p->path, p->args[i], p->name);
			}
			a->spec = sdt_strdup(p->args[i]);
			a->fetch = sdt_strdup(eq + 1);
			ty[i].name = sdt_strndup(p->args[i], (size_t)(eq - p->args[i]));
			s.nargs++;
			if (!a->spec || !a->fetch || !ty[i].name)
				goto nomem;
			a->kind = SDT_ARG_REG;
			arg_shape(eq + 1, &a->size, &a->is_signed);
			ty[i].kind = SDT_TYPE_DEFAULT;
		}
		if (sdt_grow((void **)&f->sites, &f->sites_cap, f->nsites + 1, sizeof(s)))
			goto nomem;
		t->sites[t->nsites] = f->nsites;
		t->spec[t->nsites] = spec_index;
		t->types[t->nsites] = ty;
		t->ntypes[t->nsites] = p->nargs;
		t->nsites++;
		f->sites[f->nsites++] = s;
		continue;
	nomem:
		sdt_site_release(&s);
		sdt_arg_types__free(ty, p->nargs);
		return sdt_err(-ENOMEM, "out of memory");
	}
	return 0;
}

/* Scan @p's binary now and make it a target; -ESTALE when it is another build. */
static int new_target(const struct sdt_user_probe *p, const struct sdt_resolve_opts *o,
		      struct sdt_target *t)
{
	struct sdt_file *f = NULL;
	struct stat st;
	int err;

	memset(t, 0, sizeof(*t));
	err = sdt_cache_scan(p->path, &f, &st, NULL);
	if (err == -ENOENT || err == -EBADF) {
		if (o->skip_missing)
			return 1;
		return sdt_err(-ENOENT, "'%s' (build-id %s, probe '%s') is gone", p->path,
			       p->build_id, p->name);
	}
	if (err)
		return err;
	if (!f->build_id || strcmp(f->build_id, p->build_id)) {
		err =
		    sdt_err(-ESTALE,
			    "'%s' changed since the probe '%s' was defined (build-id %s, now %s): "
			    "define it again with 'sdtrace probe add'",
			    p->path, p->name, p->build_id, f->build_id ? f->build_id : "none");
		sdt_file__free(f);
		return err;
	}
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
		sdt_user_probes_free(*all, *nall);
		*all = NULL;
		*nall = 0;
		return err == -ENOMEM ? sdt_err(err, "out of memory") : err;
	}
	return 0;
}

int sdt_userprobe_resolve(struct sdt_cache *c, struct sdt_spec *const *specs, size_t nspecs,
			  const struct sdt_resolve_opts *o, bool *handled, struct sdt_target **out,
			  size_t *nout)
{
	struct sdt_user_probe *all = NULL;
	struct sdt_index *idx = NULL;
	struct sdt_target *tg = NULL;
	size_t nall = 0, ntg = 0, cap = 0, i, k, j;
	bool any_user = false;
	int err = 0;

	*out = NULL;
	*nout = 0;
	for (k = 0; k < nspecs; k++) {
		handled[k] = false;
		any_user |= sdt_userprobe_spec(specs[k]);
	}
	if (!any_user)
		return 0;
	err = sdt_index_open(c, &idx, NULL);
	if (err)
		return err == -ENOMEM ? sdt_err(err, "out of memory") : err;
	for (k = 0; k < nspecs && !err; k++) {
		const char *path = sdt_spec__path(specs[k]);
		char *real = NULL;
		size_t first = SIZE_MAX, nmatch = 0;

		if (!sdt_userprobe_spec(specs[k]))
			continue;
		if (path) {
			real = realpath(path, NULL);
			if (!real)
				continue;
		}
		err = probes_for_spec(c, idx, specs[k], &all, &nall);
		for (i = 0; i < nall && !err; i++) {
			if (!all[i].build_id || !spec_matches(specs[k], real, &all[i]))
				continue;
			nmatch++;
			if (first == SIZE_MAX)
				first = i;
			else if (!o->all_matches && !strcmp(all[i].name, all[first].name) &&
				 strcmp(all[i].path, all[first].path))
				err = sdt_err(-ENOTUNIQ,
					      "the probe '%s' is in more than one binary: %s:%s "
					      "('%s') and %s:%s ('%s'); name one so, or with "
					      "-x PATH",
					      all[i].name, all[first].group, all[first].name,
					      all[first].path, all[i].group, all[i].name,
					      all[i].path);
		}
		if (!err && nmatch)
			handled[k] = true;
		for (i = 0; i < nall && !err && nmatch; i++) {
			struct sdt_target *t = NULL;

			if (!all[i].build_id || !spec_matches(specs[k], real, &all[i]))
				continue;
			for (j = 0; j < ntg; j++) {
				if (!strcmp(tg[j].path, all[i].path))
					t = &tg[j];
			}
			if (!t) {
				struct sdt_target nt;
				int v = new_target(&all[i], o, &nt);

				if (v > 0)
					continue;
				if (!v && sdt_grow((void **)&tg, &cap, ntg + 1, sizeof(*tg))) {
					sdt_target_release(&nt);
					v = sdt_err(-ENOMEM, "out of memory");
				}
				if (v < 0) {
					err = v;
					break;
				}
				tg[ntg++] = nt;
				t = &tg[ntg - 1];
			}
			err = add_sites(t->file, &all[i], t, k);
		}
		sdt_user_probes_free(all, nall);
		all = NULL;
		nall = 0;
		free(real);
	}
	sdt_index_close(idx);
	if (err) {
		sdt_targets_free(tg, ntg);
		return err;
	}
	*out = tg;
	*nout = ntg;
	return 0;
}
