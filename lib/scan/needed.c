/* SPDX-License-Identifier: MIT */
/* A program's DT_NEEDED closure as ld.so would load it. See needed.h. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "scan/ldcache.h"
#include "scan/needed.h"
#include "scan/sdt_elf.h"
#include "util/internal.h"

/* Most objects one closure may hold (a real program has a few hundred at most). */
#define MAX_OBJECTS 4096

struct obj {
	char *path, *open_path;
	char *name; /* the DT_NEEDED name it was loaded by (NULL: the executable, the interpreter) */
	char *soname;
	char **needed;
	size_t nneeded;
	char *rpath, *runpath;
	bool interp;
	dev_t dev;
	ino_t ino;
};

struct closure {
	const struct sdt_needed_opts *o;
	const char *root;
	struct obj *obj;
	size_t n, cap;
	unsigned int machine;
	int elfclass;
	struct sdt_ldcache *ldc;
	bool ldc_tried;
	const char *lib;      /* $LIB */
	const char *platform; /* $PLATFORM */
	const char *triplet;  /* the multiarch directory name, NULL: none */
	char libbuf[64];
	struct utsname uts;
};

static void obj_release(struct obj *b)
{
	size_t i;

	free(b->path);
	free(b->open_path);
	free(b->name);
	free(b->soname);
	for (i = 0; i < b->nneeded; i++)
		free(b->needed[i]);
	free(b->needed);
	free(b->rpath);
	free(b->runpath);
}

void sdt_needed_files_free(struct sdt_needed_file *f, size_t n)
{
	size_t i;

	for (i = 0; f && i < n; i++) {
		free(f[i].path);
		free(f[i].open_path);
	}
	free(f);
}

/* The dynamic entries of @e that name things: DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH. */
static int read_dynamic(struct sdt_elf *e, struct obj *b)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(e->elf, scn))) {
		Elf_Data *d;
		size_t i, cnt;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC)
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !sh.sh_entsize)
			return 0;
		cnt = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < cnt; i++) {
			GElf_Dyn dyn;
			const char *s;
			char **slot = NULL;

			if (!gelf_getdyn(d, (int)i, &dyn) || dyn.d_tag == DT_NULL)
				break;
			if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_SONAME &&
			    dyn.d_tag != DT_RPATH && dyn.d_tag != DT_RUNPATH)
				continue;
			s = elf_strptr(e->elf, sh.sh_link, dyn.d_un.d_val);
			if (!s)
				continue;
			if (dyn.d_tag == DT_NEEDED) {
				char **nn;

				if (b->nneeded >= MAX_OBJECTS)
					continue;
				nn = sdt_reallocarray(b->needed, b->nneeded + 1, sizeof(*nn));
				if (!nn)
					return -ENOMEM;
				b->needed = nn;
				slot = &b->needed[b->nneeded++];
				*slot = NULL;
			} else if (dyn.d_tag == DT_SONAME && !b->soname) {
				slot = &b->soname;
			} else if (dyn.d_tag == DT_RPATH && !b->rpath) {
				slot = &b->rpath;
			} else if (dyn.d_tag == DT_RUNPATH && !b->runpath) {
				slot = &b->runpath;
			}
			if (slot && !(*slot = sdt_strdup(s)))
				return -ENOMEM;
		}
		return 0;
	}
	return 0;
}

/* PT_INTERP's path, or NULL (static, or a shared library). */
static char *read_interp(struct sdt_elf *e)
{
	size_t i;

	for (i = 0; i < e->nphdrs; i++) {
		const GElf_Phdr *p = &e->phdrs[i];
		char *s;
		ssize_t r;

		if (p->p_type != PT_INTERP || !p->p_filesz || p->p_filesz > PATH_MAX)
			continue;
		s = calloc(1, (size_t)p->p_filesz + 1);
		if (!s)
			return NULL;
		r = pread(e->fd, s, (size_t)p->p_filesz, (off_t)p->p_offset);
		if (r <= 0 || s[0] != '/') {
			free(s);
			return NULL;
		}
		return s;
	}
	return NULL;
}

/* Already loaded: the same inode, or a library whose soname or DT_NEEDED name is @name. */
static bool loaded(const struct closure *c, const char *name, const struct stat *st)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct obj *b = &c->obj[i];

		if (st && b->dev == st->st_dev && b->ino == st->st_ino)
			return true;
		if (name && ((b->soname && !strcmp(b->soname, name)) ||
			     (b->name && !strcmp(b->name, name))))
			return true;
	}
	return false;
}

/*
 * Load @path (inside the root) as an object of the closure when it is an ELF file of the
 * program's machine and class: 1 loaded, 0 not usable here (ld.so goes on searching), -ENOMEM.
 */
static int load(struct closure *c, const char *path, const char *name, bool first)
{
	struct sdt_elf e;
	struct obj b = {0};
	struct stat st;
	char *open_path, *real = NULL;
	int err;

	if (c->n >= MAX_OBJECTS)
		return 0;
	open_path = sdt_asprintf("%s%s", c->root, path);
	if (!open_path)
		return -ENOMEM;
	if (sdt_elf_open(open_path, &e)) {
		free(open_path);
		return first ? -ENOEXEC : 0;
	}
	if (fstat(e.fd, &st) ||
	    (!first && (e.ehdr.e_machine != c->machine || e.elfclass != c->elfclass))) {
		sdt_elf_close(&e);
		free(open_path);
		return 0;
	}
	if (!first && loaded(c, NULL, &st)) {
		sdt_elf_close(&e);
		free(open_path);
		return 1; /* the same file under another name: loaded once */
	}
	if (first) {
		c->machine = e.ehdr.e_machine;
		c->elfclass = e.elfclass;
	}
	if (!c->root[0])
		real = realpath(path, NULL);
	b.path = real ? real : sdt_strdup(path);
	b.open_path = real ? sdt_strdup(real) : open_path;
	if (real)
		free(open_path);
	b.name = name ? sdt_strdup(name) : NULL;
	b.dev = st.st_dev;
	b.ino = st.st_ino;
	err = !b.path || !b.open_path || (name && !b.name) ? -ENOMEM : read_dynamic(&e, &b);
	sdt_elf_close(&e);
	if (!err && sdt_grow((void **)&c->obj, &c->cap, c->n + 1, sizeof(b)))
		err = -ENOMEM;
	if (err) {
		obj_release(&b);
		return err;
	}
	c->obj[c->n++] = b;
	return 1;
}

/* Append @s to @buf, its $ORIGIN, $LIB and $PLATFORM (and ${...}) expanded for object @b. */
static int expand(struct closure *c, const struct obj *b, const char *s, size_t len,
		  struct sdt_buf *buf)
{
	static const char *const names[] = {"ORIGIN", "LIB", "PLATFORM"};
	size_t i = 0, k;

	while (i < len) {
		const char *val = NULL;
		size_t skip = 0;

		if (s[i] != '$') {
			if (sdt_buf_add(buf, s + i, 1))
				return -ENOMEM;
			i++;
			continue;
		}
		for (k = 0; k < 3 && !val; k++) {
			size_t nl = strlen(names[k]);

			if (i + 1 + nl <= len && !strncmp(s + i + 1, names[k], nl) &&
			    (i + 1 + nl == len || s[i + 1 + nl] == '/'))
				skip = 1 + nl;
			else if (i + 3 + nl <= len && s[i + 1] == '{' &&
				 !strncmp(s + i + 2, names[k], nl) && s[i + 2 + nl] == '}')
				skip = 3 + nl;
			if (skip)
				val = k == 0 ? NULL : k == 1 ? c->lib : c->platform;
			if (skip && k == 0) {
				const char *slash = strrchr(b->path, '/');

				if (sdt_buf_add(buf, b->path,
						slash && slash != b->path ? (size_t)(slash - b->path)
									  : 1))
					return -ENOMEM;
				val = "";
			}
		}
		if (!skip)
			return 1; /* an unknown $NAME: ld.so drops the entry */
		if (sdt_buf_addstr(buf, val ? val : ""))
			return -ENOMEM;
		i += skip;
	}
	return 0;
}

/* Try @name in each directory of the colon-separated @list (of object @b): 1 found, 0, -errno. */
static int search_list(struct closure *c, const struct obj *b, const char *list, const char *name)
{
	const char *p = list;

	while (p && *p) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		struct sdt_buf dir = {0};
		int r = 0;

		if (len) {
			r = expand(c, b, p, len, &dir);
			if (r == 0 && dir.buf && dir.buf[0] == '/') {
				char *path = sdt_asprintf("%s/%s", dir.buf, name);

				r = path ? load(c, path, name, false) : -ENOMEM;
				free(path);
			} else if (r > 0) {
				r = 0;
			}
		}
		sdt_buf_free(&dir);
		if (r)
			return r;
		p = colon ? colon + 1 : NULL;
	}
	return 0;
}

static struct sdt_ldcache *ldcache(struct closure *c)
{
	char *path;

	if (c->ldc_tried)
		return c->ldc;
	c->ldc_tried = true;
	path = c->o->ldcache ? sdt_strdup(c->o->ldcache)
			     : sdt_asprintf("%s%s", c->root, SDT_LDCACHE_DEFAULT);
	if (path && sdt_ldcache__open(path, &c->ldc))
		c->ldc = NULL; /* no cache, or a damaged one: ld.so goes on without it too */
	free(path);
	return c->ldc;
}

/* Find and load DT_NEEDED @name of object @bi, in ld.so's order. 0 (found or not), -errno. */
static int search(struct closure *c, size_t bi, const char *name)
{
	const char *hit;
	char defaults[4 * 64];
	int r;

	if (strchr(name, '/'))
		return name[0] == '/' ? (load(c, name, name, false) < 0 ? -ENOMEM : 0) : 0;
	/* DT_RPATH of the object, then of the executable, unless the object has DT_RUNPATH */
	if (!c->obj[bi].runpath) {
		r = search_list(c, &c->obj[bi], c->obj[bi].rpath, name);
		if (!r && bi && !c->obj[0].runpath)
			r = search_list(c, &c->obj[0], c->obj[0].rpath, name);
		if (r)
			return r < 0 ? r : 0;
	}
	r = search_list(c, &c->obj[bi], c->o->ld_library_path, name);
	if (!r)
		r = search_list(c, &c->obj[bi], c->obj[bi].runpath, name);
	if (r)
		return r < 0 ? r : 0;
	hit = ldcache(c) ? sdt_ldcache__lookup(c->ldc, name,
					       sdt_ldcache_flags_for(c->machine, c->elfclass))
			 : NULL;
	if (hit) {
		r = load(c, hit, name, false);
		if (r)
			return r < 0 ? r : 0;
	}
	if (c->triplet)
		snprintf(defaults, sizeof(defaults), "/lib/%s:/usr/lib/%s:%s", c->triplet,
			 c->triplet,
			 c->elfclass == ELFCLASS64 ? "/lib64:/usr/lib64:/lib:/usr/lib"
						   : "/lib:/usr/lib");
	else
		snprintf(defaults, sizeof(defaults), "%s",
			 c->elfclass == ELFCLASS64 ? "/lib64:/usr/lib64:/lib:/usr/lib"
						   : "/lib:/usr/lib");
	r = search_list(c, &c->obj[bi], defaults, name);
	return r < 0 ? r : 0;
}

/* Debian's multiarch directory for the program's machine, and what $LIB and $PLATFORM give. */
static void arch_names(struct closure *c)
{
	const char *t = NULL;
	char dir[PATH_MAX];
	struct stat st;

	switch (c->machine) {
	case EM_X86_64: t = c->elfclass == ELFCLASS64 ? "x86_64-linux-gnu" : "x86_64-linux-gnux32"; break;
	case EM_386: t = "i386-linux-gnu"; break;
	case EM_AARCH64: t = "aarch64-linux-gnu"; break;
	case EM_ARM: t = "arm-linux-gnueabihf"; break;
	case EM_PPC64: t = "powerpc64le-linux-gnu"; break;
	case EM_S390: t = "s390x-linux-gnu"; break;
	case EM_RISCV: t = "riscv64-linux-gnu"; break;
	default: break;
	}
	c->triplet = t;
	c->lib = c->elfclass == ELFCLASS64 ? "lib64" : "lib";
	snprintf(dir, sizeof(dir), "%s/lib/%s", c->root, t ? t : "");
	if (t && !stat(dir, &st) && S_ISDIR(st.st_mode)) {
		snprintf(c->libbuf, sizeof(c->libbuf), "lib/%s", t);
		c->lib = c->libbuf;
	}
	c->platform = uname(&c->uts) ? "" : c->uts.machine;
}

int sdt_needed_closure(const char *exe, const struct sdt_needed_opts *o,
		       struct sdt_needed_file **out, size_t *n)
{
	struct sdt_needed_opts none = {0};
	struct closure c = {.o = o ? o : &none};
	struct sdt_needed_file *res = NULL;
	size_t i, j;
	char *interp = NULL;
	int err;

	*out = NULL;
	*n = 0;
	c.root = c.o->root ? c.o->root : "";
	err = load(&c, exe, NULL, true);
	if (err == -ENOEXEC) {
		char *open_path = sdt_asprintf("%s%s", c.root, exe);

		err = sdt_err(-ENOEXEC, "'%s': not an ELF file",
			      open_path ? open_path : exe);
		free(open_path);
		goto out;
	}
	if (err < 0)
		goto nomem;
	arch_names(&c);
	{
		struct sdt_elf e;

		if (!sdt_elf_open(c.obj[0].open_path, &e)) {
			interp = read_interp(&e);
			sdt_elf_close(&e);
		}
	}
	if (interp) {
		size_t before = c.n;

		if (load(&c, interp, NULL, false) < 0)
			goto nomem;
		if (c.n > before)
			c.obj[before].interp = true;
	}
	/* breadth first, as _dl_map_object_deps() loads them */
	for (i = 0; i < c.n; i++) {
		for (j = 0; j < c.obj[i].nneeded; j++) {
			if (loaded(&c, c.obj[i].needed[j], NULL))
				continue;
			err = search(&c, i, c.obj[i].needed[j]);
			if (err)
				goto nomem;
		}
	}
	res = calloc(c.n ? c.n : 1, sizeof(*res));
	if (!res)
		goto nomem;
	for (i = 0; i < c.n; i++) {
		res[i].path = c.obj[i].path;
		res[i].open_path = c.obj[i].open_path;
		res[i].interp = c.obj[i].interp;
		c.obj[i].path = c.obj[i].open_path = NULL;
	}
	*out = res;
	*n = c.n;
	err = 0;
	goto out;
nomem:
	err = sdt_err(-ENOMEM, "out of memory");
out:
	for (i = 0; i < c.n; i++)
		obj_release(&c.obj[i]);
	free(c.obj);
	free(interp);
	sdt_ldcache__free(c.ldc);
	return err;
}
