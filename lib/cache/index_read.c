/* SPDX-License-Identifier: MIT */
/* The event index (see index.h) read: opened and checked, looked up, its event names. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "cache/index_internal.h"

int sdt_index_get_value(struct cdb *cdb, const char *key, const char **val, unsigned *len)
{
	int r = cdb_find(cdb, key, (unsigned)strlen(key));

	if (r <= 0)
		return -EINVAL;
	*len = cdb_datalen(cdb);
	*val = cdb_getdata(cdb);
	return *val ? 0 : -EINVAL;
}

/* Open the index file and check magic, end marker and stamp. */
int sdt_index_try_open(const struct sdt_cache *c, struct sdt_index **out, bool check_fresh)
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
	if (sdt_index_get_value(&idx->cdb, "\1magic", &val, &len))
		goto fail;
	if (len != strlen(SDT_INDEX_MAGIC) || memcmp(val, SDT_INDEX_MAGIC, len)) {
		/* another version's (an upgrade): out of date, not corrupt */
		if (len > 14 && !memcmp(val, "sdtrace-index ", 14))
			err = -ESTALE;
		goto fail;
	}
	if (sdt_index_get_value(&idx->cdb, "\1end", &val, &len))
		goto fail;
	if (sdt_index_get_value(&idx->cdb, "\1stamp", &val, &len))
		goto fail;
	err = check_fresh ? sdt_index_check_stamp(c, val, len) : 0;
	if (err)
		goto fail;
	*out = idx;
	return 0;
fail:
	sdt_index_close(idx);
	return err;
}

/* Open the index if it is fresh, racy or not (for checks: racy is not a problem). */
int sdt_index_try_open_any(const struct sdt_cache *c, struct sdt_index **out)
{
	int err = sdt_index_try_open(c, out, true);

	return err == -EAGAIN ? sdt_index_try_open(c, out, false) : err;
}

void sdt_index_close(struct sdt_index *idx)
{
	if (!idx)
		return;
	cdb_free(&idx->cdb);
	close(idx->fd);
	free(idx);
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

void sdt_cache_names__free(char **names, size_t n)
{
	size_t i;

	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}
