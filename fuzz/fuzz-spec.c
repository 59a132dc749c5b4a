/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: an event spec ("[PATH:][%]provider[:event][(name[:type], ...)]") through the spec
 * parser, then matched against a few names and asked for the nearest of them; also the bytes as a
 * bare typed argument list. What is accepted must hold only what a tracefs name or glob may hold,
 * and names uprobe_events can take.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sdtrace/sdtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char pattern_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_*?[]!-";

static void check_types(const struct sdt_arg_type *types, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (types[i].name && !sdt_type__valid_name(types[i].name))
			__builtin_trap();
		if (types[i].kind != SDT_TYPE_DEFAULT && types[i].kind != SDT_TYPE_STRING &&
		    types[i].size != 1 && types[i].size != 2 && types[i].size != 4 &&
		    types[i].size != 8)
			__builtin_trap();
		(void)sdt_type__keyword(&types[i]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[][2] = {
	    {"python", "gc__start"},
	    {"sdt_python", "gc__start"},
	    {"a", "b"},
	    {"", ""},
	};
	static const char *const known[] = {"python:gc__start", "sdt_python:gc__start", "a:b",
					    ":", "x", "p:[!]*?"};
	struct sdt_arg_type *types;
	struct sdt_spec *s;
	char *text, *hint;
	size_t i, n;

	if (size > 8192)
		return 0;
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (sdt_spec__parse(text, &s) == 0) {
		const char *prov = sdt_spec__provider(s), *ev = sdt_spec__event(s);
		const char *path = sdt_spec__path(s);

		if (!prov || !ev || !*prov || !*ev || strspn(prov, pattern_chars) != strlen(prov) ||
		    strspn(ev, pattern_chars) != strlen(ev))
			__builtin_trap();
		if (path && (!*path || strlen(path) >= size))
			__builtin_trap();
		if (sdt_spec__is_glob(s) != (strpbrk(prov, "*?[") || strpbrk(ev, "*?[")))
			__builtin_trap();
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			(void)sdt_spec__match(s, names[i][0], names[i][1]);
		(void)sdt_spec__match(s, prov, ev);
		/* the suggestion's edit distance, on the same names ("did you mean") */
		if (sdt_spec__suggest(s, known, sizeof(known) / sizeof(known[0]), &hint) == 0) {
			if (hint && hint[0] != '%')
				__builtin_trap();
			free(hint);
		}
		n = sdt_spec__type_count(s);
		if (n && !sdt_spec__has_types(s))
			__builtin_trap();
		check_types(sdt_spec__types(s), n);
		if (sdt_spec__type(s, n) != NULL)
			__builtin_trap();
		sdt_spec__free(s);
	}
	if (sdt_arg_types__parse(text, &types, &n) == 0) {
		check_types(types, n);
		sdt_arg_types__free(types, n);
	}
	free(text);
	return 0;
}
