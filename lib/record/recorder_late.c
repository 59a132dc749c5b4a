/* SPDX-License-Identifier: MIT */
/*
 * Files armed during the run: a followed process exec'd or mapped an executable file not seen
 * yet; the caller's opts.on_file says which of its sites to add (sdt_recorder__add_typed()), and
 * they are armed at once, as a set of their own (struct rec_set):
 *  - a new tracefs group (a session group of its own: sdt_uprobe_session_group()), registered
 *    before it is written and removed on every path like the first set (the atexit handler and
 *    the stale sweep of a later sdtrace find it the same way);
 *  - perf events written into the existing per-CPU rings (PERF_EVENT_IOC_SET_OUTPUT): per CPU
 *    (pid -1) system-wide; otherwise per CPU x thread, with inherit, on the threads that map the
 *    file. A thread has a set's events once (struct rec_cover): a late set's events are opened on a
 *    thread that does not have them yet, and a thread created by one that has them inherits
 *    them (the kernel's inherit; we note it from the ptrace fork stops, or without ptrace from
 *    the rings' FORK records). The first set (armed before the start) covers every followed
 *    thread already: its events are on the command (inherited) or the -p threads.
 *  - the sink told the new events' descriptions (numbered after every event before them)
 *    before their first sample.
 * The callback's answer is remembered per file (device, inode; and build-id: a build-id whose
 * file matched nothing is not looked at again), so each file is resolved once.
 */
#include <dirent.h>
#include <fcntl.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "record/engine.h"
#include "record/recorder.h"
#include "record/ring.h"
#include "scan/file.h"
#include "util/internal.h"

/* At most this many mappings wait for the next drain's end (the rest are dropped, counted). */
#define PENDING_MAX 4096
/* At most this many files remembered (system-wide: every executable the system maps). */
#define KNOWN_MAX (1u << 16)

static bool has_command(const struct sdt_recorder *r)
{
	return r->o.argv && r->o.argv[0];
}

/* Every add of file @dev/@ino was seen mapped. */
static void mark_mapped(struct sdt_recorder *r, dev_t dev, ino_t ino)
{
	size_t i;

	for (i = 0; i < r->nadds; i++)
		if (r->adds[i].ino == ino && r->adds[i].dev == dev && (dev || ino))
			r->adds[i].mapped = 1;
}

static struct rec_known_file *known(struct sdt_recorder *r, dev_t dev, ino_t ino)
{
	size_t i;

	for (i = 0; i < r->late.nfiles; i++)
		if (r->late.files[i].ino == ino && r->late.files[i].dev == dev)
			return &r->late.files[i];
	return NULL;
}

/* A build-id whose file matched nothing: no need to look at another copy of it. */
static bool build_id_unmatched(const struct sdt_recorder *r, const unsigned char *id, size_t n)
{
	size_t i;

	for (i = 0; n && i < r->late.nfiles; i++) {
		const struct rec_known_file *k = &r->late.files[i];

		if (k->set < 0 && k->build_id_size == n && !memcmp(k->build_id, id, n))
			return true;
	}
	return false;
}

static int remember(struct sdt_recorder *r, dev_t dev, ino_t ino, const unsigned char *id,
		    size_t idn, int set)
{
	size_t cap = r->late.files_cap;
	struct rec_known_file *k;

	if (r->late.nfiles >= KNOWN_MAX)
		return 0; /* forgotten: it may be looked at again */
	if (sdt_grow((void **)&r->late.files, &cap, r->late.nfiles + 1, sizeof(*r->late.files)))
		return sdt_err(-ENOMEM, "out of memory");
	r->late.files_cap = cap;
	k = &r->late.files[r->late.nfiles++];
	memset(k, 0, sizeof(*k));
	k->dev = dev;
	k->ino = ino;
	k->set = set;
	if (id && idn) {
		k->build_id_size = (uint8_t)(idn > sizeof(k->build_id) ? sizeof(k->build_id) : idn);
		memcpy(k->build_id, id, k->build_id_size);
	}
	return 0;
}

/* "0123abcd..." from @n bytes of @id, into @out (2n+1 bytes). */
static void hex(const unsigned char *id, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * n] = '\0';
}

/* Does /proc/PID/maps of @pid map @dev/@ino? */
static bool pid_maps(pid_t pid, dev_t dev, ino_t ino)
{
	char path[64], line[4096];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned int maj, min;
		unsigned long long in;

		if (sscanf(line, "%*s %*s %*s %x:%x %llu", &maj, &min, &in) == 3)
			found = in == (unsigned long long)ino && makedev(maj, min) == dev;
	}
	fclose(f);
	return found;
}

int sdt_rec_late_init(struct sdt_recorder *r)
{
	struct stat st;
	size_t i, k;
	int err;

	r->late.on = !r->o.no_follow;
	for (i = 0; i < r->nadds; i++) {
		struct rec_added *a = &r->adds[i];

		a->set = 0;
		if (a->f->path && stat(a->f->path, &st) == 0) {
			a->dev = st.st_dev;
			a->ino = st.st_ino;
		}
		/* a command following its execs and mmaps sees every file it maps */
		a->mapped = has_command(r) && r->late.on ? 0 : -1;
		for (k = 0; k < r->o.npids; k++) {
			a->mapped = r->late.on ? 0 : -1;
			if (pid_maps(r->o.pids[k], a->dev, a->ino)) {
				a->mapped = 1;
				break;
			}
		}
		if (r->late.on && (a->dev || a->ino) && !known(r, a->dev, a->ino)) {
			err = remember(r, a->dev, a->ino, NULL, 0, 0);
			if (err)
				return err;
		}
	}
	return 0;
}

/* Is thread @tid known to have set @set's perf events? */
static bool covered(const struct sdt_recorder *r, pid_t tid, uint32_t set)
{
	size_t i;

	for (i = 0; i < r->late.ncover; i++)
		if (r->late.cover[i].tid == tid && r->late.cover[i].set == set)
			return true;
	return false;
}

static int cover_add(struct sdt_recorder *r, pid_t tid, uint32_t set)
{
	size_t cap = r->late.cover_cap;

	if (sdt_grow((void **)&r->late.cover, &cap, r->late.ncover + 1, sizeof(*r->late.cover)))
		return sdt_err(-ENOMEM, "out of memory");
	r->late.cover_cap = cap;
	r->late.cover[r->late.ncover].tid = tid;
	r->late.cover[r->late.ncover].set = set;
	r->late.ncover++;
	return 0;
}

void sdt_rec_late_inherit(struct sdt_recorder *r, pid_t parent, pid_t tid)
{
	size_t i, n = r->late.ncover;

	for (i = 0; i < n; i++)
		if (r->late.cover[i].tid == parent && !covered(r, tid, r->late.cover[i].set))
			if (cover_add(r, tid, r->late.cover[i].set))
				return;
}

int sdt_rec_late_anchor(struct sdt_recorder *r, pid_t parent, pid_t child, int **fds, size_t *n,
			size_t *cap)
{
	size_t s;
	int err = 0;

	for (s = 0; s < r->nsets && !err; s++) {
		const struct rec_set *rs = &r->sets[s];

		if (rs->system_wide || !rs->ntps)
			continue;
		/* the first set is on every followed task (inherited from the command) */
		if (s > 0 && !covered(r, parent, (uint32_t)s))
			continue;
		err = sdt_rec_perf_open_anchors(rs, child, fds, n, cap);
	}
	return err == -ENOMEM ? err : 0;
}

void sdt_rec_late_gone(struct sdt_recorder *r, pid_t tid)
{
	size_t i = 0;

	while (i < r->late.ncover) {
		if (r->late.cover[i].tid == tid)
			r->late.cover[i] = r->late.cover[--r->late.ncover];
		else
			i++;
	}
}

/* The threads of process @pid (at most @max) into @tids; their number. */
static size_t threads_of(pid_t pid, pid_t *tids, size_t max)
{
	char path[64];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d) {
		tids[0] = pid;
		return 1;
	}
	while (n < max && (de = readdir(d)))
		if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
			tids[n++] = (pid_t)atoi(de->d_name);
	closedir(d);
	return n;
}

/*
 * Give the threads of @pid (just @pid at its exec stop: one thread then) set @setno's perf
 * events, where they do not have them yet. A thread created meanwhile by one that had none is
 * missed (no ptrace stop holds -p or -a processes).
 */
static int give_events(struct sdt_recorder *r, uint32_t setno, pid_t pid, bool one_thread)
{
	const struct rec_set *rs = &r->sets[setno];
	pid_t tids[1024];
	size_t n, i;
	int err;

	/* sets without tracepoints (the BPF engine's): its program follows the processes by tgid */
	if (setno == 0 || rs->system_wide || !rs->ntps)
		return 0;
	n = one_thread ? (tids[0] = pid, 1) : threads_of(pid, tids, ARRAY_SIZE(tids));
	for (i = 0; i < n; i++) {
		if (covered(r, tids[i], setno))
			continue;
		err = sdt_rec_perf_open_late(&r->perf, rs, setno, &tids[i], 1, true,
					     r->counting);
		if (!err)
			err = cover_add(r, tids[i], setno);
		if (err)
			return err;
	}
	return 0;
}

static int cmp_map(const void *a, const void *b)
{
	const struct rec_tpmap *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Set @setno of @sp->sets was created: its tracefs events in the map, a counter per event.
 * Here, not in recorder_samples.c, which calls this file (the ring's fork and mmap ops): the
 * calls between the two go one way (layout/layers).
 */
int sdt_rec_samples_add_set(struct rec_samples *sp, uint32_t setno)
{
	const struct rec_set *rs = &(*sp->sets)[setno];
	size_t nkev = rs->ntps, total, i, cap = sp->map_cap;
	uint64_t *counts;

	total = rs->base + rs->nevents;
	counts = sdt_reallocarray(sp->counts, total ? total : 1, sizeof(*counts));
	if (!counts)
		return sdt_err(-ENOMEM, "out of memory");
	sp->counts = counts;
	for (i = sp->nevents; i < total; i++)
		counts[i] = 0;
	if (sdt_grow((void **)&sp->map, &cap, sp->nkev + nkev + 1, sizeof(*sp->map)))
		return sdt_err(-ENOMEM, "out of memory");
	sp->map_cap = cap;
	for (i = 0; i < nkev; i++) {
		sp->map[sp->nkev + i].id = rs->tps[i].tp_id;
		sp->map[sp->nkev + i].event = (uint32_t)i;
		sp->map[sp->nkev + i].set = setno;
	}
	sp->nkev += nkev;
	if (total > sp->nevents)
		sp->nevents = total;
	if (sp->nkev > 1) /* qsort(NULL, 0) is undefined */
		qsort(sp->map, sp->nkev, sizeof(*sp->map), cmp_map);
	return 0;
}

/* Adds [@first, nadds) are armed by set @setno: as mapped, with their files' device and inode. */
static void adds_armed(struct sdt_recorder *r, size_t first, int setno)
{
	struct stat st;
	size_t i;

	for (i = first; i < r->nadds; i++) {
		struct rec_added *a = &r->adds[i];

		a->set = setno;
		a->mapped = 1;
		if (a->f->path && stat(a->f->path, &st) == 0) {
			a->dev = st.st_dev;
			a->ino = st.st_ino;
		}
	}
}

/*
 * Adds [@first, nadds) came from on_file: the engine arms them as a set of their own (tracefs:
 * a new group of uprobes; BPF: plans and a link); here its events go to the sample map and the
 * sink, and system-wide into the rings (followed threads get them in give_events()).
 */
static int arm_adds(struct sdt_recorder *r, size_t first, int *setno)
{
	size_t cap = r->sets_cap, nsets = r->nsets, i;
	const struct rec_set *rs;
	int err, e2;

	/* the filters are placed for the first set only (its events, its fds) */
	if (r->o.filter_for)
		return sdt_err(-ENOTSUP, "filters are not applied to files armed during the run yet "
					 "(name the file with -x to arm it at the start)");
	if (sdt_grow((void **)&r->sets, &cap, r->nsets + 1, sizeof(*r->sets)))
		return sdt_err(-ENOMEM, "out of memory");
	r->sets_cap = cap;
	err = r->eng->arm_late(r, first);
	if (r->nsets == nsets)
		return err;
	/* a set appended keeps its events, even when arming it failed after (no hit, and why) */
	*setno = (int)r->nsets - 1;
	rs = &r->sets[*setno];
	if (!err)
		adds_armed(r, first, *setno);
	e2 = sdt_rec_samples_add_set(&r->samples, (uint32_t)*setno);
	for (i = 0; !e2 && i < rs->nevents && r->sink->on_event_desc; i++) {
		e2 = r->sink->on_event_desc(r->sink->ctx, r->eng->event(r, rs->base + i));
		if (e2 > 0)
			e2 = 0;
	}
	if (!err)
		err = e2;
	if (!err && rs->system_wide && rs->ntps) {
		pid_t all = -1;

		err = sdt_rec_perf_open_late(&r->perf, rs, (uint32_t)*setno, &all, 1, false,
					     r->counting);
	}
	if (!err)
		r->late.armed_files++;
	return err;
}

/*
 * Adds [@first, nadds), met in @pid, could not be armed (@why): said now, and kept for the end's
 * reasons (sdt_recorder__unarmed()): each add's reason, each provider:event once.
 */
static int note_unarmed(struct sdt_recorder *r, size_t first, pid_t pid, const char *path,
			const char *why)
{
	size_t i, k, j, cap;

	sdt_print(SDT_WARN, "cannot arm '%s' (pid %d): %s\n", path, (int)pid, why);
	for (i = first; i < r->nadds; i++) {
		struct rec_added *a = &r->adds[i];

		free(a->unarmed);
		a->unarmed = sdt_strdup(why);
		a->unarmed_pid = pid;
		if (!a->unarmed)
			return sdt_err(-ENOMEM, "out of memory");
		for (k = 0; k < a->n; k++) {
			const struct sdt_site *st = &a->f->sites[a->sites[k]];
			struct rec_unarmed_event *u;

			for (j = 0; j < r->late.nunarmed; j++) {
				u = &r->late.unarmed[j];
				if (u->add >= first && !strcmp(u->provider, st->provider) &&
				    !strcmp(u->name, st->name))
					break;
			}
			if (j < r->late.nunarmed)
				continue;
			cap = r->late.unarmed_cap;
			if (sdt_grow((void **)&r->late.unarmed, &cap, r->late.nunarmed + 1,
				     sizeof(*r->late.unarmed)))
				return sdt_err(-ENOMEM, "out of memory");
			r->late.unarmed_cap = cap;
			u = &r->late.unarmed[r->late.nunarmed++];
			u->add = i;
			u->provider = st->provider;
			u->name = st->name;
		}
	}
	return 0;
}

/*
 * File @dev/@ino, mapped by @pid, opened as @path (its MMAP2 record's time @seen_ns, 0 at an
 * exec stop): ask the caller, arm what it adds. The set arming it (-1: none) in *@setno. A
 * failure to arm one file is told (SDT_WARN) and the file skipped: the recording goes on. -errno
 * only for what ends it (no memory, the sink's error).
 */
static int resolve_new(struct sdt_recorder *r, pid_t pid, const char *path, dev_t dev, ino_t ino,
		       const unsigned char *id, size_t idn, uint64_t seen_ns, int *setno)
{
	uint64_t t0 = sdt_mono_ns(), t1;
	char bid[41];
	size_t first = r->nadds;
	int err = 0;

	*setno = -1;
	if (r->o.on_file) {
		if (idn)
			hex(id, idn > 20 ? 20 : idn, bid);
		r->late.in_callback = true;
		err = r->o.on_file(r->o.on_file_ctx, r, pid, path, idn ? bid : NULL);
		r->late.in_callback = false;
		if (err < 0)
			return err;
		err = 0;
	}
	t1 = sdt_mono_ns();
	if (r->nadds > first) {
		err = arm_adds(r, first, setno);
		/* the arming window's parts (bench/b71-follow.sh, BENCHMARKS.md) */
		if (seen_ns)
			sdt_debug("late: '%s' (pid %d): its MMAP2 record read after %.3f ms, "
				  "resolved in %.3f ms, armed in %.3f ms\n",
				  path, (int)pid, seen_ns < t0 ? (double)(t0 - seen_ns) / 1e6 : 0.0,
				  (double)(t1 - t0) / 1e6, (double)(sdt_mono_ns() - t1) / 1e6);
		else
			sdt_debug("late: '%s' (pid %d): at its exec stop, resolved in %.3f ms, "
				  "armed in %.3f ms\n",
				  path, (int)pid, (double)(t1 - t0) / 1e6,
				  (double)(sdt_mono_ns() - t1) / 1e6);
		if (err == -ENOMEM || r->stop)
			return err;
		if (err) {
			char why[1024];

			snprintf(why, sizeof(why), "%s", sdt_errmsg());
			*setno = -1;
			err = note_unarmed(r, first, pid, path, why);
		}
	}
	if (!err)
		err = remember(r, dev, ino, id, idn, *setno);
	return err;
}

/*
 * The events of set @setno on @pid (given_events()), then, for a set created just now, say so:
 * only once its perf events are open (a test may make the process fire when it reads this).
 */
static int give_and_tell(struct sdt_recorder *r, int setno, bool fresh, pid_t pid, bool one_thread,
			 const char *path)
{
	int err;

	if (setno <= 0)
		return 0;
	err = give_events(r, (uint32_t)setno, pid, one_thread);
	if (!err && fresh)
		sdt_print(SDT_INFO, "armed %zu events in '%s' (pid %d)\n", r->sets[setno].nevents,
			  path, (int)pid);
	return err;
}

/*
 * A path that names @name (in @pid's mount namespace) in ours, with @dev/@ino when @check: the
 * name itself, else through /proc/PID/root (another mount namespace). 0 and *@st, or -1.
 */
static int our_path(pid_t pid, const char *name, bool check, dev_t dev, ino_t ino, char *out,
		    size_t size, struct stat *st)
{
	if (name[0] == '/' && stat(name, st) == 0 && (!check || (st->st_dev == dev && st->st_ino == ino))) {
		snprintf(out, size, "%s", name);
		return 0;
	}
	if (name[0] == '/' && snprintf(out, size, "/proc/%d/root%s", (int)pid, name) < (int)size &&
	    stat(out, st) == 0 && (!check || (st->st_dev == dev && st->st_ino == ino)))
		return 0;
	return -1;
}

/*
 * The file name @pid's exec was given (AT_EXECFN: its auxv, then the string in its memory, at
 * its exec stop) into @out. 0, or -1 (gone, another word size, not readable).
 */
static int exec_fn(pid_t pid, char *out, size_t size)
{
	unsigned long av[2], at = 0;
	char p[64];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "/proc/%d/auxv", (int)pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	while (read(fd, av, sizeof(av)) == (ssize_t)sizeof(av) && av[0] != AT_NULL)
		if (av[0] == AT_EXECFN) {
			at = av[1];
			break;
		}
	close(fd);
	if (!at)
		return -1;
	snprintf(p, sizeof(p), "/proc/%d/mem", (int)pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = pread(fd, out, size - 1, (off_t)at);
	close(fd);
	if (n <= 0)
		return -1;
	out[n] = '\0';
	return out[0] ? 0 : -1;
}

/* argv[0] of @pid (its /proc/PID/cmdline) into @out; 0 or -1. */
static int argv0(pid_t pid, char *out, size_t size)
{
	char p[64];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "/proc/%d/cmdline", (int)pid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, out, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	out[n] = '\0';
	return 0;
}

/*
 * Is the file @pid exec'd a script (@st: the interpreter the kernel ran for it)? Its path
 * (absolute: from @pid's working directory; malloc'ed), with the interpreter as its #! line
 * names it in @interp; NULL when not (or no memory). A script is a file other than the
 * executable that starts with "#!": a file name read in a tracee of another word size is
 * garbage, and finds none.
 */
static char *exec_script(pid_t pid, const struct stat *st, char *interp, size_t isize)
{
	char fn[4096], in[4200], cwd[4096];
	struct stat sst;
	char head[2];
	ssize_t n;
	int fd;

	if (exec_fn(pid, fn, sizeof(fn)))
		return NULL;
	if (fn[0] == '/')
		snprintf(in, sizeof(in), "/proc/%d/root%s", (int)pid, fn);
	else
		snprintf(in, sizeof(in), "/proc/%d/cwd/%s", (int)pid, fn);
	fd = open(in, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	n = read(fd, head, sizeof(head));
	if (fstat(fd, &sst) || n != 2 || memcmp(head, "#!", 2) ||
	    (sst.st_dev == st->st_dev && sst.st_ino == st->st_ino)) {
		close(fd);
		return NULL;
	}
	close(fd);
	if (argv0(pid, interp, isize))
		snprintf(interp, isize, "%s", "?");
	if (fn[0] == '/')
		return sdt_strdup(fn);
	snprintf(in, sizeof(in), "/proc/%d/cwd", (int)pid);
	n = readlink(in, cwd, sizeof(cwd) - 1);
	if (n <= 0)
		return NULL;
	cwd[n] = '\0';
	return sdt_asprintf("%s/%s", strcmp(cwd, "/") ? cwd : "",
			    strncmp(fn, "./", 2) ? fn : fn + 2);
}

/*
 * Exec @pid made of @path (@st): kept, in order, for the end (struct rec_exec), and said at
 * SDT_INFO as it happens. Best effort: without memory it is only counted.
 */
static void note_exec(struct sdt_recorder *r, pid_t pid, const char *path, const struct stat *st)
{
	char interp[4096];
	char *script = exec_script(pid, st, interp, sizeof(interp));
	size_t cap = r->late.execs_cap;
	struct rec_exec *x;

	if (script)
		sdt_print(SDT_INFO, "exec (pid %d): %s %s (a script; %s runs it)\n", (int)pid, interp,
			  script, path);
	else
		sdt_print(SDT_INFO, "exec (pid %d): %s\n", (int)pid, path);
	if (r->late.nexecs >= REC_EXECS_MAX ||
	    sdt_grow((void **)&r->late.execs, &cap, r->late.nexecs + 1, sizeof(*r->late.execs))) {
		free(script);
		r->late.execs_more++;
		return;
	}
	r->late.execs_cap = cap;
	x = &r->late.execs[r->late.nexecs];
	memset(x, 0, sizeof(*x));
	x->pid = pid;
	x->dev = st->st_dev;
	x->ino = st->st_ino;
	x->path = sdt_strdup(path);
	x->script = script;
	if (script)
		x->interp = sdt_strdup(interp);
	if (!x->path || (script && !x->interp)) {
		free(x->path);
		free(x->script);
		free(x->interp);
		r->late.execs_more++;
		return;
	}
	r->late.nexecs++;
}

int sdt_rec_late_exec(struct sdt_recorder *r, pid_t pid, pid_t former)
{
	char link[64], name[4096], path[4200];
	const struct rec_known_file *k;
	struct stat st, pst;
	ssize_t n;
	size_t i;
	int setno, err;

	if (!r->late.on)
		return 0;
	if (former != pid) {
		/* a thread exec'd: it took the leader's pid, the leader is gone */
		sdt_rec_late_gone(r, pid);
		for (i = 0; i < r->late.ncover; i++)
			if (r->late.cover[i].tid == former)
				r->late.cover[i].tid = pid;
	}
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	if (stat(link, &st))
		return 0; /* gone */
	mark_mapped(r, st.st_dev, st.st_ino);
	n = readlink(link, name, sizeof(name) - 1);
	if (n <= 0)
		return 0;
	name[n] = '\0';
	/* its own stat: a name that is not this file (another namespace) must not change @st */
	if (our_path(pid, name, true, st.st_dev, st.st_ino, path, sizeof(path), &pst))
		snprintf(path, sizeof(path), "%s", link);
	note_exec(r, pid, path, &st);
	k = known(r, st.st_dev, st.st_ino);
	if (k) {
		setno = k->set;
	} else {
		err = resolve_new(r, pid, path, st.st_dev, st.st_ino, NULL, 0, 0, &setno);
		if (err)
			return err;
		return give_and_tell(r, setno, true, pid, true, path);
	}
	return give_and_tell(r, setno, false, pid, true, path);
}

void sdt_rec_late_on_mmap(void *ctx, const struct sdt_ring_mmap *m)
{
	struct rec_samples *sp = ctx;
	struct sdt_recorder *r = sp->r;
	struct rec_pending_map *p;
	size_t cap;

	/* not a file: [vdso], //anon (a JIT's code), /memfd:... are looked at by our_path() */
	if (!r || !r->late.on || m->pid == (uint32_t)getpid() || m->filename[0] != '/' ||
	    m->filename[1] == '/')
		return;
	if (m->build_id_size && build_id_unmatched(r, m->build_id, m->build_id_size))
		return;
	if (!m->build_id_size && known(r, makedev(m->maj, m->min), (ino_t)m->ino) &&
	    !r->late.ncover && !has_command(r) && !r->o.npids)
		return; /* system-wide, seen: nothing to do */
	cap = r->late.pending_cap;
	if (r->late.npending >= PENDING_MAX ||
	    sdt_grow((void **)&r->late.pending, &cap, r->late.npending + 1,
		     sizeof(*r->late.pending))) {
		r->late.pending_dropped++;
		return;
	}
	r->late.pending_cap = cap;
	p = &r->late.pending[r->late.npending];
	p->filename = sdt_strdup(m->filename);
	if (!p->filename) {
		r->late.pending_dropped++;
		return;
	}
	p->pid = (pid_t)m->pid;
	p->maj = m->maj;
	p->min = m->min;
	p->ino = m->ino;
	p->build_id_size = m->build_id_size;
	memcpy(p->build_id, m->build_id, sizeof(p->build_id));
	p->time_ns = m->time_ns;
	r->late.npending++;
}

/* One mapping read from a ring: mapped, known or new, its set's events on the process. */
static int one_pending(struct sdt_recorder *r, const struct rec_pending_map *p)
{
	char path[4200];
	const struct rec_known_file *k;
	bool have_ino = !p->build_id_size;
	dev_t dev = makedev(p->maj, p->min);
	ino_t ino = (ino_t)p->ino;
	struct stat st;
	int setno, err;

	if (!have_ino || !known(r, dev, ino)) {
		if (our_path(p->pid, p->filename, have_ino, dev, ino, path, sizeof(path), &st))
			return 0; /* gone, or not reachable from here */
		dev = st.st_dev;
		ino = st.st_ino;
	}
	mark_mapped(r, dev, ino);
	k = known(r, dev, ino);
	if (k)
		return give_and_tell(r, k->set, false, p->pid, false, p->filename);
	err = resolve_new(r, p->pid, path, dev, ino, p->build_id, p->build_id_size, p->time_ns,
			  &setno);
	if (err)
		return err;
	return give_and_tell(r, setno, true, p->pid, false, path);
}

int sdt_rec_late_pending(struct sdt_recorder *r)
{
	size_t i;
	int err = 0;

	for (i = 0; i < r->late.npending; i++) {
		if (!err && !r->stop)
			err = one_pending(r, &r->late.pending[i]);
		free(r->late.pending[i].filename);
	}
	r->late.npending = 0;
	return err;
}

void sdt_rec_late_release(struct sdt_recorder *r)
{
	size_t i;

	for (i = 0; i < r->late.npending; i++)
		free(r->late.pending[i].filename);
	free(r->late.pending);
	free(r->late.files);
	free(r->late.cover);
	free(r->late.unarmed);
	for (i = 0; i < r->late.nexecs; i++) {
		free(r->late.execs[i].path);
		free(r->late.execs[i].script);
		free(r->late.execs[i].interp);
	}
	free(r->late.execs);
	memset(&r->late, 0, sizeof(r->late));
}
