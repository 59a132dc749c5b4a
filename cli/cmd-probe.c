/* SPDX-License-Identifier: MIT */
/* sdtrace probe: user-defined probes (symbols, offsets, returns, SDT aliases) in the SDT cache. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "sdtrace/sdtrace.h"

static const char probe_usage[] =
    "usage: sdtrace [--cache-dir DIR] probe <subcommand> [options]\n"
    "\n"
    "User probes, kept per build-id in the SDT cache as perf keeps them (`perf probe --cache`).\n"
    "\n"
    "  add -x|--exec PATH [--json] NAME=LOCATION [ARG...]   define a probe on a function of PATH\n"
    "  list [--json] [-v|--verbose] [PATTERN]               the user probes of the cache\n"
    "  remove [-x|--exec PATH] NAME...                      remove probes (NAME may be a glob)\n"
    "\n"
    "LOCATION: SYMBOL, SYMBOL+OFFSET, SYMBOL%return, 0xADDRESS (from .symtab/.dynsym), or\n"
    "%PROVIDER:EVENT (an SDT event under a short name). ARG: NAME=FETCH[:TYPE], e.g.\n"
    "size=%di:u64, path=+0(%si):string, ret=$retval:s64.\n"
    "\n"
    "examples:\n"
    "  sdtrace probe add -x ./prog work=do_work n=%di:u64\n"
    "  sdtrace probe add -x ./prog work_ret=do_work%return ret=$retval:s64\n"
    "  sdtrace probe add -x /lib/x86_64-linux-gnu/libc.so.6 libc_getpid=getpid\n"
    "  sdtrace probe list --json\n"
    "  sdtrace probe remove work work_ret\n";

/* @no_create: probe list creates nothing (a missing cache is an empty one). */
static int open_cache(struct sdt_cache **c, bool no_create)
{
	SDT_OPTS(sdt_cache_opts, o, .no_create = no_create);

	if (sdt_cache__open(cli.cache_dir, &o, c)) {
		cli_error("%s", sdt_errmsg());
		return EXIT_RUNTIME;
	}
	return 0;
}

static void json_probe(struct json *j, const struct sdt_user_probe *p)
{
	size_t i;

	json_begin_object(j);
	json_key(j, "name");
	json_string(j, sdt_user_probe__name(p));
	json_key(j, "group");
	json_string(j, sdt_user_probe__group(p));
	json_key(j, "path");
	json_string(j, sdt_user_probe__path(p));
	json_key(j, "build_id");
	if (sdt_user_probe__build_id(p))
		json_string(j, sdt_user_probe__build_id(p));
	else
		json_null(j);
	json_key(j, "location");
	if (sdt_user_probe__location(p))
		json_string(j, sdt_user_probe__location(p));
	else
		json_null(j);
	json_key(j, "return");
	json_bool(j, sdt_user_probe__is_return(p));
	json_key(j, "args");
	json_begin_array(j);
	for (i = 0; i < sdt_user_probe__arg_count(p); i++)
		json_string(j, sdt_user_probe__arg(p, i));
	json_end_array(j);
	json_key(j, "lines");
	json_begin_array(j);
	for (i = 0; i < sdt_user_probe__line_count(p); i++)
		json_string(j, sdt_user_probe__line(p, i));
	json_end_array(j);
	json_end_object(j);
}

static int probe_add(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"exec", required_argument, NULL, 'x'},
	    {"json", no_argument, NULL, 'J'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct sdt_user_probe *p = NULL;
	struct sdt_cache *c = NULL;
	const char *path = NULL;
	char *name, *eq;
	bool json = false;
	int opt, ret = 0;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+x:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'x':
			path = optarg;
			break;
		case 'J':
			json = true;
			break;
		case 'h':
			fputs(probe_usage, stdout);
			return 0;
		default:
			return cli_bad_option("probe", argc, argv, longopts);
		}
	}
	if (!path)
		return cli_usage_error("probe", "add: -x PATH is required");
	if (optind >= argc)
		return cli_usage_error("probe", "add: NAME=LOCATION is required");
	name = strdup(argv[optind]);
	if (!name) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	eq = strchr(name, '=');
	if (!eq || eq == name || !eq[1]) {
		free(name);
		return cli_usage_error("probe", "add: '%s' is not NAME=LOCATION", argv[optind]);
	}
	*eq = '\0';
	if (sdt_user_probe__define(path, name, eq + 1, (const char *const *)argv + optind + 1,
				   (size_t)(argc - optind - 1), &p)) {
		cli_error("%s", sdt_errmsg());
		free(name);
		return EXIT_RUNTIME;
	}
	free(name);
	ret = open_cache(&c, false);
	if (!ret && sdt_cache__probe_add(c, p)) {
		cli_error("%s", sdt_errmsg());
		ret = EXIT_RUNTIME;
	}
	if (!ret && json) {
		struct json j;

		json_init(&j, stdout, false);
		json_probe(&j, p);
		json_newline(&j);
	} else if (!ret) {
		printf("added %s:%s (%s)\n", sdt_user_probe__group(p), sdt_user_probe__name(p),
		       sdt_user_probe__path(p));
	}
	sdt_user_probe__free(p);
	sdt_cache__free(c);
	return ret;
}

static int probe_list(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"json", no_argument, NULL, 'J'},
	    {"verbose", no_argument, NULL, 'v'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct sdt_user_probes *l = NULL;
	struct sdt_cache *c = NULL;
	bool json = false, verbose = false;
	size_t i, k;
	int opt, ret;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+vh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'J':
			json = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			fputs(probe_usage, stdout);
			return 0;
		default:
			return cli_bad_option("probe", argc, argv, longopts);
		}
	}
	if (argc - optind > 1)
		return cli_usage_error("probe", "list: one PATTERN at most");
	ret = open_cache(&c, true);
	if (ret)
		return ret;
	if (sdt_cache__probes(c, optind < argc ? argv[optind] : NULL, &l)) {
		cli_error("%s", sdt_errmsg());
		sdt_cache__free(c);
		return EXIT_RUNTIME;
	}
	if (json) {
		struct json j;

		json_init(&j, stdout, false);
		json_begin_array(&j);
		for (i = 0; i < sdt_user_probes__count(l); i++)
			json_probe(&j, sdt_user_probes__probe(l, i));
		json_end_array(&j);
		json_newline(&j);
	} else {
		for (i = 0; i < sdt_user_probes__count(l); i++) {
			const struct sdt_user_probe *p = sdt_user_probes__probe(l, i);
			const char *loc = sdt_user_probe__location(p);

			cli_put_escaped(stdout, sdt_user_probe__name(p));
			fputs("  ", stdout);
			cli_put_escaped(stdout, sdt_user_probe__path(p));
			fputs("  ", stdout);
			cli_put_escaped(stdout, loc ? loc : "?");
			for (k = 0; k < sdt_user_probe__arg_count(p); k++) {
				fputc(' ', stdout);
				cli_put_escaped(stdout, sdt_user_probe__arg(p, k));
			}
			fputc('\n', stdout);
			for (k = 0; verbose && k < sdt_user_probe__line_count(p); k++) {
				fputs("    ", stdout);
				cli_put_escaped(stdout, sdt_user_probe__line(p, k));
				fputc('\n', stdout);
			}
		}
	}
	sdt_user_probes__free(l);
	sdt_cache__free(c);
	return 0;
}

static int probe_remove(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"exec", required_argument, NULL, 'x'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct sdt_cache *c = NULL;
	const char *path = NULL;
	int opt, ret, i, n;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "+x:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'x':
			path = optarg;
			break;
		case 'h':
			fputs(probe_usage, stdout);
			return 0;
		default:
			return cli_bad_option("probe", argc, argv, longopts);
		}
	}
	if (optind >= argc)
		return cli_usage_error("probe", "remove: NAME is required");
	ret = open_cache(&c, false);
	if (ret)
		return ret;
	for (i = optind; i < argc && !ret; i++) {
		n = sdt_cache__probe_remove(c, argv[i], path);
		if (n < 0) {
			cli_error("%s", sdt_errmsg());
			ret = EXIT_RUNTIME;
		} else if (!n) {
			cli_error("no user probe '%s' in the cache", argv[i]);
			ret = EXIT_RUNTIME;
		} else {
			printf("removed %d probe%s '%s'\n", n, n == 1 ? "" : "s", argv[i]);
		}
	}
	sdt_cache__free(c);
	return ret;
}

int cmd_probe(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("probe", "a subcommand is required (add, list, remove)");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(probe_usage, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "add"))
		return probe_add(argc - 1, argv + 1);
	if (!strcmp(argv[1], "list"))
		return probe_list(argc - 1, argv + 1);
	if (!strcmp(argv[1], "remove"))
		return probe_remove(argc - 1, argv + 1);
	return cli_usage_error("probe", "unknown subcommand '%s'", argv[1]);
}
