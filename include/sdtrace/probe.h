/* SPDX-License-Identifier: MIT */
/*
 * User probes: a uprobe on a function, an offset in it, an address, a function's return, or an
 * SDT site under a short name, with named and typed arguments, kept in the SDT cache beside the
 * SDT events of the same binary, in perf's own format (`perf probe --cache` writes the same):
 *
 *	#probe_prog:open_entry=open_file path=+0(%di):string flags=%si:s32
 *	p:probe_prog/open_entry /usr/bin/prog:0x1270 path=+0(%di):string flags=%si:s32
 *
 * The header is `GROUP:NAME=LOCATION ARG...`, followed by one `p:` (or `r:` for a return probe)
 * line per site. Locations come from the ELF symbol tables (.symtab and .dynsym), never DWARF:
 *	SYMBOL, SYMBOL+OFFSET   a function (STT_FUNC), OFFSET inside it
 *	SYMBOL%return           its return ($retval is the return value)
 *	0xADDRESS               a link-time address in an executable segment
 *	%PROVIDER:EVENT         every site of an SDT event (with its semaphore)
 * A symbol defined more than once at different addresses is an error, and so is an offset
 * outside its function. Every name and argument is checked against a strict grammar (see
 * lib/cache/userprobe.h) before it can reach a `p:` line.
 *
 * Example:
 *	struct sdt_user_probe *p;
 *	const char *args[] = {"n=%di:u64"};
 *	if (!sdt_user_probe__define("/usr/bin/prog", "work", "do_work", args, 1, &p)) {
 *		sdt_cache__probe_add(cache, p);
 *		sdt_user_probe__free(p);
 *	}
 */
#ifndef SDTRACE_PROBE_H
#define SDTRACE_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sdtrace/cache.h>
#include <sdtrace/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A user probe (opaque): defined with sdt_user_probe__define() (free it with
 * sdt_user_probe__free()), or listed from the cache in a struct sdt_user_probes, which owns it.
 * Every string it gives is borrowed until it (or its list) is freed.
 */
struct sdt_user_probe;
/* The user probes sdt_cache__probes() found (opaque), free with sdt_user_probes__free(). */
struct sdt_user_probes;

/*
 * Resolve @location in the file at @path and check @name and @args (NULL-able when @nargs is 0).
 * Returns 0 and *out (free with sdt_user_probe__free()), or -errno with the message (then *out
 * is NULL): -ENOENT (no such symbol or SDT event), -ENOTUNIQ (a symbol defined more than once),
 * -ERANGE (an offset outside the function, an address outside executable code), -EINVAL (a bad
 * name, argument or location).
 */
SDT_API int sdt_user_probe__define(const char *path, const char *name, const char *location,
				   const char *const *args, size_t nargs,
				   struct sdt_user_probe **out);
/* Free a probe of sdt_user_probe__define() (NULL: nothing); never one of a list. */
SDT_API void sdt_user_probe__free(struct sdt_user_probe *p);

/* The event name, and the group perf gives it: "probe_" + the binary's base name. */
SDT_API const char *sdt_user_probe__name(const struct sdt_user_probe *p);
SDT_API const char *sdt_user_probe__group(const struct sdt_user_probe *p);
/* The real path of the binary, and its build-id (NULL when listed from an entry perf wrote
 * without one). */
SDT_API const char *sdt_user_probe__path(const struct sdt_user_probe *p);
SDT_API const char *sdt_user_probe__build_id(const struct sdt_user_probe *p);
/* The location, as given (NULL: a listed header without one). */
SDT_API const char *sdt_user_probe__location(const struct sdt_user_probe *p);
/* Its arguments, NAME=FETCH:TYPE as given: their count, argument @i or NULL. */
SDT_API size_t sdt_user_probe__arg_count(const struct sdt_user_probe *p);
SDT_API const char *sdt_user_probe__arg(const struct sdt_user_probe *p, size_t i);
/* Is it a function's return (SYMBOL%return)? */
SDT_API bool sdt_user_probe__is_return(const struct sdt_user_probe *p);
/* The `#` line of its cache entry, without its '#'. */
SDT_API const char *sdt_user_probe__header(const struct sdt_user_probe *p);
/* Its `p:`/`r:` lines, one per site: their count, line @i or NULL. */
SDT_API size_t sdt_user_probe__line_count(const struct sdt_user_probe *p);
SDT_API const char *sdt_user_probe__line(const struct sdt_user_probe *p, size_t i);

/*
 * Store @p in the cache entry of its binary (creating the entry, also for a binary without SDT
 * notes). -EEXIST when that binary already has a user probe called p->name, -ESTALE when the
 * file is no longer the build @p was defined on.
 */
SDT_API int sdt_cache__probe_add(struct sdt_cache *c, const struct sdt_user_probe *p);

/*
 * The user probes of every cache entry whose name matches the glob @pattern (NULL: all), also
 * those perf wrote, sorted by name then path, in *out (free with sdt_user_probes__free()).
 * 0 or -errno (then *out is NULL).
 */
SDT_API int sdt_cache__probes(struct sdt_cache *c, const char *pattern,
			      struct sdt_user_probes **out);
SDT_API size_t sdt_user_probes__count(const struct sdt_user_probes *l);
/* Probe @i (< sdt_user_probes__count()), or NULL. */
SDT_API const struct sdt_user_probe *sdt_user_probes__probe(const struct sdt_user_probes *l,
							     size_t i);
/* Free the list and its probes (NULL: nothing). */
SDT_API void sdt_user_probes__free(struct sdt_user_probes *l);

/*
 * Remove the user probes called @name (a glob) from every entry, or from the entries of @path
 * only (NULL: every binary). Returns the number removed (0: none matched) or -errno.
 */
SDT_API int sdt_cache__probe_remove(struct sdt_cache *c, const char *name, const char *path);

#ifdef __cplusplus
}
#endif

#endif
