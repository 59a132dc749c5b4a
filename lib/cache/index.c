/* SPDX-License-Identifier: MIT */
/*
 * The event index (CDB) of the cache: opened fresh, else rebuilt under its lock (or in memory
 * for a cache we may not write). See index.h; the walk and its stamp are index_walk.c, the
 * reading index_read.c, the building index_build.c.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "cache/index_internal.h"
#include "util/lockfile.h"

static bool cannot_write(int err)
{
	return err == -EACCES || err == -EPERM || err == -EROFS;
}

static int try_open(const struct sdt_cache *c, struct sdt_index **out)
{
	int err = sdt_index_try_open(c, out, true);

	/*
	 * Fresh but racy: worth rebuilding if we may (the caller does, under the lock); a cache we
	 * cannot write is used as it is rather than indexed in memory at every lookup.
	 */
	if (err == -EAGAIN && faccessat(c->rootfd, ".", W_OK, AT_EACCESS))
		err = sdt_index_try_open(c, out, false);
	return err;
}

int sdt_index_verify(struct sdt_cache *c)
{
	struct sdt_index *idx;
	int err = sdt_index_try_open_any(c, &idx);

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
	if (!sdt_index_may_create(c)) {
		/* a reader that creates nothing, and there is no index: one in memory */
		err = sdt_index_open_private(c, out);
		if (err)
			return sdt_err(err, "'%s': cannot read the cache: %s", c->root,
				       strerror(-err));
		if (rebuilt)
			*rebuilt = true;
		return 0;
	}
	lock = sdt_lock_take(c->rootfd, SDT_INDEX_LOCK);
	if (lock < 0 && cannot_write(lock) && !sdt_index_open_private(c, out)) {
		if (rebuilt)
			*rebuilt = true;
		return 0;
	}
	if (lock < 0)
		return sdt_err(lock, "'%s': cannot lock the event index: %s", c->root,
			       strerror(-lock));
	/* someone may have rebuilt it while we waited for the lock */
	if (try_open(c, out)) {
		err = sdt_index_write(c, true);
		if (cannot_write(err) && !sdt_index_open_private(c, out)) {
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
			err = sdt_index_try_open(c, out, false);
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
