/* SPDX-License-Identifier: MIT */
/*
 * The event index (see index.h) built: a record per event, probe and entry of the cache (the
 * previous index's reused for entries it knew), written to a temporary file under the lock and
 * renamed; in memory for a cache this process may not write; compared with the cache.
 */
#include <cdb.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "cache/index_internal.h"
#include "cache/probes_file.h"
#include "util/lockfile.h"

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
		if (!sdt_index_get_value(&rs->old->cdb, key, &v, &vl) && vl == strlen(path) &&
		    !memcmp(v, path, vl)) {
			key[0] = 'B';
			if (!sdt_index_get_value(&rs->old->cdb, key, &v, &vl) &&
			    !memchr(v, '\0', vl) && vl >= strlen(stamp) &&
			    !memcmp(v, stamp, strlen(stamp)) && v[vl - 1] == '\n')
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
			if (sdt_buf_addf(&key, "x:%s", bid) ||
			    sdt_buf_add(&dmg, path, strlen(path)) || sdt_buf_add(&dmg, "", 1) ||
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
	err = sdt_index_walk(c, add_entry_records, NULL, rs, stamp);
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

	if (reuse && sdt_index_try_open(c, &rs.old, false))
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

int sdt_index_write(const struct sdt_cache *c, bool reuse)
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
int sdt_index_open_private(const struct sdt_cache *c, struct sdt_index **out)
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

/* May the index file be written? Not by a no_create cache where there is none yet. */
bool sdt_index_may_create(const struct sdt_cache *c)
{
	return !c->no_create ||
	       (c->rootfd >= 0 && !faccessat(c->rootfd, SDT_INDEX_NAME, F_OK, AT_SYMLINK_NOFOLLOW));
}

static int rebuild(struct sdt_cache *c, bool reuse)
{
	int lock, err;

	if (!sdt_index_may_create(c))
		return sdt_err(-EROFS, "'%s': opened to create nothing: no event index is written",
			       c->root);
	lock = sdt_cache_lock(c, SDT_INDEX_LOCK, true);
	if (lock < 0)
		return sdt_err(lock, "'%s': cannot lock the event index: %s", c->root,
			       strerror(-lock));
	err = sdt_index_write(c, reuse);
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

int sdt_index_compare(struct sdt_cache *c)
{
	struct records want = {0}, have = {0};
	struct sdt_buf stamp = {0};
	struct sdt_index *idx = NULL;
	unsigned pos;
	size_t i, n = 0;
	int r, err;

	err = sdt_index_try_open_any(c, &idx);
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
