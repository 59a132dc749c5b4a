/* SPDX-License-Identifier: MIT */
/*
 * Finding events by name: event specs -> the binaries and sites to probe (sdt_cache__resolve()).
 *
 *  1. candidates (find_candidates): a spec naming its binary gives that file; the others are
 *     looked up in the event index ("e:PROV:EV" for a plain name, "p:PROV" when only the event
 *     has a glob, every "p:" record when the provider has one).
 *  2. each candidate file is scanned *now*, from disk (scan_candidates). Its build-id is
 *     compared with the cache entry's: a changed file is rescanned and re-cached (and the caller
 *     told), a vanished one is an error. So every offset handed out comes from the file at that
 *     path now, never from another build of it.
 *  3. sites are matched against the specs (match_sites); a provider:event that a spec without a
 *     binary finds in more than one (path, build-id) is ambiguous (check_specs): an error that
 *     lists every candidate and how to name one. The files with sites are the targets
 *     (hand_over).
 *
 * User probes are resolved apart (userprobe_resolve.c), first; resolve_once() joins the two lists.
 *
 * By the target (sdt_cache__resolve_target()): the candidates of a spec without a binary, or
 * with a glob for one, are the files the target runs (a process's executable mappings and its
 * executable's DT_NEEDED closure, or a command's), not the cache's: stage 1 and 2 become one
 * (scan_target). Each file's notes are counted first; a file whose build-id is cached and whose
 * cached events match none of its specs is not decoded further. Two files of one target with the
 * same event are both probed (the target runs both). A spec without a binary that none of them
 * has falls back to the cache (add_fallback: a library the target will dlopen()); one that
 * matches nothing there either is an error naming what the target runs.
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
#include "cache/resolve.h"
#include "cache/suggest.h"
#include "cache/target.h"
#include "scan/find.h"

static int add_cand(struct resolver *r, const char *path, const char *bid, size_t spec)
{
	struct cand cd = {0};
	size_t i;

	for (i = 0; i < r->ncands; i++) {
		struct cand *o = &r->cands[i];

		if (!strcmp(o->path, path) &&
		    ((!o->bid && !bid) || (o->bid && bid && !strcmp(o->bid, bid)))) {
			o->specs[spec] = true;
			return 0;
		}
	}
	cd.path = sdt_strdup(path);
	cd.bid = bid ? sdt_strdup(bid) : NULL;
	cd.specs = calloc(r->nspecs, sizeof(bool));
	if (!cd.path || (bid && !cd.bid) || !cd.specs ||
	    sdt_grow((void **)&r->cands, &r->cap, r->ncands + 1, sizeof(cd))) {
		free(cd.path);
		free(cd.bid);
		free(cd.specs);
		return -ENOMEM;
	}
	cd.specs[spec] = true;
	r->cands[r->ncands++] = cd;
	return 0;
}

/* An index value "BID\0PATH" */
static int on_value(const char *v, size_t len, void *ctx)
{
	struct resolver *r = ctx;
	const char *nul = memchr(v, '\0', len);
	char *bid, *path;
	int err;

	if (!nul)
		return 0;
	bid = sdt_strndup(v, (size_t)(nul - v));
	path = sdt_strndup(nul + 1, len - (size_t)(nul + 1 - v));
	err = bid && path ? add_cand(r, path, bid, r->cur_spec) : -ENOMEM;
	free(bid);
	free(path);
	return err;
}

static int on_provider(const char *k, size_t kl, const char *v, size_t vl, void *ctx)
{
	struct resolver *r = ctx;
	char prov[SDT_MAX_EVENT_NAME + 1];

	if (kl - 2 > SDT_MAX_EVENT_NAME)
		return 0;
	memcpy(prov, k + 2, kl - 2);
	prov[kl - 2] = '\0';
	if (fnmatch(r->prov_glob, prov, 0) &&
	    (strncmp(r->prov_glob, "sdt_", 4) || fnmatch(r->prov_glob + 4, prov, 0)))
		return 0;
	return on_value(v, vl, ctx);
}

static int lookup_spec(struct resolver *r, struct sdt_index *idx, size_t i)
{
	const struct sdt_spec *s = r->specs[i];
	const char *prov = sdt_spec__provider(s), *ev = sdt_spec__event(s);
	bool prov_glob = strpbrk(prov, "*?[") != NULL, ev_glob = strpbrk(ev, "*?[") != NULL;
	char key[2 * SDT_MAX_EVENT_NAME + 8];
	int v, err = 0;

	r->cur_spec = i;
	if (prov_glob) {
		r->prov_glob = prov;
		return sdt_index_each(idx, "p:", on_provider, r);
	}
	/* perf's group name sdt_P names provider P; a provider may also really start with sdt_ */
	for (v = 0; v < 2 && !err; v++) {
		const char *p = v ? prov + 4 : prov;

		if (v && strncmp(prov, "sdt_", 4))
			break;
		if (ev_glob)
			snprintf(key, sizeof(key), "p:%s", p);
		else
			snprintf(key, sizeof(key), "e:%s:%s", p, ev);
		err = sdt_index_find(idx, key, on_value, r);
	}
	return err;
}

/* A "b:BID" record "PATH": the entry a spec whose binary is a glob names, when it matches. */
static int on_entry(const char *k, size_t kl, const char *v, size_t vl, void *ctx)
{
	struct resolver *r = ctx;
	char *bid, *path;
	int err = 0;

	bid = sdt_strndup(k + 2, kl - 2);
	path = sdt_strndup(v, vl);
	if (!bid || !path)
		err = -ENOMEM;
	else if (!fnmatch(sdt_spec__path(r->specs[r->cur_spec]), path, 0))
		err = add_cand(r, path, bid, r->cur_spec);
	free(bid);
	free(path);
	return err;
}

static char *spec_text(const struct sdt_spec *s)
{
	if (sdt_spec__path(s))
		return sdt_asprintf("%s:%%%s:%s", sdt_spec__path(s), sdt_spec__provider(s),
				    sdt_spec__event(s));
	return sdt_asprintf("%%%s:%s", sdt_spec__provider(s), sdt_spec__event(s));
}

static void notify(const struct sdt_resolve_opts *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void notify(const struct sdt_resolve_opts *o, const char *fmt, ...)
{
	char msg[PATH_MAX + 512];
	va_list ap;

	if (!o->notify)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	o->notify(msg, o->ctx);
}

/* Scan candidate @cd from disk; 0 with *out filled, 1 to skip it, -errno. */
static int verify(struct resolver *r, const struct sdt_resolve_opts *o, const struct cand *cd,
		  struct sdt_target *out)
{
	struct sdt_file *f = NULL;
	struct stat st;
	const char *bid;
	int err, fd = -1;

	memset(out, 0, sizeof(*out));
	err = sdt_cache_scan(cd->path, &f, &st, &fd);
	if (err) {
		if (cd->bid && (err == -ENOENT || err == -EBADF)) {
			if (o->skip_missing) {
				notify(o,
				       "'%s' (build-id %s) is cached but the file is gone: "
				       "skipped (drop it with 'sdtrace cache purge')",
				       cd->path, cd->bid);
				return 1;
			}
			return sdt_err(-ENOENT,
				       "'%s' (build-id %s) is cached but the file is "
				       "gone: drop it with 'sdtrace cache purge'",
				       cd->path, cd->bid);
		}
		return err;
	}
	bid = sdt_file__build_id(f);
	if (cd->bid)
		sdt_debug("'%s': cache entry %s, the file's build-id %s\n", cd->path, cd->bid,
			  bid ? bid : "none");
	if (cd->bid && (!bid || strcmp(bid, cd->bid))) {
		enum sdt_cache_result res;

		out->rescanned = true;
		if (bid && sdt_file__site_count(f) &&
		    !sdt_cache_write_entry(r->c, f, cd->path, &st, fd, &res))
			notify(o,
			       "'%s' changed since it was cached (build-id %s, now %s): "
			       "rescanned, and cached",
			       cd->path, cd->bid, bid);
		else
			notify(o,
			       "'%s' changed since it was cached (build-id %s, now %s): "
			       "rescanned",
			       cd->path, cd->bid, bid ? bid : "none");
	}
	close(fd);
	out->dev = (uint64_t)st.st_dev;
	out->ino = (uint64_t)st.st_ino;
	out->size = (uint64_t)st.st_size;
	out->mtime_sec = (int64_t)st.st_mtim.tv_sec;
	out->mtime_nsec = (int64_t)st.st_mtim.tv_nsec;
	out->path = sdt_strdup(cd->path);
	out->build_id = bid ? sdt_strdup(bid) : NULL;
	out->file = f;
	if (!out->path || (bid && !out->build_id)) {
		free(out->path);
		free(out->build_id);
		sdt_file__free(f);
		return -ENOMEM;
	}
	return 0;
}

/* The ambiguity error for @prov:@ev found in targets @t (those flagged in @hit). */
static int ambiguous(const struct work_target *t, size_t n, const bool *hit, const char *prov,
		     const char *ev)
{
	struct sdt_buf b = {0};
	size_t i, count = 0;
	const char *first = NULL;
	int err;

	for (i = 0; i < n; i++)
		count += hit[i];
	sdt_buf_addf(&b, "%%%s:%s is in %zu binaries:", prov, ev, count);
	for (i = 0; i < n; i++) {
		if (!hit[i])
			continue;
		sdt_buf_addf(&b, "\n  %s (build-id %s)", t[i].t.path,
			     t[i].t.build_id ? t[i].t.build_id : "none");
		if (!first)
			first = t[i].t.path;
	}
	sdt_buf_addf(&b, "\nname one with the binary, e.g. %s:%%%s:%s", first, prov, ev);
	err = sdt_err(-ENOTUNIQ, "%s", b.buf ? b.buf : "ambiguous event");
	sdt_buf_free(&b);
	return err;
}

/* Stage 1: the candidate files of every spec, into @r: its own binary, or the index's entries. */
static int find_candidates(struct resolver *r, struct sdt_index *idx)
{
	size_t i;
	int err = 0;

	for (i = 0; i < r->nspecs && !err; i++) {
		const char *p = sdt_spec__path(r->specs[i]);

		if (r->tf && (!p || sdt_resolve_glob(p)))
			continue; /* the target's files: scan_target() */
		if (sdt_resolve_glob(p)) {
			/* a glob for the binary: every cached one it matches */
			r->cur_spec = i;
			err = sdt_index_each(idx, "b:", on_entry, r);
		} else if (p) {
			char *real = sdt_user_path(p, true);

			if (!real)
				return -errno;
			err = add_cand(r, real, NULL, i);
			free(real);
		} else {
			err = lookup_spec(r, idx, i);
			if (err == -EINVAL)
				err = sdt_err(err,
					      "'%s': the event index is corrupt: run 'sdtrace "
					      "cache check --repair'",
					      r->c->root);
		}
	}
	return err;
}

static void scanned_release(struct scanned *sc)
{
	size_t i;

	for (i = 0; i < sc->n; i++) {
		free(sc->wt[i].t.path);
		free(sc->wt[i].t.build_id);
		sdt_file__free(sc->wt[i].t.file);
		free(sc->wt[i].t.sites);
		free(sc->wt[i].t.spec);
		free(sc->wt[i].specs);
	}
	free(sc->wt);
	memset(sc, 0, sizeof(*sc));
}

/* The work target of @sc for the file @t was scanned from, or NULL. */
static struct work_target *find_scanned(struct scanned *sc, const struct sdt_target *t)
{
	size_t j;

	for (j = 0; j < sc->n; j++) {
		if (!strcmp(sc->wt[j].t.path, t->path) &&
		    !strcmp(sc->wt[j].t.build_id ? sc->wt[j].t.build_id : "",
			    t->build_id ? t->build_id : ""))
			return &sc->wt[j];
	}
	return NULL;
}

/* Stage 2: every candidate of @r verified, freshly scanned, into @sc (the specs move there). */
static int scan_candidates(struct resolver *r, const struct sdt_resolve_opts *o,
			   struct scanned *sc)
{
	size_t i, k;

	if (sdt_grow((void **)&sc->wt, &sc->cap, r->ncands ? r->ncands : 1, sizeof(*sc->wt)))
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < r->ncands; i++) {
		struct work_target *w;
		struct sdt_target t;
		int v = verify(r, o, &r->cands[i], &t);

		if (v < 0)
			return v;
		if (v > 0)
			continue;
		w = find_scanned(sc, &t);
		if (w) {
			/* the same file reached twice (a stale entry and the new one) */
			for (k = 0; k < r->nspecs; k++)
				w->specs[k] |= r->cands[i].specs[k];
			w->t.rescanned |= t.rescanned;
			free(t.path);
			free(t.build_id);
			sdt_file__free(t.file);
			continue;
		}
		sc->wt[sc->n].t = t;
		sc->wt[sc->n].specs = r->cands[i].specs;
		r->cands[i].specs = NULL;
		sc->n++;
	}
	return 0;
}

/* Stage 3: the sites of each scanned file that its specs match, each with the first spec. */
static int match_sites(struct scanned *sc, struct sdt_spec *const *specs, size_t nspecs)
{
	size_t i, j, k;

	for (i = 0; i < sc->n; i++) {
		struct sdt_target *t = &sc->wt[i].t;
		size_t ns = sdt_file__site_count(t->file);

		free(t->sites); /* matched again after the cache's files joined (add_fallback) */
		free(t->spec);
		t->nsites = 0;
		t->sites = calloc(ns ? ns : 1, sizeof(size_t));
		t->spec = calloc(ns ? ns : 1, sizeof(size_t));
		if (!t->sites || !t->spec)
			return sdt_err(-ENOMEM, "out of memory");
		for (j = 0; j < ns; j++) {
			const struct sdt_site *s = sdt_file__site(t->file, j);

			for (k = 0; k < nspecs; k++) {
				if (sc->wt[i].specs[k] &&
				    sdt_spec__match(specs[k], sdt_site__provider(s),
						    sdt_site__name(s)))
					break;
			}
			if (k < nspecs) {
				t->sites[t->nsites] = j;
				t->spec[t->nsites++] = k;
			}
		}
	}
	return 0;
}

/* Did spec @k match a site? When not (and that is not allowed), the error that says where. */
static int check_matched(const struct scanned *sc, const struct resolver *r,
			 const struct sdt_resolve_opts *o, size_t k)
{
	const struct sdt_spec *spec = r->specs[k];
	const struct sdt_file **files;
	size_t i, j, nfiles = 0;
	char *txt, *hint;
	int err;

	for (i = 0; i < sc->n; i++) {
		for (j = 0; j < sc->wt[i].t.nsites; j++) {
			if (sc->wt[i].t.spec[j] == k)
				return 0;
		}
	}
	if (o->allow_empty)
		return 0;
	/* the files scanned for it (its own binary) give the nearest names, else the index */
	files = calloc(sc->n ? sc->n : 1, sizeof(*files));
	for (i = 0; files && i < sc->n; i++) {
		if (sc->wt[i].specs[k])
			files[nfiles++] = sc->wt[i].t.file;
	}
	txt = spec_text(spec);
	if (r->tf && (!sdt_spec__path(spec) || sdt_resolve_glob(sdt_spec__path(spec)))) {
		const struct target_files *t = r->tf;

		/* the target's own events and the cache's: the cache is looked in too */
		hint = files ? sdt_miss_near(spec, r->idx, files, nfiles) : NULL;
		err = sdt_err(-ENOENT,
			      "no SDT event matches '%s' in %s, nor in the cache: %s%zu file%s with "
			      "SDT notes%s%s%s, %zu without%s%s%s",
			      txt ? txt : "?", t->desc ? t->desc : "the target",
			      sdt_spec__path(spec) ? "among the files it names, " : "it runs ",
			      t->nwith, t->nwith == 1 ? "" : "s", t->nwith ? " (" : "",
			      t->nwith ? t->with.buf : "", t->nwith ? ")" : "", t->nwithout,
			      t->nunread ? " and some it could not read" : "",
			      t->f && t->n ? "; libraries it dlopen()s later are not known before "
					     "they are loaded"
					   : "",
			      hint ? hint : "");
		free(hint);
		free(files);
		free(txt);
		return err;
	}
	hint = files ? sdt_miss_hint(spec, r->idx, files, nfiles) : NULL;
	err = sdt_err(-ENOENT, "no SDT event matches '%s' in %s%s'%s", txt ? txt : "?",
		      sdt_spec__path(spec) ? "'" : "the cache '",
		      sdt_spec__path(spec) ? sdt_spec__path(spec) : r->c->root, hint ? hint : "");
	free(hint);
	free(files);
	free(txt);
	return err;
}

/* Is the event of site @s in more than one scanned file? @hit: scratch, one per file. */
static int check_one_binary(const struct scanned *sc, const struct sdt_site *s, bool *hit)
{
	size_t a, b, nhit = 0;

	memset(hit, 0, sc->n * sizeof(bool));
	for (a = 0; a < sc->n; a++) {
		const struct sdt_target *t = &sc->wt[a].t;

		for (b = 0; b < t->nsites && !hit[a]; b++) {
			const struct sdt_site *x = sdt_file__site(t->file, t->sites[b]);

			hit[a] = !strcmp(sdt_site__provider(x), sdt_site__provider(s)) &&
				 !strcmp(sdt_site__name(x), sdt_site__name(s));
		}
		nhit += hit[a];
	}
	if (nhit > 1)
		return ambiguous(sc->wt, sc->n, hit, sdt_site__provider(s), sdt_site__name(s));
	return 0;
}

/* Is every event that the path-less spec @k matched in one binary only? */
static int check_unique(const struct scanned *sc, size_t k, bool *hit)
{
	size_t i, j;
	int err;

	for (i = 0; i < sc->n; i++) {
		const struct sdt_target *t = &sc->wt[i].t;

		for (j = 0; j < t->nsites; j++) {
			if (t->spec[j] != k)
				continue;
			err = check_one_binary(sc, sdt_file__site(t->file, t->sites[j]), hit);
			if (err)
				return err;
		}
	}
	return 0;
}

/* Stage 4: every spec must match something; a path-less one in one binary only. */
static int check_specs(const struct scanned *sc, const struct resolver *r,
		       const struct sdt_resolve_opts *o)
{
	bool *hit = calloc(sc->n ? sc->n : 1, sizeof(bool));
	size_t k;
	int err = 0;

	if (!hit)
		return sdt_err(-ENOMEM, "out of memory");
	for (k = 0; k < r->nspecs && !err; k++) {
		err = check_matched(sc, r, o, k);
		/* by the target: it runs both files, so both are probed */
		if (!err && !sdt_spec__path(r->specs[k]) && !o->all_matches && !r->tf)
			err = check_unique(sc, k, hit);
	}
	free(hit);
	return err;
}

/* Stage 5: the scanned files with sites become the targets, moved out of @sc. */
static int hand_over(struct scanned *sc, struct sdt_target **out, size_t *nout)
{
	size_t i;

	*out = calloc(sc->n ? sc->n : 1, sizeof(**out));
	if (!*out)
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < sc->n; i++) {
		if (!sc->wt[i].t.nsites)
			continue;
		(*out)[(*nout)++] = sc->wt[i].t;
		memset(&sc->wt[i].t, 0, sizeof(sc->wt[i].t));
	}
	return 0;
}

static void resolver_release(struct resolver *r)
{
	size_t i;

	for (i = 0; i < r->ncands; i++) {
		free(r->cands[i].path);
		free(r->cands[i].bid);
		free(r->cands[i].specs);
	}
	free(r->cands);
	memset(r, 0, sizeof(*r));
}

static int resolve_sdt(struct sdt_cache *c, struct sdt_index *idx, struct sdt_spec *const *specs,
		       size_t nspecs, const struct sdt_resolve_opts *o, struct target_files *tf,
		       struct sdt_target **out, size_t *nout);

/* Did spec @k match a site of @sc? */
static bool spec_matched(const struct scanned *sc, size_t k)
{
	size_t i, j;

	for (i = 0; i < sc->n; i++) {
		for (j = 0; j < sc->wt[i].t.nsites; j++) {
			if (sc->wt[i].t.spec[j] == k)
				return true;
		}
	}
	return false;
}

/* How many leading path components @a and @b share ("/usr/lib/jvm/x/bin/java" ...: 4). */
static size_t common_dirs(const char *a, const char *b)
{
	size_t n = 0, i;

	for (i = 0; a[i] && a[i] == b[i]; i++) {
		if (a[i] == '/')
			n++;
	}
	return n;
}

/*
 * Of the cached targets @ft (of @nft) with a site of spec @j, the one for the target: the only
 * one, else the one nearest the target's executable @exe (most leading directories shared: a
 * JVM's libjvm.so under its own tree), else the ambiguity error. SIZE_MAX when there is none.
 */
static int pick_cached(const struct sdt_target *ft, size_t nft, size_t j, const char *exe,
		       const char *prov_ev, size_t *pick)
{
	size_t i, k, best = SIZE_MAX, bestn = 0, ties = 0, count = 0;
	struct sdt_buf b = {0};
	int err;

	*pick = SIZE_MAX;
	for (i = 0; i < nft; i++) {
		for (k = 0; k < ft[i].nsites && ft[i].spec[k] != j; k++)
			;
		if (k == ft[i].nsites)
			continue;
		count++;
		k = exe ? common_dirs(exe, ft[i].path) : 0;
		if (best == SIZE_MAX || k > bestn) {
			best = i;
			bestn = k;
			ties = 1;
		} else if (k == bestn) {
			ties++;
		}
	}
	if (count <= 1 || ties == 1) {
		*pick = best;
		return 0;
	}
	sdt_buf_addf(&b, "%s is in none of the files the target runs, and in %zu cached binaries:",
		     prov_ev, count);
	for (i = 0; i < nft; i++) {
		for (k = 0; k < ft[i].nsites && ft[i].spec[k] != j; k++)
			;
		if (k < ft[i].nsites)
			sdt_buf_addf(&b, "\n  %s (build-id %s)", ft[i].path,
				     ft[i].build_id ? ft[i].build_id : "none");
	}
	sdt_buf_addf(&b, "\nname one with the binary, e.g. %s:%s", ft[best].path, prov_ev);
	err = sdt_err(-ENOTUNIQ, "%s", b.buf ? b.buf : "ambiguous event");
	sdt_buf_free(&b);
	return err;
}

/*
 * By the target, a spec without a binary that none of the target's files has: the library may
 * be one the target dlopen()s (libjvm.so under java), which no file says before it runs. Such
 * specs are looked up in the cache, as without a target; the binary picked for each (pick_cached)
 * joins @sc, and the caller is told. A spec the cache has not either stays unmatched.
 */
static int add_fallback(struct resolver *r, struct sdt_index *idx,
			const struct sdt_resolve_opts *o, struct scanned *sc)
{
	SDT_OPTS(sdt_resolve_opts, fo, .all_matches = true, .allow_empty = true,
		 .skip_missing = true);
	struct sdt_spec **sub;
	struct sdt_target *ft = NULL;
	size_t *map, nsub = 0, nft = 0, i, j, pick;
	const char *exe = r->tf->n ? r->tf->f[0].path : NULL, *noted = NULL;
	int err = 0;

	sub = calloc(r->nspecs ? r->nspecs : 1, sizeof(*sub));
	map = calloc(r->nspecs ? r->nspecs : 1, sizeof(*map));
	if (!sub || !map) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < r->nspecs; i++) {
		if (sdt_spec__path(r->specs[i]) || spec_matched(sc, i))
			continue;
		map[nsub] = i;
		sub[nsub++] = r->specs[i];
	}
	if (!nsub || !idx)
		goto out;
	fo.notify = o->notify;
	fo.ctx = o->ctx;
	err = resolve_sdt(r->c, idx, sub, nsub, &fo, NULL, &ft, &nft);
	for (j = 0; !err && j < nsub; j++) {
		char *txt = spec_text(sub[j]);
		struct stat st = {0};
		bool *want;

		err = txt ? pick_cached(ft, nft, j, exe, txt, &pick) : -ENOMEM;
		if (err || pick == SIZE_MAX) {
			free(txt);
			continue;
		}
		/*
		 * Once per cached file, not per event. Most often the target is a wrapper (a shim,
		 * java's launcher, unshare, env) that execs the program that has the events, which
		 * is followed and armed at its exec; a dlopen()ed library is the other case.
		 */
		if (!noted || strcmp(noted, ft[pick].path))
			notify(o,
			       "'%s'%s is in none of the files of %s (it may exec another program "
			       "that has it, or dlopen() a library): probing the cached '%s'",
			       txt, nsub > 1 ? " (and other events)" : "",
			       r->tf->desc ? r->tf->desc : "the target", ft[pick].path);
		noted = ft[pick].path;
		free(txt);
		want = calloc(r->nspecs, sizeof(*want));
		if (!want) {
			err = -ENOMEM;
			break;
		}
		want[map[j]] = true;
		st.st_dev = (dev_t)ft[pick].dev;
		st.st_ino = (ino_t)ft[pick].ino;
		st.st_size = (off_t)ft[pick].size;
		st.st_mtim.tv_sec = ft[pick].mtime_sec;
		st.st_mtim.tv_nsec = ft[pick].mtime_nsec;
		if (sdt_scanned_find_inode(sc, &st)) {
			err = sdt_scanned_add(sc, NULL, &st, &want, r->nspecs);
		} else {
			err = sdt_scanned_add(sc, ft[pick].file, &st, &want, r->nspecs);
			ft[pick].file = NULL;
			/* the same file picked for another spec is found by its inode from now on */
		}
		free(want);
	}
	if (err == -ENOMEM)
		err = sdt_err(err, "out of memory");
out:
	sdt_target_array_free(ft, nft);
	free(sub);
	free(map);
	return err;
}

/*
 * The SDT events @specs name: candidates (those without a binary from @idx, open when one
 * needs it), scanned now, their matching sites, checked.
 */
static int resolve_sdt(struct sdt_cache *c, struct sdt_index *idx, struct sdt_spec *const *specs,
		       size_t nspecs, const struct sdt_resolve_opts *o, struct target_files *tf,
		       struct sdt_target **out, size_t *nout)
{
	struct resolver r = {.c = c, .idx = idx, .tf = tf, .specs = specs, .nspecs = nspecs};
	struct scanned sc = {0};
	int err;

	*out = NULL;
	*nout = 0;
	err = find_candidates(&r, idx);
	if (!err)
		err = scan_candidates(&r, o, &sc);
	if (!err && tf)
		err = sdt_resolve_scan_target(&r, idx, &sc);
	if (!err)
		err = match_sites(&sc, specs, nspecs);
	if (!err && tf && !o->target_only) {
		err = add_fallback(&r, idx, o, &sc);
		if (!err)
			err = match_sites(&sc, specs, nspecs);
	}
	if (!err)
		err = check_specs(&sc, &r, o);
	if (!err)
		err = hand_over(&sc, out, nout);
	scanned_release(&sc);
	resolver_release(&r);
	return err;
}

/* Say, for sdtrace -v, where each site of the @n targets @t is: the offsets to be probed. */
static void debug_targets(const struct sdt_target *t, size_t n)
{
	char sem[64];
	size_t i, j;

	for (i = 0; i < n && sdt_print_enabled(); i++) {
		for (j = 0; j < t[i].nsites; j++) {
			const struct sdt_site *s = sdt_file__site(t[i].file, t[i].sites[j]);

			if (sdt_site__has_semaphore_offset(s))
				snprintf(sem, sizeof(sem), "semaphore at file offset 0x%llx",
					 (unsigned long long)sdt_site__semaphore_offset(s));
			else
				snprintf(sem, sizeof(sem), "no semaphore");
			sdt_debug("%%%s:%s -> '%s' (build-id %s): address 0x%llx, file offset 0x%llx, "
				  "%s\n",
				  sdt_site__provider(s), sdt_site__name(s), t[i].path,
				  t[i].build_id ? t[i].build_id : "none",
				  (unsigned long long)sdt_site__address(s),
				  (unsigned long long)sdt_site__file_offset(s), sem);
		}
	}
}

/*
 * User probes first; the other specs through the SDT lookup above; one list of targets. @idx:
 * the event index, opened once for both (NULL when no spec needs it: needs_index()).
 */
static int resolve_once(struct sdt_cache *c, struct sdt_index *idx, struct sdt_spec *const *specs,
			size_t nspecs, const struct sdt_resolve_opts *o, struct target_files *tf,
			struct sdt_target **out, size_t *nout)
{
	struct sdt_target *ut = NULL, *st = NULL, *all;
	struct sdt_spec **rest = NULL;
	size_t nut = 0, nst = 0, nrest = 0, *map = NULL, i, j;
	bool *handled;
	int err;

	*out = NULL;
	*nout = 0;
	handled = calloc(nspecs ? nspecs : 1, sizeof(*handled));
	rest = calloc(nspecs ? nspecs : 1, sizeof(*rest));
	map = calloc(nspecs ? nspecs : 1, sizeof(*map));
	if (!handled || !rest || !map) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto out;
	}
	err = sdt_userprobe_resolve(c, idx, specs, nspecs, o, handled, &ut, &nut);
	if (err)
		goto out;
	for (i = 0; i < nspecs; i++) {
		if (handled[i])
			continue;
		map[nrest] = i;
		rest[nrest++] = specs[i];
	}
	if (nrest || !nut) {
		err = resolve_sdt(c, idx, rest, nrest, o, tf, &st, &nst);
		if (err)
			goto out;
	}
	/* the SDT targets' spec indices are into @rest: back to @specs */
	for (i = 0; i < nst; i++) {
		for (j = 0; j < st[i].nsites; j++)
			st[i].spec[j] = map[st[i].spec[j]];
	}
	if (!nut || !nst) {
		*out = nut ? ut : st;
		*nout = nut ? nut : nst;
		ut = nut ? NULL : ut;
		st = nut ? st : NULL;
		goto out;
	}
	all = sdt_reallocarray(NULL, nut + nst, sizeof(*all));
	if (!all) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto out;
	}
	memcpy(all, st, nst * sizeof(*all));
	memcpy(all + nst, ut, nut * sizeof(*all));
	free(st);
	free(ut);
	*out = all;
	*nout = nst + nut;
	st = ut = NULL;
	nst = nut = 0;
out:
	if (!err)
		debug_targets(*out, *nout);
	sdt_target_array_free(ut, nut);
	sdt_target_array_free(st, nst);
	free(handled);
	free(rest);
	free(map);
	return err;
}

/* Most damaged entries named one by one; the others are counted. */
#define MAX_DAMAGED_SHOWN 8

struct damaged {
	const struct sdt_resolve_opts *o;
	const char *root;
	size_t n;
};

static int on_damaged(const char *key, size_t klen, const char *val, size_t vlen, void *ctx)
{
	struct damaged *d = ctx;
	const char *nul = memchr(val, '\0', vlen);

	if (!nul || klen < 3 || klen - 2 > SDT_BUILD_ID_HEX_MAX || d->n++ >= MAX_DAMAGED_SHOWN)
		return 0;
	notify(d->o,
	       "'%s%.*s/%.*s/probes' is damaged (%.*s): lookups miss the events it lost; run "
	       "'sdtrace cache check --repair'",
	       d->root, (int)(nul - val), val, (int)(klen - 2), key + 2,
	       (int)(vlen - (size_t)(nul + 1 - val)), nul + 1);
	return 0;
}

/*
 * A lookup by name goes through the index, which holds what the probes files list: the events
 * of a damaged file are not there. Its entries are listed in the index ("x:"): tell about them,
 * so that a miss is never silent.
 */
static void tell_damaged(struct sdt_cache *c, struct sdt_index *idx,
			 struct sdt_spec *const *specs, size_t nspecs,
			 const struct sdt_resolve_opts *o)
{
	struct damaged d = {.o = o, .root = c->root};
	size_t i;

	for (i = 0; i < nspecs && sdt_spec__path(specs[i]); i++)
		;
	if (!o->notify || i == nspecs || !idx)
		return;
	sdt_index_each(idx, "x:", on_damaged, &d);
	if (d.n > MAX_DAMAGED_SHOWN)
		notify(o, "%zu more damaged probes files in '%s'", d.n - MAX_DAMAGED_SHOWN,
		       c->root);
}

/*
 * Does resolving @specs need the event index? A spec without a binary is looked up in it, and
 * so are the names of user probes ("u:NAME"), also with -x PATH.
 */
static bool needs_index(struct sdt_spec *const *specs, size_t nspecs)
{
	size_t i;

	for (i = 0; i < nspecs; i++) {
		if (!sdt_spec__path(specs[i]) || sdt_resolve_glob(sdt_spec__path(specs[i])) ||
		    sdt_userprobe_spec(specs[i]))
			return true;
	}
	return false;
}

/* One look at the cache: its index opened once (when needed) for every stage. */
static int resolve_with_index(struct sdt_cache *c, struct sdt_spec *const *specs, size_t nspecs,
			      const struct sdt_resolve_opts *o, struct target_files *tf, bool tell,
			      struct sdt_target **out, size_t *nout)
{
	struct sdt_index *idx = NULL;
	int err;

	*out = NULL;
	*nout = 0;
	if (needs_index(specs, nspecs)) {
		err = sdt_index_open(c, &idx, NULL);
		if (err)
			return err == -ENOMEM ? sdt_err(err, "out of memory") : err;
	}
	if (tell)
		tell_damaged(c, idx, specs, nspecs, o);
	err = resolve_once(c, idx, specs, nspecs, o, tf, out, nout);
	sdt_index_close(idx);
	return err;
}

/*
 * Resolve once; a miss of a name that may be a user probe perf added, once more after the
 * index was rebuilt. The targets in *out (an array of *nout).
 */
int sdt_resolve_specs(struct sdt_cache *c, struct sdt_spec *const *specs, size_t nspecs,
		      const struct sdt_resolve_opts *o, struct target_files *tf,
		      struct sdt_target **out, size_t *nout)
{
	char *first;
	size_t i;
	int err;

	err = resolve_with_index(c, specs, nspecs, o, tf, true, out, nout);
	if (err != -ENOENT)
		return err;
	/*
	 * perf adds a user probe (`perf probe --cache`) by rewriting the probes file of an entry:
	 * the links do not change, so the index looks fresh without it. Before saying a name is
	 * nowhere, rebuild it (unchanged entries are reused) and look again.
	 */
	for (i = 0; i < nspecs && !sdt_userprobe_spec(specs[i]); i++)
		;
	if (i == nspecs)
		return err;
	first = sdt_strdup(sdt_errmsg());
	if (!sdt_index_rebuild(c)) {
		if (tf) {
			/* counted again by the second look */
			sdt_buf_free(&tf->with);
			tf->nwith = tf->nwithout = tf->nunread = tf->nskipped = 0;
		}
		err = resolve_with_index(c, specs, nspecs, o, tf, false, out, nout);
	}
	if (err == -ENOENT && first)
		sdt_err(err, "%s", first); /* the first message: what was looked for, and where */
	free(first);
	return err;
}

int sdt_cache__resolve(struct sdt_cache *c, struct sdt_spec *const *specs, size_t nspecs,
		       const struct sdt_resolve_opts *opts, struct sdt_targets **out)
{
	struct sdt_resolve_opts o;
	struct sdt_target *t = NULL;
	size_t n = 0;
	int err;

	*out = NULL;
	err = SDT_OPTS_COPY(&o, opts, sdt_resolve_opts);
	if (!err)
		err = sdt_resolve_specs(c, specs, nspecs, &o, NULL, &t, &n);
	return err ? err : sdt_targets_wrap(t, n, out);
}
