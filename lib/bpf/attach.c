/* SPDX-License-Identifier: MIT */
/*
 * Placing the program on a file's sites: one uprobe_multi link for the whole file (Linux 6.6:
 * every site, its semaphore's ref_ctr offset and its cookie in one bpf(BPF_LINK_CREATE)), or on
 * older kernels one perf-event uprobe per site through libbpf. Detaching closes the links (the
 * uprobe_multi ones at once, close_links()).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/sdt_bpf.h"
#include "bpf/bpf_internal.h"
#include "util/internal.h"

static int multi_link(struct sdt_bpf *b, const char *path, const uint64_t *offsets,
		      const uint64_t *ref_ctr, const uint64_t *cookies, size_t n)
{
	struct sdt_link_create_uprobe_multi attr;
	unsigned char raw[128] = {0}; /* union bpf_attr's size in 6.1 is 144: the prefix is ours */
	size_t cap = b->link_fds_cap;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_fd = (uint32_t)bpf_program__fd(b->skel->progs.sdt_hit);
	attr.attach_type = SDT_BPF_TRACE_UPROBE_MULTI;
	attr.path = (uint64_t)(uintptr_t)path;
	attr.offsets = (uint64_t)(uintptr_t)offsets;
	attr.ref_ctr_offsets = (uint64_t)(uintptr_t)ref_ctr;
	attr.cookies = (uint64_t)(uintptr_t)cookies;
	attr.cnt = (uint32_t)n;
	memcpy(raw, &attr, sizeof(attr));
	fd = (int)syscall(__NR_bpf, BPF_LINK_CREATE, raw, sizeof(raw));
	if (fd < 0)
		return -errno;
	if (sdt_grow((void **)&b->link_fds, &cap, b->nlink_fds + 1, sizeof(*b->link_fds))) {
		close(fd);
		return sdt_err(-ENOMEM, "out of memory");
	}
	b->link_fds_cap = cap;
	b->link_fds[b->nlink_fds++] = fd;
	return 0;
}

static int perf_links(struct sdt_bpf *b, const char *path, const uint64_t *offsets,
		      const uint64_t *ref_ctr, const uint64_t *cookies, size_t n)
{
	size_t i, cap;

	for (i = 0; i < n; i++) {
		LIBBPF_OPTS(bpf_uprobe_opts, uo, .ref_ctr_offset = ref_ctr[i],
			    .bpf_cookie = cookies[i]);
		struct bpf_link *l;

		cap = b->links_cap;
		if (sdt_grow((void **)&b->links, &cap, b->nlinks + 1, sizeof(*b->links)))
			return sdt_err(-ENOMEM, "out of memory");
		b->links_cap = cap;
		l = bpf_program__attach_uprobe_opts(b->skel->progs.sdt_hit, -1, path,
						    (size_t)offsets[i], &uo);
		if (!l)
			return sdt_err(-errno, "'%s': uprobe at 0x%llx: %s", path,
				       (unsigned long long)offsets[i], sdt_bpf_last_libbpf_msg());
		b->links[b->nlinks++] = l;
	}
	return 0;
}

static int attach_file(struct sdt_bpf *b, const char *path, const uint64_t *offsets,
		       const uint64_t *ref_ctr, const uint64_t *cookies, size_t n)
{
	int err;

	if (!n)
		return 0;
	if (b->multi) {
		err = multi_link(b, path, offsets, ref_ctr, cookies, n);
		if (!err) {
			b->method = "uprobe_multi";
			return 0;
		}
		if (err != -EINVAL && err != -EOPNOTSUPP && err != -ENOSYS && err != -E2BIG)
			return sdt_err(err, "'%s': attaching %zu sites (uprobe_multi): %s", path, n,
				       strerror(-err));
		/*
		 * A kernel without the link: the program stays loaded for it, which such a
		 * kernel does not check; perf-event uprobes take it all the same.
		 */
		if (b->nlink_fds)
			return sdt_err(err, "'%s': attaching %zu sites (uprobe_multi): %s", path,
				       n, strerror(-err));
		b->multi = false;
	}
	err = perf_links(b, path, offsets, ref_ctr, cookies, n);
	if (!err)
		b->method = "perf_event";
	return err;
}

int sdt_bpf__attach(struct sdt_bpf *b, const char *path, const uint64_t *offsets,
		    const uint64_t *ref_ctr, const uint64_t *cookies, size_t n)
{
	int err;

	sdt_bpf_libbpf_enter();
	err = attach_file(b, path, offsets, ref_ctr, cookies, n);
	sdt_bpf_libbpf_leave();
	return err;
}

#define CLOSE_THREADS 16

/* Every step-th fd of @fds from first: one thread's share of close_links(). */
struct closer {
	const int *fds;
	size_t n, first, step;
};

static void *close_some(void *arg)
{
	const struct closer *c = arg;
	size_t i;

	for (i = c->first; i < c->n; i += c->step)
		close(c->fds[i]);
	return NULL;
}

/*
 * The uprobe_multi links closed, several at once: closing one returns only after an RCU Tasks
 * Trace grace period (the kernel's uprobe_unregister_sync(), about 20-50 ms here), and waits
 * made at the same time end with the same grace period, so N links closed from N threads take
 * about one (8 links: 388 ms one after the other; BENCHMARKS.md, session 15). The threads block
 * every signal (the recorder's own are handled by the calling thread); a thread that cannot be
 * started leaves its share to the caller.
 */
static void close_links(const int *fds, size_t n)
{
	struct closer c[CLOSE_THREADS];
	pthread_t th[CLOSE_THREADS];
	bool started[CLOSE_THREADS] = {false};
	size_t k, nth = n < CLOSE_THREADS ? n : CLOSE_THREADS;
	sigset_t all, old;

	if (n < 2) {
		close_some(&(struct closer){.fds = fds, .n = n, .first = 0, .step = 1});
		return;
	}
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (k = 0; k < nth; k++) {
		c[k] = (struct closer){.fds = fds, .n = n, .first = k, .step = nth};
		if (k)
			started[k] = !pthread_create(&th[k], NULL, close_some, &c[k]);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	for (k = 0; k < nth; k++)
		if (!started[k])
			close_some(&c[k]);
	for (k = 1; k < nth; k++)
		if (started[k])
			pthread_join(th[k], NULL);
}

void sdt_bpf__detach(struct sdt_bpf *b)
{
	size_t i;

	close_links(b->link_fds, b->nlink_fds);
	b->nlink_fds = 0;
	for (i = 0; i < b->nlinks; i++)
		bpf_link__destroy(b->links[i]);
	b->nlinks = 0;
}

const char *sdt_bpf__attach_method(const struct sdt_bpf *b)
{
	return b->method;
}
