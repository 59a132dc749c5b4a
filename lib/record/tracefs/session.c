/* SPDX-License-Identifier: MIT */
/* Session owners: their identity in a group name, and the proof of their death (session.h). */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "record/tracefs/session.h"
#include "util/internal.h"

#define GROUP_PREFIX "sdtrace_"
/* The kernel's MAX_EVENT_NAME_LEN (64) counts the NUL. */
#define GROUP_MAX 63
/* The initial pid namespace's inode: PROC_PID_INIT_INO, fixed since Linux 3.8. */
#define PID_NS_INIT_INO 0xEFFFFFFCu

/* Read at most @size - 1 bytes of @path into @buf, NUL-terminated. Bytes read or -errno. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (n < 0)
		return -e;
	buf[n] = '\0';
	return n;
}

/* Decimal digits at *p (at least one, none past @end), at most @max; *p moves past them. */
static bool parse_num(const char **p, const char *end, unsigned long long max,
		      unsigned long long *v)
{
	const char *s = *p;
	unsigned long long x = 0;

	if (s >= end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (x > (max - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*p = s;
	*v = x;
	return true;
}

/* The state (field 3) and start time (field 22) of /proc/@dir/stat ("self" or a pid). */
static int stat_fields(const char *dir, char *state, unsigned long long *start)
{
	char path[64], buf[1024];
	const char *p, *end;
	ssize_t n;
	int i;

	snprintf(path, sizeof(path), "/proc/%s/stat", dir);
	n = read_small(path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	end = buf + n;
	/* comm may hold spaces and ')': the fields start after the last ')' */
	p = strrchr(buf, ')');
	if (!p || end - p < 3)
		return -EIO;
	*state = p[2];
	/* field 3 (state) is the first after ")"; the start time is field 22 */
	for (i = 3; i <= 22 && p; i++)
		p = memchr(p + 1, ' ', (size_t)(end - p - 1));
	if (!p)
		return -EIO;
	p++;
	return parse_num(&p, end, ULLONG_MAX, start) ? 0 : -EIO;
}

static int pid_stat(int pid, char *state, unsigned long long *start)
{
	char dir[16];

	snprintf(dir, sizeof(dir), "%d", pid);
	return stat_fields(dir, state, start);
}

/* readlink @path into @buf (NUL-terminated, cut at @size - 1). 0 or -errno. */
static int link_text(const char *path, char *buf, size_t size)
{
	ssize_t n = readlink(path, buf, size - 1);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

/* The inode of pid namespace link @path ("pid:[4026531836]"). 0 or -errno. */
static int pidns_of(const char *path, uint32_t *ino)
{
	char buf[64];
	const char *p = buf;
	unsigned long long v;
	int err;

	err = link_text(path, buf, sizeof(buf));
	if (err)
		return err;
	if (strncmp(buf, "pid:[", 5))
		return -EIO;
	p += 5;
	if (!parse_num(&p, buf + strlen(buf), UINT32_MAX, &v) || strcmp(p, "]") || !v)
		return -EIO;
	*ino = (uint32_t)v;
	return 0;
}

int sdt_session_self(struct sdt_session_id *id)
{
	char state;
	int err;

	err = pidns_of("/proc/self/ns/pid", &id->pidns);
	if (err)
		return sdt_err(err, "cannot read the pid namespace of this process: %s",
			       strerror(-err));
	err = stat_fields("self", &state, &id->start);
	if (err)
		return sdt_err(err, "cannot read the start time of this process: %s",
			       strerror(-err));
	id->pid = (int)getpid();
	return 0;
}

int sdt_session_format(char *buf, size_t size, const struct sdt_session_id *id)
{
	int n = snprintf(buf, size, GROUP_PREFIX "%d_%llu_%u_%u", id->pid, id->start, id->seq,
			 (unsigned int)id->pidns);

	if (n < 0 || (size_t)n >= size || n > GROUP_MAX)
		return sdt_err(-ENAMETOOLONG, "session group name too long");
	return 0;
}

bool sdt_session_parse(const char *name, size_t len, struct sdt_session_id *id)
{
	static const unsigned long long max[4] = {INT_MAX, ULLONG_MAX, UINT_MAX, UINT32_MAX};
	const char *p = name + strlen(GROUP_PREFIX), *end = name + len;
	unsigned long long v[4];
	size_t n = 0;

	if (len <= strlen(GROUP_PREFIX) || memcmp(name, GROUP_PREFIX, strlen(GROUP_PREFIX)))
		return false;
	for (;;) {
		if (n == 4 || !parse_num(&p, end, max[n], &v[n]))
			return false;
		n++;
		if (p == end)
			break;
		if (*p++ != '_')
			return false;
	}
	if (n < 3 || !v[0] || (n == 4 && !v[3]))
		return false;
	id->pid = (int)v[0];
	id->start = v[1];
	id->seq = (unsigned int)v[2];
	id->pidns = n == 4 ? (uint32_t)v[3] : 0;
	return true;
}

/* ---- the proof ------------------------------------------------------------------------ */

/* What /proc/PID/status says of a process's pids and threads. */
struct status {
	unsigned long long inner; /* its pid in its own namespace: the last of NSpid */
	unsigned int levels;	  /* NSpid's count: 1 in the namespace /proc was mounted for */
	unsigned long long threads;
};

/* The numbers of a status line (@n bytes) past its @skip-byte key: their count, the last. */
static unsigned int numbers(const char *line, size_t n, size_t skip, unsigned long long *last)
{
	const char *p = line + skip, *end = line + n;
	unsigned int count = 0;

	while (p < end) {
		while (p < end && (*p == '\t' || *p == ' ' || *p == '\n'))
			p++;
		if (p == end)
			break;
		if (!parse_num(&p, end, INT_MAX, last))
			return 0;
		count++;
	}
	return count;
}

/* /proc/@dir/status ("self" or a pid): NSpid and Threads. 0, -ENOTSUP (no NSpid) or -errno. */
static int read_status(const char *dir, struct status *st)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *fp;

	memset(st, 0, sizeof(*st));
	snprintf(path, sizeof(path), "/proc/%s/status", dir);
	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	while ((n = getline(&line, &cap, fp)) > 0) {
		if (!strncmp(line, "Threads:", 8))
			numbers(line, (size_t)n, 8, &st->threads);
		else if (!strncmp(line, "NSpid:", 6))
			st->levels = numbers(line, (size_t)n, 6, &st->inner);
	}
	free(line);
	fclose(fp);
	return st->levels ? 0 : -ENOTSUP; /* NSpid came with Linux 4.1 */
}

static int pid_status(int pid, struct status *st)
{
	char dir[16];

	snprintf(dir, sizeof(dir), "%d", pid);
	return read_status(dir, st);
}

/* Is /proc mounted for the pid namespace of this process? Its NSpid then has one level. */
static bool proc_is_ours(void)
{
	struct status st;

	return !read_status("self", &st) && st.levels == 1 &&
	       st.inner == (unsigned long long)getpid();
}

/* Anything in /proc a process could hide behind (hidepid=, subset=pid)? */
static bool proc_hides(void)
{
	char *line = NULL, *sep, *mnt;
	bool hides = true, found = false;
	size_t cap = 0;
	FILE *fp;

	fp = fopen("/proc/self/mountinfo", "re");
	if (!fp)
		return true;
	/* "22 27 0:21 / /proc rw,relatime - proc proc rw,hidepid=2": the last /proc mount wins */
	while (getline(&line, &cap, fp) > 0) {
		mnt = strchr(line, '/');
		sep = strstr(line, " - proc ");
		if (!mnt || !sep || strncmp(mnt, "/ /proc ", 8))
			continue;
		found = true;
		hides = strstr(sep, "subset=") ||
			(strstr(sep, "hidepid=") && !strstr(sep, "hidepid=0") &&
			 !strstr(sep, "hidepid=off"));
	}
	free(line);
	fclose(fp);
	return !found || hides;
}

static void sweep_init(struct sdt_session_sweep *sw)
{
	sw->ready = true;
	if (pidns_of("/proc/self/ns/pid", &sw->pidns))
		sw->pidns = 0;
	sw->proc_ours = sw->pidns && proc_is_ours();
	sw->sees_all =
	    sw->proc_ours && sw->pidns == PID_NS_INIT_INO && geteuid() == 0 && !proc_hides();
	if (link_text("/proc/self/ns/time", sw->timens, sizeof(sw->timens)))
		sw->timens[0] = '\0';
}

/* Are @pid's start times (of our /proc) comparable with ours: the same time namespace? */
static bool same_timens(const struct sdt_session_sweep *sw, int pid)
{
	char path[64], buf[64];
	int err;

	snprintf(path, sizeof(path), "/proc/%d/ns/time", pid);
	err = link_text(path, buf, sizeof(buf));
	if (err)
		return err == -ENOENT && !sw->timens[0]; /* a kernel without time namespaces */
	return !strcmp(buf, sw->timens);
}

static bool gone(int err)
{
	return err == -ENOENT || err == -ESRCH;
}

static bool no_such_pid(int pid)
{
	return kill(pid, 0) && errno == ESRCH;
}

enum verdict {
	GONE,  /* no such process (any more) */
	OTHER, /* another process */
	OWNER, /* the owner, alive; or not comparable */
	DEAD,  /* the owner, exited: a zombie whose threads are all gone (its fds closed) */
	UNKNOWN,
};

/*
 * Process @p of our /proc, whose own pid is the owner's: is it the owner (start time), and has
 * it exited? A zombie leader with live threads still holds its files: alive.
 */
static enum verdict judge(const struct sdt_session_sweep *sw, const struct sdt_session_id *id,
			  int p, const struct status *st)
{
	unsigned long long start;
	char state;
	int err;

	err = pid_stat(p, &state, &start);
	if (err)
		return gone(err) ? GONE : UNKNOWN;
	if (start != id->start)
		return same_timens(sw, p) ? OTHER : OWNER;
	if ((state == 'Z' || state == 'X') && st && st->threads == 1)
		return DEAD;
	return OWNER;
}

/* The owner @id is of our own pid namespace: is it provably dead? */
static bool dead_here(const struct sdt_session_sweep *sw, const struct sdt_session_id *id)
{
	struct status st;
	enum verdict v;
	int err;

	if (no_such_pid(id->pid))
		return true;
	if (!sw->proc_ours)
		return false;
	err = pid_status(id->pid, &st);
	if (gone(err))
		return no_such_pid(id->pid); /* gone meanwhile; else /proc hides it */
	v = judge(sw, id, id->pid, err ? NULL : &st);
	if (v == GONE)
		return no_such_pid(id->pid);
	return v == OTHER || v == DEAD;
}

enum scan_result {
	SCAN_NONE,	 /* no process of the namespace listed */
	SCAN_SEEN,	 /* processes of it, the owner not among them alive */
	SCAN_MATCH,	 /* the owner alive (or not comparable) */
	SCAN_INCOMPLETE, /* some entry could not be read: nothing is proven */
};

/* Process @p of our /proc against owner @id (@id->pidns 0: of any namespace). */
static enum scan_result scan_one(const struct sdt_session_sweep *sw,
				 const struct sdt_session_id *id, int p)
{
	struct status st;
	char path[64];
	uint32_t ns;
	int err;

	err = pid_status(p, &st);
	if (err)
		return gone(err) ? SCAN_NONE : SCAN_INCOMPLETE;
	if (id->pidns) {
		/* one level: of our own namespace, not of @id's (its ns link may be unreadable) */
		if (st.levels == 1)
			return SCAN_NONE;
		snprintf(path, sizeof(path), "/proc/%d/ns/pid", p);
		err = pidns_of(path, &ns);
		if (err)
			return gone(err) ? SCAN_NONE : SCAN_INCOMPLETE;
		if (ns != id->pidns)
			return SCAN_NONE;
	}
	if (st.inner != (unsigned long long)id->pid)
		return SCAN_SEEN;
	switch (judge(sw, id, p, &st)) {
	case GONE:
		return SCAN_NONE;
	case OTHER:
	case DEAD:
		return SCAN_SEEN;
	case OWNER:
		return SCAN_MATCH;
	default:
		return SCAN_INCOMPLETE;
	}
}

/* Every process of our /proc against owner @id. */
static enum scan_result scan(const struct sdt_session_sweep *sw, const struct sdt_session_id *id)
{
	enum scan_result res = SCAN_NONE, r;
	struct dirent *d;
	DIR *dir;
	int fd;

	fd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return SCAN_INCOMPLETE;
	dir = fdopendir(fd);
	if (!dir) {
		close(fd);
		return SCAN_INCOMPLETE;
	}
	while (res != SCAN_MATCH && (d = readdir(dir))) {
		const char *p = d->d_name;
		unsigned long long pid;

		if (!parse_num(&p, p + strlen(p), INT_MAX, &pid) || *p)
			continue;
		r = scan_one(sw, id, (int)pid);
		if (r > res)
			res = r;
	}
	closedir(dir);
	return res;
}

/* Is owner @id provably dead (the table in session.h)? */
static bool owner_dead(struct sdt_session_sweep *sw, const struct sdt_session_id *id)
{
	enum scan_result r;

	if (!sw->ready)
		sweep_init(sw);
	if (!id->pidns)
		return sw->sees_all && scan(sw, id) < SCAN_MATCH;
	if (sw->pidns && id->pidns == sw->pidns)
		return dead_here(sw, id);
	if (!sw->proc_ours)
		return false;
	r = scan(sw, id);
	return r == SCAN_SEEN || (r == SCAN_NONE && sw->sees_all);
}

bool sdt_session_group_dead(struct sdt_session_sweep *sw, const char *group, size_t len)
{
	struct sdt_session_id id;
	unsigned int i;
	bool dead;

	if (len > GROUP_MAX || !sdt_session_parse(group, len, &id))
		return false;
	for (i = 0; i < sw->nverdicts && i < SDT_SESSION_VERDICTS; i++)
		if (!strncmp(sw->verdict[i].group, group, len) && !sw->verdict[i].group[len])
			return sw->verdict[i].dead;
	dead = owner_dead(sw, &id);
	i = sw->nverdicts++ % SDT_SESSION_VERDICTS;
	memcpy(sw->verdict[i].group, group, len);
	sw->verdict[i].group[len] = '\0';
	sw->verdict[i].dead = dead;
	return dead;
}

static unsigned int group_seq;

int sdt_uprobe_session_group(char *buf, size_t size)
{
	struct sdt_session_id id;
	int err;

	err = sdt_session_self(&id);
	if (err)
		return err;
	id.seq = __atomic_fetch_add(&group_seq, 1, __ATOMIC_RELAXED);
	return sdt_session_format(buf, size, &id);
}
