/* SPDX-License-Identifier: MIT */
/*
 * Scanning an ELF file for SDT probes (the `.note.stapsdt` notes of <sys/sdt.h>).
 *
 * A file of any architecture, class (32/64-bit) and byte order is read; each note is one probe
 * *site*: provider, name, address, file offset, semaphore, and arguments. Each argument spec
 * ("-4@-20(%rbp)") is parsed for the file's architecture and rendered as a uprobe fetcharg
 * ("-20(%bp):s32"), or marked unavailable with the reason when no fetcharg can express it.
 *
 * Lifetimes: a struct sdt_file owns every site, argument and string reachable from it. Pointers
 * returned by the accessors below are borrowed and stay valid until sdt_file__free().
 *
 * Example (list every site and its fetchargs):
 *	struct sdt_file *f;
 *	if (sdt_file__open(path, NULL, &f) < 0)
 *		errx(1, "%s", sdt_errmsg());
 *	for (size_t i = 0; i < sdt_file__site_count(f); i++) {
 *		const struct sdt_site *s = sdt_file__site(f, i);
 *		for (size_t j = 0; j < sdt_site__arg_count(s); j++) {
 *			const struct sdt_arg *a = sdt_site__arg(s, j);
 *			printf("%s -> %s\n", sdt_arg__spec(a),
 *			       sdt_arg__fetch(a) ? sdt_arg__fetch(a) : sdt_arg__unavailable(a));
 *		}
 *	}
 *	sdt_file__free(f);
 */
#ifndef SDTRACE_SCAN_H
#define SDTRACE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sdtrace/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sdt_file;
struct sdt_site;
struct sdt_arg;

/*
 * Most SDT notes one file may have: over a hundred times libjvm.so's 531. A decoded note costs
 * about 1 KB of memory, so a file with more is refused whole (-E2BIG), from a count of its note
 * headers taken before any note is decoded.
 */
#define SDT_SCAN_MAX_NOTES 65536u

struct sdt_scan_opts {
	size_t sz;
	/* Name to use for the file in messages and in sdt_file__path() (open_mem only). */
	const char *name;
};

/*
 * Scan the ELF file at @path. A file without SDT notes is not an error (0 sites).
 * Returns 0 and sets *out, or -errno: -ENOENT/-EACCES (open), -ENOEXEC (not an ELF file),
 * -EINVAL (corrupt or truncated ELF), -E2BIG (more than SDT_SCAN_MAX_NOTES notes). Notes that
 * are malformed or carry names tracefs would not accept are skipped and reported through
 * sdt_file__diag(); they do not fail the scan.
 */
SDT_API int sdt_file__open(const char *path, const struct sdt_scan_opts *opts,
			   struct sdt_file **out);
/* The same for an ELF image in memory; @buf is read during the call only. */
SDT_API int sdt_file__open_mem(const void *buf, size_t len, const struct sdt_scan_opts *opts,
			       struct sdt_file **out);
SDT_API void sdt_file__free(struct sdt_file *f);

SDT_API const char *sdt_file__path(const struct sdt_file *f);
/* The GNU build-id as lowercase hex, or NULL when the file has none. */
SDT_API const char *sdt_file__build_id(const struct sdt_file *f);
/* e_machine, ELFCLASS32/64, ELFDATA2LSB/MSB, e_type. */
SDT_API unsigned int sdt_file__machine(const struct sdt_file *f);
SDT_API int sdt_file__elf_class(const struct sdt_file *f);
SDT_API int sdt_file__byte_order(const struct sdt_file *f);
/* Architecture name as used in messages ("x86_64", "aarch64", "ppc64le", ...). */
SDT_API const char *sdt_file__arch_name(const struct sdt_file *f);

SDT_API size_t sdt_file__site_count(const struct sdt_file *f);
/* Sites in note order. NULL when @i is out of range. */
SDT_API const struct sdt_site *sdt_file__site(const struct sdt_file *f, size_t i);

/* Problems met while scanning (a rejected note, an unresolvable address): one line each. */
SDT_API size_t sdt_file__diag_count(const struct sdt_file *f);
SDT_API const char *sdt_file__diag(const struct sdt_file *f, size_t i);

SDT_API const char *sdt_site__provider(const struct sdt_site *s);
SDT_API const char *sdt_site__name(const struct sdt_site *s);
/* The note's pc after the .stapsdt.base (prelink) adjustment: a link-time virtual address. */
SDT_API uint64_t sdt_site__address(const struct sdt_site *s);
/* File offset of the probe address: what a uprobe is placed at. */
SDT_API uint64_t sdt_site__file_offset(const struct sdt_site *s);
/* Semaphore address (0 when none) and its file offset (the kernel's ref_ctr_offset). */
SDT_API bool sdt_site__has_semaphore(const struct sdt_site *s);
SDT_API uint64_t sdt_site__semaphore(const struct sdt_site *s);
/* false when the site has a semaphore whose file offset could not be found. */
SDT_API bool sdt_site__has_semaphore_offset(const struct sdt_site *s);
SDT_API uint64_t sdt_site__semaphore_offset(const struct sdt_site *s);
/* The note's raw argument string. */
SDT_API const char *sdt_site__args_text(const struct sdt_site *s);
SDT_API size_t sdt_site__arg_count(const struct sdt_site *s);
SDT_API const struct sdt_arg *sdt_site__arg(const struct sdt_site *s, size_t i);

/* The argument's spec as written in the note ("-4@%eax"). */
SDT_API const char *sdt_arg__spec(const struct sdt_arg *a);
/* Size in bytes (1, 2, 4, 8 or 16), sign, and whether it is a floating-point value. */
SDT_API unsigned int sdt_arg__size(const struct sdt_arg *a);
SDT_API bool sdt_arg__is_signed(const struct sdt_arg *a);
SDT_API bool sdt_arg__is_float(const struct sdt_arg *a);
/* The uprobe fetcharg with its type ("%ax:s32"), or NULL when the argument is unavailable. */
SDT_API const char *sdt_arg__fetch(const struct sdt_arg *a);
/* Why the argument cannot be fetched, or NULL when it can. */
SDT_API const char *sdt_arg__unavailable(const struct sdt_arg *a);
/*
 * True when the fetched value is a link-time address (an address immediate such as `$sym`) that
 * must be rebased by the load bias: recorded probe ip minus sdt_site__address().
 */
SDT_API bool sdt_arg__needs_rebase(const struct sdt_arg *a);

#ifdef __cplusplus
}
#endif

#endif
