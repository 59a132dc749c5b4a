/* SPDX-License-Identifier: MIT */
/*
 * Which files a system-wide recording by spec arms (issue 34): under -a any local user may start
 * a program whose notes name the same provider:event as root's session, and its hits would add
 * to root's counts. Two limits (sdt_specs_opts):
 *  - with paths (-x), a file met during the run is armed only when it has the build-id of one of
 *    them: an upgrade or a copy at a new inode, never another binary;
 *  - owner_only: only the files owned by that uid are armed, at the start (the cache's binaries)
 *    and during the run.
 * perf, for comparison, arms only the binaries named or in its build-id cache.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "record/recorder.h"
#include "record/specs.h"
#include "sdtrace/scan.h"
#include "util/internal.h"

/* The paths' build-ids (hex), read once. 0 or -ENOMEM. */
static int x_build_ids(struct sdt_rec_specs *s)
{
	SDT_OPTS(sdt_scan_opts, so);
	size_t i;

	if (s->x_ids_read)
		return 0;
	s->x_ids = calloc(s->npaths ? s->npaths : 1, sizeof(*s->x_ids));
	if (!s->x_ids)
		return -ENOMEM;
	s->x_ids_read = true;
	for (i = 0; i < s->npaths; i++) {
		struct sdt_file *f = NULL;
		const char *id;

		if (sdt_file__open(s->paths[i], &so, &f)) {
			sdt_err_clear(); /* said when the paths were resolved */
			continue;
		}
		id = sdt_file__build_id(f);
		if (id && !(s->x_ids[s->nx_ids] = sdt_strdup(id))) {
			sdt_file__free(f);
			return -ENOMEM;
		}
		if (id)
			s->nx_ids++;
		sdt_file__free(f);
	}
	return 0;
}

/* Is @build_id (hex, maybe cut to 20 bytes by the kernel's MMAP2 record) one of the paths'? */
static bool x_copy(const struct sdt_rec_specs *s, const char *build_id)
{
	size_t i, n = strlen(build_id);

	for (i = 0; i < s->nx_ids; i++)
		if (n >= 8 && !strncmp(s->x_ids[i], build_id, n))
			return true;
	return false;
}

bool sdt_rec_specs_owner_ok(const struct sdt_recorder *r, const struct sdt_rec_specs *s,
			    const char *path, const struct stat *st)
{
	if (!r->o.system_wide || !s->o.owner_only || st->st_uid == s->o.owner)
		return true;
	sdt_print(SDT_INFO, "not arming '%s': owned by uid %u, not by uid %u\n", path,
		  (unsigned int)st->st_uid, (unsigned int)s->o.owner);
	return false;
}

int sdt_rec_specs_trust_late(const struct sdt_recorder *r, struct sdt_rec_specs *s,
			     const char *path, const struct stat *st, const char *build_id)
{
	SDT_OPTS(sdt_scan_opts, so);
	struct sdt_file *f = NULL;
	bool ok;
	int err;

	if (!r->o.system_wide)
		return 1;
	if (!sdt_rec_specs_owner_ok(r, s, path, st))
		return 0;
	if (!s->npaths)
		return 1;
	err = x_build_ids(s);
	if (err)
		return sdt_err(err, "out of memory");
	if (build_id) {
		ok = x_copy(s, build_id);
	} else {
		ok = !sdt_file__open(path, &so, &f) && sdt_file__build_id(f) &&
		     x_copy(s, sdt_file__build_id(f));
		sdt_file__free(f);
		sdt_err_clear();
	}
	if (!ok)
		sdt_print(SDT_INFO,
			  "not arming '%s': not a copy of a binary named (another "
			  "build-id)\n",
			  path);
	return ok;
}

void sdt_rec_specs_trust_release(struct sdt_rec_specs *s)
{
	size_t i;

	for (i = 0; i < s->nx_ids; i++)
		free(s->x_ids[i]);
	free(s->x_ids);
	s->x_ids = NULL;
	s->nx_ids = 0;
	s->x_ids_read = false;
}
