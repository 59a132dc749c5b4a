/* SPDX-License-Identifier: MIT */
/* The scanned file: struct sdt_file and struct sdt_site, behind the accessors of scan.h. */
#ifndef SDT_FILE_H
#define SDT_FILE_H

#include "scan/argspec.h"
#include "sdtrace/scan.h"

struct sdt_elf;

struct sdt_site {
	char *provider;
	char *name;
	char *args_text;
	uint64_t address;
	uint64_t file_offset;
	uint64_t semaphore; /* 0: none */
	uint64_t semaphore_offset;
	bool has_semaphore_offset;
	uint64_t text_bias; /* p_vaddr - p_offset of the segment holding address */
	bool is_return;	    /* a user probe's return probe (r: line); never for an SDT note */
	struct sdt_arg *args;
	size_t nargs;
};

struct sdt_file {
	char *path;
	char *build_id;
	unsigned int machine;
	int elfclass;
	int byte_order;
	int e_type;
	const char *arch_name;
	struct sdt_site *sites;
	size_t nsites;
	size_t sites_cap;
	char **diags;
	size_t ndiags;
	size_t diags_cap;
};

/* Append a diagnostic line (printf format) to @f. Returns 0 or -ENOMEM. */
int sdt_file_diag(struct sdt_file *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Append @s to @f's sites: on success @f owns what @s points to (free it with @f). Returns 0, or
 * -ENOMEM with @s still the caller's.
 */
int sdt_file_add_site(struct sdt_file *f, const struct sdt_site *s);

/*
 * Scan the open @e (named @path in the result and messages) into *out: its build-id and sites
 * (open.c). @e stays open (the caller may read its symbols too). 0 or -errno with the message.
 */
int sdt_file_scan_elf(struct sdt_elf *e, const char *path, struct sdt_file **out);

/* Free what @s points to and zero it (not @s itself: it lives in an array). */
void sdt_site_release(struct sdt_site *s);

#endif
