/* SPDX-License-Identifier: MIT */
/*
 * Test-only driver of the recorder (lib/record/recorder.c), for tests/e2e/t03*.sh.
 *
 *	sdtrace-test-record [OPTIONS] -e PROVIDER:NAME FILE -- CMD [ARGS...]
 *	sdtrace-test-record [OPTIONS] -e PROVIDER:NAME FILE -p PID [-p PID...]
 *	sdtrace-test-record [OPTIONS] -e PROVIDER:NAME FILE -a
 *	sdtrace-test-record --remove-stale
 *	sdtrace-test-record --hold STOP_FILE [--ready FILE] -e PROVIDER:NAME FILE
 *
 * --hold: a session in the moment between writing its definitions and opening them: the events'
 * uprobes are created in a session group of this process (named as the recorder names it) and
 * held without a perf event on them (so the kernel would let anyone delete them) until STOP_FILE
 * exists; prints "group G" first. Then they are removed.
 *
 * Options: --sem auto|refctr|poke, --count (counting mode), --ready FILE (created once armed),
 * --fail-after N (the sink fails on sample N+1), --pages N, --duration MS, --quiet (no sample
 * lines). Prints one line per sample, "sample PROVIDER:NAME pid=P tid=T arg1=V ...", then
 * "samples=N lost=N status=S method=M" (status: the command's exit code, or sig:N).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sdtrace/record.h"
#include "sdtrace/sdtrace.h"
#include "record/tracefs/tracefs.h"
#include "record/tracefs/uprobe.h"
#include "trace/trace_event.h"

#define MAX_EVENTS 4096

struct ctx {
	const struct sdt_trace_event_desc *descs[MAX_EVENTS];
	const char *ready;
	bool quiet;
	long fail_after;
	uint64_t samples, lost;
};

static int on_desc(void *c, const struct sdt_trace_event_desc *d)
{
	struct ctx *x = c;

	if (d->index >= MAX_EVENTS)
		return -E2BIG;
	x->descs[d->index] = d;
	printf("event %s:%s %s/%s sites=%zu args=%zu\n", d->provider, d->name, d->group, d->event,
	       d->nsites, d->nargs);
	return 0;
}

static void on_armed(void *c)
{
	struct ctx *x = c;
	int fd;

	fflush(stdout);
	if (x->ready) {
		fd = open(x->ready, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
	}
}

static void print_field(const struct sdt_trace_field *f, const unsigned char *raw, uint32_t size)
{
	uint64_t u = 0;
	int64_t s;

	if (f->offset > size || size - f->offset < f->size || f->size > 8 || f->is_data_loc) {
		printf("?");
		return;
	}
	memcpy(&u, raw + f->offset, f->size); /* little-endian host */
	if (f->is_signed && f->size < 8 && (u >> (f->size * 8 - 1)) & 1)
		u |= ~0ull << (f->size * 8);
	s = (int64_t)u;
	if (f->is_signed)
		printf("%" PRId64, s);
	else
		printf("%" PRIu64, u);
}

static int on_sample(void *c, const struct sdt_trace_sample *s)
{
	struct ctx *x = c;
	const struct sdt_trace_event_desc *d = s->event < MAX_EVENTS ? x->descs[s->event] : NULL;
	size_t i;

	if (x->fail_after >= 0 && x->samples >= (uint64_t)x->fail_after)
		return -ECANCELED;
	x->samples++;
	if (x->quiet || !d)
		return 0;
	printf("sample %s:%s pid=%u tid=%u", d->provider, d->name, s->pid, s->tid);
	for (i = 0; i < d->nargs; i++) {
		printf(" %s=", d->args[i].name);
		if (d->args[i].field < 0)
			printf("unavailable");
		else
			print_field(&d->fields[d->args[i].field], s->raw, s->raw_size);
	}
	printf("\n");
	return 0;
}

static void on_comm(void *c, uint32_t pid, uint32_t tid, const char *comm)
{
	struct ctx *x = c;

	if (!x->quiet)
		printf("comm pid=%u tid=%u %s\n", pid, tid, comm);
}

static void on_lost(void *c, uint32_t cpu, uint64_t n)
{
	struct ctx *x = c;

	x->lost += n;
	printf("lost cpu=%u count=%" PRIu64 "\n", cpu, n);
}

/* --hold: create, wait for @stop, remove. The exit code. */
static int hold(struct sdt_file *f, const size_t *sites, size_t n, const char *stop,
		const char *ready)
{
	struct sdt_uprobe_set_opts so = {.use_ref_ctr = sdt_tracefs_has_ref_ctr() > 0};
	struct sdt_uprobe_set *s = NULL;
	int err, fd;

	/* the recorder's form: a uprobe's ref_ctr_offset must agree with the others at its site */
	err = sdt_uprobe_set__new(&so, &s);
	if (!err)
		err = sdt_uprobe_set__add(s, f, sites, n);
	if (!err)
		err = sdt_uprobe_set__create(s);
	if (err) {
		fprintf(stderr, "error: %s\n", sdt_errmsg());
		sdt_uprobe_set__free(s);
		return 1;
	}
	printf("group %s\n", sdt_uprobe_set__group(s));
	fflush(stdout);
	if (ready) {
		fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd >= 0)
			close(fd);
	}
	while (access(stop, F_OK))
		usleep(10000);
	err = sdt_uprobe_set__remove(s);
	if (err)
		fprintf(stderr, "error: %s\n", sdt_errmsg());
	sdt_uprobe_set__free(s);
	return err ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: sdtrace-test-record [--sem M] [--count] [--ready F] -e P:N FILE "
			"(-- CMD | -p PID | -a)\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct ctx x = {.fail_after = -1};
	struct sdt_recorder_sink sink = {&x, on_desc, on_armed, on_sample, on_comm, on_lost, NULL, NULL};
	const char *specs[64], *file = NULL, *hold_stop = NULL;
	size_t nspecs = 0, npids = 0, *sites = NULL, nsites = 0, i, j;
	struct sdt_recorder *r = NULL;
	struct sdt_file *f = NULL;
	pid_t pids[64];
	int err, st, ai;
	/* tracefs, as before auto became the library's default: t0300 checks its group names */
	SDT_OPTS(sdt_recorder_opts, o, .semaphore = SDT_SEMAPHORE_AUTO,
		 .engine = SDT_ENGINE_TRACEFS);

	/*
	 * A line per write: the traced command often shares this output file, and a block
	 * buffer's flush would let its line ("sem=0") land inside one of ours (t0300, BPF engine)
	 */
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (ai = 1; ai < argc; ai++) {
		const char *a = argv[ai];

		if (!strcmp(a, "--")) {
			o.argv = argv + ai + 1;
			break;
		} else if (!strcmp(a, "--remove-stale")) {
			char *names = NULL;

			err = sdt_recorder__remove_stale(&names);
			if (err < 0) {
				fprintf(stderr, "error: %s\n", sdt_errmsg());
				return 1;
			}
			printf("removed %d stale group(s)%s%s\n", err, names ? ": " : "",
			       names ? names : "");
			free(names);
			return 0;
		} else if (!strcmp(a, "--sem") && ai + 1 < argc) {
			a = argv[++ai];
			o.semaphore = !strcmp(a, "refctr") ? SDT_SEMAPHORE_REFCTR
				      : !strcmp(a, "poke") ? SDT_SEMAPHORE_POKE
							   : SDT_SEMAPHORE_AUTO;
		} else if (!strcmp(a, "--hold") && ai + 1 < argc) {
			hold_stop = argv[++ai];
		} else if (!strcmp(a, "--count")) {
			o.count_only = true;
		} else if (!strcmp(a, "--quiet")) {
			x.quiet = true;
			/*
			 * Whole lines per write(): the command writes to the same file, and a line
			 * split across two of our writes could take its output in the middle
			 * (t0305 summed the "lost" lines short by one line's count).
			 */
			setvbuf(stdout, NULL, _IOLBF, 0);
		} else if (!strcmp(a, "--ready") && ai + 1 < argc) {
			x.ready = argv[++ai];
		} else if (!strcmp(a, "--fail-after") && ai + 1 < argc) {
			x.fail_after = atol(argv[++ai]);
		} else if (!strcmp(a, "--pages") && ai + 1 < argc) {
			o.ring_pages = strtoul(argv[++ai], NULL, 10);
		} else if (!strcmp(a, "--duration") && ai + 1 < argc) {
			o.duration_ms = (unsigned int)strtoul(argv[++ai], NULL, 10);
		} else if (!strcmp(a, "-e") && ai + 1 < argc && nspecs < 64) {
			specs[nspecs++] = argv[++ai];
		} else if (!strcmp(a, "-p") && ai + 1 < argc && npids < 64) {
			pids[npids++] = (pid_t)atoi(argv[++ai]);
		} else if (!strcmp(a, "-a")) {
			o.system_wide = true;
		} else if (a[0] != '-' && !file) {
			file = a;
		} else {
			usage();
		}
	}
	if (!file || !nspecs)
		usage();
	o.pids = pids;
	o.npids = npids;
	if (sdt_file__open(file, NULL, &f)) {
		fprintf(stderr, "error: %s\n", sdt_errmsg());
		return 1;
	}
	sites = calloc(sdt_file__site_count(f) + 1, sizeof(*sites));
	for (i = 0; i < sdt_file__site_count(f); i++) {
		const struct sdt_site *s = sdt_file__site(f, i);

		for (j = 0; j < nspecs; j++) {
			struct sdt_spec *sp;

			if (sdt_spec__parse(specs[j], &sp))
				usage();
			if (sdt_spec__match(sp, sdt_site__provider(s), sdt_site__name(s))) {
				sites[nsites++] = i;
				sdt_spec__free(sp);
				break;
			}
			sdt_spec__free(sp);
		}
	}
	if (hold_stop) {
		err = hold(f, sites, nsites, hold_stop, x.ready);
		sdt_file__free(f);
		free(sites);
		return err;
	}
	err = sdt_recorder__new(&o, &r);
	if (!err)
		err = sdt_recorder__add(r, f, sites, nsites);
	if (!err)
		err = sdt_recorder__run(r, &sink);
	if (err) {
		fprintf(stderr, "error: %s\n", sdt_errmsg());
		fflush(stdout);
	} else {
		st = sdt_recorder__exit_status(r);
		if (o.count_only)
			for (i = 0; i < sdt_recorder__event_count(r); i++)
				printf("count %zu %" PRIu64 "\n", i, sdt_recorder__count(r, i));
		printf("samples=%" PRIu64 " lost=%" PRIu64, x.samples, sdt_recorder__lost(r));
		if (st == -1)
			printf(" status=none");
		else if (WIFEXITED(st))
			printf(" status=%d", WEXITSTATUS(st));
		else
			printf(" status=sig:%d", WTERMSIG(st));
		printf(" method=%s\n", sdt_recorder__semaphore_method(r));
	}
	sdt_recorder__free(r);
	sdt_file__free(f);
	free(sites);
	return err ? 1 : 0;
}
