/* SPDX-License-Identifier: MIT */
/*
 * The event index's view of the cache (see index.h): the .build-id links walked, each
 * directory stamped (mtime, count, hash of the names), and a recorded stamp checked against
 * the directories now.
 */
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "cache/index_internal.h"

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
int sdt_index_walk(const struct sdt_cache *c, sdt_link_fn fn, sdt_bad_link_fn bad, void *ctx,
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
	return sdt_index_walk(c, fn, bad, ctx, NULL);
}

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
int sdt_index_check_stamp(const struct sdt_cache *c, const char *stamp, size_t len)
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
