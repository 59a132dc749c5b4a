/* SPDX-License-Identifier: MIT */
/*
 * Our sibling of perf's `probes` file in each build-id directory of the cache: `sdtrace.meta`.
 * It keeps what perf's file cannot: the source file's identity when it was scanned (size, mtime,
 * device and inode, to tell cheaply whether the file on disk is still the one cached) and every
 * site with its raw argument specs, float flags, and why an argument is unavailable.
 *
 *	sdtrace-meta 1
 *	path /usr/bin/python3.11
 *	build-id 571d98e01096d5c1c32420d229a6731a0a50d2a0
 *	size 6831736
 *	mtime 1700000000 123456789
 *	inode 2049 247970
 *	machine 62 2 1
 *	sites 8
 *	site python gc__start 0x4287f3 0x287f3 0xa8426e 0x68326e 1
 *	arg 4 s -4@112(%rsp) +112(%sp):s32 -
 *	...
 *	end
 *
 * Text fields are escaped: bytes <= ' ', '%' and >= 0x7f as %XX. A file without its first line or
 * without `end` is rejected (the writer replaces the file atomically, so that means corruption).
 */
#ifndef SDT_META_H
#define SDT_META_H

#include <stdint.h>
#include <sys/stat.h>

#include "util/internal.h"

#define SDT_META_NAME	 "sdtrace.meta"
#define SDT_META_MAGIC	 "sdtrace-meta"
#define SDT_META_VERSION 1

struct sdt_meta {
	char *path;
	char *build_id;
	uint64_t size;
	int64_t mtime_sec;
	int64_t mtime_nsec;
	uint64_t dev;
	uint64_t ino;
	size_t nsites;
};

/* Render the meta file of @f, scanned from the file @path whose fstat() is @st. */
int sdt_meta_render(const struct sdt_file *f, const char *path, const struct stat *st,
		    struct sdt_buf *out);
/* Parse; 0, -ENOMEM or -EINVAL (bad magic, version, or truncated). */
int sdt_meta_parse(const char *text, size_t len, struct sdt_meta *out);
void sdt_meta_release(struct sdt_meta *m);
/* Does @st still describe the file the meta was written for? */
bool sdt_meta_matches(const struct sdt_meta *m, const struct stat *st);

#endif
