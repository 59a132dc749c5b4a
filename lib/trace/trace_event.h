/* SPDX-License-Identifier: MIT */
/*
 * What the recording side (uprobe.c, perf_event.c, ring.c, recorder.c) and the reading side
 * (writer.c, reader.c, decoder.c, decode.c) agree on: the description of one recorded event
 * kind, opaque in include/sdtrace/trace.h, which also has the sample as it leaves the ring buffer.
 *
 * One "event" is one tracefs uprobe event that sdtrace created: several SDT sites whose arguments
 * have identical names and types share one event (their fetch expressions may differ); sites whose
 * layouts differ get events of their own, and the reader merges them back under provider:name.
 */
#ifndef SDT_TRACE_EVENT_H
#define SDT_TRACE_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sdtrace/trace.h"

/* How the bytes of a 16-byte float are to be read (trace/decode_float.h). */
enum sdt_float_format {
	SDT_FLOAT_IEEE = 0, /* binary32/64 by size; binary128 for 16 bytes (aarch64, s390x, riscv64) */
	SDT_FLOAT_X87 = 1,  /* x86 long double: 80-bit extended in the low 10 bytes */
	SDT_FLOAT_IBM128 = 2, /* ppc long double: a pair of doubles */
};

/* A field of the raw record, as tracefs events/GROUP/EVENT/format describes it. */
struct sdt_trace_field {
	char *name;	 /* "__probe_ip", "arg1", ... (common_* fields are not kept) */
	uint32_t offset; /* in the raw record (PERF_SAMPLE_RAW payload) */
	uint32_t size;
	bool is_signed;
	bool is_data_loc; /* __data_loc char[] (a :string fetch): u32 = (len << 16) | offset */
	/* a 16-byte field (an x64[2] array fetch of a long double): how to read its bytes */
	uint8_t float_format; /* enum sdt_float_format */
	/*
	 * The room field (a __data_loc, `_sdt_room=$comm`, after every string of the event): its
	 * length in the kernel's string budget is lent to a string of 4096 bytes or more, which
	 * the kernel then cuts at the budget's end; the field comes back empty when that happened
	 * (decode.c). Its own bytes are not stored (trace_file.h).
	 */
	bool is_room;
};

/* One SDT argument of the event, in note order: every note argument has one, fetchable or not. */
struct sdt_trace_arg {
	char *name;   /* "arg1", or the name a type gave it ("funcname") */
	char *spec;   /* the note's spec, "-4@%eax" (of the event's first site) */
	uint8_t size; /* 1, 2, 4, 8, 16 (a long double, fetched as a 16-byte array) */
	bool is_signed;
	bool is_float;	   /* raw bits: decode as float (4), double (8), long double (16) */
	uint8_t float_format; /* 16 bytes: enum sdt_float_format, copied to the field it maps to */
	bool is_string;	   /* fetched as :string */
	bool rebase;	   /* a link-time address: add the load bias (probe ip - site address) */
	bool named;	   /* ->name came from a type (the event spec or a provider file) */
	uint8_t type;	   /* enum sdt_type_kind: how to show it (SDT_TYPE_DEFAULT: as the note) */
	int field;	   /* index into the event's fields, -1 when unavailable */
	char *unavailable; /* the reason, when field < 0 */
};

struct sdt_trace_event_desc {
	uint32_t index; /* our number for the event, in the data file */
	char *provider;
	char *name;
	char *path;	/* the binary, as probed */
	char *build_id; /* hex, or NULL */
	/* link-time addresses (note pc) of the sites this event covers, for the load bias */
	uint64_t *site_addrs;
	size_t nsites;
	uint64_t tp_id; /* tracefs event id at record time (PERF_TYPE_TRACEPOINT config) */
	char *group;	/* tracefs group and event name at record time */
	char *event;
	struct sdt_trace_field *fields;
	size_t nfields;
	int ip_field; /* index of __probe_ip in fields, -1 if none */
	struct sdt_trace_arg *args;
	size_t nargs;
};

void sdt_trace_event_desc_release(struct sdt_trace_event_desc *d);
/* The index of @d's room field (is_room), -1 without one, -2 with more than one (desc.c). */
int sdt_trace_room_field(const struct sdt_trace_event_desc *d);

#endif
