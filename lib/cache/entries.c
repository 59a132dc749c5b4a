/* SPDX-License-Identifier: MIT */
/*
 * The entries of the cache: the list sdt_cache__entries() hands out, each entry's counts and
 * state, and the accessors of include/sdtrace/cache.h. Apart from the maintenance (maint.c),
 * which walks the same list to remove, purge, update and check.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cache/cache_internal.h"
#include "cache/index.h"
#include "cache/meta.h"
#include "cache/probes_file.h"
#include "scan/sdt_elf.h"

int sdt_cache_file_build_id(const char *path, char **bid)
{
	struct sdt_elf e;
	int err;

	*bid = NULL;
	err = sdt_elf_open(path, &e);
	if (err)
		return err;
	err = sdt_elf_build_id(&e, bid);
	sdt_elf_close(&e);
	return err;
}

/* ---- the list of entries ------------------------------------------------------------------ */

int sdt_cache_collect_link(const char *bid, const char *path, void *ctx)
{
	struct sdt_collect *col = ctx;
	struct sdt_cache_entry e = {0};

	/* perf's pseudo-files ([kernel.kallsyms], [vdso]) are not files: not ours to judge */
	if (path[1] == '[')
		return 0;

	e.build_id = sdt_strdup(bid);
	e.path = sdt_strdup(path);
	if (!e.build_id || !e.path ||
	    sdt_grow((void **)&col->e, &col->cap, col->n + 1, sizeof(e))) {
		free(e.build_id);
		free(e.path);
		return -ENOMEM;
	}
	col->e[col->n++] = e;
	return 0;
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct sdt_cache_entry *a = pa, *b = pb;
	int c = strcmp(a->path, b->path);

	return c ? c : strcmp(a->build_id, b->build_id);
}

/* Fill the counts and the state of @e. */
static void entry_state(const struct sdt_cache *c, struct sdt_cache_entry *e)
{
	struct sdt_probes p = {0};
	struct stat st;
	char *text = NULL, *bid = NULL;
	size_t len, i, probes_cap = 0;
	bool stat_ok = false, broken = false;
	int err;

	/* no probes file: an entry perf made for another purpose (perf record), without SDT */
	err = sdt_cache_read_entry_file(c, e->path, e->build_id, "probes", &text, &len);
	if ((err && err != -ENOENT) || (!err && sdt_probes_parse(text, len, &p))) {
		e->state = SDT_ENTRY_BROKEN;
		goto out;
	}
	/* a damaged file: its counts are what is left of it */
	if (p.bad_lines || p.unterminated)
		broken = true;
	for (i = 0; i < p.n; i++) {
		const char *h = p.entries[i].header, *colon = strchr(h, ':');
		char *name;

		if (p.entries[i].kind == '%') {
			e->nevents++;
			e->nsites += p.entries[i].nlines;
			continue;
		}
		/* a user probe: "GROUP:NAME=..." */
		if (!colon || e->nprobes >= SDT_PROBES_MAX_NAMES)
			continue;
		name = sdt_strndup(colon + 1, strcspn(colon + 1, "= "));
		if (!name ||
		    sdt_grow((void **)&e->probes, &probes_cap, e->nprobes + 1, sizeof(char *))) {
			free(name);
			continue; /* out of memory: the count stays short */
		}
		e->probes[e->nprobes++] = name;
	}
	free(text);
	text = NULL;
	if (broken) {
		e->state = SDT_ENTRY_BROKEN;
		goto out;
	}
	if (stat(e->path, &st) < 0) {
		e->state = SDT_ENTRY_GONE;
		goto out;
	}
	if (!sdt_cache_read_entry_file(c, e->path, e->build_id, SDT_META_NAME, &text, &len)) {
		struct sdt_meta m;

		if (!sdt_meta_parse(text, len, &m)) {
			e->ours = true;
			stat_ok = sdt_meta_matches(&m, &st) && !strcmp(m.build_id, e->build_id);
			sdt_meta_release(&m);
		}
	}
	if (stat_ok) {
		e->state = SDT_ENTRY_OK;
		goto out;
	}
	/* no meta (perf's entry) or the file was touched: its build-id decides */
	e->state = !sdt_cache_file_build_id(e->path, &bid) && bid && !strcmp(bid, e->build_id)
		       ? SDT_ENTRY_OK
		       : SDT_ENTRY_CHANGED;
	if (e->ours && e->state == SDT_ENTRY_OK)
		e->state = SDT_ENTRY_CHANGED; /* same build, other inode or mtime: meta is stale */
out:
	sdt_probes_release(&p);
	free(text);
	free(bid);
}

int sdt_cache_entries_read(struct sdt_cache *c, struct sdt_cache_entry **out, size_t *n)
{
	struct sdt_collect col = {0};
	size_t i;
	int err;

	*out = NULL;
	*n = 0;
	err = sdt_walk_links(c, sdt_cache_collect_link, NULL, &col);
	if (err) {
		sdt_cache_entry_array_free(col.e, col.n);
		return sdt_err(err, "'%s': cannot read the cache: %s", c->root, strerror(-err));
	}
	for (i = 0; i < col.n; i++)
		entry_state(c, &col.e[i]);
	if (col.n)
		qsort(col.e, col.n, sizeof(*col.e), cmp_entry);
	*out = col.e;
	*n = col.n;
	return 0;
}

void sdt_cache_entry_array_free(struct sdt_cache_entry *e, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		free(e[i].build_id);
		free(e[i].path);
		for (k = 0; k < e[i].nprobes; k++)
			free(e[i].probes[k]);
		free(e[i].probes);
	}
	free(e);
}

int sdt_cache__entries(struct sdt_cache *c, struct sdt_cache_entries **out)
{
	struct sdt_cache_entries *l = calloc(1, sizeof(*l));
	int err;

	*out = NULL;
	if (!l)
		return sdt_err(-ENOMEM, "out of memory");
	err = sdt_cache_entries_read(c, &l->e, &l->n);
	if (err) {
		free(l);
		return err;
	}
	*out = l;
	return 0;
}

void sdt_cache_entries__free(struct sdt_cache_entries *l)
{
	if (!l)
		return;
	sdt_cache_entry_array_free(l->e, l->n);
	free(l);
}

size_t sdt_cache_entries__count(const struct sdt_cache_entries *l)
{
	return l ? l->n : 0;
}

const struct sdt_cache_entry *sdt_cache_entries__entry(const struct sdt_cache_entries *l, size_t i)
{
	return l && i < l->n ? &l->e[i] : NULL;
}

const char *sdt_cache_entry__build_id(const struct sdt_cache_entry *e)
{
	return e->build_id;
}

const char *sdt_cache_entry__path(const struct sdt_cache_entry *e)
{
	return e->path;
}

size_t sdt_cache_entry__event_count(const struct sdt_cache_entry *e)
{
	return e->nevents;
}

size_t sdt_cache_entry__site_count(const struct sdt_cache_entry *e)
{
	return e->nsites;
}

bool sdt_cache_entry__ours(const struct sdt_cache_entry *e)
{
	return e->ours;
}

enum sdt_entry_state sdt_cache_entry__state(const struct sdt_cache_entry *e)
{
	return e->state;
}

size_t sdt_cache_entry__probe_count(const struct sdt_cache_entry *e)
{
	return e->nprobes;
}

const char *sdt_cache_entry__probe(const struct sdt_cache_entry *e, size_t i)
{
	return i < e->nprobes ? e->probes[i] : NULL;
}
