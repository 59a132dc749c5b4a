/* SPDX-License-Identifier: MIT */
/*
 * The uprobes of one sdtrace session: definitions built from scanned SDT sites, created in one
 * batch in a group of our own, described for the recorder, and removed on every path.
 *
 * Naming. A session's group is `sdtrace_<pid>_<starttime>_<seq>_<pidns>` (record/session.h):
 * the owner's pid, its start time and its pid namespace tell a later sdtrace, in whichever
 * namespace, whether the owner is provably dead (a recycled pid has another start time), <seq>
 * separates two sets of one process. It never collides with perf's `sdt_<provider>` groups, nor
 * with another sdtrace's, also of another container. The examples below leave the namespace out.
 * An event is `<provider>_<name>`; a second argument layout of the same probe gets `_2`, `_3`...;
 * a name longer than 64 bytes is cut and given the event's number.
 *
 * Grouping. Sites of the same provider:name in the same file whose arguments have the same names,
 * fetch types and descriptions (size, sign, float, string, rebase, availability) share one event:
 * one `p:` line each, their fetch expressions may differ (the kernel's rule for a multi-site event
 * is that every argument's name and type are identical). Sites that differ get their own event.
 * Fewer events also make the end faster: the kernel takes ~80 ms per event to tear down.
 *
 *	p:sdtrace_4242_81234_0/example_job__start /usr/bin/ex:0x1139 arg1=%bx:u64 arg3=%bp:s8
 *	p:sdtrace_4242_81234_0/example_job__start /usr/bin/ex:0x1188 arg1=%r12:u64 arg3=%ax:s8
 *
 * Sharing (opts.share, for recording). Events of different names (and files) may also share one
 * tracefs event when their argument types can be made equal (uprobe_layout.h): the kernel then
 * tears down one event instead of hundreds (~90 ms each). Each line then starts with the
 * event's number, which the recorder reads from the sample to tell the events apart, and the
 * arguments go into typed slots a1..aN; a slot an event does not use gets a constant:
 *
 *	p:sdtrace_4242_81234_0/hotspot_gc__begin /usr/lib/.../libjvm.so:0x5dc2a1 ev=\0:u16
 *	    a1=%r12:u64 a2=\0:u64
 *	p:sdtrace_4242_81234_0/hotspot_gc__begin /usr/lib/.../libjvm.so:0x5e0c07 ev=\1:u16
 *	    a1=%di:u64 a2=+16(%sp):u64
 *
 * An event alone in its tracefs event keeps the plain form above.
 *
 * An unavailable argument is left out of the line but keeps its number (arg2 above), so the
 * reader never shifts arguments. Typed arguments (sdt_uprobe_set__add_typed()) carry their names:
 *
 *	p:sdtrace_4242_81234_0/python_function__entry /usr/bin/python3.11:0xf20a1(0x683260)
 *	    filename=+0(%bp):string funcname=+0(%r12):string lineno=%ax:s32
 *
 * Semaphores: with use_ref_ctr, each site's semaphore file offset goes into the line
 * `(0xREFCTR)` and the kernel counts it while the event is enabled. Otherwise the caller pokes the
 * semaphores of given processes with sdt_uprobe_set__poke() (through /proc/PID/mem) and restores
 * them with sdt_uprobe_set__unpoke().
 *
 * Leaving the kernel clean. Before any definition is written, the set is put in a process-wide
 * registry with its removal text prebuilt; sdt_uprobe_set__remove() (also called by __free) and
 * sdt_uprobe_emergency_remove() (async-signal-safe, for an exit or a fatal signal path) remove what
 * is registered. The events must be closed (perf fds closed and unmapped) first, or the kernel
 * answers EBUSY. After a SIGKILL, sdt_uprobe_remove_stale() in the next process removes the groups
 * of dead owners. That EBUSY is also what kept a recording session alive when a sweep of another
 * pid namespace took it for dead; a session between its definitions and its perf events had no
 * such protection (record/session.h).
 */
#ifndef SDT_UPROBE_H
#define SDT_UPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "record/tracefs/session.h"
#include "sdtrace/types.h"
#include "trace/trace_event.h"

struct sdt_file;
struct sdt_uprobe_set;

struct sdt_uprobe_set_opts {
	/* The group; NULL: a new session group for this process (sdt_uprobe_session_group()). */
	const char *group;
	/* Put (ref_ctr_offset) in the definitions. */
	bool use_ref_ctr;
	/*
	 * Define the probes without arguments (counting: the kernel then fetches nothing per hit,
	 * and every site of a provider:event shares one event).
	 */
	bool no_args;
	/*
	 * Let events share tracefs events (see "Sharing"). With no_args, samples then tell the
	 * events apart: one perf counter per tracefs event cannot.
	 */
	bool share;
	/*
	 * The number of the set's first event (->index of its descriptions): a set armed during a
	 * run numbers its events after those of the sets before it. Demux numbers stay the set's.
	 */
	uint32_t index_base;
};

/* One tracefs event of the set, for the recorder: what to open and how to tell its events apart. */
struct sdt_uprobe_kevent {
	uint64_t tp_id;
	/* offset in the raw record of the u16 event number, or -1: the event is ->event */
	int32_t demux_offset;
	uint32_t event;
};

int sdt_uprobe_set__new(const struct sdt_uprobe_set_opts *opts, struct sdt_uprobe_set **out);
/*
 * Add sites @sites[0..n) of @f (borrowed: it must outlive the set). Builds the definitions and the
 * event descriptions (without tracefs ids and fields). Returns 0 or -errno: -EINVAL for a path
 * tracefs cannot take (whitespace), -ERANGE for a bad site index, -E2BIG past 65536 events.
 * Only before __create().
 */
int sdt_uprobe_set__add(struct sdt_uprobe_set *s, const struct sdt_file *f, const size_t *sites,
			size_t n);
/*
 * The same with names and types: @types[k] (NULL: the note's) has one entry per argument of site
 * @sites[k], as sdt_types__resolve() gives them; read during the call only. An argument typed
 * `string` is fetched as the string its pointer points to (+0(%r12):string), an integer type
 * changes the sign or the base shown, float/double decode the raw bits; a type that cannot be
 * applied to one site's operand (a string through a constant) gives way there to the note's own.
 * -EINVAL when a type does not fit the note (its size) or two arguments get the same name.
 */
int sdt_uprobe_set__add_typed(struct sdt_uprobe_set *s, const struct sdt_file *f,
			      const size_t *sites, size_t n, struct sdt_arg_type *const *types);
/* Turn sharing on after the adds (stat, once it knows how many events it has). 0 or -errno. */
int sdt_uprobe_set__share(struct sdt_uprobe_set *s);
/* The definition text ("p:..." lines) and removal text ("-:..." lines) built so far. */
const char *sdt_uprobe_set__defs(const struct sdt_uprobe_set *s, size_t *len);
const char *sdt_uprobe_set__removal(const struct sdt_uprobe_set *s, size_t *len);
const char *sdt_uprobe_set__group(const struct sdt_uprobe_set *s);

/*
 * Register the set, write every definition in one batch, then read each event's id and format and
 * map the arguments to fields. On failure, whatever was created is removed again.
 */
int sdt_uprobe_set__create(struct sdt_uprobe_set *s);
/* Remove the events (idempotent). 0 or -errno (e.g. -EBUSY while still open). */
int sdt_uprobe_set__remove(struct sdt_uprobe_set *s);
/* Removes the events if still created, then frees. Accepts NULL. */
void sdt_uprobe_set__free(struct sdt_uprobe_set *s);

size_t sdt_uprobe_set__event_count(const struct sdt_uprobe_set *s);
/* Borrowed until __free(). ->index is the event's position in the set. */
const struct sdt_trace_event_desc *sdt_uprobe_set__event(const struct sdt_uprobe_set *s, size_t i);
/*
 * The tracefs events (one per event, or fewer when sharing); ->tp_id and ->demux_offset are set
 * by __create(). Borrowed until __free().
 */
size_t sdt_uprobe_set__kernel_event_count(const struct sdt_uprobe_set *s);
const struct sdt_uprobe_kevent *sdt_uprobe_set__kernel_event(const struct sdt_uprobe_set *s,
							     size_t i);
/* Number of distinct semaphores of the set's sites. */
size_t sdt_uprobe_set__semaphore_count(const struct sdt_uprobe_set *s);

/*
 * Increment each distinct semaphore of the set in process @pid (those of the files it maps).
 * Returns the number poked, or -errno. What was poked is remembered for __unpoke().
 */
int sdt_uprobe_set__poke(struct sdt_uprobe_set *s, pid_t pid);
/* Decrement what __poke() incremented (processes that exited are skipped). */
void sdt_uprobe_set__unpoke(struct sdt_uprobe_set *s);
/* The file of event @i's sites (borrowed). */
const struct sdt_file *sdt_uprobe_set__event_file(const struct sdt_uprobe_set *s, size_t i);
/* Has one of event @i's sites a semaphore (with a file offset)? */
bool sdt_uprobe_set__event_has_semaphore(const struct sdt_uprobe_set *s, size_t i);
/* Did __poke() raise one of event @i's semaphores, in any process? */
bool sdt_uprobe_set__event_poked(const struct sdt_uprobe_set *s, size_t i);
/*
 * The semaphores of event @i's sites in process @pid now, read through /proc/PID/mem: 1 when
 * one is raised, 0 when every one is 0, -ENOENT when @pid maps none of them (or the event has
 * none), -errno when they cannot be read. No message.
 */
int sdt_uprobe_set__semaphore_state(const struct sdt_uprobe_set *s, size_t i, pid_t pid);

/* Remove every registered set's events; async-signal-safe (open/write/close only). */
void sdt_uprobe_emergency_remove(void);

/*
 * Remove the groups of sdtrace sessions whose owner is provably dead (record/session.h: a session
 * of another pid namespace is left alone unless this one can see it is gone; a name of another
 * form is never touched). Returns the number of groups removed (0..) and, when @names is not NULL
 * and some were, their names ("a, b") in *names (malloc'ed).
 */
int sdt_uprobe_remove_stale(char **names);

#endif
