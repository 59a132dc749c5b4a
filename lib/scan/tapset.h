/* SPDX-License-Identifier: MIT */
/*
 * SystemTap tapsets (`*.stp`) as a source of argument names: the common shape only,
 *
 *	probe ruby.array.create = process("/usr/lib/x86_64-linux-gnu/libruby-3.1.so")
 *				  .mark("array__create")
 *	{
 *		size = $arg1
 *		file = user_string($arg2)
 *	}
 *
 * an alias (or a plain probe) of process("PATH")[.library("LIB")][.provider("P")].mark("EVENT")
 * points, whose body assigns `NAME = $argN` (a number: the note's own type) or
 * `NAME = user_string...($argN...)` (a string). Everything else of the language is skipped. What
 * cannot be read (an unterminated comment or string, binary data, a probe point or name out of
 * bounds) is a warning "FILE:LINE: ...", never an error: a tapset is only a hint.
 */
#ifndef SDT_TAPSET_H
#define SDT_TAPSET_H

#include <stdbool.h>
#include <stddef.h>

/* SDT notes carry at most 12 arguments ($arg1..$arg12). */
#define SDT_TAPSET_MAX_ARGS 12
/* Larger files are not read (Debian's largest tapsets are below 100 KB). */
#define SDT_TAPSET_MAX_SIZE (4u << 20)
/* Probe points kept per file. */
#define SDT_TAPSET_MAX_PROBES 8192u
/* Longest path or name in a probe point. */
#define SDT_TAPSET_MAX_STRING 4095u

struct sdt_tapset_arg {
	char *name; /* NULL: not named */
	bool is_string;
};

/* One process(...).mark(...) point with the names its body gives. */
struct sdt_tprobe {
	char *path;	/* the binary: library("LIB") when given, else process("PATH") */
	char *provider; /* provider("P"), or NULL */
	char *mark;	/* the event, `-` spelled `__` as in the notes */
	unsigned int line;
	unsigned int nargs; /* the highest N of a named $argN */
	struct sdt_tapset_arg args[SDT_TAPSET_MAX_ARGS];
};

void sdt_tprobe_free(struct sdt_tprobe *p);

/*
 * Parse tapset text @buf (@len bytes, named @name in warnings). @probe receives each point (it
 * owns it from then on, also when it fails); a negative return stops the parse and is returned.
 * @warn receives each warning ("NAME:LINE: what"). Returns 0, or @probe's error / -ENOMEM.
 */
int sdt_tapset_parse(const char *buf, size_t len, const char *name,
		     int (*probe)(struct sdt_tprobe *p, void *data),
		     void (*warn)(const char *msg, void *data), void *data);

struct sdt_types;
struct sdt_file;
struct sdt_site;

/*
 * The tapset point that names the arguments of site @s of @f (dfile_set.c): one whose mark is
 * the site's name (and provider, if it says one) and whose path is @f's (or its realpath, or
 * @f's versioned file of its unversioned library name, or a tail after an unexpanded
 * ${prefix}), when no `.d` file declares the site's provider. *@origin: its "FILE:LINE".
 */
const struct sdt_tprobe *sdt_types_tapset(const struct sdt_types *t, const struct sdt_file *f,
					  const struct sdt_site *s, const char **origin);

#endif
