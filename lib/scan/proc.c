/* SPDX-License-Identifier: MIT */
/* The files a process maps, from /proc/PID/maps. See include/sdtrace/proc.h. */
#include <stdio.h>
#include <string.h>

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

int sdt_proc__files(pid_t pid, struct sdt_proc_file **out, size_t *n)
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
		if (path[0] != '/' || !ino)
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
