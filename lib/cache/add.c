/* SPDX-License-Identifier: MIT */
/*
 * Adding to the cache: one file, or trees of files walked and scanned by worker threads.
 *
 * The walk collects real paths first (directories opened O_NOFOLLOW, so a symlink never leads
 * the walk out of the trees given; a symlink to a file is resolved and kept only when its
 * target lies inside one of those trees), removes duplicates, then the workers scan and write
 * entries in parallel. Files that are not regular (FIFOs, devices, sockets) are counted and never
 * opened; regular files are opened O_NONBLOCK. The index is rebuilt once, at the end.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "scan/file.h"
#include "cache/index.h"
#include "util/lockfile.h"
#include "scan/find.h"

int sdt_cache_add_one(struct sdt_cache *c, const char *real, enum sdt_cache_result *res,
		      bool *is_elf, bool *has_sdt)
{
	struct sdt_file *f = NULL;
	struct stat st;
	int fd = -1, err;

	*is_elf = *has_sdt = false;
	err = sdt_cache_scan(real, &f, &st, &fd);
	if (err == -ENOEXEC) {
		*res = SDT_CACHE_NOT_ELF;
		return 0;
	}
	if (err == -EBADF) {
		*res = SDT_CACHE_SKIPPED;
		return 0;
	}
	if (err)
		return err;
	*is_elf = true;
	if (!sdt_file__site_count(f)) {
		*res = SDT_CACHE_NO_SDT;
		goto out;
	}
	*has_sdt = true;
	if (!f->build_id) {
		*res = SDT_CACHE_NO_BUILD_ID;
		goto out;
	}
	err = sdt_cache_write_entry(c, f, real, &st, fd, res);
out:
	sdt_file__free(f);
	if (fd >= 0)
		close(fd);
	return err;
}

int sdt_cache__add(struct sdt_cache *c, const char *path, enum sdt_cache_result *res)
{
	enum sdt_cache_result r = SDT_CACHE_SKIPPED;
	char *real;
	bool is_elf, has_sdt;
	int err;

	real = sdt_user_path(path, true);
	if (!real)
		return -errno; /* the message names the file, or where a bare name was looked for */
	err = sdt_cache_add_one(c, real, &r, &is_elf, &has_sdt);
	free(real);
	if (!err && r == SDT_CACHE_ADDED)
		err = sdt_index_rebuild(c);
	if (!err && res)
		*res = r;
	return err;
}

/* ---- the walk ----------------------------------------------------------------------------- */

/*
 * Upper bound on files one add takes, and on directory depth (the walk holds one descriptor per
 * level: a deeper directory is reported, not walked).
 */
#define MAX_FILES (1u << 24)
#define MAX_DEPTH 768
#define SDT_STR_(x) #x
#define SDT_STR(x) SDT_STR_(x)

struct walk {
	char **files;
	size_t n, cap;
	char **roots; /* real paths of the directories given */
	size_t nroots;
	size_t skipped; /* not regular files met by the walk */
	size_t seen_special;
	size_t errors; /* directories that could not be walked, each told to opts->error */
	const struct sdt_cache_add_opts *opts;
	dev_t dev; /* the filesystem of the tree being walked */
};

/* A directory the walk cannot enter or read: counted and told, and the walk goes on. */
static void walk_error(struct walk *w, const char *path, int err, const char *what)
{
	char msg[PATH_MAX + 128];

	w->errors++;
	if (err == -ELOOP) /* too deep: @what says it all */
		snprintf(msg, sizeof(msg), "'%s': %s", path, what);
	else
		snprintf(msg, sizeof(msg), "%s '%s': %s", what, path, strerror(-err));
	if (w->opts && w->opts->error)
		w->opts->error(path, err, msg, w->opts->ctx);
}

static int push(struct walk *w, const char *path)
{
	char *p;

	if (w->n >= MAX_FILES)
		return -E2BIG;
	p = sdt_strdup(path);
	if (!p || sdt_grow((void **)&w->files, &w->cap, w->n + 1, sizeof(char *))) {
		free(p);
		return -ENOMEM;
	}
	w->files[w->n++] = p;
	return 0;
}

static bool inside_roots(const struct walk *w, const char *real)
{
	size_t i;

	for (i = 0; i < w->nroots; i++) {
		size_t n = strlen(w->roots[i]);

		if (!strncmp(real, w->roots[i], n) &&
		    (real[n] == '/' || real[n] == '\0' || (n == 1 && real[0] == '/')))
			return true;
	}
	return false;
}

/*
 * Filesystems that hold no binaries to cache, only the kernel's state (statfs() f_type): a walk
 * of / must not read /proc (each process's files again) nor /sys (thousands of errors).
 */
static const long virtual_fs[] = {
    0x9fa0,	/* PROC_SUPER_MAGIC */
    0x62656572, /* SYSFS_MAGIC */
    0x27e0eb,	/* CGROUP_SUPER_MAGIC */
    0x63677270, /* CGROUP2_SUPER_MAGIC */
    0x74726163, /* TRACEFS_MAGIC */
    0x64626720, /* DEBUGFS_MAGIC */
    0x73636673, /* SECURITYFS_MAGIC */
    0xcafe4a11, /* BPF_FS_MAGIC */
    0x6165676c, /* PSTOREFS_MAGIC */
    0x62656570, /* CONFIGFS_MAGIC */
    0x65735543, /* FUSECTL_SUPER_MAGIC */
    0x1cd1,	/* DEVPTS_SUPER_MAGIC */
    0x19800202, /* MQUEUE_MAGIC */
    0x42494e4d, /* BINFMTFS_MAGIC */
    0xde5e81e4, /* EFIVARFS_MAGIC */
    0xf97cff8c, /* SELINUX_MAGIC */
    0x6e736673, /* NSFS_MAGIC */
    0x958458f6, /* HUGETLBFS_MAGIC */
};

static bool is_virtual_fs(int fd)
{
	struct statfs sf;
	size_t i;

	if (fstatfs(fd, &sf))
		return false;
	for (i = 0; i < ARRAY_SIZE(virtual_fs); i++)
		if ((unsigned long)sf.f_type == (unsigned long)virtual_fs[i])
			return true;
	return false;
}

static int walk_dir(struct walk *w, int dfd, const char *dpath, bool recursive, int depth)
{
	struct dirent *d;
	DIR *dir;
	int err = 0;

	dir = fdopendir(dfd);
	if (!dir) {
		err = -errno;
		close(dfd);
		walk_error(w, dpath, err, "cannot read directory");
		return 0;
	}
	while (!err && (errno = 0, d = readdir(dir))) {
		char *child;
		struct stat st;

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		child = sdt_asprintf("%s/%s", strcmp(dpath, "/") ? dpath : "", d->d_name);
		if (!child)
			return closedir(dir), -ENOMEM;
		if (fstatat(dirfd(dir), d->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno != ENOENT) /* ENOENT: vanished meanwhile */
				walk_error(w, child, -errno, "cannot stat");
			free(child);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			if (recursive && depth >= MAX_DEPTH) {
				walk_error(w, child, -ELOOP,
					   "more than " SDT_STR(MAX_DEPTH) " levels of directories, "
					   "not walked");
			} else if (recursive && st.st_dev != w->dev && !w->opts->cross_mounts) {
				sdt_print(
				    SDT_INFO,
				    "'%s' is another filesystem: not walked (--cross-mounts)\n",
				    child);
			} else if (recursive) {
				int cfd = openat(dirfd(dir), d->d_name,
						 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

				if (cfd >= 0 && is_virtual_fs(cfd)) {
					sdt_print(SDT_INFO,
						  "'%s' is a virtual filesystem: not walked\n",
						  child);
					close(cfd);
				} else if (cfd >= 0) {
					err = walk_dir(w, cfd, child, recursive, depth + 1);
				} else if (errno != ENOENT) { /* ENOENT: removed meanwhile */
					walk_error(w, child, -errno, "cannot open directory");
				}
			}
		} else if (S_ISREG(st.st_mode)) {
			err = push(w, child);
		} else if (S_ISLNK(st.st_mode)) {
			char *real = sdt_user_path(child, false);
			struct stat rst;

			/* only a link to a regular file inside the trees given */
			if (real && !stat(real, &rst) && S_ISREG(rst.st_mode) &&
			    inside_roots(w, real))
				err = push(w, real);
			free(real);
		} else {
			w->skipped++;
		}
		free(child);
	}
	if (!err && !d && errno)
		walk_error(w, dpath, -errno, "cannot read directory");
	closedir(dir);
	return err;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- the workers -------------------------------------------------------------------------- */

struct job {
	struct sdt_cache *c;
	struct walk *w;
	size_t next;
	struct sdt_cache_summary *sum;
	const struct sdt_cache_add_opts *opts;
	pthread_mutex_t lock;
};

static void *worker(void *arg)
{
	struct job *j = arg;

	for (;;) {
		enum sdt_cache_result res = SDT_CACHE_SKIPPED;
		bool is_elf, has_sdt;
		const char *path;
		size_t i;
		int err;

		pthread_mutex_lock(&j->lock);
		i = j->next++;
		pthread_mutex_unlock(&j->lock);
		if (i >= j->w->n)
			break;
		path = j->w->files[i];
		err = sdt_cache_add_one(j->c, path, &res, &is_elf, &has_sdt);
		pthread_mutex_lock(&j->lock);
		j->sum->seen++;
		j->sum->elf += is_elf;
		j->sum->with_sdt += has_sdt;
		if (err) {
			j->sum->errors++;
			if (j->opts->error)
				j->opts->error(path, err, sdt_errmsg(), j->opts->ctx);
		} else {
			switch (res) {
			case SDT_CACHE_ADDED:
				j->sum->added++;
				break;
			case SDT_CACHE_UNCHANGED:
				j->sum->unchanged++;
				break;
			case SDT_CACHE_NOT_ELF:
				j->sum->not_elf++;
				break;
			case SDT_CACHE_SKIPPED:
				j->sum->skipped++;
				break;
			case SDT_CACHE_NO_BUILD_ID:
				j->sum->no_build_id++;
				break;
			case SDT_CACHE_NO_SDT:
				break;
			}
		}
		if (j->opts->progress)
			j->opts->progress(j->sum, path, j->opts->ctx);
		pthread_mutex_unlock(&j->lock);
	}
	return NULL;
}

/*
 * The commit of a batch: make every file the workers wrote durable, then write the links (an
 * entry exists once its link does; its link is written only once its files are durable), then
 * make the links durable.
 *
 * A small batch fsyncs exactly what its entries wrote: their files, their directories, the
 * directories they created and those they were created in (struct sdt_sync_set), then the
 * directories of the links. A large one calls syncfs() twice instead: one sync of the file
 * system beats thousands of fsyncs, but it also waits for whatever else is being written to
 * that file system (on a shared machine, other people's builds).
 */
#define SMALL_BATCH 32

static int link_deferred(struct sdt_cache *c, struct sdt_deferred *d,
			 const struct sdt_cache_add_opts *opts, struct sdt_cache_summary *sum)
{
	struct sdt_sync_set links = {.keep = d->files.keep};
	size_t i;
	int err;

	if (!d->n)
		return 0;
	if (d->files.keep)
		err = sdt_sync_set_flush(&d->files);
	else
		err = syncfs(c->rootfd) < 0 ? -errno : 0;
	if (err)
		return sdt_err(err, "'%s': cannot sync the cache: %s", c->root, strerror(-err));
	for (i = 0; i < d->n; i++) {
		err = sdt_cache_write_link(c, d->links[i].bid, d->links[i].rel, &links);
		if (err) {
			char msg[PATH_MAX + 64];

			snprintf(msg, sizeof(msg), "cannot link '%s' in '%s': %s", d->links[i].rel,
				 c->root, strerror(-err));
			sum->added--;
			sum->errors++;
			if (opts->error)
				opts->error(d->links[i].rel, err, msg, opts->ctx);
		}
	}
	if (links.keep)
		err = sdt_sync_set_flush(&links);
	else
		err = syncfs(c->rootfd) < 0 ? -errno : 0;
	sdt_sync_set_drop(&links);
	if (err)
		return sdt_err(err, "'%s': cannot sync the cache: %s", c->root, strerror(-err));
	return 0;
}

int sdt_cache__add_paths(struct sdt_cache *c, const char *const *paths, size_t n,
			 const struct sdt_cache_add_opts *opts_in,
			 struct sdt_cache_summary *summary)
{
	struct sdt_cache_add_opts opts;
	struct sdt_cache_summary sum = {0};
	struct sdt_deferred defer = {.lock = PTHREAD_MUTEX_INITIALIZER};
	struct walk w = {0};
	struct job j = {0};
	pthread_t tids[16];
	unsigned int nw, started = 0, t;
	size_t i, k;
	int err = 0, lock = -1;

	err = SDT_OPTS_COPY(&opts, opts_in, sdt_cache_add_opts);
	if (err)
		return err;
	w.opts = &opts;
	w.roots = calloc(n ? n : 1, sizeof(char *));
	if (!w.roots)
		return sdt_err(-ENOMEM, "out of memory");
	/* the real paths of the trees first: symlinks may lead anywhere inside them */
	for (i = 0; i < n; i++) {
		struct stat st;
		char *real = sdt_user_path(paths[i], false);

		if (real && !stat(real, &st) && S_ISDIR(st.st_mode))
			w.roots[w.nroots++] = real;
		else
			free(real);
	}
	for (i = 0; i < n && !err; i++) {
		char *real = sdt_user_path(paths[i], false);
		struct stat st;

		if (!real || stat(real, &st) < 0) {
			int e = -errno;
			char msg[PATH_MAX + 64];

			sum.seen++;
			sum.errors++;
			snprintf(msg, sizeof(msg), "cannot open '%s': %s", paths[i], strerror(-e));
			if (opts.error)
				opts.error(paths[i], e, msg, opts.ctx);
			free(real);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			int dfd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			w.dev = st.st_dev;
			if (dfd >= 0 && opts.recursive && is_virtual_fs(dfd)) {
				sdt_print(SDT_INFO, "'%s' is a virtual filesystem: not walked\n",
					  real);
				close(dfd);
			} else {
				err = dfd < 0 ? -errno : walk_dir(&w, dfd, real, opts.recursive, 0);
			}
		} else if (S_ISREG(st.st_mode)) {
			err = push(&w, real);
		} else {
			w.skipped++;
		}
		free(real);
	}
	if (err) {
		err = sdt_err(err, "cannot walk the files to cache: %s", strerror(-err));
		goto out;
	}
	sum.seen += w.skipped;
	sum.skipped += w.skipped;
	sum.errors += w.errors;
	if (w.n)
		qsort(w.files, w.n, sizeof(char *), cmp_str);
	for (i = k = 0; i < w.n; i++) {
		if (k && !strcmp(w.files[k - 1], w.files[i]))
			free(w.files[i]);
		else
			w.files[k++] = w.files[i];
	}
	w.n = k;

	nw = opts.workers;
	if (!nw) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);

		nw = cpus > 0 ? (unsigned int)cpus : 1;
	}
	if (nw > ARRAY_SIZE(tids))
		nw = ARRAY_SIZE(tids);
	if (nw > w.n)
		nw = w.n ? (unsigned int)w.n : 1;
	/*
	 * Entries are written unsynced and linked once durable (see link_deferred()), under the
	 * entries lock (shared) from the first write to the last link: no removal in between.
	 */
	lock = sdt_cache_lock_entries(c, false);
	if (lock < 0) {
		err = sdt_err(lock, "'%s': cannot lock the entries: %s", c->root, strerror(-lock));
		goto out;
	}
	defer.files.keep = w.n <= SMALL_BATCH;
	c->defer = &defer;
	j.c = c;
	j.w = &w;
	j.sum = &sum;
	j.opts = &opts;
	pthread_mutex_init(&j.lock, NULL);
	for (t = 1; t < nw; t++) {
		if (pthread_create(&tids[t], NULL, worker, &j))
			break;
		started++;
	}
	worker(&j);
	for (t = 1; t <= started; t++)
		pthread_join(tids[t], NULL);
	pthread_mutex_destroy(&j.lock);
	c->defer = NULL;
	err = link_deferred(c, &defer, &opts, &sum);
	/* released before the index lock is taken: the entries lock is the innermost */
	sdt_lock_release(lock);
	lock = -1;
	if (!err && sum.added) {
		err = sdt_index_rebuild(c);
	} else if (!err) {
		/* nothing new: only make sure the index is not out of date */
		struct sdt_index *idx;

		err = sdt_index_open(c, &idx, NULL);
		sdt_index_close(idx);
	}
out:
	c->defer = NULL;
	sdt_lock_release(lock);
	sdt_sync_set_drop(&defer.files);
	for (i = 0; i < defer.n; i++) {
		free(defer.links[i].bid);
		free(defer.links[i].rel);
	}
	free(defer.links);
	for (i = 0; i < w.n; i++)
		free(w.files[i]);
	free(w.files);
	for (i = 0; i < w.nroots; i++)
		free(w.roots[i]);
	free(w.roots);
	if (summary)
		*summary = sum;
	return err;
}
