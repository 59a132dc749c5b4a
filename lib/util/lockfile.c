/* SPDX-License-Identifier: MIT */
/* Locks and crash-safe replacement of files: see lockfile.h. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "util/lockfile.h"

/*
 * O_NOFOLLOW: a link planted at @name is refused (ELOOP), not followed to create or open a file
 * elsewhere; O_NONBLOCK | O_NOCTTY and the S_ISREG check: a FIFO or a device planted there is
 * neither waited on nor kept open (flock() blocks by LOCK_NB, not by O_NONBLOCK).
 */
static int lock_take(int dirfd, const char *name, int op)
{
	struct stat st;
	int fd;

	fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
		    0666);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	while (flock(fd, op) < 0) {
		if (errno != EINTR) {
			int err = -errno;

			close(fd);
			return err;
		}
	}
	return fd;
}

int sdt_lock_take(int dirfd, const char *name)
{
	return lock_take(dirfd, name, LOCK_EX);
}

int sdt_lock_take_shared(int dirfd, const char *name)
{
	return lock_take(dirfd, name, LOCK_SH);
}

void sdt_lock_release(int fd)
{
	if (fd >= 0) {
		flock(fd, LOCK_UN);
		close(fd);
	}
}

int sdt_tmp_create(int dirfd, const char *name, char *tmp, size_t tmpsz)
{
	static unsigned int seq;
	unsigned int n = __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED);
	int fd, len;

	len = snprintf(tmp, tmpsz, SDT_TMP_PREFIX "%s.%ld.%u", name, (long)getpid(), n);
	if (len < 0 || (size_t)len >= tmpsz)
		return -ENAMETOOLONG;
	fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0)
		return -errno;
	return fd;
}

int sdt_fsync_dir(int dirfd)
{
	if (fsync(dirfd) < 0 && errno != EINVAL && errno != EBADF)
		return -errno;
	return 0;
}

int sdt_tmp_commit(int dirfd, int fd, const char *tmp, const char *name, int sync)
{
	int err = 0;

	if ((sync & SDT_SYNC_FILE) && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && renameat(dirfd, tmp, dirfd, name) < 0)
		err = -errno;
	if (err) {
		unlinkat(dirfd, tmp, 0);
		return err;
	}
	return (sync & SDT_SYNC_DIR) ? sdt_fsync_dir(dirfd) : 0;
}

void sdt_tmp_abort(int dirfd, int fd, const char *tmp)
{
	if (fd >= 0)
		close(fd);
	unlinkat(dirfd, tmp, 0);
}

int sdt_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int sdt_atomic_write(int dirfd, const char *name, const void *data, size_t len, int sync)
{
	char tmp[256];
	int fd, err;

	fd = sdt_tmp_create(dirfd, name, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	err = sdt_write_all(fd, data, len);
	if (err) {
		sdt_tmp_abort(dirfd, fd, tmp);
		return err;
	}
	return sdt_tmp_commit(dirfd, fd, tmp, name, sync);
}

int sdt_read_file_at(int dirfd, const char *name, size_t max, char **out, size_t *lenp)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int fd, err = 0;

	*out = NULL;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		err = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = -EINVAL;
		goto out;
	}
	if ((uint64_t)st.st_size > max) {
		err = -EFBIG;
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	while (len < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + len, (size_t)st.st_size - len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = -errno;
			goto out;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	buf[len] = '\0';
	*out = buf;
	buf = NULL;
	if (lenp)
		*lenp = len;
out:
	free(buf);
	close(fd);
	return err;
}

bool sdt_tmp_is_ours(const char *name)
{
	return !strncmp(name, SDT_TMP_PREFIX, strlen(SDT_TMP_PREFIX));
}

/* What a directory entry of this mode is, for a message ("... is a FIFO"). */
static const char *file_kind(mode_t mode)
{
	if (S_ISLNK(mode))
		return "a symbolic link";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}

int sdt_output_check(const char *path, bool *exists)
{
	struct stat st;

	*exists = false;
	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		return sdt_err(-errno, "cannot write '%s': %s", path, strerror(errno));
	}
	if (!S_ISREG(st.st_mode))
		return sdt_err(S_ISDIR(st.st_mode) ? -EISDIR : -EEXIST,
			       "refusing to write '%s': it is %s (only a regular file is replaced)",
			       path, file_kind(st.st_mode));
	*exists = true;
	return 0;
}
