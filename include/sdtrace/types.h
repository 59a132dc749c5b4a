/* SPDX-License-Identifier: MIT */
/*
 * Typed arguments: names and types for the arguments of SDT probes.
 *
 * An SDT note carries only each argument's size and sign ("8@%r12"), so a `const char *` is a
 * number unless it is typed. Types come from two places:
 *
 *  - the event spec:  %python:function__entry(filename:string, funcname:string, lineno:s32)
 *    positional, each `name[:type]`; `name` alone keeps the note's type. Types: string, s8..s64,
 *    u8..u64, x8..x64 (hex), float, double, char.
 *  - provider type files in DTrace's `.d` syntax
 *	provider python { probe function__entry(const char *filename, const char *, int); };
 *    loaded from --types files, then $XDG_CONFIG_HOME/sdtrace/providers (~/.config/...), then the
 *    directory shipped with sdtrace (sdt_types__shipped_dir()). The first definition of a
 *    provider:probe wins. C types map to fetch types: `char *` -> string, `int` -> s32,
 *    `uint64_t` -> u64, `void *` / `struct x *` -> x64 (sdt_type__from_c()).
 *  - the SystemTap tapsets installed on the machine (sdt_types__tapset_dir()), for providers no
 *    `.d` file declares: `probe NAME = process("PATH").mark("EVENT") { n = $arg1;
 *    s = user_string($arg2) }` names the arguments of EVENT in the binary at PATH, strings
 *    typed string, the others the note's own type.
 *
 * A typed argument changes the fetch: a `string` argument whose note fetch is `%r12:u64` is
 * fetched as `+0(%r12):string` (the kernel reads the string the pointer points to); an integer
 * type changes the sign or the base shown and must have the note's size; float/double need a
 * 4/8-byte argument and decode its raw bits. A type whose size disagrees with the note is an error
 * naming provider:event, the argument and both sizes. Names become fetcharg names in
 * uprobe_events: [A-Za-z_][A-Za-z0-9_]*, at most 64 bytes, not common_*, unique per probe.
 *
 * Example:
 *	struct sdt_types *t;
 *	struct sdt_arg_type *types;
 *	size_t n;
 *	char *fetch;
 *	if (sdt_types__new(&t) || sdt_types__load_default(t, NULL, 0))
 *		errx(1, "%s", sdt_errmsg());
 *	if (sdt_types__resolve(t, NULL, f, site, &types, &n) > 0) {
 *		for (size_t i = 0; i < n; i++)
 *			if (sdt_arg__typed_fetch(f, site, i, &types[i], &fetch) == 0) {
 *				printf("%s %s\n", types[i].name ? types[i].name : "-", fetch);
 *				free(fetch);
 *			}
 *	}
 *	sdt_arg_types__free(types, n);
 *	sdt_types__free(t);
 */
#ifndef SDTRACE_TYPES_H
#define SDTRACE_TYPES_H

#include <stdbool.h>
#include <stddef.h>

#include <sdtrace/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sdt_file;
struct sdt_site;
struct sdt_spec;
struct sdt_types;

enum sdt_type_kind {
	SDT_TYPE_DEFAULT = 0, /* the note's own size and sign */
	SDT_TYPE_INT,	      /* decimal integer of ->size bytes, ->is_signed */
	SDT_TYPE_HEX,	      /* hexadecimal integer of ->size bytes */
	SDT_TYPE_STRING,      /* the NUL-terminated string a pointer argument points to */
	SDT_TYPE_FLOAT,	      /* IEEE float (size 4) or double (size 8), from the raw bits */
	SDT_TYPE_CHAR,	      /* one character (size 1) */
};

/* One argument's name and type. */
struct sdt_arg_type {
	char *name; /* NULL: unnamed (argN) */
	enum sdt_type_kind kind;
	/* Bytes. 0 for DEFAULT, and for STRING until resolved against a file (pointer size). */
	unsigned int size;
	bool is_signed;
};

/* Longest argument name (the kernel's limit for a tracefs field name is larger). */
#define SDT_MAX_ARG_NAME 64

/* Is @name usable as an argument name: [A-Za-z_][A-Za-z0-9_]*, 1..64 bytes, not common_*? */
SDT_API bool sdt_type__valid_name(const char *name);
/*
 * Parse a type keyword ("string", "s32", "x64", "float", "double", "char") into @out's kind,
 * size and sign (->name untouched). 0 or -EINVAL.
 */
SDT_API int sdt_type__parse(const char *text, struct sdt_arg_type *out);
/*
 * Map a C type ("const char *", "unsigned long", "uint64_t", "struct foo *") to a fetch type,
 * for a target whose pointers and longs are @word_size bytes (4 or 8). Qualifiers are ignored.
 * An identifier that is not a known C type (a typedef the file did not define, or `auto`) maps
 * to SDT_TYPE_DEFAULT: the note's own size and sign. Returns 0, or -ENOTSUP (long double, a struct
 * passed by value, ...), -EINVAL (not a type).
 */
SDT_API int sdt_type__from_c(const char *ctype, unsigned int word_size, struct sdt_arg_type *out);
/* The type keyword ("s32", "string", "double"), or "" for SDT_TYPE_DEFAULT. Static string. */
SDT_API const char *sdt_type__keyword(const struct sdt_arg_type *t);

/*
 * Parse a typed argument list "filename:string, funcname, lineno:s32" (without the parentheses).
 * An empty list gives 0 entries. Returns 0 with *out (caller frees with sdt_arg_types__free()),
 * or -EINVAL (message names the entry) / -ENOMEM.
 */
SDT_API int sdt_arg_types__parse(const char *text, struct sdt_arg_type **out, size_t *n);
SDT_API void sdt_arg_types__free(struct sdt_arg_type *types, size_t n);

/* ---- provider type files ---------------------------------------------------------------- */

SDT_API int sdt_types__new(struct sdt_types **out);
SDT_API void sdt_types__free(struct sdt_types *t);
/*
 * Load one `.d` file / every `*.d` file of a directory (in name order) / a buffer named @name.
 * Probes already defined keep their first definition. Returns the number of probes added, or
 * -ENOENT/-EACCES (open), -EINVAL (syntax: the message says FILE:LINE), -E2BIG, -ENOMEM.
 */
SDT_API int sdt_types__load_file(struct sdt_types *t, const char *path);
SDT_API int sdt_types__load_dir(struct sdt_types *t, const char *dir);
SDT_API int sdt_types__load_mem(struct sdt_types *t, const char *buf, size_t len, const char *name);
/*
 * The default search path: @files (--types, must exist) in order, then the user's directory
 * ($XDG_CONFIG_HOME/sdtrace/providers, else $HOME/.config/sdtrace/providers), then the shipped
 * directory, then the tapset directory (sdt_types__load_tapsets(): its problems are
 * warnings); the directories are optional. Returns 0 or the first error.
 */
SDT_API int sdt_types__load_default(struct sdt_types *t, const char *const *files, size_t nfiles);
/*
 * The SystemTap tapsets (`*.stp`) of directory @dir and its subdirectories (or the one file
 * @dir), read for argument names: `probe NAME = process("PATH").mark("EVENT") { var = $arg1;
 * str = user_string($arg2) }` (also .library("LIB") and .provider("P") points, and plain probes
 * of such points). Only that shape is read; what a tapset cannot say is kept as a warning
 * "FILE:LINE: ..." (sdt_types__warning()), never an error. The names serve the sites whose
 * binary is PATH (or its realpath, or the versioned file of an unversioned library name), for
 * providers no `.d` file declares (the `.d` files win). Returns the number of probe points
 * added, or -ENOENT/-ENOTDIR (@dir), -ENOMEM.
 */
SDT_API int sdt_types__load_tapsets(struct sdt_types *t, const char *dir);
/*
 * The tapset directory sdt_types__load_default() reads last: $SDTRACE_TAPSET_DIR when set (empty:
 * none), else /usr/share/systemtap/tapset.
 */
SDT_API const char *sdt_types__tapset_dir(void);
/* What the tapsets read could not say: "FILE:LINE: ..." (the first 64), borrowed; NULL past the end. */
SDT_API size_t sdt_types__warning_count(const struct sdt_types *t);
SDT_API const char *sdt_types__warning(const struct sdt_types *t, size_t i);

/*
 * The directory of the provider files shipped with sdtrace: $SDTRACE_PROVIDERS_DIR when set,
 * else the installed directory when it exists, else share/sdtrace/providers beside the library's
 * file (a build tree's, linked to the source's share/providers), else the installed path.
 */
SDT_API const char *sdt_types__shipped_dir(void);
/* Number of probes loaded. */
SDT_API size_t sdt_types__count(const struct sdt_types *t);
/*
 * The declared types of provider:name for a target of @word_size, as a new array (caller frees
 * with sdt_arg_types__free()). Returns 0, -ENOENT (not declared), -ENOMEM. *origin (optional)
 * receives "FILE:LINE", borrowed until sdt_types__free().
 */
SDT_API int sdt_types__lookup(const struct sdt_types *t, const char *provider, const char *name,
			      unsigned int word_size, struct sdt_arg_type **out, size_t *n,
			      const char **origin);

/*
 * Where provider:name is declared: "FILE:LINE", borrowed until sdt_types__free(); NULL when it
 * is not.
 */
SDT_API const char *sdt_types__origin(const struct sdt_types *t, const char *provider,
				      const char *name);

/*
 * Notes. A provider file may say more about a probe than its arguments, in comments that stay
 * valid D for dtrace and every other reader: a comment line `@sdtrace KEY: TEXT` before a probe
 * is that probe's; before `provider NAME {` it is every probe's of the block (ahead of their
 * own). TEXT runs on over the next comment lines up to a blank line, another `@sdtrace` line or
 * the end of the comment; its lines are joined by a space.
 *
 *	/\* @sdtrace needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMethodProbes) *\/
 *	probe method__entry(long long java_tid, ...);
 *
 * Keys ([a-z][a-z0-9_-]*, at most 32 bytes) sdtrace uses:
 *	needs	a runtime switch the program must be started with, or the probe never fires
 *	fires	when it fires at all, when that is less often than its name says
 *	key	the arguments (NAME[,NAME...]) that tell its pairs apart: `report --latency`
 *		pairs a start and an end of equal values (its --key, by default)
 *	category  what the probe counts in `top --per-process` (BCC ustat's columns): one
 *		word, [a-z][a-z0-9_]* of at most 16 bytes, else a FILE:LINE error; those in
 *		use: method (a call), gc (a collection starts), objnew (an object allocated),
 *		cload (a class or file loaded), excp (an exception raised), thread (one started)
 * Other keys are kept (and listed by `sdtrace list -v`): the vocabulary may grow. A note is at
 * most 1024 bytes of printable text, a probe has at most 16; a malformed `@sdtrace` line is a
 * FILE:LINE error of the file.
 *
 * Note @i of provider:name (the provider's first): its key and text, borrowed until
 * sdt_types__free(). Returns 0, or -ENOENT (no note @i, or no such probe).
 */
SDT_API int sdt_types__note(const struct sdt_types *t, const char *provider, const char *name,
			    size_t i, const char **key, const char **text);
/* The text of the first note of provider:name with @key, or NULL. */
SDT_API const char *sdt_types__note_text(const struct sdt_types *t, const char *provider,
					 const char *name, const char *key);

/* ---- applying types to a site ----------------------------------------------------------- */

enum sdt_types_source {
	SDT_TYPES_NONE = 0, /* no types: every entry is DEFAULT and unnamed */
	SDT_TYPES_SPEC = 1, /* from the event spec's (name:type, ...) */
	SDT_TYPES_FILE = 2, /* from a provider type file */
	SDT_TYPES_TAPSET = 3, /* names from a SystemTap tapset (strings typed, the rest DEFAULT) */
};

/*
 * The names and types to use for the arguments of site @s of @f: the spec's list when it has
 * one (@spec may be NULL), else the type files' declaration of provider:name when its argument
 * count agrees with the note (@t may be NULL), else a tapset's names (no more arguments than
 * the note's); a declared type whose size disagrees with the
 * note's argument gives way to the note's own type (the name is kept: see
 * sdt_types__file_mismatch() for why). *out has one entry per argument of
 * the site (caller frees with sdt_arg_types__free()). Returns an enum sdt_types_source, or
 * -EINVAL when the spec's types do not fit the site (the message names provider:event, the
 * argument and both sizes), -ENOMEM.
 */
SDT_API int sdt_types__resolve(const struct sdt_types *t, const struct sdt_spec *spec,
			       const struct sdt_file *f, const struct sdt_site *s,
			       struct sdt_arg_type **out, size_t *n);
/*
 * Where the names sdt_types__resolve() gives site @s of @f without a spec's list come from:
 * SDT_TYPES_FILE or SDT_TYPES_TAPSET with *@origin "FILE:LINE" (borrowed until
 * sdt_types__free()), else SDT_TYPES_NONE (*@origin NULL).
 */
SDT_API int sdt_types__names_origin(const struct sdt_types *t, const struct sdt_file *f,
				    const struct sdt_site *s, const char **origin);
/*
 * Check @types (@n entries, fewer than the site's arguments allowed) against site @s: 0, or
 * -EINVAL with a message naming provider:event, the argument number, and both sizes.
 */
SDT_API int sdt_types__check(const struct sdt_file *f, const struct sdt_site *s,
			     const struct sdt_arg_type *types, size_t n);
/*
 * Whether the type files' declaration of site @s disagrees with the note: 0 when it agrees or
 * there is none, else -EINVAL with the first disagreement (argument count, or an argument's
 * size) in sdt_errmsg(), prefixed by the declaration's FILE:LINE.
 */
SDT_API int sdt_types__file_mismatch(const struct sdt_types *t, const struct sdt_file *f,
				     const struct sdt_site *s);

/*
 * The uprobe fetcharg of argument @i of site @s typed as @type ("+0(%r12):string"), malloc'ed in
 * *fetch. A DEFAULT type gives the note's fetch. Returns 0, -EINVAL (the type does not fit: the
 * message names provider:event, the argument and both sizes), -ENOTSUP (the argument cannot be
 * fetched, or not as this type: the message says why), -ERANGE (no argument @i), -ENOMEM.
 */
SDT_API int sdt_arg__typed_fetch(const struct sdt_file *f, const struct sdt_site *s, size_t i,
				 const struct sdt_arg_type *type, char **fetch);

#ifdef __cplusplus
}
#endif

#endif
