/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: the event index. The input is a list of records ("KEY\tVALUE\n", a value may hold
 * NULs) built into a CDB file at the root of a scratch cache (under /dev/shm when there is one),
 * then opened and searched the ways sdtrace searches it: every key of the input and a few fixed
 * ones looked up, every record walked, and event specs made from the keys resolved through
 * sdt_cache__resolve(). The first byte holds flags: leave out the magic, the end marker or the
 * stamp (the index must then be refused and rebuilt, not trusted).
 *
 * Resolving scans each candidate file from disk; so that no input makes the fuzzer open files
 * of this machine, the PATH of every "BUILD-ID\0PATH" value is put under a directory that does
 * not exist.
 */
#include <cdb.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/cache_internal.h"
#include "cache/index.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RECORDS 64
#define NO_DIR	    "/nonexistent-sdtrace-fuzz"

static char root[64];
static char index_path[128];

static void cleanup(void)
{
	char p[192];

	unlink(index_path);
	snprintf(p, sizeof(p), "%s/%s", root, SDT_INDEX_LOCK);
	unlink(p);
	rmdir(root);
}

static int setup(void)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

	if (root[0])
		return 0;
	snprintf(root, sizeof(root), "%s/sdtrace-fuzz-index-%d", base, (int)getpid());
	snprintf(index_path, sizeof(index_path), "%s/%s", root, SDT_INDEX_NAME);
	if (mkdir(root, 0700) && errno != EEXIST)
		return -1;
	atexit(cleanup);
	return 0;
}

struct rec {
	const char *k, *v;
	size_t kl, vl;
};

static int count_value(const char *val, size_t len, void *ctx)
{
	size_t *n = ctx;

	(void)val;
	(void)len;
	(*n)++;
	return 0;
}

static int count_record(const char *k, size_t kl, const char *v, size_t vl, void *ctx)
{
	size_t *n = ctx;

	(void)k;
	(void)kl;
	(void)v;
	(void)vl;
	(*n)++;
	return 0;
}

static void notify(const char *msg, void *ctx)
{
	(void)ctx;
	if (!msg || !*msg)
		__builtin_trap();
}

/* Resolve "%P:E" (e:P:E keys), "%P:*" and "*:E" made from the keys: only specs the parser takes. */
static void resolve(struct sdt_cache *c, const struct rec *rs, size_t n)
{
	struct sdt_resolve_opts o = {.sz = sizeof(o),
				     .all_matches = true,
				     .skip_missing = true,
				     .allow_empty = true,
				     .notify = notify};
	struct sdt_spec *specs[8];
	struct sdt_targets *t;
	size_t i, ns = 0;

	for (i = 0; i < n && ns + 2 <= 8; i++) {
		char *text;

		if (rs[i].kl < 3 || (rs[i].k[0] != 'e' && rs[i].k[0] != 'p') || rs[i].k[1] != ':')
			continue;
		text = sdt_asprintf("%%%.*s", (int)(rs[i].kl - 2), rs[i].k + 2);
		if (text && strlen(text) == rs[i].kl - 1 && !sdt_spec__parse(text, &specs[ns]))
			ns++;
		free(text);
	}
	if (sdt_spec__parse("*:*", &specs[ns]) == 0)
		ns++;
	if (sdt_cache__resolve(c, specs, ns, &o, &t) == 0)
		sdt_targets__free(t);
	for (i = 0; i < ns; i++)
		sdt_spec__free(specs[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const fixed[] = {"\1magic",	"\1end",
					    "\1stamp",	"e:python:gc__start",
					    "p:python", "f:/usr/bin/python3.11",
					    ""};
	struct rec rs[MAX_RECORDS];
	static struct sdt_cache *c;
	struct sdt_index *idx = NULL;
	struct cdb_make cm;
	const char *p, *end;
	size_t n = 0, i, count = 0;
	unsigned int flags;
	char *buf = NULL;
	int fd;

	if (size < 1 || size > 65536 || setup())
		return 0;
	flags = data[0];
	p = (const char *)data + 1;
	end = (const char *)data + size;
	while (p < end && n < MAX_RECORDS) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *tab = memchr(p, '\t', (size_t)(le - p));

		rs[n].k = p;
		rs[n].kl = (size_t)((tab ? tab : le) - p);
		rs[n].v = tab ? tab + 1 : le;
		rs[n].vl = tab ? (size_t)(le - tab - 1) : 0;
		n++;
		p = nl ? nl + 1 : end;
	}

	fd = open(index_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return 0;
	buf = malloc(size + n * sizeof(NO_DIR));
	if (!buf || cdb_make_start(&cm, fd) < 0)
		goto out;
	if (!(flags & 1))
		cdb_make_add(&cm, "\1magic", 6, SDT_INDEX_MAGIC, strlen(SDT_INDEX_MAGIC));
	if (!(flags & 2))
		/* built when there was no .build-id: fresh while the scratch cache has none */
		cdb_make_add(&cm, "\1stamp", 6, "none\n", 5);
	for (i = 0; i < n; i++) {
		const char *nul = memchr(rs[i].v, '\0', rs[i].vl);
		size_t bl, pl;

		if (!nul) {
			cdb_make_add(&cm, rs[i].k, (unsigned)rs[i].kl, rs[i].v, (unsigned)rs[i].vl);
			continue;
		}
		bl = (size_t)(nul - rs[i].v) + 1;
		pl = rs[i].vl - bl;
		memcpy(buf, rs[i].v, bl);
		memcpy(buf + bl, NO_DIR, strlen(NO_DIR));
		memcpy(buf + bl + strlen(NO_DIR), nul + 1, pl);
		cdb_make_add(&cm, rs[i].k, (unsigned)rs[i].kl, buf,
			     (unsigned)(bl + strlen(NO_DIR) + pl));
	}
	if (!(flags & 4))
		cdb_make_add(&cm, "\1end", 4, "0", 1);
	if (cdb_make_finish(&cm) < 0)
		goto out;
	close(fd);
	fd = -1;

	/* opened once: the index file is what changes */
	if (!c && sdt_cache__open(root, NULL, &c))
		goto out;
	if (sdt_index_open(c, &idx, NULL) == 0) {
		for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
			sdt_index_find(idx, fixed[i], count_value, &count);
		for (i = 0; i < n; i++) {
			char *key = sdt_strndup(rs[i].k, rs[i].kl);

			if (key) {
				sdt_index_find(idx, key, count_value, &count);
				free(key);
			}
		}
		sdt_index_each(idx, "", count_record, &count);
		sdt_index_each(idx, "p:", count_record, &count);
		sdt_index_close(idx);
		resolve(c, rs, n);
	}
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	return 0;
}
