/* SPDX-License-Identifier: MIT */
/*
 * User probes: a location in a binary resolved through its ELF symbol tables, rendered as perf's
 * `#` entry, and kept in the cache's `probes` file beside the SDT entries. See
 * include/sdtrace/probe.h.
 *
 * The two rules that keep a uprobe out of the middle of an instruction: a symbol must name one
 * address (a name defined twice at different addresses is refused, listing both), and an offset
 * must fall inside the function's st_size and start an instruction: on x86 decoded from the
 * function's start (userprobe_insn.c, with capstone), on fixed-width instruction sets a multiple
 * of the instruction size. Built without capstone, an x86 offset inside the function is trusted
 * (perf's rule without DWARF); the start of a function always is a boundary.
 */
#include <elf.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "scan/file.h"
#include "cache/index.h"
#include "util/lockfile.h"
#include "cache/probes_file.h"
#include "scan/sdt_elf.h"
#include "cache/userprobe.h"
#include "scan/find.h"

#define PROBES_LOCK ".sdtrace-probes.lock"
/* symbols with one name we keep apart when reporting an ambiguity */
#define MAX_DUPS 8

/* ---- locations ---------------------------------------------------------------------------- */

struct sym_hit {
	uint64_t value, size;
	int type;
};

struct sym_search {
	const char *name; /* by name, or */
	uint64_t addr;	  /* the function holding addr (name NULL) */
	struct sym_hit hits[MAX_DUPS];
	size_t nhits;
};

static void add_hit(struct sym_search *s, const GElf_Sym *sym)
{
	size_t i;

	for (i = 0; i < s->nhits; i++) {
		if (s->hits[i].value == sym->st_value) {
			if (sym->st_size > s->hits[i].size)
				s->hits[i].size = sym->st_size;
			return;
		}
	}
	if (s->nhits < MAX_DUPS) {
		s->hits[s->nhits].value = sym->st_value;
		s->hits[s->nhits].size = sym->st_size;
		s->hits[s->nhits].type = GELF_ST_TYPE(sym->st_info);
		s->nhits++;
	}
}

/* Both tables: .symtab (all functions of an unstripped file) and .dynsym (the exported ones). */
static void search_symbols(struct sdt_elf *e, struct sym_search *s)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e->elf, scn))) {
		Elf_Data *data;
		size_t i, count;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		if (!data)
			continue;
		count = sh.sh_size / sh.sh_entsize;
		if (count > (1u << 24))
			count = 1u << 24;
		for (i = 1; i < count; i++) {
			GElf_Sym sym;
			const char *n;
			int type;

			if (!gelf_getsym(data, (int)i, &sym))
				break;
			type = GELF_ST_TYPE(sym.st_info);
			if (sym.st_shndx == SHN_UNDEF ||
			    (type != STT_FUNC && type != STT_GNU_IFUNC))
				continue;
			if (!s->name) {
				if (s->addr >= sym.st_value && s->addr - sym.st_value < sym.st_size)
					add_hit(s, &sym);
				continue;
			}
			n = elf_strptr(e->elf, sh.sh_link, sym.st_name);
			if (n && !strcmp(n, s->name))
				add_hit(s, &sym);
		}
	}
}

/* The file offset of @vaddr, which must lie in the file-backed part of an executable segment. */
static int exec_offset(struct sdt_elf *e, uint64_t vaddr, uint64_t *off)
{
	size_t i;

	for (i = 0; i < e->nphdrs; i++) {
		const GElf_Phdr *ph = &e->phdrs[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (vaddr >= ph->p_vaddr && vaddr - ph->p_vaddr < ph->p_filesz) {
			*off = vaddr - ph->p_vaddr + ph->p_offset;
			return 0;
		}
	}
	return -ERANGE;
}

/*
 * Does @off (bytes into the function at @func, @what in messages) start an instruction? Decoded
 * from the function's start (x86, with capstone), an alignment (fixed-width instruction sets), or
 * not checkable (then allowed: the function's bounds were checked).
 */
static int check_boundary(struct sdt_elf *e, const char *loc, const char *what, uint64_t func,
			  uint64_t size, uint64_t off)
{
	unsigned int machine = e->ehdr.e_machine;
	unsigned char *code;
	uint64_t foff, start;
	size_t len;
	ssize_t n;
	int err;

	if (!off)
		return 0;
	if (machine == EM_AARCH64 || machine == EM_PPC || machine == EM_PPC64) {
		if (off % 4)
			return sdt_err(-EINVAL,
				       "'%s': offset %llu in '%s' is not a multiple of 4 "
				       "(the instruction size)",
				       loc, (unsigned long long)off, what);
		return 0;
	}
	if (machine != EM_X86_64 && machine != EM_386)
		return 0;
	if (off > (1u << 20))
		return sdt_err(-EINVAL, "'%s': cannot check an offset this far (%llu) into '%s'",
			       loc, (unsigned long long)off, what);
	if (e->fd < 0 || exec_offset(e, func, &foff))
		return 0;
	len = (size_t)(size && size - off < 16 ? size : off + 16);
	code = malloc(len);
	if (!code)
		return sdt_err(-ENOMEM, "out of memory");
	n = pread(e->fd, code, len, (off_t)foff);
	if (n < 0 || (size_t)n <= off) {
		free(code);
		return sdt_err(-EIO, "'%s': cannot read the code of '%s'", loc, what);
	}
	err = sdt_insn_boundary(machine, e->elfclass, code, (size_t)n, off, &start);
	free(code);
	if (err == -ENOTSUP)
		return 0; /* built without a decoder: the bounds check is all we have */
	if (err == -ERANGE)
		return sdt_err(-EINVAL,
			       "'%s': offset %llu is inside the instruction at %s+%llu: a uprobe "
			       "there would corrupt it",
			       loc, (unsigned long long)off, what, (unsigned long long)start);
	if (err == -EILSEQ)
		return sdt_err(-EINVAL,
			       "'%s': the bytes of '%s' before offset %llu do not decode as "
			       "instructions: cannot tell whether one starts there",
			       loc, what, (unsigned long long)off);
	return err == -ENOMEM ? sdt_err(err, "out of memory") : err;
}

int sdt_userprobe_resolve_location(struct sdt_elf *e, const char *path, const char *loc,
				   bool *is_return, uint64_t *off)
{
	struct sym_search s = {0};
	char name[256];
	const char *plus, *pct;
	uint64_t offset = 0, vaddr;
	size_t nlen, i;
	char *end;

	pct = strchr(loc, '%');
	*is_return = false;
	if (pct) {
		if (strcmp(pct, "%return"))
			return sdt_err(-EINVAL, "'%s': unknown suffix '%s' (only %%return)", loc,
				       pct);
		*is_return = true;
	}
	nlen = pct ? (size_t)(pct - loc) : strlen(loc);
	if (!strncmp(loc, "0x", 2)) {
		errno = 0;
		vaddr = strtoull(loc + 2, &end, 16);
		if (errno || end != loc + nlen || end == loc + 2)
			return sdt_err(-EINVAL, "'%s': not an address", loc);
		s.addr = vaddr;
		search_symbols(e, &s);
		if (*is_return && (!s.nhits || s.hits[0].value != vaddr))
			return sdt_err(-EINVAL,
				       "'%s': a return probe needs the start of a function", loc);
		if (exec_offset(e, vaddr, off))
			return sdt_err(-ERANGE,
				       "'%s': 0x%llx is not in an executable segment of '%s'", loc,
				       (unsigned long long)vaddr, path);
		/* inside a known function: from its start (outside any, nothing to decode from) */
		if (s.nhits == 1 && vaddr != s.hits[0].value) {
			char what[32];

			snprintf(what, sizeof(what), "0x%llx", (unsigned long long)s.hits[0].value);
			return check_boundary(e, loc, what, s.hits[0].value, s.hits[0].size,
					      vaddr - s.hits[0].value);
		}
		return 0;
	}
	plus = memchr(loc, '+', nlen);
	if (plus) {
		const char *o = plus + 1;

		errno = 0;
		if (*o < '0' || *o > '9')
			return sdt_err(-EINVAL, "'%s': the offset is a number", loc);
		offset = strtoull(o, &end, 0);
		if (errno || end != loc + nlen)
			return sdt_err(-EINVAL, "'%s': the offset is a number", loc);
		if (*is_return)
			return sdt_err(-EINVAL, "'%s': a return probe takes no offset", loc);
		nlen = (size_t)(plus - loc);
	}
	if (!nlen || nlen >= sizeof(name))
		return sdt_err(-EINVAL, "'%s': no symbol name", loc);
	memcpy(name, loc, nlen);
	name[nlen] = '\0';
	for (i = 0; i < nlen; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '.' || c == '$')) {
			return sdt_err(-EINVAL, "'%s': a symbol name is [A-Za-z0-9_.$]", loc);
		}
	}
	s.name = name;
	search_symbols(e, &s);
	if (!s.nhits)
		return sdt_err(-ENOENT, "'%s': no function '%s' in the symbol tables of '%s'", loc,
			       name, path);
	if (s.nhits > 1) {
		char list[256] = "";
		size_t used = 0;

		for (i = 0; i < s.nhits && used < sizeof(list) - 24; i++)
			used +=
			    (size_t)snprintf(list + used, sizeof(list) - used, "%s0x%llx",
					     i ? ", " : "", (unsigned long long)s.hits[i].value);
		return sdt_err(-ENOTUNIQ,
			       "'%s': '%s' is defined %zu times in '%s' (at %s): give an address "
			       "(0xADDRESS)",
			       loc, name, s.nhits, path, list);
	}
	if (s.hits[0].type == STT_GNU_IFUNC)
		return sdt_err(
		    -EINVAL,
		    "'%s': '%s' is an indirect function (its resolver runs once, at load "
		    "time): probe the implementation it selects",
		    loc, name);
	if (offset && offset >= s.hits[0].size)
		return sdt_err(-ERANGE, "'%s': offset %llu is outside '%s' (%llu bytes)", loc,
			       (unsigned long long)offset, name,
			       (unsigned long long)s.hits[0].size);
	if (exec_offset(e, s.hits[0].value + offset, off))
		return sdt_err(-ERANGE, "'%s': not in an executable segment of '%s'", loc, path);
	return check_boundary(e, loc, name, s.hits[0].value, s.hits[0].size, offset);
}

static int add_line(struct sdt_user_probe *p, size_t *cap, struct sdt_buf *b)
{
	char *l = sdt_buf_take(b);

	if (!l || sdt_grow((void **)&p->lines, cap, p->nlines + 1, sizeof(char *))) {
		free(l);
		return -ENOMEM;
	}
	p->lines[p->nlines++] = l;
	return 0;
}

/* the " ARG ARG" tail of a line */
static int add_args(struct sdt_buf *b, const struct sdt_user_probe *p)
{
	size_t i;

	for (i = 0; i < p->nargs; i++) {
		if (sdt_buf_addf(b, " %s", p->args[i]))
			return -ENOMEM;
	}
	return 0;
}

/* %PROVIDER:EVENT: one line per site of the event, with its semaphore */
static int define_sdt(struct sdt_user_probe *p, struct sdt_file *f, const char *loc, size_t *cap,
		      uint64_t *addr)
{
	const char *colon = strchr(loc + 1, ':');
	struct sdt_buf b = {0};
	size_t i, plen;
	int err = 0;

	if (!colon)
		return sdt_err(-EINVAL, "'%s': an SDT location is %%PROVIDER:EVENT", loc);
	plen = (size_t)(colon - loc - 1);
	for (i = 0; i < sdt_file__site_count(f) && !err; i++) {
		const struct sdt_site *s = sdt_file__site(f, i);

		if (strlen(s->provider) != plen || memcmp(s->provider, loc + 1, plen) ||
		    strcmp(s->name, colon + 1))
			continue;
		if (!p->nlines)
			*addr = s->address;
		if (sdt_buf_addf(&b, "p:%s/%s %s:0x%llx", p->group, p->name, p->path,
				 (unsigned long long)s->file_offset) ||
		    (s->semaphore && s->has_semaphore_offset &&
		     sdt_buf_addf(&b, "(0x%llx)", (unsigned long long)s->semaphore_offset)) ||
		    add_args(&b, p) || add_line(p, cap, &b))
			err = -ENOMEM;
	}
	sdt_buf_free(&b);
	if (!err && !p->nlines)
		err = sdt_err(-ENOENT, "'%s': no SDT event '%s' in '%s'", loc, loc + 1, p->path);
	return err;
}

int sdt_user_probe__define(const char *path, const char *name, const char *location,
			   const char *const *args, size_t nargs, struct sdt_user_probe **out)
{
	struct sdt_user_probe p = {0};
	struct sdt_file *f = NULL;
	struct sdt_buf b = {0};
	struct stat st;
	struct sdt_elf e;
	bool elf_open = false;
	size_t i, cap = 0;
	uint64_t off = 0, sdt_addr = 0;
	int err;

	*out = NULL;
	if (!sdt_valid_event_name(name, SDT_MAX_EVENT_NAME))
		return sdt_err(-EINVAL,
			       "'%s': a probe name is [A-Za-z_][A-Za-z0-9_]*, at most %d "
			       "bytes",
			       name, SDT_MAX_EVENT_NAME);
	if (nargs > SDT_UPROBE_MAX_ARGS)
		return sdt_err(-EINVAL, "'%s': at most %d arguments", name, SDT_UPROBE_MAX_ARGS);
	if (strnlen(location, 300) >= 300 || !location[0])
		return sdt_err(-EINVAL, "'%s': a location is 1..299 bytes", name);
	p.path = sdt_user_path(path, true);
	if (!p.path)
		return -errno;
	if (!sdt_probes_path_ok(p.path)) {
		err = sdt_err(-EINVAL, "'%s': the path has characters uprobe_events cannot take",
			      p.path);
		goto out;
	}
	err = sdt_cache_scan(p.path, &f, &st, NULL);
	if (err)
		goto out;
	p.name = sdt_strdup(name);
	p.group = sdt_uprobe_group(p.path);
	p.location = sdt_strdup(location);
	p.build_id = f->build_id ? sdt_strdup(f->build_id) : NULL;
	p.args = calloc(nargs ? nargs : 1, sizeof(char *));
	if (!p.name || !p.group || !p.location || !p.args || (f->build_id && !p.build_id)) {
		err = -ENOMEM;
		goto out;
	}
	if (location[0] == '%') {
		p.is_return = false;
	} else {
		err = sdt_elf_open(p.path, &e);
		if (err)
			goto out;
		elf_open = true;
		err = sdt_userprobe_resolve_location(&e, p.path, location, &p.is_return, &off);
		if (err)
			goto out;
	}
	for (i = 0; i < nargs; i++) {
		const char *why;

		if (!sdt_uprobe_arg_valid(args[i], f->machine, f->elfclass, p.is_return, &why)) {
			char shown[65];
			size_t k;

			/* the argument as the message shows it: no control bytes */
			for (k = 0; k < sizeof(shown) - 1 && args[i][k]; k++)
				shown[k] = (unsigned char)args[i][k] < ' ' ? '?' : args[i][k];
			shown[k] = '\0';
			err = sdt_err(-EINVAL, "'%s': argument '%s': %s", name, shown, why);
			goto out;
		}
		p.args[i] = sdt_strdup(args[i]);
		if (!p.args[i]) {
			err = -ENOMEM;
			goto out;
		}
		p.nargs++;
	}
	if (location[0] == '%') {
		err = define_sdt(&p, f, location, &cap, &sdt_addr);
	} else if (sdt_buf_addf(&b, "%c:%s/%s %s:0x%llx", p.is_return ? 'r' : 'p', p.group, p.name,
				p.path, (unsigned long long)off) ||
		   add_args(&b, &p) || add_line(&p, &cap, &b)) {
		err = -ENOMEM;
	}
	if (err)
		goto out;
	/*
	 * perf parses every header of the file and gives up on the whole file at one it cannot
	 * parse; it has no syntax for an SDT site under another name, so such a probe's header
	 * names its (first) site by address, which perf takes.
	 */
	if ((location[0] == '%'
		 ? sdt_buf_addf(&b, "%s:%s=0x%llx", p.group, p.name, (unsigned long long)sdt_addr)
		 : sdt_buf_addf(&b, "%s:%s=%s", p.group, p.name, p.location)) ||
	    add_args(&b, &p)) {
		err = -ENOMEM;
		goto out;
	}
	p.header = sdt_buf_take(&b);
	if (!p.header)
		err = -ENOMEM;
out:
	if (elf_open)
		sdt_elf_close(&e);
	sdt_file__free(f);
	sdt_buf_free(&b);
	if (err) {
		sdt_userprobe_release(&p);
		return err == -ENOMEM ? sdt_err(err, "out of memory") : err;
	}
	*out = malloc(sizeof(**out));
	if (!*out) {
		sdt_userprobe_release(&p);
		return sdt_err(-ENOMEM, "out of memory");
	}
	**out = p;
	return 0;
}

/* ---- the cache ---------------------------------------------------------------------------- */

/* Open the entry directory of (path, bid); fd or -errno */
static int entry_dir(struct sdt_cache *c, const char *path, const char *bid)
{
	char *rel = sdt_cache_entry_rel(path, bid);
	int dfd;

	if (!rel)
		return -ENOMEM;
	dfd = sdt_cache_openat(c, rel, O_RDONLY | O_DIRECTORY);
	free(rel);
	return dfd;
}

int sdt_cache__probe_add(struct sdt_cache *c, const struct sdt_user_probe *up)
{
	enum sdt_cache_result res;
	struct sdt_probes old = {0};
	struct sdt_file *f = NULL;
	struct sdt_buf b = {0};
	struct stat st;
	char *text = NULL, *linked = NULL;
	size_t len, i;
	int fd = -1, dfd = -1, lock = -1, err;

	if (!up->build_id)
		return sdt_err(-EINVAL, "'%s': no build-id: the cache cannot key it", up->path);
	err = sdt_cache_scan(up->path, &f, &st, &fd);
	if (err)
		return err;
	if (!f->build_id || strcmp(f->build_id, up->build_id)) {
		err = sdt_err(-ESTALE, "'%s': the file changed since the probe '%s' was defined",
			      up->path, up->name);
		goto out;
	}
	if (!sdt_cache_read_link(c, up->build_id, &linked) && strcmp(linked, up->path)) {
		err = sdt_err(-EEXIST, "'%s': its build-id %s is cached for '%s'", up->path,
			      up->build_id, linked);
		goto out;
	}
	lock = sdt_cache_lock(c, PROBES_LOCK, true);
	if (lock < 0) {
		err = sdt_err(lock, "'%s': cannot lock: %s", c->root, strerror(-lock));
		goto out;
	}
	/* the entry, written or refreshed as `cache add` does (it keeps `#` entries) */
	err = sdt_cache_write_entry(c, f, up->path, &st, fd, &res);
	if (err)
		goto out;
	dfd = entry_dir(c, up->path, up->build_id);
	if (dfd < 0) {
		err =
		    sdt_err(dfd, "'%s': cannot open its cache entry: %s", up->path, strerror(-dfd));
		goto out;
	}
	err = sdt_read_file_at(dfd, "probes", SDT_PROBES_MAX_SIZE, &text, &len);
	if (err == -ENOENT) {
		err = 0;
	} else if (!err && sdt_probes_parse(text, len, &old)) {
		err = -ENOMEM;
	}
	if (err)
		goto out;
	for (i = 0; i < old.n; i++) {
		char *g, *n;
		bool same;

		if (old.entries[i].kind != '#')
			continue;
		n = sdt_probes_header_name(old.entries[i].header, &g);
		same = n && !strcmp(n, up->name);
		free(n);
		free(g);
		if (same) {
			err = sdt_err(-EEXIST, "'%s': '%s' already has a probe called '%s'",
				      up->name, up->path, up->name);
			goto out;
		}
	}
	if (sdt_probes_render_all(&old, NULL, &b) || sdt_buf_addf(&b, "#%s\n", up->header)) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < up->nlines; i++) {
		if (sdt_buf_addf(&b, "%s\n", up->lines[i])) {
			err = -ENOMEM;
			goto out;
		}
	}
	err = sdt_atomic_write(dfd, "probes", b.buf, b.len, SDT_SYNC_FILE);
	if (err)
		err = sdt_err(err, "cannot write the probes of '%s' in '%s': %s", up->path, c->root,
			      strerror(-err));
out:
	if (lock >= 0)
		sdt_lock_release(lock);
	/* the probes file changed, not the links: the index must be told ("u:NAME") */
	if (!err && sdt_index_rebuild(c))
		err = sdt_err_prefix(-EIO,
				     "'%s': the probe was stored but the index not rebuilt "
				     "(run 'sdtrace cache check --repair')",
				     c->root);
	if (dfd >= 0)
		close(dfd);
	if (fd >= 0)
		close(fd);
	sdt_probes_release(&old);
	sdt_buf_free(&b);
	sdt_file__free(f);
	free(text);
	free(linked);
	return err == -ENOMEM ? sdt_err(err, "out of memory") : err;
}

/* The rest of @u (named already) from the '#' entry @e of the entry (@path, @bid). 0/-ENOMEM. */
static int fill_probe(struct sdt_user_probe *u, const struct sdt_probes_entry *e, const char *path,
		      const char *bid)
{
	const char *colon = strchr(e->header, ':');
	struct sdt_probes_header h = {0};
	size_t j;
	int err;

	u->path = sdt_strdup(path);
	u->build_id = sdt_strdup(bid);
	u->lines = calloc(e->nlines ? e->nlines : 1, sizeof(char *));
	u->header = sdt_strdup(e->header);
	/* @u's name came from this header: it has its ':' */
	err = (!u->path || !u->build_id || !u->lines || !u->header)
		  ? -ENOMEM
		  : sdt_probes_parse_header(colon + 1, &h);
	u->location = h.location;
	u->is_return = h.is_return;
	u->args = h.args;
	u->nargs = h.nargs;
	for (j = 0; !err && j < e->nlines; j++) {
		u->lines[j] = sdt_strdup(e->lines[j]);
		if (!u->lines[j])
			err = -ENOMEM;
		else
			u->nlines++;
	}
	return err;
}

int sdt_userprobe_from_entry(const struct sdt_probes_entry *e, const char *path, const char *bid,
			     struct sdt_user_probe *u)
{
	int err;

	memset(u, 0, sizeof(*u));
	u->name = sdt_probes_header_name(e->header, &u->group);
	if (!u->name)
		return sdt_err(-EINVAL, "'%s' (%s): a user probe header that is not GROUP:NAME=...",
			       path, bid);
	err = fill_probe(u, e, path, bid);
	if (err) {
		sdt_userprobe_release(u);
		return sdt_err(err, "out of memory");
	}
	return 0;
}

struct walk_ctx {
	struct sdt_cache *c;
	const char *pattern;
	const char *path;
	/* listing */
	struct sdt_user_probe *out;
	size_t n, cap;
	/* removing */
	bool remove;
	int removed;
};

static int visit(const char *bid, const char *path, void *ctx)
{
	struct walk_ctx *w = ctx;
	struct sdt_probes p = {0};
	struct sdt_buf b = {0};
	bool *drop = NULL;
	char *text = NULL;
	size_t len, i, ndrop = 0;
	int dfd = -1, err = 0;

	if (path[1] == '[' || (w->path && strcmp(w->path, path)))
		return 0;
	dfd = entry_dir(w->c, path, bid);
	if (dfd < 0)
		return 0; /* a link without its directory: `cache check` reports it */
	if (sdt_read_file_at(dfd, "probes", SDT_PROBES_MAX_SIZE, &text, &len) ||
	    sdt_probes_parse(text, len, &p))
		goto out;
	drop = calloc(p.n ? p.n : 1, sizeof(*drop));
	if (!drop) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < p.n && !err; i++) {
		struct sdt_user_probe u = {0};
		const struct sdt_probes_entry *e = &p.entries[i];

		if (e->kind != '#')
			continue;
		u.name = sdt_probes_header_name(e->header, &u.group);
		if (!u.name || (w->pattern && fnmatch(w->pattern, u.name, 0))) {
			sdt_userprobe_release(&u);
			continue;
		}
		if (w->remove) {
			drop[i] = true;
			ndrop++;
			sdt_userprobe_release(&u);
			continue;
		}
		err = fill_probe(&u, e, path, bid);
		if (!err && sdt_grow((void **)&w->out, &w->cap, w->n + 1, sizeof(u)))
			err = -ENOMEM;
		if (err) {
			sdt_userprobe_release(&u);
			break;
		}
		w->out[w->n++] = u;
	}
	if (!err && ndrop) {
		err = sdt_probes_render_all(&p, drop, &b);
		if (!err)
			err = sdt_atomic_write(dfd, "probes", b.buf ? b.buf : "", b.len,
					       SDT_SYNC_FILE);
		if (!err)
			w->removed += (int)ndrop;
		else
			err = sdt_err(err, "cannot write the probes of '%s' in '%s': %s", path,
				      w->c->root, strerror(-err));
	}
out:
	if (dfd >= 0)
		close(dfd);
	sdt_probes_release(&p);
	sdt_buf_free(&b);
	free(drop);
	free(text);
	return err;
}

int sdt_userprobe_entry(struct sdt_cache *c, const char *bid, const char *path, const char *pattern,
			struct sdt_user_probe **out, size_t *n, size_t *cap)
{
	struct walk_ctx w = {.c = c, .pattern = pattern, .out = *out, .n = *n, .cap = *cap};
	int err = visit(bid, path, &w);

	*out = w.out;
	*n = w.n;
	*cap = w.cap;
	return err;
}

static int cmp_probe(const void *pa, const void *pb)
{
	const struct sdt_user_probe *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	return c ? c : strcmp(a->path, b->path);
}

int sdt_cache__probes(struct sdt_cache *c, const char *pattern, struct sdt_user_probes **out)
{
	struct walk_ctx w = {.c = c, .pattern = pattern};
	int err;

	*out = NULL;
	err = sdt_walk_links(c, visit, NULL, &w);
	if (err >= 0) {
		*out = calloc(1, sizeof(**out));
		err = *out ? 0 : -ENOMEM;
	}
	if (err < 0) {
		sdt_userprobe_array_free(w.out, w.n);
		return err == -ENOMEM ? sdt_err(err, "out of memory") : err;
	}
	if (w.n)
		qsort(w.out, w.n, sizeof(*w.out), cmp_probe);
	(*out)->p = w.out;
	(*out)->n = w.n;
	return 0;
}

int sdt_cache__probe_remove(struct sdt_cache *c, const char *name, const char *path)
{
	struct walk_ctx w = {.c = c, .pattern = name, .remove = true};
	char *real = NULL;
	int lock, err;

	if (path) {
		real = sdt_user_path(path, true);
		w.path = real ? real : path; /* a vanished file: its cached path as given */
	}
	lock = sdt_cache_lock(c, PROBES_LOCK, true);
	if (lock < 0) {
		free(real);
		return sdt_err(lock, "'%s': cannot lock: %s", c->root, strerror(-lock));
	}
	err = sdt_walk_links(c, visit, NULL, &w);
	sdt_lock_release(lock);
	free(real);
	if (err < 0)
		return err == -ENOMEM ? sdt_err(err, "out of memory") : err;
	if (w.removed && sdt_index_rebuild(c))
		return sdt_err_prefix(-EIO,
				      "'%s': removed, but the index was not rebuilt (run "
				      "'sdtrace cache check --repair')",
				      c->root);
	return w.removed;
}
