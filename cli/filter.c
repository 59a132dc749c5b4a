/* SPDX-License-Identifier: MIT */
/* --filter: see filter.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "filter.h"

int cli_filter_parse(const char *cmd, const char *expr, struct sdt_filter **out)
{
	size_t col = 0, i;
	int err = sdt_filter__parse(expr, out, &col);

	if (!err)
		return 0;
	if (err != -EINVAL) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	fprintf(stderr, "sdtrace %s: %s\n  ", cmd, sdt_errmsg());
	cli_put_escaped(stderr, expr);
	fputs("\n  ", stderr);
	/* the caret under the column, as long as the text has no bytes that print wider */
	for (i = 1; i < col; i++)
		fputc(expr[i - 1] == '\t' ? '\t' : ' ', stderr);
	fputs("^\n", stderr);
	fprintf(stderr, "see 'sdtrace %s --help' (FILTERS in sdtrace-%s(1))\n", cmd, cmd);
	return EXIT_USAGE;
}

/* Warnings beyond this many kinds are summed up in one line. */
#define FILTER_WARN_MAX 10

int cli_filter_check_kinds(const char *cmd, const struct sdt_filter *f,
			   const struct sdt_trace_reader *r, bool follow)
{
	const struct sdt_trace_kind *warned[FILTER_WARN_MAX];
	size_t n = sdt_trace_reader__kind_count(r), i, w, nwarned = 0, more = 0, ok = 0;

	for (i = 0; i < n; i++) {
		const struct sdt_trace_kind *k = sdt_trace_reader__kind(r, i);

		if (!sdt_filter__check_desc(f, sdt_trace_kind__desc(k))) {
			ok++;
			continue;
		}
		/* one line per provider:event, however many tracefs events it took */
		for (w = 0; w < nwarned; w++)
			if (!strcmp(sdt_trace_event_desc__provider(sdt_trace_kind__desc(warned[w])),
				    sdt_trace_event_desc__provider(sdt_trace_kind__desc(k))) &&
			    !strcmp(sdt_trace_event_desc__name(sdt_trace_kind__desc(warned[w])),
				    sdt_trace_event_desc__name(sdt_trace_kind__desc(k))))
				break;
		if (w < nwarned)
			continue;
		if (nwarned == FILTER_WARN_MAX) {
			more++;
			continue;
		}
		warned[nwarned++] = k;
		cli_warn("%s: %s", sdt_errmsg(),
			 follow ? "its events follow the other event of their pair"
				: "its events were left out");
	}
	if (more)
		cli_warn("%zu more event kinds lack what the filter uses", more);
	if (n && !ok) {
		fprintf(stderr,
			"sdtrace %s: error: no event of the recording has what the filter uses\n",
			cmd);
		return EXIT_USAGE;
	}
	return 0;
}
