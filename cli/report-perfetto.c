/* SPDX-License-Identifier: MIT */
/*
 * sdtrace report --format=perfetto: Perfetto's native trace, a protobuf `Trace` (its TrackEvent
 * format), which ui.perfetto.dev and trace_processor open. The fields written are those of
 * cli/perfetto-trace.proto (a subset with Perfetto's field numbers); this file encodes them by
 * hand (protobuf.h), as they are produced, one packet at a time:
 *
 *	packet { clock_snapshot { clocks { clock_id: 3 timestamp: START } primary_trace_clock:
 *		 BUILTIN_CLOCK_MONOTONIC } }
 *	packet { trusted_packet_sequence_id: 1 sequence_flags: 1 (SEQ_INCREMENTAL_STATE_CLEARED)
 *		 trace_packet_defaults { timestamp_clock_id: 3 } }
 *	packet { track_descriptor { uuid: P process { pid: 7 process_name: "sdt-example" } } }
 *	packet { track_descriptor { uuid: T parent_uuid: P thread { pid: 7 tid: 7 thread_name: ..} } }
 *	packet { timestamp: NS trusted_packet_sequence_id: 1 sequence_flags: 2
 *		 (SEQ_NEEDS_INCREMENTAL_STATE) interned_data { event_names { iid: 1 name:
 *		 "example:job" } event_categories {..} debug_annotation_names {..} }
 *		 track_event { type: TYPE_SLICE_BEGIN track_uuid: T name_iid: 1 category_iids: 1
 *		 debug_annotations { name_iid: 1 int_value: 3 } } }
 *
 * What is a slice, an instant or a name is report-timeline.c's, as for --format=chrome: the
 * same slices, named alike (--slice-name, the pair, the provider as the category), with the
 * arguments as debug annotations (a synthetic begin or end has "sdtrace": why). Timestamps are
 * the recording's CLOCK_MONOTONIC nanoseconds, declared as such (BUILTIN_CLOCK_MONOTONIC, the
 * trace's clock). A process's track is its pid's, a thread's its tid's under its process.
 *
 * Interning: an event name, a category or an argument name is written once, in the packet that
 * first uses it (InternedData), then referred to by its iid. The tables are bounded
 * (INTERN_MAX strings or INTERN_BYTES bytes): when full they are emptied and the next packet
 * clears the sequence's incremental state (and gives the defaults again), so memory stays
 * bounded however many distinct slice names (--slice-name query) there are.
 *
 * Why by hand, not protobuf-c: the file is the same bytes either way (one wire format); the
 * dozen messages here take ~150 lines of encoder and writer, where protobuf-c needs a generated
 * .pb-c.c per .proto, a run-time library, and a message tree filled, packed and freed per
 * packet; the encoder writes each packet into a reused buffer. BENCHMARKS.md has the sizes.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "protobuf.h"
#include "report.h"

/* Field numbers, from Perfetto's protos (cli/perfetto-trace.proto). */
enum {
	TRACE_PACKET = 1,
	/* TracePacket */
	PKT_TIMESTAMP = 8,
	PKT_SEQUENCE_ID = 10,
	PKT_TRACK_EVENT = 11,
	PKT_INTERNED_DATA = 12,
	PKT_SEQUENCE_FLAGS = 13,
	PKT_CLOCK_SNAPSHOT = 6,
	PKT_DEFAULTS = 59,
	PKT_TRACK_DESCRIPTOR = 60,
	/* TracePacketDefaults */
	DEFAULTS_CLOCK_ID = 58,
	/* ClockSnapshot, ClockSnapshot.Clock */
	SNAPSHOT_CLOCKS = 1,
	SNAPSHOT_PRIMARY = 2,
	CLOCK_ID = 1,
	CLOCK_TIMESTAMP = 2,
	/* TrackDescriptor, ProcessDescriptor, ThreadDescriptor */
	TRACK_UUID = 1,
	TRACK_PARENT = 5,
	TRACK_PROCESS = 3,
	TRACK_THREAD = 4,
	PROCESS_PID = 1,
	PROCESS_NAME = 6,
	THREAD_PID = 1,
	THREAD_TID = 2,
	THREAD_NAME = 5,
	/* TrackEvent */
	EVENT_CATEGORY_IIDS = 3,
	EVENT_ANNOTATIONS = 4,
	EVENT_TYPE = 9,
	EVENT_NAME_IID = 10,
	EVENT_TRACK_UUID = 11,
	/* DebugAnnotation */
	ANN_NAME_IID = 1,
	ANN_UINT = 3,
	ANN_INT = 4,
	ANN_DOUBLE = 5,
	ANN_STRING = 6,
	/* InternedData; EventName, EventCategory, DebugAnnotationName */
	INTERNED_CATEGORIES = 1,
	INTERNED_NAMES = 2,
	INTERNED_ANNOTATION_NAMES = 3,
	INTERNED_IID = 1,
	INTERNED_NAME = 2,
};

enum { TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2, TYPE_INSTANT = 3 };
enum { SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2 };
enum { CLOCK_MONOTONIC_ID = 3 };
#define SEQUENCE_ID 1

#define INTERN_MAX 65536	     /* strings in all tables */
#define INTERN_BYTES (16u << 20) /* their bytes */

/* Track uuids: a process's and a thread's, never 0, never equal. */
#define PROCESS_UUID(pid) ((1ull << 32) | (pid))
#define THREAD_UUID(tid) ((2ull << 32) | (tid))

/* One intern table: open addressing by string hash; the iid of a string is its index + 1. */
struct intern {
	char **str;	  /* by iid - 1 */
	uint32_t *slots; /* iid, 0 = empty */
	size_t n, nslots;
	unsigned int field; /* its InternedData field */
};

struct perfetto {
	FILE *out;
	struct intern names, cats, anns;
	size_t interned, interned_bytes;
	bool cleared; /* the sequence's state was (re)set: the next packet says so */
	struct pb pkt, ev, ann, in, entry, tmp;
	/* threads with a track (open addressing by tid + 1; 0 = empty) */
	uint64_t *tracks;
	size_t ntracks, tracks_cap;
};

static void intern_clear(struct intern *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->str[i]);
	t->n = 0;
	if (t->slots)
		memset(t->slots, 0, t->nslots * sizeof(*t->slots));
}

static void intern_free(struct intern *t)
{
	intern_clear(t);
	free(t->str);
	free(t->slots);
}

/* Write the whole packet in p->pkt as a Trace.packet; 0 or -ENOMEM. */
static int put_packet(struct perfetto *p)
{
	struct pb *t = &p->tmp;

	pb_reset(t);
	pb_message(t, TRACE_PACKET, &p->pkt);
	if (t->err)
		return t->err;
	fwrite(t->buf, 1, t->len, p->out);
	return 0;
}

/* The packet that (re)sets the sequence's incremental state: the defaults. */
static int reset_packet(struct perfetto *p)
{
	pb_reset(&p->pkt);
	pb_uint(&p->pkt, PKT_SEQUENCE_ID, SEQUENCE_ID);
	pb_uint(&p->pkt, PKT_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	pb_reset(&p->tmp);
	pb_uint(&p->tmp, DEFAULTS_CLOCK_ID, CLOCK_MONOTONIC_ID);
	pb_message(&p->pkt, PKT_DEFAULTS, &p->tmp);
	p->cleared = false;
	return put_packet(p);
}

/*
 * The iid of @s in @t: new strings are added to p->in (this packet's InternedData). 0 on no
 * memory. Callers make room first (intern_room) so that no table is emptied mid-packet.
 */
static uint64_t intern(struct perfetto *p, struct intern *t, const char *s)
{
	uint64_t h = report_hash_str(s);
	size_t i, len = strlen(s);
	char **ns;

	if ((t->n + 1) * 2 > t->nslots) {
		size_t ncap = t->nslots ? t->nslots * 2 : 1024, j;
		uint32_t *slots = calloc(ncap, sizeof(*slots));

		if (!slots)
			return 0;
		for (j = 0; j < t->n; j++) {
			i = (size_t)report_hash_str(t->str[j]) & (ncap - 1);
			while (slots[i])
				i = (i + 1) & (ncap - 1);
			slots[i] = (uint32_t)(j + 1);
		}
		free(t->slots);
		t->slots = slots;
		t->nslots = ncap;
	}
	i = (size_t)h & (t->nslots - 1);
	while (t->slots[i]) {
		if (!strcmp(t->str[t->slots[i] - 1], s))
			return t->slots[i];
		i = (i + 1) & (t->nslots - 1);
	}
	ns = realloc(t->str, (t->n + 1) * sizeof(*ns));
	if (!ns)
		return 0;
	t->str = ns;
	t->str[t->n] = strdup(s);
	if (!t->str[t->n])
		return 0;
	t->slots[i] = (uint32_t)++t->n;
	p->interned++;
	p->interned_bytes += len;
	pb_reset(&p->entry);
	pb_uint(&p->entry, INTERNED_IID, t->n);
	pb_string_n(&p->entry, INTERNED_NAME, s, len);
	pb_message(&p->in, t->field, &p->entry);
	return t->n;
}

/* Before a packet that interns: empty the tables when full (the state is then cleared). */
static void intern_room(struct perfetto *p)
{
	if (p->interned < INTERN_MAX - 64 && p->interned_bytes < INTERN_BYTES)
		return;
	intern_clear(&p->names);
	intern_clear(&p->cats);
	intern_clear(&p->anns);
	p->interned = p->interned_bytes = 0;
	p->cleared = true;
}

static int track(struct perfetto *p, unsigned int pid, unsigned int tid, const char *tname,
		 bool process, const char *pname)
{
	struct pb *d = &p->ev, *sub = &p->ann;

	pb_reset(&p->pkt);
	pb_reset(d);
	pb_reset(sub);
	if (process) {
		pb_uint(d, TRACK_UUID, PROCESS_UUID(pid));
		pb_int(sub, PROCESS_PID, pid);
		if (pname)
			pb_string(sub, PROCESS_NAME, pname);
		pb_message(d, TRACK_PROCESS, sub);
	} else {
		pb_uint(d, TRACK_UUID, THREAD_UUID(tid));
		if (pid)
			pb_uint(d, TRACK_PARENT, PROCESS_UUID(pid));
		pb_int(sub, THREAD_PID, pid);
		pb_int(sub, THREAD_TID, tid);
		if (tname)
			pb_string(sub, THREAD_NAME, tname);
		pb_message(d, TRACK_THREAD, sub);
	}
	/* on the sequence too (it needs no incremental state): all packets are one writer's */
	pb_uint(&p->pkt, PKT_SEQUENCE_ID, SEQUENCE_ID);
	pb_message(&p->pkt, PKT_TRACK_DESCRIPTOR, d);
	return put_packet(p);
}

/* Has track @key (a PROCESS_UUID or THREAD_UUID) been written? Marks it so; -ENOMEM. */
static int track_seen(struct perfetto *p, uint64_t key)
{
	size_t i;

	if ((p->ntracks + 1) * 2 > p->tracks_cap) {
		size_t ncap = p->tracks_cap ? p->tracks_cap * 2 : 256, j;
		uint64_t *nt = calloc(ncap, sizeof(*nt));

		if (!nt)
			return -ENOMEM;
		for (j = 0; j < p->tracks_cap; j++) {
			if (!p->tracks[j])
				continue;
			i = (size_t)(p->tracks[j] * 0x9e3779b97f4a7c15ull >> 32) & (ncap - 1);
			while (nt[i])
				i = (i + 1) & (ncap - 1);
			nt[i] = p->tracks[j];
		}
		free(p->tracks);
		p->tracks = nt;
		p->tracks_cap = ncap;
	}
	i = (size_t)(key * 0x9e3779b97f4a7c15ull >> 32) & (p->tracks_cap - 1);
	while (p->tracks[i] && p->tracks[i] != key)
		i = (i + 1) & (p->tracks_cap - 1);
	if (p->tracks[i])
		return 1;
	p->tracks[i] = key;
	p->ntracks++;
	return 0;
}

static int perfetto_start(void *w, uint64_t start_ns)
{
	struct perfetto *p = w;
	struct pb *s = &p->ev, *c = &p->ann;

	/* the recording's clock is the trace's: no other clock to convert from */
	pb_reset(&p->pkt);
	pb_reset(s);
	pb_reset(c);
	pb_uint(c, CLOCK_ID, CLOCK_MONOTONIC_ID);
	pb_uint(c, CLOCK_TIMESTAMP, start_ns);
	pb_message(s, SNAPSHOT_CLOCKS, c);
	pb_uint(s, SNAPSHOT_PRIMARY, CLOCK_MONOTONIC_ID);
	pb_message(&p->pkt, PKT_CLOCK_SNAPSHOT, s);
	if (put_packet(p))
		return -ENOMEM;
	return reset_packet(p);
}

/*
 * A thread's track has its process's as parent, so that one is written first when the process
 * was never named (no comm of its pid recorded): a track without a name, never a parent_uuid
 * that refers to nothing. A thread whose pid is unknown (0) has no parent: pid 0 is no process.
 */
static int thread_track(struct perfetto *p, unsigned int pid, unsigned int tid, const char *name)
{
	int err;

	if (track_seen(p, THREAD_UUID(tid)) < 0)
		return -ENOMEM;
	if (pid) {
		err = track_seen(p, PROCESS_UUID(pid));
		if (err < 0)
			return err;
		if (!err && (err = track(p, pid, 0, NULL, true, NULL)))
			return err;
	}
	return track(p, pid, tid, name, false, NULL);
}

static int perfetto_thread(void *w, unsigned int pid, unsigned int tid, const char *name)
{
	return thread_track(w, pid, tid, name);
}

static int perfetto_process(void *w, unsigned int pid, const char *name)
{
	struct perfetto *p = w;

	if (track_seen(p, PROCESS_UUID(pid)) < 0)
		return -ENOMEM;
	return track(p, pid, 0, NULL, true, name);
}

/* The debug annotations of @ev's arguments into p->ev. */
static int annotations(struct perfetto *p, const struct report_event *ev)
{
	const struct sdt_trace_kind *k = ev->kind;
	size_t i;

	for (i = 0; i < ev->nargs; i++) {
		const struct sdt_trace_value *v = &ev->args[i];
		const char *name = sdt_trace_event_desc__arg_name(sdt_trace_kind__desc(k), i);
		char fallback[32];
		uint64_t iid;

		if (!name) {
			snprintf(fallback, sizeof(fallback), "arg%zu", i + 1);
			name = fallback;
		}
		iid = intern(p, &p->anns, name);
		if (!iid)
			return -ENOMEM;
		pb_reset(&p->ann);
		pb_uint(&p->ann, ANN_NAME_IID, iid);
		switch (v->kind) {
		case SDT_VALUE_INT:
			pb_int(&p->ann, ANN_INT, v->i);
			break;
		case SDT_VALUE_UINT:
			pb_uint(&p->ann, ANN_UINT, v->u);
			break;
		case SDT_VALUE_FLOAT:
			pb_double(&p->ann, ANN_DOUBLE, v->size == 16 ? (double)v->ld : v->f);
			break;
		case SDT_VALUE_STRING:
			pb_string(&p->ann, ANN_STRING, v->str);
			break;
		default:
			pb_string(&p->ann, ANN_STRING, "<unavailable>");
			break;
		}
		pb_message(&p->ev, EVENT_ANNOTATIONS, &p->ann);
	}
	return 0;
}

static int perfetto_slice(void *w, const struct timeline_slice *s)
{
	static const unsigned int type[] = {TYPE_SLICE_BEGIN, TYPE_SLICE_END, TYPE_INSTANT};
	struct perfetto *p = w;
	uint64_t iid;
	int err;

	/* a thread never named (no comm recorded) still gets its track */
	err = track_seen(p, THREAD_UUID(s->tid));
	if (err < 0)
		return err;
	if (!err && (err = thread_track(p, s->pid, s->tid, NULL)))
		return err;
	intern_room(p);
	if (p->cleared && (err = reset_packet(p)))
		return err;
	pb_reset(&p->in);
	pb_reset(&p->ev);
	pb_uint(&p->ev, EVENT_TYPE, type[s->phase]);
	pb_uint(&p->ev, EVENT_TRACK_UUID, THREAD_UUID(s->tid));
	/* an end closes the track's innermost slice: its name and category are the begin's */
	if (s->phase != TIMELINE_END) {
		if (!(iid = intern(p, &p->names, s->name)))
			return -ENOMEM;
		pb_uint(&p->ev, EVENT_NAME_IID, iid);
		if (!(iid = intern(p, &p->cats, s->category)))
			return -ENOMEM;
		pb_uint(&p->ev, EVENT_CATEGORY_IIDS, iid);
	}
	if (s->ev) {
		if ((err = annotations(p, s->ev)))
			return err;
	} else {
		if (!(iid = intern(p, &p->anns, "sdtrace")))
			return -ENOMEM;
		pb_reset(&p->ann);
		pb_uint(&p->ann, ANN_NAME_IID, iid);
		pb_string(&p->ann, ANN_STRING, s->why);
		pb_message(&p->ev, EVENT_ANNOTATIONS, &p->ann);
	}
	pb_reset(&p->pkt);
	pb_uint(&p->pkt, PKT_TIMESTAMP, s->time_ns);
	pb_uint(&p->pkt, PKT_SEQUENCE_ID, SEQUENCE_ID);
	pb_uint(&p->pkt, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	if (p->in.len)
		pb_message(&p->pkt, PKT_INTERNED_DATA, &p->in);
	pb_message(&p->pkt, PKT_TRACK_EVENT, &p->ev);
	return put_packet(p);
}

static int perfetto_finish(void *w, const struct timeline_counts *n, uint64_t base_ns)
{
	(void)w;
	(void)n;
	(void)base_ns;
	return 0;
}

int report_perfetto(struct sdt_trace_reader *r, const struct report_pairs *pairs,
		    const struct report_names *slice, FILE *out)
{
	static const struct timeline_writer w = {
	    .start = perfetto_start,
	    .thread = perfetto_thread,
	    .process = perfetto_process,
	    .slice = perfetto_slice,
	    .finish = perfetto_finish,
	};
	struct perfetto p = {
	    .out = out,
	    .names = {.field = INTERNED_NAMES},
	    .cats = {.field = INTERNED_CATEGORIES},
	    .anns = {.field = INTERNED_ANNOTATION_NAMES},
	};
	int ret = report_timeline(r, pairs, slice, &w, &p);

	intern_free(&p.names);
	intern_free(&p.cats);
	intern_free(&p.anns);
	pb_free(&p.pkt);
	pb_free(&p.ev);
	pb_free(&p.ann);
	pb_free(&p.in);
	pb_free(&p.entry);
	pb_free(&p.tmp);
	free(p.tracks);
	return ret;
}
