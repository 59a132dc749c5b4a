/* SPDX-License-Identifier: MIT */
/* The files a process maps, from /proc/PID/maps. See include/sdtrace/proc.h. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scan/needed.h"
#include "util/internal.h"
#include "sdtrace/proc.h"

void sdt_proc_files__free(struct sdt_proc_file *files, size_t n)
{
	size_t i;

	for (i = 0; files && i < n; i++) {
		free(files[i].path);
		free(files[i].open_path);
	}
	free(files);
}

static bool seen(const struct sdt_proc_file *files, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strcmp(files[i].path, path))
			return true;
	}
	return false;
}

/* The kernel writes a newline in a mapped file's name as "\012" (and escapes nothing else). */
static void unescape_newlines(char *p)
{
	char *q = p;

	while (*p) {
		if (!strncmp(p, "\\012", 4)) {
			*q++ = '\n';
			p += 4;
		} else {
			*q++ = *p++;
		}
	}
	*q = '\0';
}

/* The file-backed mappings of @pid (with @exec_only, those mapped executable). */
static int read_maps(pid_t pid, bool exec_only, struct sdt_proc_file **out, size_t *n)
{
	static const char deleted_tag[] = " (deleted)";
	struct sdt_proc_file *files = NULL;
	size_t nfiles = 0, cap = 0, len = 0;
	char mapsname[64], *line = NULL;
	FILE *fp;
	int err = 0;

	*out = NULL;
	*n = 0;
	snprintf(mapsname, sizeof(mapsname), "/proc/%d/maps", (int)pid);
	fp = fopen(mapsname, "re");
	if (!fp) {
		err = -errno;
		if (err == -ENOENT)
			err = -ESRCH;
		return sdt_err(err, "cannot read the mappings of process %d: %s", (int)pid,
			       err == -ESRCH ? "no such process" : strerror(-err));
	}
	while (getline(&line, &len, fp) > 0) {
		unsigned long long start, end, off, ino;
		char perms[8], dev[16];
		struct sdt_proc_file *f;
		size_t l;
		int pos = 0;
		char *path;
		bool deleted = false;

		if (sscanf(line, "%llx-%llx %7s %llx %15s %llu %n", &start, &end, perms, &off, dev,
			   &ino, &pos) < 6 || !pos)
			continue;
		path = line + pos;
		l = strlen(path);
		while (l && (path[l - 1] == '\n' || path[l - 1] == ' '))
			path[--l] = '\0';
		/* anonymous, [heap], [vdso], ... */
		if (path[0] != '/' || !ino || (exec_only && !strchr(perms, 'x')))
			continue;
		if (l > sizeof(deleted_tag) - 1 &&
		    !strcmp(path + l - (sizeof(deleted_tag) - 1), deleted_tag)) {
			deleted = true;
			path[l - (sizeof(deleted_tag) - 1)] = '\0';
		}
		unescape_newlines(path);
		if (seen(files, nfiles, path))
			continue;
		if (sdt_grow((void **)&files, &cap, nfiles + 1, sizeof(*files))) {
			err = -ENOMEM;
			break;
		}
		f = &files[nfiles];
		memset(f, 0, sizeof(*f));
		f->path = sdt_strdup(path);
		f->deleted = deleted;
		if (deleted)
			f->open_path = sdt_asprintf("/proc/%d/map_files/%llx-%llx", (int)pid, start,
						    end);
		else
			f->open_path = sdt_asprintf("/proc/%d/root%s", (int)pid, path);
		nfiles++;
		if (!f->path || !f->open_path) {
			err = -ENOMEM;
			break;
		}
	}
	free(line);
	fclose(fp);
	if (err) {
		sdt_proc_files__free(files, nfiles);
		return sdt_err(err, "out of memory");
	}
	*out = files;
	*n = nfiles;
	return 0;
}

int sdt_proc__files(pid_t pid, struct sdt_proc_file **out, size_t *n)
{
	return read_maps(pid, false, out, n);
}

/* The value of @name in the environment block of process @pid (malloc'ed), or NULL. */
static char *proc_getenv(pid_t pid, const char *name)
{
	char path[64], *buf = NULL, *val = NULL;
	size_t len = 0, cap = 0, nl = strlen(name);
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	fp = fopen(path, "re");
	if (!fp)
		return NULL;
	while (!val && getdelim(&buf, &cap, '\0', fp) > 0) {
		len = strlen(buf);
		if (len > nl && !strncmp(buf, name, nl) && buf[nl] == '=')
			val = sdt_strdup(buf + nl + 1);
	}
	free(buf);
	fclose(fp);
	return val;
}

/* Is @path (to open) the same inode as one of @files? */
static bool same_inode(const struct sdt_proc_file *files, size_t n, const struct stat *st)
{
	struct stat o;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!stat(files[i].open_path, &o) && o.st_dev == st->st_dev && o.st_ino == st->st_ino)
			return true;
	}
	return false;
}

int sdt_proc__exec_files(pid_t pid, struct sdt_proc_file **out, size_t *n)
{
	struct sdt_needed_opts no = {0};
	struct sdt_needed_file *nf = NULL;
	struct sdt_proc_file *files;
	size_t nfiles, nn = 0, i, cap;
	char link[64], root[64], exe[PATH_MAX];
	ssize_t l;
	int err;

	err = read_maps(pid, true, &files, &nfiles);
	if (err)
		return err;
	cap = nfiles;
	/*
	 * Once ld.so ran, the libraries are mapped (a dynamic program has libc at least besides its
	 * executable and ld.so): the closure would find nothing more, at the cost of reading every
	 * library again. Before (an exec stop: the executable and ld.so alone), it is computed.
	 */
	if (nfiles > 2)
		goto done;
	/* the executable's DT_NEEDED closure, as its ld.so finds it: inside its root, with its
	 * LD_LIBRARY_PATH; not when the executable was deleted (its path names another file) */
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)pid);
	snprintf(root, sizeof(root), "/proc/%d/root", (int)pid);
	l = readlink(link, exe, sizeof(exe) - 1);
	if (l <= 0 || l >= (ssize_t)sizeof(exe) - 1)
		goto done;
	exe[l] = '\0';
	if (l > 10 && !strcmp(exe + l - 10, " (deleted)"))
		goto done;
	no.root = root;
	no.ld_library_path = proc_getenv(pid, "LD_LIBRARY_PATH");
	if (sdt_needed_closure(exe, &no, &nf, &nn))
		nn = 0; /* a static or odd executable: what it maps is what there is */
	free((char *)no.ld_library_path);
	for (i = 0; i < nn; i++) {
		struct sdt_proc_file *f;
		struct stat st;

		if (stat(nf[i].open_path, &st) || same_inode(files, nfiles, &st))
			continue;
		if (sdt_grow((void **)&files, &cap, nfiles + 1, sizeof(*files))) {
			err = -ENOMEM;
			break;
		}
		f = &files[nfiles++];
		memset(f, 0, sizeof(*f));
		f->path = nf[i].path;
		f->open_path = nf[i].open_path;
		nf[i].path = nf[i].open_path = NULL;
	}
	sdt_needed_files_free(nf, nn);
	if (err) {
		sdt_proc_files__free(files, nfiles);
		return sdt_err(err, "out of memory");
	}
done:
	*out = files;
	*n = nfiles;
	return 0;
}
