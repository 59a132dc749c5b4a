/* SPDX-License-Identifier: MIT */
/*
 * The scanned file, the model of the scan stage: struct sdt_file and struct sdt_site, their
 * lifecycle and diagnostics, and the accessors of include/sdtrace/scan.h. Below both the note
 * reader (note.c), which fills a file, and the opener (open.c), which makes one.
 */
#include <stdio.h>
#include <string.h>

#include "scan/file.h"
#include "util/internal.h"

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

int sdt_file_add_site(struct sdt_file *f, const struct sdt_site *s)
{
	if (sdt_grow((void **)&f->sites, &f->sites_cap, f->nsites + 1, sizeof(*f->sites)))
		return -ENOMEM;
	f->sites[f->nsites++] = *s;
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
