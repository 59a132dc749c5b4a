/* SPDX-License-Identifier: MIT */
/*
 * The dynamic linker's cache, /etc/ld.so.cache ("glibc-ld.so.cache1.1", alone or after the old
 * "ld.so-1.7.0" table): soname -> path, as ld.so finds a library its search path does not hold.
 * The file is read whole and checked once when opened: every entry's strings lie inside the file
 * and end there, so lookups read nothing unchecked. A damaged file is refused whole (-EINVAL).
 */
#ifndef SDT_SCAN_LDCACHE_H
#define SDT_SCAN_LDCACHE_H

#include <stddef.h>
#include <stdint.h>

#define SDT_LDCACHE_DEFAULT "/etc/ld.so.cache"

/* ld.so's entry flags (glibc's ldconfig.h): the kind in the low byte, the ABI in the next. */
#define SDT_LDCACHE_TYPE_MASK 0x00ff
#define SDT_LDCACHE_ELF_LIBC6 0x0003
#define SDT_LDCACHE_ABI_MASK 0xff00
/* lookup flag: any entry, whatever its flags */
#define SDT_LDCACHE_ANY (-1)

struct sdt_ldcache;

struct sdt_ldcache_entry {
	const char *soname; /* "libc.so.6" */
	const char *path;   /* "/lib/x86_64-linux-gnu/libc.so.6" */
	int32_t flags;	    /* SDT_LDCACHE_ELF_LIBC6 | ABI (0x0300 x86-64, 0x0a00 aarch64, ...) */
	uint64_t hwcap;	    /* non-zero: a glibc-hwcaps variant of the library */
};

/* Read and check the cache at @path (NULL: /etc/ld.so.cache). -ENOENT, -EINVAL (damaged), ... */
int sdt_ldcache__open(const char *path, struct sdt_ldcache **out);
/* The same from @size bytes at @data (copied). */
int sdt_ldcache__from_mem(const void *data, size_t size, struct sdt_ldcache **out);
void sdt_ldcache__free(struct sdt_ldcache *c);

size_t sdt_ldcache__count(const struct sdt_ldcache *c);
/* Entry @i (< count), in the file's order; the strings live as long as @c. */
const struct sdt_ldcache_entry *sdt_ldcache__entry(const struct sdt_ldcache *c, size_t i);

/*
 * The path of @soname among the entries of @flags (SDT_LDCACHE_ANY, or exact flags such as
 * sdt_ldcache_flags_for()), the plain variant (hwcap 0) before a hwcaps one; NULL if none.
 */
const char *sdt_ldcache__lookup(const struct sdt_ldcache *c, const char *soname, int32_t flags);

/*
 * The flags ldconfig gives a library of this ELF e_machine and class (x86-64: 0x0303, i386:
 * 0x0003), SDT_LDCACHE_ANY when not known.
 */
int32_t sdt_ldcache_flags_for(unsigned int machine, int elfclass);
/* The flags of this build's own libraries (x86-64: 0x0303), SDT_LDCACHE_ANY if not known. */
int32_t sdt_ldcache_native_flags(void);

#endif
