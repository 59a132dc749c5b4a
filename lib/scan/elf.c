/* SPDX-License-Identifier: MIT */
/* ELF access for the scanner: open, segments, sections, build-id, symbols. See sdt_elf.h. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scan/sdt_elf.h"
#include "util/internal.h"

/* Caps on counts read from a file: a hostile header must not make us allocate gigabytes. */
#define MAX_PHDRS    65535
#define MAX_SYMS     (16u << 20)
#define MAX_BUILD_ID 64

static int elf_init(struct sdt_elf *e)
{
	const char *name = e->name;
	size_t i, shnum;

	if (elf_kind(e->elf) != ELF_K_ELF)
		return sdt_err(-ENOEXEC, "'%s': not an ELF file", name);
	if (!gelf_getehdr(e->elf, &e->ehdr))
		return sdt_err(-EINVAL, "'%s': corrupt ELF header: %s", name, elf_errmsg(-1));
	e->elfclass = e->ehdr.e_ident[EI_CLASS];
	if (e->elfclass != ELFCLASS32 && e->elfclass != ELFCLASS64)
		return sdt_err(-EINVAL, "'%s': unknown ELF class %d", name, e->elfclass);
	if (e->ehdr.e_ident[EI_DATA] != ELFDATA2LSB && e->ehdr.e_ident[EI_DATA] != ELFDATA2MSB)
		return sdt_err(-EINVAL, "'%s': unknown ELF byte order %d", name,
			       e->ehdr.e_ident[EI_DATA]);
	e->big_endian = e->ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
	/*
	 * libelf reports 0 sections, without an error, when the section header table lies past
	 * the end of the file: a truncated file would look like one without probes. A table that
	 * exists has at least section 0.
	 */
	if (elf_getshdrnum(e->elf, &shnum))
		return sdt_err(-EINVAL, "'%s': corrupt section header table: %s", name,
			       elf_errmsg(-1));
	if (e->ehdr.e_shoff && !shnum)
		return sdt_err(-EINVAL,
			       "'%s': section header table at offset 0x%llx is outside the file "
			       "(truncated?)",
			       name, (unsigned long long)e->ehdr.e_shoff);
	if (elf_getshdrstrndx(e->elf, &e->shstrndx))
		return sdt_err(-EINVAL, "'%s': corrupt section header table: %s", name,
			       elf_errmsg(-1));
	if (elf_getphdrnum(e->elf, &e->nphdrs))
		return sdt_err(-EINVAL, "'%s': corrupt program header table: %s", name,
			       elf_errmsg(-1));
	if (e->nphdrs > MAX_PHDRS)
		return sdt_err(-EINVAL, "'%s': %zu program headers", name, e->nphdrs);
	if (e->nphdrs) {
		e->phdrs = sdt_reallocarray(NULL, e->nphdrs, sizeof(*e->phdrs));
		if (!e->phdrs)
			return sdt_err(-ENOMEM, "'%s': out of memory", name);
		for (i = 0; i < e->nphdrs; i++) {
			if (!gelf_getphdr(e->elf, (int)i, &e->phdrs[i]))
				return sdt_err(-EINVAL, "'%s': corrupt program header %zu: %s",
					       name, i, elf_errmsg(-1));
		}
	}
	return 0;
}

static void init_version(void)
{
	elf_version(EV_CURRENT);
}

/*
 * libelf wants elf_version() once before elf_begin(). The first open may come from several
 * threads at once (cache add's workers): pthread_once runs it once and makes the others wait
 * until it has returned; a plain flag was a data race (read and written unsynchronised, and
 * elf_version() run by several threads at once).
 */
static void set_version(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, init_version);
}

int sdt_elf_open(const char *path, struct sdt_elf *e)
{
	struct stat st;
	int err;

	memset(e, 0, sizeof(*e));
	e->fd = -1;
	e->name = path;
	set_version();
	/* O_NONBLOCK: opening a FIFO must not block; it is refused below. */
	e->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (e->fd < 0) {
		err = -errno;
		return sdt_err(err, "cannot open '%s': %s", path, strerror(-err));
	}
	if (fstat(e->fd, &st) < 0) {
		err = sdt_err(-errno, "cannot stat '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		err = sdt_err(-EISDIR, "'%s': is a directory", path);
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		err = sdt_err(-ENOEXEC, "'%s': not a regular file", path);
		goto fail;
	}
	e->elf = elf_begin(e->fd, ELF_C_READ, NULL);
	if (!e->elf) {
		err = sdt_err(-EINVAL, "'%s': %s", path, elf_errmsg(-1));
		goto fail;
	}
	err = elf_init(e);
	if (err)
		goto fail;
	return 0;
fail:
	sdt_elf_close(e);
	return err;
}

int sdt_elf_open_mem(const void *buf, size_t len, const char *name, struct sdt_elf *e)
{
	int err;

	memset(e, 0, sizeof(*e));
	e->fd = -1;
	e->name = name ? name : "<memory>";
	set_version();
	/* elf_memory() wants a writable image; give it our own copy. */
	e->image = malloc(len ? len : 1);
	if (!e->image)
		return sdt_err(-ENOMEM, "'%s': out of memory", e->name);
	memcpy(e->image, buf, len);
	e->elf = elf_memory(e->image, len);
	if (!e->elf) {
		err = sdt_err(-EINVAL, "'%s': %s", e->name, elf_errmsg(-1));
		goto fail;
	}
	err = elf_init(e);
	if (err)
		goto fail;
	return 0;
fail:
	sdt_elf_close(e);
	return err;
}

void sdt_elf_close(struct sdt_elf *e)
{
	if (e->elf)
		elf_end(e->elf);
	if (e->fd >= 0)
		close(e->fd);
	free(e->image);
	free(e->phdrs);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

Elf_Scn *sdt_elf_section(struct sdt_elf *e, const char *name, GElf_Shdr *shdr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, shdr))
			continue;
		n = elf_strptr(e->elf, e->shstrndx, shdr->sh_name);
		if (n && !strcmp(n, name))
			return scn;
	}
	return NULL;
}

int sdt_elf_vaddr_to_offset(struct sdt_elf *e, uint64_t vaddr, uint64_t *off, uint64_t *bias)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t i;

	for (i = 0; i < e->nphdrs; i++) {
		const GElf_Phdr *ph = &e->phdrs[i];

		if (ph->p_type != PT_LOAD)
			continue;
		if (vaddr >= ph->p_vaddr && vaddr - ph->p_vaddr < ph->p_filesz) {
			*off = vaddr - ph->p_vaddr + ph->p_offset;
			*bias = ph->p_vaddr - ph->p_offset;
			return 0;
		}
	}
	if (e->nphdrs)
		return -ENOENT;
	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) ||
		    sh.sh_type == SHT_NOBITS)
			continue;
		if (vaddr >= sh.sh_addr && vaddr - sh.sh_addr < sh.sh_size) {
			*off = vaddr - sh.sh_addr + sh.sh_offset;
			*bias = sh.sh_addr - sh.sh_offset;
			return 0;
		}
	}
	return -ENOENT;
}

static int hex_build_id(const unsigned char *id, size_t len, char **hex)
{
	static const char digits[] = "0123456789abcdef";
	char *s;
	size_t i;

	s = malloc(len * 2 + 1);
	if (!s)
		return -ENOMEM;
	for (i = 0; i < len; i++) {
		s[2 * i] = digits[id[i] >> 4];
		s[2 * i + 1] = digits[id[i] & 15];
	}
	s[2 * len] = '\0';
	*hex = s;
	return 0;
}

/* Find NT_GNU_BUILD_ID in one block of notes. 1 found, 0 not, <0 error. */
static int build_id_in(Elf_Data *data, char **hex)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	while (data && off < data->d_size &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		const char *nm = (const char *)data->d_buf + name_off;

		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && !memcmp(nm, "GNU", 4) &&
		    nh.n_descsz > 0 && nh.n_descsz <= MAX_BUILD_ID) {
			int err = hex_build_id((const unsigned char *)data->d_buf + desc_off,
					       nh.n_descsz, hex);

			return err ? err : 1;
		}
		off = next;
	}
	return 0;
}

int sdt_elf_build_id(struct sdt_elf *e, char **hex)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t i;
	int ret;

	*hex = NULL;
	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		ret = build_id_in(elf_getdata(scn, NULL), hex);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	/* No section headers (sstrip): the PT_NOTE segments. */
	for (i = 0; i < e->nphdrs; i++) {
		const GElf_Phdr *ph = &e->phdrs[i];

		if (ph->p_type != PT_NOTE)
			continue;
		ret = build_id_in(
		    elf_getdata_rawchunk(e->elf, (int64_t)ph->p_offset, ph->p_filesz, ELF_T_NHDR),
		    hex);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	return 0;
}

struct sym_want {
	const char *name;
	size_t slot; /* index into the caller's arrays */
};

static int want_cmp(const void *a, const void *b)
{
	return strcmp(((const struct sym_want *)a)->name, ((const struct sym_want *)b)->name);
}

/* The symbol table to search: .symtab, else .dynsym. NULL when the file has neither. */
static Elf_Scn *symbol_table(struct sdt_elf *e, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr sh, dynsh;

	while ((scn = elf_nextscn(e->elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB) {
			*out = sh;
			return scn;
		}
		if (sh.sh_type == SHT_DYNSYM && !dyn) {
			dyn = scn;
			dynsh = sh;
		}
	}
	if (dyn)
		*out = dynsh;
	return dyn;
}

bool sdt_elf_has_symtab(struct sdt_elf *e)
{
	GElf_Shdr sh;
	Elf_Scn *scn = symbol_table(e, &sh);

	return scn && sh.sh_type == SHT_SYMTAB;
}

/*
 * One pass over the symbol table for all @n names at once: a file's table can hold 100,000
 * symbols, and a note needs a handful, so the names are sorted and each symbol is looked up
 * among them, rather than the table being sorted.
 */
int sdt_elf_find_symbols(struct sdt_elf *e, const char *const *names, size_t n, uint64_t *values,
			 int *status)
{
	struct sym_want *want = NULL, key, *w;
	Elf_Data *data, *strd;
	Elf_Scn *scn, *strscn;
	GElf_Shdr sh;
	size_t i, count, strsz = 0;
	const char *strtab = NULL;
	uint8_t first[32] = {0}; /* the first bytes of the wanted names, a bit each */
	bool *found = NULL;

	for (i = 0; i < n; i++)
		status[i] = -ENOENT;
	if (!n)
		return 0;
	scn = symbol_table(e, &sh);
	if (!scn || !sh.sh_entsize)
		return 0;
	data = elf_getdata(scn, NULL);
	if (!data)
		return 0;
	want = sdt_reallocarray(NULL, n, sizeof(*want));
	found = calloc(n, sizeof(*found));
	if (!want || !found) {
		free(want);
		free(found);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		want[i].name = names[i];
		want[i].slot = i;
		first[(unsigned char)names[i][0] >> 3] |= (uint8_t)(1u << (names[i][0] & 7));
	}
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(want, n, sizeof(*want), want_cmp);
	/*
	 * The string table read once and indexed directly (elf_strptr() checks the section on every
	 * call: a third of a scan of postgres); used only when it ends with a NUL.
	 */
	strscn = elf_getscn(e->elf, sh.sh_link);
	strd = strscn ? elf_getdata(strscn, NULL) : NULL;
	if (strd && strd->d_buf && strd->d_size && !((const char *)strd->d_buf)[strd->d_size - 1]) {
		strtab = strd->d_buf;
		strsz = strd->d_size;
	}

	count = sh.sh_size / sh.sh_entsize;
	if (count > MAX_SYMS)
		count = MAX_SYMS;
	for (i = 1; i < count; i++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym))
			break;
		if (sym.st_shndx == SHN_UNDEF || !sym.st_name)
			continue;
		if (strtab)
			name = sym.st_name < strsz ? strtab + sym.st_name : NULL;
		else
			name = elf_strptr(e->elf, sh.sh_link, sym.st_name);
		if (!name || !*name ||
		    !(first[(unsigned char)name[0] >> 3] & (1u << (name[0] & 7))))
			continue;
		key.name = name;
		w = bsearch(&key, want, n, sizeof(*want), want_cmp);
		if (!w)
			continue;
		/* several callers may want the same name: visit every equal entry */
		while (w > want && !strcmp(w[-1].name, name))
			w--;
		for (; w < want + n && !strcmp(w->name, name); w++) {
			if (!found[w->slot]) {
				found[w->slot] = true;
				values[w->slot] = sym.st_value;
				status[w->slot] = 0;
			} else if (values[w->slot] != sym.st_value) {
				status[w->slot] = -ENOTUNIQ;
			}
		}
	}
	free(want);
	free(found);
	return 0;
}

int sdt_elf_symbol(struct sdt_elf *e, const char *name, uint64_t *value)
{
	int status, err;

	err = sdt_elf_find_symbols(e, &name, 1, value, &status);
	return err ? err : status;
}

uint64_t sdt_elf_read_addr(const struct sdt_elf *e, const unsigned char *p)
{
	size_t n = e->elfclass == ELFCLASS32 ? 4 : 8, i;
	uint64_t v = 0;

	for (i = 0; i < n; i++) {
		if (e->big_endian)
			v = (v << 8) | p[i];
		else
			v |= (uint64_t)p[i] << (8 * i);
	}
	return v;
}
