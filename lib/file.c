/* SPDX-License-Identifier: MIT */
/* sdt_file__open(): scan one ELF file; the accessors of include/sdtrace/scan.h. */
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"
#include "sdt_elf.h"
#include "file.h"
#include "internal.h"

/* Bound on diagnostics kept per file: a file with a million bad notes gets a summary line. */
#define MAX_DIAGS 1000

int sdt_file_diag(struct sdt_file *f, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	if (f->ndiags > MAX_DIAGS)
		return 0;
	if (f->ndiags == MAX_DIAGS) {
		msg = sdt_strdup("too many problems: the rest are not shown");
	} else {
		va_start(ap, fmt);
		n = vasprintf(&msg, fmt, ap);
		va_end(ap);
		if (n < 0)
			msg = NULL;
	}
	if (!msg)
		return -ENOMEM;
	if (sdt_grow((void **)&f->diags, &f->diags_cap, f->ndiags + 1, sizeof(*f->diags))) {
		free(msg);
		return -ENOMEM;
	}
	f->diags[f->ndiags++] = msg;
	return 0;
}

void sdt_site_release(struct sdt_site *s)
{
	free(s->provider);
	free(s->name);
	free(s->args_text);
	sdt_args_free(s->args, s->nargs);
	memset(s, 0, sizeof(*s));
}

void sdt_file__free(struct sdt_file *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nsites; i++)
		sdt_site_release(&f->sites[i]);
	for (i = 0; i < f->ndiags; i++)
		free(f->diags[i]);
	free(f->sites);
	free(f->diags);
	free(f->path);
	free(f->build_id);
	free(f);
}

int sdt_file_scan_elf(struct sdt_elf *e, const char *path, struct sdt_file **out)
{
	struct sdt_file *f;
	int err;

	f = calloc(1, sizeof(*f));
	if (!f)
		return sdt_err(-ENOMEM, "'%s': out of memory", path);
	f->path = sdt_strdup(path);
	if (!f->path) {
		err = -ENOMEM;
		goto fail;
	}
	f->machine = e->ehdr.e_machine;
	f->elfclass = e->elfclass;
	f->byte_order = e->ehdr.e_ident[EI_DATA];
	f->e_type = e->ehdr.e_type;
	f->arch_name = sdt_arch_name(f->machine, f->elfclass, e->big_endian);
	err = sdt_elf_build_id(e, &f->build_id);
	if (err)
		goto fail;
	err = sdt_notes_read(e, f);
	if (err)
		goto fail;
	*out = f;
	return 0;
fail:
	sdt_file__free(f);
	return sdt_err(err, "'%s': %s", path, strerror(-err));
}

int sdt_file__open(const char *path, const struct sdt_scan_opts *opts, struct sdt_file **out)
{
	struct sdt_elf e;
	int err;

	(void)opts;
	*out = NULL;
	err = sdt_elf_open(path, &e);
	if (err)
		return err;
	err = sdt_file_scan_elf(&e, path, out);
	sdt_elf_close(&e);
	return err;
}

int sdt_file__open_mem(const void *buf, size_t len, const struct sdt_scan_opts *opts,
		       struct sdt_file **out)
{
	const char *name = opts && opts->sz >= offsetof(struct sdt_scan_opts, name) + sizeof(char *)
				   ? opts->name
				   : NULL;
	struct sdt_elf e;
	int err;

	*out = NULL;
	if (!name)
		name = "<memory>";
	err = sdt_elf_open_mem(buf, len, name, &e);
	if (err)
		return err;
	err = sdt_file_scan_elf(&e, name, out);
	sdt_elf_close(&e);
	return err;
}

const char *sdt_file__path(const struct sdt_file *f)
{
	return f->path;
}

const char *sdt_file__build_id(const struct sdt_file *f)
{
	return f->build_id;
}

unsigned int sdt_file__machine(const struct sdt_file *f)
{
	return f->machine;
}

int sdt_file__elf_class(const struct sdt_file *f)
{
	return f->elfclass;
}

int sdt_file__byte_order(const struct sdt_file *f)
{
	return f->byte_order;
}

const char *sdt_file__arch_name(const struct sdt_file *f)
{
	return f->arch_name;
}

size_t sdt_file__site_count(const struct sdt_file *f)
{
	return f->nsites;
}

const struct sdt_site *sdt_file__site(const struct sdt_file *f, size_t i)
{
	return i < f->nsites ? &f->sites[i] : NULL;
}

size_t sdt_file__diag_count(const struct sdt_file *f)
{
	return f->ndiags;
}

const char *sdt_file__diag(const struct sdt_file *f, size_t i)
{
	return i < f->ndiags ? f->diags[i] : NULL;
}

const char *sdt_site__provider(const struct sdt_site *s)
{
	return s->provider;
}

const char *sdt_site__name(const struct sdt_site *s)
{
	return s->name;
}

uint64_t sdt_site__address(const struct sdt_site *s)
{
	return s->address;
}

uint64_t sdt_site__file_offset(const struct sdt_site *s)
{
	return s->file_offset;
}

bool sdt_site__has_semaphore(const struct sdt_site *s)
{
	return s->semaphore != 0;
}

uint64_t sdt_site__semaphore(const struct sdt_site *s)
{
	return s->semaphore;
}

bool sdt_site__has_semaphore_offset(const struct sdt_site *s)
{
	return s->has_semaphore_offset;
}

uint64_t sdt_site__semaphore_offset(const struct sdt_site *s)
{
	return s->semaphore_offset;
}

const char *sdt_site__args_text(const struct sdt_site *s)
{
	return s->args_text;
}

size_t sdt_site__arg_count(const struct sdt_site *s)
{
	return s->nargs;
}

const struct sdt_arg *sdt_site__arg(const struct sdt_site *s, size_t i)
{
	return i < s->nargs ? &s->args[i] : NULL;
}

const char *sdt_arg__spec(const struct sdt_arg *a)
{
	return a->spec;
}

unsigned int sdt_arg__size(const struct sdt_arg *a)
{
	return a->size;
}

bool sdt_arg__is_signed(const struct sdt_arg *a)
{
	return a->is_signed;
}

bool sdt_arg__is_float(const struct sdt_arg *a)
{
	return a->is_float;
}

const char *sdt_arg__fetch(const struct sdt_arg *a)
{
	return a->fetch;
}

const char *sdt_arg__unavailable(const struct sdt_arg *a)
{
	return a->unavailable;
}

bool sdt_arg__needs_rebase(const struct sdt_arg *a)
{
	return a->kind == SDT_ARG_ADDR && a->fetch;
}
