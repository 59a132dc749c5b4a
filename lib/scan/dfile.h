/* SPDX-License-Identifier: MIT */
/*
 * DTrace provider files (`.d`): the parser, and the probe declarations it yields.
 *
 *	#define Oid unsigned int                      a type alias (also: typedef T NAME;)
 *	provider postgresql {
 *		probe query__start(const char *query);    named parameter
 *		probe lwlock__acquire(const char *, int); unnamed
 *		probe buffer-read-start(Oid, Oid);       '-' in a name is '__' (as dtrace -h)
 *	};
 *	#pragma D attributes ...                      other '#' lines are ignored
 *	translator / inline / anything else           skipped to its ';'
 *
 * Notes: a comment line `@sdtrace KEY: TEXT` belongs to the next `probe` (or, before a
 * `provider`, to every probe of the block, ahead of each probe's own). TEXT runs on over the
 * next lines of the comment up to a blank line, another `@sdtrace` line or the comment's end.
 * KEY is [a-z][a-z0-9_-]* (needs, fires, ...: the vocabulary is the callers'; unknown keys are
 * kept). One key's text is checked here: `category`'s is one word ([a-z][a-z0-9_]*, at most
 * SDT_DFILE_MAX_CATEGORY bytes). To dtrace and every other reader it is a comment.
 *
 *	/\* @sdtrace needs: -XX:+ExtendedDTraceProbes (or -XX:+DTraceMethodProbes) *\/
 *	probe method__entry(...);
 *
 * The text is hostile: lengths, nesting, parameters, aliases and probes are capped, names are
 * checked against what uprobe_events accepts, and an error says FILE:LINE.
 */
#ifndef SDT_DFILE_H
#define SDT_DFILE_H

#include <stddef.h>

/* Caps on what a file may declare. */
#define SDT_DFILE_MAX_SIZE    (16u << 20)
#define SDT_DFILE_MAX_PROBES  (1u << 20)
#define SDT_DFILE_MAX_NESTING 64
#define SDT_DFILE_MAX_IDENT   256
#define SDT_DFILE_MAX_ALIASES 4096
#define SDT_DFILE_MAX_NOTES   16   /* per probe, its provider's included */
#define SDT_DFILE_MAX_NOTE_KEY 32
#define SDT_DFILE_MAX_NOTE    1024 /* bytes of one note's text */
#define SDT_DFILE_MAX_CATEGORY 16  /* bytes of a `category` note's one word */

struct sdt_dparam {
	char *name;  /* NULL when unnamed */
	char *ctype; /* the C type, aliases expanded: "const char *" */
};

/* One `@sdtrace KEY: TEXT` note; TEXT has its lines joined by a space. */
struct sdt_dnote {
	char *key;
	char *text;
	unsigned int line;
};

struct sdt_dprobe {
	char *provider;
	char *name; /* '-' already turned into "__" */
	unsigned int line;
	struct sdt_dparam *params;
	size_t nparams;
	struct sdt_dnote *notes; /* the provider's first, then the probe's own */
	size_t nnotes;
};

/*
 * Parse @len bytes of @buf (need not be NUL-terminated), calling @fn for every probe; @fn takes
 * ownership of the probe and returns 0 or a negative errno. @name is the file's name for
 * messages. Returns 0, -EINVAL (message "NAME:LINE: ..."), -E2BIG (a cap), -ENOMEM, or what @fn
 * returned.
 */
int sdt_dfile_parse(const char *buf, size_t len, const char *name,
		    int (*fn)(struct sdt_dprobe *p, void *data), void *data);
void sdt_dprobe_free(struct sdt_dprobe *p);

#endif
