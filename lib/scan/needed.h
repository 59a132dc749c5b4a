/* SPDX-License-Identifier: MIT */
/*
 * The files a dynamically linked program loads before its first instruction, found as ld.so
 * finds them (needed.c): the executable, its interpreter (PT_INTERP), and the breadth-first
 * closure of DT_NEEDED, each name searched in DT_RPATH (of the object, then of the executable,
 * when the object has no DT_RUNPATH), LD_LIBRARY_PATH, DT_RUNPATH, the ld.so cache, then the
 * default directories; $ORIGIN, $LIB and $PLATFORM expanded; a file of another machine or class
 * skipped as ld.so skips it. Everything is read inside @root ("" for our own file system,
 * "/proc/PID/root" for a process's), so that a program is seen with the files it will see.
 * Not followed: dlopen() (not known before it runs), LD_PRELOAD, glibc-hwcaps subdirectories.
 */
#ifndef SDT_SCAN_NEEDED_H
#define SDT_SCAN_NEEDED_H

#include <stdbool.h>
#include <stddef.h>

struct sdt_needed_opts {
	const char *root;	     /* NULL or "": ours; else "/proc/PID/root" */
	const char *ld_library_path; /* the program's LD_LIBRARY_PATH, NULL: none */
	const char *ldcache;	     /* NULL: ROOT/etc/ld.so.cache */
};

struct sdt_needed_file {
	char *path;	 /* as the program sees it (real path when @root is ours) */
	char *open_path; /* where to open it from here: ROOT + path */
	bool interp;	 /* the program's interpreter (ld.so) */
};

/*
 * The executable @exe (a path inside the root) first, then its interpreter, then the libraries
 * in the order ld.so loads them. A library that cannot be found is left out (the program would
 * fail to start, and says so itself). Returns 0 with *out (*n entries, free with
 * sdt_needed_files_free()), -ENOEXEC when @exe is not an ELF file, or -errno with a message.
 */
int sdt_needed_closure(const char *exe, const struct sdt_needed_opts *o,
		       struct sdt_needed_file **out, size_t *n);
void sdt_needed_files_free(struct sdt_needed_file *f, size_t n);

#endif
