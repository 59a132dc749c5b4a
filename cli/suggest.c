/* SPDX-License-Identifier: MIT */
/* "Did you mean": the nearest names for a spec that matched nothing (sdt_spec__suggest()). */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "sdtrace/sdtrace.h"

char *cli_hint(const struct sdt_spec *spec, const char *const *names, size_t n)
{
	char *near = NULL, *hint = NULL;

	if (sdt_spec__suggest(spec, names, n, &near) || !near)
		return NULL;
	if (asprintf(&hint, "; did you mean %s?", near) < 0)
		hint = NULL;
	free(near);
	return hint;
}
