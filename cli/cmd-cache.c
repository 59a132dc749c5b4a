/* SPDX-License-Identifier: MIT */
/* sdtrace cache: add binaries to the SDT cache (perf's layout), list, remove, purge, update, check.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "fetch.h"
#include "json.h"
#include "sdtrace/sdtrace.h"

static const char cache_usage[] =
    "usage: sdtrace [--cache-dir DIR] cache <subcommand> [options]\n"
    "\n"
    "The SDT cache, shared with perf: ROOT/.build-id/xx/... and ROOT/PATH/BUILD-ID/{elf,probes}\n"
    "(ROOT: --cache-dir, else $SDTRACE_CACHE_DIR, else ~/.debug), plus sdtrace's event index.\n"
    "\n"
    "  add [-r] [-j N] [--no-copy] PATH...   scan files and directories (-r: recursively)\n"
    "  remove PATH|BUILD-ID...                drop the entries of a file or a build-id\n"
    "  list [--json]                          every cached binary and whether it still matches\n"
    "  purge                                  drop entries whose file is gone or changed\n"
    "  update                                 rescan files that changed since they were cached\n"
    "  check [--repair]                       verify every entry and the index; fix them\n"
    "\n"
    "examples:\n"
    "  sdtrace cache add /usr/bin/python3.11\n"
    "  sdtrace cache add -r /usr/lib/postgresql /usr/lib/jvm\n"
    "  sdtrace --cache-dir /tmp/c cache list --json\n"
    "  sdtrace cache check --repair\n"
    "\nSee 'sdtrace cache <subcommand> --help'.\n";

static const char add_usage[] =
    "usage: sdtrace cache add [-r] [-j N] [--no-copy] [--cross-mounts] PATH...\n"
    "       sdtrace cache add --build-id BUILD-ID...\n"
    "\n"
    "Scan ELF files for SDT notes and cache them per build-id (perf's layout). Symlinks are\n"
    "resolved to the real path; non-ELF files are skipped and counted; FIFOs and devices are "
    "never\n"
    "opened; a walk never leaves the given trees through symlinks, never enters virtual\n"
    "filesystems (proc, sysfs, cgroup, tracefs, debugfs...), and stays on the filesystem of\n"
    "each tree given unless --cross-mounts (-v names each directory not walked).\n"
    "\n"
    "  -r, --recursive   walk directories recursively (else only their direct files)\n"
    "      --cross-mounts  walk into other filesystems mounted inside the trees\n"
    "  -j, --jobs N      worker threads (default: the number of CPUs)\n"
    "      --no-copy     do not store the binary as `elf` (perf's probes work without it)\n"
    "      --build-id    the arguments are build-ids: fetch each binary from the debuginfod\n"
    "                    servers of $DEBUGINFOD_URLS and cache it (under the path it had on the\n"
    "                    server when the server says it); no network when DEBUGINFOD_URLS is\n"
    "                    unset; the downloaded file must have the build-id asked for\n"
    "\n"
    "examples:\n"
    "  sdtrace cache add /usr/bin/python3.11\n"
    "  sdtrace cache add -r -j 4 /usr/lib\n"
    "  DEBUGINFOD_URLS=https://debuginfod.debian.net sdtrace cache add --build-id 571d98e0...\n";

static const char remove_usage[] =
    "usage: sdtrace cache remove PATH|BUILD-ID...\n"
    "\n"
    "Remove every entry of PATH (all its cached builds), or the entry of BUILD-ID (the full hex,\n"
    "or a unique prefix of at least 8 digits).\n"
    "\n"
    "examples:\n"
    "  sdtrace cache remove /usr/bin/python3.11\n"
    "  sdtrace cache remove 571d98e0\n";

static const char list_usage[] =
    "usage: sdtrace cache list [--json]\n"
    "\n"
    "Every cached binary: build-id, path, number of SDT events and sites, of user probes\n"
    "(sdtrace probe; --json names them), and its state: ok (the file on disk is the one cached),\n"
    "changed, gone, or broken.\n"
    "\n"
    "examples:\n"
    "  sdtrace cache list\n"
    "  sdtrace cache list --json | python3 -m json.tool\n";

static const char purge_usage[] = "usage: sdtrace cache purge\n"
				  "\n"
				  "Drop the entries whose file is gone or is another build now.\n"
				  "\n"
				  "example:\n"
				  "  sdtrace cache purge\n";

static const char update_usage[] =
    "usage: sdtrace cache update\n"
    "\n"
    "Rescan the files whose size, mtime, inode or build-id changed since they were cached: a new\n"
    "build replaces the old entry.\n"
    "\n"
    "example:\n"
    "  sdtrace cache update\n";

static const char check_usage[] =
    "usage: sdtrace cache check [--repair]\n"
    "\n"
    "Verify every entry (its link, probes file, metadata, leftover temporaries) and the event\n"
    "index. Exit status 1 when a problem was found (and, with --repair, not fixed).\n"
    "\n"
    "  --repair   remove broken links and leftovers, rewrite bad entries, rebuild the index\n"
    "\n"
    "examples:\n"
    "  sdtrace cache check\n"
    "  sdtrace cache check --repair\n";

/* @no_create: a subcommand that only looks creates nothing (a missing cache is an empty one). */
static int open_cache(struct sdt_cache **c, bool no_copy, bool no_create)
{
	SDT_OPTS(sdt_cache_opts, o, .no_copy = no_copy, .no_create = no_create);

	const char *su = getenv("SUDO_USER");
	struct stat st;

	if (sdt_cache__open(cli.cache_dir, &o, c)) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	/*
	 * sudo: the cache is root's (HOME=/root), which the user's own `sdtrace list` never reads.
	 * Root writing into the user's cache would leave root-owned files there: say it instead.
	 */
	if (su && *su && strcmp(su, "root") && geteuid() == 0 && !stat(sdt_cache__root(*c), &st) &&
	    st.st_uid == 0)
		cli_warn("using root's cache '%s', not the cache of '%s' (who ran sudo); "
			 "--cache-dir DIR chooses another",
			 sdt_cache__root(*c), su);
	return 0;
}

/* Parse the options common to the simple subcommands: --help and the given flag. */
static int simple_opts(int argc, char **argv, const char *usage, const char *flag, bool *set)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage, stdout);
			return -1;
		}
		if (flag && !strcmp(argv[i], flag)) {
			*set = true;
			continue;
		}
		return cli_usage_error("cache", "%s: unexpected argument '%s'", argv[0], argv[i]);
	}
	return 0;
}

/* ---- add ---------------------------------------------------------------------------------- */

struct progress {
	bool tty;
	struct timespec last;
	bool shown;
};

static void on_progress(const struct sdt_cache_summary *s, const char *path, void *ctx)
{
	struct progress *p = ctx;
	struct timespec now;

	(void)path;
	if (!p->tty)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if ((now.tv_sec - p->last.tv_sec) * 1000000000L + (now.tv_nsec - p->last.tv_nsec) <
	    100000000L)
		return;
	p->last = now;
	p->shown = true;
	fprintf(stderr, "\r%zu files, %zu ELF, %zu with SDT notes, %zu added, %zu errors ", s->seen,
		s->elf, s->with_sdt, s->added, s->errors);
}

static void on_error(const char *path, int err, const char *msg, void *ctx)
{
	struct progress *p = ctx;

	(void)path;
	(void)err;
	if (p->shown) {
		fputc('\n', stderr);
		p->shown = false;
	}
	cli_error("%s", msg);
}

static int cache_add(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"recursive", no_argument, NULL, 'r'},
	    {"jobs", required_argument, NULL, 'j'},
	    {"no-copy", no_argument, NULL, 'N'},
	    {"build-id", no_argument, NULL, 'B'},
	    {"cross-mounts", no_argument, NULL, 'X'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct progress prog = {.tty = isatty(2)};
	SDT_OPTS(sdt_cache_add_opts, ao, .progress = on_progress, .error = on_error, .ctx = &prog);
	struct sdt_cache_summary s;
	struct sdt_cache *c;
	bool no_copy = false, by_build_id = false;
	char *end;
	long jobs;
	int opt, ret, i;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+rj:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			ao.recursive = true;
			break;
		case 'j':
			jobs = strtol(optarg, &end, 10);
			if (*end || jobs < 1 || jobs > 1024)
				return cli_usage_error("cache", "'%s' is not a number of jobs",
						       optarg);
			ao.workers = (unsigned int)jobs;
			break;
		case 'N':
			no_copy = true;
			break;
		case 'X':
			ao.cross_mounts = true;
			break;
		case 'B':
			by_build_id = true;
			break;
		case 'h':
			fputs(add_usage, stdout);
			return 0;
		default:
			return cli_bad_option("cache", argc, argv, longopts);
		}
	}
	if (optind >= argc)
		return cli_usage_error("cache", "add: name at least one file or directory");
	ret = open_cache(&c, no_copy, false);
	if (ret)
		return ret;
	if (by_build_id) {
		for (i = optind; i < argc; i++) {
			if (cli_fetch_to_cache(c, argv[i]))
				ret = EXIT_RUNTIME;
		}
		sdt_cache__free(c);
		return ret;
	}
	ret = sdt_cache__add_paths(c, (const char *const *)argv + optind, (size_t)(argc - optind),
				   &ao, &s);
	if (prog.shown)
		fputc('\n', stderr);
	if (ret) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
	} else {
		printf("%zu files seen, %zu ELF, %zu with SDT notes, %zu added, %zu unchanged, "
		       "%zu not ELF, %zu skipped (not regular files), %zu errors\n",
		       s.seen, s.elf, s.with_sdt, s.added, s.unchanged, s.not_elf, s.skipped,
		       s.errors);
		if (s.no_build_id)
			cli_warn(
			    "%zu ELF %s with SDT notes but no build-id: not cached (the cache is "
			    "keyed by build-id; name such a file with -x)",
			    s.no_build_id, s.no_build_id == 1 ? "file" : "files");
		ret = s.errors ? EXIT_RUNTIME : 0;
	}
	sdt_cache__free(c);
	return ret;
}

/* ---- the others --------------------------------------------------------------------------- */

static int cache_remove(int argc, char **argv)
{
	struct sdt_cache *c;
	int i, ret = 0, n;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(remove_usage, stdout);
			return 0;
		}
	}
	if (argc < 2)
		return cli_usage_error("cache", "remove: name a file or a build-id");
	ret = open_cache(&c, false, false);
	if (ret)
		return ret;
	for (i = 1; i < argc; i++) {
		n = sdt_cache__remove(c, argv[i]);
		if (n < 0) {
			cli_error("%s", sdt_errmsg());
			ret = EXIT_RUNTIME;
		} else if (!n) {
			cli_error("'%s' is not in the cache '%s'", argv[i], sdt_cache__root(c));
			ret = EXIT_RUNTIME;
		} else {
			printf("removed %d %s of '%s'\n", n, n == 1 ? "entry" : "entries", argv[i]);
		}
	}
	sdt_cache__free(c);
	return ret;
}

static const char *state_name(enum sdt_entry_state s)
{
	switch (s) {
	case SDT_ENTRY_OK:
		return "ok";
	case SDT_ENTRY_CHANGED:
		return "changed";
	case SDT_ENTRY_GONE:
		return "gone";
	case SDT_ENTRY_BROKEN:
		return "broken";
	}
	return "?";
}

static int cache_list(int argc, char **argv)
{
	struct sdt_cache_entries *l;
	struct sdt_cache *c;
	bool json = false;
	struct json j;
	size_t i, k;
	int ret;

	ret = simple_opts(argc, argv, list_usage, "--json", &json);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = open_cache(&c, false, true);
	if (ret)
		return ret;
	if (sdt_cache__entries(c, &l)) {
		cli_error("%s", sdt_errmsg());
		sdt_cache__free(c);
		return EXIT_RUNTIME;
	}
	if (json) {
		json_init(&j, stdout, false);
		json_begin_array(&j);
	}
	for (i = 0; i < sdt_cache_entries__count(l); i++) {
		const struct sdt_cache_entry *e = sdt_cache_entries__entry(l, i);
		enum sdt_entry_state st = sdt_cache_entry__state(e);

		if (json) {
			json_begin_object(&j);
			json_key(&j, "build_id");
			json_string(&j, sdt_cache_entry__build_id(e));
			json_key(&j, "path");
			json_string(&j, sdt_cache_entry__path(e));
			json_key(&j, "events");
			json_uint(&j, sdt_cache_entry__event_count(e));
			json_key(&j, "sites");
			json_uint(&j, sdt_cache_entry__site_count(e));
			json_key(&j, "state");
			json_string(&j, state_name(st));
			json_key(&j, "matches");
			json_bool(&j, st == SDT_ENTRY_OK);
			json_key(&j, "written_by");
			json_string(&j, sdt_cache_entry__ours(e) ? "sdtrace" : "perf");
			json_key(&j, "user_probes");
			json_begin_array(&j);
			for (k = 0; k < sdt_cache_entry__probe_count(e); k++)
				json_string(&j, sdt_cache_entry__probe(e, k));
			json_end_array(&j);
			json_end_object(&j);
			continue;
		}
		printf("%s %-8s %4zu events %4zu sites %3zu probes  ", sdt_cache_entry__build_id(e),
		       state_name(st), sdt_cache_entry__event_count(e),
		       sdt_cache_entry__site_count(e), sdt_cache_entry__probe_count(e));
		cli_put_escaped(stdout, sdt_cache_entry__path(e));
		putchar('\n');
	}
	if (json) {
		json_end_array(&j);
		json_newline(&j);
	}
	sdt_cache_entries__free(l);
	sdt_cache__free(c);
	return 0;
}

static void print_report(const char *msg, void *ctx)
{
	(void)ctx;
	puts(msg);
}

static int cache_maint(int argc, char **argv, const char *usage, int which)
{
	struct sdt_cache *c;
	bool repair = false;
	int ret, n;

	ret = simple_opts(argc, argv, usage, which == 2 ? "--repair" : NULL, &repair);
	if (ret)
		return ret < 0 ? 0 : ret;
	ret = open_cache(&c, false, which == 2 && !repair);
	if (ret)
		return ret;
	if (which == 0)
		n = sdt_cache__purge(c, print_report, NULL);
	else if (which == 1)
		n = sdt_cache__update(c, print_report, NULL);
	else
		n = sdt_cache__check(c, repair, print_report, NULL);
	if (n < 0) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
	} else if (which == 0) {
		printf("%d %s removed\n", n, n == 1 ? "entry" : "entries");
	} else if (which == 1) {
		printf("%d %s rescanned\n", n, n == 1 ? "file" : "files");
	} else {
		printf("%d %s%s\n", n, n == 1 ? "problem" : "problems",
		       n && repair ? " found and repaired" : " found");
		if (n && repair && sdt_cache__check(c, false, NULL, NULL) != 0) {
			cli_error("'%s': problems remain after the repair", sdt_cache__root(c));
			ret = EXIT_RUNTIME;
		} else if (n && !repair) {
			ret = EXIT_RUNTIME;
		}
	}
	sdt_cache__free(c);
	return ret;
}

int cmd_cache(int argc, char **argv)
{
	const char *sub;

	if (argc < 2) {
		fputs(cache_usage, stderr);
		return EXIT_USAGE;
	}
	sub = argv[1];
	if (!strcmp(sub, "-h") || !strcmp(sub, "--help") || !strcmp(sub, "help")) {
		fputs(cache_usage, stdout);
		return 0;
	}
	argc--;
	argv++;
	if (!strcmp(sub, "add"))
		return cache_add(argc, argv);
	if (!strcmp(sub, "remove") || !strcmp(sub, "rm"))
		return cache_remove(argc, argv);
	if (!strcmp(sub, "list") || !strcmp(sub, "ls"))
		return cache_list(argc, argv);
	if (!strcmp(sub, "purge"))
		return cache_maint(argc, argv, purge_usage, 0);
	if (!strcmp(sub, "update"))
		return cache_maint(argc, argv, update_usage, 1);
	if (!strcmp(sub, "check"))
		return cache_maint(argc, argv, check_usage, 2);
	return cli_usage_error("cache", "'%s' is not a cache subcommand", sub);
}
