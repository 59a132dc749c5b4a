/* SPDX-License-Identifier: MIT */
/*
 * The inside of a struct sdt_uprobe_set, shared by the files that build, create, describe, poke
 * and free it (record/uprobe.h is the interface and says what a set is).
 */
#ifndef SDT_UPROBE_SET_H
#define SDT_UPROBE_SET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/tracefs/uprobe.h"
#include "record/tracefs/uprobe_layout.h"
#include "trace/trace_event.h"
#include "util/internal.h"

#define MAX_EVENTS   65536
/* Sharing: slots per shared trace event, and the longest path/fetch that may share (so that a
 * line stays far below tracefs' 4096-byte command limit: 33 fields of <= 72 bytes + path). */
#define SHARE_MAX_SLOTS 32
#define SHARE_MAX_PATH	1024
#define SHARE_MAX_FETCH 64
#define DEMUX_FIELD	"ev"
/* the room of long strings, last on every line with a string (uprobe_defs.c) */
#define ROOM_FIELD "_sdt_room"

/* What the set keeps per event beyond the shared description. */
struct ev_extra {
	const struct sdt_file *file;
	size_t *sites; /* indices into file's sites */
	size_t nsites, cap;
	/* per argument: the fetch type ("u64", "string", "b8@8/64"), NULL when unavailable; owned
	 */
	char **ftype;
	/* per site: its fetch per argument (NULL when unavailable), for the definition lines */
	char ***site_fetch;
	char *lname;	/* the event's own unique name; the trace event's is e->event */
	bool is_return; /* r: sites */
	dev_t dev;	/* the file, as the kernel tells probes apart (0/0: unknown) */
	ino_t ino;
};

/* One tracefs event: one session event, or several sharing it (uprobe_layout.h). */
struct kev {
	char *name;		      /* its first event's own name */
	struct sdt_uprobe_kevent pub; /* .event: its first event */
};

struct poked {
	pid_t pid;
	uint64_t addr;
	const struct sdt_file *file; /* which semaphore: the file, its offset there */
	uint64_t off;
};

struct sdt_uprobe_set {
	char group[SDT_MAX_EVENT_NAME + 1];
	bool use_ref_ctr;
	bool no_args;
	bool share;
	uint32_t index_base; /* opts.index_base: events[i].index is index_base + i */
	struct sdt_trace_event_desc *events;
	struct ev_extra *extra;
	size_t nevents, cap;
	/* the tracefs events, rebuilt after each add */
	struct kev *kev;
	size_t nkev;
	struct sdt_layout layout;
	struct sdt_buf defs;
	struct sdt_buf removal;
	bool registered; /* in the registry: definitions may exist in the kernel */
	struct sdt_uprobe_set *next;
	struct poked *poked;
	size_t npoked, poked_cap;
};

/* uprobe_defs.c: pack the events into tracefs events, rebuild the batch and the removal text. */
int sdt_uprobe_set_rebuild(struct sdt_uprobe_set *s);
void sdt_uprobe_set_kevs_free(struct sdt_uprobe_set *s);
bool sdt_uprobe_kev_shared(const struct sdt_uprobe_set *s, size_t ki);
/* uprobe_create.c: the registry of sets that may exist in the kernel, the removal writes. */
void sdt_uprobe_registry_del(struct sdt_uprobe_set *s);
int sdt_uprobe_remove_lines(const char *text, size_t len);
/* uprobe_describe.c: a created tracefs event's id and format, mapped to the set's events. */
int sdt_uprobe_describe(struct sdt_uprobe_set *s, struct kev *k);

#endif
