/* SPDX-License-Identifier: MIT */
/* The options and set-up shared by `record`, `trace` and `stat`. See record-setup.h. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "names.h"
#include "record-env.h"
#include "record-filter.h"
#include "json.h"
#include "record-setup.h"

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
    "      --owner USER      with -a: arm only files owned by USER (root, a name or a uid);\n"
    "                        with -a and -x, files met later are armed only if copies of a -x\n"
    "                        binary (the same build-id)\n"
    "      --duration SECS   stop after this long\n"
    "      --semaphore=M     auto (default), refctr (the kernel's ref_ctr_offset) or poke\n"
    "                        (increment and restore in the target's memory; tracefs only)\n"
    "  -m, --mmap-pages N    ring buffer data pages per CPU (a power of two; default 1024)\n"
    "      --engine=E        auto (the default: bpf when the kernel, privileges and sites\n"
    "                        allow it, else tracefs; -v and report --header say which ran\n"
    "                        and why), bpf (one BPF program, BPF ring buffers; strings of\n"
    "                        4095 bytes, indexed and thread-local arguments) or tracefs\n"
    "                        (uprobe events, perf rings; a hit's strings share one 4096-\n"
    "                        byte page); the default is $SDTRACE_ENGINE when set\n"
    "      --no-follow       arm once, before the start: do not follow what CMD execs (ptrace)\n"
    "                        nor arm files mapped later (a dlopen()ed library, a program\n"
    "                        started after -a began, the children of -p processes)\n"
    "  -- CMD [ARGS...]      run CMD, stopped until every probe is armed; stop when it exits.\n"
    "                        CMD is followed: each program it or its children exec (a shim, env,\n"
    "                        sh -c) is looked up and armed before its first instruction\n"
    "\n"
    "SIGINT, SIGTERM and SIGHUP stop it cleanly (CMD is sent SIGTERM, and SIGKILL 3 s later or\n"
    "at a second signal). SIGINT is caught even when ignored at start (`sdtrace ... &` in a\n"
    "script); a SIGHUP ignored at start stays ignored (nohup). After a SIGKILL, CMD goes on\n"
    "untraced; the next sdtrace removes the probes.\n"
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
#define OPT_OWNER     0x101

/* --owner root|USER|UID. 0, or a usage error's exit code after saying it. */
static int parse_owner(struct rec_setup *s, const char *arg)
{
	struct passwd *pw = getpwnam(arg);
	unsigned long uid;
	char *end;

	if (pw) {
		s->owner = pw->pw_uid;
	} else {
		errno = 0;
		uid = strtoul(arg, &end, 10);
		if (!*arg || *end || errno || uid > (uid_t)-2)
			return cli_usage_error(s->cmd, "--owner: no user '%s'", arg);
		s->owner = (uid_t)uid;
	}
	s->owner_only = true;
	return 0;
}

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
		s->engine_named = true;
		return parse_engine(s, arg, "--engine");
	case OPT_NO_FOLLOW:
		s->no_follow = true;
		return 0;
	case OPT_OWNER:
		return parse_owner(s, arg);
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
    {"owner", required_argument, NULL, OPT_OWNER},
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
			ret = cli_bad_option(cmd->name, argc, argv, longopts);
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

/* A file met during the run could not be armed: the recording goes on without it. */
static void late_error(const char *msg, void *ctx)
{
	(void)ctx;
	cli_error("%s", msg);
}

/* Every spec well-formed: a usage error, before anything is looked up. */
static int check_specs(const struct rec_setup *s)
{
	size_t i;

	for (i = 0; i < s->nspecs; i++) {
		struct sdt_spec *sp;

		if (sdt_spec__parse(s->specs_text[i], &sp))
			return cli_usage_error(s->cmd, "%s", sdt_errmsg());
		sdt_spec__free(sp);
	}
	return 0;
}

/*
 * Nothing matched at the start (the command's execs were to tell), and nothing the command ran
 * had the events either: the same error as a spec that matches nothing before the start, found
 * only later (sdtrace(1), EXIT STATUS: 1, whatever the command's status).
 */
static bool nothing_matched(const struct rec_setup *s)
{
	return s->deferred && s->rec && !sdt_recorder__late_file_count(s->rec) &&
	       !sdt_recorder__event_count(s->rec) && !sdt_recorder__unarmed_count(s->rec);
}

/* At most this many execs in a line, then how many more. */
#define CHAIN_SHOWN 8

/*
 * What the command ran (sdt_recorder__exec()), in order, into @buf: "sh /x/shim -> /x/bin/prog"
 * (a script as its interpreter's name and the script); "" when not followed.
 */
static void exec_chain(const struct sdt_recorder *rec, char *buf, size_t size)
{
	uint64_t more = 0;
	size_t n = sdt_recorder__exec_count(rec, &more), i, len = 0;
	const char *path, *script, *interp, *base;
	pid_t pid, prev = 0;

	buf[0] = '\0';
	for (i = 0; i < n && i < CHAIN_SHOWN && len < size; i++) {
		if (sdt_recorder__exec(rec, i, &pid, &path, &script, &interp))
			break;
		base = interp ? strrchr(interp, '/') : NULL;
		base = base ? base + 1 : interp;
		len += (size_t)snprintf(buf + len, size - len, "%s%s%.0d%s%s%s%s",
					i ? " -> " : "", i && pid != prev ? "(pid " : "",
					i && pid != prev ? (int)pid : 0, i && pid != prev ? ") " : "",
					script ? base : path, script ? " " : "", script ? script : "");
		prev = pid;
	}
	if (len < size && (n > CHAIN_SHOWN || more))
		snprintf(buf + len, size - len, " -> ... (%llu more)",
			 (unsigned long long)(n > CHAIN_SHOWN ? n - CHAIN_SHOWN : 0) + more);
}

void rec_setup_print_late(const struct rec_setup *s)
{
	size_t n = s->rec ? sdt_recorder__late_file_count(s->rec) : 0;
	char chain[1024];

	if (n) {
		fprintf(stderr, "sdtrace: %zu binar%s armed during the run (exec'd or mapped by a "
				"followed process)\n",
			n, n == 1 ? "y" : "ies");
	} else if (nothing_matched(s)) {
		exec_chain(s->rec, chain, sizeof(chain));
		/* cli_error(): the chain names paths others chose, escaped */
		cli_error("no SDT event matches '%s' in anything the command ran%s%s",
			  s->nspecs ? s->specs_text[0] : "", chain[0] ? ": " : "", chain);
	}
}

int rec_setup_finish(struct rec_setup *s, int argc, char **argv, bool count_only)
{
	SDT_OPTS(sdt_recorder_opts, ro);
	SDT_OPTS(sdt_specs_opts, so, .notify = notify, .late_error = late_error,
		 .owner_only = s->owner_only, .owner = s->owner);
	char *stale = NULL;
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
	ret = cli_check_can_record(s->cmd);
	if (ret)
		return ret;

	n = sdt_recorder__remove_stale(&stale);
	if (n > 0)
		cli_warn("removed %d uprobe group%s left by a killed sdtrace: %s", n,
			 n == 1 ? "" : "s", stale ? stale : "");
	free(stale);

	ret = check_specs(s);
	if (ret)
		return ret;
	if (sdt_types__new(&s->types) ||
	    sdt_types__load_default(s->types, s->type_files, s->ntype_files) < 0) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	cli_types_warnings(s->types);

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
	/* $SDTRACE_ENGINE is a default: aggregation in the kernel, the BPF engine's, overrides it */
	ro.engine = s->agg_for && !s->engine_named ? SDT_ENGINE_DEFAULT : s->engine;
	ro.agg_for = s->agg_for;
	ro.agg_ctx = s->agg_ctx;
	ro.agg_max_keys = s->agg_max_keys;
	ro.no_follow = s->no_follow;
	rec_env_switches(&ro);
	if (sdt_recorder__new(&ro, &s->rec)) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	so.cache_dir = cli.cache_dir;
	so.paths = (const char *const *)s->paths;
	so.npaths = s->npaths;
	so.types = s->types;
	ret = sdt_recorder__add_specs(s->rec, (const char *const *)s->specs_text, s->nspecs, &so);
	if (ret < 0) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	s->deferred = ret == SDT_SPECS_DEFERRED;
	if (s->deferred && cli.verbose)
		fprintf(stderr, "sdtrace: '%s' has no SDT probes: %s follows what it executes\n",
			s->argv[0], s->cmd);
	if (cli.verbose)
		rec_say_engine(s);
	return 0;
}

void rec_say_engine(struct rec_setup *s)
{
	const char *e = sdt_recorder__engine(s->rec), *why = sdt_recorder__engine_reason(s->rec);

	fprintf(stderr, "sdtrace: engine %s%s%s%s\n", e, why ? " (auto: " : "", why ? why : "",
		why ? ")" : "");
	if (!strcmp(e, "tracefs"))
		fprintf(stderr, "sdtrace: the tracefs engine keeps the strings of a hit within one "
				"4096-byte page shared by its fields (a longer one: its first bytes, "
				"marked truncated); the BPF engine keeps 4095 bytes of each\n");
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
	if (nothing_matched(s))
		return EXIT_RUNTIME;
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
	sdt_types__free(s->types);
	free(s->type_files);
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

/* Was a not-mapped line said for file @path (one of @said[0..n))? */
static bool path_said(const char *const *said, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(said[i], path))
			return true;
	return false;
}

/* The -x argument that names file @path (the same file), or NULL. */
static const char *x_named(const struct rec_setup *s, const char *path)
{
	struct stat a, b;
	size_t i;

	if (stat(path, &a))
		return NULL;
	for (i = 0; i < s->npaths; i++)
		if (!stat(s->paths[i], &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return s->paths[i];
	return NULL;
}

void rec_report_silence(const struct rec_setup *s)
{
	size_t n = sdt_recorder__event_count(s->rec), i, j, k, f, shown = 0, more = 0, nsaid = 0;
	size_t nfiles = sdt_recorder__file_count(s->rec);
	size_t *idx = calloc(n ? n : 1, sizeof(*idx));
	/* the files a not-mapped line named: an event's each, then each file's */
	const char **said = calloc(n + nfiles + 1, sizeof(*said));
	char text[1024], best_text[1024];

	if (!idx || !said)
		goto out;
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
		/* not-mapped is the reason only when every file of the group is never mapped */
		for (k = i; best == SDT_SILENCE_NOT_MAPPED && k < j; k++) {
			const char *p = sdt_trace_event_desc__path(sdt_recorder__event(s->rec, idx[k]));

			if (p && !path_said(said, nsaid, p))
				said[nsaid++] = p;
		}
		if (shown >= REC_SILENCE_MAX) {
			more++;
			continue;
		}
		shown++;
		/* no hit, but a filter that may have dropped them all: say that, not "not run" */
		if (!hits && best == SDT_SILENCE_NOT_RUN &&
		    rec_filter_silence(s, idx[i], best_text, sizeof(best_text))) {
			/* cli_note(): the reason names paths others chose, escaped */
			cli_note("0 hits: %%%s:%s: filtered: %s", provider, name, best_text);
			continue;
		}
		cli_note("%llu hits: %%%s:%s: %s: %s", (unsigned long long)hits, provider, name,
			 sdt_silence__key(best), best_text);
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
		cli_note("0 hits: %%%s:%s: %s: %s", provider, name,
			 sdt_silence__key(SDT_SILENCE_NOT_ARMED), text);
	}
	/* a file never mapped whose events were hit in another file (or had another reason) */
	for (f = 0; f < sdt_recorder__file_count(s->rec); f++) {
		const char *path = sdt_recorder__file_path(s->rec, f), *x;
		size_t twin;

		if (sdt_recorder__file_silence(s->rec, f, &twin, text, sizeof(text)) !=
			SDT_SILENCE_NOT_MAPPED ||
		    !path || path_said(said, nsaid, path))
			continue;
		said[nsaid++] = path;
		if (shown >= REC_SILENCE_MAX) {
			more++;
			continue;
		}
		shown++;
		x = x_named(s, path);
		if (x && twin != SIZE_MAX)
			cli_note("-x %s: not-mapped: %s: name %s with -x, or drop -x", x, text,
				 sdt_recorder__file_path(s->rec, twin));
		else
			cli_note("%s: not-mapped: %s", path, text);
	}
	if (more)
		fprintf(stderr, "sdtrace: ... and %zu more events with no hit\n", more);
out:
	free(said);
	free(idx);
}
