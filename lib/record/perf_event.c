/* SPDX-License-Identifier: MIT */
/* perf_event_open() on our tracepoints; see perf_event.h. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/internal.h"
#include "record/perf_event.h"

int sdt_perf_open(const struct sdt_perf_open_opts *o, pid_t pid, int cpu)
{
	struct perf_event_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.config = o->tp_id;
	attr.disabled = 1;
	attr.inherit = o->inherit;
	attr.enable_on_exec = o->enable_on_exec;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	if (o->sample) {
		attr.sample_period = 1;
		attr.sample_type =
		    PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
		attr.watermark = 1;
		attr.wakeup_watermark = o->wakeup_bytes ? o->wakeup_bytes : 1;
		attr.comm = o->comm;
		attr.comm_exec = o->comm;
		/* forks too: a new thread or process has its parent's name and no COMM record */
		attr.task = o->comm;
		/* COMM, FORK and LOST records carry TIME too: the rings are merged by time */
		attr.sample_id_all = 1;
		if (o->callchain) {
			/* between CPU and RAW in the sample (ring.c) */
			attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
			attr.exclude_callchain_kernel = 1;
			attr.sample_max_stack = o->callchain;
		}
		if (o->stack_user) {
			/* after RAW in the sample: abi, regs; size, bytes, dyn_size (ring.c) */
			attr.sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
			attr.sample_regs_user = sdt_perf_regs_user(o->callchain > 0);
			attr.sample_stack_user = o->stack_user;
		}
		if (o->mmap) {
			attr.mmap = 1;
			attr.mmap2 = 1;
			attr.build_id = 1; /* 5.12+: the build-id instead of device and inode */
		}
	}
	fd = (int)syscall(SYS_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		return sdt_err(-e, "perf_event_open(tracepoint %llu, pid %d, cpu %d): %s%s",
			       (unsigned long long)o->tp_id, (int)pid, cpu, strerror(e),
			       e == EACCES || e == EPERM ? " (needs root or CAP_PERFMON; see "
							   "/proc/sys/kernel/perf_event_paranoid)"
							 : "");
	}
	return fd;
}

/* A disabled software dummy event: records (MMAP2, COMM) or a context of its own, no counts. */
static void dummy_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_DUMMY;
	attr->disabled = 1;
}

int sdt_perf_open_watch(const struct sdt_perf_open_opts *o, pid_t pid, int cpu)
{
	struct perf_event_attr attr;
	int fd, e;

	dummy_attr(&attr);
	attr.inherit = o->inherit;
	attr.enable_on_exec = o->enable_on_exec;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_RAW;
	attr.watermark = 1;
	attr.wakeup_watermark = o->wakeup_bytes ? o->wakeup_bytes : 1;
	attr.sample_id_all = 1;
	attr.mmap = 1;
	attr.mmap2 = 1;
	attr.build_id = 1;
	attr.comm = o->comm;
	attr.comm_exec = o->comm;
	attr.task = o->comm;
	fd = (int)syscall(SYS_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EINVAL) {
		/* before 5.12: no build-id in MMAP2, the inode only */
		attr.build_id = 0;
		fd = (int)syscall(SYS_perf_event_open, &attr, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0) {
		e = errno;
		return sdt_err(-e, "perf_event_open(dummy mmap watch, pid %d, cpu %d): %s", (int)pid,
			       cpu, strerror(e));
	}
	return fd;
}

/* The no-swap guard (perf_event.h): 1 taken, 0 refused (before 6.12: EINVAL), or -errno. */
static int open_no_swap(pid_t pid, int *fd)
{
	struct perf_event_attr attr;

	dummy_attr(&attr);
	attr.inherit = 1;
	attr.sample_period = 1;
	attr.sample_type = PERF_SAMPLE_READ | PERF_SAMPLE_TID;
	*fd = (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (*fd >= 0)
		return 1;
	return errno == EINVAL ? 0 : -errno;
}

bool sdt_perf_fork_guard_no_swap(void)
{
	static int known; /* 0: not asked yet, 1: yes, -1: no */
	int fd;

	if (!known) {
		known = open_no_swap(0, &fd) > 0 ? 1 : -1;
		if (known > 0)
			close(fd);
	}
	return known > 0;
}

int sdt_perf_open_fork_guard(pid_t pid, bool no_swap)
{
	struct perf_event_attr attr;
	int fd, e;

	/* asked of the kernel once (a kernel before 6.12 refuses it: no EINVAL per guard) */
	e = no_swap && sdt_perf_fork_guard_no_swap() ? open_no_swap(pid, &fd) : 0;
	if (e > 0)
		return fd;
	if (e < 0)
		return sdt_err(e, "perf_event_open(dummy fork guard, pid %d): %s", (int)pid,
			       strerror(-e));
	dummy_attr(&attr);
	/* into new threads, never into forked processes: their contexts are not clones */
	attr.inherit = 1;
	attr.inherit_thread = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		e = errno;
		return sdt_err(-e, "perf_event_open(dummy fork guard, pid %d): %s", (int)pid,
			       strerror(e));
	}
	return fd;
}

int sdt_perf_set_output(int fd, int out_fd)
{
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, out_fd) < 0)
		return sdt_err(-errno, "PERF_EVENT_IOC_SET_OUTPUT: %s", strerror(errno));
	return 0;
}

int sdt_perf_enable(int fd)
{
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		return sdt_err(-errno, "PERF_EVENT_IOC_ENABLE: %s", strerror(errno));
	return 0;
}

int sdt_perf_disable(int fd)
{
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) < 0)
		return sdt_err(-errno, "PERF_EVENT_IOC_DISABLE: %s", strerror(errno));
	return 0;
}

int sdt_perf_read_count(int fd, uint64_t *count)
{
	uint64_t v;
	ssize_t n;

	n = read(fd, &v, sizeof(v));
	if (n != (ssize_t)sizeof(v))
		return sdt_err(n < 0 ? -errno : -EIO, "cannot read a perf counter: %s",
			       n < 0 ? strerror(errno) : "short read");
	*count = v;
	return 0;
}

/* "0-3,8,10-11\n" -> cpus. At most 65536 CPUs. */
int sdt_online_cpus(int **cpus, size_t *n)
{
	static const char path[] = "/sys/devices/system/cpu/online";
	char buf[4096], *p, *end;
	int *arr = NULL, fd, err = 0;
	size_t cnt = 0, cap = 0;
	ssize_t len;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sdt_err(-errno, "cannot open '%s': %s", path, strerror(errno));
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return sdt_err(-EIO, "cannot read '%s'", path);
	buf[len] = '\0';
	for (p = buf; *p && *p != '\n';) {
		long a, b;

		a = strtol(p, &end, 10);
		if (end == p || a < 0 || a > 65535)
			goto bad;
		b = a;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a || b > 65535)
				goto bad;
			p = end;
		}
		for (; a <= b; a++) {
			if (sdt_grow((void **)&arr, &cap, cnt + 1, sizeof(*arr))) {
				free(arr);
				return sdt_err(-ENOMEM, "out of memory");
			}
			arr[cnt++] = (int)a;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	if (!cnt)
		goto bad;
	*cpus = arr;
	*n = cnt;
	return err;
bad:
	free(arr);
	return sdt_err(-EINVAL, "'%s': cannot parse '%s'", path, buf);
}

void sdt_perf_close_all(const int *fds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}
