/* SPDX-License-Identifier: MIT */
/*
 * sdt_file__open(): scan one ELF file, from a path or from memory. The orchestrator of the scan
 * stage: open the ELF (elf.c), take its build-id and read its notes (note.c) into a struct
 * sdt_file. The model itself (lifecycle, diagnostics, accessors) is file.c, below both this file
 * and note.c, so that neither calls the other back.
 */
#include <string.h>

#include "scan/arch/arch.h"
#include "scan/sdt_elf.h"
#include "scan/file.h"
#include "scan/note.h"
#include "util/internal.h"

int sdt_file_scan_elf(struct sdt_elf *e, const char *path, struct sdt_file **out)
{
	struct sdt_file *f;
	size_t n;
	int err;

	/* the memory of a scan grows with its notes: too many, and nothing is decoded */
	n = sdt_notes_count(e);
	if (n > SDT_SCAN_MAX_NOTES)
		return sdt_err(-E2BIG, "'%s': %zu SDT notes, more than the limit of %u per file",
			       path, n, SDT_SCAN_MAX_NOTES);
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
