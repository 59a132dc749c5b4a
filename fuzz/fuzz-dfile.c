/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: a DTrace provider file from memory through the .d parser into a struct sdt_types,
 * then every declaration looked up for both word sizes and its notes checked (a key of
 * [a-z][a-z0-9_-]*, printable text, the caps); also the input as an event spec's typed
 * argument list. Whatever is accepted must hold only names uprobe_events can take.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scan/dfile.h"
#include "sdtrace/sdtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check_probe(struct sdt_dprobe *p, void *data)
{
	struct sdt_types *t = data;
	struct sdt_arg_type *types;
	size_t n, i;
	unsigned int w;

	/* names must be what tracefs accepts: no newline, no space, no '=' can get through */
	if (strspn(p->provider,
		   "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
		strlen(p->provider) ||
	    strspn(p->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
		strlen(p->name))
		__builtin_trap();
	for (i = 0; i < p->nparams; i++) {
		if (p->params[i].name && !sdt_type__valid_name(p->params[i].name))
			__builtin_trap();
	}
	/* notes: a key of [a-z][a-z0-9_-]*, a printable text, within the caps */
	if (p->nnotes > SDT_DFILE_MAX_NOTES)
		__builtin_trap();
	for (i = 0; i < p->nnotes; i++) {
		const unsigned char *c;

		if (!p->notes[i].key[0] || strlen(p->notes[i].key) > SDT_DFILE_MAX_NOTE_KEY ||
		    strspn(p->notes[i].key, "abcdefghijklmnopqrstuvwxyz0123456789_-") !=
			strlen(p->notes[i].key) ||
		    !p->notes[i].text[0] || strlen(p->notes[i].text) > SDT_DFILE_MAX_NOTE)
			__builtin_trap();
		for (c = (const unsigned char *)p->notes[i].text; *c; c++)
			if (*c < 0x20 || *c == 0x7f)
				__builtin_trap();
		(void)sdt_types__note_text(t, p->provider, p->name, p->notes[i].key);
	}
	for (w = 4; w <= 8; w += 4) {
		if (sdt_types__lookup(t, p->provider, p->name, w, &types, &n, NULL) == 0) {
			for (i = 0; i < n; i++) {
				if (types[i].name && !sdt_type__valid_name(types[i].name))
					__builtin_trap();
				(void)sdt_type__keyword(&types[i]);
			}
			sdt_arg_types__free(types, n);
		}
	}
	sdt_dprobe_free(p);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sdt_arg_type *types;
	struct sdt_types *t;
	char *text;
	size_t n;

	if (sdt_types__new(&t))
		return 0;
	if (sdt_types__load_mem(t, (const char *)data, size, "fuzz.d") >= 0)
		/* parse again, checking each declaration against what was stored */
		sdt_dfile_parse((const char *)data, size, "fuzz.d", check_probe, t);
	sdt_types__free(t);

	/* the same bytes as a typed argument list */
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (sdt_arg_types__parse(text, &types, &n) == 0) {
		for (size_t i = 0; i < n; i++) {
			if (!sdt_type__valid_name(types[i].name))
				__builtin_trap();
		}
		sdt_arg_types__free(types, n);
	}
	free(text);
	return 0;
}
