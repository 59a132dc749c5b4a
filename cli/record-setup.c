/* SPDX-License-Identifier: MIT */
/* The options and set-up shared by `record`, `trace` and `stat`. See record-setup.h. */
#include <errno.h>
#include <fnmatch.h>
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "names.h"
#include "record-filter.h"
#include "json.h"
#include "record-setup.h"
#include "sdtrace/find.h"

const char rec_setup_usage[] =
    "  -e, --event SPEC      what to probe: [PATH:]%provider:event, with globs\n"
    "                        (%python:gc__*, '%postgresql:query__*'); repeatable. Name and\n"
    "                        type the arguments with a (name[:type], ...) suffix, types\n"
    "                        string s8..s64 u8..u64 x8..x64 float double char:\n"
    "                        '%python:function__entry(file:string, func:string, line:s32)'\n"
    "      --types FILE      provider type file (DTrace .d) or directory of them, before\n"
    "                        ~/.config/sdtrace/providers and the shipped ones; used when the\n"
    "                        spec has no (...) and the note's sizes agree; repeatable\n"
    "                        Without PATH, looked up in the files the target runs (-p:\n"
    "                        what the processes map and their executable's DT_NEEDED\n"
    "                        libraries; CMD: its executable and the libraries ld.so will\n"
    "                        load), every one with the event probed; with -a, in the cache.\n"
    "                        PATH may be a glob: '*:%hotspot:thread__start'\n"
    "      --filter EXPR     keep only the hits EXPR passes, evaluated in the kernel where\n"
    "                        its event filter can say it (else here, with a warning: those\n"
    "                        hits still cross the ring buffer). Before any -e: for every\n"
    "                        event; after an -e: for that -e's events (and-ed with a first\n"
    "                        one). EXPR: tests NAME [OP VALUE] joined by && || ! ( ): an\n"
    "                        argument by name or argN, pid, tid, comm, cpu; == != < <= >\n"
    "                        >= and ~ !~ (a glob): 'delta > 1000 && query ~ \"SELECT*\"'\n"
    "                        (FILTERS in sdtrace-report(1))\n"
    "  -x, --exec PATH       look events up in this binary (scanned and cached now); a bare\n"
    "                        NAME from here, $PATH, the ld.so cache (libstdc++.so.6), the\n"
    "                        library dirs and trees (libjvm.so)\n"
    "  -p, --pid PID[,PID]   every thread of these processes, until they exit or Ctrl-C\n"
    "  -a, --all-cpus        system-wide, until Ctrl-C or --duration\n"
    "      --duration SECS   stop after this long\n"
    "      --semaphore=M     auto (default), refctr (the kernel's ref_ctr_offset) or poke\n"
    "                        (increment and restore in the target's memory; tracefs only)\n"
    "  -m, --mmap-pages N    ring buffer data pages per CPU (a power of two; default 1024)\n"
    "      --engine=E        tracefs (default: uprobe events, perf rings), bpf (one BPF\n"
    "                        program, BPF ring buffers; adds indexed and thread-local\n"
    "                        arguments) or auto (bpf when the kernel and the sites allow it);\n"
    "                        the default is $SDTRACE_ENGINE when set\n"
    "      --no-follow       arm once, before the start: do not follow what CMD execs (ptrace)\n"
    "                        nor arm files mapped later (a dlopen()ed library, a program\n"
    "                        started after -a began, the children of -p processes)\n"
    "  -- CMD [ARGS...]      run CMD, stopped until every probe is armed; stop when it exits.\n"
    "                        CMD is followed: each program it or its children exec (a shim, env,\n"
    "                        sh -c) is looked up and armed before its first instruction\n"
    "\n"
    "SIGINT, SIGTERM and SIGHUP stop it cleanly (CMD is sent SIGTERM). A SIGINT or SIGHUP that\n"
    "was ignored at start stays ignored (`sdtrace ... &` in a script, nohup): stop those with\n"
    "SIGTERM. After a SIGKILL, CMD goes on untraced; the next sdtrace removes the probes.\n"
    "Exit status with CMD: CMD's own (128 + N when signal N killed it), unless sdtrace itself\n"
    "failed: then 1 (2 for a usage error), after a line 'sdtrace: error: ...' on stderr.\n";

/* --engine=E, or $SDTRACE_ENGINE (@what names which, for the message). */
static int parse_engine(struct rec_setup *s, const char *arg, const char *what)
{
	if (!strcmp(arg, "auto"))
		s->engine = SDT_ENGINE_AUTO;
	else if (!strcmp(arg, "tracefs"))
		s->engine = SDT_ENGINE_TRACEFS;
	else if (!strcmp(arg, "bpf"))
		s->engine = SDT_ENGINE_BPF;
	else
		return cli_usage_error(s->cmd, "%s: expected auto, tracefs or bpf, not '%s'", what,
				       arg);
	return 0;
}

static int add_pids(struct rec_setup *s, const char *arg)
{
	const char *p = arg;

	while (*p) {
		char *end;
		long v;
		pid_t *np;

		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || end == p || v <= 0 || v > INT_MAX || (*end && *end != ','))
			return cli_usage_error(s->cmd, "'%s' is not a list of process ids", arg);
		np = realloc(s->pids, (s->npids + 1) * sizeof(*np));
		if (!np) {
			cli_error("out of memory");
			return EXIT_RUNTIME;
		}
		s->pids = np;
		s->pids[s->npids++] = (pid_t)v;
		p = *end ? end + 1 : end;
	}
	return 0;
}

static int push(char ***arr, size_t *n, const char *v)
{
	char **na = realloc(*arr, (*n + 1) * sizeof(**arr));

	if (!na)
		return -ENOMEM;
	*arr = na;
	(*arr)[(*n)++] = (char *)v;
	return 0;
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NOT_SHARED    (-1)
#define OPT_NO_FOLLOW 0x100

/*
 * One of the shared options (getopt's @c and optarg): 0 when it was one of ours and is taken,
 * NOT_SHARED when it is not one of ours, or an exit code after printing the error.
 */
static int shared_option(struct rec_setup *s, int c, const char *arg)
{
	char *end;
	double secs;
	unsigned long pages;

	switch (c) {
	case 'e':
		if (push(&s->specs_text, &s->nspecs, arg))
			goto nomem;
		return 0;
	case 'x':
		/* a bare name as the user means it: from here, $PATH, the ld.so cache */
		if (!strchr(arg, '/')) {
			char *full;

			if (cli_find_binary(arg, &full))
				return EXIT_RUNTIME;
			if (push(&s->found, &s->nfound, full)) {
				free(full);
				goto nomem;
			}
			arg = full;
		}
		if (push(&s->paths, &s->npaths, arg))
			goto nomem;
		return 0;
	case 'T':
		if (push((char ***)&s->type_files, &s->ntype_files, arg))
			goto nomem;
		return 0;
	case 'F':
		return rec_filter_option(s, arg);
	case 'p':
		return add_pids(s, arg);
	case 'a':
		s->system_wide = true;
		return 0;
	case 'D':
		secs = strtod(arg, &end);
		if (*end || !(secs > 0) || secs > 86400.0 * 365)
			return cli_usage_error(s->cmd,
					       "--duration: '%s' is not a number of seconds", arg);
		s->duration_ms = (unsigned int)(secs * 1000 + 0.5);
		if (!s->duration_ms)
			s->duration_ms = 1;
		return 0;
	case 'S':
		if (!strcmp(arg, "auto"))
			s->semaphore = SDT_SEMAPHORE_AUTO;
		else if (!strcmp(arg, "refctr"))
			s->semaphore = SDT_SEMAPHORE_REFCTR;
		else if (!strcmp(arg, "poke"))
			s->semaphore = SDT_SEMAPHORE_POKE;
		else
			return cli_usage_error(s->cmd,
					       "--semaphore: expected auto, refctr or poke");
		return 0;
	case 'E':
		return parse_engine(s, arg, "--engine");
	case OPT_NO_FOLLOW:
		s->no_follow = true;
		return 0;
	case 'm':
		pages = strtoul(arg, &end, 10);
		if (*end || !pages || (pages & (pages - 1)) || pages > (1ul << 20))
			return cli_usage_error(s->cmd, "--mmap-pages: '%s' is not a power of two",
					       arg);
		s->ring_pages = pages;
		return 0;
	default:
		return NOT_SHARED;
	}
nomem:
	cli_error("out of memory");
	return EXIT_RUNTIME;
}

/* The shared options; their short letters are SHARED_SHORT. */
static const struct option shared_opts[] = {
    {"event", required_argument, NULL, 'e'},	{"exec", required_argument, NULL, 'x'},
    {"pid", required_argument, NULL, 'p'},	{"all-cpus", no_argument, NULL, 'a'},
    {"duration", required_argument, NULL, 'D'}, {"semaphore", required_argument, NULL, 'S'},
    {"types", required_argument, NULL, 'T'},	{"mmap-pages", required_argument, NULL, 'm'},
    {"filter", required_argument, NULL, 'F'},	{"engine", required_argument, NULL, 'E'},
    {"no-follow", no_argument, NULL, OPT_NO_FOLLOW},
    {"help", no_argument, NULL, 'h'},
};
#define SHARED_SHORT "e:x:p:am:h"

/* getopt_long's tables for @cmd: the shared options, then the command's own. */
static int build_tables(const struct rec_command *cmd, struct option **longopts, char **shortopts)
{
	size_t nown = 0, i;
	struct option *lo;

	while (cmd->opts && cmd->opts[nown].name)
		nown++;
	/* a command's option with a shared option's value would be taken as that one */
	for (i = 0; i < ARRAY_SIZE(shared_opts) * nown; i++)
		if (cmd->opts[i % nown].val == shared_opts[i / nown].val)
			return -EEXIST;
	lo = calloc(ARRAY_SIZE(shared_opts) + nown + 1, sizeof(*lo));
	*shortopts = NULL;
	if (!lo || asprintf(shortopts, "+%s%s", SHARED_SHORT, cmd->shortopts) < 0) {
		free(lo);
		*shortopts = NULL;
		return -ENOMEM;
	}
	memcpy(lo, shared_opts, sizeof(shared_opts));
	memcpy(lo + ARRAY_SIZE(shared_opts), cmd->opts, nown * sizeof(*lo));
	*longopts = lo;
	return 0;
}

int rec_setup_parse(struct rec_setup *s, const struct rec_command *cmd, int argc, char **argv)
{
	struct option *longopts = NULL;
	char *shortopts = NULL;
	int c, ret = 0;

	s->cmd = cmd->name;
	if (getenv("SDTRACE_ENGINE") && *getenv("SDTRACE_ENGINE")) {
		ret = parse_engine(s, getenv("SDTRACE_ENGINE"), "SDTRACE_ENGINE");
		if (ret)
			return ret;
	}
	ret = build_tables(cmd, &longopts, &shortopts);
	if (ret) {
		cli_error("%s", ret == -EEXIST ? "a bug: an option of this command has the value of "
						 "a shared one (cli/record-setup.c)"
					       : "out of memory");
		return EXIT_RUNTIME;
	}
	optind = 1;
	while (!ret && (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		if (c == 'h') {
			printf(cmd->usage, rec_setup_usage);
			ret = REC_HELP;
		} else if (c == '?' || c == ':') {
			ret = cli_usage_error(cmd->name, "bad option");
		} else {
			ret = shared_option(s, c, optarg);
			if (ret == NOT_SHARED)
				ret = cmd->handle ? cmd->handle(cmd->ctx, c, optarg)
						  : cli_usage_error(cmd->name, "bad option");
		}
	}
	free(longopts);
	free(shortopts);
	return ret;
}

char *rec_cmdline(int argc, char **argv)
{
	size_t len = sizeof("sdtrace ");
	char *s, *p;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = malloc(len);
	if (!s)
		return NULL;
	memcpy(s, "sdtrace ", 8);
	p = s + 8;
	for (i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]);

		memcpy(p, argv[i], n);
		p += n;
		*p++ = i + 1 < argc ? ' ' : '\0';
	}
	if (!argc)
		s[7] = '\0';
	return s;
}

static void notify(const char *msg, void *ctx)
{
	(void)ctx;
	cli_warn("%s", msg);
}

/* Parse the specs; those without a binary are tied to each of @paths when there are any. */
static int parse_specs(struct rec_setup *s, char **paths, size_t npaths)
{
	size_t i, j, n = 0, total;
	char *text;

	for (i = 0; s->specs && i < s->nspecs_parsed; i++)
		sdt_spec__free(s->specs[i]);
	free(s->specs);
	s->nspecs_parsed = 0;
	total = s->nspecs * (npaths ? npaths : 1);
	s->specs = calloc(total ? total : 1, sizeof(*s->specs));
	if (!s->specs) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	for (i = 0; i < s->nspecs; i++) {
		struct sdt_spec *sp;

		if (sdt_spec__parse(s->specs_text[i], &sp)) {
			s->nspecs_parsed = n;
			return cli_usage_error(s->cmd, "%s", sdt_errmsg());
		}
		if (sdt_spec__path(sp) || !npaths) {
			s->specs[n++] = sp;
			continue;
		}
		sdt_spec__free(sp);
		for (j = 0; j < npaths; j++) {
			const char *t = s->specs_text[i];

			if (asprintf(&text, "%s%s:%%%s",
				     paths[j][0] == '/' || paths[j][0] == '.' ? "" : "./", paths[j],
				     t[0] == '%' ? t + 1 : t) < 0) {
				s->nspecs_parsed = n;
				cli_error("out of memory");
				return EXIT_RUNTIME;
			}
			if (sdt_spec__parse(text, &s->specs[n])) {
				free(text);
				s->nspecs_parsed = n;
				return cli_usage_error(s->cmd, "%s", sdt_errmsg());
			}
			free(text);
			n++;
		}
	}
	s->nspecs_parsed = n;
	return 0;
}

/* Scan and cache the binaries named with -x or inline, so that later lookups by name find them. */
static int cache_named(struct sdt_cache *c, struct rec_setup *s, bool quiet)
{
	enum sdt_cache_result res;
	size_t i;

	for (i = 0; i < s->nspecs_parsed; i++) {
		const char *p = sdt_spec__path(s->specs[i]);

		if (!p || strpbrk(p, "*?["))
			continue; /* a glob names binaries the cache (or the target) has */
		if (sdt_cache__add(c, p, &res) < 0) {
			if (!quiet)
				cli_error("%s", sdt_errmsg());
			return EXIT_RUNTIME;
		}
		if (res == SDT_CACHE_NOT_ELF || res == SDT_CACHE_SKIPPED) {
			if (!quiet)
				cli_error("'%s': not an ELF file", p);
			return EXIT_RUNTIME;
		}
	}
	return 0;
}

/* "; did you mean ...?" for @sp among the events of the -x binaries (scanned again), or NULL. */
static char *paths_hint(const struct sdt_spec *sp, char **paths, size_t npaths)
{
	char **names = NULL, **nn, *hint;
	size_t n = 0, i, j;

	for (i = 0; i < npaths; i++) {
		struct sdt_file *f;

		if (sdt_file__open(paths[i], NULL, &f))
			continue;
		nn = realloc(names, (n + sdt_file__site_count(f) + 1) * sizeof(*names));
		if (nn)
			names = nn;
		for (j = 0; nn && j < sdt_file__site_count(f); j++) {
			const struct sdt_site *s = sdt_file__site(f, j);

			if (asprintf(&names[n], "%s:%s", sdt_site__provider(s), sdt_site__name(s)) >= 0)
				n++;
		}
		sdt_file__free(f);
	}
	hint = cli_hint(sp, (const char *const *)names, n);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return hint;
}

/*
 * With several -x binaries a spec without a binary is looked up in each of them, and must match
 * in at least one (not in every one): resolve with allow_empty, then check each spec here.
 */
static int check_each_matched(struct rec_setup *s)
{
	size_t i, j, k;

	for (i = 0; i < s->nspecs; i++) {
		struct sdt_spec *sp;
		char *own = NULL; /* the spec's own binary, when it names one */
		bool found = false;

		if (sdt_spec__parse(s->specs_text[i], &sp))
			return cli_usage_error(s->cmd, "%s", sdt_errmsg());
		if (sdt_spec__path(sp) && sdt_find_binary(sdt_spec__path(sp), NULL, &own))
			own = NULL;
		for (j = 0; j < sdt_targets__count(s->targets) && !found; j++) {
			const struct sdt_target *t = sdt_targets__target(s->targets, j);

			if (own && strcmp(own, sdt_target__path(t)))
				continue;
			for (k = 0; k < sdt_target__site_count(t) && !found; k++) {
				const struct sdt_site *site = sdt_target__site(t, k);

				found = sdt_spec__match(sp, sdt_site__provider(site),
							sdt_site__name(site));
			}
		}
		if (!found) {
			char *hint = sdt_spec__path(sp) ? paths_hint(sp, (char **)&own, own ? 1 : 0)
							: paths_hint(sp, s->paths, s->npaths);

			if (sdt_spec__path(sp))
				cli_error("no SDT event matches '%s'%s", s->specs_text[i],
					  hint ? hint : "");
			else
				cli_error("no SDT event matches '%s' in any of the %zu -x "
					  "binaries%s",
					  s->specs_text[i], s->npaths, hint ? hint : "");
			free(hint);
		}
		sdt_spec__free(sp);
		free(own);
		if (!found)
			return EXIT_RUNTIME;
	}
	return 0;
}

/*
 * Has any file the command runs (its executable or a script's interpreter, their DT_NEEDED
 * closure) SDT notes? One without (a script, env, sh, a launcher) is followed to the programs it
 * execs before a spec is said to match nothing; one with notes that match nothing is a miss
 * (a typo) at once. The C library is left out: some distributions build it with probes of its
 * own (setjmp, malloc), and every program has it. Read here, not cached: the cache is for what
 * is probed.
 */
static bool command_has_notes(char *const *argv)
{
	SDT_OPTS(sdt_scan_opts, so);
	struct sdt_proc_file *files = NULL;
	bool any = false;
	size_t n = 0, i;

	if (sdt_command__files(argv, NULL, &files, &n) || !n)
		return true; /* unknown: as if it had some (the miss is an error at once) */
	for (i = 0; i < n && !any; i++) {
		const char *base = strrchr(files[i].open_path, '/');
		struct sdt_file *f = NULL;

		base = base ? base + 1 : files[i].open_path;
		if (!strncmp(base, "libc.so", 7) || !strncmp(base, "ld-linux", 8))
			continue;
		if (!sdt_file__open(files[i].open_path, &so, &f))
			any = sdt_file__site_count(f) > 0;
		sdt_file__free(f);
	}
	sdt_proc_files__free(files, n);
	return any;
}

static void launcher_line(const struct rec_setup *s)
{
	if (cli.verbose)
		fprintf(stderr, "sdtrace: '%s' has no SDT probes: %s follows what it executes\n",
			s->argv[0], s->cmd);
}

static int resolve(struct rec_setup *s)
{
	SDT_OPTS(sdt_resolve_opts, ro, .notify = notify);
	struct sdt_cache *c = NULL;
	int err, ret = EXIT_RUNTIME;

	err = sdt_cache__open(cli.cache_dir, NULL, &c);
	if (err) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	ret = parse_specs(s, s->paths, s->npaths);
	if (ret)
		goto out;
	ret = cache_named(c, s, false);
	if (ret)
		goto out;
	ro.allow_empty = s->npaths > 1;
	if (!s->npaths && (s->argv || s->npids)) {
		/* by the target: the files the command or the processes run */
		SDT_OPTS(sdt_resolve_target, tg, .argv = s->argv, .pids = s->pids,
			 .npids = s->npids);

		err = sdt_cache__resolve_target(c, s->specs, s->nspecs_parsed, &tg, &ro,
						&s->targets);
		if (err == -ENOENT && s->argv && !s->no_follow) {
			/* a launcher (a script, env, sh -c): what it execs is looked up then */
			char *msg = strdup(sdt_errmsg());

			if (!command_has_notes(s->argv)) {
				launcher_line(s);
				s->deferred = true;
				err = 0;
			}
			if (err)
				cli_error("%s", msg ? msg : sdt_errmsg());
			free(msg);
		} else if (err) {
			cli_error("%s", sdt_errmsg());
		}
		ret = err ? EXIT_RUNTIME : 0;
		goto out;
	}
	err = sdt_cache__resolve(c, s->specs, s->nspecs_parsed, &ro, &s->targets);
	if (!err && s->npaths > 1) {
		ret = check_each_matched(s);
		goto out;
	}
	if (err) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
		goto out;
	}
	ret = 0;
out:
	sdt_cache__free(c);
	return ret;
}

/*
 * Add target @t's sites to the recorder with their names and types: the spec's list when the
 * spec that matched the site has one, else the provider files' declaration (where the sizes
 * agree), else none.
 */
static int add_sites(struct rec_setup *s, struct sdt_spec *const *specs, size_t nspecs,
		     const struct sdt_file *f, const size_t *sites, const size_t *spec_of, size_t n,
		     struct sdt_arg_type *const *user_types)
{
	size_t *ntypes, k;
	struct sdt_arg_type **types;
	bool any = false;
	int src, ret = EXIT_RUNTIME;

	types = calloc(n ? n : 1, sizeof(*types));
	ntypes = calloc(n ? n : 1, sizeof(*ntypes));
	if (!types || !ntypes) {
		cli_error("out of memory");
		goto out;
	}
	/* user probes: the names their definition gives */
	if (user_types) {
		free(types);
		free(ntypes);
		if (!sdt_recorder__add_typed(s->rec, f, sites, n, user_types))
			return 0;
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	for (k = 0; k < n; k++) {
		size_t sp = spec_of[k];
		const struct sdt_spec *spec = sp < nspecs ? specs[sp] : NULL;

		src = sdt_types__resolve(s->types, spec, f, sdt_file__site(f, sites[k]), &types[k],
					 &ntypes[k]);
		if (src < 0) {
			cli_error("%s", sdt_errmsg());
			goto out;
		}
		if (src == SDT_TYPES_NONE) {
			sdt_arg_types__free(types[k], ntypes[k]);
			types[k] = NULL;
		} else {
			any = true;
		}
	}
	if (sdt_recorder__add_typed(s->rec, f, sites, n, any ? types : NULL)) {
		cli_error("%s", sdt_errmsg());
		goto out;
	}
	ret = 0;
out:
	for (k = 0; types && ntypes && k < n; k++)
		sdt_arg_types__free(types[k], ntypes[k]);
	free(types);
	free(ntypes);
	return ret;
}

/* add_sites() for target @t, the spec of each site as the resolution found it. */
static int add_target(struct rec_setup *s, struct sdt_spec *const *specs, size_t nspecs,
		      const struct sdt_target *t)
{
	size_t n = sdt_target__site_count(t), k, *spec_of;
	int ret;

	spec_of = calloc(n ? n : 1, sizeof(*spec_of));
	if (!spec_of) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	for (k = 0; k < n; k++)
		spec_of[k] = sdt_target__spec(t, k);
	ret = add_sites(s, specs, nspecs, sdt_target__file(t), sdt_target__sites(t), spec_of, n,
			sdt_target__types(t));
	free(spec_of);
	return ret;
}

/*
 * The specs as they apply to a file met during the run: whatever binary a spec named, a
 * followed process that runs another file with its event is probed there too (a shim that
 * execs another python than the -x one, a copy at a new inode), so the binary is dropped; a
 * glob for the binary is kept (it selects among the files). Parsed once. 0 or -ENOMEM.
 */
static int late_specs(struct rec_setup *s)
{
	size_t i;

	if (s->late_specs)
		return 0;
	s->late_specs = calloc(s->nspecs ? s->nspecs : 1, sizeof(*s->late_specs));
	if (!s->late_specs)
		return -ENOMEM;
	for (i = 0; i < s->nspecs; i++) {
		const char *text = s->specs_text[i];
		struct sdt_spec *sp = NULL;
		const char *path;

		if (sdt_spec__parse(text, &sp))
			continue;
		path = sdt_spec__path(sp);
		if (path && !strpbrk(path, "*?[") && !strncmp(text, path, strlen(path)) &&
		    text[strlen(path)] == ':') {
			size_t skip = strlen(path) + 1; /* path is the spec's: freed below */

			sdt_spec__free(sp);
			sp = NULL;
			if (sdt_spec__parse(text + skip, &sp))
				continue;
		}
		s->late_specs[s->nlate_specs++] = sp;
	}
	return 0;
}

static struct late_file *late_find(struct rec_setup *s, uint64_t dev, uint64_t ino)
{
	size_t i;

	for (i = 0; i < s->nlate_files; i++)
		if (s->late_files[i].dev == dev && s->late_files[i].ino == ino)
			return &s->late_files[i];
	return NULL;
}

static int late_note(struct rec_setup *s, uint64_t dev, uint64_t ino,
		     const struct sdt_target *t)
{
	struct late_file *lf;

	if (late_find(s, dev, ino))
		return 0;
	lf = realloc(s->late_files, (s->nlate_files + 1) * sizeof(*lf));
	if (!lf)
		return -ENOMEM;
	s->late_files = lf;
	lf += s->nlate_files++;
	lf->dev = dev;
	lf->ino = ino;
	lf->t = t;
	lf->handed = false;
	return 0;
}

/*
 * Process @pid's files resolved by the target (its mappings, at an exec stop the libraries ld.so
 * is about to load), the target's files only: each file's answer (its target, or none) noted in
 * s->late_files, so that the later mappings of the process (its libraries' MMAP2 records) are
 * answered without another look. The files are listed before the resolution: a file mapped
 * between the two is not marked "nothing" without having been looked at. 0 or -ENOMEM.
 */
static int late_resolve(struct rec_setup *s, pid_t pid)
{
	SDT_OPTS(sdt_resolve_opts, ro, .allow_empty = true, .target_only = true);
	SDT_OPTS(sdt_resolve_target, tg, .pids = &pid, .npids = 1);
	struct sdt_proc_file *files = NULL;
	struct sdt_targets *t = NULL, **nt;
	size_t nfiles = 0, i;
	struct stat st;
	int err;

	if ((err = late_specs(s)))
		return err;
	if (!s->late_cache && sdt_cache__open(cli.cache_dir, NULL, &s->late_cache))
		return 0; /* told at the start already; nothing more to arm */
	if (sdt_proc__exec_files(pid, &files, &nfiles))
		return 0; /* gone */
	err = s->nlate_specs ? sdt_cache__resolve_target(s->late_cache, s->late_specs,
							  s->nlate_specs, &tg, &ro, &t)
			     : 0;
	if (err == -ENOMEM)
		goto out;
	err = 0;
	for (i = 0; t && i < sdt_targets__count(t) && !err; i++) {
		const struct sdt_target *one = sdt_targets__target(t, i);

		err = late_note(s, sdt_target__dev(one), sdt_target__ino(one), one);
	}
	for (i = 0; i < nfiles && !err; i++)
		if (!stat(files[i].open_path, &st))
			err = late_note(s, st.st_dev, st.st_ino, NULL);
	if (!err && t && sdt_targets__count(t)) {
		nt = realloc(s->late_targets, (s->nlate_targets + 1) * sizeof(*nt));
		if (!nt) {
			err = -ENOMEM;
			goto out;
		}
		s->late_targets = nt;
		s->late_targets[s->nlate_targets++] = t;
		t = NULL;
	}
out:
	sdt_targets__free(t);
	sdt_proc_files__free(files, nfiles);
	return err;
}

/* Does @spec's glob for the binary (if it has one) name @path (maybe /proc/PID/root/...)? */
static bool late_path_ok(const struct sdt_spec *spec, const char *path)
{
	const char *glob = sdt_spec__path(spec), *in = path;

	if (!glob)
		return true;
	if (!strncmp(path, "/proc/", 6) && (in = strstr(path + 6, "/root/")))
		in += 5;
	else
		in = path;
	return !fnmatch(glob, path, 0) || !fnmatch(glob, in, 0);
}

/*
 * A file whose process could not be asked (it exited already: a short program started and
 * gone before its mapping was read): the specs matched against the file alone, its sites that
 * match handed to the recorder, the file kept until the recorder is freed. Its inode is armed
 * for the next process that maps it. 0 or -ENOMEM.
 */
static int late_alone(struct rec_setup *s, const char *open_path)
{
	SDT_OPTS(sdt_scan_opts, so);
	struct sdt_file *f = NULL, **nf;
	size_t n = 0, k, j, ns, *sites = NULL, *spec_of = NULL;
	int err = 0;

	if (sdt_file__open(open_path, &so, &f))
		return 0; /* not an ELF file we read: nothing to arm */
	ns = sdt_file__site_count(f);
	sites = calloc(ns ? ns : 1, sizeof(*sites));
	spec_of = calloc(ns ? ns : 1, sizeof(*spec_of));
	nf = realloc(s->late_own, (s->nlate_own + 1) * sizeof(*nf));
	if (!sites || !spec_of || !nf) {
		free(nf == s->late_own ? NULL : nf);
		err = -ENOMEM;
		goto out;
	}
	s->late_own = nf;
	for (k = 0; k < ns; k++) {
		const struct sdt_site *st = sdt_file__site(f, k);

		for (j = 0; j < s->nlate_specs; j++) {
			if (sdt_spec__match(s->late_specs[j], sdt_site__provider(st),
					    sdt_site__name(st)) &&
			    late_path_ok(s->late_specs[j], open_path)) {
				sites[n] = k;
				spec_of[n++] = j;
				break;
			}
		}
	}
	if (n) {
		s->late_own[s->nlate_own++] = f;
		/* told on failure; the recording goes on without this file */
		add_sites(s, s->late_specs, s->nlate_specs, f, sites, spec_of, n, NULL);
		f = NULL;
	}
out:
	sdt_file__free(f);
	free(sites);
	free(spec_of);
	return err;
}

/*
 * opts.on_file: a file a followed process exec'd or mapped. Its sites that the specs match are
 * added (they are armed as soon as this returns); a file that matches nothing adds nothing.
 * The file is resolved as part of its process (late_resolve()), once per inode.
 */
static int on_file(void *ctx, struct sdt_recorder *r, pid_t pid, const char *open_path,
		   const char *build_id)
{
	struct rec_setup *s = ctx;
	struct late_file *lf;
	struct stat st;
	int err;

	(void)r;
	(void)build_id;
	if (stat(open_path, &st))
		return 0; /* gone */
	lf = late_find(s, st.st_dev, st.st_ino);
	if (!lf) {
		err = late_resolve(s, pid);
		if (err)
			return err;
		lf = late_find(s, st.st_dev, st.st_ino);
	}
	if (!lf) {
		/* its process was not asked (gone), or did not list it: the file alone */
		err = late_specs(s);
		if (!err)
			err = late_note(s, st.st_dev, st.st_ino, NULL);
		return err ? err : late_alone(s, open_path);
	}
	if (!lf->t || lf->handed)
		return 0;
	lf->handed = true;
	/* told on failure; the recording goes on without this file */
	add_target(s, s->late_specs, s->nlate_specs, lf->t);
	return 0;
}

void rec_setup_print_late(const struct rec_setup *s)
{
	size_t n = s->rec ? sdt_recorder__late_file_count(s->rec) : 0;

	if (n)
		fprintf(stderr, "sdtrace: %zu binar%s armed during the run (exec'd or mapped by a "
				"followed process)\n",
			n, n == 1 ? "y" : "ies");
	else if (s->deferred && s->rec && !sdt_recorder__event_count(s->rec) &&
		 !sdt_recorder__unarmed_count(s->rec))
		fprintf(stderr, "sdtrace: warning: no SDT event matched in anything the command "
				"executed\n");
}

int rec_setup_finish(struct rec_setup *s, int argc, char **argv, bool count_only)
{
	SDT_OPTS(sdt_recorder_opts, ro);
	char *stale = NULL;
	size_t i;
	int n, ret;

	/*
	 * A command comes after "--" (without one it is still taken, alone); next to -p or -a an
	 * argument that is not after "--" is a stray one (-p 1 2), not a command to run.
	 */
	if (optind < argc && (s->npids || s->system_wide) && strcmp(argv[optind - 1], "--"))
		return cli_usage_error(s->cmd, "unexpected argument '%s' (a command goes after --)",
				       argv[optind]);
	if (optind < argc)
		s->argv = argv + optind;
	if (!s->nspecs)
		return cli_usage_error(s->cmd, "say what to probe with -e %%provider:event");
	if (!!s->argv + !!s->npids + s->system_wide != 1)
		return cli_usage_error(s->cmd,
				       s->argv || s->npids || s->system_wide
					   ? "give only one of -- CMD, -p PID and -a"
					   : "say what to %s: -- CMD, -p PID or -a",
				       s->cmd);

	n = sdt_recorder__remove_stale(&stale);
	if (n > 0)
		cli_warn("removed %d uprobe group%s left by a killed sdtrace: %s", n,
			 n == 1 ? "" : "s", stale ? stale : "");
	free(stale);

	ret = resolve(s);
	if (ret)
		return ret;
	if (sdt_types__new(&s->types) ||
	    sdt_types__load_default(s->types, s->type_files, s->ntype_files) < 0) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}

	ro.argv = s->argv;
	ro.pids = s->pids;
	ro.npids = s->npids;
	ro.system_wide = s->system_wide;
	ro.semaphore = s->semaphore;
	ro.count_only = count_only;
	ro.ring_pages = s->ring_pages;
	ro.duration_ms = s->duration_ms;
	ro.drain_interval_ms = s->drain_interval_ms;
	ro.call_graph = s->call_graph;
	ro.stack_user_bytes = s->stack_user_bytes;
	rec_filter_setup(s, &ro);
	ro.engine = s->engine;
	ro.agg_for = s->agg_for;
	ro.agg_ctx = s->agg_ctx;
	ro.agg_max_keys = s->agg_max_keys;
	ro.no_follow = s->no_follow;
	ro.on_file = on_file;
	ro.on_file_ctx = s;
	if (sdt_recorder__new(&ro, &s->rec)) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	for (i = 0; i < sdt_targets__count(s->targets); i++) {
		ret = add_target(s, s->specs, s->nspecs_parsed, sdt_targets__target(s->targets, i));
		if (ret)
			return ret;
	}
	return 0;
}

void rec_report_command(const struct rec_setup *s, bool failed)
{
	int status = s->rec ? sdt_recorder__exit_status(s->rec) : -1;

	if (status >= 0 && WIFSIGNALED(status))
		fprintf(stderr, "sdtrace: the command was killed by signal %d\n", WTERMSIG(status));
	else if (status >= 0 && WEXITSTATUS(status))
		fprintf(stderr, "sdtrace: the command exited with status %d\n", WEXITSTATUS(status));
	else if (status < 0 && s->argv && !failed)
		fprintf(stderr, "sdtrace: the command was not started\n");
}

void rec_json_exit_status(struct json *j, int ws)
{
	json_key(j, "exit_status");
	if (ws >= 0)
		json_int(j, rec_shell_status(ws));
	else
		json_null(j);
}

int rec_shell_status(int ws)
{
	if (ws < 0)
		return 0;
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	if (WIFSIGNALED(ws))
		return 128 + WTERMSIG(ws);
	return 0;
}

int rec_exit_code(const struct rec_setup *s, int ret)
{
	int st;

	/* an output that could not be written is sdtrace's failure (main() says so) */
	if (ret || !s->argv || !s->rec || ferror(stdout))
		return ret;
	st = sdt_recorder__exit_status(s->rec);
	if (st >= 0)
		return rec_shell_status(st);
	return sdt_recorder__stop_signal(s->rec) ? 128 + sdt_recorder__stop_signal(s->rec) : 0;
}

void rec_setup_release(struct rec_setup *s)
{
	size_t i;

	sdt_recorder__free(s->rec);
	rec_filter_release(s);
	for (i = 0; i < s->nlate_targets; i++)
		sdt_targets__free(s->late_targets[i]);
	free(s->late_targets);
	free(s->late_files);
	for (i = 0; i < s->nlate_own; i++)
		sdt_file__free(s->late_own[i]);
	free(s->late_own);
	for (i = 0; i < s->nlate_specs; i++)
		sdt_spec__free(s->late_specs[i]);
	free(s->late_specs);
	sdt_cache__free(s->late_cache);
	sdt_types__free(s->types);
	free(s->type_files);
	sdt_targets__free(s->targets);
	for (i = 0; s->specs && i < s->nspecs_parsed; i++)
		sdt_spec__free(s->specs[i]);
	free(s->specs);
	free(s->specs_text);
	free(s->paths);
	for (i = 0; i < s->nfound; i++)
		free(s->found[i]);
	free(s->found);
	free(s->pids);
	memset(s, 0, sizeof(*s));
}

/*
 * The rank of a reason when an event's sites are in several files: "not armed" before all (a
 * file whose sites were never placed), "not mapped" only if all.
 */
static int silence_rank(int reason)
{
	if (reason == SDT_SILENCE_NOT_ARMED)
		return 0;
	return reason == SDT_SILENCE_NOT_MAPPED ? SDT_SILENCE_NOT_RUN + 1 : reason;
}

/*
 * The first entry of the files not armed (sdt_recorder__unarmed()) with @provider:@name, its
 * reason in @text; SIZE_MAX if none.
 */
static size_t unarmed_find(const struct sdt_recorder *rec, const char *provider, const char *name,
			   char *text, size_t size)
{
	size_t i, n = sdt_recorder__unarmed_count(rec);
	const char *p, *e;

	for (i = 0; i < n; i++)
		if (sdt_recorder__unarmed(rec, i, &p, &e, text, size) > 0 && !strcmp(p, provider) &&
		    !strcmp(e, name))
			return i;
	return SIZE_MAX;
}

/* Is @provider:@name an event of the recording? */
static bool is_event(const struct sdt_recorder *rec, const char *provider, const char *name)
{
	size_t i, n = sdt_recorder__event_count(rec);

	for (i = 0; i < n; i++) {
		const struct sdt_trace_event_desc *d = sdt_recorder__event(rec, i);

		if (d && !strcmp(sdt_trace_event_desc__provider(d), provider) &&
		    !strcmp(sdt_trace_event_desc__name(d), name))
			return true;
	}
	return false;
}

static const struct sdt_recorder *sort_rec; /* for cmp_event: qsort has no context */

/* Events by provider:event, then index: those of one provider:event side by side. */
static int cmp_event(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const struct sdt_trace_event_desc *dx = sdt_recorder__event(sort_rec, x);
	const struct sdt_trace_event_desc *dy = sdt_recorder__event(sort_rec, y);
	int c = strcmp(sdt_trace_event_desc__provider(dx), sdt_trace_event_desc__provider(dy));

	if (!c)
		c = strcmp(sdt_trace_event_desc__name(dx), sdt_trace_event_desc__name(dy));
	return c ? c : (x > y) - (x < y);
}

void rec_report_silence(const struct rec_setup *s)
{
	size_t n = sdt_recorder__event_count(s->rec), i, j, k, shown = 0, more = 0;
	size_t *idx = calloc(n ? n : 1, sizeof(*idx));
	char text[1024], best_text[1024];

	if (!idx)
		return;
	rec_filter_report(s);
	for (i = 0; i < n; i++) {
		if (!sdt_recorder__event(s->rec, i))
			goto out; /* not run */
		idx[i] = i;
	}
	sort_rec = s->rec;
	qsort(idx, n, sizeof(*idx), cmp_event);
	for (i = 0; i < n; i = j) {
		const struct sdt_trace_event_desc *d = sdt_recorder__event(s->rec, idx[i]);
		const char *provider = sdt_trace_event_desc__provider(d);
		const char *name = sdt_trace_event_desc__name(d);
		uint64_t hits = 0;
		int best = -1, r;

		/* the events of this provider:event (other files, other argument layouts) */
		for (j = i; j < n; j++) {
			const struct sdt_trace_event_desc *e = sdt_recorder__event(s->rec, idx[j]);

			if (strcmp(sdt_trace_event_desc__provider(e), provider) ||
			    strcmp(sdt_trace_event_desc__name(e), name))
				break;
			hits += sdt_recorder__count(s->rec, idx[j]);
		}
		for (k = i; k < j; k++) {
			r = sdt_recorder__silence(s->rec, idx[k], s->types, text, sizeof(text));
			/* hit: only a note that says it fires less than its name */
			if (hits && r != SDT_SILENCE_FIRES)
				continue;
			if (r > 0 && (best < 0 || silence_rank(r) < silence_rank(best))) {
				best = r;
				snprintf(best_text, sizeof(best_text), "%s", text);
			}
		}
		/* a file with its sites not armed: said even when other files' sites were hit */
		if (unarmed_find(s->rec, provider, name, text, sizeof(text)) != SIZE_MAX) {
			best = SDT_SILENCE_NOT_ARMED;
			snprintf(best_text, sizeof(best_text), "%s", text);
		}
		if (best <= 0)
			continue;
		if (shown >= REC_SILENCE_MAX) {
			more++;
			continue;
		}
		shown++;
		/* no hit, but a filter that may have dropped them all: say that, not "not run" */
		if (!hits && best == SDT_SILENCE_NOT_RUN &&
		    rec_filter_silence(s, idx[i], best_text, sizeof(best_text))) {
			fprintf(stderr, "sdtrace: 0 hits: %%%s:%s: filtered: %s\n", provider, name,
				best_text);
			continue;
		}
		fprintf(stderr, "sdtrace: %llu hits: %%%s:%s: %s: %s\n", (unsigned long long)hits,
			provider, name, sdt_silence__key(best), best_text);
	}
	/* the provider:events only a file not armed has (no event of the recording) */
	for (i = 0; i < sdt_recorder__unarmed_count(s->rec); i++) {
		const char *provider, *name;

		sdt_recorder__unarmed(s->rec, i, &provider, &name, text, sizeof(text));
		if (is_event(s->rec, provider, name) ||
		    unarmed_find(s->rec, provider, name, best_text, sizeof(best_text)) < i)
			continue;
		if (shown >= REC_SILENCE_MAX) {
			more++;
			continue;
		}
		shown++;
		fprintf(stderr, "sdtrace: 0 hits: %%%s:%s: %s: %s\n", provider, name,
			sdt_silence__key(SDT_SILENCE_NOT_ARMED), text);
	}
	if (more)
		fprintf(stderr, "sdtrace: ... and %zu more events with no hit\n", more);
out:
	free(idx);
}
