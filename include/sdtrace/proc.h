/* SPDX-License-Identifier: MIT */
/*
 * The ELF files a running process maps: its executable and its libraries.
 *
 * Paths are reached through /proc/PID/root, so a process in another mount namespace (a container)
 * is read as it sees its files. A mapping whose file was deleted or replaced since it was mapped
 * ("(deleted)" in /proc/PID/maps) is reported with ->deleted set and is read through
 * /proc/PID/map_files, which still reaches the mapped inode.
 *
 * Example:
 *	struct sdt_proc_file *files;
 *	size_t n;
 *	if (sdt_proc__files(pid, &files, &n) == 0) {
 *		for (size_t i = 0; i < n; i++)
 *			printf("%s via %s\n", files[i].path, files[i].open_path);
 *		sdt_proc_files__free(files, n);
 *	}
 */
#ifndef SDTRACE_PROC_H
#define SDTRACE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <sdtrace/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sdt_proc_file {
	char *path;	 /* the path as the process sees it ("/usr/lib/libc.so.6") */
	char *open_path; /* where to open it from here ("/proc/42/root/usr/lib/libc.so.6") */
	bool deleted;	 /* the mapped file was deleted or replaced */
};

/*
 * Every distinct file-backed mapping of process @pid, in address order (first mapped first).
 * Returns 0 with an array of *n entries owned by the caller, or -ESRCH (no such process), -EACCES.
 */
SDT_API int sdt_proc__files(pid_t pid, struct sdt_proc_file **out, size_t *n);
SDT_API void sdt_proc_files__free(struct sdt_proc_file *files, size_t n);

#ifdef __cplusplus
}
#endif

#endif
