/* SPDX-License-Identifier: MIT */
/*
 * "Did you mean": the nearest names for a spec that matched nothing (sdt_spec__suggest()), for
 * a mistyped command or long option (as git and perf suggest one).
 */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Edit distance with adjacent transpositions ("recrod" is 1 from "record"), capped inputs. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d[33][33];

	if (la > 32 || lb > 32)
		return SIZE_MAX;
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *cli_nearest(const char *word, const char *const *names, size_t n)
{
	size_t i, best = SIZE_MAX, len = strlen(word);
	const char *near = NULL;

	for (i = 0; i < n; i++) {
		size_t d = distance(word, names[i]);

		if (d < best) {
			best = d;
			near = names[i];
		}
	}
	/* as git: close enough to be a typo, not another word */
	return best <= 2 && best < len / 2 + 1 ? near : NULL;
}

/* The global options (cli/main.c), which go before the command. */
static const char *const global_long[] = {"cache-dir", "verbose", "version"};

int cli_bad_option(const char *cmd, int argc, char **argv, const struct option *longopts)
{
	const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : NULL;
	const char *names[128];
	char name[64];
	size_t n = 0, i, len;
	const char *near;

	if (!arg || strncmp(arg, "--", 2) || !arg[2])
		return cli_usage_error(cmd, "bad option");
	len = strcspn(arg + 2, "=");
	if (len >= sizeof(name))
		return cli_usage_error(cmd, "bad option");
	memcpy(name, arg + 2, len);
	name[len] = '\0';
	for (i = 0; i < sizeof(global_long) / sizeof(global_long[0]); i++)
		if (!strcmp(name, global_long[i]))
			return cli_usage_error(cmd,
					       "'--%s' is a global option: put it before the "
					       "command (sdtrace --%s ... %s ...)",
					       name, name, cmd);
	for (i = 0; longopts && longopts[i].name && n < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(name, longopts[i].name))
			return cli_usage_error(cmd, "bad option"); /* a missing argument */
		names[n++] = longopts[i].name;
	}
	near = cli_nearest(name, names, n);
	if (near)
		return cli_usage_error(cmd, "unknown option '--%s'; did you mean '--%s'?", name,
				       near);
	return cli_usage_error(cmd, "bad option");
}
