/* SPDX-License-Identifier: MIT */
/* sdt_recorder: the object, what is added to it, what it tells after the run (recorder.h). */
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "scan/file.h"
#include "scan/types.h"
#include "record/engine.h"
#include "record/recorder.h"
#include "util/internal.h"

int sdt_recorder__new(const struct sdt_recorder_opts *opts, struct sdt_recorder **out)
{
	struct sdt_recorder *r;
	int targets, err;

	r = calloc(1, sizeof(*r));
	if (!r)
		return sdt_err(-ENOMEM, "out of memory");
	err = SDT_OPTS_COPY(&r->o, opts, sdt_recorder_opts);
	if (err) {
		free(r);
		return err;
	}
	r->epfd = -1;
	r->follow.sigfd = -1;
	sdt_rec_child_init(&r->child);
	r->wakefd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->wakefd < 0) {
		err = -errno;
		free(r);
		return sdt_err(err, "eventfd: %s", strerror(-err));
	}
	targets = (r->o.argv && r->o.argv[0]) + (r->o.npids > 0) + r->o.system_wide;
	if (targets != 1) {
		close(r->wakefd);
		free(r);
		return sdt_err(-EINVAL, "give exactly one target: a command, processes (-p) or "
					"the whole system (-a)");
	}
	if (!r->o.ring_pages)
		r->o.ring_pages = SDT_RING_PAGES_DEFAULT;
	if (r->o.ring_pages & (r->o.ring_pages - 1)) {
		size_t pages = r->o.ring_pages;

		close(r->wakefd);
		free(r);
		return sdt_err(-EINVAL, "ring size must be a power of two pages, not %zu", pages);
	}
	if (r->o.semaphore == SDT_SEMAPHORE_POKE && r->o.system_wide) {
		close(r->wakefd);
		free(r);
		return sdt_err(-EINVAL, "semaphores cannot be poked system-wide (-a): there is no "
					"process to write to; use the kernel's ref_ctr_offset");
	}
	*out = r;
	return 0;
}

static void free_types(struct sdt_arg_type **types, const struct sdt_file *f, const size_t *sites,
		       size_t n)
{
	size_t i;

	for (i = 0; types && i < n; i++)
		if (types[i])
			sdt_arg_types__free(types[i], f->sites[sites[i]].nargs);
	free(types);
}

/* A deep copy of @types (n sites) into *out. 0 or -ENOMEM. */
static int copy_types(struct sdt_arg_type *const *types, const struct sdt_file *f,
		      const size_t *sites, size_t n, struct sdt_arg_type ***out)
{
	struct sdt_arg_type **c;
	size_t i, j, na;

	*out = NULL;
	c = calloc(n ? n : 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (!types[i])
			continue;
		na = f->sites[sites[i]].nargs;
		c[i] = calloc(na ? na : 1, sizeof(**c));
		if (!c[i])
			goto fail;
		for (j = 0; j < na; j++) {
			if (sdt_arg_type_copy(&c[i][j], &types[i][j])) {
				sdt_arg_types__free(c[i], j);
				c[i] = NULL;
				goto fail;
			}
		}
	}
	*out = c;
	return 0;
fail:
	free_types(c, f, sites, n);
	return -ENOMEM;
}

int sdt_recorder__add(struct sdt_recorder *r, const struct sdt_file *f, const size_t *sites,
		      size_t n)
{
	return sdt_recorder__add_typed(r, f, sites, n, NULL);
}

int sdt_recorder__add_typed(struct sdt_recorder *r, const struct sdt_file *f, const size_t *sites,
			    size_t n, struct sdt_arg_type *const *types)
{
	struct rec_added *a;
	size_t cap = r->nadds, total = n, i;
	int err;

	if (r->running && !r->late.in_callback)
		return sdt_err(-EBUSY, "sites are added during a run from opts.on_file only");
	for (i = 0; i < r->nadds; i++)
		total += r->adds[i].n;
	/* A file with a million notes must not become a million uprobes. */
	if (total > SDT_RECORD_MAX_SITES)
		return sdt_err(-E2BIG,
			       "%zu probe sites to arm, more than %u: name fewer events (or one "
			       "binary) in the event specs",
			       total, SDT_RECORD_MAX_SITES);
	for (i = 0; i < n; i++) {
		if (sites[i] >= f->nsites)
			return sdt_err(-ERANGE, "'%s': no site %zu", f->path, sites[i]);
		/* the sizes now, so that a mismatch is told before anything starts */
		if (types && types[i]) {
			err = sdt_types__check(f, &f->sites[sites[i]], types[i],
					       f->sites[sites[i]].nargs);
			if (err)
				return err;
		}
	}
	if (sdt_grow((void **)&r->adds, &cap, r->nadds + 1, sizeof(*r->adds)))
		return sdt_err(-ENOMEM, "out of memory");
	a = &r->adds[r->nadds];
	memset(a, 0, sizeof(*a));
	a->sites = sdt_reallocarray(NULL, n ? n : 1, sizeof(*sites));
	if (!a->sites)
		return sdt_err(-ENOMEM, "out of memory");
	memcpy(a->sites, sites, n * sizeof(*sites));
	if (types && copy_types(types, f, sites, n, &a->types)) {
		free(a->sites);
		a->sites = NULL;
		return sdt_err(-ENOMEM, "out of memory");
	}
	a->f = f;
	a->n = n;
	a->mapped = -1;
	a->set = -1;
	r->nadds++;
	return 0;
}

void sdt_recorder__stop(struct sdt_recorder *r)
{
	if (r)
		r->stop = 1;
}

uint64_t sdt_recorder__drain_now(struct sdt_recorder *r)
{
	uint64_t one = 1, ticket;
	ssize_t n;

	if (!r)
		return 0;
	ticket = __atomic_add_fetch(&r->asked, 1, __ATOMIC_SEQ_CST);
	/* a full counter (EAGAIN) is already asking */
	n = write(r->wakefd, &one, sizeof(one));
	(void)n;
	return ticket;
}

uint64_t sdt_recorder__drained(const struct sdt_recorder *r)
{
	return r->drained;
}

int sdt_rec_wake_watch(struct sdt_recorder *r)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = WAKE_TAG};

	if (epoll_ctl(r->epfd, EPOLL_CTL_ADD, r->wakefd, &ev))
		return sdt_err(-errno, "epoll_ctl: %s", strerror(errno));
	return 0;
}

void sdt_rec_wake_read(struct sdt_recorder *r)
{
	uint64_t n;

	if (read(r->wakefd, &n, sizeof(n)) == sizeof(n))
		r->drain_asked = true;
}

void sdt_rec_wake_drain(struct sdt_recorder *r)
{
	r->drain_asked = false;
	r->drained = __atomic_load_n(&r->asked, __ATOMIC_SEQ_CST);
}

int sdt_recorder__exit_status(const struct sdt_recorder *r)
{
	/* a command never released exits 127 without having run: that is no status of its */
	return r->child.reaped && r->child.released ? r->child.status : -1;
}

int sdt_recorder__stop_signal(const struct sdt_recorder *r)
{
	return r->stop_sig;
}

size_t sdt_recorder__event_count(const struct sdt_recorder *r)
{
	return r->samples.nevents;
}

uint64_t sdt_recorder__count(const struct sdt_recorder *r, size_t event)
{
	return event < r->samples.nevents && r->samples.counts ? r->samples.counts[event] : 0;
}

const struct sdt_trace_event_desc *sdt_recorder__event(const struct sdt_recorder *r, size_t event)
{
	return r->eng && event < r->samples.nevents ? r->eng->event(r, event) : NULL;
}

uint64_t sdt_recorder__elapsed_ns(const struct sdt_recorder *r)
{
	return r->armed_ns && r->ended_ns > r->armed_ns ? r->ended_ns - r->armed_ns : 0;
}

uint64_t sdt_recorder__lost(const struct sdt_recorder *r)
{
	return r->samples.lost;
}

const char *sdt_recorder__semaphore_method(const struct sdt_recorder *r)
{
	return r->sem_method ? r->sem_method : "none";
}

int sdt_recorder__file_mapped(const struct sdt_recorder *r, size_t file_index)
{
	return file_index < r->nadds ? r->adds[file_index].mapped : -1;
}

size_t sdt_recorder__file_count(const struct sdt_recorder *r)
{
	return r->nadds;
}

size_t sdt_recorder__late_file_count(const struct sdt_recorder *r)
{
	return r->late.armed_files;
}

void sdt_recorder__free(struct sdt_recorder *r)
{
	size_t i;

	if (!r)
		return;
	if (r->eng && r->eng->free)
		r->eng->free(r);
	for (i = 0; i < r->nsets; i++) {
		free(r->sets[i].tps);
		free(r->sets[i].ev_tp);
	}
	free(r->sets);
	sdt_rec_late_release(r);
	sdt_rec_forks_release(r);
	free(r->follow.t);
	for (i = 0; i < r->nadds; i++) {
		free_types(r->adds[i].types, r->adds[i].f, r->adds[i].sites, r->adds[i].n);
		free(r->adds[i].sites);
		free(r->adds[i].unarmed);
	}
	free(r->adds);
	sdt_rec_perf_release(&r->perf);
	sdt_rec_filters_release(r);
	sdt_rec_samples_release(&r->samples);
	sdt_rec_targets_release(&r->targets);
	sdt_rec_facts_release(&r->facts);
	if (r->ext_free)
		r->ext_free(r->ext); /* after the sites: they may point into its files */
	if (r->wakefd >= 0)
		close(r->wakefd);
	free(r);
}
