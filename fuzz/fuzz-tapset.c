/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: a SystemTap tapset from memory through the tapset reader (lib/scan/tapset.c). What
 * it hands on must be what the names' users can take: a mark and a provider of [A-Za-z0-9_], a
 * path without control bytes, at most 12 arguments, each name valid for uprobe_events and
 * unique in its probe; every warning names the file and a line, in printable text.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "scan/tapset.h"
#include "sdtrace/sdtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char ident[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_";

static int check_probe(struct sdt_tprobe *p, void *data)
{
	const unsigned char *c;
	unsigned int i, j, top = 0;

	(void)data;
	if (!p->mark || !p->mark[0] || strspn(p->mark, ident) != strlen(p->mark) ||
	    (p->provider && (!p->provider[0] || strspn(p->provider, ident) != strlen(p->provider))))
		__builtin_trap();
	if (!p->path || !p->path[0] || strlen(p->path) > SDT_TAPSET_MAX_STRING)
		__builtin_trap();
	for (c = (const unsigned char *)p->path; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			__builtin_trap();
	if (p->nargs > SDT_TAPSET_MAX_ARGS)
		__builtin_trap();
	for (i = 0; i < SDT_TAPSET_MAX_ARGS; i++) {
		if (!p->args[i].name)
			continue;
		top = i + 1;
		if (!sdt_type__valid_name(p->args[i].name))
			__builtin_trap();
		for (j = 0; j < i; j++)
			if (p->args[j].name && !strcmp(p->args[j].name, p->args[i].name))
				__builtin_trap();
	}
	if (top != p->nargs)
		__builtin_trap();
	sdt_tprobe_free(p);
	return 0;
}

static void check_warning(const char *msg, void *data)
{
	const unsigned char *c;
	unsigned int *n = data;

	if (strncmp(msg, "fuzz.stp:", 9) || msg[9] < '1' || msg[9] > '9')
		__builtin_trap();
	for (c = (const unsigned char *)msg; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			__builtin_trap();
	if (++*n > 11) /* 10, then "the rest is not read" */
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int nwarn = 0;

	sdt_tapset_parse((const char *)data, size, "fuzz.stp", check_probe, check_warning, &nwarn);
	return 0;
}
