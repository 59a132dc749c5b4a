/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: perf's `probes` file (from any cache directory, written by anyone) through the
 * parser. What it keeps must be safe to hand on: SDT entries carry tracefs-valid names, every
 * kept line is one `X:` line without a newline or NUL, and the user entries written back out
 * parse again into the same entries.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/internal.h"
#include "cache/probes_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct sdt_probes *p)
{
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		const struct sdt_probes_entry *e = &p->entries[i];

		if (e->kind != '%' && e->kind != '#')
			__builtin_trap();
		if (strchr(e->header, '\n'))
			__builtin_trap();
		if (e->kind == '%' && (!sdt_valid_event_name(e->provider, SDT_MAX_EVENT_NAME) ||
				       !sdt_valid_event_name(e->event, SDT_MAX_EVENT_NAME)))
			__builtin_trap();
		for (j = 0; j < e->nlines; j++) {
			const char *l = e->lines[j];

			if ((l[0] != 'p' && l[0] != 'r') || l[1] != ':' || strchr(l, '\n'))
				__builtin_trap();
		}
	}
}

static size_t user_entries(const struct sdt_probes *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->n; i++)
		n += p->entries[i].kind == '#';
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sdt_probes p = {0}, again = {0};
	struct sdt_buf out = {0};
	char *copy;

	if (sdt_probes_parse((const char *)data, size, &p) == 0) {
		check(&p);
		if (sdt_probes_render_user(&p, &out) == 0 &&
		    sdt_probes_parse(out.buf ? out.buf : "", out.len, &again) == 0) {
			check(&again);
			if (user_entries(&again) != user_entries(&p) || again.bad_lines)
				__builtin_trap();
		}
	}
	sdt_probes_release(&again);
	sdt_probes_release(&p);
	sdt_buf_free(&out);
	/* the bytes as a path for a uprobe_events line */
	copy = sdt_strndup((const char *)data, size);
	if (copy) {
		if (sdt_probes_path_ok(copy) && strpbrk(copy, " \t\n\r"))
			__builtin_trap();
		free(copy);
	}
	return 0;
}
