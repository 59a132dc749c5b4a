/* SPDX-License-Identifier: MIT */
/*
 * The ELF files a running process maps: its executable and its libraries; and the files a
 * process runs or a command will run, found as ld.so finds them (DT_NEEDED).
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

/*
 * The files process @pid runs: every file it maps executable (its executable, ld.so, its
 * libraries, what it dlopen()ed); and while it maps nothing but its executable and ld.so (an
 * exec stop: ld.so has not run yet), the files of its executable's DT_NEEDED closure, found as
 * its ld.so will find them, inside /proc/PID/root and with its own LD_LIBRARY_PATH: the
 * libraries it is about to load. Same ownership and errors as sdt_proc__files().
 */
SDT_API int sdt_proc__exec_files(pid_t pid, struct sdt_proc_file **out, size_t *n);
/*
 * The files command @argv will run before its first instruction: argv[0] as execvp() finds it
 * (through $PATH of @envp, NULL: our environment; a "#!" script through its interpreter), its
 * interpreter (PT_INTERP) and its DT_NEEDED closure (DT_RPATH, LD_LIBRARY_PATH of @envp,
 * DT_RUNPATH, /etc/ld.so.cache, the default directories). Real paths, ->open_path the same.
 * Libraries it dlopen()s are not known before it runs. -ENOENT (no such command), -ENOEXEC.
 */
SDT_API int sdt_command__files(char *const *argv, char *const *envp, struct sdt_proc_file **out,
			       size_t *n);

#ifdef __cplusplus
}
#endif

#endif
