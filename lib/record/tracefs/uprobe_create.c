/* SPDX-License-Identifier: MIT */
/*
 * A set's definitions in the kernel: registered before they are written, written in one batch
 * to uprobe_events, and removed again on every path, also from an exit or a fatal signal
 * (uprobe.h, "Leaving the kernel clean").
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record/tracefs/tracefs.h"
#include "record/tracefs/uprobe.h"
#include "record/tracefs/uprobe_set.h"
#include "util/internal.h"

/* Sets whose events may exist in the kernel; walked without a lock by the emergency path. */
static struct sdt_uprobe_set *volatile registry;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

static void registry_add(struct sdt_uprobe_set *s)
{
	pthread_mutex_lock(&registry_lock);
	s->next = registry;
	__atomic_store_n(&registry, s, __ATOMIC_RELEASE);
	s->registered = true;
	pthread_mutex_unlock(&registry_lock);
}

void sdt_uprobe_registry_del(struct sdt_uprobe_set *s)
{
	struct sdt_uprobe_set *volatile *pp;

	pthread_mutex_lock(&registry_lock);
	for (pp = &registry; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			__atomic_store_n(pp, s->next, __ATOMIC_RELEASE);
			break;
		}
	}
	s->registered = false;
	pthread_mutex_unlock(&registry_lock);
}

/*
 * Write removal lines: the batch first; when the kernel stops at a line (an event that was never
 * created answers ENOENT), line by line. Returns the first error other than ENOENT.
 */
int sdt_uprobe_remove_lines(const char *text, size_t len)
{
	char msg[1024];
	size_t off = 0;
	int first = 0, err;

	sdt_print_lines(SDT_DEBUG, "uprobe_events: remove ", text, len);
	if (!len || sdt_tracefs_uprobe_write(text, len) == 0)
		return 0;
	while (off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (text + off)) + 1 : len - off;

		err = sdt_tracefs_uprobe_write(text + off, n);
		if (err && err != -ENOENT && !first) {
			first = err;
			snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
		}
		off += n;
	}
	if (first)
		sdt_err(first, "%s", msg);
	return first;
}

int sdt_uprobe_set__create(struct sdt_uprobe_set *s)
{
	size_t i;
	int err;

	if (s->registered)
		return sdt_err(-EBUSY, "uprobe group '%s' already created", s->group);
	if (!s->nevents)
		return sdt_err(-ENOENT, "no probe sites to create");
	registry_add(s);
	sdt_print_lines(SDT_DEBUG, "uprobe_events: add ", s->defs.buf, s->defs.len);
	err = sdt_tracefs_uprobe_write(s->defs.buf, s->defs.len);
	if (err && s->share) {
		/*
		 * A kernel that refuses the shared form (immediates came in 5.7): once more with
		 * an event of its own for each event. If that fails too, its error is the one.
		 */
		char msg[1024];

		snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
		if (sdt_uprobe_set__remove(s))
			return sdt_err(err, "%s",
				       msg); /* still registered: its removal text stays */
		s->share = false;
		err = sdt_uprobe_set_rebuild(s);
		if (err)
			return err;
		sdt_err_clear();
		return sdt_uprobe_set__create(s);
	}
	if (err)
		goto fail;
	for (i = 0; i < s->nkev; i++) {
		err = sdt_uprobe_describe(s, &s->kev[i]);
		if (err)
			goto fail;
	}
	return 0;
fail : {
	char msg[1024];

	snprintf(msg, sizeof(msg), "%s", sdt_errmsg());
	sdt_uprobe_set__remove(s);
	return sdt_err(err, "%s", msg);
}
}

/*
 * EBUSY: an event is still held by a perf event. When the traced processes die at the moment
 * the recording ends (a Ctrl-C reaches the terminal's whole group), the copy a dying child
 * inherited can outlive the close of ours for a moment; so a few more tries, 10 ms apart
 * (removing again is harmless: an event already gone is skipped).
 */
#define REMOVE_BUSY_TRIES 50

int sdt_uprobe_set__remove(struct sdt_uprobe_set *s)
{
	const struct timespec pause = {0, 10 * 1000 * 1000};
	int err, tries = 0;

	if (!s || !s->registered)
		return 0;
	err = sdt_uprobe_remove_lines(s->removal.buf, s->removal.len);
	while (err == -EBUSY && ++tries < REMOVE_BUSY_TRIES) {
		nanosleep(&pause, NULL);
		err = sdt_uprobe_remove_lines(s->removal.buf, s->removal.len);
	}
	if (err)
		return sdt_err_prefix(err, "cannot remove uprobe group '%s'", s->group);
	sdt_uprobe_registry_del(s);
	return 0;
}

void sdt_uprobe_emergency_remove(void)
{
	static const char *const files[] = {"/sys/kernel/tracing/uprobe_events",
					    "/sys/kernel/debug/tracing/uprobe_events"};
	struct sdt_uprobe_set *s;
	size_t i;
	int fd = -1;

	for (i = 0; i < ARRAY_SIZE(files) && fd < 0; i++)
		fd = open(files[i], O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return;
	for (s = __atomic_load_n(&registry, __ATOMIC_ACQUIRE); s; s = s->next) {
		const char *p = s->removal.buf, *end = p + s->removal.len;

		/* One line per write: one missing event must not stop the others. */
		while (p && p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

			if (write(fd, p, n) < 0) {
				/* nothing to do: best effort */
			}
			p += n;
		}
	}
	close(fd);
}
