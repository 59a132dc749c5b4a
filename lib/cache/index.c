/* SPDX-License-Identifier: MIT */
/* The event index (CDB) of the cache: build, verify, look up. See index.h. */
#include <cdb.h>
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "cache/index.h"
#include "util/lockfile.h"
#include "cache/probes_file.h"

struct sdt_index {
	int fd;
	struct cdb cdb;
};

static int get_value(struct cdb *cdb, const char *key, const char **val, unsigned *len);
static int try_open_stamp(const struct sdt_cache *c, struct sdt_index **out, bool check_fresh);

/* ---- walking the .build-id links ------------------------------------------------------- */

static bool is_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	}
	return n > 0;
}

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* mtime, count and an order-independent hash of the valid names of directory @fd */
struct dir_stamp {
	int64_t sec, nsec;
	uint64_t count, hash;
};

static int stamp_dir(int fd, bool top, struct dir_stamp *st, sdt_link_fn fn, sdt_bad_link_fn bad,
		     void *ctx, const char *xx, const struct sdt_cache *c)
{
	struct stat sb;
	struct dirent *d;
	DIR *dir;
	int dfd, err = 0;

	if (fstat(fd, &sb) < 0)
		return -errno;
	st->sec = sb.st_mtim.tv_sec;
	st->nsec = sb.st_mtim.tv_nsec;
	st->count = st->hash = 0;
	dfd = dup(fd);
	if (dfd < 0)
		return -errno;
	dir = fdopendir(dfd);
	if (!dir) {
		close(dfd);
		return -errno;
	}
	rewinddir(dir); /* the dup shares its offset with @fd, which may have been read */
	while (!err && (d = readdir(dir))) {
		size_t n = strlen(d->d_name);

		if (top ? (n != 2 || !is_hex(d->d_name, 2)) : !is_hex(d->d_name, n))
			continue;
		st->count++;
		st->hash += name_hash(d->d_name);
		if (!top && (fn || bad)) {
			char target[PATH_MAX], bid[SDT_BUILD_ID_HEX_MAX + 1], *path = NULL;
			ssize_t tl = readlinkat(fd, d->d_name, target, sizeof(target) - 1);

			if (tl < 0 || n + 2 > SDT_BUILD_ID_HEX_MAX) {
				if (bad)
					err = bad(xx, d->d_name, ctx);
				continue;
			}
			target[tl] = '\0';
			memcpy(bid, xx, 2); /* n + 2 <= SDT_BUILD_ID_HEX_MAX: checked above */
			memcpy(bid + 2, d->d_name, n + 1);
			path = sdt_cache_link_path(target, bid);
			if (!path) {
				if (bad)
					err = bad(xx, d->d_name, ctx);
				continue;
			}
			if (fn)
				err = fn(bid, path, ctx);
			free(path);
		}
	}
	closedir(dir);
	(void)c;
	return err;
}

/* Walk every link; append the stamp lines to @stamp when not NULL. */
static int walk(const struct sdt_cache *c, sdt_link_fn fn, sdt_bad_link_fn bad, void *ctx,
		struct sdt_buf *stamp)
{
	struct dir_stamp top, st;
	struct dirent *d;
	DIR *dir = NULL;
	int bfd, dfd, err;

	bfd = c->rootfd < 0 ? (errno = ENOENT, -1)
			    : openat(c->rootfd, SDT_BUILD_ID_DIR,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (bfd < 0) {
		if (errno == ENOENT)
			return stamp ? sdt_buf_addstr(stamp, "none\n") : 0;
		return -errno;
	}
	err = stamp_dir(bfd, true, &top, NULL, NULL, NULL, NULL, c);
	if (err)
		goto out;
	if (stamp && sdt_buf_addf(stamp, ". %" PRId64 " %" PRId64 " %" PRIu64 " %" PRIx64 "\n",
				  top.sec, top.nsec, top.count, top.hash)) {
		err = -ENOMEM;
		goto out;
	}
	dfd = dup(bfd);
	if (dfd < 0 || !(dir = fdopendir(dfd))) {
		err = -errno;
		if (dfd >= 0)
			close(dfd);
		goto out;
	}
	rewinddir(dir);
	while (!err && (d = readdir(dir))) {
		int xfd;

		if (strlen(d->d_name) != 2 || !is_hex(d->d_name, 2))
			continue;
		xfd = openat(bfd, d->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (xfd < 0)
			continue; /* a foreign file or link named like a directory: not ours */
		err = stamp_dir(xfd, false, &st, fn, bad, ctx, d->d_name, c);
		close(xfd);
		if (!err && stamp &&
		    sdt_buf_addf(stamp, "%s %" PRId64 " %" PRId64 " %" PRIu64 " %" PRIx64 "\n",
				 d->d_name, st.sec, st.nsec, st.count, st.hash))
			err = -ENOMEM;
	}
out:
	if (dir)
		closedir(dir);
	close(bfd);
	return err;
}

int sdt_walk_links(const struct sdt_cache *c, sdt_link_fn fn, sdt_bad_link_fn bad, void *ctx)
{
	return walk(c, fn, bad, ctx, NULL);
}

/* ---- records ----------------------------------------------------------------------------- */

struct record {
	char *k, *v;
	size_t kl, vl;
};

struct records {
	struct record *r;
	size_t n, cap;
	const struct sdt_cache *c;
	struct sdt_index *old; /* the previous index, to reuse the events of known entries */
};

static int add_record(struct records *rs, const char *k, size_t kl, const char *v, size_t vl)
{
	struct record r = {.kl = kl, .vl = vl};

	r.k = malloc(kl + 1);
	r.v = malloc(vl + 1);
	if (!r.k || !r.v || sdt_grow((void **)&rs->r, &rs->cap, rs->n + 1, sizeof(r))) {
		free(r.k);
		free(r.v);
		return -ENOMEM;
	}
	memcpy(r.k, k, kl);
	r.k[kl] = '\0';
	memcpy(r.v, v, vl);
	r.v[vl] = '\0';
	rs->r[rs->n++] = r;
	return 0;
}

static void records_free(struct records *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++) {
		free(rs->r[i].k);
		free(rs->r[i].v);
	}
	free(rs->r);
	rs->r = NULL;
	rs->n = rs->cap = 0;
}

/*
 * The events of entry (@bid, @path) as "SIZE SEC NSEC\n" (its probes file's, when read), then
 * "!WHY\n" when that file is damaged or unreadable (its lost events are not silently missed: see
 * sdt_index_damage()), then "PROV:EV\n" lines, in probes order without repeats (then "#NAME\n",
 * its user probes): from the previous index when it has this
 * entry and the probes file is unchanged since (perf writes it after its link, and rewrites it in
 * place), else from the probes file. 1 when the entry has no probes file (not indexed).
 */
static int cmp_event(const void *pa, const void *pb, void *ctx)
{
	const struct sdt_probes_entry *ent = ctx, *a = &ent[*(const size_t *)pa],
				      *b = &ent[*(const size_t *)pb];
	int c = strcmp(a->provider, b->provider);

	if (!c)
		c = strcmp(a->event, b->event);
	if (!c)
		c = *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
	return c;
}

/*
 * *@dup[i]: SDT entry i names a provider:event an earlier entry named (sites of one event). By
 * sorting, not by comparing each entry with those before it: libjvm.so has 531 entries.
 */
static int dup_events(const struct sdt_probes *p, bool **dup)
{
	size_t *idx, n = 0, i;

	*dup = calloc(p->n ? p->n : 1, sizeof(**dup));
	idx = calloc(p->n ? p->n : 1, sizeof(*idx));
	if (!*dup || !idx) {
		free(idx);
		return -ENOMEM;
	}
	for (i = 0; i < p->n; i++)
		if (p->entries[i].kind == '%')
			idx[n++] = i;
	qsort_r(idx, n, sizeof(*idx), cmp_event, p->entries);
	for (i = 1; i < n; i++) {
		const struct sdt_probes_entry *a = &p->entries[idx[i - 1]],
					      *b = &p->entries[idx[i]];

		(*dup)[idx[i]] = !strcmp(a->provider, b->provider) && !strcmp(a->event, b->event);
	}
	free(idx);
	return 0;
}

/* "!WHY\n" when the probes file @p was parsed from is damaged: its lost events are reported */
static int damage_line(const struct sdt_probes *p, struct sdt_buf *out)
{
	char *why = sdt_probes_damage(p);
	int err = 0;

	if (why)
		err = sdt_buf_addf(out, "!%s\n", why);
	else if (p->bad_lines || p->unterminated)
		err = -ENOMEM;
	free(why);
	return err;
}

static int entry_events(struct records *rs, const char *bid, const char *path, struct sdt_buf *out)
{
	bool *dup = NULL;
	struct sdt_probes p = {0};
	char key[SDT_BUILD_ID_HEX_MAX + 3], *text = NULL, *rel, stamp[80];
	struct stat st;
	size_t len, i;
	int err;

	rel = sdt_cache_entry_rel(path, bid);
	if (!rel)
		return -ENOMEM;
	err = strlen(rel) + 8 < PATH_MAX ? 0 : -ENAMETOOLONG;
	if (!err) {
		char probes[PATH_MAX];

		snprintf(probes, sizeof(probes), "%s/probes", rel);
		err = fstatat(rs->c->rootfd, probes, &st, AT_SYMLINK_NOFOLLOW) ? -errno : 0;
	}
	free(rel);
	if (err)
		return 1; /* a link without probes: not indexed; `cache check` judges it */
	snprintf(stamp, sizeof(stamp), "%" PRIu64 " %" PRId64 " %" PRId64 "\n",
		 (uint64_t)st.st_size, (int64_t)st.st_mtim.tv_sec, (int64_t)st.st_mtim.tv_nsec);
	if (rs->old) {
		const char *v;
		unsigned vl;

		snprintf(key, sizeof(key), "b:%s", bid);
		if (!get_value(&rs->old->cdb, key, &v, &vl) && vl == strlen(path) &&
		    !memcmp(v, path, vl)) {
			key[0] = 'B';
			if (!get_value(&rs->old->cdb, key, &v, &vl) && !memchr(v, '\0', vl) &&
			    vl >= strlen(stamp) && !memcmp(v, stamp, strlen(stamp)) &&
			    v[vl - 1] == '\n')
				return sdt_buf_add(out, v, vl);
		}
	}
	if (sdt_buf_addstr(out, stamp))
		return -ENOMEM;
	err = sdt_cache_read_entry_file(rs->c, path, bid, "probes", &text, &len);
	if (err == -ENOENT)
		return 1; /* removed since the fstatat */
	if (err)
		return err == -ENOMEM || sdt_buf_addf(out, "!cannot be read: %s\n", strerror(-err))
			   ? -ENOMEM
			   : 0;
	err = sdt_probes_parse(text, len, &p);
	if (!err)
		err = damage_line(&p, out);
	if (!err)
		err = dup_events(&p, &dup);
	for (i = 0; i < p.n && !err; i++) {
		const struct sdt_probes_entry *e = &p.entries[i];

		if (e->kind != '%' || dup[i])
			continue;
		if (sdt_buf_addf(out, "%s:%s\n", e->provider, e->event))
			err = -ENOMEM;
	}
	/* user probes after the events: "#NAME" ("GROUP:NAME=..." headers) */
	for (i = 0; i < p.n && !err; i++) {
		const struct sdt_probes_entry *e = &p.entries[i];
		const char *colon = e->kind == '#' ? strchr(e->header, ':') : NULL;
		size_t nl = colon ? strcspn(colon + 1, "= ") : 0;
		char name[SDT_MAX_EVENT_NAME + 1];

		if (!colon || !nl || nl > SDT_MAX_EVENT_NAME)
			continue;
		memcpy(name, colon + 1, nl);
		name[nl] = '\0';
		if (sdt_valid_event_name(name, SDT_MAX_EVENT_NAME) &&
		    sdt_buf_addf(out, "#%s\n", name))
			err = -ENOMEM;
	}
	sdt_probes_release(&p);
	free(text);
	free(dup);
	return err;
}

static int add_entry_records(const char *bid, const char *path, void *ctx)
{
	struct records *rs = ctx;
	struct sdt_buf key = {0}, val = {0}, events = {0}, dmg = {0};
	const char *line, *nl;
	int err;

	err = entry_events(rs, bid, path, &events);
	if (err)
		goto out;
	err = -ENOMEM;
	if (sdt_buf_addstr(&val, bid) || sdt_buf_add(&val, "", 1) || sdt_buf_addstr(&val, path))
		goto out;
	if (sdt_buf_addf(&key, "b:%s", bid) || add_record(rs, key.buf, key.len, path, strlen(path)))
		goto out;
	sdt_buf_reset(&key);
	if (sdt_buf_addf(&key, "B:%s", bid) ||
	    add_record(rs, key.buf, key.len, events.buf ? events.buf : "", events.len))
		goto out;
	sdt_buf_reset(&key);
	if (sdt_buf_addf(&key, "f:%s", path) || add_record(rs, key.buf, key.len, bid, strlen(bid)))
		goto out;
	/* after the probes file's stamp line */
	line = events.buf ? strchr(events.buf, '\n') : NULL;
	for (line = line ? line + 1 : NULL; line && *line; line = nl + 1) {
		const char *colon;

		nl = strchr(line, '\n');
		if (nl && line[0] == '!') {
			/* a damaged probes file: x:BID "PATH\0WHY" */
			sdt_buf_reset(&key);
			if (sdt_buf_addf(&key, "x:%s", bid) || sdt_buf_add(&dmg, path, strlen(path)) ||
			    sdt_buf_add(&dmg, "", 1) ||
			    sdt_buf_add(&dmg, line + 1, (size_t)(nl - line - 1)) ||
			    add_record(rs, key.buf, key.len, dmg.buf, dmg.len))
				goto out;
			continue;
		}
		if (nl && line[0] == '#') {
			/* a user probe: u:NAME */
			sdt_buf_reset(&key);
			if (sdt_buf_addf(&key, "u:%.*s", (int)(nl - line - 1), line + 1) ||
			    add_record(rs, key.buf, key.len, val.buf, val.len))
				goto out;
			continue;
		}
		colon = nl ? memchr(line, ':', (size_t)(nl - line)) : NULL;
		if (!nl || !colon)
			break;
		sdt_buf_reset(&key);
		if (sdt_buf_addf(&key, "e:%.*s", (int)(nl - line), line) ||
		    add_record(rs, key.buf, key.len, val.buf, val.len))
			goto out;
		/* p:PROV once per entry: duplicates are dropped when the records are written */
		sdt_buf_reset(&key);
		if (sdt_buf_addf(&key, "p:%.*s", (int)(colon - line), line) ||
		    add_record(rs, key.buf, key.len, val.buf, val.len))
			goto out;
	}
	err = 0;
out:
	sdt_buf_free(&key);
	sdt_buf_free(&val);
	sdt_buf_free(&events);
	sdt_buf_free(&dmg);
	return err > 0 ? 0 : err;
}

static int cmp_record(const void *pa, const void *pb)
{
	const struct record *a = pa, *b = pb;
	size_t n = a->kl < b->kl ? a->kl : b->kl;
	int c = memcmp(a->k, b->k, n);

	if (!c)
		c = a->kl < b->kl ? -1 : a->kl > b->kl;
	if (!c) {
		n = a->vl < b->vl ? a->vl : b->vl;
		c = memcmp(a->v, b->v, n);
		if (!c)
			c = a->vl < b->vl ? -1 : a->vl > b->vl;
	}
	return c;
}

/* Everything a fresh index holds, sorted; the stamp in @stamp and the build time in @built. */
static int gen_records(const struct sdt_cache *c, struct records *rs, struct sdt_buf *stamp)
{
	struct timespec now;
	int err;

	rs->c = c;
	clock_gettime(CLOCK_REALTIME, &now);
	if (sdt_buf_addf(stamp, "built %" PRId64 "\n", (int64_t)now.tv_sec))
		return -ENOMEM;
	err = walk(c, add_entry_records, NULL, rs, stamp);
	if (err)
		return err;
	if (rs->n)
		qsort(rs->r, rs->n, sizeof(*rs->r), cmp_record);
	return 0;
}

/* ---- building ---------------------------------------------------------------------------- */

/* Write a complete index to @fd (the records of the cache now, @reuse: see sdt_index_rebuild). */
static int write_index_fd(const struct sdt_cache *c, int fd, bool reuse)
{
	struct records rs = {0};
	struct sdt_buf stamp = {0};
	struct cdb_make cm;
	char count[32];
	size_t i;
	int err;

	if (reuse && try_open_stamp(c, &rs.old, false))
		rs.old = NULL; /* none, or corrupt: read every entry */
	err = gen_records(c, &rs, &stamp);
	if (err)
		goto out;
	err = -EIO;
	if (cdb_make_start(&cm, fd) < 0)
		goto out;
	if (cdb_make_add(&cm, "\1magic", 6, SDT_INDEX_MAGIC, strlen(SDT_INDEX_MAGIC)) < 0 ||
	    cdb_make_add(&cm, "\1stamp", 6, stamp.buf, (unsigned)stamp.len) < 0)
		goto out;
	for (i = 0; i < rs.n; i++) {
		/* the same event at two sites of one entry: one record */
		if (i && !cmp_record(&rs.r[i - 1], &rs.r[i]))
			continue;
		if (rs.r[i].kl > 1u << 20 || rs.r[i].vl > 1u << 20 ||
		    cdb_make_add(&cm, rs.r[i].k, (unsigned)rs.r[i].kl, rs.r[i].v,
				 (unsigned)rs.r[i].vl) < 0)
			goto out;
	}
	snprintf(count, sizeof(count), "%zu", rs.n);
	if (cdb_make_add(&cm, "\1end", 4, count, (unsigned)strlen(count)) < 0 ||
	    cdb_make_finish(&cm) < 0)
		goto out;
	err = 0;
out:
	sdt_index_close(rs.old);
	records_free(&rs);
	sdt_buf_free(&stamp);
	return err;
}

static int write_index(const struct sdt_cache *c, bool reuse)
{
	char tmp[256];
	int fd, err;

	fd = sdt_tmp_create(c->rootfd, SDT_INDEX_NAME, tmp, sizeof(tmp));
	if (fd < 0) {
		err = fd;
		goto out;
	}
	err = write_index_fd(c, fd, reuse);
	if (err) {
		sdt_tmp_abort(c->rootfd, fd, tmp);
		goto out;
	}
	/* derived data: a rename lost to a power cut leaves the old index, found out of date */
	err = sdt_tmp_commit(c->rootfd, fd, tmp, SDT_INDEX_NAME, SDT_SYNC_FILE);
out:
	if (err)
		return sdt_err(err, "'%s': cannot write the event index: %s", c->root,
			       strerror(-err));
	return 0;
}

/*
 * A cache we may not write (another user's, a read-only mount): the index is built in an
 * anonymous file for this process only.
 */
static int open_private_index(const struct sdt_cache *c, struct sdt_index **out)
{
	struct sdt_index *idx;
	int fd, err;

	fd = memfd_create("sdtrace-index", MFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = write_index_fd(c, fd, true);
	idx = err ? NULL : calloc(1, sizeof(*idx));
	if (!err && !idx)
		err = -ENOMEM;
	if (!err && cdb_init(&idx->cdb, fd) < 0)
		err = -EINVAL;
	if (err) {
		free(idx);
		close(fd);
		return err;
	}
	idx->fd = fd;
	*out = idx;
	return 0;
}

static bool cannot_write(int err)
{
	return err == -EACCES || err == -EPERM || err == -EROFS;
}

/* May the index file be written? Not by a no_create cache where there is none yet. */
static bool may_create_index(const struct sdt_cache *c)
{
	return !c->no_create ||
	       (c->rootfd >= 0 && !faccessat(c->rootfd, SDT_INDEX_NAME, F_OK, AT_SYMLINK_NOFOLLOW));
}

static int rebuild(struct sdt_cache *c, bool reuse)
{
	int lock, err;

	if (!may_create_index(c))
		return sdt_err(-EROFS, "'%s': opened to create nothing: no event index is written",
			       c->root);
	lock = sdt_cache_lock(c, SDT_INDEX_LOCK, true);
	if (lock < 0)
		return sdt_err(lock, "'%s': cannot lock the event index: %s", c->root,
			       strerror(-lock));
	err = write_index(c, reuse);
	sdt_lock_release(lock);
	return err;
}

int sdt_index_rebuild(struct sdt_cache *c)
{
	return rebuild(c, true);
}

int sdt_index_rebuild_full(struct sdt_cache *c)
{
	return rebuild(c, false);
}

/* ---- opening and verifying --------------------------------------------------------------- */

static int get_value(struct cdb *cdb, const char *key, const char **val, unsigned *len)
{
	int r = cdb_find(cdb, key, (unsigned)strlen(key));

	if (r <= 0)
		return -EINVAL;
	*len = cdb_datalen(cdb);
	*val = cdb_getdata(cdb);
	return *val ? 0 : -EINVAL;
}

/* Compare the recorded stamp with the directories now. 0 fresh, -ESTALE otherwise. */
/* Parse "NAME SEC NSEC COUNT HEXHASH" without sscanf (a lookup parses up to 257 of them). */
static int parse_stamp_line(const char *line, char name[8], struct dir_stamp *d)
{
	const char *p = line;
	char *end;
	size_t n = strcspn(p, " ");

	if (!n || n >= 8)
		return -EINVAL;
	memcpy(name, p, n);
	name[n] = '\0';
	p += n;
	errno = 0;
	d->sec = strtoll(p, &end, 10);
	if (end == p || *end != ' ')
		return -EINVAL;
	p = end;
	d->nsec = strtoll(p, &end, 10);
	if (end == p || *end != ' ')
		return -EINVAL;
	p = end;
	d->count = strtoull(p, &end, 10);
	if (end == p || *end != ' ')
		return -EINVAL;
	p = end;
	d->hash = strtoull(p, &end, 16);
	if (end == p || *end || errno)
		return -EINVAL;
	return 0;
}

/*
 * Is the index still the cache's? 0 fresh, -ESTALE not, -EINVAL malformed, and -EAGAIN: fresh,
 * but some directory was modified in the second the index was built, so that only reading it
 * proved it unchanged (git's "racy" entries); rebuilding now gives a stamp that a plain stat of
 * each directory proves, so lookups stay cheap however large the cache.
 */
static int check_stamp(const struct sdt_cache *c, const char *stamp, size_t len)
{
	const char *p = stamp, *end = stamp + len;
	int64_t built = 0;
	bool racy = false;
	int bfd, err = 0;

	if (len >= 5 && !strncmp(p, "built", 5)) {
		if (sscanf(p, "built %" SCNd64, &built) != 1)
			return -EINVAL;
		p = memchr(p, '\n', (size_t)(end - p));
		if (!p)
			return -EINVAL;
		p++;
	}
	bfd = openat(c->rootfd, SDT_BUILD_ID_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (end - p == 5 && !strncmp(p, "none\n", 5)) {
		/* built when there was no .build-id: fresh while there still is none */
		if (bfd >= 0)
			close(bfd);
		return bfd < 0 && errno == ENOENT ? 0 : -ESTALE;
	}
	if (bfd < 0)
		return -ESTALE;
	while (p < end && !err) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char line[128], name[8];
		struct dir_stamp want, now;
		int fd;

		if (!nl || (size_t)(nl - p) >= sizeof(line)) {
			err = -EINVAL;
			break;
		}
		memcpy(line, p, (size_t)(nl - p));
		line[nl - p] = '\0';
		p = nl + 1;
		if (parse_stamp_line(line, name, &want)) {
			err = -EINVAL;
			break;
		}
		if (want.sec >= built - 1) {
			/* racy: modified in the build's second, so the mtime alone proves nothing
			 */
			fd =
			    strcmp(name, ".")
				? openat(bfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
				: dup(bfd);
			if (fd < 0) {
				err = -ESTALE;
				break;
			}
			racy = true;
			err = stamp_dir(fd, !strcmp(name, "."), &now, NULL, NULL, NULL, name, c);
			if (!err && (now.count != want.count || now.hash != want.hash))
				err = -ESTALE;
			close(fd);
		} else {
			struct stat sb;

			/* one syscall per directory: the cheap, common case */
			if (fstatat(bfd, strcmp(name, ".") ? name : "", &sb,
				    AT_SYMLINK_NOFOLLOW |
					(strcmp(name, ".") ? 0 : AT_EMPTY_PATH)) ||
			    !S_ISDIR(sb.st_mode))
				err = -ESTALE;
			else {
				now.sec = sb.st_mtim.tv_sec;
				now.nsec = sb.st_mtim.tv_nsec;
			}
		}
		if (!err && (now.sec != want.sec || now.nsec != want.nsec))
			err = -ESTALE;
	}
	close(bfd);
	if (!err && racy && time(NULL) >= built + 2)
		return -EAGAIN;
	return err;
}

/* Open the index file and check magic, end marker and stamp. */
static int try_open_stamp(const struct sdt_cache *c, struct sdt_index **out, bool check_fresh)
{
	struct sdt_index *idx;
	const char *val;
	unsigned len;
	int err;

	if (c->rootfd < 0)
		return -ENOENT;
	idx = calloc(1, sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	idx->fd = openat(c->rootfd, SDT_INDEX_NAME, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (idx->fd < 0) {
		err = -errno;
		free(idx);
		return err;
	}
	if (cdb_init(&idx->cdb, idx->fd) < 0) {
		close(idx->fd);
		free(idx);
		return -EINVAL;
	}
	err = -EINVAL;
	if (get_value(&idx->cdb, "\1magic", &val, &len))
		goto fail;
	if (len != strlen(SDT_INDEX_MAGIC) || memcmp(val, SDT_INDEX_MAGIC, len)) {
		/* another version's (an upgrade): out of date, not corrupt */
		if (len > 14 && !memcmp(val, "sdtrace-index ", 14))
			err = -ESTALE;
		goto fail;
	}
	if (get_value(&idx->cdb, "\1end", &val, &len))
		goto fail;
	if (get_value(&idx->cdb, "\1stamp", &val, &len))
		goto fail;
	err = check_fresh ? check_stamp(c, val, len) : 0;
	if (err)
		goto fail;
	*out = idx;
	return 0;
fail:
	sdt_index_close(idx);
	return err;
}

static int try_open(const struct sdt_cache *c, struct sdt_index **out)
{
	int err = try_open_stamp(c, out, true);

	/*
	 * Fresh but racy: worth rebuilding if we may (the caller does, under the lock); a cache we
	 * cannot write is used as it is rather than indexed in memory at every lookup.
	 */
	if (err == -EAGAIN && faccessat(c->rootfd, ".", W_OK, AT_EACCESS))
		err = try_open_stamp(c, out, false);
	return err;
}

/* Open the index if it is fresh, racy or not (for checks: racy is not a problem). */
static int try_open_any_fresh(const struct sdt_cache *c, struct sdt_index **out)
{
	int err = try_open_stamp(c, out, true);

	return err == -EAGAIN ? try_open_stamp(c, out, false) : err;
}

void sdt_index_close(struct sdt_index *idx)
{
	if (!idx)
		return;
	cdb_free(&idx->cdb);
	close(idx->fd);
	free(idx);
}

int sdt_index_verify(struct sdt_cache *c)
{
	struct sdt_index *idx;
	int err = try_open_any_fresh(c, &idx);

	if (!err)
		sdt_index_close(idx);
	return err;
}

int sdt_index_open(struct sdt_cache *c, struct sdt_index **out, bool *rebuilt)
{
	int err, lock;

	*out = NULL;
	if (rebuilt)
		*rebuilt = false;
	if (!try_open(c, out))
		return 0;
	if (!may_create_index(c)) {
		/* a reader that creates nothing, and there is no index: one in memory */
		err = open_private_index(c, out);
		if (err)
			return sdt_err(err, "'%s': cannot read the cache: %s", c->root,
				       strerror(-err));
		if (rebuilt)
			*rebuilt = true;
		return 0;
	}
	lock = sdt_lock_take(c->rootfd, SDT_INDEX_LOCK);
	if (lock < 0 && cannot_write(lock) && !open_private_index(c, out)) {
		if (rebuilt)
			*rebuilt = true;
		return 0;
	}
	if (lock < 0)
		return sdt_err(lock, "'%s': cannot lock the event index: %s", c->root,
			       strerror(-lock));
	/* someone may have rebuilt it while we waited for the lock */
	if (try_open(c, out)) {
		err = write_index(c, true);
		if (cannot_write(err) && !open_private_index(c, out)) {
			sdt_lock_release(lock);
			if (rebuilt)
				*rebuilt = true;
			return 0;
		}
		if (!err) {
			if (rebuilt)
				*rebuilt = true;
			/*
			 * The cache may have changed again since the walk; what we just wrote is
			 * still the best we have (and the next open rebuilds it): no stamp check.
			 */
			err = try_open_stamp(c, out, false);
		}
		if (err) {
			sdt_lock_release(lock);
			return sdt_err(err, "'%s': cannot open the event index: %s", c->root,
				       strerror(-err));
		}
	}
	sdt_lock_release(lock);
	return 0;
}

int sdt_index_find(struct sdt_index *idx, const char *key, sdt_value_fn fn, void *ctx)
{
	struct cdb_find cf;
	int r, err = 0;

	if (cdb_findinit(&cf, &idx->cdb, key, (unsigned)strlen(key)) < 0)
		return -EINVAL;
	while (!err && (r = cdb_findnext(&cf)) > 0) {
		const char *v = cdb_getdata(&idx->cdb);

		if (!v)
			return -EINVAL;
		err = fn(v, cdb_datalen(&idx->cdb), ctx);
	}
	if (!err && r < 0)
		return -EINVAL;
	return err;
}

int sdt_index_each(struct sdt_index *idx, const char *prefix, sdt_record_fn fn, void *ctx)
{
	size_t pl = strlen(prefix);
	unsigned pos;
	int r, err = 0;

	cdb_seqinit(&pos, &idx->cdb);
	while (!err && (r = cdb_seqnext(&pos, &idx->cdb)) > 0) {
		const char *k = cdb_getkey(&idx->cdb), *v = cdb_getdata(&idx->cdb);
		size_t kl = cdb_keylen(&idx->cdb);

		if (!k || !v)
			return -EINVAL;
		if (kl < pl || memcmp(k, prefix, pl))
			continue;
		err = fn(k, kl, v, cdb_datalen(&idx->cdb), ctx);
	}
	if (!err && r < 0)
		return -EINVAL;
	return err;
}

int sdt_index_compare(struct sdt_cache *c)
{
	struct records want = {0}, have = {0};
	struct sdt_buf stamp = {0};
	struct sdt_index *idx = NULL;
	unsigned pos;
	size_t i, n = 0;
	int r, err;

	err = try_open_any_fresh(c, &idx);
	if (err)
		goto out;
	err = gen_records(c, &want, &stamp);
	if (err)
		goto out;
	cdb_seqinit(&pos, &idx->cdb);
	while ((r = cdb_seqnext(&pos, &idx->cdb)) > 0) {
		const char *k = cdb_getkey(&idx->cdb), *v = cdb_getdata(&idx->cdb);

		if (!k || !v) {
			r = -1;
			break;
		}
		if (cdb_keylen(&idx->cdb) && k[0] == '\1')
			continue;
		err = add_record(&have, k, cdb_keylen(&idx->cdb), v, cdb_datalen(&idx->cdb));
		if (err)
			goto out;
	}
	if (r < 0) {
		err = -EINVAL;
		goto out;
	}
	if (have.n)
		qsort(have.r, have.n, sizeof(*have.r), cmp_record);
	for (i = 0; i < want.n; i++) {
		if (i && !cmp_record(&want.r[i - 1], &want.r[i]))
			continue;
		if (n >= have.n || cmp_record(&want.r[i], &have.r[n])) {
			err = -ESTALE;
			goto out;
		}
		n++;
	}
	if (n != have.n)
		err = -ESTALE;
out:
	sdt_index_close(idx);
	records_free(&want);
	records_free(&have);
	sdt_buf_free(&stamp);
	return err;
}

/* ---- the names it holds -------------------------------------------------------------------- */

struct names {
	char **v;
	size_t n, cap;
};

/* "e:PROV:EVENT" -> "PROV:EVENT" (once per value: duplicates go after the sort) */
static int on_event_key(const char *key, size_t klen, const char *val, size_t vlen, void *ctx)
{
	struct names *nm = ctx;
	char *name;

	(void)val;
	(void)vlen;
	if (klen < 5 || klen - 2 > 2 * SDT_MAX_EVENT_NAME + 1)
		return 0;
	name = sdt_strndup(key + 2, klen - 2);
	if (!name || sdt_grow((void **)&nm->v, &nm->cap, nm->n + 1, sizeof(*nm->v))) {
		free(name);
		return -ENOMEM;
	}
	nm->v[nm->n++] = name;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int sdt_index_event_names(struct sdt_index *idx, char ***names, size_t *n)
{
	struct names nm = {0};
	size_t i, k = 0;
	int err;

	*names = NULL;
	*n = 0;
	err = sdt_index_each(idx, "e:", on_event_key, &nm);
	if (err) {
		sdt_cache_names__free(nm.v, nm.n);
		return err;
	}
	if (nm.n)
		qsort(nm.v, nm.n, sizeof(*nm.v), cmp_name);
	for (i = 0; i < nm.n; i++) {
		if (k && !strcmp(nm.v[k - 1], nm.v[i]))
			free(nm.v[i]);
		else
			nm.v[k++] = nm.v[i];
	}
	*names = nm.v;
	*n = k;
	return 0;
}

int sdt_cache__event_names(struct sdt_cache *c, char ***names, size_t *n)
{
	struct sdt_index *idx;
	int err;

	*names = NULL;
	*n = 0;
	err = sdt_index_open(c, &idx, NULL);
	if (err)
		return err;
	err = sdt_index_event_names(idx, names, n);
	sdt_index_close(idx);
	if (err == -EINVAL)
		return sdt_err(err, "'%s': the event index is corrupt: run 'sdtrace cache check "
				    "--repair'",
			       c->root);
	return err == -ENOMEM ? sdt_err(err, "out of memory") : err;
}

void sdt_cache_names__free(char **names, size_t n)
{
	size_t i;

	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}
