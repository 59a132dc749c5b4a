/* SPDX-License-Identifier: MIT */
/*
 * Semaphores by hand: without the kernel's ref_ctr_offset, each semaphore of a set's sites is
 * incremented in the target's memory (/proc/PID/mem, at the address /proc/PID/maps gives the
 * file offset) and decremented again at the end (uprobe.h, "Semaphores"). Also what they are
 * at the end of a recording, whoever raised them: an event with no hit whose semaphore is 0
 * was never enabled in that process.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "scan/file.h"
#include "record/tracefs/uprobe.h"
#include "record/tracefs/uprobe_set.h"
#include "util/internal.h"

struct sem {
	const struct sdt_file *file;
	uint64_t off;
};

/* The distinct (file, semaphore offset) pairs of the set; *out malloc'ed. */
static int semaphores(const struct sdt_uprobe_set *s, struct sem **out, size_t *n)
{
	struct sem *arr = NULL;
	size_t cap = 0, cnt = 0, i, j, k;

	for (i = 0; i < s->nevents; i++) {
		const struct ev_extra *x = &s->extra[i];

		for (j = 0; j < x->nsites; j++) {
			const struct sdt_site *st = &x->file->sites[x->sites[j]];

			if (!st->semaphore || !st->has_semaphore_offset)
				continue;
			for (k = 0; k < cnt; k++)
				if (arr[k].file == x->file && arr[k].off == st->semaphore_offset)
					break;
			if (k < cnt)
				continue;
			if (sdt_grow((void **)&arr, &cap, cnt + 1, sizeof(*arr))) {
				free(arr);
				return -ENOMEM;
			}
			arr[cnt].file = x->file;
			arr[cnt++].off = st->semaphore_offset;
		}
	}
	*out = arr;
	*n = cnt;
	return 0;
}

size_t sdt_uprobe_set__semaphore_count(const struct sdt_uprobe_set *s)
{
	struct sem *arr;
	size_t n = 0;

	if (semaphores(s, &arr, &n))
		return 0;
	free(arr);
	return n;
}

/*
 * The address of file offset @off of the file (@dev, @ino) in process @pid, from /proc/PID/maps;
 * a writable mapping is preferred. 0 or -ENOENT.
 */
static int map_addr(pid_t pid, dev_t dev, ino_t ino, uint64_t off, uint64_t *addr)
{
	char path[64], line[4096];
	bool found = false;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	while (fgets(line, sizeof(line), fp)) {
		unsigned long long start, end, pgoff, inode;
		unsigned int maj, min;
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu", &start, &end, perms, &pgoff, &maj,
			   &min, &inode) != 7)
			continue;
		if (inode != ino || makedev(maj, min) != dev)
			continue;
		if (off < pgoff || off - pgoff >= end - start)
			continue;
		*addr = start + (off - pgoff);
		found = true;
		if (perms[1] == 'w')
			break;
	}
	fclose(fp);
	return found ? 0 : -ENOENT;
}

static int mem_add(int fd, uint64_t addr, int delta)
{
	uint16_t v;

	if (pread(fd, &v, sizeof(v), (off_t)addr) != sizeof(v))
		return -errno ? -errno : -EIO;
	if (delta < 0 && v == 0)
		return 0;
	v = (uint16_t)(v + delta);
	if (pwrite(fd, &v, sizeof(v), (off_t)addr) != sizeof(v))
		return -errno ? -errno : -EIO;
	return 0;
}

int sdt_uprobe_set__poke(struct sdt_uprobe_set *s, pid_t pid)
{
	struct sem *sems = NULL;
	char path[64];
	size_t n, i;
	int fd = -1, err, done = 0;

	err = semaphores(s, &sems, &n);
	if (err)
		return sdt_err(err, "out of memory");
	if (!n)
		goto out;
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		err = sdt_err(-errno, "cannot open '%s' to enable semaphores: %s", path,
			      strerror(errno));
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct stat st;
		uint64_t addr;
		size_t cap;

		if (stat(sems[i].file->path, &st))
			continue;
		if (map_addr(pid, st.st_dev, st.st_ino, sems[i].off, &addr))
			continue; /* this process does not map that file */
		cap = s->poked_cap;
		if (sdt_grow((void **)&s->poked, &cap, s->npoked + 1, sizeof(*s->poked))) {
			err = sdt_err(-ENOMEM, "out of memory");
			goto out;
		}
		s->poked_cap = cap;
		err = mem_add(fd, addr, +1);
		if (err) {
			err = sdt_err(err,
				      "cannot enable the semaphore at 0x%" PRIx64 " of '%s' in "
				      "process %d: %s",
				      addr, sems[i].file->path, (int)pid, strerror(-err));
			goto out;
		}
		s->poked[s->npoked].pid = pid;
		s->poked[s->npoked].file = sems[i].file;
		s->poked[s->npoked].off = sems[i].off;
		s->poked[s->npoked++].addr = addr;
		done++;
	}
	err = done;
out:
	if (fd >= 0)
		close(fd);
	free(sems);
	return err;
}

void sdt_uprobe_set__unpoke(struct sdt_uprobe_set *s)
{
	pid_t open_pid = 0;
	char path[64];
	size_t i;
	int fd = -1;

	if (!s)
		return;
	for (i = 0; i < s->npoked; i++) {
		if (s->poked[i].pid != open_pid || fd < 0) {
			if (fd >= 0)
				close(fd);
			open_pid = s->poked[i].pid;
			snprintf(path, sizeof(path), "/proc/%d/mem", (int)open_pid);
			fd = open(path, O_RDWR | O_CLOEXEC);
		}
		if (fd >= 0)
			mem_add(fd, s->poked[i].addr, -1);
	}
	if (fd >= 0)
		close(fd);
	s->npoked = 0;
}

const struct sdt_file *sdt_uprobe_set__event_file(const struct sdt_uprobe_set *s, size_t i)
{
	return i < s->nevents ? s->extra[i].file : NULL;
}

bool sdt_uprobe_set__event_has_semaphore(const struct sdt_uprobe_set *s, size_t i)
{
	const struct ev_extra *x = i < s->nevents ? &s->extra[i] : NULL;
	size_t j;

	for (j = 0; x && j < x->nsites; j++) {
		const struct sdt_site *st = &x->file->sites[x->sites[j]];

		if (st->semaphore && st->has_semaphore_offset)
			return true;
	}
	return false;
}

bool sdt_uprobe_set__event_poked(const struct sdt_uprobe_set *s, size_t i)
{
	const struct ev_extra *x = i < s->nevents ? &s->extra[i] : NULL;
	size_t j, k;

	for (j = 0; x && j < x->nsites; j++) {
		const struct sdt_site *st = &x->file->sites[x->sites[j]];

		if (!st->semaphore || !st->has_semaphore_offset)
			continue;
		for (k = 0; k < s->npoked; k++)
			if (s->poked[k].file == x->file && s->poked[k].off == st->semaphore_offset)
				return true;
	}
	return false;
}

int sdt_uprobe_set__semaphore_state(const struct sdt_uprobe_set *s, size_t i, pid_t pid)
{
	const struct ev_extra *x = i < s->nevents ? &s->extra[i] : NULL;
	char path[64];
	struct stat st;
	int fd = -1, state = -ENOENT;
	size_t j;

	if (!x || stat(x->file->path, &st))
		return -ENOENT;
	for (j = 0; j < x->nsites; j++) {
		const struct sdt_site *site = &x->file->sites[x->sites[j]];
		uint64_t addr;
		uint16_t v;

		if (!site->semaphore || !site->has_semaphore_offset ||
		    map_addr(pid, st.st_dev, st.st_ino, site->semaphore_offset, &addr))
			continue;
		if (fd < 0) {
			snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				return -errno;
		}
		if (pread(fd, &v, sizeof(v), (off_t)addr) != sizeof(v)) {
			state = -EIO;
			break;
		}
		if (v) {
			state = 1;
			break;
		}
		state = 0;
	}
	if (fd >= 0)
		close(fd);
	return state;
}
