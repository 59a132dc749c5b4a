/* SPDX-License-Identifier: MIT */
/*
 * Binaries by build-id from debuginfod servers (elfutils' libdebuginfod), for a build-id that is
 * known (a recording from another host, a fleet) while the file is not at hand.
 *
 * The servers are those of $DEBUGINFOD_URLS; when it is unset or empty nothing is asked of the
 * network (-ENOSYS). $DEBUGINFOD_TIMEOUT and $DEBUGINFOD_CACHE_PATH work as for every client of
 * the library. A downloaded file whose build-id is not the one asked for is rejected (-EBADMSG)
 * and never cached. The feature is optional at build time: sdt_debuginfod__enabled() says whether
 * this library has it; without it every call fails with -ENOTSUP.
 *
 * Example:
 *	struct sdt_cache *c;
 *	enum sdt_cache_result res;
 *	if (sdt_cache__open(NULL, NULL, &c) == 0 &&
 *	    sdt_cache__add_build_id(c, "571d98e01096d5c1c32420d229a6731a0a50d2a0", NULL, &res) < 0)
 *		fprintf(stderr, "%s\n", sdt_errmsg());
 *	sdt_cache__free(c);
 */
#ifndef SDTRACE_DEBUGINFOD_H
#define SDTRACE_DEBUGINFOD_H

#include <stdbool.h>
#include <stddef.h>

#include <sdtrace/cache.h>
#include <sdtrace/common.h>

#ifdef __cplusplus
extern "C" {
#endif

struct sdt_debuginfod_opts {
	size_t sz;
	/* Called while downloading: @done of @total bytes (total 0 when unknown). */
	void (*progress)(long done, long total, void *ctx);
	void *ctx;
};

/* Was the library built with debuginfod support? */
SDT_API bool sdt_debuginfod__enabled(void);

/*
 * Fetch the executable with @build_id (lowercase hex). Returns 0 with *path (the file in the
 * debuginfod client's cache, malloc'ed) and, when the server said it, *original_path (the path
 * it had on the server, malloc'ed; else NULL). Errors: -EINVAL (not a build-id), -ENOSYS
 * ($DEBUGINFOD_URLS unset), -ENOENT (no server has it), -ETIMEDOUT, -EBADMSG (the file's build-id
 * differs), -ENOTSUP (built without debuginfod), or another -errno from the transfer.
 */
SDT_API int sdt_debuginfod__find_executable(const char *build_id,
					    const struct sdt_debuginfod_opts *opts, char **path,
					    char **original_path);

/*
 * Fetch the executable with @build_id and cache its SDT notes, under the path it had on the
 * server when known (else the downloaded file's path). *res as sdt_cache__add() sets it
 * (SDT_CACHE_NO_SDT: a binary without SDT notes is not cached). Returns 0 or -errno as above.
 */
SDT_API int sdt_cache__add_build_id(struct sdt_cache *c, const char *build_id,
				    const struct sdt_debuginfod_opts *opts,
				    enum sdt_cache_result *res);

#ifdef __cplusplus
}
#endif

#endif
