/* SPDX-License-Identifier: MIT */
/*
 * perf's `probes` file: the text perf keeps in each build-id directory of its cache. This file
 * (probes_file.c) is the one that reads its lines, also those of user probes (sdtrace/probe.h).
 *
 *	%sdt_python:gc__start=gc__start
 *	p:sdt_python/gc__start /usr/bin/python3.11:0x287f3(0x68326e) arg1=+112(%sp):s32
 *	#probe_foo:bar=bar %di:s32              (perf probe --cache: a user probe)
 *	p:probe_foo/bar /usr/bin/foo:0x1270 %di:s32
 *
 * An entry is a header line ('%' for SDT events, '#' for user probes) followed by one
 * `uprobe_events` line per site. SDT entries come in the order of each name's first note, and
 * the lines of an entry in note order, as perf writes them. Arguments are numbered from 1 by
 * their position in the note; one that cannot be fetched is left out without renumbering the
 * others. A floating-point argument is written with perf's integer type (`u64`: the same bits).
 */
#ifndef SDT_PROBES_FILE_H
#define SDT_PROBES_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/internal.h"

struct sdt_probes_entry {
	char kind;	/* '%' (SDT) or '#' (user probe) */
	char *header;	/* the header without its kind character, owned */
	char *provider; /* '%' entries: the provider (group without "sdt_"), owned */
	char *event;	/* '%' entries: the event name, owned */
	char **lines;	/* the p:/r: lines, owned */
	size_t nlines;
	size_t lines_cap;
};

struct sdt_probes {
	struct sdt_probes_entry *entries;
	size_t n;
	size_t cap;
	size_t bad_lines; /* lines that belong to no entry or carry bad names: skipped */
	bool unterminated; /* the last line has no newline (perf and sdtrace end every line) */
};

/* Most user-probe names listed per entry (sdt_cache__entries()). */
#define SDT_PROBES_MAX_NAMES 4096

/* Upper bound on the size of a probes file we read (perf's are a few hundred KiB at most). */
#define SDT_PROBES_MAX_SIZE (64u << 20)

/*
 * Render the SDT entries of @f, probing the file at @path (the real path, as in the cache), into
 * @out (appended). Returns 0, -ENOMEM, or -EINVAL when @path holds bytes uprobe_events cannot take
 * (whitespace, control characters).
 */
int sdt_probes_render(const struct sdt_file *f, const char *path, struct sdt_buf *out);

/* Append the '#' entries of @p (user probes perf keeps) to @out, verbatim. */
int sdt_probes_render_user(const struct sdt_probes *p, struct sdt_buf *out);

/*
 * Parse @len bytes of @text. Entries with names tracefs would not accept are skipped and counted
 * in ->bad_lines. Returns 0 or -ENOMEM; @out must be zeroed and is released with
 * sdt_probes_release().
 */
int sdt_probes_parse(const char *text, size_t len, struct sdt_probes *out);
void sdt_probes_release(struct sdt_probes *p);

/*
 * What the parse of a probes file found wrong with it ("3 malformed lines", "its last line is cut
 * short"), malloc'ed, or NULL when nothing (or out of memory). Events of a damaged file are lost.
 */
char *sdt_probes_damage(const struct sdt_probes *p);

/* Is @path acceptable in a uprobe_events line (no whitespace, no control characters)? */
bool sdt_probes_path_ok(const char *path);

/* ---- user probes ('#' entries) ------------------------------------------------------------ */

/*
 * A user probe's line "K:GROUP/NAME PATH:0xOFF[(0xREF)][ ARGS]", split by
 * sdt_probes_parse_line(): the pointers are into the line (valid while it is).
 */
struct sdt_probes_line {
	char kind;	  /* 'p' (entry) or 'r' (return) */
	const char *path; /* the binary: @plen bytes (the last ":0x" ends it) */
	size_t plen;
	uint64_t off, ref; /* file offsets of the site and (has_ref) of its semaphore */
	bool has_ref;
	const char *args; /* the fetchargs as written, "" when none */
};

/*
 * Split the stored line @l. False when it is not of that form: K not p or r, no PATH:0xOFF, a
 * hexadecimal number of more than 16 digits, bytes between the offset (or its reference) and the
 * arguments. Names and arguments are not checked here.
 */
bool sdt_probes_parse_line(const char *l, struct sdt_probes_line *out);
/* A hexadecimal number of 1..16 digits at @s (after "0x"); the byte after it in *end. */
bool sdt_probes_parse_hex(const char *s, uint64_t *v, const char **end);

/*
 * "GROUP:NAME=..." -> NAME and *group (malloc'ed), NULL when malformed or NAME is not a name
 * tracefs takes (GROUP is not checked: sdt_probes_entry_problem() does).
 */
char *sdt_probes_header_name(const char *h, char **group);

/* The rest of a user probe's header "NAME=LOCATION ARG ARG" (after "GROUP:"), owned. */
struct sdt_probes_header {
	char *location; /* NULL: the header has no '=' (then no arguments either) */
	bool is_return; /* the location holds "%return" */
	char **args;	/* as written, at most SDT_UPROBE_MAX_ARGS * 4 kept */
	size_t nargs;
};
/*
 * Split @h into @out (zeroed first). 0 or -ENOMEM, when what was split so far stays in @out: the
 * caller frees its fields (or takes them).
 */
int sdt_probes_parse_header(const char *h, struct sdt_probes_header *out);

/*
 * What is wrong with the '#' entry @e of a probes file (a header "GROUP:NAME=..." with names
 * tracefs takes, followed by p:/r: lines of that GROUP/NAME), or NULL. For `cache check`.
 */
const char *sdt_probes_entry_problem(const struct sdt_probes_entry *e);
/* Render every entry of @p but those flagged in @drop (NULL: none) into @out, as read. */
int sdt_probes_render_all(const struct sdt_probes *p, const bool *drop, struct sdt_buf *out);
/* Rewrite the probes file in @dfd without the entries flagged in @drop. 0 or -errno. */
int sdt_probes_write_without(int dfd, const struct sdt_probes *p, const bool *drop);

#endif
