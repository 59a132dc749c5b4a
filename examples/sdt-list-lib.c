/* SPDX-License-Identifier: MIT */
/*
 * sdt-list-lib: libsdtrace end to end, as a program outside the project uses it.
 *
 *	sdt-list-lib FILE [SPEC]
 *
 * 1. Scan FILE and print every SDT site with its arguments: the spec in the note and the uprobe
 *    fetcharg it becomes (or why it cannot be fetched).
 * 2. Add FILE to a cache in a temporary directory, resolve SPEC (default: every event of FILE's
 *    first provider) through the cache's event index, and print the binaries and sites found.
 * 3. Write a recording there of an event of its own (a description built by hand, two samples
 *    packed from values), read it back and print the decoded values:
 *	recording TMP/example.data (sdt-list-lib):
 *	  sdt_list_lib:tick tid 1001 n=-5 word="hello"
 *	  sdt_list_lib:tick tid 1002 n=42 word="world"
 *	  2 events of 1 kind(s), complete, exit status 0
 *    The temporary directory is removed at the end.
 *
 * Build against an installed libsdtrace:
 *	cc -o sdt-list-lib sdt-list-lib.c $(pkg-config --cflags --libs libsdtrace)
 *	cc -o sdt-list-lib sdt-list-lib.c $(pkg-config --cflags --static --libs libsdtrace)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf, nftw */
#endif
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sdtrace/sdtrace.h>

static int print_sites(const struct sdt_file *f)
{
	size_t i, j;

	printf("%s: %zu sites, %s, build-id %s\n", sdt_file__path(f), sdt_file__site_count(f),
	       sdt_file__arch_name(f), sdt_file__build_id(f) ? sdt_file__build_id(f) : "none");
	for (i = 0; i < sdt_file__site_count(f); i++) {
		const struct sdt_site *s = sdt_file__site(f, i);

		printf("%%%s:%s address 0x%" PRIx64 " offset 0x%" PRIx64, sdt_site__provider(s),
		       sdt_site__name(s), sdt_site__address(s), sdt_site__file_offset(s));
		if (sdt_site__has_semaphore(s))
			printf(" semaphore 0x%" PRIx64, sdt_site__semaphore(s));
		putchar('\n');
		for (j = 0; j < sdt_site__arg_count(s); j++) {
			const struct sdt_arg *a = sdt_site__arg(s, j);

			if (sdt_arg__fetch(a))
				printf("  arg%zu: %s -> %s\n", j + 1, sdt_arg__spec(a),
				       sdt_arg__fetch(a));
			else
				printf("  arg%zu: %s (unavailable: %s)\n", j + 1, sdt_arg__spec(a),
				       sdt_arg__unavailable(a));
		}
	}
	/* notes the scan skipped (malformed, or names tracefs would not take) */
	for (i = 0; i < sdt_file__diag_count(f); i++)
		fprintf(stderr, "sdt-list-lib: warning: %s\n", sdt_file__diag(f, i));
	return 0;
}

/* Resolve @spec_text through a cache at @root that holds @path; print what it finds. */
static int resolve_in_cache(const char *root, const char *path, const char *spec_text)
{
	SDT_OPTS(sdt_cache_opts, co, .no_copy = true);
	SDT_OPTS(sdt_resolve_opts, ro, .all_matches = true);
	struct sdt_cache *c = NULL;
	struct sdt_spec *spec = NULL;
	struct sdt_targets *t = NULL;
	enum sdt_cache_result res;
	size_t i, j;
	int err;

	err = sdt_cache__open(root, &co, &c);
	if (!err)
		err = sdt_cache__add(c, path, &res);
	if (!err && res != SDT_CACHE_ADDED && res != SDT_CACHE_UNCHANGED) {
		fprintf(stderr, "sdt-list-lib: '%s' was not cached (result %d)\n", path, (int)res);
		err = -1;
		goto out;
	}
	if (!err)
		err = sdt_spec__parse(spec_text, &spec);
	if (!err)
		err = sdt_cache__resolve(c, &spec, 1, &ro, &t);
	if (err) {
		fprintf(stderr, "sdt-list-lib: %s\n", sdt_errmsg());
		goto out;
	}
	printf("'%s' in the cache %s: %zu binaries\n", spec_text, sdt_cache__root(c),
	       sdt_targets__count(t));
	for (i = 0; i < sdt_targets__count(t); i++) {
		const struct sdt_target *x = sdt_targets__target(t, i);
		const char *bid = sdt_target__build_id(x);

		printf("%s (%s): %zu sites\n", sdt_target__path(x), bid ? bid : "none",
		       sdt_target__site_count(x));
		for (j = 0; j < sdt_target__site_count(x); j++) {
			const struct sdt_site *s = sdt_target__site(x, j);

			printf("  %%%s:%s offset 0x%" PRIx64 "\n", sdt_site__provider(s),
			       sdt_site__name(s), sdt_site__file_offset(s));
		}
	}
out:
	sdt_targets__free(t);
	sdt_spec__free(spec);
	sdt_cache__free(c);
	return err ? -1 : 0;
}

/* A recording of two events of one kind, written through the public writer. */
static int write_recording(const char *path)
{
	static const char *const words[] = {"hello", "world"};
	static const int ns[] = {-5, 42};
	SDT_OPTS(sdt_trace_writer_opts, wo, .cmdline = "sdt-list-lib");
	struct sdt_arg_type tn = {.name = (char *)"n", .kind = SDT_TYPE_DEFAULT};
	struct sdt_arg_type tw = {.name = (char *)"word", .kind = SDT_TYPE_STRING};
	struct sdt_trace_event_desc *d = NULL;
	struct sdt_trace_writer *w = NULL;
	unsigned char raw[256];
	int err, size, i;

	err = sdt_trace_writer__open(path, &wo, &w);
	if (!err)
		err = sdt_trace_event_desc__new(0, "sdt_list_lib", "tick", NULL, &d);
	if (!err)
		err = sdt_trace_event_desc__add_arg(d, "-4@%edi", &tn);
	if (!err)
		err = sdt_trace_event_desc__add_arg(d, "8@%rsi", &tw);
	if (!err)
		err = sdt_trace_writer__event(w, d);
	for (i = 0; !err && i < 2; i++) {
		struct sdt_trace_value v[2] = {
		    {.kind = SDT_VALUE_INT, .i = ns[i]},
		    {.kind = SDT_VALUE_STRING, .str = words[i], .len = strlen(words[i])},
		};
		struct sdt_trace_sample smp = {.time_ns = 1000 + (uint64_t)i, .pid = 1001,
					       .tid = 1001 + (uint32_t)i, .event = 0, .raw = raw};

		size = sdt_trace_event_desc__pack(d, 0, v, 2, raw, sizeof(raw));
		err = size < 0 ? size : 0;
		smp.raw_size = (uint32_t)size;
		if (!err)
			err = sdt_trace_writer__sample(w, &smp);
	}
	if (!err) {
		err = sdt_trace_writer__finish(w, 0);
		w = NULL;
	}
	if (err)
		fprintf(stderr, "sdt-list-lib: %s\n", sdt_errmsg());
	sdt_trace_writer__free(w);
	sdt_trace_event_desc__free(d);
	return err ? -1 : 0;
}

/* One decoded value, as `sdtrace report` would show it (simplified). */
static void print_value(const struct sdt_trace_value *v)
{
	switch (v->kind) {
	case SDT_VALUE_INT:
		printf("%" PRId64, v->i);
		break;
	case SDT_VALUE_UINT:
		printf("%" PRIu64, v->u);
		break;
	case SDT_VALUE_FLOAT:
		printf("%g", v->f);
		break;
	case SDT_VALUE_STRING:
		printf("\"%s\"", v->str);
		break;
	default:
		printf("<unavailable: %s>", v->unavailable);
	}
}

/* Read the recording at @path back through the public reader; print every event. */
static int read_recording(const char *path)
{
	const struct sdt_trace_event *ev;
	struct sdt_trace_reader *r;
	struct sdt_trace_value v;
	int err, status = -1;
	size_t i;

	if (sdt_trace_reader__open(path, NULL, &r) < 0) {
		fprintf(stderr, "sdt-list-lib: %s\n", sdt_errmsg());
		return -1;
	}
	printf("recording %s (%s):\n", sdt_trace_reader__path(r), sdt_trace_reader__cmdline(r));
	while ((err = sdt_trace_reader__next(r, &ev)) > 0) {
		const struct sdt_trace_kind *k = sdt_trace_event__kind(ev);

		printf("  %s:%s tid %u", sdt_trace_event__provider(ev), sdt_trace_event__name(ev),
		       sdt_trace_event__tid(ev));
		for (i = 0; i < sdt_trace_event__arg_count(ev); i++) {
			sdt_trace_event__arg(ev, i, &v);
			printf(" %s=", sdt_trace_event_desc__arg_name(sdt_trace_kind__desc(k), i));
			print_value(&v);
		}
		putchar('\n');
	}
	if (err < 0)
		fprintf(stderr, "sdt-list-lib: %s\n", sdt_errmsg());
	else
		sdt_trace_reader__exit_status(r, &status);
	printf("  %llu events of %zu kind(s), %s, exit status %d\n",
	       (unsigned long long)sdt_trace_reader__sample_count(r),
	       sdt_trace_reader__kind_count(r),
	       sdt_trace_reader__truncated(r) ? "truncated" : "complete", status);
	sdt_trace_reader__free(r);
	return err < 0 ? -1 : 0;
}

/* Step 3, in the directory @root: a recording of one's own, written and read back. */
static int recording_roundtrip(const char *root)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/example.data", root);
	return write_recording(path) || read_recording(path) ? -1 : 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int main(int argc, char **argv)
{
	char root[] = "/tmp/sdt-list-lib.XXXXXX";
	struct sdt_file *f = NULL;
	char *spec = NULL;
	int ret = 1;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: sdt-list-lib FILE [SPEC]   (libsdtrace %s)\n",
			sdt_version());
		return 2;
	}
	if (sdt_file__open(argv[1], NULL, &f) < 0) {
		fprintf(stderr, "sdt-list-lib: %s\n", sdt_errmsg());
		return 1;
	}
	print_sites(f);
	if (argc == 3) {
		spec = strdup(argv[2]);
	} else if (sdt_file__site_count(f) > 0) {
		const struct sdt_site *s = sdt_file__site(f, 0);

		if (asprintf(&spec, "%%%s:*", sdt_site__provider(s)) < 0)
			spec = NULL;
	} else {
		ret = 0; /* no probes: nothing to look up */
		goto out;
	}
	if (!spec) {
		fprintf(stderr, "sdt-list-lib: out of memory\n");
		goto out;
	}
	if (!mkdtemp(root)) {
		perror("sdt-list-lib: mkdtemp");
		goto out;
	}
	ret = resolve_in_cache(root, argv[1], spec) || recording_roundtrip(root) ? 1 : 0;
	if (nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS))
		perror("sdt-list-lib: removing the temporary directory");
out:
	free(spec);
	sdt_file__free(f);
	return ret;
}
