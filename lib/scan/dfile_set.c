/* SPDX-License-Identifier: MIT */
/*
 * The loaded set of provider type files behind struct sdt_types (sdtrace/types.h): loading a
 * `.d` file, a buffer, a directory or the default search path through the parser (dfile.c), and
 * looking a provider:probe up, typed for the target's word size.
 *
 * The declarations are kept as the parser yields them, in a hash table of open addressing keyed
 * by provider:probe; the first definition wins (a --types file before the user's directory,
 * before the shipped one), and each remembers the FILE:LINE it came from for messages.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scan/dfile.h"
#include "util/internal.h"
#include "scan/types.h"

#ifndef SDTRACE_PROVIDERS_DIR
#define SDTRACE_PROVIDERS_DIR "/usr/local/share/sdtrace/providers"
#endif

struct sdt_types {
	struct sdt_dprobe **probes;
	char **origins; /* "FILE:LINE" per probe */
	size_t n, cap;
	size_t *slots; /* open addressing: 0 empty, else index + 1 */
	size_t nslots;
};

static uint64_t hash_key(const char *provider, const char *name)
{
	uint64_t h = 1469598103934665603ULL;
	const char *s;

	for (s = provider; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	h = (h ^ ':') * 1099511628211ULL;
	for (s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The slot of provider:name: where it is, or the empty slot where it would go. */
static size_t *find_slot(const struct sdt_types *t, const char *provider, const char *name)
{
	size_t mask = t->nslots - 1, i = (size_t)hash_key(provider, name) & mask;

	for (;;) {
		size_t *slot = &t->slots[i];
		const struct sdt_dprobe *p;

		if (!*slot)
			return slot;
		p = t->probes[*slot - 1];
		if (!strcmp(p->provider, provider) && !strcmp(p->name, name))
			return slot;
		i = (i + 1) & mask;
	}
}

static int rehash(struct sdt_types *t, size_t nslots)
{
	size_t *slots = calloc(nslots, sizeof(*slots)), i;

	if (!slots)
		return -ENOMEM;
	free(t->slots);
	t->slots = slots;
	t->nslots = nslots;
	for (i = 0; i < t->n; i++)
		*find_slot(t, t->probes[i]->provider, t->probes[i]->name) = i + 1;
	return 0;
}

int sdt_types__new(struct sdt_types **out)
{
	struct sdt_types *t = calloc(1, sizeof(*t));

	*out = NULL;
	if (!t || rehash(t, 64)) {
		free(t);
		return sdt_err(-ENOMEM, "out of memory");
	}
	*out = t;
	return 0;
}

void sdt_types__free(struct sdt_types *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++) {
		sdt_dprobe_free(t->probes[i]);
		free(t->origins[i]);
	}
	free(t->probes);
	free(t->origins);
	free(t->slots);
	free(t);
}

size_t sdt_types__count(const struct sdt_types *t)
{
	return t->n;
}

struct load_ctx {
	struct sdt_types *t;
	const char *name;
	int added;
};

static int add_probe(struct sdt_dprobe *p, void *data)
{
	struct load_ctx *c = data;
	struct sdt_types *t = c->t;
	size_t *slot, cap;

	slot = find_slot(t, p->provider, p->name);
	if (*slot) {
		/* defined earlier (an earlier file, or earlier in this one): the first wins */
		sdt_dprobe_free(p);
		return 0;
	}
	if (t->n >= SDT_DFILE_MAX_PROBES) {
		sdt_dprobe_free(p);
		return sdt_err(-E2BIG, "%s: more than %u probes declared", c->name,
			       SDT_DFILE_MAX_PROBES);
	}
	cap = t->cap;
	if (sdt_grow((void **)&t->probes, &cap, t->n + 1, sizeof(*t->probes)) ||
	    sdt_grow((void **)&t->origins, &t->cap, t->n + 1, sizeof(*t->origins))) {
		sdt_dprobe_free(p);
		return sdt_err(-ENOMEM, "out of memory");
	}
	/* both arrays grow in step: the second call sets t->cap to the same capacity */
	t->origins[t->n] = sdt_asprintf("%s:%u", c->name, p->line);
	if (!t->origins[t->n]) {
		sdt_dprobe_free(p);
		return sdt_err(-ENOMEM, "out of memory");
	}
	t->probes[t->n++] = p;
	*slot = t->n;
	c->added++;
	if (t->n * 2 > t->nslots && rehash(t, t->nslots * 2))
		return sdt_err(-ENOMEM, "out of memory");
	return 0;
}

int sdt_types__load_mem(struct sdt_types *t, const char *buf, size_t len, const char *name)
{
	struct load_ctx c = {.t = t, .name = name ? name : "<memory>"};
	int err;

	err = sdt_dfile_parse(buf, len, c.name, add_probe, &c);
	return err ? err : c.added;
}

int sdt_types__load_file(struct sdt_types *t, const char *path)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sdt_err(-errno, "cannot open type file '%s': %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		err = sdt_err(-errno, "cannot stat '%s': %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = sdt_err(-EINVAL, "type file '%s' is not a regular file", path);
		goto out;
	}
	if ((uint64_t)st.st_size > SDT_DFILE_MAX_SIZE) {
		err = sdt_err(-E2BIG, "type file '%s' is larger than %u bytes", path,
			      SDT_DFILE_MAX_SIZE);
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto out;
	}
	while (got < (size_t)st.st_size) {
		ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = sdt_err(-errno, "cannot read '%s': %s", path, strerror(errno));
			goto out;
		}
		if (!r)
			break; /* shrank meanwhile: parse what was read */
		got += (size_t)r;
	}
	err = sdt_types__load_mem(t, buf, got, path);
out:
	free(buf);
	close(fd);
	return err;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

#define MAX_DIR_FILES 4096

int sdt_types__load_dir(struct sdt_types *t, const char *dir)
{
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	int added = 0, err = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return sdt_err(-errno, "cannot open type directory '%s': %s", dir, strerror(errno));
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || len < 3 || strcmp(de->d_name + len - 2, ".d"))
			continue;
		if (n >= MAX_DIR_FILES) {
			err = sdt_err(-E2BIG, "'%s': more than %d type files", dir, MAX_DIR_FILES);
			goto out;
		}
		if (sdt_grow((void **)&names, &cap, n + 1, sizeof(*names)) ||
		    !(names[n] = sdt_asprintf("%s/%s", dir, de->d_name))) {
			err = sdt_err(-ENOMEM, "out of memory");
			goto out;
		}
		n++;
	}
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		struct stat st;

		/* a dangling link or a subdirectory called x.d is not a type file */
		if (stat(names[i], &st) || !S_ISREG(st.st_mode))
			continue;
		err = sdt_types__load_file(t, names[i]);
		if (err < 0)
			goto out;
		added += err;
	}
	err = added;
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return err;
}

static char beside_dir[PATH_MAX];
static pthread_once_t beside_once = PTHREAD_ONCE_INIT;

/*
 * share/sdtrace/providers in the directory of the file holding this code: libsdtrace.so, or the
 * program a static libsdtrace is linked into. A build tree links it to the source's
 * share/providers (CMakeLists.txt), so that its binaries find the shipped files without a build
 * path compiled in (the installed ones are in SDTRACE_PROVIDERS_DIR). Empty when not known.
 */
static void find_beside_dir(void)
{
	char self[PATH_MAX], *slash;
	Dl_info info;

	if (!dladdr((void *)find_beside_dir, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, self)) {
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		if (n <= 0)
			return;
		self[n] = '\0';
	}
	slash = strrchr(self, '/');
	if (!slash)
		return;
	*slash = '\0';
	if ((size_t)snprintf(beside_dir, sizeof(beside_dir), "%s/share/sdtrace/providers", self) >=
	    sizeof(beside_dir))
		beside_dir[0] = '\0';
}

const char *sdt_types__shipped_dir(void)
{
	const char *env = getenv("SDTRACE_PROVIDERS_DIR");
	struct stat st;

	if (env && env[0])
		return env;
	if (!stat(SDTRACE_PROVIDERS_DIR, &st) && S_ISDIR(st.st_mode))
		return SDTRACE_PROVIDERS_DIR;
	pthread_once(&beside_once, find_beside_dir);
	if (beside_dir[0] && !stat(beside_dir, &st) && S_ISDIR(st.st_mode))
		return beside_dir;
	return SDTRACE_PROVIDERS_DIR;
}

/* Load directory @dir if it exists. */
static int load_optional_dir(struct sdt_types *t, const char *dir)
{
	int err = sdt_types__load_dir(t, dir);

	if (err == -ENOENT || err == -ENOTDIR) {
		sdt_err_clear();
		return 0;
	}
	return err < 0 ? err : 0;
}

int sdt_types__load_default(struct sdt_types *t, const char *const *files, size_t nfiles)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *user = NULL;
	size_t i;
	int err;

	for (i = 0; i < nfiles; i++) {
		struct stat st;

		if (!stat(files[i], &st) && S_ISDIR(st.st_mode))
			err = sdt_types__load_dir(t, files[i]);
		else
			err = sdt_types__load_file(t, files[i]);
		if (err < 0)
			return err;
	}
	if (xdg && xdg[0] == '/')
		user = sdt_asprintf("%s/sdtrace/providers", xdg);
	else if (home && home[0] == '/')
		user = sdt_asprintf("%s/.config/sdtrace/providers", home);
	if ((xdg && xdg[0] == '/') || (home && home[0] == '/')) {
		if (!user)
			return sdt_err(-ENOMEM, "out of memory");
		err = load_optional_dir(t, user);
		free(user);
		if (err)
			return err;
	}
	return load_optional_dir(t, sdt_types__shipped_dir());
}

int sdt_types__lookup(const struct sdt_types *t, const char *provider, const char *name,
		      unsigned int word_size, struct sdt_arg_type **out, size_t *n,
		      const char **origin)
{
	const struct sdt_dprobe *p;
	struct sdt_arg_type *types;
	size_t *slot, i;

	*out = NULL;
	*n = 0;
	slot = find_slot(t, provider, name);
	if (!*slot)
		return -ENOENT;
	p = t->probes[*slot - 1];
	if (origin)
		*origin = t->origins[*slot - 1];
	types = calloc(p->nparams ? p->nparams : 1, sizeof(*types));
	if (!types)
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < p->nparams; i++) {
		/* a C type with no fetch type (long double, a struct by value): the note's own */
		if (sdt_type__from_c(p->params[i].ctype, word_size, &types[i]))
			memset(&types[i], 0, sizeof(types[i]));
		if (p->params[i].name && !(types[i].name = sdt_strdup(p->params[i].name))) {
			sdt_arg_types__free(types, p->nparams);
			return sdt_err(-ENOMEM, "out of memory");
		}
	}
	*out = types;
	*n = p->nparams;
	return 0;
}

const char *sdt_types__origin(const struct sdt_types *t, const char *provider, const char *name)
{
	size_t *slot;

	if (!t || !provider || !name)
		return NULL;
	slot = find_slot(t, provider, name);
	return *slot ? t->origins[*slot - 1] : NULL;
}

int sdt_types__note(const struct sdt_types *t, const char *provider, const char *name, size_t i,
		    const char **key, const char **text)
{
	const struct sdt_dprobe *p;
	size_t *slot;

	if (!t || !provider || !name)
		return -ENOENT;
	slot = find_slot(t, provider, name);
	if (!*slot)
		return -ENOENT;
	p = t->probes[*slot - 1];
	if (i >= p->nnotes)
		return -ENOENT;
	if (key)
		*key = p->notes[i].key;
	if (text)
		*text = p->notes[i].text;
	return 0;
}

const char *sdt_types__note_text(const struct sdt_types *t, const char *provider, const char *name,
				 const char *key)
{
	const char *k, *text;
	size_t i;

	for (i = 0; !sdt_types__note(t, provider, name, i, &k, &text); i++) {
		if (!strcmp(k, key))
			return text;
	}
	return NULL;
}
