/* SPDX-License-Identifier: MIT */
/* sdtrace list: the SDT probes of files (-x), of a running process (-p), or of the cache. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "fetch.h"
#include "list.h"
#include "names.h"
#include "sdtrace/find.h"
#include "sdtrace/sdtrace.h"

static const char list_usage[] =
	"usage: sdtrace list -x PATH [-x PATH]... [-v] [--json] [PATTERN]...\n"
	"       sdtrace list -p PID [-v] [--json] [PATTERN]...\n"
	"       sdtrace list --build-id BUILD-ID [-v] [--json] [PATTERN]...\n"
	"       sdtrace list [-v] [--json] [PATTERN]...     (the files of the cache)\n"
	"\n"
	"List SDT probes: one line per provider:event, written as it can be given back to -e.\n"
	"\n"
	"  -x, --exec PATH   the probes of this ELF file (repeatable); a bare NAME is searched in\n"
	"                    the current directory, $PATH, the ld.so cache, /lib, /usr/lib and\n"
	"                    the library trees (/usr/lib, /opt, ...: libjvm.so)\n"
	"      --build-id ID the probes of the binary with this build-id: from the cache, else\n"
	"                    fetched from the debuginfod servers of $DEBUGINFOD_URLS (repeatable)\n"
	"  -p, --pid PID     the probes of every ELF file the process runs (its executable and\n"
	"                    libraries, those it is about to load too, read through\n"
	"                    /proc/PID/root): the files record/stat/trace -p look events up in\n"
	"  -v, --verbose     also every site (address, file offset, semaphore) and argument\n"
	"                    (spec -> uprobe fetcharg, or why it cannot be fetched), with the\n"
	"                    names and types that will be used\n"
	"      --types FILE  provider type file (DTrace .d) or directory of them, before\n"
	"                    ~/.config/sdtrace/providers and the shipped ones (repeatable)\n"
	"      --json        a JSON array with one object per site\n"
	"  PATTERN           [PATH:][%]provider[:event] with shell globs: %python:*, '*:gc__*',\n"
	"                    '/usr/lib/jvm/*/libjvm.so:%hotspot:*' (a glob for the binary too),\n"
	"                    sdt_python:gc__start (perf's form); typed: '%python:line(file:string)'\n"
	"\n"
	"A pattern that matches nothing is said on stderr, with the nearest names (\"did you mean\").\n"
	"The cache is only read: a missing one is empty, and nothing is created in it.\n"
	"Exit status: 0 something was listed, 1 nothing matched, 2 an error (usage errors too).\n"
	"\n"
	"examples:\n"
	"  sdtrace list -x /usr/bin/python3.11              every probe of python\n"
	"  sdtrace list -x /usr/bin/python3.11 -v '%python:gc__*'\n"
	"  sdtrace list -p $(pidof postgres | cut -d' ' -f1) '%postgresql:query__*'\n"
	"  sdtrace list -x libstdc++.so.6                   a bare name: from the current directory,\n"
	"                                                   $PATH, the ld.so cache, /lib, /usr/lib\n"
	"  sdtrace list -x libjvm.so --json                 or the library trees: the JDK of $PATH's\n"
	"                                                   java, one JSON object per site\n";

/*
 * The path to list for @name (-x or a pattern's binary) into *@path: @name itself when it has a
 * '/', else the file found for it (kept in o->found). -1 after the error was printed.
 */
static int find_path(struct list_opts *o, const char *name, const char **path)
{
	char *full;

	*path = name;
	if (strchr(name, '/'))
		return 0;
	if (cli_find_binary(name, &full))
		return -1;
	o->found[o->nfound++] = full;
	*path = full;
	return 0;
}

/* Keep "provider:event" of every site of @f, for "did you mean" (a failure only loses it). */
static void keep_names(struct list_opts *o, const struct sdt_file *f)
{
	size_t i, n = sdt_file__site_count(f);
	char **v;

	for (i = 0; i < n; i++) {
		const struct sdt_site *s = sdt_file__site(f, i);

		if (o->nnames == o->names_cap) {
			o->names_cap = o->names_cap ? 2 * o->names_cap : 64;
			v = realloc(o->names, o->names_cap * sizeof(*v));
			if (!v)
				return;
			o->names = v;
		}
		if (asprintf(&o->names[o->nnames], "%s:%s", sdt_site__provider(s),
			     sdt_site__name(s)) < 0)
			return;
		o->nnames++;
	}
}

/* Add @path to @paths unless it is there already (-x P and a pattern P:%prov:ev list P once). */
static void add_path(const char **paths, size_t *npaths, const char *path)
{
	size_t i;

	for (i = 0; i < *npaths; i++) {
		if (!strcmp(paths[i], path))
			return;
	}
	paths[(*npaths)++] = path;
}

static const struct sdt_file *sort_file;

static int cmp_site_index(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct sdt_site *x = sdt_file__site(sort_file, a), *y = sdt_file__site(sort_file, b);
	int c = strcmp(sdt_site__provider(x), sdt_site__provider(y));

	if (!c)
		c = strcmp(sdt_site__name(x), sdt_site__name(y));
	if (!c)
		c = a < b ? -1 : a > b;
	return c;
}

/* Print one scanned file's matching probes; @shown is the path as the user knows it. */
static int list_file(struct list_opts *o, const struct sdt_file *f, const char *shown)
{
	size_t n = sdt_file__site_count(f), i, *idx, site_no = 0;
	const struct sdt_site *prev = NULL;

	idx = calloc(n ? n : 1, sizeof(*idx));
	if (!idx) {
		cli_error("out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		idx[i] = i;
	sort_file = f;
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(idx, n, sizeof(*idx), cmp_site_index);

	for (i = 0; i < n; i++) {
		const struct sdt_site *s = sdt_file__site(f, idx[i]);

		struct list_site ls = {.path = shown, .build_id = sdt_file__build_id(f), .f = f, .s = s};

		if (!list_wanted(o, sdt_site__provider(s), sdt_site__name(s), shown))
			continue;
		if (o->json) {
			list_site_json(o, &ls);
			o->listed++;
			continue;
		}
		if (!prev || strcmp(sdt_site__provider(prev), sdt_site__provider(s)) ||
		    strcmp(sdt_site__name(prev), sdt_site__name(s))) {
			o->listed++;
			cli_put_escaped(stdout, shown);
			printf(":%%%s:%s\n", sdt_site__provider(s), sdt_site__name(s));
			if (o->verbose)
				list_probe_notes(o, sdt_site__provider(s), sdt_site__name(s));
			site_no = 0;
		}
		if (o->verbose)
			list_site_text(o, &ls, ++site_no);
		prev = s;
	}
	free(idx);
	return 0;
}

static void report_diags(struct list_opts *o, const struct sdt_file *f, const char *shown)
{
	size_t i;

	for (i = 0; i < sdt_file__diag_count(f); i++) {
		cli_error("'%s': %s", shown, sdt_file__diag(f, i));
		o->errors = true;
	}
}

/*
 * Scan @open_path and list it as @shown. @quiet_non_elf: skip non-ELF files silently (-p). With
 * @bid (list --build-id), only when it is that build: a cached copy may have been replaced since
 * it was chosen.
 */
static void list_path(struct list_opts *o, const char *open_path, const char *shown,
		      bool quiet_non_elf, const char *warning, const char *bid)
{
	struct sdt_file *f;
	int err;

	err = sdt_file__open(open_path, NULL, &f);
	if (err) {
		if (quiet_non_elf && err == -ENOEXEC)
			return;
		cli_error("%s", sdt_errmsg());
		o->errors = true;
		return;
	}
	if (bid && (!sdt_file__build_id(f) || strcmp(sdt_file__build_id(f), bid))) {
		cli_error("'%s': not the binary of build-id %s (it has %s)", open_path, bid,
			  sdt_file__build_id(f) ? sdt_file__build_id(f) : "none");
		sdt_file__free(f);
		o->errors = true;
		return;
	}
	/* only now: "/dev/zero (deleted)" (shared memory) and memfds are no ELF files to warn of */
	if (warning)
		cli_warn("%s", warning);
	report_diags(o, f, shown);
	keep_names(o, f);
	/* -x FILE that has none: say so (not of each library of -p) */
	if (!quiet_non_elf && !o->nspecs && !sdt_file__site_count(f))
		cli_note("'%s' has no SDT probes", shown);
	list_file(o, f, shown);
	sdt_file__free(f);
}

/*
 * -x DIR: the binaries directly in DIR, by name (what `ls DIR` shows; not its subdirectories,
 * which `sdtrace cache add -r` walks). Files that are not ELF, or have no SDT notes, are passed
 * over quietly, as with -p.
 */
static void list_dir(struct list_opts *o, const char *dir)
{
	struct dirent **ents = NULL;
	int n, i;

	n = scandir(dir, &ents, NULL, alphasort);
	if (n < 0) {
		cli_error("cannot read directory '%s': %s", dir, strerror(errno));
		o->errors = true;
		return;
	}
	for (i = 0; i < n; i++) {
		struct stat st;
		char *path = NULL;

		if (asprintf(&path, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/",
			     ents[i]->d_name) >= 0 &&
		    !lstat(path, &st) && S_ISREG(st.st_mode))
			list_path(o, path, path, true, NULL, NULL);
		free(path);
		free(ents[i]);
	}
	free(ents);
}

static int list_pid(struct list_opts *o, const char *arg)
{
	struct sdt_proc_file *files;
	char *end, *shown, *warning;
	size_t n, i;
	long pid;

	pid = strtol(arg, &end, 10);
	if (*end || pid <= 0)
		return cli_usage_error("list", "'%s' is not a process id", arg);
	/* the files a resolution by the target looks at: what it maps executable, what it loads */
	if (sdt_proc__exec_files((pid_t)pid, &files, &n)) {
		cli_error("%s", sdt_errmsg());
		return LIST_ERROR;
	}
	for (i = 0; i < n; i++) {
		/* a file this mount namespace does not have there: its /proc/PID/root path */
		shown = files[i].deleted ? files[i].path
					 : (char *)cli_reachable_path(files[i].path, files[i].open_path);
		warning = NULL;
		if (files[i].deleted) {
			if (asprintf(&shown, "%s (deleted)", files[i].path) < 0) {
				cli_error("out of memory");
				break;
			}
			if (asprintf(&warning,
				     "process %ld maps '%s', which was deleted or replaced: listing "
				     "the mapped file",
				     pid, files[i].path) < 0) {
				free(shown);
				cli_error("out of memory");
				break;
			}
		}
		list_path(o, files[i].open_path, shown, true, warning, NULL);
		if (files[i].deleted)
			free(shown);
		free(warning);
	}
	sdt_proc_files__free(files, n);
	return 0;
}

/* After listing files: each pattern that matched nothing, with the nearest names of the files. */
static void list_say_where(const struct list_opts *o, const char *pid, const char **paths,
			   size_t npaths, size_t nbids)
{
	char where[4096];

	if (!o->nspecs) {
		if (pid && !o->listed)
			cli_note("process %s maps no file with SDT probes", pid);
		return;
	}
	if (pid)
		snprintf(where, sizeof(where), "in the files process %s maps", pid);
	else if (npaths == 1 && !nbids)
		snprintf(where, sizeof(where), "in '%s'", paths[0]);
	else
		snprintf(where, sizeof(where), "in the %zu files given", npaths + nbids);
	list_say_unmatched(o, (const char *const *)o->names, o->nnames, where, false);
}

int cmd_list(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"exec", required_argument, NULL, 'x'},
		{"pid", required_argument, NULL, 'p'},
		{"verbose", no_argument, NULL, 'v'},
		{"json", no_argument, NULL, 'J'},
		{"types", required_argument, NULL, 'T'},
		{"build-id", required_argument, NULL, 'B'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct list_opts o = {0};
	const char **paths = NULL, *pid = NULL, **bids = NULL;
	size_t npaths = 0, nbids = 0, i;
	int c, ret = 0;

	paths = calloc((size_t)argc, sizeof(*paths));
	bids = calloc((size_t)argc, sizeof(*bids));
	o.specs = calloc((size_t)argc, sizeof(*o.specs));
	o.spec_paths = calloc((size_t)argc, sizeof(*o.spec_paths));
	o.found = calloc((size_t)argc, sizeof(*o.found));
	o.spec_text = calloc((size_t)argc, sizeof(*o.spec_text));
	o.matched = calloc((size_t)argc, sizeof(*o.matched));
	o.type_files = calloc((size_t)argc, sizeof(*o.type_files));
	/* as grep: 2 for an error, also output that cannot be written */
	cli.exit_error = LIST_ERROR;
	if (!paths || !bids || !o.specs || !o.spec_paths || !o.found || !o.spec_text ||
	    !o.matched || !o.type_files) {
		cli_error("out of memory");
		ret = LIST_ERROR;
		goto out;
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, "+x:p:vh", longopts, NULL)) != -1) {
		switch (c) {
		case 'x':
			if (find_path(&o, optarg, &paths[npaths]) < 0) {
				ret = LIST_ERROR;
				goto out;
			}
			add_path(paths, &npaths, paths[npaths]);
			break;
		case 'p':
			if (pid) {
				ret = cli_usage_error("list", "-p can be given once");
				goto out;
			}
			pid = optarg;
			break;
		case 'v': o.verbose = true; break;
		case 'J': o.json = true; break;
		case 'T': o.type_files[o.ntype_files++] = optarg; break;
		case 'B': bids[nbids++] = optarg; break;
		case 'h':
			fputs(list_usage, stdout);
			ret = 0;
			goto out;
		default:
			ret = cli_bad_option("list", argc, argv, longopts);
			goto out;
		}
	}
	for (i = (size_t)optind; i < (size_t)argc; i++) {
		if (sdt_spec__parse(argv[i], &o.specs[o.nspecs])) {
			ret = cli_usage_error("list", "%s", sdt_errmsg());
			goto out;
		}
		/* a glob for the binary filters the files listed, it names none to open */
		o.spec_text[o.nspecs] = argv[i];
		if (sdt_spec__path(o.specs[o.nspecs]) &&
		    !strpbrk(sdt_spec__path(o.specs[o.nspecs]), "*?[")) {
			if (find_path(&o, sdt_spec__path(o.specs[o.nspecs]), &paths[npaths]) < 0) {
				o.nspecs++;
				ret = LIST_ERROR;
				goto out;
			}
			o.spec_paths[o.nspecs] = paths[npaths];
			add_path(paths, &npaths, paths[npaths]);
		}
		o.nspecs++;
	}
	if (!!pid + !!npaths + !!nbids > 1) {
		ret = cli_usage_error("list", "-p, -x and --build-id cannot be combined");
		goto out;
	}
	/* the names and types of the arguments, for -v and --json */
	if (o.verbose || o.json || o.ntype_files) {
		ret = list_load_types(&o) ? LIST_ERROR : 0;
		if (ret)
			goto out;
	}
	if (!pid && !npaths && !nbids) {
		ret = list_cache(&o);
		goto out;
	}
	if (o.json) {
		json_init(&o.j, stdout, false);
		json_begin_array(&o.j);
	}
	if (pid)
		ret = list_pid(&o, pid);
	for (i = 0; i < npaths; i++) {
		char *open_path = NULL;
		struct stat st;

		if (!stat(paths[i], &st) && S_ISDIR(st.st_mode)) {
			list_dir(&o, paths[i]);
			continue;
		}
		/* under /proc/PID/root the kernel would read an absolute link from our root */
		if (sdt_proc_root_prefix(paths[i]) && sdt_canonical_path(paths[i], &open_path)) {
			cli_error("%s", sdt_errmsg());
			o.errors = true;
			continue;
		}
		list_path(&o, open_path ? open_path : paths[i], paths[i], false, NULL, NULL);
		free(open_path);
	}
	for (i = 0; i < nbids; i++) {
		char *open_path, *shown;

		if (cli_find_build_id(bids[i], &open_path, &shown)) {
			cli_error("%s", sdt_errmsg());
			o.errors = true;
			continue;
		}
		list_path(&o, open_path, shown, false, NULL, bids[i]);
		free(open_path);
		free(shown);
	}
	if (o.json) {
		json_end_array(&o.j);
		json_newline(&o.j);
	}
	if (!ret)
		list_say_where(&o, pid, paths, npaths, nbids);
	if (!ret)
		ret = o.errors ? LIST_ERROR : o.listed ? LIST_FOUND : LIST_NOTHING;
out:
	for (i = 0; i < o.nspecs; i++)
		sdt_spec__free(o.specs[i]);
	free(o.specs);
	free(o.spec_paths);
	for (i = 0; i < o.nfound; i++)
		free(o.found[i]);
	free(o.found);
	free(o.spec_text);
	free(o.matched);
	for (i = 0; i < o.nnames; i++)
		free(o.names[i]);
	free(o.names);
	free(o.type_files);
	free(bids);
	sdt_types__free(o.types);
	free(paths);
	return ret;
}
