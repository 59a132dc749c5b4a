/* SPDX-License-Identifier: MIT */
/*
 * The symbolizer: a stack's addresses -> frames (include/sdtrace/stack.h), with elfutils' libdwfl.
 *
 * Each mapped file is found once per (build-id, or path without one): its recorded path when the
 * build-id there matches, else the cache's copy (ROOT/.build-id/xx/rest/elf), else the separate
 * debug file (DEBUG_DIR/.build-id/xx/rest.debug), else debuginfod (with $DEBUGINFOD_URLS). It
 * is reported alone into a Dwfl of its own at bias 0, so lookups are in link-time addresses: an
 * address @ip of a mapping (start, pgoff) is at file offset ip - start + pgoff, and at vaddr off -
 * p_offset + p_vaddr of the PT_LOAD holding that offset (right for PIE executables, shared
 * libraries and ET_EXEC alike, whatever their segments' alignment). Return addresses (every frame
 * but the first) are looked up at ip - 1, so a call at the end of a function is named by its
 * caller's line, as perf does. Each (file, address) is looked up once.
 *
 * A dwarf stack (record --call-graph=dwarf: registers and stack bytes) is first unwound into such
 * addresses by unwind_dwarf.c, with the files found here. An fp stack (record -g) that comes with
 * the leaf's words (its stack pointer and a few words at it) has its first frame unwound by CFI
 * there too: a caller the frame-pointer walk skipped (the probe in a function with no frame of
 * its own: a leaf built -fno-omit-frame-pointer) is put back as the second address, so every
 * reader of frames (report -g, folded stacks, flame graphs) gets the whole chain.
 */
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <dwarf.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sdtrace/debuginfod.h"
#include "sdtrace/stack.h"
#include "stack/demangle.h"
#include "stack/find_debug.h"
#include "stack/unwind_dwarf.h"
#include "util/internal.h"

struct seg {
	uint64_t off, vaddr, filesz, memsz;
	bool exec;
};

/* One mapped file, found (dwfl) or not. */
struct sym_file {
	char *key;   /* the build-id, or "path:" PATH without one */
	char *found; /* the file looked up, NULL when none was found */
	Dwfl *dwfl;
	Dwfl_Module *mod;
	struct seg *segs;
	size_t nsegs;
	/* a separate debug file (objcopy --only-keep-debug): its PT_LOADs keep their addresses
	 * but not their file offsets (0, p_filesz 0) */
	bool debug_only;
};

/* One looked-up address: its frames, inlined ones first. */
struct sym_addr {
	size_t file; /* index in files, +1 (0: empty slot) */
	uint64_t vaddr;
	size_t n;     /* frames: 0 = unknown */
	char **names; /* function names, innermost first */
	uint64_t off; /* the outermost (real) function's offset */
};

struct sdt_symbolizer {
	struct sdt_trace_reader *r;
	char *cache_dir, *debug_dir; /* debug_dir: directories, ':' between them */
	char *debuginfo_path;	     /* libdwfl's: the file's own directory, .debug, debug_dir */
	Dwfl_Callbacks cb;
	bool no_debuginfod;
	struct sym_file *files;
	size_t nfiles, files_cap;
	struct sym_addr *addrs; /* open addressing, power-of-two capacity */
	size_t naddrs, addrs_cap;
	struct sdt_frame *frames;
	size_t frames_cap;
	char **unknown; /* names built for this call's unknown frames */
	size_t nunknown, unknown_cap;
	struct sdt_unwinder *unwinder; /* dwarf stacks: made at the first */
	uint64_t uips[SDT_TRACE_MAX_STACK];
};

int sdt_symbolizer__new(struct sdt_trace_reader *r, const struct sdt_symbolizer_opts *opts,
			struct sdt_symbolizer **out)
{
	struct sdt_symbolizer_opts o;
	struct sdt_symbolizer *s;
	const char *env = getenv("SDTRACE_CACHE_DIR"), *home = getenv("HOME");
	int err;

	*out = NULL;
	err = SDT_OPTS_COPY(&o, opts, sdt_symbolizer_opts);
	if (err)
		return err;
	s = calloc(1, sizeof(*s));
	if (!s)
		return sdt_err(-ENOMEM, "out of memory");
	s->r = r;
	s->no_debuginfod = o.no_debuginfod;
	if (o.cache_dir && *o.cache_dir)
		s->cache_dir = sdt_strdup(o.cache_dir);
	else if (env && *env)
		s->cache_dir = sdt_strdup(env);
	else if (home && *home)
		s->cache_dir = sdt_asprintf("%s/.debug", home);
	s->debug_dir = sdt_strdup(o.debug_dir && *o.debug_dir ? o.debug_dir : "/usr/lib/debug");
	/*
	 * a stripped file found at its path gets its symbols from the debug file libdwfl finds by
	 * build-id in the same directories
	 */
	s->debuginfo_path = s->debug_dir ? sdt_asprintf(":.debug:%s", s->debug_dir) : NULL;
	s->cb = (Dwfl_Callbacks){
	    .find_elf = dwfl_build_id_find_elf,
	    .find_debuginfo = sdt_find_debuginfo,
	    .section_address = dwfl_offline_section_address,
	    .debuginfo_path = &s->debuginfo_path,
	};
	if (!s->debug_dir || !s->debuginfo_path || (!s->cache_dir && ((o.cache_dir && *o.cache_dir) || (env && *env) ||
						(home && *home)))) {
		sdt_symbolizer__free(s);
		return sdt_err(-ENOMEM, "out of memory");
	}
	*out = s;
	return 0;
}

void sdt_symbolizer__free(struct sdt_symbolizer *s)
{
	size_t i, j;

	if (!s)
		return;
	for (i = 0; i < s->nfiles; i++) {
		free(s->files[i].key);
		free(s->files[i].found);
		free(s->files[i].segs);
		if (s->files[i].dwfl)
			dwfl_end(s->files[i].dwfl);
	}
	free(s->files);
	sdt_unwinder_free(s->unwinder);
	for (i = 0; i < s->addrs_cap; i++) {
		for (j = 0; j < s->addrs[i].n; j++)
			free(s->addrs[i].names[j]);
		free(s->addrs[i].names);
	}
	free(s->addrs);
	free(s->frames);
	for (i = 0; i < s->nunknown; i++)
		free(s->unknown[i]);
	free(s->unknown);
	free(s->cache_dir);
	free(s->debug_dir);
	free(s->debuginfo_path);
	free(s);
}

/* ---- finding a file by build-id ------------------------------------------------------------ */

/*
 * The file of mapping @m: its path, the cache's copy, a debug directory's, each opened only if it
 * is a regular file (sdt_open_regular(): a FIFO named by a recording, planted in the cache or a
 * debug directory never blocks) with the mapping's build-id. Returns the path and *@fd (open), or
 * NULL and -1.
 */
static char *find_file(const struct sdt_symbolizer *s, const struct sdt_trace_mapping *m, int *fd)
{
	const char *bid = m->build_id, *dir;
	size_t len;
	char *p;

	*fd = -1;
	if (!bid || strlen(bid) < 4) {
		if (!m->path || (*fd = sdt_open_regular(m->path)) < 0) {
			sdt_err_clear();
			return NULL;
		}
		if (!(p = sdt_strdup(m->path))) {
			close(*fd);
			*fd = -1;
		}
		return p;
	}
	if (m->path && (*fd = sdt_open_build_id(m->path, bid)) >= 0) {
		if ((p = sdt_strdup(m->path)))
			return p;
		close(*fd);
		*fd = -1;
		return NULL;
	}
	if (s->cache_dir) {
		p = sdt_asprintf("%s/.build-id/%.2s/%s/elf", s->cache_dir, bid, bid + 2);
		if (p && (*fd = sdt_open_build_id(p, bid)) >= 0)
			return p;
		free(p);
	}
	for (dir = s->debug_dir; *dir; dir += len + (dir[len] == ':')) {
		len = strcspn(dir, ":");
		if (!len)
			continue;
		p = sdt_asprintf("%.*s/.build-id/%.2s/%s.debug", (int)len, dir, bid, bid + 2);
		if (p && (*fd = sdt_open_build_id(p, bid)) >= 0)
			return p;
		free(p);
	}
	/* last, a debuginfod server (only with $DEBUGINFOD_URLS; its client caches the file) */
	if (!s->no_debuginfod && getenv("DEBUGINFOD_URLS") && *getenv("DEBUGINFOD_URLS") &&
	    sdt_debuginfod__enabled()) {
		char *orig = NULL;

		p = NULL;
		if (sdt_debuginfod__find_executable(bid, NULL, &p, &orig) < 0) {
			/* found nowhere: the frame prints as [BUILDID+0xOFF] */
			sdt_err_clear();
			p = NULL;
		}
		free(orig);
		if (p && (*fd = sdt_open_build_id(p, bid)) < 0) {
			free(p);
			p = NULL;
		}
		return p;
	}
	return NULL;
}

/*
 * Report @sf->found (open at @fd, which is taken) into a Dwfl of its own at bias 0 and read its
 * PT_LOAD segments.
 */
static void open_file(const struct sdt_symbolizer *s, struct sym_file *sf, int fd)
{
	GElf_Addr bias;
	GElf_Phdr ph;
	size_t n, i;
	void **ud;
	Elf *elf;

	sf->dwfl = dwfl_begin(&s->cb);
	if (!sf->dwfl) {
		close(fd);
		return;
	}
	dwfl_report_begin(sf->dwfl);
	/* the fd checked, not the path again (which could be swapped meanwhile) */
	sf->mod = dwfl_report_elf(sf->dwfl, sf->found, sf->found, fd, 0, false);
	dwfl_report_end(sf->dwfl, NULL, NULL);
	if (!sf->mod) {
		close(fd); /* libdwfl takes the fd only on success */
		return;
	}
	/* where sdt_find_debuginfo() looks for a separate debug file */
	if (dwfl_module_info(sf->mod, &ud, NULL, NULL, NULL, NULL, NULL, NULL))
		*ud = s->debug_dir;
	elf = dwfl_module_getelf(sf->mod, &bias);
	if (!elf || elf_getphdrnum(elf, &n))
		return;
	sf->segs = calloc(n ? n : 1, sizeof(*sf->segs));
	if (!sf->segs)
		return;
	for (i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		sf->segs[sf->nsegs++] = (struct seg){ph.p_offset, ph.p_vaddr, ph.p_filesz,
						     ph.p_memsz, (ph.p_flags & PF_X) != 0};
		if ((ph.p_flags & PF_X) && !ph.p_filesz && ph.p_memsz)
			sf->debug_only = true;
	}
}

/* The file of mapping @m (found or not, once): its index, or -ENOMEM. */
static int file_of(struct sdt_symbolizer *s, const struct sdt_trace_mapping *m)
{
	struct sym_file *sf;
	char *key;
	size_t i;
	int fd;

	/* seen already? (compared without allocating: this runs per frame) */
	for (i = 0; i < s->nfiles; i++) {
		const char *k = s->files[i].key;

		if (m->build_id ? !strcmp(k, m->build_id)
				: !strncmp(k, "path:", 5) && !strcmp(k + 5, m->path ? m->path : ""))
			return (int)i;
	}
	key =
	    m->build_id ? sdt_strdup(m->build_id) : sdt_asprintf("path:%s", m->path ? m->path : "");
	if (!key)
		return -ENOMEM;
	if (sdt_grow((void **)&s->files, &s->files_cap, s->nfiles + 1, sizeof(*s->files))) {
		free(key);
		return -ENOMEM;
	}
	sf = &s->files[s->nfiles];
	memset(sf, 0, sizeof(*sf));
	sf->key = key;
	sf->found = find_file(s, m, &fd);
	if (sf->found)
		open_file(s, sf, fd);
	return (int)s->nfiles++;
}

/* The file found for mapping @m (the unwinder's sdt_unwind_find_fn), or NULL. */
static const char *found_path(void *ctx, const struct sdt_trace_mapping *m)
{
	struct sdt_symbolizer *s = ctx;
	int i = file_of(s, m);

	return i < 0 ? NULL : s->files[i].found;
}

/* ---- looking an address up ----------------------------------------------------------------- */

/* @name (a C++ name demangled, as perf prints it) as the next frame of @a. */
static int add_name(struct sym_addr *a, const char *name)
{
	char **nn = sdt_reallocarray(a->names, a->n + 1, sizeof(*nn));

	if (!nn)
		return -ENOMEM;
	a->names = nn;
	nn[a->n] = sdt_demangle(name);
	if (!nn[a->n] && !(nn[a->n] = sdt_strdup(name)))
		return -ENOMEM;
	a->n++;
	return 0;
}

/*
 * DIEs that hold code only through their children (a C++ namespace or class, a module): looked
 * into even though they have no address range of their own, as dwarf_getscopes() does.
 */
static bool scope_container(int tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_class_type ||
	       tag == DW_TAG_structure_type || tag == DW_TAG_union_type || tag == DW_TAG_module;
}

/*
 * The inlined subroutines whose ranges hold @pc under @cu, outermost first, into @in (at most
 * SYM_MAX_DEPTH). libdw's dwarf_getscopes() recurses once per nesting level, so that a file with
 * 50,000 nested DW_TAG_inlined_subroutine entries (any local user's program may carry one)
 * overflows the stack; this walk keeps its own path of at most SYM_MAX_DEPTH levels and goes no
 * deeper: the innermost inlined frames of a deeper nest are left out. Returns their number.
 */
#define SYM_MAX_DEPTH 256
static size_t inlined_at(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *in)
{
	Dwarf_Die path[SYM_MAX_DEPTH];
	size_t d = 0, floor = 0, n = 0; /* floor: the level of the innermost scope's children */

	if (dwarf_child(cu, &path[0]))
		return 0;
	for (;;) {
		Dwarf_Die *die = &path[d];
		int tag = dwarf_tag(die);

		if (dwarf_haspc(die, pc) == 1) {
			if (tag == DW_TAG_inlined_subroutine && n < SYM_MAX_DEPTH)
				in[n++] = *die;
			if (d + 1 >= SYM_MAX_DEPTH || dwarf_child(die, &path[d + 1]))
				break; /* the innermost scope (or as deep as we go) */
			floor = ++d;
			continue;
		}
		if (scope_container(tag) && d + 1 < SYM_MAX_DEPTH && !dwarf_child(die, &path[d + 1])) {
			d++;
			continue;
		}
		/* the next sibling, else back up: never above the innermost scope found */
		while (dwarf_siblingof(&path[d], &path[d])) {
			if (d == floor)
				return n;
			d--;
		}
	}
	return n;
}

/* The inlined functions at @vaddr, innermost first, then the function @sym itself. */
static int lookup(struct sym_file *sf, uint64_t vaddr, struct sym_addr *a)
{
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name;
	Dwarf_Die *cu, *in = NULL;
	Dwarf_Addr bias;
	size_t n = 0;
	int err = 0;

	if (!sf->mod)
		return 0;
	name = dwfl_module_addrinfo(sf->mod, vaddr, &off, &sym, NULL, NULL, NULL);
	if (!name)
		return 0;
	cu = dwfl_module_addrdie(sf->mod, vaddr, &bias);
	if (cu && (in = calloc(SYM_MAX_DEPTH, sizeof(*in))))
		n = inlined_at(cu, vaddr - bias, in);
	while (n && !err) {
		const char *nm = dwarf_diename(&in[--n]);

		err = add_name(a, nm ? nm : "??");
	}
	free(in);
	if (!err)
		err = add_name(a, name);
	a->off = off;
	return err;
}

static size_t hash_addr(size_t file, uint64_t vaddr)
{
	uint64_t h = (vaddr ^ ((uint64_t)file << 48)) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h ^ (h >> 31));
}

static int addr_slot(struct sdt_symbolizer *s, size_t file, uint64_t vaddr, struct sym_addr **out)
{
	size_t i, mask;

	if (2 * (s->naddrs + 1) > s->addrs_cap) {
		size_t cap = s->addrs_cap ? 2 * s->addrs_cap : 256;
		struct sym_addr *old = s->addrs, *na = calloc(cap, sizeof(*na));
		size_t oc = s->addrs_cap;

		if (!na)
			return -ENOMEM;
		for (i = 0; i < oc; i++) {
			size_t j;

			if (!old[i].file)
				continue;
			for (j = hash_addr(old[i].file, old[i].vaddr) & (cap - 1); na[j].file;
			     j = (j + 1) & (cap - 1))
				;
			na[j] = old[i];
		}
		free(old);
		s->addrs = na;
		s->addrs_cap = cap;
	}
	mask = s->addrs_cap - 1;
	for (i = hash_addr(file + 1, vaddr) & mask; s->addrs[i].file; i = (i + 1) & mask)
		if (s->addrs[i].file == file + 1 && s->addrs[i].vaddr == vaddr) {
			*out = &s->addrs[i];
			return 1;
		}
	s->addrs[i].file = file + 1;
	s->addrs[i].vaddr = vaddr;
	s->naddrs++;
	*out = &s->addrs[i];
	return 0;
}

/*
 * The link-time address of @ip in mapping @m: by the PT_LOAD holding its file offset; or false
 * outside every PT_LOAD. A debug-only file has no file offsets: there the mapping is taken to
 * begin at the first page of an executable segment (as ld.so maps each PT_LOAD), the first one
 * the address then falls into.
 */
static bool file_vaddr(const struct sym_file *sf, const struct sdt_trace_mapping *m, uint64_t ip,
		       uint64_t *vaddr)
{
	uint64_t off = ip - m->start + m->pgoff;
	size_t i;

	if (sf->debug_only) {
		for (i = 0; i < sf->nsegs; i++) {
			uint64_t base = sf->segs[i].vaddr & ~(uint64_t)0xfff;

			if (!sf->segs[i].exec)
				continue;
			*vaddr = ip - m->start + base;
			if (*vaddr >= sf->segs[i].vaddr &&
			    *vaddr - sf->segs[i].vaddr < sf->segs[i].memsz)
				return true;
		}
		return false;
	}
	for (i = 0; i < sf->nsegs; i++)
		if (off >= sf->segs[i].off && off - sf->segs[i].off < sf->segs[i].filesz) {
			*vaddr = off - sf->segs[i].off + sf->segs[i].vaddr;
			return true;
		}
	return false;
}

static int push_frame(struct sdt_symbolizer *s, size_t *n, const struct sdt_frame *f)
{
	if (sdt_grow((void **)&s->frames, &s->frames_cap, *n + 1, sizeof(*s->frames)))
		return -ENOMEM;
	s->frames[(*n)++] = *f;
	return 0;
}

static const char *unknown_name(struct sdt_symbolizer *s, const struct sdt_frame *f)
{
	char *name;

	if (sdt_grow((void **)&s->unknown, &s->unknown_cap, s->nunknown + 1, sizeof(*s->unknown)))
		return NULL;
	/*
	 * The file's name and the offset in it ("[libfoo.so.1+0x1a2b]"): short enough for a
	 * flame graph's box, and what perf prints; the build-id (->build_id) and the whole path
	 * stay in the frame for those who show more (report -g prints the path beside it).
	 */
	if (f->path && *f->path) {
		const char *base = strrchr(f->path, '/');

		name = sdt_asprintf("[%s+0x%" PRIx64 "]", base && base[1] ? base + 1 : f->path,
				    f->file_off);
	} else if (f->build_id) {
		name = sdt_asprintf("[%s+0x%" PRIx64 "]", f->build_id, f->file_off);
	} else
		name = sdt_asprintf("[0x%" PRIx64 "]", f->ip);
	if (name)
		s->unknown[s->nunknown++] = name;
	return name;
}

/*
 * An fp stack (record -g) with the leaf's words (its stack pointer and the bytes at it): the
 * caller of its first frame by CFI, put back as the second when the walk went past it (a
 * function with no frame of its own at the probe: the walk's second address is its caller's
 * caller's). The stack's depth, *@ips s->uips when a frame was put back.
 */
static size_t leaf_caller(struct sdt_symbolizer *s, uint32_t pid, uint32_t tid,
			  const struct sdt_trace_user_stack *us, const uint64_t **ips, size_t depth)
{
	const uint64_t *in = *ips;
	uint64_t ra;

	if (!sdt_unwinder_caller(s->unwinder, pid, tid, us, in[0], &ra) ||
	    (depth > 1 && ra == in[1]))
		return depth;
	s->uips[0] = in[0];
	s->uips[1] = ra;
	if (depth > SDT_TRACE_MAX_STACK - 1)
		depth = SDT_TRACE_MAX_STACK - 1;
	memcpy(s->uips + 2, in + 1, (depth - 1) * sizeof(*in));
	*ips = s->uips;
	return depth + 1;
}

int sdt_symbolizer__frames(struct sdt_symbolizer *s, const struct sdt_trace_event *ev,
			   const struct sdt_frame **frames)
{
	const uint64_t *ips;
	size_t depth = sdt_trace_event__stack(ev, &ips), n = 0, i, k;
	uint32_t pid = sdt_trace_event__pid(ev);
	struct sdt_trace_user_stack us;
	int err;

	*frames = NULL;
	for (i = 0; i < s->nunknown; i++)
		free(s->unknown[i]);
	s->nunknown = 0;
	if (sdt_trace_event__user_stack(ev, &us)) {
		if (!s->unwinder && sdt_unwinder_new(s->r, found_path, s, &s->unwinder))
			return sdt_err(-ENOMEM, "out of memory");
		if (!depth) {
			err = sdt_unwinder_run(s->unwinder, pid, sdt_trace_event__tid(ev), &us,
					       s->uips, SDT_TRACE_MAX_STACK);
			if (err < 0)
				return err == -ENOMEM ? sdt_err(err, "out of memory") : err;
			ips = s->uips;
			depth = (size_t)err;
		} else {
			depth = leaf_caller(s, pid, sdt_trace_event__tid(ev), &us, &ips, depth);
		}
	}
	for (i = 0; i < depth; i++) {
		struct sdt_trace_mapping m;
		struct sdt_frame f = {.ip = ips[i]};
		struct sym_addr *a = NULL;
		uint64_t look = i ? ips[i] - 1 : ips[i], vaddr;

		if (sdt_trace_reader__mapping(s->r, pid, ips[i], &m)) {
			f.path = m.path;
			f.build_id = m.build_id;
			f.file_off = ips[i] - m.start + m.pgoff;
			err = file_of(s, &m);
			if (err < 0)
				return sdt_err(err, "out of memory");
			if (file_vaddr(&s->files[err], &m, look, &vaddr)) {
				size_t fi = (size_t)err;

				err = addr_slot(s, fi, vaddr, &a);
				if (err < 0)
					return sdt_err(err, "out of memory");
				if (!err && lookup(&s->files[fi], vaddr, a))
					return sdt_err(-ENOMEM, "out of memory");
			}
		}
		if (!a || !a->n) {
			f.name = unknown_name(s, &f);
			if (!f.name || push_frame(s, &n, &f))
				return sdt_err(-ENOMEM, "out of memory");
			continue;
		}
		for (k = 0; k < a->n; k++) {
			f.sym = f.name = a->names[k];
			f.inlined = k + 1 < a->n;
			f.sym_off = f.inlined ? 0 : a->off + (i ? 1 : 0);
			if (push_frame(s, &n, &f))
				return sdt_err(-ENOMEM, "out of memory");
		}
	}
	/* strings are stable: names live in the address table, unknown names until the next call */
	*frames = s->frames;
	return (int)n;
}
