/* SPDX-License-Identifier: MIT */
/*
 * The cache's layout: where an entry lives, opening inside the root without following symlinks,
 * and writing an entry (elf, probes, sdtrace.meta, then the .build-id link). See cache.h.
 */
#include <dirent.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "scan/file.h"
#include "cache/index.h"
#include "util/lockfile.h"
#include "cache/meta.h"
#include "cache/probes_file.h"
#include "scan/find.h"

/*
 * Root using a cache another user owns (sudo kept $HOME, a --cache-dir or $SDTRACE_CACHE_DIR
 * under someone's home): that user chooses which binaries and events it holds, and so what a
 * system-wide session of root arms. Said once per process, not refused: it may be meant.
 */
static void warn_foreign(const struct sdt_cache *c)
{
	static bool warned;
	struct stat st;

	if (geteuid() != 0 || fstat(c->rootfd, &st) || st.st_uid == 0 ||
	    __atomic_exchange_n(&warned, true, __ATOMIC_RELAXED))
		return;
	sdt_print(SDT_WARN,
		  "the cache '%s' belongs to uid %u, not root: that user decides which "
		  "binaries and events it holds (--cache-dir or $SDTRACE_CACHE_DIR name "
		  "root's own)\n",
		  c->root, (unsigned int)st.st_uid);
}

int sdt_cache__open(const char *root, const struct sdt_cache_opts *opts, struct sdt_cache **out)
{
	struct sdt_cache_opts o;
	struct sdt_cache *c;
	char *dflt = NULL;
	int err;

	*out = NULL;
	err = SDT_OPTS_COPY(&o, opts, sdt_cache_opts);
	if (err)
		return err;
	if (!root || !*root) {
		const char *env = getenv("SDTRACE_CACHE_DIR"), *home = getenv("HOME");

		if (env && *env)
			root = env;
		else if (home && *home)
			root = dflt = sdt_asprintf("%s/.debug", home);
		else
			return sdt_err(-EINVAL,
				       "no cache directory: set SDTRACE_CACHE_DIR or HOME");
		if (!root)
			return sdt_err(-ENOMEM, "out of memory");
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		free(dflt);
		return sdt_err(-ENOMEM, "out of memory");
	}
	c->rootfd = -1;
	c->root = dflt ? dflt : sdt_strdup(root);
	if (!c->root) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto fail;
	}
	c->no_copy = o.no_copy;
	c->no_create = o.no_create;
	if (!c->no_create && mkdir(c->root, 0777) < 0 && errno != EEXIST) {
		err = sdt_err(-errno, "cannot create the cache directory '%s': %s", c->root,
			      strerror(errno));
		goto fail;
	}
	c->rootfd = open(c->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->rootfd < 0 && errno == ENOENT && c->no_create) {
		/* nothing cached yet: an empty cache, looked at without creating it */
		*out = c;
		return 0;
	}
	if (c->rootfd < 0) {
		err = sdt_err(-errno, "cannot open the cache directory '%s': %s", c->root,
			      strerror(errno));
		goto fail;
	}
	warn_foreign(c);
	*out = c;
	return 0;
fail:
	sdt_cache__free(c);
	return err;
}

void sdt_cache__free(struct sdt_cache *c)
{
	if (!c)
		return;
	if (c->rootfd >= 0)
		close(c->rootfd);
	free(c->root);
	free(c);
}

const char *sdt_cache__root(const struct sdt_cache *c)
{
	return c->root;
}

int sdt_cache_lock(const struct sdt_cache *c, const char *name, bool exclusive)
{
	if (c->rootfd < 0)
		return -ENOENT; /* no_create, and there is no cache */
	return exclusive ? sdt_lock_take(c->rootfd, name) : sdt_lock_take_shared(c->rootfd, name);
}

int sdt_cache_lock_entries(const struct sdt_cache *c, bool exclusive)
{
	return sdt_cache_lock(c, SDT_ENTRIES_LOCK, exclusive);
}

bool sdt_valid_build_id(const char *s)
{
	size_t n = strlen(s), i;

	if (n < 4 || n > SDT_BUILD_ID_HEX_MAX || n % 2)
		return false;
	for (i = 0; i < n; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	}
	return true;
}

/*
 * Cut the first component off *@p (in place; *@p moves past it, NULL after the last): 0, or
 * -EINVAL for an empty, "." or ".." component, which a cache path never has.
 */
static int cut_component(char **p, char **comp)
{
	char *next = strchr(*p, '/');

	if (next)
		*next++ = '\0';
	*comp = *p;
	*p = next;
	return !**comp || !strcmp(*comp, ".") || !strcmp(*comp, "..") ? -EINVAL : 0;
}

/* Component by component, O_NOFOLLOW each: for kernels without openat2. */
static int openat_slow(int rootfd, const char *rel, int flags)
{
	char *copy = sdt_strdup(rel), *p, *comp;
	int fd, err = 0;

	if (!copy)
		return -ENOMEM;
	fd = dup(rootfd);
	for (p = copy; fd >= 0 && p && *p;) {
		int nfd;

		err = cut_component(&p, &comp);
		if (err)
			break;
		if (p)
			nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		else
			nfd = openat(fd, comp, flags | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (nfd < 0) {
			err = -errno;
			break;
		}
		close(fd);
		fd = nfd;
	}
	free(copy);
	if (err) {
		if (fd >= 0)
			close(fd);
		return err;
	}
	return fd < 0 ? -errno : fd;
}

int sdt_cache_openat(const struct sdt_cache *c, const char *rel, int flags)
{
	struct open_how how = {
	    .flags = (uint64_t)(flags | O_CLOEXEC | O_NOFOLLOW),
	    .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	if (c->rootfd < 0)
		return -ENOENT; /* a no_create cache without a directory holds nothing */
	if (flags & O_CREAT)
		how.mode = 0666;
	fd = syscall(SYS_openat2, c->rootfd, rel, &how, sizeof(how));
	if (fd >= 0)
		return (int)fd;
	if (errno != ENOSYS && errno != EPERM)
		return -errno;
	return openat_slow(c->rootfd, rel, flags);
}

/* ---- what an entry write must make durable ------------------------------------------------ */

void sdt_sync_set_add(struct sdt_sync_set *s, int fd, bool file)
{
	if (fd < 0)
		return;
	if (s && s->keep && s->n < SDT_SYNC_SET_MAX &&
	    !sdt_grow((void **)&s->fd, &s->cap, s->n + 1, sizeof(int))) {
		s->fd[s->n++] = fd;
		if (file) { /* after the other files: the first directory moves to the end */
			s->fd[s->n - 1] = s->fd[s->nfiles];
			s->fd[s->nfiles++] = fd;
		}
		return;
	}
	/* full (or out of memory): durable now rather than later */
	if (s && s->keep && fsync(fd) < 0 && errno != EINVAL && !s->err)
		s->err = -errno;
	close(fd);
}

int sdt_sync_set_flush(struct sdt_sync_set *s)
{
	int err = s->err;
	size_t i;

	for (i = 0; i < s->n; i++) {
		if (fsync(s->fd[i]) < 0 && errno != EINVAL && !err)
			err = -errno;
		close(s->fd[i]);
	}
	s->n = s->nfiles = 0;
	s->err = 0;
	return err;
}

void sdt_sync_set_drop(struct sdt_sync_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		close(s->fd[i]);
	free(s->fd);
	s->fd = NULL;
	s->n = s->nfiles = s->cap = 0;
	s->err = 0;
}

/*
 * mkdir -p @rel beneath the root, refusing symlinks, for a writer that must make it durable:
 * returns an O_DIRECTORY fd of @rel or -errno, and every directory in which a directory was
 * created (the deepest one that existed, then each created but @rel) joins @s. One openat2 when
 * @rel exists, two when only its last component is missing (an entry in a known directory), and
 * otherwise one mkdirat and one openat per component: no walk back up.
 */
static int mkdirs_synced(const struct sdt_cache *c, const char *rel, struct sdt_sync_set *s)
{
	char *copy, *p, *comp, *slash;
	int fd, nfd, err = 0;

	fd = sdt_cache_openat(c, rel, O_RDONLY | O_DIRECTORY);
	if (fd != -ENOENT)
		return fd;
	copy = sdt_strdup(rel);
	if (!copy)
		return -ENOMEM;
	slash = strrchr(copy, '/');
	fd = -ENOENT;
	if (slash && slash[1]) {
		*slash = '\0';
		fd = sdt_cache_openat(c, copy, O_RDONLY | O_DIRECTORY);
		*slash = '/';
	}
	if (fd >= 0) {
		p = slash + 1; /* the parent exists: only the last component is missing */
	} else if (fd == -ENOENT) {
		p = copy; /* from the root down */
		fd = dup(c->rootfd);
		if (fd < 0)
			err = -errno;
	} else {
		err = fd;
	}
	while (!err && p && *p) {
		bool made;

		err = cut_component(&p, &comp);
		if (err)
			break;
		made = !mkdirat(fd, comp, 0777);
		if (!made && errno != EEXIST) {
			err = -errno;
			break;
		}
		nfd = openat(fd, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0) {
			err = -errno;
			break;
		}
		if (made)
			sdt_sync_set_add(s, fd, false); /* its new name must be durable */
		else
			close(fd);
		fd = nfd;
	}
	free(copy);
	if (err) {
		if (fd >= 0)
			close(fd);
		return err;
	}
	return fd;
}

char *sdt_cache_entry_rel(const char *path, const char *bid)
{
	while (*path == '/')
		path++;
	return sdt_asprintf("%s/%s", path, bid);
}

char *sdt_cache_link_path(const char *target, const char *bid)
{
	size_t tl = strlen(target), bl = strlen(bid);
	const char *p;

	if (tl < 6 + 1 + bl + 1 || strncmp(target, "../../", 6) || strcmp(target + tl - bl, bid) ||
	    target[tl - bl - 1] != '/')
		return NULL;
	/* no "..", ".", or empty component in the path part */
	for (p = target + 6; p < target + tl - bl - 1;) {
		const char *slash = memchr(p, '/', (size_t)(target + tl - bl - 1 - p));
		size_t n = slash ? (size_t)(slash - p) : (size_t)(target + tl - bl - 1 - p);

		if (!n || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return NULL;
		p += n + 1;
	}
	return sdt_asprintf("/%.*s", (int)(tl - 6 - bl - 1), target + 6);
}

int sdt_cache_read_link(const struct sdt_cache *c, const char *bid, char **path)
{
	char rel[SDT_BUILD_ID_HEX_MAX + 16], target[PATH_MAX];
	ssize_t n;

	*path = NULL;
	if (!sdt_valid_build_id(bid))
		return -EINVAL;
	snprintf(rel, sizeof(rel), SDT_BUILD_ID_DIR "/%.2s/%s", bid, bid + 2);
	n = readlinkat(c->rootfd, rel, target, sizeof(target) - 1);
	if (n < 0)
		return errno == EINVAL ? -EINVAL : -errno;
	target[n] = '\0';
	*path = sdt_cache_link_path(target, bid);
	return *path ? 0 : -EINVAL;
}

int sdt_cache_read_entry_file(const struct sdt_cache *c, const char *path, const char *bid,
			      const char *name, char **text, size_t *len)
{
	char *rel = sdt_cache_entry_rel(path, bid);
	int dfd, err;

	*text = NULL;
	if (!rel)
		return -ENOMEM;
	dfd = sdt_cache_openat(c, rel, O_RDONLY | O_DIRECTORY);
	free(rel);
	if (dfd < 0)
		return dfd;
	err = sdt_read_file_at(dfd, name, SDT_PROBES_MAX_SIZE, text, len);
	close(dfd);
	return err;
}

int sdt_cache_scan(const char *path, struct sdt_file **out, struct stat *st, int *fd_out)
{
	char proc[64];
	struct sdt_file *f;
	int fd, err;

	*out = NULL;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		err = -errno;
		return sdt_err(err, "cannot open '%s': %s", path, strerror(-err));
	}
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
		close(fd);
		return sdt_err(-EBADF, "'%s': not a regular file", path);
	}
	/* the inode we fstat'ed, by its descriptor: a rename meanwhile cannot swap it */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	if (access(proc, F_OK) < 0)
		snprintf(proc, sizeof(proc), "%s", path); /* no /proc: by path, as a last resort */
	err = sdt_file__open(strlen(proc) < sizeof(proc) - 1 ? proc : path, NULL, &f);
	if (err) {
		/* the message names the descriptor's path: name the file instead */
		const char *m = sdt_errmsg();
		size_t pl = strlen(proc);

		close(fd);
		if (m[0] == '\'' && !strncmp(m + 1, proc, pl) && !strncmp(m + 1 + pl, "': ", 3)) {
			char *rest = sdt_strdup(m + 1 + pl + 3);

			err = rest ? sdt_err(err, "'%s': %s", path, rest) : err;
			free(rest);
			return err;
		}
		return sdt_err_prefix(err, "'%s'", path);
	}
	free(f->path);
	f->path = sdt_strdup(path);
	if (!f->path) {
		sdt_file__free(f);
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	*out = f;
	if (fd_out)
		*fd_out = fd;
	else
		close(fd);
	return 0;
}

/*
 * Write @name in @dfd under a temporary name renamed over it. With @s keeping descriptors, the
 * file's writeback is started now (so that one journal commit covers every file of the batch)
 * and its descriptor joins @s, to be fsync'ed before the entry's link is written; @strict: fsync
 * before the rename (the entry is already linked: its old file stays until the new one is
 * durable).
 */
static int write_file_at(int dfd, const char *name, int tfd, const char *tmp,
			 struct sdt_sync_set *s, bool strict)
{
	int err = 0;

	if (strict) {
		if (fsync(tfd) < 0)
			err = -errno;
	} else if (s && s->keep) {
		sync_file_range(tfd, 0, 0, SYNC_FILE_RANGE_WRITE); /* only a hint: fsync follows */
	}
	if (!err && renameat(dfd, tmp, dfd, name) < 0)
		err = -errno;
	if (err) {
		sdt_tmp_abort(dfd, tfd, tmp);
		return err;
	}
	if (strict)
		close(tfd);
	else
		sdt_sync_set_add(s, tfd, true);
	return 0;
}

static int write_data_at(int dfd, const char *name, const void *data, size_t len,
			 struct sdt_sync_set *s, bool strict)
{
	char tmp[256];
	int fd, err;

	fd = sdt_tmp_create(dfd, name, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	err = sdt_write_all(fd, data, len);
	if (err) {
		sdt_tmp_abort(dfd, fd, tmp);
		return err;
	}
	return write_file_at(dfd, name, fd, tmp, s, strict);
}

/*
 * The next extent of data of @fd at or after @off and below @end, in [*start, *stop): false when
 * there is none. Where SEEK_DATA fails (but with ENXIO: no data after @off), the rest is data.
 */
static bool next_data(int fd, off_t off, off_t end, off_t *start, off_t *stop)
{
	off_t d, h;

	if (off >= end)
		return false;
	d = lseek(fd, off, SEEK_DATA);
	if (d < 0 && errno == ENXIO)
		return false;
	if (d < 0)
		d = off;
	if (d >= end)
		return false;
	h = lseek(fd, d, SEEK_HOLE);
	*start = d;
	*stop = h < 0 || h > end ? end : h;
	return true;
}

/* The bytes of data (holes left out) in the first @size bytes of @fd. */
static uint64_t data_bytes(int fd, off_t size)
{
	off_t start, stop, off = 0;
	uint64_t n = 0;

	while (next_data(fd, off, size, &start, &stop)) {
		n += (uint64_t)(stop - start);
		off = stop;
	}
	return n;
}

/* -EFBIG (and @why) when a copy of @fd would write more than SDT_CACHE_MAX_COPY bytes. */
static int check_copy(int fd, const struct stat *st, char *why, size_t whysz)
{
	uint64_t data = data_bytes(fd, st->st_size);

	if (data <= SDT_CACHE_MAX_COPY)
		return 0;
	snprintf(why, whysz,
		 "its copy would take %" PRIu64 " bytes (of %lld), more than the limit of %llu per "
		 "entry: add it with --no-copy",
		 data, (long long)st->st_size, SDT_CACHE_MAX_COPY);
	return -EFBIG;
}

/*
 * Copy the first @size bytes of @fd to the empty @tfd, holes as holes (skipped, and the copy
 * given its size by ftruncate), writing at most @budget bytes (else -EFBIG and *@over: holes
 * were filled since they were counted).
 */
static int copy_sparse(int tfd, int fd, off_t size, uint64_t budget, bool *over)
{
	off_t start, stop, off = 0;

	*over = false;
	while (next_data(fd, off, size, &start, &stop)) {
		if ((uint64_t)(stop - start) > budget) {
			*over = true;
			return -EFBIG;
		}
		budget -= (uint64_t)(stop - start);
		if (lseek(tfd, start, SEEK_SET) < 0)
			return -errno;
		for (off = start; off < stop;) {
			ssize_t n = sendfile(tfd, fd, &off, (size_t)(stop - off));

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				return n < 0 ? -errno : -EIO;
		}
	}
	return ftruncate(tfd, size) < 0 ? -errno : 0;
}

/*
 * `elf`: a hard link to the source when on the same filesystem, else a copy of @fd. The link is
 * made to the inode we scanned, through its descriptor (/proc/self/fd/N with AT_SYMLINK_FOLLOW:
 * a rename of the path meanwhile cannot swap it), straight to its name when there is none yet: a
 * hard link appears whole, so no temporary is needed. Otherwise (no /proc, an `elf` to replace)
 * by path under a temporary name, checked to be the inode we scanned, then renamed. A copy keeps
 * the holes of a sparse file and writes at most SDT_CACHE_MAX_COPY bytes (@why says so).
 */
static int write_elf(int dfd, const char *path, int fd, const struct stat *st,
		     struct sdt_sync_set *s, bool strict, char *why, size_t whysz)
{
	struct stat est;
	char tmp[256], proc[64];
	bool exists, over;
	int tfd, err;

	exists = !fstatat(dfd, "elf", &est, AT_SYMLINK_NOFOLLOW);
	if (exists && S_ISREG(est.st_mode) && est.st_size == st->st_size)
		return 0;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	/*
	 * No data is written: the new name is made durable with the directory's fsync. The source
	 * file's own data is its owner's business (perf does not sync it either).
	 */
	if (!exists && !linkat(AT_FDCWD, proc, dfd, "elf", AT_SYMLINK_FOLLOW))
		return 0;
	/* a hard link under a temporary name, then renamed into place */
	tfd = sdt_tmp_create(dfd, "elf", tmp, sizeof(tmp));
	if (tfd < 0)
		return tfd;
	close(tfd);
	unlinkat(dfd, tmp, 0);
	if (!linkat(AT_FDCWD, path, dfd, tmp, 0)) {
		if (!fstatat(dfd, tmp, &est, AT_SYMLINK_NOFOLLOW) && est.st_ino == st->st_ino &&
		    est.st_dev == st->st_dev) {
			if (renameat(dfd, tmp, dfd, "elf") < 0) {
				err = -errno;
				unlinkat(dfd, tmp, 0);
				return err;
			}
			return 0;
		}
		unlinkat(dfd, tmp, 0); /* the path changed under us: copy what we scanned */
	}
	/* a copy: its data (holes cost nothing) must stay under the limit */
	err = check_copy(fd, st, why, whysz);
	if (err)
		return err;
	tfd = sdt_tmp_create(dfd, "elf", tmp, sizeof(tmp));
	if (tfd < 0)
		return tfd;
	err = copy_sparse(tfd, fd, st->st_size, SDT_CACHE_MAX_COPY, &over);
	if (err) {
		if (over)
			snprintf(why, whysz,
				 "its copy grew past the limit of %llu bytes per entry while it "
				 "was written", SDT_CACHE_MAX_COPY);
		sdt_tmp_abort(dfd, tfd, tmp);
		return err;
	}
	return write_file_at(dfd, "elf", tfd, tmp, s, strict);
}

int sdt_cache_write_link(const struct sdt_cache *c, const char *bid, const char *rel,
			 struct sdt_sync_set *s)
{
	char xx[3] = {bid[0], bid[1], 0}, *target;
	bool made;
	int bfd, xfd, err = 0;

	bfd = mkdirs_synced(c, SDT_BUILD_ID_DIR, s);
	if (bfd < 0)
		return bfd;
	made = !mkdirat(bfd, xx, 0777);
	if (!made && errno != EEXIST) {
		err = -errno;
		close(bfd);
		return err;
	}
	xfd = openat(bfd, xx, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (xfd < 0) {
		err = -errno;
		close(bfd);
		return err;
	}
	if (made)
		sdt_sync_set_add(s, bfd, false);
	else
		close(bfd);
	target = sdt_asprintf("../../%s", rel);
	if (!target) {
		close(xfd);
		return -ENOMEM;
	}
	/*
	 * A symlink is created whole, and never over an existing name: no temporary, and another
	 * entry's link is never replaced (EEXIST: kept).
	 */
	if (symlinkat(target, xfd, bid + 2) < 0 && errno != EEXIST)
		err = -errno;
	free(target);
	if (err)
		close(xfd);
	else
		sdt_sync_set_add(s, xfd, false);
	return err;
}

/*
 * Queue the link of a written entry for the batch; the descriptors of @s join the batch's set,
 * unless that would hold too many: then the batch syncs the whole file system instead.
 */
static int defer_link(struct sdt_deferred *d, const char *bid, const char *rel,
		      struct sdt_sync_set *s)
{
	struct sdt_deferred_link l = {sdt_strdup(bid), sdt_strdup(rel)};
	size_t i;
	int err = 0;

	pthread_mutex_lock(&d->lock);
	if (!l.bid || !l.rel || sdt_grow((void **)&d->links, &d->cap, d->n + 1, sizeof(l)))
		err = -ENOMEM;
	else
		d->links[d->n++] = l;
	if (!err && d->files.keep && d->files.n + s->n > SDT_SYNC_SET_MAX) {
		sdt_sync_set_drop(&d->files);
		d->files.keep = false;
	}
	if (!err && d->files.keep) {
		for (i = 0; i < s->n; i++)
			sdt_sync_set_add(&d->files, s->fd[i], i < s->nfiles);
		s->n = s->nfiles = 0;
	}
	pthread_mutex_unlock(&d->lock);
	if (err) {
		free(l.bid);
		free(l.rel);
	}
	return err;
}

/*
 * An entry file larger than its readers take (sdt_cache_read_entry_file(): SDT_PROBES_MAX_SIZE)
 * is never written: the entry would be broken, and lookups would silently find nothing in it.
 */
static int check_size(const char *name, size_t len, char *why, size_t whysz)
{
	if (len <= SDT_PROBES_MAX_SIZE)
		return 0;
	snprintf(why, whysz, "its %s file would be %zu bytes, more than the limit of %u", name, len,
		 SDT_PROBES_MAX_SIZE);
	return -EFBIG;
}

int sdt_cache_write_entry(struct sdt_cache *c, const struct sdt_file *f, const char *path,
			  const struct stat *st, int fd, enum sdt_cache_result *res)
{
	struct sdt_buf probes = {0}, meta = {0};
	struct sdt_probes old = {0};
	struct sdt_sync_set s = {.keep = true};
	struct stat root_st;
	char *rel = NULL, *linked = NULL, *text = NULL, why[256] = "";
	bool relink = false;
	size_t len;
	int dfd = -1, lock = -1, err;

	/*
	 * A file read through another process's root (/proc/PID/root/usr/bin/app, a container's) is
	 * cached under the path that process knows it by (/usr/bin/app), as perf does: the PID is
	 * gone with the process, the build-id keys the entry, and the copy is the file itself.
	 */
	if (sdt_proc_root_prefix(path))
		path = path[sdt_proc_root_prefix(path)] ? path + sdt_proc_root_prefix(path) : "/";
	rel = sdt_cache_entry_rel(path, f->build_id);
	if (!rel) {
		err = -ENOMEM;
		goto out;
	}
	/* no removal of this entry between reading its link and writing it (a batch holds it) */
	if (!c->defer) {
		lock = sdt_cache_lock_entries(c, false);
		if (lock < 0) {
			err = lock;
			snprintf(why, sizeof(why), "cannot lock its entries: %s", strerror(-err));
			goto out;
		}
	}
	/* the build-id is already cached for another path: perf keeps the first, so do we */
	err = sdt_cache_read_link(c, f->build_id, &linked);
	if (!err && strcmp(linked, path)) {
		*res = SDT_CACHE_UNCHANGED;
		goto out;
	}
	if (!err) {
		relink = true;
		/* same entry: unchanged when its meta describes this very file */
		if (!sdt_cache_read_entry_file(c, path, f->build_id, SDT_META_NAME, &text, &len)) {
			struct sdt_meta m;

			if (!sdt_meta_parse(text, len, &m)) {
				bool same =
				    sdt_meta_matches(&m, st) && !strcmp(m.build_id, f->build_id);

				sdt_meta_release(&m);
				if (same) {
					*res = SDT_CACHE_UNCHANGED;
					goto out;
				}
			}
			free(text);
			text = NULL;
		}
	}
	err = sdt_probes_render(f, path, &probes);
	if (err)
		goto out;
	err = sdt_meta_render(f, path, st, &meta);
	if (!err)
		err = check_size("probes", probes.len, why, sizeof(why));
	if (!err)
		err = check_size(SDT_META_NAME, meta.len, why, sizeof(why));
	/* a copy too large is refused before anything is created (write_elf() checks again) */
	if (!err && !relink && !c->no_copy && !fstat(c->rootfd, &root_st) &&
	    root_st.st_dev != st->st_dev)
		err = check_copy(fd, st, why, sizeof(why));
	if (err)
		goto out;
	/*
	 * What the entry writes and creates is kept in @s, made durable (fsync of exactly those
	 * files and directories), then the link that makes the entry is written. In a batch the
	 * batch does both for all its entries at once (cache_add.c); a large batch keeps nothing
	 * and syncs the file system instead. An entry that is already linked (a refresh) replaces
	 * each file only once the new one is durable.
	 */
	if (c->defer) {
		pthread_mutex_lock(&c->defer->lock);
		s.keep = c->defer->files.keep;
		pthread_mutex_unlock(&c->defer->lock);
	}
	dfd = mkdirs_synced(c, rel, &s);
	if (dfd < 0) {
		err = dfd;
		goto out;
	}
	/* keep the user probes (perf probe --cache) of an existing probes file */
	if (!sdt_read_file_at(dfd, "probes", SDT_PROBES_MAX_SIZE, &text, &len) &&
	    !sdt_probes_parse(text, len, &old)) {
		err = sdt_probes_render_user(&old, &probes);
		if (!err)
			err = check_size("probes", probes.len, why, sizeof(why));
		if (err)
			goto out;
	}
	if (!c->no_copy) {
		err = write_elf(dfd, path, fd, st, &s, relink, why, sizeof(why));
		if (err)
			goto out;
	}
	err = write_data_at(dfd, "probes", probes.buf ? probes.buf : "", probes.len, &s, relink);
	if (!err)
		err = write_data_at(dfd, SDT_META_NAME, meta.buf, meta.len, &s, relink);
	if (err)
		goto out;
	sdt_sync_set_add(&s, dfd, false);
	dfd = -1;
	if (c->defer) {
		err = s.err ? s.err : defer_link(c->defer, f->build_id, rel, &s);
	} else {
		err = sdt_sync_set_flush(&s);
		if (!err)
			err = sdt_cache_write_link(c, f->build_id, rel, &s);
		if (!err)
			err = sdt_sync_set_flush(&s);
	}
	if (!err)
		*res = SDT_CACHE_ADDED;
out:
	if (dfd >= 0)
		close(dfd);
	sdt_lock_release(lock);
	sdt_sync_set_drop(&s);
	sdt_probes_release(&old);
	sdt_buf_free(&probes);
	sdt_buf_free(&meta);
	free(text);
	free(linked);
	free(rel);
	if (err < 0)
		return sdt_err(err, "cannot cache '%s' in '%s': %s", path, c->root,
			       why[0] ? why : strerror(-err));
	return 0;
}

/* rm of the files of an entry directory (ours, perf's, and temporaries), then rmdir */
static int remove_dir_files(int parent, const char *name)
{
	static const char *const files[] = {"elf", "probes", SDT_META_NAME};
	size_t i;
	int dfd;

	dfd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return errno == ENOENT ? 0 : -errno;
	for (i = 0; i < ARRAY_SIZE(files); i++)
		unlinkat(dfd, files[i], 0);
	{
		int d2 = dup(dfd);
		DIR *dir = d2 >= 0 ? fdopendir(d2) : NULL;
		struct dirent *d;

		if (dir)
			rewinddir(dir);
		while (dir && (d = readdir(dir))) {
			if (sdt_tmp_is_ours(d->d_name))
				unlinkat(dfd, d->d_name, 0);
		}
		if (dir)
			closedir(dir);
		else if (d2 >= 0)
			close(d2);
	}
	close(dfd);
	if (unlinkat(parent, name, AT_REMOVEDIR) < 0 && errno != ENOENT)
		return -errno;
	return 0;
}

/* The link first: once it is gone the entry is gone, whatever happens next. */
static int remove_entry_locked(struct sdt_cache *c, const char *path, const char *bid)
{
	char link[SDT_BUILD_ID_HEX_MAX + 16], *linked = NULL, *rel, *slash;
	int pfd, err = 0;

	if (!sdt_cache_read_link(c, bid, &linked) && !strcmp(linked, path)) {
		snprintf(link, sizeof(link), SDT_BUILD_ID_DIR "/%.2s/%s", bid, bid + 2);
		if (unlinkat(c->rootfd, link, 0) < 0 && errno != ENOENT)
			err = -errno;
	}
	free(linked);
	if (err)
		return err;
	rel = sdt_cache_entry_rel(path, "");
	if (!rel)
		return -ENOMEM;
	rel[strlen(rel) - 1] = '\0';
	pfd = sdt_cache_openat(c, rel, O_RDONLY | O_DIRECTORY);
	if (pfd >= 0) {
		err = remove_dir_files(pfd, bid);
		close(pfd);
	}
	/* empty parents up to the root, as perf leaves none behind */
	while (!err && (slash = strrchr(rel, '/'))) {
		if (unlinkat(c->rootfd, rel, AT_REMOVEDIR) < 0)
			break;
		*slash = '\0';
	}
	if (!err && *rel)
		unlinkat(c->rootfd, rel, AT_REMOVEDIR);
	free(rel);
	return err;
}

int sdt_cache_remove_entry(struct sdt_cache *c, const char *path, const char *bid)
{
	int lock, err;

	if (!sdt_valid_build_id(bid))
		return -EINVAL;
	/* alone: no writer is between reading this entry's link and writing it */
	lock = sdt_cache_lock_entries(c, true);
	if (lock < 0)
		return lock;
	err = remove_entry_locked(c, path, bid);
	sdt_lock_release(lock);
	return err;
}
