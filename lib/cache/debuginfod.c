/* SPDX-License-Identifier: MIT */
/*
 * Binaries by build-id from debuginfod servers. See include/sdtrace/debuginfod.h.
 *
 * The server names the file it served in the response header X-DEBUGINFOD-FILE (the path it had
 * there): that is the "original path" an entry is cached under. It is checked like every path
 * that may reach uprobe_events or a probes file (absolute, printable, no whitespace, no "..").
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef SDT_HAVE_DEBUGINFOD
#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <pthread.h>
#endif

#include "cache/cache_internal.h"
#include "cache/index.h"
#include "util/internal.h"
#include "sdtrace/debuginfod.h"

/* Longest build-id we accept (perf: 20 bytes; the GNU note allows more). */
#define MAX_BUILD_ID_HEX 128

bool sdt_debuginfod__enabled(void)
{
#ifdef SDT_HAVE_DEBUGINFOD
	return true;
#else
	return false;
#endif
}

static bool valid_build_id(const char *s)
{
	size_t n = strlen(s), i;

	if (n < 2 || n > MAX_BUILD_ID_HEX || n % 2)
		return false;
	for (i = 0; i < n; i++) {
		if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i]))
			return false;
	}
	return true;
}

#ifdef SDT_HAVE_DEBUGINFOD
/*
 * libdebuginfod is loaded when a build-id is first fetched, not linked: it pulls in libcurl and
 * gnutls, whose relocation alone cost every sdtrace command ~14 M instructions (87 % of a cached
 * lookup). elfutils' libdw loads it the same way.
 */
static struct {
	bool ok;
	debuginfod_client *(*begin)(void);
	void (*end)(debuginfod_client *);
	int (*find_executable)(debuginfod_client *, const unsigned char *, int, char **);
	void (*set_progressfn)(debuginfod_client *, debuginfod_progressfn_t);
	void (*set_user_data)(debuginfod_client *, void *);
	void *(*get_user_data)(debuginfod_client *);
	const char *(*get_headers)(debuginfod_client *); /* newer libraries only */
} dbg;

static void load_debuginfod_once(void)
{
	void *h = dlopen(DEBUGINFOD_SONAME, RTLD_NOW | RTLD_LOCAL);

	if (!h)
		return;
	*(void **)&dbg.begin = dlsym(h, "debuginfod_begin");
	*(void **)&dbg.end = dlsym(h, "debuginfod_end");
	*(void **)&dbg.find_executable = dlsym(h, "debuginfod_find_executable");
	*(void **)&dbg.set_progressfn = dlsym(h, "debuginfod_set_progressfn");
	*(void **)&dbg.set_user_data = dlsym(h, "debuginfod_set_user_data");
	*(void **)&dbg.get_user_data = dlsym(h, "debuginfod_get_user_data");
	*(void **)&dbg.get_headers = dlsym(h, "debuginfod_get_headers");
	dbg.ok = dbg.begin && dbg.end && dbg.find_executable && dbg.set_progressfn &&
		 dbg.set_user_data && dbg.get_user_data;
}

/*
 * Loaded on the first fetch, from whichever thread makes it: pthread_once loads it once and
 * makes the others wait until the table is filled (a plain flag was a data race).
 */
static bool load_debuginfod(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, load_debuginfod_once);
	return dbg.ok;
}

static int progress_fn(debuginfod_client *client, long a, long b)
{
	const struct sdt_debuginfod_opts *o = dbg.get_user_data(client);

	if (o && o->progress)
		o->progress(a, b, o->ctx);
	return 0;
}

/* The X-DEBUGINFOD-FILE header's value, when it is a path we can use; else NULL. */
static char *original_path(debuginfod_client *client)
{
	const char *h = dbg.get_headers ? dbg.get_headers(client) : NULL, *p, *end;
	static const char key[] = "x-debuginfod-file:";
	char *path;
	size_t i;

	for (p = h; p && *p; p = end + (*end == '\n')) {
		end = strchr(p, '\n');
		if (!end)
			end = p + strlen(p);
		if ((size_t)(end - p) <= sizeof(key) - 1 || strncasecmp(p, key, sizeof(key) - 1))
			continue;
		p += sizeof(key) - 1;
		while (p < end && *p == ' ')
			p++;
		while (end > p && (end[-1] == '\r' || end[-1] == ' '))
			end--;
		if (p >= end || *p != '/' || end - p > 4096)
			return NULL;
		path = sdt_strndup(p, (size_t)(end - p));
		if (!path)
			return NULL;
		for (i = 0; path[i]; i++) {
			if ((unsigned char)path[i] <= ' ' || (unsigned char)path[i] >= 0x7f)
				break;
		}
		if (path[i] || strstr(path, "/../") || strstr(path, "/./")) {
			free(path);
			return NULL;
		}
		return path;
	}
	return NULL;
}
#endif

int sdt_debuginfod__find_executable(const char *build_id, const struct sdt_debuginfod_opts *opts,
				    char **path, char **orig)
{
	struct sdt_debuginfod_opts o;
#ifdef SDT_HAVE_DEBUGINFOD
	const char *urls = getenv("DEBUGINFOD_URLS");
	debuginfod_client *client;
	struct sdt_file *f = NULL;
	char *p = NULL;
	int fd, err;

	*path = NULL;
	if (orig)
		*orig = NULL;
	err = SDT_OPTS_COPY(&o, opts, sdt_debuginfod_opts);
	if (err)
		return err;
	if (!valid_build_id(build_id))
		return sdt_err(-EINVAL, "'%s' is not a build-id (lowercase hex digits)", build_id);
	if (!urls || !*urls)
		return sdt_err(-ENOSYS, "cannot fetch build-id %s: DEBUGINFOD_URLS is not set (no "
					"debuginfod server to ask)",
			       build_id);
	if (!load_debuginfod())
		return sdt_err(-ENOTSUP, "cannot fetch build-id %s: %s cannot be loaded (install "
					 "libdebuginfod1)",
			       build_id, DEBUGINFOD_SONAME);
	client = dbg.begin();
	if (!client)
		return sdt_err(-ENOMEM, "cannot start a debuginfod client");
	dbg.set_user_data(client, &o);
	dbg.set_progressfn(client, progress_fn);
	fd = dbg.find_executable(client, (const unsigned char *)build_id, 0, &p);
	if (fd < 0) {
		err = fd;
		if (err == -ENOENT)
			sdt_err(err, "build-id %s: no server in DEBUGINFOD_URLS has it", build_id);
		else if (err == -ETIME || err == -ETIMEDOUT)
			err = sdt_err(-ETIMEDOUT,
				      "build-id %s: the debuginfod server did not answer in time "
				      "(DEBUGINFOD_TIMEOUT)",
				      build_id);
		else
			sdt_err(err, "build-id %s: debuginfod: %s", build_id, strerror(-err));
		goto out;
	}
	close(fd);
	/* Never trust the server: the file must be the build asked for. */
	err = sdt_file__open(p, NULL, &f);
	if (err) {
		sdt_err_prefix(err, "build-id %s: the downloaded file", build_id);
		goto out;
	}
	if (!sdt_file__build_id(f) || strcmp(sdt_file__build_id(f), build_id)) {
		err = sdt_err(-EBADMSG,
			      "build-id %s: the server sent a file with build-id %s: rejected",
			      build_id, sdt_file__build_id(f) ? sdt_file__build_id(f) : "(none)");
		goto out;
	}
	if (orig)
		*orig = original_path(client);
	*path = p;
	p = NULL;
	err = 0;
out:
	sdt_file__free(f);
	free(p);
	dbg.end(client);
	return err;
#else
	int err;

	(void)orig;
	*path = NULL;
	err = SDT_OPTS_COPY(&o, opts, sdt_debuginfod_opts);
	if (err)
		return err;
	if (!valid_build_id(build_id))
		return sdt_err(-EINVAL, "'%s' is not a build-id (lowercase hex digits)", build_id);
	return sdt_err(-ENOTSUP, "cannot fetch build-id %s: sdtrace was built without debuginfod",
		       build_id);
#endif
}

int sdt_cache__add_build_id(struct sdt_cache *c, const char *build_id,
			    const struct sdt_debuginfod_opts *o, enum sdt_cache_result *res)
{
	enum sdt_cache_result r = SDT_CACHE_NO_SDT;
	char *path = NULL, *orig = NULL;
	struct sdt_file *f = NULL;
	struct stat st;
	int err, fd = -1;

	err = sdt_debuginfod__find_executable(build_id, o, &path, &orig);
	if (err)
		return err;
	err = sdt_cache_scan(path, &f, &st, &fd);
	if (err)
		goto out;
	/* checked in find_executable; the file could have changed since */
	if (!sdt_file__build_id(f) || strcmp(sdt_file__build_id(f), build_id)) {
		err = sdt_err(-EBADMSG, "build-id %s: the downloaded file changed", build_id);
		goto out;
	}
	if (sdt_file__site_count(f)) {
		err = sdt_cache_write_entry(c, f, orig ? orig : path, &st, fd, &r);
		if (!err && r == SDT_CACHE_ADDED)
			err = sdt_index_rebuild(c);
	}
	if (!err && res)
		*res = r;
out:
	if (fd >= 0)
		close(fd);
	sdt_file__free(f);
	free(path);
	free(orig);
	return err;
}
