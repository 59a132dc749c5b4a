/* SPDX-License-Identifier: MIT */
/* The binaries a user names: -x NAME and a spec's binary, found as sdt_find_binary() does. */
#ifndef SDTRACE_NAMES_H
#define SDTRACE_NAMES_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * The file @name means, canonical, into *@out (malloc'ed): a bare name through the current
 * directory, $PATH, the ld.so cache, the default library directories and the library trees. A
 * name with a glob character is handed back as it is. On failure, prints the error (for a bare name
 * also the cached binaries of that name) and returns -1; two files of the name in the library trees
 * (sdtrace/find.h) are an error naming both.
 */
int cli_find_binary(const char *name, char **out);

/*
 * Where a path that process @pid knows (@path, as /proc/PID/maps names it) is reached from here:
 * @path itself when it is the same file (device and inode) as @open_path, else @open_path
 * (/proc/PID/root/PATH), so that what is printed pastes back as -x or as a spec's binary.
 */
const char *cli_reachable_path(const char *path, const char *open_path);

#endif
