/* SPDX-License-Identifier: MIT */
/*
 * Crash-safe files inside a directory (git's lockfile.h, reduced to what the cache needs).
 *
 *  - sdt_lock_take(): an advisory lock (flock) on a lock file. The kernel drops it when the holder
 *    dies, so a SIGKILL never leaves a stale lock behind (an O_EXCL lock file would).
 *  - sdt_atomic_write(): write a file under a temporary name in the same directory, fsync it,
 *    rename it over the target and fsync the directory. A reader sees the old or the new file,
 *    never a part of one; a crash at any moment leaves the old file (and maybe a stray temporary
 *    that sdt_tmp_is_ours() recognises).
 *
 * Every open is relative to a directory fd with O_NOFOLLOW, so a symlink planted where the file
 * should be is never followed for writing. Files are created with mode 0666 & ~umask.
 */
#ifndef SDT_LOCKFILE_H
#define SDT_LOCKFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Prefix of every temporary file we create: ".sdtrace-tmp.<name>.<pid>.<tid>". */
#define SDT_TMP_PREFIX ".sdtrace-tmp."

/*
 * Open (creating) @name in @dirfd and take an exclusive flock on it, waiting for other holders.
 * Returns the fd (release with sdt_lock_release()) or -errno.
 */
int sdt_lock_take(int dirfd, const char *name);
/*
 * The same, shared: any number of shared holders at once, none while an exclusive one holds it.
 * flock locks belong to the open file: a process that holds it exclusively and asks again waits
 * for itself forever.
 */
int sdt_lock_take_shared(int dirfd, const char *name);
void sdt_lock_release(int fd);

/* Create an exclusive temporary file for @name in @dirfd; its name is stored in @tmp (size 256). */
int sdt_tmp_create(int dirfd, const char *name, char *tmp, size_t tmpsz);
/* What sdt_tmp_commit() makes durable before returning. */
#define SDT_SYNC_FILE 1 /* fsync the file before the rename */
#define SDT_SYNC_DIR  2 /* fsync the directory after it */

/*
 * Finish a temporary: (SDT_SYNC_FILE) fsync @fd, close it, rename @tmp to @name, (SDT_SYNC_DIR)
 * fsync the directory. Without them the caller makes it durable later (several files at once,
 * or syncfs() for a batch) or does not need it to survive a power cut (derived data).
 */
int sdt_tmp_commit(int dirfd, int fd, const char *tmp, const char *name, int sync);
/* Abandon a temporary (close and unlink). */
void sdt_tmp_abort(int dirfd, int fd, const char *tmp);

/* Replace @name in @dirfd by @len bytes of @data, crash-safely (see sdt_tmp_commit). */
int sdt_atomic_write(int dirfd, const char *name, const void *data, size_t len, int sync);
/* fsync a directory (ignoring file systems that cannot). 0 or -errno. */
int sdt_fsync_dir(int dirfd);

/* Write all of @len bytes to @fd (restarting on EINTR and short writes). 0 or -errno. */
int sdt_write_all(int fd, const void *data, size_t len);

/* Read a whole (regular) file @name of @dirfd, at most @max bytes, NUL-terminated. 0 or -errno. */
int sdt_read_file_at(int dirfd, const char *name, size_t max, char **out, size_t *len);

/* Is @name one of our temporaries (left by a crash)? */
bool sdt_tmp_is_ours(const char *name);

/* sdt_output_check() (outputs the user named) is public: include/sdtrace/sdtrace.h. */

#endif
