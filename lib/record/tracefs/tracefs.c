/* SPDX-License-Identifier: MIT */
/* tracefs discovery, README features, uprobe_events writes, event id/format reads. */
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "util/internal.h"
#include "record/tracefs/tracefs.h"

/* The kernel's WRITE_BUFSIZE for dynamic event commands: one write holds at most this much. */
#define UPROBE_WRITE_MAX 4000
/* uprobe_events of a busy system can hold 100,000 probes of other tools (~10 MB). */
#define TRACEFS_READ_MAX (64u << 20)

static const char *const candidates[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static const char *found_dir;
static int has_ref_ctr = -1;

/* Is @dir/uprobe_events there? 0, or -errno of the look (-EACCES: there may be, not for us). */
static int has_uprobe_events(const char *dir)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/uprobe_events", dir);
	return access(path, F_OK) == 0 ? 0 : -errno;
}

/* ": not root (...)" when that is why a tracefs file is refused, else "". */
static const char *why_refused(int err)
{
	if ((err == -EACCES || err == -EPERM) && geteuid() != 0)
		return ": not root (placing uprobes needs root, or CAP_SYS_ADMIN and access to "
		       "tracefs)";
	return "";
}

/*
 * Neither place has uprobe_events and mounting failed with -@merr (or worked, @mounted, and
 * still has none): say which, as each needs its own fix.
 */
static int not_found(int merr, bool mounted)
{
	const char *t = candidates[0], *d = candidates[1];

	if (mounted)
		return sdt_err(-ENOENT,
			       "tracefs at %s has no uprobe_events: this kernel was built without "
			       "CONFIG_UPROBE_EVENTS",
			       t);
	if (merr == -EPERM && geteuid() != 0)
		return sdt_err(-EPERM,
			       "no tracefs with uprobe_events (tried %s and %s): not mounted, and "
			       "mounting it needs root: not root (as root: mount -t tracefs nodev %s)",
			       t, d, t);
	if (merr == -EPERM)
		return sdt_err(-EPERM,
			       "no tracefs with uprobe_events (tried %s and %s): not mounted, and "
			       "mounting it was refused (a container without CAP_SYS_ADMIN?): mount "
			       "-t tracefs nodev %s where it is allowed",
			       t, d, t);
	if (merr == -ENOENT)
		return sdt_err(-ENOENT,
			       "no tracefs with uprobe_events (tried %s and %s): not mounted, and "
			       "its mount point %s does not exist (is sysfs mounted at /sys?)",
			       t, d, t);
	return sdt_err(merr,
		       "no tracefs with uprobe_events (tried %s and %s): not mounted, and 'mount -t "
		       "tracefs nodev %s' failed: %s",
		       t, d, t, strerror(-merr));
}

int sdt_tracefs_dir(const char **dir)
{
	int err = 0, e;
	size_t i;

	pthread_mutex_lock(&lock);
	if (found_dir)
		goto out;
	for (i = 0; i < ARRAY_SIZE(candidates); i++) {
		e = has_uprobe_events(candidates[i]);
		if (!e) {
			found_dir = candidates[i];
			goto out;
		}
		/* there, maybe, but not for us: mounting another one would not help */
		if (e == -EACCES) {
			err = sdt_err(e, "cannot use tracefs: permission denied on '%s'%s",
				      candidates[i], why_refused(e));
			goto out;
		}
	}
	if (mount("nodev", candidates[0], "tracefs", 0, NULL) == 0) {
		e = has_uprobe_events(candidates[0]);
		if (!e) {
			found_dir = candidates[0];
			goto out;
		}
		err = not_found(e, true);
		goto out;
	}
	err = not_found(-errno, false);
out:
	if (!err)
		*dir = found_dir;
	pthread_mutex_unlock(&lock);
	return err;
}

static int open_rel(const char *rel, int flags, char *path, size_t size)
{
	const char *dir;
	int err, fd;

	err = sdt_tracefs_dir(&dir);
	if (err)
		return err;
	snprintf(path, size, "%s/%s", dir, rel);
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return sdt_err(-e, "cannot open '%s': %s%s", path, strerror(e), why_refused(-e));
	}
	return fd;
}

int sdt_tracefs_read(const char *rel, char **out, size_t *len)
{
	struct sdt_buf b = {0};
	char path[512], chunk[4096];
	int fd, err = 0;
	ssize_t n;

	fd = open_rel(rel, O_RDONLY, path, sizeof(path));
	if (fd < 0)
		return fd;
	for (;;) {
		n = read(fd, chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = sdt_err(-errno, "cannot read '%s': %s", path, strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		if (b.len > TRACEFS_READ_MAX - (size_t)n) {
			err =
			    sdt_err(-EFBIG, "'%s' is larger than %u bytes", path, TRACEFS_READ_MAX);
			goto out;
		}
		if (sdt_buf_add(&b, chunk, (size_t)n)) {
			err = sdt_err(-ENOMEM, "cannot read '%s': out of memory", path);
			goto out;
		}
	}
	if (!b.buf && sdt_buf_add(&b, "", 0)) {
		err = -ENOMEM;
		goto out;
	}
	*len = b.len;
	*out = sdt_buf_take(&b);
out:
	sdt_buf_free(&b);
	close(fd);
	return err;
}

int sdt_tracefs_has_ref_ctr(void)
{
	char *text = NULL;
	size_t len;
	int err;

	pthread_mutex_lock(&lock);
	err = has_ref_ctr;
	pthread_mutex_unlock(&lock);
	if (err >= 0)
		return err;
	err = sdt_tracefs_read("README", &text, &len);
	if (err)
		return err;
	err = strstr(text, "ref_ctr_offset") != NULL;
	free(text);
	pthread_mutex_lock(&lock);
	has_ref_ctr = err;
	pthread_mutex_unlock(&lock);
	return err;
}

int sdt_tracefs_event_id(const char *group, const char *event, uint64_t *id)
{
	char rel[256], *text = NULL, *end;
	unsigned long long v;
	size_t len;
	int err;

	snprintf(rel, sizeof(rel), "events/%s/%s/id", group, event);
	err = sdt_tracefs_read(rel, &text, &len);
	if (err)
		return err;
	errno = 0;
	v = strtoull(text, &end, 10);
	if (errno || end == text || (*end && *end != '\n'))
		err = sdt_err(-EINVAL, "'%s': not an event id", rel);
	else
		*id = v;
	free(text);
	return err;
}

/*
 * The last entry of error_log as one line: "trace_uprobe: error: Invalid register name (Command:
 * p:...)"; the caret line is dropped (its column means nothing once joined). "" when none.
 */
static void last_error_log(char *out, size_t size)
{
	char *text = NULL, *p, *start = NULL, *msg, *cmd, *e;
	size_t len;

	out[0] = '\0';
	if (sdt_tracefs_read("error_log", &text, &len))
		return;
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (*p == '[')
			start = p;
	if (!start)
		goto out;
	msg = strstr(start, "] ");
	msg = msg ? msg + 2 : start;
	e = strchr(msg, '\n');
	cmd = e ? e + 1 : NULL;
	if (e)
		*e = '\0';
	while (cmd && (*cmd == ' ' || *cmd == '\t'))
		cmd++;
	if (cmd && (e = strchr(cmd, '\n')))
		*e = '\0';
	if (cmd && *cmd)
		snprintf(out, size, "%s (%s)", msg, cmd);
	else
		snprintf(out, size, "%s", msg);
out:
	free(text);
}

/* Does the error_log entry's command come from @text (and not from some other writer earlier)? */
static bool log_is_ours(const char *log, const char *text, size_t len)
{
	const char *cmd = strstr(log, "(Command: ");
	size_t n;

	if (!cmd)
		return false;
	cmd += strlen("(Command: ");
	n = strlen(cmd);
	if (n && cmd[n - 1] == ')')
		n--;
	return n && memmem(text, len, cmd, n) != NULL;
}

/* The line of @text that holds byte @pos, cut for a message. */
static void line_at(const char *text, size_t len, size_t pos, char *out, size_t size)
{
	size_t s = pos, e = pos;

	while (s > 0 && text[s - 1] != '\n')
		s--;
	while (e < len && text[e] != '\n')
		e++;
	snprintf(out, size, "%.*s", (int)(e - s), text + s);
}

int sdt_tracefs_uprobe_write(const char *text, size_t len)
{
	char path[512], line[256], log[1024];
	size_t off = 0;
	int fd, err = 0;

	fd = open_rel("uprobe_events", O_WRONLY | O_APPEND, path, sizeof(path));
	if (fd < 0)
		return fd;
	while (off < len) {
		size_t n = len - off;
		ssize_t w;

		/* Whole lines only: cut at the last newline that fits. */
		if (n > UPROBE_WRITE_MAX) {
			n = UPROBE_WRITE_MAX;
			while (n > 0 && text[off + n - 1] != '\n')
				n--;
			if (n == 0) {
				line_at(text, len, off, line, sizeof(line));
				err =
				    sdt_err(-E2BIG, "uprobe definition longer than %d bytes: '%s'",
					    UPROBE_WRITE_MAX, line);
				goto out;
			}
		}
		w = write(fd, text + off, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int e = errno;
			size_t bad = off;

			/*
			 * The kernel applied the lines before the bad one but does not say which;
			 * name the first line of the chunk and let error_log's caret point.
			 */
			line_at(text, len, bad, line, sizeof(line));
			last_error_log(log, sizeof(log));
			if (!log_is_ours(log, text, len))
				log[0] = '\0';
			if (log[0])
				err = sdt_err(-e, "cannot write '%s': %s; kernel: %s", path,
					      strerror(e), log);
			else
				err = sdt_err(-e, "cannot write '%s' (batch starting '%s'): %s",
					      path, line, strerror(e));
			goto out;
		}
		if (w == 0) {
			err = sdt_err(-EIO, "cannot write '%s': no progress", path);
			goto out;
		}
		off += (size_t)w;
	}
out:
	close(fd);
	return err;
}
