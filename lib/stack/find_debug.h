/* SPDX-License-Identifier: MIT */
/*
 * libdwfl's find_debuginfo callback, made safe for files others named (find_debug.c): only
 * regular files are opened (never blocking on a FIFO), and a debug file must carry the build-id
 * of the module it serves.
 */
#ifndef SDT_STACK_FIND_DEBUG_H
#define SDT_STACK_FIND_DEBUG_H

#include <elfutils/libdwfl.h>

/*
 * The separate debug file of @mod: in each directory of the module's userdata (a string of
 * directories, ':' between them, borrowed for the Dwfl's life; NULL: /usr/lib/debug),
 * DIR/.build-id/xx/rest.debug; then its .gnu_debuglink name beside @file_name, in its .debug
 * directory, and under each DIR followed by @file_name's directory. Each candidate is opened by
 * sdt_open_regular() and taken only when its build-id is the module's (a module without one
 * gets no debug file). Returns an fd and *@debuginfo_file_name (malloc'ed), or -1.
 */
int sdt_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		       const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		       char **debuginfo_file_name);

/* The build-id of the ELF file open at @fd in hex (malloc'ed), or NULL (none, unreadable). */
char *sdt_fd_build_id(int fd);

/* @path opened if it is a regular file whose build-id is @bid (hex): the fd, or -1. */
int sdt_open_build_id(const char *path, const char *bid);

#endif
