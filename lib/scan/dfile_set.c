/* SPDX-License-Identifier: MIT */
/*
 * The loaded set of provider type files behind struct sdt_types (sdtrace/types.h): loading a
 * `.d` file, a buffer, a directory or the default search path through the parser (dfile.c), and
 * looking a provider:probe up, typed for the target's word size.
 *
 * The declarations are kept as the parser yields them, in a hash table of open addressing keyed
 * by provider:probe; the first definition wins (a --types file before the user's directory,
 * before the shipped one), and each remembers the FILE:LINE it came from for messages.
 *
 * Then the SystemTap tapsets installed on the machine (tapset.c): names only, for the binaries
 * their process("PATH") points name, and only for providers no `.d` file declares. What a tapset
 * could not say is a warning kept here (sdt_types__warning()), never an error.
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
#include "scan/file.h"
#include "scan/tapset.h"
#include "util/internal.h"
#include "scan/types.h"

#ifndef SDTRACE_PROVIDERS_DIR
#define SDTRACE_PROVIDERS_DIR "/usr/local/share/sdtrace/providers"
#endif

/* A tapset's probe point, with where it came from. */
struct tapset_probe {
	struct sdt_tprobe *p;
	char *origin; /* "FILE:LINE" */
	char *real;   /* realpath() of p->path when it exists, else NULL */
};

/* Most warnings kept (a directory of broken tapsets says the first ones). */
#define MAX_WARNINGS 64
/* Most tapset probe points kept, over every file. */
#define MAX_TAPSET_PROBES 65536u

struct sdt_types {
	struct sdt_dprobe **probes;
	char **origins; /* "FILE:LINE" per probe */
	size_t n, cap;
	size_t *slots; /* open addressing: 0 empty, else index + 1 */
	size_t nslots;
	struct tapset_probe *tps;
	size_t ntps, tps_cap;
	char **warnings;
	size_t nwarnings, warnings_cap;
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
	for (i = 0; i < t->ntps; i++) {
		sdt_tprobe_free(t->tps[i].p);
		free(t->tps[i].origin);
		free(t->tps[i].real);
	}
	free(t->tps);
	for (i = 0; i < t->nwarnings; i++)
		free(t->warnings[i]);
	free(t->warnings);
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

/* The whole of regular file @path (at most @max bytes) into *buf (*len bytes). 0 or -errno. */
static int read_whole(const char *path, const char *what, unsigned int max, char **bufp,
		      size_t *len)
{
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	int fd, err;

	*bufp = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sdt_err(-errno, "cannot open %s '%s': %s", what, path, strerror(errno));
	if (fstat(fd, &st)) {
		err = sdt_err(-errno, "cannot stat '%s': %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err = sdt_err(-EINVAL, "%s '%s' is not a regular file", what, path);
		goto out;
	}
	if ((uint64_t)st.st_size > max) {
		err = sdt_err(-E2BIG, "%s '%s' is larger than %u bytes", what, path, max);
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
	*bufp = buf;
	*len = got;
	buf = NULL;
	err = 0;
out:
	free(buf);
	close(fd);
	return err;
}

int sdt_types__load_file(struct sdt_types *t, const char *path)
{
	char *buf;
	size_t len;
	int err = read_whole(path, "type file", SDT_DFILE_MAX_SIZE, &buf, &len);

	if (err)
		return err;
	err = sdt_types__load_mem(t, buf, len, path);
	free(buf);
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
	err = load_optional_dir(t, sdt_types__shipped_dir());
	if (err)
		return err;
	/* the machine's tapsets: hints, never an error but for memory */
	if (sdt_types__tapset_dir()[0]) {
		err = sdt_types__load_tapsets(t, sdt_types__tapset_dir());
		if (err == -ENOMEM)
			return err;
		sdt_err_clear();
	}
	return 0;
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

/* ---- SystemTap tapsets ---------------------------------------------------------------------- */

/* Keep warning @msg (the first MAX_WARNINGS). 0 or -ENOMEM. */
static int add_warning(struct sdt_types *t, const char *msg)
{
	if (t->nwarnings >= MAX_WARNINGS)
		return 0;
	if (sdt_grow((void **)&t->warnings, &t->warnings_cap, t->nwarnings + 1,
		     sizeof(*t->warnings)) ||
	    !(t->warnings[t->nwarnings] = sdt_strdup(msg)))
		return -ENOMEM;
	t->nwarnings++;
	return 0;
}

struct tapset_ctx {
	struct sdt_types *t;
	const char *name;
	int added;
	int err; /* a warning that could not be kept */
	/* the last path's realpath, for the next points of the same binary */
	char *last_path, *last_real;
};

static void on_tapset_warning(const char *msg, void *data)
{
	struct tapset_ctx *c = data;

	if (add_warning(c->t, msg))
		c->err = -ENOMEM;
}

static int on_tapset_probe(struct sdt_tprobe *p, void *data)
{
	struct tapset_ctx *c = data;
	struct sdt_types *t = c->t;
	struct tapset_probe *tp;
	char real[PATH_MAX];

	if (t->ntps >= MAX_TAPSET_PROBES) {
		sdt_tprobe_free(p);
		return 0;
	}
	if (sdt_grow((void **)&t->tps, &t->tps_cap, t->ntps + 1, sizeof(*t->tps))) {
		sdt_tprobe_free(p);
		return -ENOMEM;
	}
	tp = &t->tps[t->ntps];
	memset(tp, 0, sizeof(*tp));
	tp->p = p;
	tp->origin = sdt_asprintf("%s:%u", c->name, p->line);
	if (!c->last_path || strcmp(c->last_path, p->path)) {
		free(c->last_path);
		free(c->last_real);
		c->last_real = realpath(p->path, real) ? sdt_strdup(real) : NULL;
		c->last_path = sdt_strdup(p->path);
		if (!c->last_path) {
			free(c->last_real);
			c->last_real = NULL;
		}
	}
	if (c->last_real)
		tp->real = sdt_strdup(c->last_real);
	if (!tp->origin || (c->last_real && !tp->real)) {
		sdt_tprobe_free(p);
		free(tp->origin);
		free(tp->real);
		return -ENOMEM;
	}
	t->ntps++;
	c->added++;
	return 0;
}

/* One tapset file: its points added, its problems kept as warnings. The count, or -ENOMEM. */
static int load_tapset_file(struct sdt_types *t, const char *path)
{
	struct tapset_ctx c = {.t = t, .name = path};
	char *buf;
	size_t len;
	int err = read_whole(path, "tapset", SDT_TAPSET_MAX_SIZE, &buf, &len);

	if (err == -ENOMEM)
		return err;
	if (err) {
		err = add_warning(t, sdt_errmsg());
		sdt_err_clear();
		return err;
	}
	err = sdt_tapset_parse(buf, len, path, on_tapset_probe, on_tapset_warning, &c);
	free(buf);
	free(c.last_path);
	free(c.last_real);
	if (!err)
		err = c.err;
	return err ? sdt_err(err, "out of memory") : c.added;
}

/* Subdirectories followed below the tapset directory (Debian's are flat, systemtap's 2 deep). */
#define MAX_TAPSET_DEPTH 4

static int load_tapset_dir(struct sdt_types *t, const char *dir, unsigned int depth,
			   size_t *nfiles)
{
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	int added = 0, err = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return sdt_err(-errno, "cannot open tapset directory '%s': %s", dir,
			       strerror(errno));
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (++*nfiles > MAX_DIR_FILES) {
			char msg[PATH_MAX + 64];

			snprintf(msg, sizeof(msg), "%s: more than %d entries: the rest is not read",
				 dir, MAX_DIR_FILES);
			err = add_warning(t, msg);
			break;
		}
		if (sdt_grow((void **)&names, &cap, n + 1, sizeof(*names)) ||
		    !(names[n] = sdt_asprintf("%s/%s", dir, de->d_name))) {
			err = -ENOMEM;
			goto out;
		}
		n++;
	}
	if (err)
		goto out;
	if (n)
		qsort(names, n, sizeof(*names), cmp_str);
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]);
		struct stat st;

		/* a directory is followed unless it is a link (no loops); a file may be one */
		if (!lstat(names[i], &st) && S_ISDIR(st.st_mode)) {
			if (depth < MAX_TAPSET_DEPTH) {
				err = load_tapset_dir(t, names[i], depth + 1, nfiles);
				if (err == -ENOMEM)
					goto out;
				added += err > 0 ? err : 0;
				err = 0;
			}
			continue;
		}
		if (len < 5 || strcmp(names[i] + len - 4, ".stp") || stat(names[i], &st) ||
		    !S_ISREG(st.st_mode))
			continue;
		err = load_tapset_file(t, names[i]);
		if (err < 0)
			goto out;
		added += err;
		err = 0;
	}
	err = added;
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return err == -ENOMEM ? sdt_err(-ENOMEM, "out of memory") : err;
}

int sdt_types__load_tapsets(struct sdt_types *t, const char *dir)
{
	size_t nfiles = 0;
	struct stat st;

	if (!stat(dir, &st) && S_ISREG(st.st_mode)) /* one file */
		return load_tapset_file(t, dir);
	return load_tapset_dir(t, dir, 0, &nfiles);
}

const char *sdt_types__tapset_dir(void)
{
	const char *env = getenv("SDTRACE_TAPSET_DIR");

	return env ? env : "/usr/share/systemtap/tapset";
}

size_t sdt_types__warning_count(const struct sdt_types *t)
{
	return t ? t->nwarnings : 0;
}

const char *sdt_types__warning(const struct sdt_types *t, size_t i)
{
	return t && i < t->nwarnings ? t->warnings[i] : NULL;
}

/* Does a `.d` file declare any probe of @provider? Then its tapsets are not used. */
static bool provider_declared(const struct sdt_types *t, const char *provider)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->probes[i]->provider, provider))
			return true;
	return false;
}

/*
 * Is @want the path @path: equal, or @want a library's unversioned name (the -dev package's
 * link, often absent) and @path its versioned file (libruby-3.1.so, libruby-3.1.so.3.1)?
 */
static bool path_is(const char *want, const char *path)
{
	size_t n = strlen(want);
	const char *r;

	if (strncmp(want, path, n))
		return false;
	r = path + n;
	if (!*r)
		return true;
	if (n < 3 || strcmp(want + n - 3, ".so"))
		return false;
	while (r[0] == '.' && r[1] >= '0' && r[1] <= '9') {
		r++;
		while (*r >= '0' && *r <= '9')
			r++;
	}
	return !*r;
}

/* @path, or one of its tails at a '/', is @tail (a path after an unexpanded ${prefix}). */
static bool tail_is(const char *tail, const char *path)
{
	const char *p;

	for (p = path; p; p = strchr(p + 1, '/'))
		if (*p == '/' && path_is(tail, p))
			return true;
	return false;
}

static bool tapset_path_matches(const struct tapset_probe *tp, const char *path, const char *real)
{
	const char *want = tp->p->path, *var = strstr(want, "${"), *close;

	if (var) {
		/* Debian's sssd.stp says ${prefix}/lib/...: the rest names the binary */
		close = strchr(var, '}');
		if (!close || close[1] != '/' || strstr(close, "${"))
			return false;
		return tail_is(close + 1, path) || (real && tail_is(close + 1, real));
	}
	return path_is(want, path) ||
	       (real && (path_is(want, real) || (tp->real && path_is(tp->real, real))));
}

const struct sdt_tprobe *sdt_types_tapset(const struct sdt_types *t, const struct sdt_file *f,
					  const struct sdt_site *s, const char **origin)
{
	char real[PATH_MAX];
	bool have_real = false, tried = false;
	size_t i;

	if (!t || !t->ntps || !f->path || provider_declared(t, s->provider))
		return NULL;
	for (i = 0; i < t->ntps; i++) {
		const struct tapset_probe *tp = &t->tps[i];

		if (strcmp(tp->p->mark, s->name) ||
		    (tp->p->provider && strcmp(tp->p->provider, s->provider)))
			continue;
		if (!tried) {
			tried = true;
			have_real = realpath(f->path, real) != NULL;
		}
		if (!tapset_path_matches(tp, f->path, have_real ? real : NULL))
			continue;
		if (origin)
			*origin = tp->origin;
		return tp->p;
	}
	return NULL;
}
