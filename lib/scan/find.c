/* SPDX-License-Identifier: MIT */
/*
 * A bare name searched as a user expects (sdt_find_binary()). See include/sdtrace/find.h.
 *
 * The order: the current directory (a file the user is looking at), $PATH (what the shell would
 * run), the ld.so cache (what ld.so would load for that soname), the default library
 * directories (what ld.so finds without a cache), then the library trees: a library that a
 * program dlopen()s from its own directory (java's libjvm.so, under
 * /usr/lib/jvm/java-17-openjdk-amd64/lib/server/) is in none of ld.so's places, and is found
 * where packages install such programs (/usr/lib, /usr/lib64, /usr/local/lib, /opt), up to
 * TREE_DEPTH levels down. The first regular file wins; the answer is its canonical path, so that
 * it can be pasted back anywhere.
 *
 * Two files of that name in the trees (two JVMs) are told apart by $PATH: the one whose
 * installation runs a command of $PATH (an ancestor directory D of the library has D/bin/CMD, and
 * $PATH's CMD is that file, as `java` -> /etc/alternatives/java -> D/bin/java), the library of
 * the program the user would run. Else the name is ambiguous: an error naming them.
 */
#include <fts.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "scan/ldcache.h"
#include "scan/find.h"

#if defined(__x86_64__) && !defined(__ILP32__)
#define MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define MULTIARCH "aarch64-linux-gnu"
#elif defined(__i386__)
#define MULTIARCH "i386-linux-gnu"
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MULTIARCH "powerpc64le-linux-gnu"
#elif defined(__s390x__)
#define MULTIARCH "s390x-linux-gnu"
#elif defined(__riscv) && __riscv_xlen == 64
#define MULTIARCH "riscv64-linux-gnu"
#endif

/* clang-format off */
static const char *const default_dirs[] = {
#ifdef MULTIARCH
	"/lib/" MULTIARCH, "/usr/lib/" MULTIARCH,
#endif
	"/lib64", "/usr/lib64", "/lib", "/usr/lib",
};
/* clang-format on */

/* The library trees: where a package puts a program's private libraries. */
#define DEFAULT_TREES "/usr/lib:/usr/lib64:/usr/local/lib:/opt"
/* /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so is 5 below /usr/lib */
#define TREE_DEPTH 6
/* the walk stops after this many entries: ~32000 on a desktop Debian, 0.1 s warm */
#define TREE_MAX_ENTRIES 400000
/* files of one name told apart: at most this many */
#define TREE_MAX_FOUND 16

static bool is_file(const char *path, bool exec)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && (!exec || !access(path, X_OK));
}

/* @name in each directory of @path_env (an empty entry is the current directory). */
static char *search_path(const char *name, const char *path_env)
{
	char buf[PATH_MAX];

	while (*path_env) {
		const char *colon = strchr(path_env, ':');
		size_t n = colon ? (size_t)(colon - path_env) : strlen(path_env);

		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, n ? path_env : ".", name) <
			(int)sizeof(buf) &&
		    is_file(buf, true))
			return sdt_strdup(buf);
		path_env += n + (colon ? 1 : 0);
	}
	return NULL;
}

static char *search_ldcache(const struct sdt_ldcache *lc, const char *name)
{
	const char *p = sdt_ldcache__lookup(lc, name, sdt_ldcache_native_flags());

	if (!p || !is_file(p, false))
		p = sdt_ldcache__lookup(lc, name, SDT_LDCACHE_ANY);
	return p && is_file(p, false) ? sdt_strdup(p) : NULL;
}

static char *search_dirs(const char *name)
{
	char buf[PATH_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(default_dirs); i++) {
		if (snprintf(buf, sizeof(buf), "%s/%s", default_dirs[i], name) < (int)sizeof(buf) &&
		    is_file(buf, false))
			return sdt_strdup(buf);
	}
	return NULL;
}

struct found {
	char *path[TREE_MAX_FOUND];
	size_t n;
};

static void found_release(struct found *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		free(f->path[i]);
	f->n = 0;
}

/* Add @path canonical to @f unless it is there (a link and its file are one). */
static int found_add(struct found *f, const char *path)
{
	char *real = realpath(path, NULL);
	size_t i;

	if (!real)
		return errno == ENOMEM ? -ENOMEM : 0;
	for (i = 0; i < f->n; i++) {
		if (!strcmp(f->path[i], real)) {
			free(real);
			return 0;
		}
	}
	if (f->n == TREE_MAX_FOUND || !is_file(real, false)) {
		free(real);
		return 0;
	}
	f->path[f->n++] = real;
	return 0;
}

/* Every regular file named @name in the trees of @trees (colon-separated), TREE_DEPTH down. */
static int walk_trees(const char *name, const char *trees, struct found *f)
{
	char *list = sdt_strdup(trees), *save = NULL, *root;
	size_t entries = 0;
	int err = list ? 0 : -ENOMEM;

	for (root = list ? strtok_r(list, ":", &save) : NULL; root && !err;
	     root = strtok_r(NULL, ":", &save)) {
		char *roots[] = {root, NULL};
		FTS *fts = fts_open(roots, FTS_PHYSICAL | FTS_NOCHDIR | FTS_NOSTAT, NULL);
		FTSENT *e;

		if (!fts)
			continue;
		while (!err && (e = fts_read(fts)) && ++entries < TREE_MAX_ENTRIES) {
			if (e->fts_info == FTS_D &&
			    (e->fts_level >= TREE_DEPTH || !strcmp(e->fts_path, "/usr/lib/debug")))
				fts_set(fts, e,
					FTS_SKIP); /* debug files are copies, not programs */
			else if (e->fts_info != FTS_D && e->fts_info != FTS_DP &&
				 !strcmp(e->fts_name, name))
				err = found_add(f, e->fts_path);
		}
		fts_close(fts);
	}
	free(list);
	return err;
}

/* Does a command of @path_env run a file of @dir/bin (an installation @dir of that program)? */
static bool runs_from(const char *dir, const char *path_env)
{
	char bin[PATH_MAX];
	struct dirent *d;
	bool yes = false;
	DIR *dp;

	if (snprintf(bin, sizeof(bin), "%s/bin", dir) >= (int)sizeof(bin) || !(dp = opendir(bin)))
		return false;
	while (!yes && (d = readdir(dp))) {
		char mine[PATH_MAX], *cmd, *a, *b;

		if (d->d_name[0] == '.' ||
		    snprintf(mine, sizeof(mine), "%s/%s", bin, d->d_name) >= (int)sizeof(mine))
			continue;
		cmd = search_path(d->d_name, path_env);
		a = cmd ? realpath(cmd, NULL) : NULL;
		b = a ? realpath(mine, NULL) : NULL;
		yes = a && b && !strcmp(a, b);
		free(cmd);
		free(a);
		free(b);
	}
	closedir(dp);
	return yes;
}

/* Is @dir one of the colon-separated @trees? */
static bool is_tree(const char *dir, const char *trees)
{
	size_t len = strlen(dir);

	while (*trees) {
		size_t n = strcspn(trees, ":");

		if (n == len && !strncmp(trees, dir, n))
			return true;
		trees += n + (trees[n] == ':');
	}
	return false;
}

/*
 * Is @lib part of an installation that $PATH runs: some ancestor D below its tree with
 * runs_from(D)? (The tree's own parent, /usr for /usr/lib, holds every command.)
 */
static bool on_path(const char *lib, const char *trees, const char *path_env)
{
	char dir[PATH_MAX], *slash;

	if (snprintf(dir, sizeof(dir), "%s", lib) >= (int)sizeof(dir))
		return false;
	while ((slash = strrchr(dir, '/')) && slash != dir) {
		*slash = '\0';
		if (is_tree(dir, trees))
			return false;
		if (runs_from(dir, path_env))
			return true;
	}
	return false;
}

/*
 * @name in the library trees into *@out: 0, 1 when it is in none, or -ENOTUNIQ (with the
 * message) for several that $PATH does not tell apart.
 */
static int search_trees(const char *name, const struct sdt_find_opts *o, char **out)
{
	struct found f = {0};
	struct sdt_buf msg = {0};
	size_t i, pick = 0, npick = 0;
	const char *trees = o->lib_trees ? o->lib_trees : DEFAULT_TREES;
	int err;

	*out = NULL;
	err = walk_trees(name, trees, &f);
	if (err || !f.n) {
		found_release(&f);
		return err ? sdt_err(err, "out of memory") : 1;
	}
	if (f.n == 1) {
		*out = f.path[0];
		return 0;
	}
	for (i = 0; i < f.n; i++) {
		if (on_path(f.path[i], trees, o->path_env)) {
			pick = i;
			npick++;
		}
	}
	if (npick == 1) {
		*out = f.path[pick];
		f.path[pick] = f.path[--f.n];
		found_release(&f);
		return 0;
	}
	sdt_buf_addf(
	    &msg, "'%s' is %zu%s files in the library trees, $PATH running programs of %s:", name,
	    f.n, f.n == TREE_MAX_FOUND ? " or more" : "", npick ? "more than one" : "none");
	for (i = 0; i < f.n; i++)
		sdt_buf_addf(&msg, " %s%s", f.path[i], i + 1 < f.n ? "," : "");
	sdt_buf_addstr(&msg, "; give the path");
	found_release(&f);
	err = sdt_err(-ENOTUNIQ, "%s", msg.buf ? msg.buf : "ambiguous name");
	sdt_buf_free(&msg);
	return err;
}

/* The cache's sonames that begin with "@name.", for the message of a name not found. */
static void suggest(struct sdt_buf *b, const struct sdt_ldcache *lc, const char *name)
{
	size_t i, j, len = strlen(name), shown = 0;

	for (i = 0; i < sdt_ldcache__count(lc) && shown < 4; i++) {
		const struct sdt_ldcache_entry *e = sdt_ldcache__entry(lc, i);
		bool dup = false;

		if (strncmp(e->soname, name, len) || e->soname[len] != '.')
			continue;
		for (j = 0; j < i && !dup; j++)
			dup = !strcmp(sdt_ldcache__entry(lc, j)->soname, e->soname);
		if (dup)
			continue;
		sdt_buf_addf(b, "%s%s (%s)", shown ? ", " : "; the ld.so cache has ", e->soname,
			     e->path);
		shown++;
	}
}

int sdt_find_binary(const char *name, const struct sdt_find_opts *opts_in, char **out)
{
	struct sdt_find_opts opts;
	struct sdt_ldcache *lc = NULL;
	struct sdt_buf msg = {0};
	char *found = NULL;
	int err;

	*out = NULL;
	err = SDT_OPTS_COPY(&opts, opts_in, sdt_find_opts);
	if (err)
		return err;
	if (!name || !*name)
		return sdt_err(-ENOENT, "an empty name names no file");
	if (strchr(name, '/'))
		return sdt_canonical_path(name, out);
	if (!opts.path_env)
		opts.path_env = getenv("PATH");
	if (!opts.path_env)
		opts.path_env = "/usr/local/bin:/usr/bin:/bin";

	if (!opts.exec_only && is_file(name, false))
		found = sdt_asprintf("./%s", name);
	if (!found)
		found = search_path(name, opts.path_env);
	if (!found && opts.exec_only)
		return sdt_err(-ENOENT, "'%s': no such command in $PATH", name);
	if (!found) {
		/* an unreadable or damaged cache is as none: the directories are still searched */
		if (sdt_ldcache__open(opts.ldcache, &lc) == 0)
			found = search_ldcache(lc, name);
		if (!found)
			found = search_dirs(name);
		if (!found) {
			err = search_trees(name, &opts, &found);
			if (err < 0) {
				sdt_ldcache__free(lc);
				return err;
			}
		}
	}
	if (found) {
		sdt_ldcache__free(lc);
		err = sdt_canonical_path(found, out);
		free(found);
		return err;
	}
	sdt_buf_addf(&msg,
		     "'%s': no such file in the current directory, $PATH, %s, the default "
		     "library directories or the library trees (%s)",
		     name, opts.ldcache ? opts.ldcache : SDT_LDCACHE_DEFAULT,
		     opts.lib_trees ? opts.lib_trees : DEFAULT_TREES);
	if (lc)
		suggest(&msg, lc, name);
	sdt_ldcache__free(lc);
	err = sdt_err(-ENOENT, "%s", msg.buf ? msg.buf : "not found");
	sdt_buf_free(&msg);
	return err;
}

char *sdt_user_path(const char *path, bool search)
{
	char *out;
	int err = search ? sdt_find_binary(path, NULL, &out) : sdt_canonical_path(path, &out);

	if (err) {
		errno = -err;
		return NULL;
	}
	return out;
}
