/* SPDX-License-Identifier: MIT */
/*
 * Stages 1 and 2 of a resolution by the target (sdt_resolve_scan_target(), called by resolve.c):
 * each file the target runs that a spec applies to (no binary, or a glob naming it) is opened
 * through the path that reaches the inode the target runs, its notes counted (none: skipped),
 * its build-id read; a build the cache holds whose cached events match none of its specs is
 * not decoded (cached_match: the event index's "B:" record); the others are decoded now. What
 * was seen is counted in the resolver's struct target_files, for the message of a miss.
 */
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <unistd.h>

#include "cache/index.h"
#include "cache/resolve.h"
#include "scan/file.h"
#include "scan/note.h"
#include "scan/sdt_elf.h"

/* The one value of an index key (sdt_index_find()'s callback). */
struct found {
	const char *v;
	size_t len;
	bool hit;
};

static int on_found(const char *v, size_t len, void *ctx)
{
	struct found *fd = ctx;

	fd->v = v;
	fd->len = len;
	fd->hit = true;
	return 1;
}

/*
 * Are the cached events of build-id @bid matched by a spec flagged in @want? 1 yes, 0 no, -1 not
 * known (not cached, or its probes file damaged): scan the file to know.
 */
static int cached_match(struct sdt_index *idx, const char *bid, struct sdt_spec *const *specs,
			size_t nspecs, const bool *want)
{
	struct sdt_buf key = {0};
	struct found fd = {0};
	const char *line, *end, *nl;
	size_t k;
	int res = 0;

	if (!idx || sdt_buf_addf(&key, "B:%s", bid))
		goto unknown;
	if (sdt_index_find(idx, key.buf, on_found, &fd) < 0 || !fd.hit)
		goto unknown;
	end = fd.v + fd.len;
	line = memchr(fd.v, '\n', fd.len); /* after the probes file's stamp */
	for (line = line ? line + 1 : end; line < end && !res; line = nl + 1) {
		char prov[SDT_MAX_EVENT_NAME + 1], ev[SDT_MAX_EVENT_NAME + 1];
		const char *colon;

		nl = memchr(line, '\n', (size_t)(end - line));
		if (!nl || line[0] == '!')
			goto unknown; /* damaged: its events may be missing */
		colon = memchr(line, ':', (size_t)(nl - line));
		if (line[0] == '#' || !colon || colon - line > SDT_MAX_EVENT_NAME ||
		    nl - colon - 1 > SDT_MAX_EVENT_NAME)
			continue;
		memcpy(prov, line, (size_t)(colon - line));
		prov[colon - line] = '\0';
		memcpy(ev, colon + 1, (size_t)(nl - colon - 1));
		ev[nl - colon - 1] = '\0';
		for (k = 0; k < nspecs && !res; k++)
			res = want[k] && sdt_spec__match(specs[k], prov, ev);
	}
	sdt_buf_free(&key);
	return res;
unknown:
	sdt_buf_free(&key);
	return -1;
}

/*
 * The path a target's file is probed at: the path as the process sees it when that is the same
 * inode from here (a process in our mount namespace), else where we opened it
 * (/proc/PID/root/PATH, /proc/PID/map_files/RANGE), which reaches the inode the target runs.
 */
static char *probe_path(const struct sdt_proc_file *f, const struct stat *st)
{
	struct stat o;

	if (!strcmp(f->path, f->open_path))
		return sdt_strdup(f->path);
	if (!f->deleted && !stat(f->path, &o) && o.st_dev == st->st_dev && o.st_ino == st->st_ino)
		return sdt_strdup(f->path);
	return sdt_strdup(f->open_path);
}

struct work_target *sdt_scanned_find_inode(struct scanned *sc, const struct stat *st)
{
	size_t j;

	for (j = 0; j < sc->n; j++) {
		if (sc->wt[j].t.dev == (uint64_t)st->st_dev && sc->wt[j].t.ino == (uint64_t)st->st_ino)
			return &sc->wt[j];
	}
	return NULL;
}

/* Which specs apply to target file @f: those without a binary, and those whose glob names it. */
static bool target_specs(const struct resolver *r, const struct sdt_proc_file *f, bool *want)
{
	bool any = false;
	size_t k;

	for (k = 0; k < r->nspecs; k++) {
		const char *p = sdt_spec__path(r->specs[k]);

		want[k] = !p || (sdt_resolve_glob(p) && (!fnmatch(p, f->path, 0) ||
						 !fnmatch(p, f->open_path, 0)));
		any |= want[k];
	}
	return any;
}

int sdt_scanned_add(struct scanned *sc, struct sdt_file *f, const struct stat *st, bool **want,
		    size_t nspecs)
{
	struct work_target *w = sdt_scanned_find_inode(sc, st);
	struct sdt_target *t;
	size_t k;

	if (w) {
		for (k = 0; k < nspecs; k++)
			w->specs[k] |= (*want)[k];
		sdt_file__free(f);
		return 0;
	}
	if (sdt_grow((void **)&sc->wt, &sc->cap, sc->n + 1, sizeof(*sc->wt))) {
		sdt_file__free(f);
		return -ENOMEM;
	}
	w = &sc->wt[sc->n];
	memset(w, 0, sizeof(*w));
	t = &w->t;
	t->file = f;
	t->path = sdt_strdup(sdt_file__path(f));
	t->build_id = sdt_file__build_id(f) ? sdt_strdup(sdt_file__build_id(f)) : NULL;
	t->dev = (uint64_t)st->st_dev;
	t->ino = (uint64_t)st->st_ino;
	t->size = (uint64_t)st->st_size;
	t->mtime_sec = (int64_t)st->st_mtim.tv_sec;
	t->mtime_nsec = (int64_t)st->st_mtim.tv_nsec;
	w->specs = *want;
	*want = NULL;
	sc->n++;
	if (!t->path || (sdt_file__build_id(f) && !t->build_id))
		return -ENOMEM;
	return 0;
}

/*
 * Scan one file of the target: 0 (scanned into @sc, or skipped: no notes, or cached without a
 * matching event), or -errno. A file that cannot be read is counted and skipped.
 */
static int scan_target_file(struct resolver *r, struct sdt_index *idx, struct scanned *sc,
			    const struct sdt_proc_file *tf)
{
	struct target_files *t = r->tf;
	struct sdt_file *f = NULL;
	struct sdt_elf e;
	struct stat st;
	char proc[64], *path = NULL, *bid = NULL;
	bool *want;
	int fd, err = 0;

	want = calloc(r->nspecs ? r->nspecs : 1, sizeof(*want));
	if (!want)
		return -ENOMEM;
	if (!target_specs(r, tf, want))
		goto out;
	/* following links: /proc/PID/map_files/ and /proc/PID/root/ are magic links */
	fd = open(tf->open_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		t->nunread++;
		goto out;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || sdt_elf_open(proc, &e)) {
		t->nunread++;
		close(fd);
		goto out;
	}
	if (!sdt_notes_count(&e)) {
		t->nwithout++;
		goto close;
	}
	t->nwith++;
	if (sdt_buf_addf(&t->with, "%s%s", t->with.len ? ", " : "", tf->path) ||
	    sdt_elf_build_id(&e, &bid)) {
		err = -ENOMEM;
		goto close;
	}
	/* the cache as an accelerator: a build it knows, without a wanted event, is not decoded */
	if (bid && cached_match(idx, bid, r->specs, r->nspecs, want) == 0) {
		t->nskipped++;
		goto close;
	}
	path = probe_path(tf, &st);
	if (!path) {
		err = -ENOMEM;
		goto close;
	}
	err = sdt_file_scan_elf(&e, path, &f);
	if (!err)
		err = sdt_scanned_add(sc, f, &st, &want, r->nspecs);
	else if (err != -ENOMEM)
		err = 0; /* not ours to refuse: a damaged file of the target is skipped */
close:
	sdt_elf_close(&e);
	close(fd);
out:
	free(path);
	free(bid);
	free(want);
	return err == -ENOMEM ? sdt_err(err, "out of memory") : err;
}

int sdt_resolve_scan_target(struct resolver *r, struct sdt_index *idx, struct scanned *sc)
{
	size_t i;
	int err = 0;

	for (i = 0; r->tf && i < r->tf->n && !err; i++)
		err = scan_target_file(r, idx, sc, &r->tf->f[i]);
	return err;
}
