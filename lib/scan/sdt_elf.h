/* SPDX-License-Identifier: MIT */
/*
 * Reading ELF files of any class and byte order through libelf, reading only what is needed.
 *
 * Files are opened with ELF_C_READ, not ELF_C_READ_MMAP: libelf then pread()s the few headers
 * and sections asked for, and a file truncated while it is read gives an error instead of SIGBUS.
 */
#ifndef SDT_ELF_H
#define SDT_ELF_H

#include <gelf.h>
#include <stdbool.h>
#include <stdint.h>

struct sdt_elf {
	Elf *elf;
	int fd;
	void *image; /* open_mem: our copy of the image */
	const char *name;
	GElf_Ehdr ehdr;
	int elfclass;
	bool big_endian;
	GElf_Phdr *phdrs;
	size_t nphdrs;
	size_t shstrndx;
};

/*
 * Open @path (or a copy of @buf, named @name in messages). Returns 0, or -errno with the message
 * set: -ENOEXEC not an ELF file, -EINVAL corrupt. @e is zeroed first; close it with
 * sdt_elf_close() on success only.
 */
int sdt_elf_open(const char *path, struct sdt_elf *e);
int sdt_elf_open_mem(const void *buf, size_t len, const char *name, struct sdt_elf *e);
void sdt_elf_close(struct sdt_elf *e);

/* The first section called @name, with its header in *shdr; NULL when there is none. */
Elf_Scn *sdt_elf_section(struct sdt_elf *e, const char *name, GElf_Shdr *shdr);

/*
 * The file offset of link-time address @vaddr, through the PT_LOAD segment whose file-backed part
 * holds it (or, in a file without program headers, the SHF_ALLOC section). *bias receives the
 * segment's p_vaddr - p_offset. Returns 0 or -ENOENT.
 */
int sdt_elf_vaddr_to_offset(struct sdt_elf *e, uint64_t vaddr, uint64_t *off, uint64_t *bias);

/* The NT_GNU_BUILD_ID as lowercase hex in *hex (malloc'ed), or *hex = NULL when none. 0/-ENOMEM. */
int sdt_elf_build_id(struct sdt_elf *e, char **hex);

/*
 * The value of the defined symbol @name, from .symtab, else .dynsym. Returns 0, -ENOENT, or
 * -ENOTUNIQ when it is defined more than once with different values.
 */
int sdt_elf_symbol(struct sdt_elf *e, const char *name, uint64_t *value);
/*
 * The same for @n names in one pass over the table: status[i] is 0 (values[i] set), -ENOENT or
 * -ENOTUNIQ. Returns 0 or -ENOMEM.
 */
int sdt_elf_find_symbols(struct sdt_elf *e, const char *const *names, size_t n, uint64_t *values,
			 int *status);

/* Has the file a full symbol table (.symtab), or is it stripped (.dynsym at most)? */
bool sdt_elf_has_symtab(struct sdt_elf *e);

/* Read a target-address word (4 or 8 bytes, the file's byte order) at @p. */
uint64_t sdt_elf_read_addr(const struct sdt_elf *e, const unsigned char *p);

#endif
