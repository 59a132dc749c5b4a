/* SPDX-License-Identifier: MIT */
/*
 * sdt_recorder__add_specs(): a file's sites to the recorder, each with its argument names and
 * types: a user probe's own, else the spec's "(name:type, ...)" list, else the provider files'
 * declaration (where the sizes agree), else none. For the start and for the files met during
 * the run alike.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/specs.h"
#include "sdtrace/cache.h"
#include "sdtrace/record.h"
#include "sdtrace/scan.h"
#include "sdtrace/types.h"
#include "util/internal.h"

int sdt_rec_specs_add_sites(struct sdt_recorder *r, const struct sdt_rec_specs *s,
			    struct sdt_spec *const *specs, size_t nspecs, const struct sdt_file *f,
			    const size_t *sites, const size_t *spec_of, size_t n,
			    struct sdt_arg_type *const *user_types)
{
	struct sdt_arg_type **types = NULL;
	size_t *ntypes = NULL, k;
	bool any = false;
	int src, err;

	/* user probes: the names their definition gives */
	if (user_types)
		return sdt_recorder__add_typed(r, f, sites, n, user_types);
	types = calloc(n ? n : 1, sizeof(*types));
	ntypes = calloc(n ? n : 1, sizeof(*ntypes));
	if (!types || !ntypes) {
		err = sdt_err(-ENOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < n; k++) {
		size_t sp = spec_of[k];
		const struct sdt_spec *spec = sp < nspecs ? specs[sp] : NULL;

		src = sdt_types__resolve(s->o.types, spec, f, sdt_file__site(f, sites[k]),
					 &types[k], &ntypes[k]);
		if (src < 0) {
			err = src;
			goto out;
		}
		if (src == SDT_TYPES_NONE) {
			sdt_arg_types__free(types[k], ntypes[k]);
			types[k] = NULL;
		} else {
			any = true;
		}
	}
	err = sdt_recorder__add_typed(r, f, sites, n, any ? types : NULL);
out:
	for (k = 0; types && ntypes && k < n; k++)
		sdt_arg_types__free(types[k], ntypes[k]);
	free(types);
	free(ntypes);
	return err;
}

int sdt_rec_specs_add_target(struct sdt_recorder *r, const struct sdt_rec_specs *s,
			     struct sdt_spec *const *specs, size_t nspecs,
			     const struct sdt_target *t)
{
	size_t n = sdt_target__site_count(t), k, *spec_of;
	struct stat st;
	int err;

	/* system-wide, with owner_only: another user's cached binary is passed over */
	if (s->o.owner_only && sdt_target__path(t) &&
	    (stat(sdt_target__path(t), &st) ||
	     !sdt_rec_specs_owner_ok(r, s, sdt_target__path(t), &st)))
		return 0;
	spec_of = calloc(n ? n : 1, sizeof(*spec_of));
	if (!spec_of)
		return sdt_err(-ENOMEM, "out of memory");
	for (k = 0; k < n; k++)
		spec_of[k] = sdt_target__spec(t, k);
	err = sdt_rec_specs_add_sites(r, s, specs, nspecs, sdt_target__file(t),
				      sdt_target__sites(t), spec_of, n, sdt_target__types(t));
	free(spec_of);
	return err;
}
