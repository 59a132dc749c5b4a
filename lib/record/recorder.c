/* SPDX-License-Identifier: MIT */
/*
 * sdt_recorder: the orchestration of a recording (stages in recorder.h).
 *
 * The hot path is ring.c's drain loop calling on_ring_sample() below: a binary search from the
 * raw record's common_type (the tracepoint id) to our event number, a counter, the sink. Nothing
 * is allocated and no system call is made per sample; the reader sleeps in epoll until a ring
 * passes its watermark (a quarter of the ring), a target exits, a signal or the duration ends.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scan/file.h"
#include "util/internal.h"
#include "record/perf_event.h"
#include "record/recorder.h"
#include "record/ring.h"
#include "trace/trace_event.h"
#include "record/tracefs.h"
#include "scan/types.h"
#include "record/uprobe.h"

/* Tag of an epoll entry: rings are 0..nrings-1, process exits PID_TAG + i. */
#define PID_TAG (1ull << 32)

struct added {
	const struct sdt_file *f;
	size_t *sites;
	size_t n;
	struct sdt_arg_type **types; /* NULL, or per site NULL / the site's nargs entries; owned */
};

struct tpmap {
	uint64_t id;
	uint32_t event;
};

struct watched {
	pid_t pid;
	int pidfd;
	bool done;
};

/*
 * The names of the threads seen (tid -> comm), so that a thread created by fork or clone, which
 * gets no COMM record, is named after its parent. Open addressing, grown on demand, bounded.
 */
struct comm_slot {
	uint32_t tid; /* 0: empty */
	char comm[16];
};
#define COMM_MAP_MAX (1u << 20)

/*
 * Counting (stat) with more events than this counts samples of one shared tracefs event instead
 * of reading a counter per event: the kernel's teardown waits a grace period (~90 ms) per
 * tracefs event, so 517 counters took ~50 s to close. Up to this many, exact counters.
 */
#define COUNTERS_MAX_EVENTS 8

/*
 * The signals that stop a recording cleanly. One that was ignored when the recording started
 * stays ignored, as in every POSIX utility (a non-interactive shell starts `cmd &` with SIGINT
 * and SIGQUIT ignored, nohup ignores SIGHUP), except SIGTERM: the way to stop any of them.
 */
static const struct {
	int sig;
	bool keep_ignored;
} stop_signals[] = {{SIGINT, true}, {SIGHUP, true}, {SIGTERM, false}};

struct sdt_recorder {
	struct sdt_record_opts o;
	bool counting; /* counters, no rings: count_only with few events */
	struct comm_slot *comms;
	size_t comms_cap, comms_n;
	struct added *adds;
	size_t nadds;
	struct sdt_uprobe_set *set;
	const char *sem_method;
	/* perf events and rings */
	int *fds;
	uint32_t *fd_event; /* the tracefs event (index) of each fd */
	int *fd_cpu;	    /* and its CPU */
	size_t nfds, fds_cap;
	struct sdt_ring *rings;
	size_t nrings;
	int epfd;
	struct tpmap *map; /* tracefs event id -> index of the set's tracefs events */
	size_t nkev;
	size_t nevents;
	uint64_t *counts;
	uint64_t lost;
	/* targets */
	pid_t *tids; /* threads of -p processes, or the child; -1 system-wide */
	size_t ntids;
	struct watched *watch;
	size_t nwatch, live;
	/* the command */
	pid_t child;
	int go_fd, err_fd;
	bool released, reaped;
	int status;
	const struct sdt_record_sink *sink;
	volatile sig_atomic_t stop;
	volatile sig_atomic_t stop_sig; /* the signal that asked it, 0: none */
	/* the caller's mask, restored at the end and given to the command */
	sigset_t oldmask;
	struct sigaction old[ARRAY_SIZE(stop_signals)];
	bool handled[ARRAY_SIZE(stop_signals)]; /* our handler is installed for stop_signals[i] */
};

static struct sdt_recorder *volatile active;

static void on_signal(int sig)
{
	struct sdt_recorder *r = active;

	if (r) {
		if (!r->stop_sig)
			r->stop_sig = sig;
		r->stop = 1;
	}
}

/* exit() during a recording (a sink calling exit): close what holds the events, remove them. */
static void at_exit_cleanup(void)
{
	struct sdt_recorder *r = active;
	size_t i;

	if (r) {
		for (i = 0; i < r->nrings; i++)
			sdt_ring_unmap(&r->rings[i]);
		for (i = 0; i < r->nfds; i++)
			close(r->fds[i]);
		r->nfds = r->nrings = 0;
	}
	sdt_uprobe_emergency_remove();
}

static pthread_once_t atexit_once = PTHREAD_ONCE_INIT;
static void register_atexit(void)
{
	atexit(at_exit_cleanup);
}

int sdt_recorder__new(const struct sdt_record_opts *opts, struct sdt_recorder **out)
{
	struct sdt_recorder *r;
	int targets;

	r = calloc(1, sizeof(*r));
	if (!r)
		return sdt_err(-ENOMEM, "out of memory");
	if (opts)
		memcpy(&r->o, opts, opts->sz < sizeof(r->o) ? opts->sz : sizeof(r->o));
	r->o.sz = sizeof(r->o);
	r->epfd = r->go_fd = r->err_fd = -1;
	r->child = -1;
	r->status = -1;
	targets = (r->o.argv && r->o.argv[0]) + (r->o.npids > 0) + r->o.system_wide;
	if (targets != 1) {
		free(r);
		return sdt_err(-EINVAL, "give exactly one target: a command, processes (-p) or "
					"the whole system (-a)");
	}
	if (!r->o.ring_pages)
		r->o.ring_pages = SDT_RING_PAGES_DEFAULT;
	if (r->o.ring_pages & (r->o.ring_pages - 1)) {
		size_t pages = r->o.ring_pages;

		free(r);
		return sdt_err(-EINVAL, "ring size must be a power of two pages, not %zu", pages);
	}
	if (r->o.semaphore == SDT_SEMAPHORE_POKE && r->o.system_wide) {
		free(r);
		return sdt_err(-EINVAL, "semaphores cannot be poked system-wide (-a): there is no "
					"process to write to; use the kernel's ref_ctr_offset");
	}
	*out = r;
	return 0;
}

static void free_types(struct sdt_arg_type **types, const struct sdt_file *f, const size_t *sites,
		       size_t n)
{
	size_t i;

	for (i = 0; types && i < n; i++)
		if (types[i])
			sdt_arg_types__free(types[i], f->sites[sites[i]].nargs);
	free(types);
}

/* A deep copy of @types (n sites) into *out. 0 or -ENOMEM. */
static int copy_types(struct sdt_arg_type *const *types, const struct sdt_file *f,
		      const size_t *sites, size_t n, struct sdt_arg_type ***out)
{
	struct sdt_arg_type **c;
	size_t i, j, na;

	*out = NULL;
	c = calloc(n ? n : 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!types[i])
			continue;
		na = f->sites[sites[i]].nargs;
		c[i] = calloc(na ? na : 1, sizeof(**c));
		if (!c[i])
			goto fail;
		for (j = 0; j < na; j++) {
			if (sdt_arg_type_copy(&c[i][j], &types[i][j])) {
				sdt_arg_types__free(c[i], j);
				c[i] = NULL;
				goto fail;
			}
		}
	}
	*out = c;
	return 0;
fail:
	free_types(c, f, sites, n);
	return -ENOMEM;
}

int sdt_recorder__add(struct sdt_recorder *r, const struct sdt_file *f, const size_t *sites,
		      size_t n)
{
	return sdt_recorder__add_typed(r, f, sites, n, NULL);
}

int sdt_recorder__add_typed(struct sdt_recorder *r, const struct sdt_file *f, const size_t *sites,
			    size_t n, struct sdt_arg_type *const *types)
{
	struct added *a;
	size_t cap = r->nadds, total = n, i;
	int err;

	for (i = 0; i < r->nadds; i++)
		total += r->adds[i].n;
	/* A file with a million notes must not become a million uprobes. */
	if (total > SDT_RECORD_MAX_SITES)
		return sdt_err(-E2BIG,
			       "%zu probe sites to arm, more than %u: name fewer events (or one "
			       "binary) in the event specs",
			       total, SDT_RECORD_MAX_SITES);
	for (i = 0; i < n; i++) {
		if (sites[i] >= f->nsites)
			return sdt_err(-ERANGE, "'%s': no site %zu", f->path, sites[i]);
		/* the sizes now, so that a mismatch is told before anything starts */
		if (types && types[i]) {
			err = sdt_types__check(f, &f->sites[sites[i]], types[i],
					       f->sites[sites[i]].nargs);
			if (err)
				return err;
		}
	}
	if (sdt_grow((void **)&r->adds, &cap, r->nadds + 1, sizeof(*r->adds)))
		return sdt_err(-ENOMEM, "out of memory");
	a = &r->adds[r->nadds];
	memset(a, 0, sizeof(*a));
	a->sites = sdt_reallocarray(NULL, n ? n : 1, sizeof(*sites));
	if (!a->sites)
		return sdt_err(-ENOMEM, "out of memory");
	memcpy(a->sites, sites, n * sizeof(*sites));
	if (types && copy_types(types, f, sites, n, &a->types)) {
		free(a->sites);
		a->sites = NULL;
		return sdt_err(-ENOMEM, "out of memory");
	}
	a->f = f;
	a->n = n;
	r->nadds++;
	return 0;
}

void sdt_recorder__stop(struct sdt_recorder *r)
{
	if (r)
		r->stop = 1;
}

int sdt_recorder__exit_status(const struct sdt_recorder *r)
{
	/* a command never released exits 127 without having run: that is no status of its */
	return r->reaped && r->released ? r->status : -1;
}

int sdt_recorder__stop_signal(const struct sdt_recorder *r)
{
	return r->stop_sig;
}

size_t sdt_recorder__event_count(const struct sdt_recorder *r)
{
	return r->nevents;
}

uint64_t sdt_recorder__count(const struct sdt_recorder *r, size_t event)
{
	return event < r->nevents && r->counts ? r->counts[event] : 0;
}

uint64_t sdt_recorder__lost(const struct sdt_recorder *r)
{
	return r->lost;
}

const char *sdt_recorder__semaphore_method(const struct sdt_recorder *r)
{
	return r->sem_method ? r->sem_method : "none";
}

int sdt_record__remove_stale(char **names)
{
	return sdt_uprobe_remove_stale(names);
}

/* ---- samples -------------------------------------------------------------------------- */

static int lookup(const struct sdt_recorder *r, uint64_t id)
{
	size_t lo = 0, hi = r->nkev;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r->map[mid].id == id)
			return (int)r->map[mid].event;
		if (r->map[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static int on_ring_sample(void *ctx, struct sdt_trace_sample *s)
{
	struct sdt_recorder *r = ctx;
	const struct sdt_uprobe_kevent *kv;
	uint16_t type, demux;
	int ev;

	if (s->raw_size < sizeof(type))
		return 0;
	memcpy(&type, s->raw, sizeof(type));
	ev = lookup(r, type);
	if (ev < 0)
		return 0;
	kv = sdt_uprobe_set__kernel_event(r->set, (size_t)ev);
	if (kv->demux_offset < 0) {
		ev = (int)kv->event;
	} else {
		/* a shared tracefs event: the probe line put its event's number in the record */
		if (s->raw_size < (uint32_t)kv->demux_offset + sizeof(demux))
			return 0;
		memcpy(&demux, (const uint8_t *)s->raw + kv->demux_offset, sizeof(demux));
		if (demux >= r->nevents || sdt_uprobe_set__event(r->set, demux)->tp_id != kv->tp_id)
			return 0;
		ev = demux;
	}
	s->event = (uint32_t)ev;
	r->counts[ev]++;
	return r->sink->on_sample ? r->sink->on_sample(r->sink->ctx, s) : 0;
}

static struct comm_slot *comm_find(struct sdt_recorder *r, uint32_t tid)
{
	size_t i, mask = r->comms_cap - 1;

	if (!r->comms_cap)
		return NULL;
	for (i = (tid * 2654435761u) & mask;; i = (i + 1) & mask) {
		if (r->comms[i].tid == tid || !r->comms[i].tid)
			return &r->comms[i];
	}
}

/* Remember @tid's name (best effort: out of memory or too many threads only lose names). */
static void comm_remember(struct sdt_recorder *r, uint32_t tid, const char *comm)
{
	struct comm_slot *slot;

	if (!tid)
		return;
	if ((r->comms_n + 1) * 2 > r->comms_cap) {
		size_t ncap = r->comms_cap ? r->comms_cap * 2 : 256, i;
		struct comm_slot *old = r->comms, *nw;

		if (ncap > COMM_MAP_MAX * 2)
			return;
		nw = calloc(ncap, sizeof(*nw));
		if (!nw)
			return;
		r->comms = nw;
		r->comms_cap = ncap;
		r->comms_n = 0;
		for (i = 0; old && i < ncap / 2; i++) {
			if (old[i].tid) {
				*comm_find(r, old[i].tid) = old[i];
				r->comms_n++;
			}
		}
		free(old);
	}
	slot = comm_find(r, tid);
	if (!slot->tid)
		r->comms_n++;
	slot->tid = tid;
	snprintf(slot->comm, sizeof(slot->comm), "%s", comm);
}

static void on_ring_comm(void *ctx, uint32_t pid, uint32_t tid, const char *comm)
{
	struct sdt_recorder *r = ctx;

	comm_remember(r, tid, comm);
	if (r->sink->on_comm)
		r->sink->on_comm(r->sink->ctx, pid, tid, comm);
}

/* A new thread or process carries its parent thread's name until it execs or renames itself. */
static void on_ring_fork(void *ctx, uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid)
{
	struct sdt_recorder *r = ctx;
	struct comm_slot *parent = comm_find(r, ptid);
	char comm[16];

	(void)ppid;
	if (!parent || parent->tid != ptid || tid == ptid)
		return;
	memcpy(comm, parent->comm, sizeof(comm));
	comm_remember(r, tid, comm);
	if (r->sink->on_comm)
		r->sink->on_comm(r->sink->ctx, pid, tid, comm);
}

static void on_ring_lost(void *ctx, uint32_t cpu, uint64_t count)
{
	struct sdt_recorder *r = ctx;

	r->lost += count;
	if (r->sink->on_lost)
		r->sink->on_lost(r->sink->ctx, cpu, count);
}

static int cmp_map(const void *a, const void *b)
{
	const struct tpmap *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* ---- the command ---------------------------------------------------------------------- */

/*
 * In the child: the dispositions and the mask the caller had, not the recorder's. Where our
 * handler replaced one, it was not SIG_IGN (or it stays SIG_IGN); exec resets a handler of the
 * caller's to SIG_DFL anyway.
 */
static void child_signals(const struct sdt_recorder *r)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(stop_signals); i++)
		if (r->handled[i])
			signal(stop_signals[i].sig,
			       r->old[i].sa_handler == SIG_IGN ? SIG_IGN : SIG_DFL);
	pthread_sigmask(SIG_SETMASK, &r->oldmask, NULL);
}

static int start_child(struct sdt_recorder *r, bool traceme)
{
	int go[2] = {-1, -1}, ep[2] = {-1, -1};
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) || pipe2(ep, O_CLOEXEC)) {
		int e = errno;

		if (go[0] >= 0) {
			close(go[0]);
			close(go[1]);
		}
		return sdt_err(-e, "cannot create a pipe: %s", strerror(e));
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(ep[0]);
		close(ep[1]);
		return sdt_err(-e, "cannot start '%s': fork: %s", r->o.argv[0], strerror(e));
	}
	if (pid == 0) {
		char c;
		ssize_t n;
		int e;

		child_signals(r);
		close(go[1]);
		close(ep[0]);
		if (traceme && ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(127);
		do
			n = read(go[0], &c, 1);
		while (n < 0 && errno == EINTR);
		if (n != 1)
			_exit(127); /* sdtrace gave up before arming */
		execvp(r->o.argv[0], r->o.argv);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ep[1]);
	r->go_fd = go[1];
	r->err_fd = ep[0];
	r->child = pid;
	return 0;
}

static void reap_child(struct sdt_recorder *r, bool block)
{
	int st;
	pid_t p;

	if (r->child < 0 || r->reaped)
		return;
	do
		p = waitpid(r->child, &st, block ? 0 : WNOHANG);
	while (p < 0 && errno == EINTR);
	if (p == r->child) {
		r->status = st;
		r->reaped = true;
	}
}

/* Let the command exec; with @poke, catch it at its exec stop and enable the semaphores. */
static int release_child(struct sdt_recorder *r, bool poke)
{
	int e = 0, err = 0, st;
	ssize_t n;

	n = write(r->go_fd, "g", 1);
	close(r->go_fd);
	r->go_fd = -1;
	if (n != 1)
		return sdt_err(-EIO, "cannot release '%s'", r->o.argv[0]);
	r->released = true;
	/*
	 * Traced (PTRACE_TRACEME), the child stops with SIGTRAP once its exec is done: the new
	 * image is mapped and has not run. Signals it got before are passed on.
	 */
	while (poke) {
		pid_t p = waitpid(r->child, &st, 0);

		if (p < 0 && errno == EINTR)
			continue;
		if (p != r->child)
			break;
		if (!WIFSTOPPED(st)) {
			r->status = st;
			r->reaped = true;
			break;
		}
		if (WSTOPSIG(st) != SIGTRAP) {
			ptrace(PTRACE_CONT, r->child, NULL, (void *)(long)WSTOPSIG(st));
			continue;
		}
		err = sdt_uprobe_set__poke(r->set, r->child);
		ptrace(PTRACE_DETACH, r->child, NULL, NULL);
		if (err < 0)
			return err;
		err = 0;
		break;
	}
	do
		n = read(r->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(r->err_fd);
	r->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		reap_child(r, true);
		return sdt_err(-e, "cannot run '%s': %s", r->o.argv[0], strerror(e));
	}
	return err;
}

/* ---- targets -------------------------------------------------------------------------- */

static int add_tid(struct sdt_recorder *r, pid_t tid)
{
	size_t cap = r->ntids;

	if (sdt_grow((void **)&r->tids, &cap, r->ntids + 1, sizeof(*r->tids)))
		return sdt_err(-ENOMEM, "out of memory");
	r->tids[r->ntids++] = tid;
	return 0;
}

static int add_process_threads(struct sdt_recorder *r, pid_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int err = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return sdt_err(errno == ENOENT ? -ESRCH : -errno, "no process %d: %s", (int)pid,
			       strerror(errno));
	while (!err && (d = readdir(dir))) {
		long tid = strtol(d->d_name, NULL, 10);

		if (tid > 0)
			err = add_tid(r, (pid_t)tid);
	}
	closedir(dir);
	return err;
}

/* Hand the current name of every thread of process @pid to the sink. */
static void process_comms(struct sdt_recorder *r, pid_t pid)
{
	char path[96], comm[32];
	struct dirent *d;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		long tid = strtol(d->d_name, NULL, 10);
		ssize_t n;
		int fd;

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%ld/comm", (int)pid, tid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, comm, sizeof(comm) - 1);
		close(fd);
		if (n <= 0)
			continue;
		comm[n] = '\0';
		comm[strcspn(comm, "\n")] = '\0';
		comm_remember(r, (uint32_t)tid, comm);
		r->sink->on_comm(r->sink->ctx, (uint32_t)pid, (uint32_t)tid, comm);
	}
	closedir(dir);
}

/*
 * The names threads have now (the -p processes' threads; every thread with -a): the kernel only
 * reports later changes (exec, prctl), and the report names processes by them.
 */
static void synthesize_comms(struct sdt_recorder *r)
{
	struct dirent *d;
	size_t i;
	DIR *dir;

	if (!r->sink->on_comm)
		return;
	for (i = 0; i < r->o.npids; i++)
		process_comms(r, r->o.pids[i]);
	if (!r->o.system_wide || !(dir = opendir("/proc")))
		return;
	while ((d = readdir(dir))) {
		long pid = strtol(d->d_name, NULL, 10);

		if (pid > 0)
			process_comms(r, (pid_t)pid);
	}
	closedir(dir);
}

static int watch_pid(struct sdt_recorder *r, pid_t pid)
{
	struct epoll_event ev = {.events = EPOLLIN};
	size_t cap = r->nwatch;
	int fd;

	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (fd < 0)
		return sdt_err(-errno, "cannot watch process %d: pidfd_open: %s", (int)pid,
			       strerror(errno));
	if (sdt_grow((void **)&r->watch, &cap, r->nwatch + 1, sizeof(*r->watch))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	ev.data.u64 = PID_TAG + r->nwatch;
	if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		int e = errno;

		close(fd);
		return sdt_err(-e, "epoll_ctl: %s", strerror(e));
	}
	r->watch[r->nwatch].pid = pid;
	r->watch[r->nwatch].pidfd = fd;
	r->watch[r->nwatch].done = false;
	r->nwatch++;
	r->live++;
	return 0;
}

/* ---- perf events ---------------------------------------------------------------------- */

static int push_fd(struct sdt_recorder *r, int fd, uint32_t event, int cpu)
{
	size_t cap = r->fds_cap;

	if (r->nfds >= SDT_MAX_PERF_FDS) {
		close(fd);
		return sdt_err(-EMFILE, "more than %d perf events", SDT_MAX_PERF_FDS);
	}
	if (sdt_grow((void **)&r->fds, &cap, r->nfds + 1, sizeof(*r->fds))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	cap = r->fds_cap;
	if (sdt_grow((void **)&r->fd_event, &cap, r->nfds + 1, sizeof(*r->fd_event))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	cap = r->fds_cap;
	if (sdt_grow((void **)&r->fd_cpu, &cap, r->nfds + 1, sizeof(*r->fd_cpu))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	r->fds_cap = cap;
	r->fd_event[r->nfds] = event;
	r->fd_cpu[r->nfds] = cpu;
	r->fds[r->nfds++] = fd;
	return 0;
}

struct open_job {
	struct sdt_recorder *r;
	const int *cpus;
	int *out; /* fd or -errno, one per (cpu, target, event) */
	uint32_t wakeup;
	int first_err;
	char msg[1024];
};

/* Open perf event @i = (cpu * ntids + target) * nkev + tracefs event. */
static void open_one(void *ctx, size_t i)
{
	struct open_job *j = ctx;
	struct sdt_recorder *r = j->r;
	size_t e = i % r->nkev, t = (i / r->nkev) % r->ntids, c = i / r->nkev / r->ntids;
	const struct sdt_uprobe_kevent *d = sdt_uprobe_set__kernel_event(r->set, e);
	struct sdt_perf_open_opts po = {
	    .tp_id = d->tp_id,
	    .sample = !r->counting,
	    .inherit = !r->o.system_wide,
	    .enable_on_exec = r->child > 0,
	    .comm = t == 0 && e == 0, /* the ring owner of the CPU */
	    .wakeup_bytes = j->wakeup,
	};

	j->out[i] = sdt_perf_open(&po, r->tids[t], j->cpus[c]);
	if (j->out[i] < 0 && !(j->out[i] == -ESRCH && r->o.npids) && !j->first_err) {
		j->first_err = j->out[i];
		snprintf(j->msg, sizeof(j->msg), "%s", sdt_errmsg());
	}
}

/*
 * Open every (CPU, target, event), then give each CPU's first event a ring
 * and redirect the others into it. A thread of a -p process that exited meanwhile (ESRCH) is
 * skipped.
 */
static int open_events(struct sdt_recorder *r)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), ncpus = 0, total, c, k, i;
	struct open_job j = {.r = r};
	int *cpus = NULL, err;

	err = sdt_online_cpus(&cpus, &ncpus);
	if (err)
		return err;
	total = ncpus * r->ntids;
	if (total > SDT_MAX_PERF_FDS / r->nkev) {
		err = sdt_err(-EMFILE,
			      "%zu events x %zu CPUs x %zu threads: more than %d perf events",
			      r->nkev, ncpus, r->ntids, SDT_MAX_PERF_FDS);
		goto out;
	}
	total *= r->nkev;
	j.cpus = cpus;
	j.wakeup = (uint32_t)(r->o.ring_pages * page / 4);
	j.out = sdt_reallocarray(NULL, total, sizeof(*j.out));
	if (!r->counting)
		r->rings = calloc(ncpus, sizeof(*r->rings));
	if (!j.out || (!r->counting && !r->rings)) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < total; i++)
		open_one(&j, i);
	/* Every fd opened goes into r->fds first, so that every path closes it. */
	for (i = 0; i < total; i++) {
		if (j.out[i] < 0)
			continue;
		err = push_fd(r, j.out[i], (uint32_t)(i % r->nkev), cpus[i / r->nkev / r->ntids]);
		j.out[i] = -EBADF;
		if (err) {
			for (k = i + 1; k < total; k++)
				if (j.out[k] >= 0)
					close(j.out[k]);
			goto out;
		}
		j.out[i] = (int)(r->nfds - 1); /* now an index into r->fds */
	}
	if (j.first_err) {
		err = sdt_err(j.first_err, "%s", j.msg);
		goto out;
	}
	if (r->counting)
		goto out;
	for (c = 0, i = 0; c < ncpus; c++) {
		int ring_fd = -1;

		for (k = 0; k < r->ntids * r->nkev; k++, i++) {
			int fd;

			if (j.out[i] < 0)
				continue; /* ESRCH: a thread gone */
			fd = r->fds[j.out[i]];
			if (ring_fd < 0) {
				struct sdt_ring *ring = &r->rings[r->nrings];
				struct epoll_event ev = {.events = EPOLLIN};

				err = sdt_ring_map(ring, fd, cpus[c], r->o.ring_pages);
				if (err)
					goto out;
				r->nrings++;
				ev.data.u64 = r->nrings - 1;
				if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, fd, &ev)) {
					err = sdt_err(-errno, "epoll_ctl: %s", strerror(errno));
					goto out;
				}
				ring_fd = fd;
			} else {
				err = sdt_perf_set_output(fd, ring_fd);
				if (err)
					goto out;
			}
		}
	}
out:
	free(j.out);
	free(cpus);
	return err;
}

static void close_events(struct sdt_recorder *r)
{
	size_t i;

	for (i = 0; i < r->nfds; i++)
		sdt_perf_disable(r->fds[i]);
	for (i = 0; i < r->nrings; i++)
		sdt_ring_unmap(&r->rings[i]);
	sdt_perf_close_all(r->fds, r->nfds);
	r->nfds = 0;
	r->nrings = 0;
}

static int drain_all(struct sdt_recorder *r, const struct sdt_ring_ops *ops)
{
	int n = r->nrings ? sdt_rings_drain(r->rings, r->nrings, ops) : 0;

	return n < 0 ? n : 0;
}

/* Sum each event's counters (counting mode). */
static int read_counts(struct sdt_recorder *r)
{
	size_t i;
	int err;

	memset(r->counts, 0, r->nevents * sizeof(*r->counts));
	for (i = 0; i < r->nfds; i++) {
		uint64_t v;

		err = sdt_perf_read_count(r->fds[i], &v);
		if (err)
			return err;
		r->counts[sdt_uprobe_set__kernel_event(r->set, r->fd_event[i])->event] += v;
	}
	return 0;
}

/*
 * The kernel reports a drop with a LOST record written once there is room again; drops at the
 * very end (the ring still full when the target exited) would never be reported. So, with every
 * event disabled and every ring drained, compare each CPU's hit count (the events' counters
 * count every hit, recorded or not) with what arrived, and report the difference as lost.
 */
static int account_unreported_losses(struct sdt_recorder *r)
{
	size_t i, k;
	int err;

	for (i = 0; i < r->nrings; i++) {
		struct sdt_ring *ring = &r->rings[i];
		uint64_t hits = 0, v;

		for (k = 0; k < r->nfds; k++) {
			if (r->fd_cpu[k] != ring->cpu)
				continue;
			err = sdt_perf_read_count(r->fds[k], &v);
			if (err)
				return err;
			hits += v;
		}
		if (hits > ring->samples + ring->lost) {
			uint64_t missing = hits - ring->samples - ring->lost;

			ring->lost += missing;
			on_ring_lost(r, (uint32_t)ring->cpu, missing);
		}
	}
	return 0;
}

/* ---- signals -------------------------------------------------------------------------- */

/*
 * Catch the stop signals (those not ignored at start, see stop_signals), and block them except
 * inside epoll_pwait(): a signal cannot slip between the check of ->stop and the sleep.
 */
static void install_handlers(struct sdt_recorder *r)
{
	struct sigaction sa;
	sigset_t block;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&block);
	for (i = 0; i < ARRAY_SIZE(stop_signals); i++) {
		int sig = stop_signals[i].sig;

		if (sigaction(sig, NULL, &r->old[i]))
			continue;
		if (stop_signals[i].keep_ignored && r->old[i].sa_handler == SIG_IGN)
			continue;
		sigaddset(&block, sig);
		if (!r->o.no_signal_handlers)
			r->handled[i] = !sigaction(sig, &sa, NULL);
	}
	pthread_sigmask(SIG_BLOCK, &block, &r->oldmask);
	active = r;
}

static void restore_handlers(struct sdt_recorder *r)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(stop_signals); i++) {
		if (r->handled[i])
			sigaction(stop_signals[i].sig, &r->old[i], NULL);
		r->handled[i] = false;
	}
	active = NULL;
	pthread_sigmask(SIG_SETMASK, &r->oldmask, NULL);
}

/* ---- the run -------------------------------------------------------------------------- */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int loop(struct sdt_recorder *r, const struct sdt_ring_ops *ops)
{
	uint64_t deadline = r->o.duration_ms ? now_ms() + r->o.duration_ms : 0;
	uint64_t tick = r->o.drain_interval_ms ? r->o.drain_interval_ms : 100;
	uint64_t next_drain = now_ms() + tick;
	struct epoll_event evs[64];
	int n, i, err;

	while (!r->stop) {
		uint64_t now = now_ms(), until = next_drain;
		int timeout;

		if (deadline && now >= deadline)
			break;
		/* Below the watermark the rings would not wake us: drain them on a clock too. */
		if (now >= next_drain) {
			if (!r->counting) {
				err = drain_all(r, ops);
				if (err < 0)
					return err;
			}
			if (r->sink->on_drained)
				r->sink->on_drained(r->sink->ctx);
			next_drain = now + tick;
			until = next_drain;
		}
		if (deadline && deadline < until)
			until = deadline;
		timeout = (int)(until - now);
		n = epoll_pwait(r->epfd, evs, (int)ARRAY_SIZE(evs), timeout, &r->oldmask);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return sdt_err(-errno, "epoll_wait: %s", strerror(errno));
		for (i = 0; i < n; i++) {
			uint64_t tag = evs[i].data.u64;

			if (tag < PID_TAG) {
				if (r->counting || tag >= r->nrings)
					continue;
				/* all of them, merged in time order (ring.c) */
				err = drain_all(r, ops);
				if (err < 0)
					return err;
			} else if (tag - PID_TAG < r->nwatch) {
				struct watched *w = &r->watch[tag - PID_TAG];

				if (!w->done) {
					w->done = true;
					r->live--;
					epoll_ctl(r->epfd, EPOLL_CTL_DEL, w->pidfd, NULL);
					if (w->pid == r->child)
						reap_child(r, true);
				}
			}
		}
		if (r->nwatch && !r->live)
			break;
	}
	return 0;
}

int sdt_recorder__run(struct sdt_recorder *r, const struct sdt_record_sink *sink)
{
	static const struct sdt_record_sink no_sink;
	struct sdt_ring_ops ops = {r, on_ring_sample, on_ring_comm, on_ring_lost, on_ring_fork};
	bool poke = false, cmd = r->o.argv && r->o.argv[0];
	char msg[1024];
	size_t i;
	int err, ref;

	r->sink = sink ? sink : &no_sink;
	pthread_once(&atexit_once, register_atexit);
	if (active)
		return sdt_err(-EBUSY, "another recording is running in this process");
	if (!r->nadds)
		return sdt_err(-ENOENT, "nothing to record: no probe sites given");

	ref = sdt_tracefs_has_ref_ctr();
	if (ref < 0)
		return ref;
	switch (r->o.semaphore) {
	case SDT_SEMAPHORE_REFCTR:
		if (!ref)
			return sdt_err(-EOPNOTSUPP, "this kernel's uprobes do not take "
						    "ref_ctr_offset (tracefs README): use the poke "
						    "method for semaphores");
		break;
	case SDT_SEMAPHORE_POKE:
		ref = 0;
		poke = true;
		break;
	default:
		poke = !ref && !r->o.system_wide;
		break;
	}

	install_handlers(r);
	{
		struct sdt_uprobe_set_opts so = {
		    .use_ref_ctr = ref > 0, .no_args = r->o.count_only, .share = !r->o.count_only};

		err = sdt_uprobe_set__new(&so, &r->set);
		if (err)
			goto out;
	}
	for (i = 0; i < r->nadds; i++) {
		err = sdt_uprobe_set__add_typed(r->set, r->adds[i].f, r->adds[i].sites,
						r->adds[i].n, r->adds[i].types);
		if (err)
			goto out;
	}
	r->counting = r->o.count_only;
	if (r->counting && sdt_uprobe_set__event_count(r->set) > COUNTERS_MAX_EVENTS) {
		err = sdt_uprobe_set__share(r->set);
		if (err)
			goto out;
		r->counting = false;
	}
	r->sem_method = !sdt_uprobe_set__semaphore_count(r->set) ? "none"
			: ref > 0				 ? "refctr"
			: poke					 ? "poke"
								 : "none";
	r->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (r->epfd < 0) {
		err = sdt_err(-errno, "epoll_create1: %s", strerror(errno));
		goto out;
	}
	if (cmd) {
		err = start_child(r, poke);
		if (err)
			goto out;
		err = add_tid(r, r->child);
	} else if (r->o.npids) {
		for (i = 0; i < r->o.npids && !err; i++)
			err = add_process_threads(r, r->o.pids[i]);
	} else {
		err = add_tid(r, -1);
	}
	if (err)
		goto out;

	/* Stage 2: the uprobes. From here on, every path removes them. */
	err = sdt_uprobe_set__create(r->set);
	if (err)
		goto out;
	r->nevents = sdt_uprobe_set__event_count(r->set);
	r->nkev = sdt_uprobe_set__kernel_event_count(r->set);
	r->map = calloc(r->nkev, sizeof(*r->map));
	r->counts = calloc(r->nevents, sizeof(*r->counts));
	if (!r->map || !r->counts) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < r->nkev; i++) {
		r->map[i].id = sdt_uprobe_set__kernel_event(r->set, i)->tp_id;
		r->map[i].event = (uint32_t)i;
	}
	qsort(r->map, r->nkev, sizeof(*r->map), cmp_map);

	err = open_events(r);
	if (err)
		goto out;
	for (i = 0; i < r->nevents && r->sink->on_event_desc; i++) {
		err = r->sink->on_event_desc(r->sink->ctx, sdt_uprobe_set__event(r->set, i));
		if (err < 0)
			goto out;
	}
	if (!cmd) {
		for (i = 0; i < r->nfds; i++) {
			err = sdt_perf_enable(r->fds[i]);
			if (err)
				goto out;
		}
		for (i = 0; poke && i < r->o.npids; i++) {
			err = sdt_uprobe_set__poke(r->set, r->o.pids[i]);
			if (err < 0)
				goto out;
		}
		for (i = 0; i < r->o.npids; i++) {
			err = watch_pid(r, r->o.pids[i]);
			if (err)
				goto out;
		}
	} else {
		err = watch_pid(r, r->child);
		if (err)
			goto out;
	}
	synthesize_comms(r);
	if (r->sink->on_armed)
		r->sink->on_armed(r->sink->ctx);
	if (r->stop)
		goto out; /* asked to stop while arming: the command never runs */
	if (cmd) {
		err = release_child(r, poke);
		if (err)
			goto out;
	}

	err = loop(r, &ops);
	for (i = 0; i < r->nfds; i++)
		sdt_perf_disable(r->fds[i]);
	if (!err && !r->counting)
		err = drain_all(r, &ops);
	if (!err && !r->counting)
		err = account_unreported_losses(r);
	if (!err && r->counting)
		err = read_counts(r);
	/* Before the teardown, which the kernel makes slow (a grace period per event). */
	if (!err && r->sink->on_drained)
		r->sink->on_drained(r->sink->ctx);
out:
	if (err)
		snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
	close_events(r);
	if (r->set) {
		int e2;

		sdt_uprobe_set__unpoke(r->set);
		e2 = sdt_uprobe_set__remove(r->set);
		if (e2 && !err) {
			err = e2;
			snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
		}
	}
	if (r->child > 0 && !r->reaped) {
		if (r->go_fd >= 0) {
			/* never released: the child sees EOF and exits without running CMD */
			close(r->go_fd);
			r->go_fd = -1;
		} else if (err || r->stop) {
			kill(r->child, SIGTERM);
		}
		reap_child(r, true);
	}
	if (r->err_fd >= 0) {
		close(r->err_fd);
		r->err_fd = -1;
	}
	for (i = 0; i < r->nwatch; i++)
		close(r->watch[i].pidfd);
	r->nwatch = 0;
	if (r->epfd >= 0) {
		close(r->epfd);
		r->epfd = -1;
	}
	restore_handlers(r);
	if (err)
		sdt_err(err, "%s", msg);
	return err;
}

void sdt_recorder__free(struct sdt_recorder *r)
{
	size_t i;

	if (!r)
		return;
	sdt_uprobe_set__free(r->set);
	for (i = 0; i < r->nadds; i++) {
		free_types(r->adds[i].types, r->adds[i].f, r->adds[i].sites, r->adds[i].n);
		free(r->adds[i].sites);
	}
	free(r->adds);
	free(r->comms);
	free(r->fds);
	free(r->fd_event);
	free(r->fd_cpu);
	free(r->rings);
	free(r->map);
	free(r->counts);
	free(r->tids);
	free(r->watch);
	free(r);
}
