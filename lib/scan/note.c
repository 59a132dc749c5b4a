/* SPDX-License-Identifier: MIT */
/*
 * The SDT notes of <sys/sdt.h>: one note per probe site, in section .note.stapsdt.
 *
 *	$ readelf -n /usr/bin/python3.11
 *	  stapsdt              0x00000045	NT_STAPSDT (SystemTap probe descriptors)
 *	    Provider: python
 *	    Name: gc__start
 *	    Location: 0x00000000004287f3, Base: 0x00000000006b9d20, Semaphore: 0x0000000000a8326e
 *	    Arguments: -4@112(%rsp)
 *
 * Owner "stapsdt", type 3. The desc holds three target-address words in the file's class and
 * byte order (libelf translates only the note header, never the desc): pc, the link-time address
 * of the 1-byte section .stapsdt.base, and the semaphore (0 when none); then three NUL-terminated
 * strings: provider, name, arguments.
 *
 * Prelink moves sections after linking without rewriting notes: when .stapsdt.base's sh_addr
 * differs from the note's base, add the difference to pc and semaphore.
 *
 * A uprobe is placed at a file offset: pc - p_vaddr + p_offset of the PT_LOAD holding pc. The
 * semaphore (an unsigned short in section .probes, present when the program defines
 * _SDT_HAS_SEMAPHORES) is enabled by the kernel through ref_ctr_offset, its file offset, computed
 * the same way and per site (the Rust probe crate gives every inlined site its own semaphore).
 *
 * Every byte here comes from the file: lengths are checked by subtraction, strings searched with
 * memchr inside the desc, and names restricted to what tracefs accepts, so that a hostile note can
 * never put a newline (a second command) into uprobe_events. A bad note is skipped with a
 * diagnostic; it never fails the other notes.
 */
#include <stdio.h>
#include <string.h>

#include "scan/arch/arch.h"
#include "scan/debugfile.h"
#include "scan/sdt_elf.h"
#include "scan/file.h"
#include "scan/note.h"
#include "util/internal.h"

#define NT_STAPSDT 3
/* Bound on the argument string (hostile files); sites per file: SDT_SCAN_MAX_NOTES. */
#define MAX_ARGS_TEXT 4096
/* perf names a provider's tracefs group "sdt_<provider>": the provider must leave room for it. */
#define MAX_PROVIDER (SDT_MAX_EVENT_NAME - 4)

struct note_ctx {
	struct sdt_elf *e;
	struct sdt_file *f;
	const struct sdt_arch *arch;
	bool have_base;
	uint64_t base_addr; /* sh_addr of .stapsdt.base */
	size_t index;	    /* note number, for messages */
};

static bool printable(const char *s)
{
	for (; *s; s++) {
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return false;
	}
	return true;
}

/* Print at most 40 bytes of a hostile string, escaped, for a message. */
static const char *shown(const char *s, char *buf, size_t size)
{
	size_t o = 0;

	for (; *s && o + 5 < size && o < 40; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c >= 0x7f || c == '\'' || c == '\\')
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
		else
			buf[o++] = (char)c;
	}
	if (*s && o + 4 < size) {
		memcpy(buf + o, "...", 3);
		o += 3;
	}
	buf[o] = '\0';
	return buf;
}

/*
 * Why the symbol of argument @a could not be resolved (@status: -ENOENT or -ENOTUNIQ), as
 * precisely as the file allows. malloc'ed, NULL when out of memory.
 */
static char *missing_reason(struct note_ctx *c, const struct sdt_arg *a, int status,
			    const struct sdt_debugfile_result *dbg)
{
	if (status == -ENOTUNIQ)
		return sdt_asprintf("symbol '%s' is defined more than once", a->symbol);
	/* .L*: the assembler's own labels (string literals .LC0, jump targets) never reach a table */
	if (!strncmp(a->symbol, ".L", 2))
		return sdt_asprintf("'%s' is an assembler-local label: no symbol table keeps its "
				    "address", a->symbol);
	if (dbg->found)
		return sdt_asprintf("symbol '%s' is neither in the file's symbol tables nor in its "
				    "debug file '%s'", a->symbol, dbg->path);
	if (sdt_elf_has_symtab(c->e))
		return sdt_asprintf("symbol '%s' is not in the file's symbol tables", a->symbol);
	if (!c->f->build_id)
		return sdt_asprintf("symbol '%s': the file is stripped and has no build-id to find "
				    "its debug file by", a->symbol);
	return sdt_asprintf("symbol '%s': the file is stripped and its debug file was not found "
			    "(%s; $SDTRACE_DEBUG_DIR sets the directories)", a->symbol,
			    dbg->path ? dbg->path : "no debug directory");
}

/*
 * A thread-local symbol's offset from the thread pointer, for the local-exec model of x86 and
 * x86_64 (TLS variant II: the block ends at the thread pointer, so the offset is the symbol's
 * offset in the PT_TLS template minus the template's size rounded up to its alignment). Other
 * architectures (variant I: the block starts after a TCB of the ABI's size) are not computed:
 * -ENOTSUP, and the argument stays unresolved. -ENOENT without a PT_TLS segment.
 */
static int tls_offset(const struct sdt_elf *e, uint64_t st_value, uint64_t *out)
{
	size_t i;

	if (e->ehdr.e_machine != EM_X86_64 && e->ehdr.e_machine != EM_386)
		return -ENOTSUP;
	for (i = 0; i < e->nphdrs; i++) {
		const GElf_Phdr *ph = &e->phdrs[i];
		uint64_t align = ph->p_align ? ph->p_align : 1, size;

		if (ph->p_type != PT_TLS)
			continue;
		size = (ph->p_memsz + align - 1) / align * align;
		*out = st_value - size;
		return 0;
	}
	return -ENOENT;
}

/*
 * Resolve the symbols that GLOBAL and ADDR arguments name, for every site at once (one pass over
 * the symbol table, then one over the separate debug file's when some are missing), then render
 * every argument.
 */
static int resolve_and_render(struct note_ctx *c)
{
	struct sdt_debugfile_result dbg = {0};
	struct sdt_file *f = c->f;
	struct sdt_arg **need = NULL;
	const char **names = NULL;
	uint64_t *values = NULL;
	int *status = NULL;
	size_t n = 0, cap = 0, i, j;
	int err = 0;

	for (i = 0; i < f->nsites; i++) {
		for (j = 0; j < f->sites[i].nargs; j++) {
			struct sdt_arg *a = &f->sites[i].args[j];

			/*
			 * INDEXED and TLS too: no fetcharg reaches them, but an engine that can
			 * (lib/bpf/plan.c) needs the address, which is the file's to say.
			 */
			if ((a->kind != SDT_ARG_GLOBAL && a->kind != SDT_ARG_ADDR &&
			     a->kind != SDT_ARG_INDEXED && a->kind != SDT_ARG_TLS) ||
			    !a->symbol || a->sym_resolved)
				continue;
			if (sdt_grow((void **)&need, &cap, n + 1, sizeof(*need))) {
				err = -ENOMEM;
				goto out;
			}
			need[n++] = a;
		}
	}
	if (n) {
		names = sdt_reallocarray(NULL, n, sizeof(*names));
		values = sdt_reallocarray(NULL, n, sizeof(*values));
		status = sdt_reallocarray(NULL, n, sizeof(*status));
		if (!names || !values || !status) {
			err = -ENOMEM;
			goto out;
		}
		for (i = 0; i < n; i++)
			names[i] = need[i]->symbol;
		err = sdt_elf_find_symbols(c->e, names, n, values, status);
		if (err)
			goto out;
		/* what the file's tables lack, its separate debug file may have (a stripped file) */
		err = sdt_debugfile_find_symbols(c->e, f->build_id, names, n, values, status, &dbg);
		if (err)
			goto out;
		for (i = 0; i < n; i++) {
			if (status[i])
				continue;
			if (need[i]->kind == SDT_ARG_TLS) {
				if (tls_offset(c->e, values[i], &values[i]))
					continue;
			}
			need[i]->sym_resolved = true;
			need[i]->sym_addr = values[i] + (uint64_t)need[i]->offset;
		}
	}
	for (i = 0; i < f->nsites; i++) {
		struct sdt_site *s = &f->sites[i];
		struct sdt_render_ctx rc = {.text_bias = s->text_bias, .have_text_bias = true};

		for (j = 0; j < s->nargs; j++) {
			err = sdt_arg_render(c->arch, c->e->elfclass, &s->args[j], &rc);
			if (err)
				goto out;
		}
	}
	/* The reason of a symbol not found, or defined more than once. */
	for (i = 0; i < n; i++) {
		if (!status[i] || !need[i]->unavailable)
			continue;
		free(need[i]->unavailable);
		need[i]->unavailable = missing_reason(c, need[i], status[i], &dbg);
		if (!need[i]->unavailable) {
			err = -ENOMEM;
			goto out;
		}
	}
out:
	sdt_debugfile_result_release(&dbg);
	free(need);
	free(names);
	free(values);
	free(status);
	return err;
}

/* Decode one note's desc into a site. 0 (site added or note skipped with a diag) or -ENOMEM. */
static int read_note(struct note_ctx *c, const unsigned char *desc, size_t descsz)
{
	size_t asz = c->e->elfclass == ELFCLASS32 ? 4 : 8;
	const char *provider, *name, *args, *end, *p;
	struct sdt_site s = {0};
	uint64_t pc, base, sem, bias;
	char b1[200], b2[200];
	int err;

	if (descsz < 3 * asz + 3)
		return sdt_file_diag(c->f, "note %zu: desc of %zu bytes is too short", c->index,
				     descsz);
	pc = sdt_elf_read_addr(c->e, desc);
	base = sdt_elf_read_addr(c->e, desc + asz);
	sem = sdt_elf_read_addr(c->e, desc + 2 * asz);

	p = (const char *)desc + 3 * asz;
	end = (const char *)desc + descsz;
	provider = p;
	p = memchr(p, '\0', (size_t)(end - p));
	if (!p || ++p >= end)
		return sdt_file_diag(c->f, "note %zu: provider name is not terminated", c->index);
	name = p;
	p = memchr(p, '\0', (size_t)(end - p));
	if (!p || ++p >= end)
		return sdt_file_diag(c->f, "note %zu: probe name is not terminated", c->index);
	args = p;
	if (!memchr(p, '\0', (size_t)(end - p)))
		return sdt_file_diag(c->f, "note %zu: argument string is not terminated", c->index);

	if (!sdt_valid_event_name(provider, MAX_PROVIDER))
		return sdt_file_diag(c->f,
				     "note %zu: provider name '%s' is not a valid tracefs name "
				     "([A-Za-z_][A-Za-z0-9_]*, at most %d bytes)",
				     c->index, shown(provider, b1, sizeof(b1)), MAX_PROVIDER);
	if (!sdt_valid_event_name(name, SDT_MAX_EVENT_NAME))
		return sdt_file_diag(c->f,
				     "note %zu (%s): probe name '%s' is not a valid tracefs name "
				     "([A-Za-z_][A-Za-z0-9_]*, at most %d bytes)",
				     c->index, provider, shown(name, b2, sizeof(b2)),
				     SDT_MAX_EVENT_NAME);
	if (strlen(args) > MAX_ARGS_TEXT || !printable(args))
		return sdt_file_diag(c->f,
				     "note %zu (%s:%s): argument string '%s' is too long or has "
				     "control characters",
				     c->index, provider, name, shown(args, b1, sizeof(b1)));

	if (c->have_base && base && c->base_addr != base) {
		pc += c->base_addr - base;
		if (sem)
			sem += c->base_addr - base;
	}

	if (sdt_elf_vaddr_to_offset(c->e, pc, &s.file_offset, &bias))
		return sdt_file_diag(c->f, "note %zu (%s:%s): address 0x%llx is in no loadable "
				     "segment", c->index, provider, name, (unsigned long long)pc);
	s.text_bias = bias;
	s.address = pc;
	s.semaphore = sem;
	if (sem) {
		uint64_t sbias;

		if (!sdt_elf_vaddr_to_offset(c->e, sem, &s.semaphore_offset, &sbias)) {
			s.has_semaphore_offset = true;
			/* an unsigned short: the kernel refuses an odd ref_ctr_offset (EINVAL) */
			if (s.semaphore_offset & 1) {
				s.has_semaphore_offset = false;
				err = sdt_file_diag(c->f, "note %zu (%s:%s): semaphore 0x%llx is not "
						    "2-byte aligned", c->index, provider, name,
						    (unsigned long long)sem);
				if (err)
					return err;
			}
		} else {
			err = sdt_file_diag(c->f, "note %zu (%s:%s): semaphore 0x%llx is in no "
					    "loadable segment", c->index, provider, name,
					    (unsigned long long)sem);
			if (err)
				return err;
		}
	}

	err = sdt_args_parse(c->arch, c->e->elfclass, args, &s.args, &s.nargs);
	if (err == -E2BIG)
		return sdt_file_diag(c->f, "note %zu (%s:%s): more than %d arguments", c->index,
				     provider, name, SDT_MAX_ARGS);
	if (err)
		return err;
	s.provider = sdt_strdup(provider);
	s.name = sdt_strdup(name);
	s.args_text = sdt_strdup(args);
	if (!s.provider || !s.name || !s.args_text)
		goto nomem;
	if (sdt_file_add_site(c->f, &s))
		goto nomem;
	return 0;
nomem:
	sdt_site_release(&s);
	return -ENOMEM;
}

/* The data of @scn when it is a .note.stapsdt section, else NULL (*@unreadable: it is one). */
static Elf_Data *stapsdt_data(struct sdt_elf *e, Elf_Scn *scn, bool *unreadable)
{
	const char *secname;
	GElf_Shdr sh;
	Elf_Data *data;

	*unreadable = false;
	if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
		return NULL;
	secname = elf_strptr(e->elf, e->shstrndx, sh.sh_name);
	if (!secname || strcmp(secname, ".note.stapsdt"))
		return NULL;
	/* elf_getdata, not elf_rawdata: only it byte-swaps the note headers. */
	data = elf_getdata(scn, NULL);
	*unreadable = !data;
	return data;
}

static bool is_stapsdt(const Elf_Data *data, const GElf_Nhdr *nh, size_t name_off)
{
	return nh->n_type == NT_STAPSDT && nh->n_namesz == 8 &&
	       !memcmp((const char *)data->d_buf + name_off, "stapsdt", 8);
}

size_t sdt_notes_count(struct sdt_elf *e)
{
	Elf_Scn *scn = NULL;
	size_t n = 0;

	while ((scn = elf_nextscn(e->elf, scn))) {
		size_t off = 0, next, name_off, desc_off;
		bool unreadable;
		Elf_Data *data = stapsdt_data(e, scn, &unreadable);
		GElf_Nhdr nh;

		while (data && off < data->d_size &&
		       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
			off = next;
			n += is_stapsdt(data, &nh, name_off);
		}
	}
	return n;
}

int sdt_notes_read(struct sdt_elf *e, struct sdt_file *f)
{
	struct note_ctx c = {.e = e, .f = f};
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	int err;

	c.arch = sdt_arch_find(e->ehdr.e_machine, e->elfclass, e->big_endian);
	if (sdt_elf_section(e, ".stapsdt.base", &sh)) {
		c.have_base = true;
		c.base_addr = sh.sh_addr;
	}

	while ((scn = elf_nextscn(e->elf, scn))) {
		size_t off = 0, next, name_off, desc_off;
		bool unreadable;
		Elf_Data *data = stapsdt_data(e, scn, &unreadable);
		GElf_Nhdr nh;

		if (!data && !unreadable)
			continue;
		if (!data) {
			/* the sites of an earlier section still get their arguments rendered */
			err = sdt_file_diag(f, "section .note.stapsdt cannot be read: %s",
					    elf_errmsg(-1));
			if (err)
				return err;
			continue;
		}
		while (off < data->d_size &&
		       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
			off = next;
			c.index++;
			if (!is_stapsdt(data, &nh, name_off))
				continue;
			/* scan() counted them first: only a caller that did not count gets here */
			if (f->nsites >= SDT_SCAN_MAX_NOTES) {
				err = sdt_file_diag(f, "more than %u notes: the rest are ignored",
						    SDT_SCAN_MAX_NOTES);
				if (err)
					return err;
				return resolve_and_render(&c);
			}
			err = read_note(&c, (const unsigned char *)data->d_buf + desc_off,
					nh.n_descsz);
			if (err)
				return err;
		}
		if (off < data->d_size) {
			err = sdt_file_diag(f, "section .note.stapsdt is truncated after note %zu",
					    c.index);
			if (err)
				return err;
		}
	}
	return resolve_and_render(&c);
}
