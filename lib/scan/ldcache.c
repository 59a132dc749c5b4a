/* SPDX-License-Identifier: MIT */
/*
 * /etc/ld.so.cache, read with bounds checks. See ldcache.h.
 *
 * Layout (glibc's dl-cache.h), in the byte order of the machine that wrote it:
 *	[old: "ld.so-1.7.0", u32 nlibs, nlibs x {i32 flags, u32 key, u32 value}, aligned to 8]
 *	"glibc-ld.so.cache" "1.1", u32 nlibs, u32 len_strings, u8 flags, 3 pad, u32 ext_offset,
 *	3 x u32 unused, then nlibs x {i32 flags, u32 key, u32 value, u32 osversion, u64 hwcap}
 * key and value are offsets of NUL-terminated strings from the start of the new header.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <elf.h>

#include "scan/ldcache.h"
#include "util/internal.h"

#define OLD_MAGIC "ld.so-1.7.0"
#define NEW_MAGIC "glibc-ld.so.cache1.1"
#define OLD_HEADER 16u /* magic[11] padded, u32 nlibs */
#define OLD_ENTRY 12u
#define NEW_HEADER 48u
#define NEW_ENTRY 24u
/* far above any real cache (a few hundred KB), so that a hostile size allocates nothing huge */
#define MAX_CACHE_SIZE (64u << 20)

struct sdt_ldcache {
	unsigned char *data;
	size_t size;
	struct sdt_ldcache_entry *e;
	size_t n;
};

void sdt_ldcache__free(struct sdt_ldcache *c)
{
	if (!c)
		return;
	free(c->data);
	free(c->e);
	free(c);
}

static uint32_t rd32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t rd64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The string at @off from @base, or NULL when it starts or ends outside the file. */
static const char *string_at(const struct sdt_ldcache *c, size_t base, uint32_t off)
{
	size_t start = base + off;

	if (start < base || start >= c->size)
		return NULL;
	if (!memchr(c->data + start, '\0', c->size - start))
		return NULL;
	return (const char *)c->data + start;
}

static int parse(struct sdt_ldcache *c)
{
	size_t base = 0, i, n;

	if (c->size >= OLD_HEADER && !memcmp(c->data, OLD_MAGIC, sizeof(OLD_MAGIC) - 1)) {
		uint32_t nold = rd32(c->data + 12);

		if (nold > (c->size - OLD_HEADER) / OLD_ENTRY)
			return sdt_err(-EINVAL, "ld.so cache: %u old entries do not fit the file",
				       nold);
		base = OLD_HEADER + (size_t)nold * OLD_ENTRY;
		base = (base + 7) & ~(size_t)7;
	}
	if (base > c->size || c->size - base < NEW_HEADER ||
	    memcmp(c->data + base, NEW_MAGIC, sizeof(NEW_MAGIC) - 1))
		return sdt_err(-EINVAL, "ld.so cache: no \"%s\" header", NEW_MAGIC);
	n = rd32(c->data + base + 20);
	if (n > (c->size - base - NEW_HEADER) / NEW_ENTRY)
		return sdt_err(-EINVAL, "ld.so cache: %zu entries do not fit the file", n);
	c->e = calloc(n ? n : 1, sizeof(*c->e));
	if (!c->e)
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		const unsigned char *p = c->data + base + NEW_HEADER + i * NEW_ENTRY;
		struct sdt_ldcache_entry *e = &c->e[i];

		e->flags = (int32_t)rd32(p);
		e->soname = string_at(c, base, rd32(p + 4));
		e->path = string_at(c, base, rd32(p + 8));
		e->hwcap = rd64(p + 16);
		if (!e->soname || !e->path)
			return sdt_err(-EINVAL, "ld.so cache: entry %zu points outside the file", i);
	}
	c->n = n;
	return 0;
}

int sdt_ldcache__from_mem(const void *data, size_t size, struct sdt_ldcache **out)
{
	struct sdt_ldcache *c;
	int err;

	*out = NULL;
	if (size > MAX_CACHE_SIZE)
		return sdt_err(-EINVAL, "ld.so cache: %zu bytes, more than any real one", size);
	c = calloc(1, sizeof(*c));
	if (!c || !(c->data = malloc(size ? size : 1))) {
		free(c);
		return sdt_err(-ENOMEM, "out of memory");
	}
	if (size)
		memcpy(c->data, data, size);
	c->size = size;
	err = parse(c);
	if (err) {
		sdt_ldcache__free(c);
		return err;
	}
	*out = c;
	return 0;
}

int sdt_ldcache__open(const char *path, struct sdt_ldcache **out)
{
	unsigned char *buf = NULL;
	struct stat st;
	size_t got = 0;
	ssize_t r;
	int fd, err;

	*out = NULL;
	if (!path)
		path = SDT_LDCACHE_DEFAULT;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		err = -errno;
		return sdt_err(err, "cannot open '%s': %s", path, strerror(-err));
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > (off_t)MAX_CACHE_SIZE) {
		close(fd);
		return sdt_err(-EINVAL, "'%s': not an ld.so cache", path);
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	while (got < (size_t)st.st_size) {
		r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	err = sdt_ldcache__from_mem(buf, got, out);
	free(buf);
	return err ? sdt_err_prefix(err, "'%s'", path) : 0;
}

size_t sdt_ldcache__count(const struct sdt_ldcache *c)
{
	return c ? c->n : 0;
}

const struct sdt_ldcache_entry *sdt_ldcache__entry(const struct sdt_ldcache *c, size_t i)
{
	return c && i < c->n ? &c->e[i] : NULL;
}

const char *sdt_ldcache__lookup(const struct sdt_ldcache *c, const char *soname, int32_t flags)
{
	const char *hw = NULL;
	size_t i;

	for (i = 0; c && i < c->n; i++) {
		const struct sdt_ldcache_entry *e = &c->e[i];

		if (strcmp(e->soname, soname) || (flags != SDT_LDCACHE_ANY && e->flags != flags))
			continue;
		if (!e->hwcap)
			return e->path;
		if (!hw)
			hw = e->path;
	}
	return hw;
}

int32_t sdt_ldcache_flags_for(unsigned int machine, int elfclass)
{
	bool is64 = elfclass == ELFCLASS64;

	switch (machine) {
	case EM_386: return SDT_LDCACHE_ELF_LIBC6;
	case EM_X86_64: return SDT_LDCACHE_ELF_LIBC6 | (is64 ? 0x0300 : 0x0800);
	case EM_AARCH64: return SDT_LDCACHE_ELF_LIBC6 | 0x0a00;
	case EM_S390: return SDT_LDCACHE_ELF_LIBC6 | (is64 ? 0x0400 : 0);
	case EM_PPC64: return SDT_LDCACHE_ELF_LIBC6 | 0x0500;
	case EM_PPC: return SDT_LDCACHE_ELF_LIBC6;
	default: return SDT_LDCACHE_ANY; /* arm hf/sf, riscv and mips float ABIs: not told apart */
	}
}

int32_t sdt_ldcache_native_flags(void)
{
#if defined(__x86_64__)
	return sdt_ldcache_flags_for(EM_X86_64, sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32);
#elif defined(__aarch64__)
	return sdt_ldcache_flags_for(EM_AARCH64, ELFCLASS64);
#elif defined(__i386__)
	return sdt_ldcache_flags_for(EM_386, ELFCLASS32);
#elif defined(__powerpc64__)
	return sdt_ldcache_flags_for(EM_PPC64, ELFCLASS64);
#elif defined(__s390x__)
	return sdt_ldcache_flags_for(EM_S390, ELFCLASS64);
#else
	return SDT_LDCACHE_ANY;
#endif
}
