/* SPDX-License-Identifier: MIT */
/*
 * The mappings the targets have when recording begins (record -g): the kernel reports only later
 * mmaps (PERF_RECORD_MMAP2), so for -p processes (and with -a every process) the executable
 * file mappings of /proc/PID/maps are handed to the sink as if the kernel had reported them,
 * with the build-id read from the file (through /proc/PID/root: a container's files as it sees
 * them). A command needs none: it is recorded from its exec on.
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/samples.h"
#include "scan/sdt_elf.h"
#include "sdtrace/trace.h"
#include "util/internal.h"

/* Build-ids by path, for the libraries every process maps (-a). */
struct bid_cache {
	char **paths, **ids;
	size_t n, cap;
};

static const char *build_id_of(struct bid_cache *c, pid_t pid, const char *path)
{
	struct sdt_elf e;
	char *open_path, *hex = NULL;
	size_t i, cap;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->paths[i], path))
			return c->ids[i];
	open_path = sdt_asprintf("/proc/%d/root%s", (int)pid, path);
	if (!open_path)
		return NULL;
	if (sdt_elf_open(open_path, &e) == 0) {
		if (sdt_elf_build_id(&e, &hex))
			hex = NULL;
		sdt_elf_close(&e);
	}
	free(open_path);
	cap = c->cap;
	if (sdt_grow((void **)&c->paths, &cap, c->n + 1, sizeof(*c->paths)) ||
	    (cap = c->cap, sdt_grow((void **)&c->ids, &cap, c->n + 1, sizeof(*c->ids)))) {
		free(hex);
		return NULL;
	}
	c->cap = cap;
	c->paths[c->n] = sdt_strdup(path);
	if (!c->paths[c->n]) {
		free(hex);
		return NULL;
	}
	c->ids[c->n++] = hex;
	return hex;
}

/* "start-end perms offset dev inode   path": the executable lines with a file. */
static void process_maps(struct rec_samples *sp, struct bid_cache *c, pid_t pid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		uint64_t start, end, off;
		char perms[8];
		int name_at = 0;
		struct sdt_trace_mapping m = {0};
		char *name, *nl;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n", &start, &end,
			   perms, &off, &name_at) < 4 ||
		    !name_at || perms[2] != 'x' || end <= start)
			continue;
		name = line + name_at;
		if ((nl = strchr(name, '\n')))
			*nl = '\0';
		if (name[0] != '/')
			continue; /* [vdso], anonymous JIT code */
		m.pid = (uint32_t)pid;
		m.start = start;
		m.len = end - start;
		m.pgoff = off;
		m.path = name;
		m.build_id = build_id_of(c, pid, name);
		sdt_rec_maps_emit(sp, &m);
	}
	free(line);
	fclose(f);
}

void sdt_rec_maps_synthesize(struct rec_samples *sp, const pid_t *pids, size_t npids,
			     bool system_wide)
{
	struct bid_cache c = {0};
	struct dirent *d;
	size_t i;
	DIR *dir;

	if (!sp->sink->on_mapping)
		return;
	for (i = 0; i < npids; i++)
		process_maps(sp, &c, pids[i]);
	if (system_wide && (dir = opendir("/proc"))) {
		while ((d = readdir(dir))) {
			long pid = strtol(d->d_name, NULL, 10);

			if (pid > 0)
				process_maps(sp, &c, (pid_t)pid);
		}
		closedir(dir);
	}
	for (i = 0; i < c.n; i++) {
		free(c.paths[i]);
		free(c.ids[i]);
	}
	free(c.paths);
	free(c.ids);
}

void sdt_rec_maps_emit(struct rec_samples *sp, const struct sdt_trace_mapping *m)
{
	struct rec_map *k;

	if (!sp->sink->on_mapping)
		return;
	sp->sink->on_mapping(sp->sink->ctx, m);
	if (sp->nmaps >= REC_MAX_MAPS ||
	    sdt_grow((void **)&sp->maps, &sp->maps_cap, sp->nmaps + 1, sizeof(*sp->maps)))
		return;
	k = &sp->maps[sp->nmaps];
	*k = (struct rec_map){m->pid, m->start, m->len, m->pgoff, NULL, NULL};
	if ((m->build_id && !(k->build_id = sdt_strdup(m->build_id))) ||
	    (m->path && !(k->path = sdt_strdup(m->path)))) {
		free(k->build_id);
		return;
	}
	sp->nmaps++;
}

void sdt_rec_maps_fork(struct rec_samples *sp, uint32_t ppid, uint32_t pid)
{
	size_t i, n = sp->nmaps;

	if (pid == ppid)
		return; /* a thread */
	for (i = 0; i < n; i++) {
		struct rec_map k = sp->maps[i]; /* emit may move the array */
		struct sdt_trace_mapping m = {pid, k.start, k.len, k.pgoff, k.build_id, k.path};

		if (k.pid == ppid)
			sdt_rec_maps_emit(sp, &m);
	}
}

void sdt_rec_maps_release(struct rec_samples *sp)
{
	size_t i;

	for (i = 0; i < sp->nmaps; i++) {
		free(sp->maps[i].build_id);
		free(sp->maps[i].path);
	}
	free(sp->maps);
	sp->maps = NULL;
	sp->nmaps = sp->maps_cap = 0;
}
