/* SPDX-License-Identifier: MIT */
/*
 * A bare name searched as a user expects (sdt_find_binary()). See include/sdtrace/find.h.
 *
 * The order: the current directory (a file the user is looking at), $PATH (what the shell would
 * run), the ld.so cache (what ld.so would load for that soname), the default library
 * directories (what ld.so finds without a cache). The first regular file wins; the answer is its
 * canonical path, so that it can be pasted back anywhere.
 */
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
	}
	if (found) {
		sdt_ldcache__free(lc);
		err = sdt_canonical_path(found, out);
		free(found);
		return err;
	}
	sdt_buf_addf(&msg,
		     "'%s': no such file in the current directory, $PATH, %s or the default "
		     "library directories",
		     name, opts.ldcache ? opts.ldcache : SDT_LDCACHE_DEFAULT);
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
