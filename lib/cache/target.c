/* SPDX-License-Identifier: MIT */
/*
 * The target model: struct sdt_target (a binary to probe and its matching sites), its lifecycle.
 * Apart from its two producers, the SDT lookup (resolve.c) and the user probes
 * (userprobe_resolve.c), so that both build on it and neither calls the other for it.
 */
#include <string.h>

#include "cache/cache_internal.h"
#include "scan/file.h"

void sdt_target_release(struct sdt_target *t)
{
	size_t k;

	free(t->path);
	free(t->build_id);
	sdt_file__free(t->file);
	for (k = 0; t->types && k < t->nsites; k++)
		sdt_arg_types__free(t->types[k], t->ntypes[k]);
	free(t->types);
	free(t->ntypes);
	free(t->sites);
	free(t->spec);
	memset(t, 0, sizeof(*t));
}

void sdt_targets_free(struct sdt_target *t, size_t n)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < n; i++)
		sdt_target_release(&t[i]);
	free(t);
}
