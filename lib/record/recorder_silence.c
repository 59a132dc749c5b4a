/* SPDX-License-Identifier: MIT */
/*
 * Why an event had no hit (sdt_recorder__silence(), sdtrace/record.h): the facts the end of the
 * recording gathers from the targets still alive, and the reason they, the semaphore method and
 * the provider files' notes give, the most specific first:
 *	not-mapped	no target maps the event's file (struct rec_added's ->mapped is 0)
 *	semaphore	the site has a semaphore and nothing raised it: found at 0 in a live target
 *			at the end, or never poked (poke reaches only what is mapped at the start)
 *	needs		a provider file's `@sdtrace needs:` note: a runtime switch
 *	fires		a provider file's `@sdtrace fires:` note: it fires only when ...
 *	not-run		none of these: armed (mapped, when known) and no hit; the cause is a guess,
 *			said as one: the code did not run, a switch no file notes, or processes
 *			not traced (or its hits were lost)
 * and, for the provider:events of a file met during the run that could not be armed (no event
 * of the recording: sdt_recorder__unarmed()):
 *	not-armed	why (recorder_late.c: the engine's message, e.g. the BPF maps full)
 * A fact that cannot be known (no live target: the command exited, or -a) is skipped.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "scan/file.h"
#include "sdtrace/types.h"
#include "sdtrace/trace.h"
#include "record/engine.h"
#include "record/recorder.h"
#include "util/internal.h"

/* Does process @pid map the file (@dev, @ino)? 1, 0, or -errno (no /proc/PID/maps). */
static int maps_file(pid_t pid, dev_t dev, ino_t ino)
{
	char path[64], line[4096];
	int found = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	fp = fopen(path, "re");
	if (!fp)
		return -errno;
	while (!found && fgets(line, sizeof(line), fp)) {
		unsigned long long start, end, pgoff, inode;
		unsigned int maj, min;
		char perms[8];

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu", &start, &end, perms, &pgoff, &maj,
			   &min, &inode) == 7 &&
		    inode == ino && makedev(maj, min) == dev)
			found = 1;
	}
	fclose(fp);
	return found;
}

/* The watched processes still alive: the -p processes, or the command. */
static bool all_alive(const struct sdt_recorder *r)
{
	size_t i;

	for (i = 0; i < r->targets.nwatch; i++)
		if (r->targets.watch[i].done)
			return false;
	return r->targets.nwatch > 0;
}

/* ->mapped of every file, from the /proc/PID/maps of the live targets. */
static void gather_mapped(struct sdt_recorder *r)
{
	bool complete = all_alive(r);
	size_t a, i;

	for (a = 0; a < r->nadds; a++) {
		struct rec_added *ad = &r->adds[a];
		bool asked_all = complete;
		struct stat st;
		int any = 0;

		if (ad->mapped == 1 || stat(ad->f->path, &st))
			continue;
		for (i = 0; i < r->targets.nwatch && !any; i++) {
			int m;

			if (r->targets.watch[i].done)
				continue;
			m = maps_file(r->targets.watch[i].pid, st.st_dev, st.st_ino);
			if (m < 0)
				asked_all = false; /* exited meanwhile: it may have mapped it */
			else if (m > 0)
				any = 1;
			else if (!r->facts.mapped_pid)
				r->facts.mapped_pid = r->targets.watch[i].pid;
		}
		if (any)
			ad->mapped = 1;
		else if (asked_all && ad->mapped < 0)
			ad->mapped = 0;
	}
}

int sdt_rec_facts_gather(struct sdt_recorder *r)
{
	struct rec_facts *f = &r->facts;
	size_t n = r->samples.nevents, e, i;

	sdt_rec_facts_release(f);
	f->sem = malloc(n ? n : 1);
	f->sem_pid = calloc(n ? n : 1, sizeof(*f->sem_pid));
	if (!f->sem || !f->sem_pid) {
		sdt_rec_facts_release(f);
		return sdt_err(-ENOMEM, "out of memory");
	}
	f->nevents = n;
	f->nwatched = r->targets.nwatch;
	memset(f->sem, -1, n ? n : 1);
	gather_mapped(r);
	for (e = 0; e < n; e++) {
		bool read_one = false;

		if (r->samples.counts && r->samples.counts[e])
			continue; /* hit: nothing to explain */
		/* an engine without ->has_semaphore has the kernel raise every one (BPF: ref_ctr) */
		if (!r->eng->has_semaphore || !r->eng->has_semaphore(r, e))
			continue;
		for (i = 0; i < r->targets.nwatch; i++) {
			pid_t pid = r->targets.watch[i].pid;
			int st;

			if (r->targets.watch[i].done)
				continue;
			st = r->eng->semaphore(r, e, pid);
			if (st == 1) {
				f->sem[e] = 1;
				break;
			}
			if (st == 0 && !read_one) {
				f->sem[e] = 0;
				f->sem_pid[e] = pid;
				read_one = true;
			}
		}
		/* poking reaches what is mapped at the start: a library loaded later (or a set armed
		 * during the run) is not poked */
		if (f->sem[e] < 0 && r->sem_method && !strcmp(r->sem_method, "poke") &&
		    !r->eng->poked(r, e))
			f->sem[e] = 0;
	}
	return 0;
}

void sdt_rec_facts_release(struct rec_facts *f)
{
	free(f->sem);
	free(f->sem_pid);
	memset(f, 0, sizeof(*f));
}

/* The index in r->adds of event @e's file, or r->nadds. */
static size_t event_add(const struct sdt_recorder *r, size_t e)
{
	const struct sdt_file *file = r->eng->event_file(r, e);
	size_t a;

	if (!file)
		return r->nadds;

	for (a = 0; a < r->nadds; a++)
		if (r->adds[a].f == file)
			break;
	return a;
}

static int say(char *text, size_t size, int reason, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int say(char *text, size_t size, int reason, const char *fmt, ...)
{
	va_list ap;

	if (text && size) {
		va_start(ap, fmt);
		vsnprintf(text, size, fmt, ap);
		va_end(ap);
	}
	return reason;
}

/* Append to @text (@size bytes, NUL-terminated already; may be NULL). */
static void add(char *text, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *text, size_t size, const char *fmt, ...)
{
	size_t len;
	va_list ap;

	if (!text || !size)
		return;
	len = strnlen(text, size);
	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(text + len, size - len, fmt, ap);
	va_end(ap);
}

/* Has add @a a site of @provider:@name (the specs, or the caller's on_file, chose it there)? */
static bool add_has(const struct rec_added *a, const char *provider, const char *name)
{
	size_t k;

	for (k = 0; k < a->n; k++) {
		const struct sdt_site *st = &a->f->sites[a->sites[k]];

		if (!strcmp(st->provider, provider) && !strcmp(st->name, name))
			return true;
	}
	return false;
}

/* Has file @dev/@ino (an exec'd one) sites of @provider:@name among the adds? */
static bool file_has(const struct sdt_recorder *r, dev_t dev, ino_t ino, const char *provider,
		     const char *name)
{
	size_t a;

	for (a = 0; a < r->nadds; a++)
		if ((dev || ino) && r->adds[a].dev == dev && r->adds[a].ino == ino &&
		    add_has(&r->adds[a], provider, name))
			return true;
	return false;
}

/* At most this many execs named in a reason, then how many more. */
#define CHAIN_SHOWN 8

/*
 * What the command exec'd, in order, appended to @text: "sh /x/shim -> /x/bin/python3.11" (a
 * script as its interpreter's name and the script; a process other than the one before with
 * its pid).
 */
static void add_chain(const struct sdt_recorder *r, char *text, size_t size)
{
	size_t i, n = r->late.nexecs;

	for (i = 0; i < n && i < CHAIN_SHOWN; i++) {
		const struct rec_exec *x = &r->late.execs[i];
		const char *base;

		if (i)
			add(text, size, " -> ");
		if (i && x->pid != r->late.execs[i - 1].pid)
			add(text, size, "(pid %d) ", (int)x->pid);
		if (x->script) {
			base = strrchr(x->interp, '/');
			add(text, size, "%s %s", base ? base + 1 : x->interp, x->script);
		} else {
			add(text, size, "%s", x->path);
		}
	}
	if (n > CHAIN_SHOWN || r->late.execs_more)
		add(text, size, " -> ... (%" PRIu64 " more)",
		    (uint64_t)(n > CHAIN_SHOWN ? n - CHAIN_SHOWN : 0) + r->late.execs_more);
}

/*
 * Add @a (never mapped: ->mapped 0) had no hit: what is known, as facts. Who did not map it;
 * with a followed command, what it exec'd and whether any of that has @provider:@name (NULL:
 * not said); a file mapped during the run that has it (@twin, or NULL).
 */
static int say_not_mapped(const struct sdt_recorder *r, const struct rec_added *a,
			  const char *provider, const char *name, const struct rec_added *twin,
			  char *text, size_t size)
{
	bool chain = r->late.nexecs > 0, any = false;
	size_t i;

	if (text && size)
		text[0] = '\0';
	if (r->facts.nwatched == 1 && r->facts.mapped_pid)
		add(text, size, "process %d does not map %s (its /proc/PID/maps at the end)",
		    (int)r->facts.mapped_pid, a->f->path);
	else if (chain)
		add(text, size, "neither the command nor its children mapped %s", a->f->path);
	else
		add(text, size, "the traced processes never mapped %s", a->f->path);
	if (chain) {
		add(text, size, "; they ran ");
		add_chain(r, text, size);
		for (i = 0; provider && i < r->late.nexecs && !any; i++)
			any = file_has(r, r->late.execs[i].dev, r->late.execs[i].ino, provider,
				       name);
		/* what each file has is known only when the caller looked (on_file) */
		if (provider && !any && r->o.on_file)
			add(text, size, ", and none of %s has %%%s:%s",
			    r->late.nexecs + r->late.execs_more > 1 ? "these" : "it", provider,
			    name);
	}
	if (twin && provider)
		add(text, size, "; %s has %%%s:%s too", twin->f->path, provider, name);
	return SDT_SILENCE_NOT_MAPPED;
}

/*
 * Another file than @a, seen mapped, with one of @a's provider:events (or @provider:@name when
 * given): into *@twin with its names; false if none.
 */
static bool find_twin(const struct sdt_recorder *r, const struct rec_added *a,
		      const char *provider, const char *name, const struct rec_added **twin,
		      const char **tprov, const char **tname)
{
	size_t b, k;

	for (b = 0; b < r->nadds; b++) {
		const struct rec_added *o = &r->adds[b];

		if (o == a || o->mapped != 1 || o->f == a->f ||
		    ((a->dev || a->ino) && o->dev == a->dev && o->ino == a->ino))
			continue;
		for (k = 0; k < a->n; k++) {
			const struct sdt_site *st = &a->f->sites[a->sites[k]];

			if (provider && (strcmp(st->provider, provider) || strcmp(st->name, name)))
				continue;
			if (add_has(o, st->provider, st->name)) {
				*twin = o;
				*tprov = st->provider;
				*tname = st->name;
				return true;
			}
		}
	}
	return false;
}

int sdt_recorder__file_silence(const struct sdt_recorder *r, size_t file_index,
			       size_t *twin_index, char *text, size_t size)
{
	const struct rec_added *a, *twin = NULL;
	const char *provider = NULL, *name = NULL;

	if (text && size)
		text[0] = '\0';
	if (twin_index)
		*twin_index = SIZE_MAX;
	if (!r || file_index >= r->nadds)
		return -ERANGE;
	a = &r->adds[file_index];
	if (a->mapped != 0)
		return SDT_SILENCE_NONE;
	if (find_twin(r, a, NULL, NULL, &twin, &provider, &name) && twin_index)
		*twin_index = (size_t)(twin - r->adds);
	return say_not_mapped(r, a, provider, name, twin, text, size);
}

const char *sdt_recorder__file_path(const struct sdt_recorder *r, size_t file_index)
{
	return r && file_index < r->nadds ? r->adds[file_index].f->path : NULL;
}

size_t sdt_recorder__exec_count(const struct sdt_recorder *r, uint64_t *more)
{
	if (more)
		*more = r ? r->late.execs_more : 0;
	return r ? r->late.nexecs : 0;
}

int sdt_recorder__exec(const struct sdt_recorder *r, size_t i, pid_t *pid, const char **path,
		       const char **script, const char **interp)
{
	const struct rec_exec *x;

	if (!r || i >= r->late.nexecs)
		return -ERANGE;
	x = &r->late.execs[i];
	if (pid)
		*pid = x->pid;
	if (path)
		*path = x->path;
	if (script)
		*script = x->script;
	if (interp)
		*interp = x->interp;
	return 0;
}

int sdt_recorder__silence(const struct sdt_recorder *r, size_t event, const struct sdt_types *types,
			  char *text, size_t size)
{
	/* the recorder's fields, not its accessors: recorder.c calls this file (layers) */
	const struct sdt_trace_event_desc *d =
	    r->eng && event < r->samples.nevents ? r->eng->event(r, event) : NULL;
	uint64_t hits;
	bool poke = r->sem_method && !strcmp(r->sem_method, "poke");
	const char *provider, *name, *note, *origin;
	size_t a;

	if (text && size)
		text[0] = '\0';
	if (!d)
		return -ERANGE;
	hits = r->samples.counts ? r->samples.counts[event] : 0;
	provider = sdt_trace_event_desc__provider(d);
	name = sdt_trace_event_desc__name(d);
	origin = sdt_types__origin(types, provider, name);
	if (hits) {
		/* hit, but perhaps less than its name says */
		note = sdt_types__note_text(types, provider, name, "fires");
		if (note)
			return say(text, size, SDT_SILENCE_FIRES, "%s (%s)", note, origin);
		return SDT_SILENCE_NONE;
	}
	a = event_add(r, event);
	if (a < r->nadds && r->adds[a].mapped == 0) {
		const struct rec_added *twin = NULL;
		const char *tp, *tn;

		find_twin(r, &r->adds[a], provider, name, &twin, &tp, &tn);
		return say_not_mapped(r, &r->adds[a], provider, name, twin, text, size);
	}
	if (event < r->facts.nevents && r->facts.sem[event] == 0) {
		if (r->facts.sem_pid[event])
			return say(text, size, SDT_SILENCE_SEMAPHORE,
				   "its semaphore was 0 in process %d at the end: the probe was "
				   "never enabled there%s",
				   (int)r->facts.sem_pid[event],
				   poke ? " (--semaphore=poke raises only the semaphores of files "
					  "mapped when the recording starts)"
					: "");
		return say(text, size, SDT_SILENCE_SEMAPHORE,
			   "its semaphore was never raised: %s was not mapped when the semaphores "
			   "were poked (--semaphore=poke reaches only the files mapped when the "
			   "recording starts; the kernel's refctr method reaches them all)",
			   a < r->nadds ? r->adds[a].f->path : "its file");
	}
	note = sdt_types__note_text(types, provider, name, "needs");
	if (note)
		return say(text, size, SDT_SILENCE_NEEDS, "%s (%s)", note, origin);
	note = sdt_types__note_text(types, provider, name, "fires");
	if (note)
		return say(text, size, SDT_SILENCE_FIRES, "%s (%s)", note, origin);
	if (r->samples.lost)
		return say(text, size, SDT_SILENCE_NOT_RUN,
			   "no hit recorded, but %" PRIu64 " were lost (full ring buffers): it "
			   "may have fired",
			   r->samples.lost);
	/*
	 * What is known: its sites were armed (and, when seen, its file mapped), and no hit came.
	 * Why is a guess, worded as one: the code did not run, or it needs a switch no provider
	 * file notes (Ruby's method probes need a TracePoint), or it ran in processes not traced
	 * (a -p server's work in backends forked before the start).
	 */
	return say(text, size, SDT_SILENCE_NOT_RUN,
		   "%s%s armed, no hit: most likely the code that fires it did not run; else "
		   "it needs a runtime switch no provider file notes, or it ran in processes "
		   "that were not traced",
		   a < r->nadds && r->adds[a].mapped == 1 ? "mapped and " : "",
		   a < r->nadds ? r->adds[a].f->path : "its sites");
}

size_t sdt_recorder__unarmed_count(const struct sdt_recorder *r)
{
	return r ? r->late.nunarmed : 0;
}

int sdt_recorder__unarmed(const struct sdt_recorder *r, size_t i, const char **provider,
			  const char **name, char *text, size_t size)
{
	const struct rec_unarmed_event *u;
	const struct rec_added *a;

	if (text && size)
		text[0] = '\0';
	if (!r || i >= r->late.nunarmed)
		return -ERANGE;
	u = &r->late.unarmed[i];
	a = &r->adds[u->add];
	if (provider)
		*provider = u->provider;
	if (name)
		*name = u->name;
	return say(text, size, SDT_SILENCE_NOT_ARMED,
		   "'%s' (mapped by process %d) was not armed: %s", a->f->path, (int)a->unarmed_pid,
		   a->unarmed ? a->unarmed : "unknown");
}

const char *sdt_silence__key(int reason)
{
	switch (reason) {
	case SDT_SILENCE_NOT_MAPPED:
		return "not-mapped";
	case SDT_SILENCE_SEMAPHORE:
		return "semaphore";
	case SDT_SILENCE_NEEDS:
		return "needs";
	case SDT_SILENCE_FIRES:
		return "fires";
	case SDT_SILENCE_NOT_RUN:
		return "not-run";
	case SDT_SILENCE_NOT_ARMED:
		return "not-armed";
	default:
		return "";
	}
}
