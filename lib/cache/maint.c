/* SPDX-License-Identifier: MIT */
/* Cache maintenance: remove, purge, update, check and repair (the list of entries: entries.c). */
#include <dirent.h>
#include <signal.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "cache/index.h"
#include "util/lockfile.h"
#include "cache/meta.h"
#include "cache/probes_file.h"
#include "scan/file.h"
#include "scan/sdt_elf.h"
#include "cache/userprobe.h"
#include "scan/find.h"

/* ---- remove, purge, update ---------------------------------------------------------------- */

static bool looks_like_build_id(const char *s)
{
	size_t n = strlen(s), i;

	if (n < 8 || n > SDT_BUILD_ID_HEX_MAX)
		return false;
	for (i = 0; i < n; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	}
	return true;
}

int sdt_cache__remove(struct sdt_cache *c, const char *arg)
{
	struct sdt_collect col = {0};
	char *real = NULL;
	size_t i, matches = 0;
	bool by_bid = looks_like_build_id(arg) && arg[0] != '/';
	int err, removed = 0;

	err = sdt_walk_links(c, sdt_cache_collect_link, NULL, &col);
	if (err)
		goto out;
	if (by_bid) {
		for (i = 0; i < col.n; i++)
			matches += !strncmp(col.e[i].build_id, arg, strlen(arg));
		if (matches > 1) {
			err = sdt_err(-EINVAL,
				      "build-id prefix '%s' matches %zu entries: give more "
				      "digits",
				      arg, matches);
			goto out;
		}
	} else {
		real = sdt_user_path(arg, true);
		if (!real)
			real = sdt_strdup(arg); /* the file may be gone: its cached path */
		if (!real) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (i = 0; i < col.n; i++) {
		const struct sdt_cache_entry *e = &col.e[i];

		if (by_bid ? strncmp(e->build_id, arg, strlen(arg)) : strcmp(e->path, real))
			continue;
		err = sdt_cache_remove_entry(c, e->path, e->build_id);
		if (err) {
			err = sdt_err(err, "cannot remove '%s' (%s) from '%s': %s", e->path,
				      e->build_id, c->root, strerror(-err));
			goto out;
		}
		removed++;
	}
	if (removed)
		err = sdt_index_rebuild(c);
out:
	sdt_cache_entry_array_free(col.e, col.n);
	free(real);
	return err ? err : removed;
}

static void report(sdt_cache_report_fn fn, void *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void report(sdt_cache_report_fn fn, void *ctx, const char *fmt, ...)
{
	char msg[PATH_MAX + 256];
	va_list ap;

	if (!fn)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fn(msg, ctx);
}

/* Rewrite the entry of @e from the file at its path (same build), dropping a stale meta. */
static int refresh(struct sdt_cache *c, const struct sdt_cache_entry *e, enum sdt_cache_result *res,
		   char **new_bid)
{
	struct sdt_file *f = NULL;
	struct stat st;
	int fd = -1, err;

	*new_bid = NULL;
	err = sdt_cache_scan(e->path, &f, &st, &fd);
	if (err)
		return err;
	/* an entry of user probes only stays while the file is the same build */
	if (!sdt_file__build_id(f) ||
	    (!sdt_file__site_count(f) &&
	     (!e->nprobes || strcmp(sdt_file__build_id(f), e->build_id)))) {
		*res = SDT_CACHE_NO_SDT;
		goto out;
	}
	*new_bid = sdt_strdup(sdt_file__build_id(f));
	if (!*new_bid) {
		err = -ENOMEM;
		goto out;
	}
	err = sdt_cache_write_entry(c, f, e->path, &st, fd, res);
out:
	sdt_file__free(f);
	if (fd >= 0)
		close(fd);
	return err;
}

int sdt_cache__purge(struct sdt_cache *c, sdt_cache_report_fn fn, void *ctx)
{
	struct sdt_cache_entry *e;
	size_t n, i;
	int err, dropped = 0;

	err = sdt_cache_entries_read(c, &e, &n);
	if (err)
		return err;
	for (i = 0; i < n && !err; i++) {
		char *bid = NULL;

		/*
		 * Only what the SDT cache is about: perf also caches every DSO it recorded (no
		 * events), which `perf report` of old recordings still needs.
		 */
		if (e[i].state == SDT_ENTRY_OK || (!e[i].ours && !e[i].nevents && !e[i].nprobes))
			continue;
		/* touched but the same build: keep it */
		if (e[i].state == SDT_ENTRY_CHANGED && !sdt_cache_file_build_id(e[i].path, &bid) &&
		    bid && !strcmp(bid, e[i].build_id)) {
			free(bid);
			continue;
		}
		free(bid);
		err = sdt_cache_remove_entry(c, e[i].path, e[i].build_id);
		if (!err) {
			dropped++;
			report(fn, ctx, "removed '%s' (%s): %s", e[i].path, e[i].build_id,
			       e[i].state == SDT_ENTRY_GONE	? "the file is gone"
			       : e[i].state == SDT_ENTRY_BROKEN ? "the entry is broken"
								: "the file changed");
		}
	}
	if (!err && dropped)
		err = sdt_index_rebuild(c);
	sdt_cache_entry_array_free(e, n);
	return err ? err : dropped;
}

int sdt_cache__update(struct sdt_cache *c, sdt_cache_report_fn fn, void *ctx)
{
	struct sdt_cache_entry *e;
	size_t n, i;
	int err, done = 0;
	bool changed = false;

	err = sdt_cache_entries_read(c, &e, &n);
	if (err)
		return err;
	for (i = 0; i < n; i++) {
		enum sdt_cache_result res = SDT_CACHE_UNCHANGED;
		char *bid = NULL;

		if (e[i].state != SDT_ENTRY_CHANGED ||
		    (!e[i].ours && !e[i].nevents && !e[i].nprobes))
			continue;
		err = refresh(c, &e[i], &res, &bid);
		if (err) {
			report(fn, ctx, "cannot rescan '%s': %s", e[i].path, sdt_errmsg());
			err = 0;
			continue;
		}
		done++;
		changed = true;
		if (bid && strcmp(bid, e[i].build_id)) {
			sdt_cache_remove_entry(c, e[i].path, e[i].build_id);
			report(fn, ctx, "'%s': new build %s replaces %s", e[i].path, bid,
			       e[i].build_id);
			if (e[i].nprobes)
				report(fn, ctx,
				       "'%s': its %zu user probes were of build %s: define them "
				       "again with 'sdtrace probe add'",
				       e[i].path, e[i].nprobes, e[i].build_id);
		} else if (!bid) {
			sdt_cache_remove_entry(c, e[i].path, e[i].build_id);
			report(fn, ctx, "'%s': no SDT notes or build-id any more%s: removed",
			       e[i].path,
			       e[i].nprobes ? " (its user probes were of the old build)" : "");
		} else {
			report(fn, ctx, "'%s': same build %s, metadata refreshed", e[i].path, bid);
		}
		free(bid);
	}
	if (changed)
		err = sdt_index_rebuild(c);
	sdt_cache_entry_array_free(e, n);
	return err ? err : done;
}

/* ---- check and repair --------------------------------------------------------------------- */

struct checker {
	struct sdt_cache *c;
	bool repair;
	sdt_cache_report_fn fn;
	void *ctx;
	int problems;
	struct sdt_collect good;
};

static int bad_link(const char *xx, const char *name, void *ctx)
{
	struct checker *k = ctx;
	char rel[PATH_MAX];

	k->problems++;
	snprintf(rel, sizeof(rel), SDT_BUILD_ID_DIR "/%s/%s", xx, name);
	if (k->repair && unlinkat(k->c->rootfd, rel, 0) == 0)
		report(k->fn, k->ctx, "removed the malformed link '%s'", rel);
	else
		report(k->fn, k->ctx, "malformed link '%s' (not ../../PATH/BUILD-ID)", rel);
	return 0;
}

/*
 * Our temporaries in directory @rel whose writer is dead (left by a crash): removed with
 * --repair, otherwise only mentioned. They are harmless (never read), so not a problem; one
 * whose writer still runs is left alone.
 */
static bool writer_alive(const char *name)
{
	const char *dot = strrchr(name, '.'), *p;
	long pid;

	if (!dot || dot == name)
		return false;
	for (p = dot - 1; p > name && *p != '.'; p--)
		;
	pid = strtol(p + 1, NULL, 10);
	return pid > 0 && (kill((pid_t)pid, 0) == 0 || errno == EPERM);
}

static void sweep_tmp(struct checker *k, const char *rel)
{
	int fd = rel ? sdt_cache_openat(k->c, rel, O_RDONLY | O_DIRECTORY) : dup(k->c->rootfd);
	struct dirent *d;
	DIR *dir;

	if (fd < 0)
		return;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return;
	}
	rewinddir(dir); /* a dup shares the offset of the root fd */
	while ((d = readdir(dir))) {
		if (!sdt_tmp_is_ours(d->d_name) || writer_alive(d->d_name))
			continue;
		if (k->repair && !unlinkat(dirfd(dir), d->d_name, 0))
			report(k->fn, k->ctx, "removed the leftover temporary '%s/%s'",
			       rel ? rel : ".", d->d_name);
		else
			report(k->fn, k->ctx, "leftover temporary '%s/%s' (harmless)",
			       rel ? rel : ".", d->d_name);
	}
	closedir(dir);
}

/*
 * The build an entry's probes are checked against: the scan and the ELF of its `elf` (which must
 * have the entry's build-id), else of the file at its path when that is still this build.
 */
struct build {
	struct sdt_file *f;
	struct sdt_elf e;
	char *name; /* what @f and @e were read from, for messages; owned */
};

static void build_release(struct build *b)
{
	if (b->f) {
		sdt_file__free(b->f);
		sdt_elf_close(&b->e);
	}
	free(b->name);
	memset(b, 0, sizeof(*b));
}

/*
 * Open @b for entry @e (directory @rel). 0 when opened, 1 when there is nothing to check
 * against (no `elf`, and the file is gone or another build now: `cache list` says so), or a
 * problem (*why, malloc'ed): an `elf` that is not this build's.
 */
static int open_build(struct checker *k, const struct sdt_cache_entry *e, const char *rel,
		      struct build *b, char **why)
{
	char *elf_rel = sdt_asprintf("%s/elf", rel);
	struct stat st;
	int fd, err;

	memset(b, 0, sizeof(*b));
	*why = NULL;
	if (!elf_rel)
		return 1;
	fd = sdt_cache_openat(k->c, elf_rel, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	b->name = sdt_asprintf("%s/%s", k->c->root, elf_rel);
	free(elf_rel);
	if (fd >= 0 && b->name) {
		err = fstat(fd, &st) || !S_ISREG(st.st_mode)
			  ? sdt_err(-EBADF, "not a regular file")
			  : sdt_build_open(fd, b->name, e->build_id, &b->f, &b->e);
		close(fd);
		if (err)
			*why = sdt_asprintf("its elf is not the binary of its build-id: %s",
					    sdt_errmsg());
		return err ? -1 : 0;
	}
	if (fd >= 0)
		close(fd);
	free(b->name);
	b->name = sdt_strdup(e->path);
	fd = open(e->path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0 || !b->name)
		goto none;
	err = fstat(fd, &st) || !S_ISREG(st.st_mode)
		  ? -EBADF
		  : sdt_build_open(fd, b->name, e->build_id, &b->f, &b->e);
	close(fd);
	if (!err)
		return 0;
none:
	if (fd >= 0)
		close(fd);
	free(b->name);
	b->name = NULL;
	return 1;
}

/* "PROV:EVENT K:GROUP/NAME PATH:0xOFF[(0xREF)]" of every line of the SDT entries of @p */
static int sdt_sites(const struct sdt_probes *p, char ***out, size_t *n)
{
	size_t i, j, cap = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < p->n; i++) {
		const struct sdt_probes_entry *e = &p->entries[i];

		for (j = 0; e->kind == '%' && j < e->nlines; j++) {
			const char *l = e->lines[j], *sp = strchr(l, ' ');
			size_t len = sp ? (size_t)(sp - l) + 1 + strcspn(sp + 1, " ") : strlen(l);
			char *site = sdt_asprintf("%s:%s %.*s", e->provider, e->event, (int)len, l);

			if (!site || sdt_grow((void **)out, &cap, *n + 1, sizeof(char *))) {
				free(site);
				return -ENOMEM;
			}
			(*out)[(*n)++] = site;
		}
	}
	return 0;
}

/* Do the sites @a and @b (as sdt_sites() writes them) name the same event? */
static bool same_event(const char *a, const char *b)
{
	size_t n = strcspn(a, " ");

	return n == strcspn(b, " ") && !memcmp(a, b, n);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_strs(char **s, size_t n)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		free(s[i]);
	free(s);
}

/*
 * Does the probes file @p list the sites of the binary @f (the entry's build) and only those,
 * each under its event, at its offset, with its semaphore? (Arguments are not compared: perf
 * writes fewer.) NULL, or why not (malloc'ed). A site missing is an event lookups miss.
 */
static char *sdt_mismatch(const struct sdt_probes *p, const struct sdt_file *f, const char *path)
{
	struct sdt_buf text = {0};
	struct sdt_probes want = {0};
	char **have = NULL, **need = NULL, *why = NULL;
	size_t nh = 0, nn = 0, i = 0, j = 0;

	if (sdt_probes_render(f, path, &text) ||
	    sdt_probes_parse(text.buf ? text.buf : "", text.len, &want) ||
	    sdt_sites(p, &have, &nh) || sdt_sites(&want, &need, &nn))
		goto out;
	if (nh)
		qsort(have, nh, sizeof(*have), cmp_str);
	if (nn)
		qsort(need, nn, sizeof(*need), cmp_str);
	while (i < nh && j < nn && !strcmp(have[i], need[j])) {
		i++;
		j++;
	}
	if (i < nh && j < nn && same_event(have[i], need[j]))
		why = sdt_asprintf("its probes file has '%s' where the binary has '%s'",
				   strchr(have[i], ' ') + 1, strchr(need[j], ' ') + 1);
	else if (j < nn && (i == nh || strcmp(have[i], need[j]) > 0))
		why = sdt_asprintf("its probes file lacks the site '%s' of the binary: lookups "
				   "miss it",
				   strchr(need[j], ' ') + 1);
	else if (i < nh)
		why = sdt_asprintf("its probes file has '%s', which is no site of the binary",
				   strchr(have[i], ' ') + 1);
out:
	free_strs(have, nh);
	free_strs(need, nn);
	sdt_probes_release(&want);
	sdt_buf_free(&text);
	return why;
}

/*
 * The '#' entries (user probes) of an entry's probes file: malformed ones, and (with @b) those
 * whose lines are not what their definition gives in the entry's build, reported, or dropped.
 */
static void check_user_probes(struct checker *k, const struct sdt_cache_entry *e, const char *rel,
			      const struct sdt_probes *p, struct build *b)
{
	bool *drop = calloc(p->n ? p->n : 1, sizeof(*drop));
	size_t i, ndrop = 0;
	int dfd;

	if (!drop)
		return;
	for (i = 0; i < p->n; i++) {
		struct sdt_user_probe u;
		struct sdt_uprobe_site *sites = NULL;
		const char *why;
		size_t n;
		int err = 0;

		if (p->entries[i].kind != '#')
			continue;
		why = sdt_probes_entry_problem(&p->entries[i]);
		if (!why && b->f && !sdt_userprobe_from_entry(&p->entries[i], e->path, e->build_id,
							      &u)) {
			err = sdt_userprobe_locate(&b->e, b->f, b->f->nsites, &u, &sites, &n);
			why = err == -EINVAL ? sdt_errmsg() : NULL;
			free(sites);
			sdt_userprobe_release(&u);
		}
		if (err == -EOPNOTSUPP)
			report(k->fn, k->ctx, "'%s' (%s): user probe '%.64s' %s: not verified",
			       e->path, e->build_id, p->entries[i].header, sdt_errmsg());
		if (!why)
			continue;
		k->problems++;
		drop[i] = true;
		ndrop++;
		report(k->fn, k->ctx, "'%s' (%s): user probe '%.64s'%s %s%s", e->path, e->build_id,
		       p->entries[i].header, err ? "" : ":", why, k->repair ? ": removed" : "");
	}
	if (ndrop && k->repair) {
		dfd = sdt_cache_openat(k->c, rel, O_RDONLY | O_DIRECTORY);
		if (dfd < 0 || sdt_probes_write_without(dfd, p, drop))
			report(k->fn, k->ctx, "'%s' (%s): cannot rewrite its probes file", e->path,
			       e->build_id);
		if (dfd >= 0)
			close(dfd);
	}
	free(drop);
}

/*
 * What is wrong with the probes file of @e (read and parsed into @p), or NULL. *none: there is
 * none, an entry perf made of a DSO it recorded (not about SDT: not ours to judge).
 */
static char *probes_problem(struct checker *k, const struct sdt_cache_entry *e,
			    struct sdt_probes *p, bool *none)
{
	char *text = NULL, *why = NULL, *damage = NULL;
	size_t len;
	int err;

	err = sdt_cache_read_entry_file(k->c, e->path, e->build_id, "probes", &text, &len);
	*none = err == -ENOENT;
	if (err == -ENOENT)
		return NULL;
	if (err)
		why = sdt_asprintf("no readable probes file (%s)", strerror(-err));
	else if (sdt_probes_parse(text, len, p))
		why = sdt_asprintf("its probes file cannot be read (out of memory)");
	else if ((damage = sdt_probes_damage(p)))
		why = sdt_asprintf("its probes file is damaged: %s", damage);
	free(damage);
	free(text);
	return why;
}

/* What is wrong with the sdtrace.meta of @e, or NULL (none: perf's entry). */
static char *meta_problem(struct checker *k, const struct sdt_cache_entry *e)
{
	struct sdt_meta m;
	char *text = NULL, *why = NULL;
	size_t len;

	if (sdt_cache_read_entry_file(k->c, e->path, e->build_id, SDT_META_NAME, &text, &len))
		return NULL;
	if (sdt_meta_parse(text, len, &m)) {
		why = sdt_asprintf("a corrupt " SDT_META_NAME);
	} else {
		if (strcmp(m.build_id, e->build_id) || strcmp(m.path, e->path))
			why = sdt_asprintf(SDT_META_NAME " is of another file");
		sdt_meta_release(&m);
	}
	free(text);
	return why;
}

/* Rewrite entry @e (problem @why) from its file when that is still this build, else drop it. */
static void repair_entry(struct checker *k, const struct sdt_cache_entry *e, const char *rel,
			 const char *why, bool bad_elf)
{
	char *bid = NULL, *new_bid = NULL;
	enum sdt_cache_result res;
	int fd = sdt_cache_openat(k->c, rel, O_RDONLY | O_DIRECTORY);

	if (fd >= 0) {
		unlinkat(fd, SDT_META_NAME, 0);
		if (bad_elf)
			unlinkat(fd, "elf", 0); /* else a copy of the same size would be kept */
		close(fd);
	}
	if (!sdt_cache_file_build_id(e->path, &bid) && bid && !strcmp(bid, e->build_id) &&
	    !refresh(k->c, e, &res, &new_bid)) {
		report(k->fn, k->ctx, "'%s' (%s): %s: rewritten from the file", e->path,
		       e->build_id, why);
	} else {
		sdt_cache_remove_entry(k->c, e->path, e->build_id);
		report(k->fn, k->ctx,
		       "'%s' (%s): %s: removed (the file is gone or "
		       "changed)",
		       e->path, e->build_id, why);
	}
	free(bid);
	free(new_bid);
}

static void check_entry(struct checker *k, const struct sdt_cache_entry *e)
{
	struct sdt_probes p = {0};
	struct build b = {0};
	char *rel = sdt_cache_entry_rel(e->path, e->build_id), *why = NULL;
	bool bad_elf = false, no_probes;
	int err;

	if (!rel)
		return;
	err = sdt_cache_openat(k->c, rel, O_RDONLY | O_DIRECTORY);
	if (err < 0) {
		k->problems++;
		if (k->repair && !sdt_cache_remove_entry(k->c, e->path, e->build_id))
			report(k->fn, k->ctx, "removed the dangling link of '%s' (%s)", e->path,
			       e->build_id);
		else
			report(k->fn, k->ctx,
			       "'%s' (%s): the link points to no entry directory (%s)", e->path,
			       e->build_id, strerror(-err));
		free(rel);
		return;
	}
	close(err);
	why = probes_problem(k, e, &p, &no_probes);
	if (!why && !no_probes) {
		err = open_build(k, e, rel, &b, &why);
		bad_elf = err < 0;
	}
	if (!why && b.f)
		why = sdt_mismatch(&p, b.f, e->path);
	if (!why)
		check_user_probes(k, e, rel, &p, &b);
	if (!why)
		why = meta_problem(k, e);
	build_release(&b);
	if (why) {
		k->problems++;
		if (k->repair)
			repair_entry(k, e, rel, why, bad_elf);
		else
			report(k->fn, k->ctx, "'%s' (%s): %s", e->path, e->build_id, why);
	}
	sweep_tmp(k, rel);
	free(why);
	free(rel);
	sdt_probes_release(&p);
}

int sdt_cache__check(struct sdt_cache *c, bool repair, sdt_cache_report_fn fn, void *ctx)
{
	struct checker k = {.c = c, .repair = repair, .fn = fn, .ctx = ctx};
	size_t i;
	int err, lock = -1;

	if (c->rootfd < 0) {
		/* read-only, and no directory: nothing to check */
		report(fn, ctx, "'%s' does not exist: an empty cache", c->root);
		return 0;
	}
	if (repair) {
		/* no adder may rebuild the index from a half-repaired cache */
		lock = sdt_cache_lock(c, SDT_INDEX_LOCK, true);
		if (lock < 0)
			return sdt_err(lock, "'%s': cannot lock the event index: %s", c->root,
				       strerror(-lock));
	}
	err = sdt_walk_links(c, sdt_cache_collect_link, NULL, &k.good);
	if (!err)
		err = sdt_walk_links(c, NULL, bad_link, &k);
	if (err) {
		err = sdt_err(err, "'%s': cannot read the cache: %s", c->root, strerror(-err));
		goto out;
	}
	for (i = 0; i < k.good.n; i++)
		check_entry(&k, &k.good.e[i]);
	sweep_tmp(&k, NULL);
	{
		int bfd = openat(c->rootfd, SDT_BUILD_ID_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

		if (bfd >= 0) {
			DIR *dir = fdopendir(bfd);
			struct dirent *d;

			while (dir && (d = readdir(dir))) {
				char rel[64];

				if (strlen(d->d_name) != 2 || d->d_name[0] == '.')
					continue;
				snprintf(rel, sizeof(rel), SDT_BUILD_ID_DIR "/%.2s", d->d_name);
				sweep_tmp(&k, rel);
			}
			if (dir)
				closedir(dir);
			else
				close(bfd);
		}
	}
	/*
	 * A missing or out-of-date index is normal (perf added an entry, an adder was killed): it
	 * is rebuilt on its next use. A corrupt one, or one whose stamp says fresh while its
	 * records differ from the entries, is a problem.
	 */
	err = sdt_index_verify(c);
	if (err == -ENOENT || err == -ESTALE) {
		report(fn, ctx, "the event index is %s: it is rebuilt on its next use",
		       err == -ENOENT ? "missing" : "out of date");
	} else if (err) {
		k.problems++;
		report(fn, ctx, "the event index is corrupt");
	} else if (sdt_index_compare(c)) {
		k.problems++;
		report(fn, ctx, "the event index does not match the entries");
		err = -ESTALE;
	}
	if (err && repair) {
		/* we hold the lock: release it for the rebuild, which takes it */
		sdt_lock_release(lock);
		lock = -1;
		err = sdt_index_rebuild_full(c);
		if (!err)
			report(fn, ctx, "rebuilt the event index");
	} else {
		err = 0;
	}
out:
	if (lock >= 0)
		sdt_lock_release(lock);
	sdt_cache_entry_array_free(k.good.e, k.good.n);
	return err ? err : k.problems;
}

int sdt_cache__reindex(struct sdt_cache *c)
{
	return sdt_index_rebuild_full(c);
}
