/* SPDX-License-Identifier: MIT */
/*
 * sdtrace-test-flamegraph [--title T] [--width N] [--min-width PX] [--events] [--event E]
 *     < folded > svg
 *
 * Folded stacks in (flamegraph.pl's input: "a;b;c 12", one distinct stack a line, root first,
 * the count after the last space), the SVG of cli/flamegraph.c out: the flame graph tested
 * before a recording with stacks exists. --events: the first frame of each line is its event
 * ("provider:name"), as `report --format=folded` writes it; --event E then keeps only E.
 * Prints the layout counters (nodes, drawn, total, depth) on stderr.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph.c"

struct line {
	char *buf;
	const char **frames;
	struct fg_entry e;
};

int main(int argc, char **argv)
{
	static const struct option longopts[] = {{"title", required_argument, NULL, 't'},
						  {"width", required_argument, NULL, 'w'},
						  {"min-width", required_argument, NULL, 'm'},
						  {"events", no_argument, NULL, 'E'},
						  {"event", required_argument, NULL, 'e'},
						  {NULL, 0, NULL, 0}};
	struct fg_opts opts = {0};
	struct fg_stats st;
	struct line *lines = NULL;
	struct fg_entry *entries;
	size_t n = 0, cap = 0, len = 0, lineno = 0;
	char *buf = NULL;
	int events = 0, c, ret;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 't')
			opts.title = optarg;
		else if (c == 'w')
			opts.width = (unsigned)strtoul(optarg, NULL, 10);
		else if (c == 'm')
			opts.min_px = strtod(optarg, NULL);
		else if (c == 'E')
			events = 1;
		else if (c == 'e')
			opts.event = optarg;
		else
			return 2;
	}
	if (opts.event && !events) {
		fprintf(stderr, "sdtrace-test-flamegraph: --event needs --events\n");
		return 2;
	}
	while (getline(&buf, &len, stdin) != -1) {
		char *sp, *end, *p;
		size_t nf = 1;
		struct line *l;

		lineno++;
		buf[strcspn(buf, "\n")] = 0;
		if (!*buf)
			continue;
		sp = strrchr(buf, ' ');
		if (!sp || !sp[1] || (strtoull(sp + 1, &end, 10), *end)) {
			fprintf(stderr, "sdtrace-test-flamegraph: line %zu: no count\n", lineno);
			return 1;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			lines = realloc(lines, sizeof(*lines) * cap);
			if (!lines)
				return 1;
		}
		l = &lines[n++];
		*sp = 0;
		l->e.count = strtoull(sp + 1, NULL, 10);
		l->e.build_ids = NULL; /* folded text has none */
		l->buf = strdup(buf);
		for (p = l->buf; *p; p++)
			nf += *p == ';';
		l->frames = malloc(sizeof(char *) * nf);
		if (!l->buf || !l->frames)
			return 1;
		nf = 0;
		for (p = l->buf;; p++) {
			char *semi = strchr(p, ';');
			l->frames[nf++] = p;
			if (!semi)
				break;
			*semi = 0;
			p = semi;
		}
		l->e.event = NULL;
		if (events) {
			l->e.event = l->frames[0];
			l->e.frames = l->frames + 1;
			l->e.depth = nf - 1;
		} else {
			l->e.frames = l->frames;
			l->e.depth = nf;
		}
	}
	free(buf);
	entries = malloc(sizeof(*entries) * (n ? n : 1));
	if (!entries)
		return 1;
	for (size_t i = 0; i < n; i++)
		entries[i] = lines[i].e;
	ret = flamegraph_write(stdout, entries, n, &opts, &st);
	if (ret) {
		fprintf(stderr, "sdtrace-test-flamegraph: %s\n", strerror(-ret));
		return 1;
	}
	fprintf(stderr, "nodes %zu drawn %zu total %llu depth %zu\n", st.nodes, st.drawn,
		(unsigned long long)st.total, st.max_depth);
	for (size_t i = 0; i < n; i++) {
		free(lines[i].buf);
		free(lines[i].frames);
	}
	free(lines);
	free(entries);
	return 0;
}
