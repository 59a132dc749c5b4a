/* SPDX-License-Identifier: MIT */
/*
 * A stored user probe against the binary it is for.
 *
 * The `p:`/`r:` lines of a `#` entry say where its uprobes go, but a probes file is text that
 * anyone who can write the cache can change (a cache under a shared or world-writable
 * directory, `sudo` keeping HOME), and that a crash or a bad disk can damage. One byte of an
 * offset moved into the middle of an instruction corrupts that instruction in every process
 * running the binary (SIGBUS, SIGILL, wrong results), root-owned binaries included. So the lines
 * never place a uprobe: the header's location, the probe's definition, is resolved again in the
 * binary of the entry's build-id, scanned now, with the checks `probe add` made (one symbol,
 * inside the function, on an instruction boundary), and the lines must say exactly that: as many
 * sites, each of the same kind, binary, offset and semaphore, with the definition's arguments.
 *
 *	#probe_up:work=do_work n=%di:u64
 *	p:probe_up/work /usr/bin/up:0x1139 n=%di:u64    do_work is at 0x1139: agrees
 *	p:probe_up/work /usr/bin/up:0x113b n=%di:u64    refused: "its line 1 is at 0x113b, its
 *	                                                 definition 'do_work' at 0x1139"
 *
 * Locations, as written in headers (lib/userprobe.c writes the first four):
 *	SYMBOL, SYMBOL+OFF, SYMBOL%return    one site, from the symbol tables
 *	0xADDRESS                            an SDT site's address: every site of that event, each
 *	                                     with its semaphore (an SDT event under a short name is
 *	                                     stored so: perf has no syntax for it); else one site
 *	%PROVIDER:EVENT                      every site of that SDT event
 *	FUNC:LINE, FILE:LINE, FUNC@FILE      perf's, from DWARF: not resolvable here (-EOPNOTSUPP)
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cache/probes_file.h"
#include "scan/file.h"
#include "util/internal.h"
#include "scan/sdt_elf.h"
#include "sdtrace/probe.h"
#include "cache/userprobe.h"

/* What the lines of a probe are compared with: the sites of one reading of its location. */
struct want {
	struct sdt_uprobe_site *s;
	size_t n, cap;
};

int sdt_build_open(int fd, const char *name, const char *bid, struct sdt_file **f,
		   struct sdt_elf *e)
{
	char proc[64];
	int err;

	*f = NULL;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	/* the inode of @fd, not whatever the name points to now; without /proc, by name */
	err = sdt_elf_open(access(proc, F_OK) ? name : proc, e);
	if (err)
		return sdt_err(err, "'%s': cannot read it as an ELF file (%s)", name,
			       strerror(-err));
	e->name = name; /* messages name the file, not the descriptor */
	err = sdt_file_scan_elf(e, name, f);
	if (!err && bid && (!(*f)->build_id || strcmp((*f)->build_id, bid)))
		err = sdt_err(-ESTALE, "'%s' has build-id %s, not %s", name,
			      (*f)->build_id ? (*f)->build_id : "none", bid);
	if (err) {
		sdt_file__free(*f);
		*f = NULL;
		sdt_elf_close(e);
	}
	return err;
}

static int want_add(struct want *w, uint64_t off, const struct sdt_site *s, bool is_return)
{
	struct sdt_uprobe_site *u;

	if (sdt_grow((void **)&w->s, &w->cap, w->n + 1, sizeof(*w->s)))
		return -ENOMEM;
	u = &w->s[w->n++];
	memset(u, 0, sizeof(*u));
	u->offset = off;
	u->is_return = is_return;
	if (s && s->semaphore && s->has_semaphore_offset) {
		u->semaphore = s->semaphore;
		u->semaphore_offset = s->semaphore_offset;
	}
	return 0;
}

/* Every site of the SDT event @prov (@plen bytes) : @ev among the notes of @f, in note order. */
static int want_event(const struct sdt_file *f, size_t nnotes, const char *prov, size_t plen,
		      const char *ev, struct want *w)
{
	size_t i;

	for (i = 0; i < nnotes && i < f->nsites; i++) {
		const struct sdt_site *s = &f->sites[i];

		if (strlen(s->provider) != plen || memcmp(s->provider, prov, plen) ||
		    strcmp(s->name, ev))
			continue;
		if (want_add(w, s->file_offset, s, false))
			return -ENOMEM;
	}
	return 0;
}

/* The SDT note of @f at link-time address @vaddr, or NULL. */
static const struct sdt_site *note_at(const struct sdt_file *f, size_t nnotes, uint64_t vaddr)
{
	size_t i;

	for (i = 0; i < nnotes && i < f->nsites; i++) {
		if (f->sites[i].address == vaddr)
			return &f->sites[i];
	}
	return NULL;
}

/* Do @p's arguments, joined by spaces, read @args? */
static bool same_args(const struct sdt_user_probe *p, const char *args)
{
	size_t i, n;

	for (i = 0; i < p->nargs; i++) {
		n = strlen(p->args[i]);
		if (strncmp(args, p->args[i], n) || (args[n] != ' ' && args[n] != '\0'))
			return false;
		args += n + (args[n] == ' ');
	}
	return !*args;
}

/* Do the lines of @p say what @w does? When not, why in @why (for the message). */
static bool lines_agree(const struct sdt_user_probe *p, const struct want *w, char *why,
			size_t wlen)
{
	size_t i;

	if (p->nlines != w->n) {
		snprintf(why, wlen, "it has %zu p:/r: lines, its definition '%s' gives %zu sites",
			 p->nlines, p->location, w->n);
		return false;
	}
	for (i = 0; i < w->n; i++) {
		const struct sdt_uprobe_site *s = &w->s[i];
		struct sdt_probes_line l;

		if (!sdt_probes_parse_line(p->lines[i], &l)) {
			snprintf(why, wlen, "its line %zu is not K:GROUP/NAME PATH:0xOFFSET", i + 1);
		} else if ((l.kind == 'r') != s->is_return) {
			snprintf(why, wlen, "its line %zu is a%s probe, its definition '%s' a%s one",
				 i + 1, l.kind == 'r' ? " return" : "n entry", p->location,
				 s->is_return ? " return" : "n entry");
		} else if (l.plen != strlen(p->path) || memcmp(l.path, p->path, l.plen)) {
			snprintf(why, wlen, "its line %zu probes '%.*s', not '%s'", i + 1,
				 (int)(l.plen > 200 ? 200 : l.plen), l.path, p->path);
		} else if (l.off != s->offset) {
			snprintf(why, wlen, "its line %zu is at 0x%llx, its definition '%s' at 0x%llx",
				 i + 1, (unsigned long long)l.off, p->location,
				 (unsigned long long)s->offset);
		} else if (l.has_ref != (s->semaphore != 0) ||
			   (l.has_ref && l.ref != s->semaphore_offset)) {
			snprintf(why, wlen,
				 "its line %zu has %s semaphore, the binary's site at 0x%llx %s",
				 i + 1, l.has_ref ? "a" : "no", (unsigned long long)s->offset,
				 s->semaphore ? "has one" : "none");
			if (l.has_ref && s->semaphore)
				snprintf(why, wlen,
					 "its line %zu has the semaphore at 0x%llx, the binary's "
					 "site at 0x%llx has it at 0x%llx",
					 i + 1, (unsigned long long)l.ref,
					 (unsigned long long)s->offset,
					 (unsigned long long)s->semaphore_offset);
		} else if (!same_args(p, l.args)) {
			snprintf(why, wlen,
				 "its line %zu fetches '%.100s', its definition's arguments differ",
				 i + 1, l.args);
		} else {
			continue;
		}
		return false;
	}
	return true;
}

/* perf's DWARF forms (FUNC:LINE, FILE:LINE, FUNC@FILE, /PATH...) */
static bool needs_dwarf(const char *loc)
{
	return loc[0] != '%' && strpbrk(loc, ":@/;") != NULL;
}

/*
 * The sites @p's location names as an SDT event (%PROVIDER:EVENT, or 0xADDRESS of a note) into
 * @w: 1 when it does, 0 when it is no SDT event, -ENOMEM.
 */
static int want_sdt(const struct sdt_file *f, size_t nnotes, const char *loc, struct want *w)
{
	const struct sdt_site *s;
	const char *colon, *end;
	uint64_t vaddr;
	int err;

	if (loc[0] == '%') {
		colon = strchr(loc + 1, ':');
		if (!colon)
			return 0;
		err = want_event(f, nnotes, loc + 1, (size_t)(colon - loc - 1), colon + 1, w);
		return err ? err : 1;
	}
	if (strncmp(loc, "0x", 2) || !sdt_probes_parse_hex(loc + 2, &vaddr, &end) || *end)
		return 0;
	s = note_at(f, nnotes, vaddr);
	if (!s)
		return 0;
	err = want_event(f, nnotes, s->provider, strlen(s->provider), s->name, w);
	return err ? err : 1;
}

int sdt_userprobe_locate(struct sdt_elf *e, const struct sdt_file *f, size_t nnotes,
			 const struct sdt_user_probe *p, struct sdt_uprobe_site **out, size_t *n)
{
	struct want sdt = {0}, sym = {0};
	char why[320] = "", why_sym[320] = "";
	bool is_return;
	uint64_t off;
	int err, is_sdt;

	*out = NULL;
	*n = 0;
	if (!p->location || !p->location[0])
		return sdt_err(-EINVAL, "has no location in its header");
	if (needs_dwarf(p->location))
		return sdt_err(-EOPNOTSUPP,
			       "is at '%s', which needs DWARF: sdtrace cannot tell where it goes",
			       p->location);
	is_sdt = want_sdt(f, nnotes, p->location, &sdt);
	if (is_sdt < 0) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto out;
	}
	if (is_sdt && lines_agree(p, &sdt, why, sizeof(why))) {
		*out = sdt.s;
		*n = sdt.n;
		return 0;
	}
	if (is_sdt && p->location[0] == '%')
		goto disagree;
	/* a symbol, or an address that is no SDT site (or whose lines are one plain uprobe) */
	err = sdt_userprobe_resolve_location(e, p->path, p->location, &is_return, &off);
	if (err) {
		if (!is_sdt) {
			err = sdt_err_prefix(-EINVAL, "does not resolve in its binary");
			goto out;
		}
	} else if (want_add(&sym, off, NULL, is_return)) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto out;
	} else if (lines_agree(p, &sym, why_sym, sizeof(why_sym))) {
		free(sdt.s);
		*out = sym.s;
		*n = sym.n;
		return 0;
	}
	if (!is_sdt)
		memcpy(why, why_sym, sizeof(why));
disagree:
	err = sdt_err(-EINVAL, "does not match its binary: %s", why);
out:
	free(sdt.s);
	free(sym.s);
	return err;
}
