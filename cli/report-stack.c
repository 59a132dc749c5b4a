/* SPDX-License-Identifier: MIT */
/*
 * The user stacks of a recording made with record -g (include/sdtrace/stack.h):
 *   report -g                  each event's text line, then its frames, leaf first:
 *                              "\t<ip hex> <sym>+0x<off> (<path>)", as perf script -g prints;
 *   report --format=folded     "provider:event;root;...;leaf COUNT" per distinct stack, sorted;
 *   report --format=flamegraph the same stacks drawn by cli/flamegraph.c (one SVG).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "event-print.h"
#include "flamegraph.h"
#include "report.h"
#include "sdtrace/sdtrace.h"

/*
 * Where the symbolizer looks for the mapped files: the cache of --cache-dir (else its default),
 * the debug directories of $SDTRACE_DEBUG_DIR (else /usr/lib/debug), as list and record do.
 */
struct sdt_symbolizer_opts report_symbolizer_opts(void)
{
	struct sdt_symbolizer_opts o = {.sz = sizeof(o)};

	o.cache_dir = cli.cache_dir;
	o.debug_dir = getenv("SDTRACE_DEBUG_DIR");
	return o;
}

static int read_folded(struct sdt_trace_reader *r, struct sdt_folded **f)
{
	struct sdt_symbolizer_opts so = report_symbolizer_opts();
	struct sdt_folded_opts fo = {.sz = sizeof(fo), .symbolizer = &so};
	int err = sdt_folded__read(r, &fo, f);

	if (err) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	return 0;
}

int report_folded(struct sdt_trace_reader *r, FILE *out)
{
	struct sdt_folded_entry e;
	struct sdt_folded *f;
	size_t i, j;
	int ret = read_folded(r, &f);

	if (ret)
		return ret;
	for (i = 0; i < sdt_folded__count(f) && !ferror(out); i++) {
		sdt_folded__entry(f, i, &e);
		/* no name can split the line or add a frame: ';' and line breaks escaped */
		sdt_fput_escaped(out, e.event, strlen(e.event), SDT_ESC_FOLDED);
		for (j = 0; j < e.depth; j++) {
			fputc(';', out);
			sdt_fput_escaped(out, e.frames[j], strlen(e.frames[j]), SDT_ESC_FOLDED);
		}
		fprintf(out, " %" PRIu64 "\n", e.count);
	}
	sdt_folded__free(f);
	return 0;
}

int report_flamegraph(struct sdt_trace_reader *r, const char *title, FILE *out)
{
	struct sdt_folded_entry e;
	struct fg_entry *fe;
	struct sdt_folded *f;
	size_t i, n;
	int ret = read_folded(r, &f), err;

	if (ret)
		return ret;
	n = sdt_folded__count(f);
	fe = calloc(n ? n : 1, sizeof(*fe));
	if (!fe) {
		sdt_folded__free(f);
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	for (i = 0; i < n; i++) {
		sdt_folded__entry(f, i, &e);
		fe[i] = (struct fg_entry){e.event, e.frames, e.depth, e.count,
					  sdt_folded__build_ids(f, i)};
	}
	struct fg_opts fo = {.title = title};

	err = flamegraph_write(out, fe, n, &fo, NULL);
	free(fe);
	sdt_folded__free(f);
	if (err == -ENOMEM) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	return 0; /* -EIO: the caller's check of the output says why */
}

int report_stacks_text(struct sdt_trace_reader *r)
{
	const struct sdt_trace_event *ev;
	struct sdt_symbolizer_opts so = report_symbolizer_opts();
	struct sdt_symbolizer *s;
	const struct sdt_frame *fr;
	int err, n, i, ret = 0;

	if (sdt_symbolizer__new(r, &so, &s)) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	while ((err = sdt_trace_reader__next(r, &ev)) > 0) {
		print_event_text(ev);
		n = sdt_symbolizer__frames(s, ev, &fr);
		if (n < 0) {
			err = n;
			break;
		}
		for (i = 0; i < n; i++) {
			printf("\t%16" PRIx64 " ", fr[i].ip);
			cli_put_escaped(stdout, fr[i].name);
			if (fr[i].sym && !fr[i].inlined)
				printf("+0x%" PRIx64, fr[i].sym_off);
			else if (fr[i].inlined)
				fputs(" (inlined)", stdout);
			fputs(" (", stdout);
			cli_put_escaped(stdout, fr[i].path ? fr[i].path : "unknown");
			fputs(")\n", stdout);
		}
		if (n > 0)
			putchar('\n');
		if (ferror(stdout))
			break;
	}
	if (err < 0) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
	}
	if (!ret && !sdt_trace_reader__has_stacks(r))
		cli_warn("the recording has no stacks: record it with -g");
	sdt_symbolizer__free(s);
	return ret;
}
