/* SPDX-License-Identifier: MIT */
/*
 * sdt_recorder__add_specs() at the start: event specs to targets. The specs are parsed (with
 * opts.paths, a spec without a binary once per path), the binaries they name scanned and
 * cached, then resolved: by the target's own files (a command, processes) or through the cache
 * (system-wide, or binaries named). A command with no SDT notes of its own (a launcher) whose
 * lookup found nothing is left to its execs (SDT_SPECS_DEFERRED).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/specs.h"
#include "sdtrace/cache.h"
#include "sdtrace/find.h"
#include "sdtrace/proc.h"
#include "sdtrace/scan.h"
#include "sdtrace/spec.h"
#include "util/internal.h"

static int parse_one(const char *text, struct sdt_spec **out)
{
	int err = sdt_spec__parse(text, out);

	return err < 0 ? err : 0;
}

/* Parse the specs; those without a binary are tied to each of the paths when there are any. */
static int parse_specs(struct sdt_rec_specs *s)
{
	size_t i, j, n = 0, total = s->ntexts * (s->npaths ? s->npaths : 1);
	char *text;
	int err;

	s->specs = calloc(total ? total : 1, sizeof(*s->specs));
	if (!s->specs)
		return sdt_err(-ENOMEM, "out of memory");
	for (i = 0; i < s->ntexts; i++) {
		const char *t = s->texts[i];
		struct sdt_spec *sp;

		if ((err = parse_one(t, &sp)))
			goto out;
		if (sdt_spec__path(sp) || !s->npaths) {
			s->specs[n++] = sp;
			continue;
		}
		sdt_spec__free(sp);
		for (j = 0; j < s->npaths; j++) {
			const char *p = s->paths[j];

			text = sdt_asprintf("%s%s:%%%s", p[0] == '/' || p[0] == '.' ? "" : "./", p,
					    t[0] == '%' ? t + 1 : t);
			if (!text) {
				err = sdt_err(-ENOMEM, "out of memory");
				goto out;
			}
			err = parse_one(text, &s->specs[n]);
			free(text);
			if (err)
				goto out;
			n++;
		}
	}
	err = 0;
out:
	s->nspecs = n;
	return err;
}

/* Scan and cache the binaries the specs name, so that later lookups by name find them. */
static int cache_named(struct sdt_cache *c, const struct sdt_rec_specs *s)
{
	enum sdt_cache_result res;
	size_t i;
	int err;

	for (i = 0; i < s->nspecs; i++) {
		const char *p = sdt_spec__path(s->specs[i]);

		if (!p || strpbrk(p, "*?["))
			continue; /* a glob names binaries the cache (or the target) has */
		err = sdt_cache__add(c, p, &res);
		if (err < 0)
			return err;
		if (res == SDT_CACHE_NOT_ELF || res == SDT_CACHE_SKIPPED)
			return sdt_err(-ENOEXEC, "'%s': not an ELF file", p);
	}
	return 0;
}

/* "; did you mean ...?" for @sp among the events of files @paths (scanned again), or NULL. */
static char *paths_hint(const struct sdt_spec *sp, char *const *paths, size_t npaths)
{
	char **names = NULL, **nn, *near = NULL, *hint = NULL;
	size_t n = 0, i, j;

	for (i = 0; i < npaths; i++) {
		struct sdt_file *f;

		if (sdt_file__open(paths[i], NULL, &f))
			continue;
		nn = realloc(names, (n + sdt_file__site_count(f) + 1) * sizeof(*names));
		if (nn)
			names = nn;
		for (j = 0; nn && j < sdt_file__site_count(f); j++) {
			const struct sdt_site *st = sdt_file__site(f, j);

			names[n] =
			    sdt_asprintf("%s:%s", sdt_site__provider(st), sdt_site__name(st));
			if (names[n])
				n++;
		}
		sdt_file__free(f);
	}
	if (!sdt_spec__suggest(sp, (const char *const *)names, n, &near) && near)
		hint = sdt_asprintf("; did you mean %s?", near);
	free(near);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return hint;
}

/*
 * With several paths a spec without a binary is looked up in each of them, and must match in
 * at least one (not in every one): resolved with allow_empty, each spec checked here.
 */
static int check_each_matched(const struct sdt_rec_specs *s)
{
	size_t i, j, k;
	int err = 0;

	for (i = 0; i < s->ntexts && !err; i++) {
		struct sdt_spec *sp;
		char *own = NULL; /* the spec's own binary, when it names one */
		bool found = false;

		if ((err = parse_one(s->texts[i], &sp)))
			return err;
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
			char *hint = sdt_spec__path(sp) ? paths_hint(sp, &own, own ? 1 : 0)
							: paths_hint(sp, s->paths, s->npaths);

			if (sdt_spec__path(sp))
				err = sdt_err(-ENOENT, "no SDT event matches '%s'%s", s->texts[i],
					      hint ? hint : "");
			else
				err = sdt_err(-ENOENT,
					      "no SDT event matches '%s' in any of the %zu -x "
					      "binaries%s",
					      s->texts[i], s->npaths, hint ? hint : "");
			free(hint);
		}
		sdt_spec__free(sp);
		free(own);
	}
	return err;
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

int sdt_rec_specs_resolve(struct sdt_rec_specs *s, char *const *argv, const pid_t *pids,
			  size_t npids, bool follow)
{
	SDT_OPTS(sdt_resolve_opts, ro, .notify = s->o.notify, .ctx = s->o.ctx);
	struct sdt_cache *c = NULL;
	int err;

	err = sdt_cache__open(s->cache_dir, NULL, &c);
	if (err)
		return err;
	err = parse_specs(s);
	if (!err)
		err = cache_named(c, s);
	if (err)
		goto out;
	ro.allow_empty = s->npaths > 1;
	if (!s->npaths && (argv || npids)) {
		/* by the target: the files the command or the processes run */
		SDT_OPTS(sdt_resolve_target, tg, .argv = argv, .pids = pids, .npids = npids);

		err = sdt_cache__resolve_target(c, s->specs, s->nspecs, &tg, &ro, &s->targets);
		if (err == -ENOENT && argv && follow) {
			/* a launcher (a script, env, sh -c): what it execs is looked up then */
			char *msg = sdt_strdup(sdt_errmsg());

			if (!command_has_notes(argv))
				err = SDT_SPECS_DEFERRED;
			else if (msg)
				sdt_err(err, "%s", msg);
			free(msg);
		}
		goto out;
	}
	err = sdt_cache__resolve(c, s->specs, s->nspecs, &ro, &s->targets);
	if (!err && s->npaths > 1)
		err = check_each_matched(s);
out:
	sdt_cache__free(c);
	return err;
}
