/* SPDX-License-Identifier: MIT */
/*
 * Canonical paths that keep a /proc/PID/root prefix. See include/sdtrace/find.h.
 *
 * realpath(3) reads "/proc/PID/root" as a symbolic link whose text is the process's root as
 * *its* mount namespace names it ("/"), and goes on from this process's "/": a file visible only
 * inside a container becomes "cannot open", or worse another file of the same name here. So the
 * rest of the path is walked one component at a time under the prefix, each with lstat() and
 * readlink(): the kernel follows no link of the process's tree itself (an absolute one would be
 * read from *our* root), and the walk restarts at the process's root for an absolute link text.
 * Only the prefix itself is a magic link the kernel follows, to the process's real root.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "sdtrace/find.h"

#define MAX_LINKS 40 /* as the kernel's MAXSYMLINKS */

size_t sdt_proc_root_prefix(const char *path)
{
	const char *p;

	if (strncmp(path, "/proc/", 6))
		return 0;
	p = path + 6;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (strncmp(p, "/root", 5) || (p[5] && p[5] != '/'))
		return 0;
	return (size_t)(p + 5 - path);
}

/* Drop the last component of @res (the resolved part, "" or "/a/b"): ".." at the root stays. */
static void pop(struct sdt_buf *res)
{
	char *slash;

	if (!res->len)
		return;
	slash = strrchr(res->buf, '/');
	res->len = (size_t)(slash - res->buf);
	res->buf[res->len] = '\0';
}

/*
 * Resolve @rest under @prefix (a directory path to which nothing is appended by the kernel but
 * the components we checked). The resolved part goes to @res as "/a/b" ("" for the root).
 */
static int walk(const char *prefix, const char *rest, struct sdt_buf *res)
{
	struct sdt_buf todo = {0}, probe = {0};
	char link[PATH_MAX];
	size_t pos = 0;
	int links = 0, err = 0;

	if (sdt_buf_addstr(&todo, rest) < 0)
		return -ENOMEM;
	while (!err) {
		const char *comp;
		size_t len;
		struct stat st;
		ssize_t n;

		while (pos < todo.len && todo.buf[pos] == '/')
			pos++;
		if (pos >= todo.len)
			break;
		comp = todo.buf + pos;
		len = strcspn(comp, "/");
		pos += len;
		if (len == 1 && comp[0] == '.')
			continue;
		if (len == 2 && comp[0] == '.' && comp[1] == '.') {
			pop(res);
			continue;
		}
		sdt_buf_reset(&probe);
		if (sdt_buf_addf(&probe, "%s%s/%.*s", prefix, res->buf ? res->buf : "", (int)len,
				 comp) < 0) {
			err = -ENOMEM;
			break;
		}
		if (probe.len >= PATH_MAX) {
			err = -ENAMETOOLONG;
			break;
		}
		if (lstat(probe.buf, &st) < 0) {
			err = -errno;
			break;
		}
		if (!S_ISLNK(st.st_mode)) {
			/* a file in the middle of a path: as the kernel says */
			if (!S_ISDIR(st.st_mode) && pos < todo.len &&
			    todo.buf[pos + strspn(todo.buf + pos, "/")]) {
				err = -ENOTDIR;
				break;
			}
			if (sdt_buf_addf(res, "/%.*s", (int)len, comp) < 0)
				err = -ENOMEM;
			continue;
		}
		if (++links > MAX_LINKS) {
			err = -ELOOP;
			break;
		}
		n = readlink(probe.buf, link, sizeof(link) - 1);
		if (n < 0) {
			err = -errno;
			break;
		}
		link[n] = '\0';
		/* the link's text, then what was left of the path */
		{
			struct sdt_buf next = {0};

			if (sdt_buf_addf(&next, "%s/%s", link, todo.buf + pos) < 0) {
				sdt_buf_free(&next);
				err = -ENOMEM;
				break;
			}
			sdt_buf_free(&todo);
			todo = next;
			pos = 0;
		}
		if (link[0] == '/')
			sdt_buf_reset(res); /* from the process's root, not ours */
	}
	sdt_buf_free(&todo);
	sdt_buf_free(&probe);
	return err;
}

int sdt_canonical_path(const char *path, char **out)
{
	struct sdt_buf res = {0};
	char *prefix, *real;
	size_t plen;
	int err;

	*out = NULL;
	if (!path || !*path)
		return sdt_err(-ENOENT, "cannot open '': no such file or directory");
	plen = sdt_proc_root_prefix(path);
	if (!plen) {
		real = realpath(path, NULL);
		if (!real)
			return sdt_err(-errno, "cannot open '%s': %s", path, strerror(errno));
		*out = real;
		return 0;
	}
	prefix = sdt_strndup(path, plen);
	if (!prefix)
		return sdt_err(-ENOMEM, "out of memory");
	err = walk(prefix, path + plen, &res);
	if (!err && !res.len)
		err = access(prefix, F_OK) < 0 ? -errno : 0;
	if (!err) {
		*out = sdt_asprintf("%s%s", prefix, res.buf ? res.buf : "");
		if (!*out)
			err = -ENOMEM;
	}
	free(prefix);
	sdt_buf_free(&res);
	if (err == -ENOMEM)
		return sdt_err(err, "out of memory");
	if (err)
		return sdt_err(err, "cannot open '%s': %s", path, strerror(-err));
	return 0;
}
