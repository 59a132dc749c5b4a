/* SPDX-License-Identifier: MIT */
/*
 * Decoding the arguments of a recorded sample (see decode.h for the table of forms).
 *
 * Three rules make the values right where perf script gets them wrong:
 *  - the SDT spec, not the fetch type, decides sign and size: `-1@` is an int8_t, so the byte
 *    0xfb is -5 whatever type the field was fetched with;
 *  - floats are fetched as raw bits (uprobes have no float type) and turned back into a float or
 *    double here; a long double (16 bytes, an x64[2] array) by its architecture's format
 *    (decode_float.c: x87, binary128, double-double);
 *  - an address immediate (`8@$sym`) is a link-time address: it is moved by the load bias of the
 *    mapping, which is the recorded probe ip minus the address of the site that fired.
 * The kernel has already extracted bitfields (%ah as b8@8/64), so a bitfield is just a field.
 */
#include <string.h>

#include "trace/decode.h"
#include "trace/decode_float.h"
#include "util/internal.h"

/* Loads are page-aligned: the bias of a mapping is a multiple of the smallest page size. */
#define LOAD_ALIGN 4096u

uint64_t sdt_decode_uint(const void *p, size_t size, bool swap)
{
	uint8_t b[8];
	uint64_t v = 0;
	size_t i;

	memcpy(b, p, size);
	if (swap) {
		for (i = 0; i < size / 2; i++) {
			uint8_t t = b[i];

			b[i] = b[size - 1 - i];
			b[size - 1 - i] = t;
		}
	}
	switch (size) {
	case 1:
		v = b[0];
		break;
	case 2: {
		uint16_t x;

		memcpy(&x, b, 2);
		v = x;
		break;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, b, 4);
		v = x;
		break;
	}
	case 8:
		memcpy(&v, b, 8);
		break;
	}
	return v;
}

int64_t sdt_decode_sext(uint64_t v, size_t size)
{
	unsigned int shift;

	if (size >= 8 || size == 0)
		return (int64_t)v;
	shift = (unsigned int)(64 - size * 8);
	/* shift the sign bit to the top, then back (arithmetic shift) */
	return (int64_t)(v << shift) >> shift;
}

static bool valid_int_size(size_t size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

bool sdt_decode_field(const struct sdt_trace_field *f, const void *raw, size_t size, bool swap,
		      uint64_t *out)
{
	if (!valid_int_size(f->size) || f->offset > size || size - f->offset < f->size)
		return false;
	*out = sdt_decode_uint((const uint8_t *)raw + f->offset, f->size, swap);
	return true;
}

bool sdt_decode_probe_ip(const struct sdt_trace_event_desc *d, const void *raw, size_t size,
			 bool swap, uint64_t *ip)
{
	if (d->ip_field < 0 || (size_t)d->ip_field >= d->nfields)
		return false;
	return sdt_decode_field(&d->fields[d->ip_field], raw, size, swap, ip);
}

long sdt_decode_site(const struct sdt_trace_event_desc *d, uint64_t ip, bool have_hint,
		     uint64_t hint_bias)
{
	long first = -1;
	bool ambiguous = false;
	size_t k;

	if (!d->nsites)
		return -1;
	if (d->nsites == 1)
		return 0;
	for (k = 0; k < d->nsites; k++) {
		if (d->site_addrs[k] == ip)
			return (long)k;
	}
	for (k = 0; k < d->nsites; k++) {
		uint64_t bias = ip - d->site_addrs[k];

		if (bias % LOAD_ALIGN)
			continue;
		if (have_hint && bias == hint_bias)
			return (long)k;
		if (first >= 0)
			ambiguous = true;
		else
			first = (long)k;
	}
	/* rather unknown than wrong */
	return ambiguous ? -1 : first;
}

static void unavailable(struct sdt_trace_value *out, const char *why)
{
	out->kind = SDT_VALUE_UNAVAILABLE;
	out->unavailable = why;
}

/*
 * The kernel's bounds on a :string fetch (kernel/trace/trace_uprobe.c, trace_probe_tmpl.h): a
 * string of MAX_STRING_SIZE bytes or more counts 0 in the hit's string budget (its strnlen_user()
 * finds no NUL in 4096 bytes), and a hit's fields and strings are built in one page
 * (MAX_UCB_BUFFER_SIZE), the budget cut to what is left of it.
 */
#define KERNEL_MAX_STRING 4096u
#define KERNEL_HIT_PAGE	  4096u

/* The __data_loc word of field @f: false when it lies outside the record. */
static bool data_loc(const struct sdt_trace_field *f, const uint8_t *raw, size_t size, bool swap,
		     uint32_t *off, uint32_t *len)
{
	uint32_t loc;

	if (f->size != 4 || f->offset > size || size - f->offset < 4)
		return false;
	loc = (uint32_t)sdt_decode_uint(raw + f->offset, 4, swap);
	*off = loc & 0xffff;
	*len = loc >> 16;
	return true;
}

/*
 * Where the kernel's page starts in the record: after the probe's own fields (__probe_ip, or
 * __probe_func and __probe_ret_ip), else at the first field (a shared event's member does not
 * keep its ev field: the first one it keeps may lie further on).
 */
static uint32_t args_start(const struct sdt_trace_event_desc *d)
{
	uint32_t lo = UINT32_MAX, probe_end = 0;
	size_t i;

	for (i = 0; i < d->nfields; i++) {
		const struct sdt_trace_field *f = &d->fields[i];

		if (f->name && !strncmp(f->name, "__probe_", 8)) {
			if (f->offset + f->size > probe_end)
				probe_end = f->offset + f->size;
		} else if (f->offset < lo) {
			lo = f->offset;
		}
	}
	return probe_end ? probe_end : lo;
}

/*
 * The room field (trace_event.h) of @d in this record: false without one, else whether a string
 * took it (it came back empty) and where the strings' bytes ended (*end).
 */
static bool room_taken(const struct sdt_trace_event_desc *d, const uint8_t *raw, size_t size,
		       bool swap, uint32_t *end)
{
	int r = sdt_trace_room_field(d);
	uint32_t len;

	if (r < 0 || !data_loc(&d->fields[r], raw, size, swap, end, &len))
		return false;
	return len == 0;
}

/* A __data_loc char[] field: u32 (len << 16) | offset from the record's start; len has the NUL. */
static void decode_string(const struct sdt_trace_event_desc *d, const struct sdt_trace_field *f,
			  const uint8_t *raw, size_t size, bool swap, struct sdt_trace_value *out)
{
	uint32_t off, len, end = 0, start;
	const uint8_t *nul;
	bool taken;

	if (!data_loc(f, raw, size, swap, &off, &len)) {
		unavailable(out, "string location outside the record");
		return;
	}
	taken = room_taken(d, raw, size, swap, &end);
	if (!len) {
		/* with a room field that kept its room, no string was long: a fault */
		unavailable(out, taken ? "no room left: a string before it had 4096 bytes or more"
				       : "the string could not be read (fault)");
		return;
	}
	if (off > size || size - off < len) {
		unavailable(out, "string outside the record");
		return;
	}
	nul = memchr(raw + off, '\0', len);
	if (!nul) {
		unavailable(out, "string not terminated");
		return;
	}
	out->kind = SDT_VALUE_STRING;
	out->str = (const char *)(raw + off);
	out->len = (size_t)(nul - (raw + off));
	/*
	 * The kernel gives the string that finds no room of its own what is left of the budget, cut
	 * to it (its last byte a NUL), and nothing to the fields after it: the room field among
	 * them.
	 */
	if (taken && off + len == end) {
		out->truncated = true;
		start = args_start(d);
		out->min_len = start != UINT32_MAX && end >= start && end - start >= KERNEL_HIT_PAGE
				   ? out->len + 1 /* cut at the page's end */
				   : KERNEL_MAX_STRING;
	}
}

static void decode_float(uint64_t bits, size_t size, struct sdt_trace_value *out)
{
	out->kind = SDT_VALUE_FLOAT;
	if (size == 4) {
		uint32_t b32 = (uint32_t)bits;
		float fl;

		memcpy(&fl, &b32, sizeof(fl));
		out->f = fl;
	} else {
		double db;

		memcpy(&db, &bits, sizeof(db));
		out->f = db;
	}
	out->ld = out->f;
}

/*
 * A long double: its 16 bytes (an x64[2] array field) in the format of the recorded file's
 * architecture, in the byte order of the recording host (which ran the probed program).
 */
static void decode_float16(const struct sdt_trace_arg *a, const struct sdt_trace_field *f,
			   const uint8_t *raw, size_t size, bool swap, struct sdt_trace_value *out)
{
	bool host_little = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

	if (!a->is_float || a->size != 16 || f->size != 16) {
		unavailable(out, a->is_float ? "16-byte float recorded in a field of another size"
					     : "16-byte integers are not decoded");
		return;
	}
	if (f->offset > size || size - f->offset < 16) {
		unavailable(out, "field outside the record");
		return;
	}
	out->kind = SDT_VALUE_FLOAT;
	out->ld = sdt_decode_float16(raw + f->offset, (enum sdt_float_format)f->float_format,
				     host_little != swap);
	out->f = (double)out->ld;
}

void sdt_decode_arg(const struct sdt_trace_event_desc *d, size_t i, const void *raw, size_t size,
		    bool swap, bool have_bias, uint64_t bias, struct sdt_trace_value *out)
{
	const struct sdt_trace_arg *a;
	const struct sdt_trace_field *f;
	uint64_t v;

	memset(out, 0, sizeof(*out));
	if (i >= d->nargs) {
		unavailable(out, "no such argument");
		return;
	}
	a = &d->args[i];
	out->size = a->size;
	if (a->field < 0 || (size_t)a->field >= d->nfields) {
		unavailable(out, a->unavailable ? a->unavailable : "not recorded");
		return;
	}
	f = &d->fields[a->field];
	if (f->is_data_loc) {
		decode_string(d, f, raw, size, swap, out);
		return;
	}
	if (a->is_string) {
		unavailable(out, "recorded without its string");
		return;
	}
	if (a->size == 16 || f->size == 16) {
		decode_float16(a, f, raw, size, swap, out);
		return;
	}
	if (!sdt_decode_field(f, raw, size, swap, &v)) {
		unavailable(out, "field outside the record");
		return;
	}
	if (!valid_int_size(a->size)) {
		unavailable(out, "unsupported argument size");
		return;
	}
	/* a field narrower than the spec: widen it by the field's own sign first */
	if (f->size < a->size && f->is_signed)
		v = (uint64_t)sdt_decode_sext(v, f->size);
	if (a->is_float) {
		if (f->size < a->size || (a->size != 4 && a->size != 8)) {
			unavailable(out, "float recorded with too few bits");
			return;
		}
		decode_float(v, a->size, out);
		return;
	}
	if (a->rebase) {
		if (!have_bias) {
			unavailable(out, "address not rebased: the load bias is unknown (no site "
					 "matches the probe ip, or several do)");
			return;
		}
		v += bias;
		out->is_address = true;
	}
	if (a->is_signed) {
		out->kind = SDT_VALUE_INT;
		out->i = sdt_decode_sext(v, a->size);
		out->u = (uint64_t)out->i;
	} else {
		out->kind = SDT_VALUE_UINT;
		out->u = a->size < 8 ? v & ((UINT64_C(1) << (a->size * 8)) - 1) : v;
		out->i = (int64_t)out->u;
	}
}
