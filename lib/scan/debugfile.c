/* SPDX-License-Identifier: MIT */
/* A stripped file's symbols from its separate debug file (see debugfile.h). */
#include <stdlib.h>
#include <string.h>

#include "scan/debugfile.h"
#include "util/internal.h"

#define DEFAULT_DEBUG_DIR "/usr/lib/debug"

/* Open the debug file @path if it is @e's: same build-id, machine and class. */
static bool open_candidate(const struct sdt_elf *e, const char *build_id, const char *path,
			   struct sdt_elf *d)
{
	char *id = NULL;
	bool ok;

	if (sdt_elf_open(path, d)) {
		sdt_err_clear();
		return false;
	}
	ok = !sdt_elf_build_id(d, &id) && id && !strcmp(id, build_id) &&
	     d->ehdr.e_machine == e->ehdr.e_machine && d->elfclass == e->elfclass;
	free(id);
	if (!ok)
		sdt_elf_close(d);
	return ok;
}

int sdt_debugfile_find_symbols(const struct sdt_elf *e, const char *build_id,
			       const char *const *names, size_t n, uint64_t *values, int *status,
			       struct sdt_debugfile_result *res)
{
	const char *dirs = getenv("SDTRACE_DEBUG_DIR"), *p;
	const char **want = NULL;
	size_t *slot = NULL, nwant = 0, i;
	uint64_t *v = NULL;
	int *st = NULL, err = 0;
	struct sdt_elf d;

	memset(res, 0, sizeof(*res));
	if (!build_id || strlen(build_id) < 4)
		return 0;
	for (i = 0; i < n; i++)
		nwant += status[i] == -ENOENT;
	if (!nwant)
		return 0;
	if (!dirs || !*dirs)
		dirs = DEFAULT_DEBUG_DIR;
	for (p = dirs; *p && !res->found;) {
		size_t len = strcspn(p, ":");
		char *path;

		if (len) {
			path = sdt_asprintf("%.*s/.build-id/%.2s/%s.debug", (int)len, p, build_id,
					    build_id + 2);
			if (!path)
				return -ENOMEM;
			if (open_candidate(e, build_id, path, &d)) {
				free(res->path);
				res->path = path;
				res->found = true;
			} else if (!res->path) {
				res->path = path;
			} else {
				free(path);
			}
		}
		p += len;
		if (*p == ':')
			p++;
	}
	if (!res->found)
		return 0;

	want = sdt_reallocarray(NULL, nwant, sizeof(*want));
	slot = sdt_reallocarray(NULL, nwant, sizeof(*slot));
	v = sdt_reallocarray(NULL, nwant, sizeof(*v));
	st = sdt_reallocarray(NULL, nwant, sizeof(*st));
	if (!want || !slot || !v || !st) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0, nwant = 0; i < n; i++) {
		if (status[i] != -ENOENT)
			continue;
		want[nwant] = names[i];
		slot[nwant++] = i;
	}
	err = sdt_elf_find_symbols(&d, want, nwant, v, st);
	for (i = 0; !err && i < nwant; i++) {
		if (st[i] == -ENOENT)
			continue;
		status[slot[i]] = st[i];
		values[slot[i]] = v[i];
	}
out:
	sdt_elf_close(&d);
	free(want);
	free(slot);
	free(v);
	free(st);
	return err;
}

void sdt_debugfile_result_release(struct sdt_debugfile_result *res)
{
	free(res->path);
	memset(res, 0, sizeof(*res));
}
