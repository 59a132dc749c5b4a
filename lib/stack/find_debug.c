/* SPDX-License-Identifier: MIT */
/*
 * Finding a debug file without trusting the paths (find_debug.h). libdwfl's own
 * dwfl_standard_find_debuginfo() opens each candidate with a plain open(): a FIFO planted beside
 * a recorded program (its .gnu_debuglink name), in a cache or in a debug directory would block
 * report -g forever. Here every candidate goes through sdt_open_regular() and must carry the
 * module's build-id, which also stands for the debuglink's CRC.
 */
#include <elfutils/libdwelf.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stack/find_debug.h"
#include "util/internal.h"

char *sdt_fd_build_id(int fd)
{
	const void *bid = NULL;
	char *hex = NULL;
	ssize_t n;
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && (n = dwelf_elf_gnu_build_id(elf, &bid)) > 0 &&
	    (hex = malloc(2 * (size_t)n + 1))) {
		for (ssize_t i = 0; i < n; i++)
			snprintf(hex + 2 * i, 3, "%02x", ((const unsigned char *)bid)[i]);
	}
	elf_end(elf);
	return hex;
}

int sdt_open_build_id(const char *path, const char *bid)
{
	int fd = sdt_open_regular(path);
	char *got;

	if (fd < 0) {
		sdt_err_clear(); /* not there, or not a file: simply not this candidate */
		return -1;
	}
	got = sdt_fd_build_id(fd);
	if (!got || strcmp(got, bid)) {
		close(fd);
		fd = -1;
	}
	free(got);
	return fd;
}

/* Try @path for @bid: 1 (found: *@fd, *@name), 0 (not it), -1 (out of memory). */
static int try_path(char *path, const char *bid, int *fd, char **name)
{
	if (!path)
		return -1;
	*fd = sdt_open_build_id(path, bid);
	if (*fd < 0) {
		free(path);
		return 0;
	}
	*name = path;
	return 1;
}

int sdt_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		       const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
		       char **debuginfo_file_name)
{
	const char *dirs = userdata && *userdata ? *userdata : "/usr/lib/debug", *d, *slash, *dir;
	const unsigned char *bits;
	GElf_Addr vaddr;
	char bid[2 * 64 + 1];
	int n, i, fd = -1, r = 0;
	size_t len, dlen;

	(void)modname;
	(void)base;
	(void)debuglink_crc;
	n = dwfl_module_build_id(mod, &bits, &vaddr);
	if (n <= 0 || n > 64)
		return -1;
	for (i = 0; i < n; i++)
		snprintf(bid + 2 * i, 3, "%02x", bits[i]);
	for (d = dirs; !r && *d; d += len + (d[len] == ':')) {
		len = strcspn(d, ":");
		if (len)
			r = try_path(
			    sdt_asprintf("%.*s/.build-id/%.2s/%s.debug", (int)len, d, bid, bid + 2),
			    bid, &fd, debuginfo_file_name);
	}
	if (r || !debuglink_file || !*debuglink_file || strchr(debuglink_file, '/') || !file_name)
		return r == 1 ? fd : -1;
	slash = strrchr(file_name, '/');
	dir = slash ? file_name : ".";
	dlen = slash ? (size_t)(slash - file_name) : 1;
	r = try_path(sdt_asprintf("%.*s/%s", (int)dlen, dir, debuglink_file), bid, &fd,
		     debuginfo_file_name);
	if (!r)
		r = try_path(sdt_asprintf("%.*s/.debug/%s", (int)dlen, dir, debuglink_file), bid,
			     &fd, debuginfo_file_name);
	for (d = dirs; !r && *d; d += len + (d[len] == ':')) {
		len = strcspn(d, ":");
		if (len && slash)
			r = try_path(sdt_asprintf("%.*s%.*s/%s", (int)len, d, (int)dlen, file_name,
						  debuglink_file),
				     bid, &fd, debuginfo_file_name);
	}
	return r == 1 ? fd : -1;
}
