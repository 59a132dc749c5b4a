/* SPDX-License-Identifier: MIT */
/*
 * Event descriptions and samples built by hand (include/sdtrace/trace_writer.h), for a program
 * that writes a recording without a recorder: its own events, or another tool's converted.
 *
 * A recorder's desc mirrors the tracefs event format of a uprobe; a built one is laid out the
 * same way, so that writer, reader and decoder treat both alike:
 *
 *	offset  field          from
 *	0       (common header, 8 bytes, not stored)
 *	8       __probe_ip u64 the ip given to __pack()
 *	16      arg1           "-4@..." s32 at the next multiple of its size
 *	20      arg2           a string: u32 __data_loc (len << 16 | offset), the bytes after
 *	...                    the fixed fields, NUL included
 *
 * An argument's size, sign and float-ness come from its note spec (`[-]SIZE[f]@OPERAND`), as in
 * a note; a type (sdtrace/types.h) names it and says how to show it, as for the recorder. A
 * 16-byte argument (long double) is described but not recorded, as the recorder does.
 */
#include <string.h>

#include "scan/argspec.h"
#include "util/internal.h"
#include "trace/trace_file.h"

#define PROBE_IP_OFFSET COMMON_HEADER

/* The end of @d's fixed fields: where the next one, or the strings, go. */
static uint32_t fixed_end(const struct sdt_trace_event_desc *d)
{
	uint32_t end = COMMON_HEADER;
	size_t i;

	for (i = 0; i < d->nfields; i++)
		if (d->fields[i].offset + d->fields[i].size > end)
			end = d->fields[i].offset + d->fields[i].size;
	return end;
}

/* "[-]SIZE[f]@...": the size (1, 2, 4, 8, 16), sign and float-ness; false when not that. */
static bool spec_size(const char *spec, uint8_t *size, bool *is_signed, bool *is_float)
{
	const char *p = spec;
	unsigned int n = 0;

	*is_signed = *p == '-';
	p += *is_signed;
	while (*p >= '0' && *p <= '9' && n <= 16)
		n = n * 10 + (unsigned int)(*p++ - '0');
	*is_float = *p == 'f';
	p += *is_float;
	*size = (uint8_t)n;
	return *p == '@' && (n == 1 || n == 2 || n == 4 || n == 8 || n == 16);
}

int sdt_trace_event_desc__new(uint32_t index, const char *provider, const char *name,
			      const struct sdt_trace_event_desc_opts *opts,
			      struct sdt_trace_event_desc **out)
{
	struct sdt_trace_event_desc_opts o;
	struct sdt_trace_event_desc *d, src = {0};
	struct sdt_trace_field ip = {.name = (char *)"__probe_ip", .offset = PROBE_IP_OFFSET,
				     .size = 8};
	int err;

	err = SDT_OPTS_COPY(&o, opts, sdt_trace_event_desc_opts);
	if (err)
		return err;
	src = (struct sdt_trace_event_desc){.index = index,
					    .provider = (char *)provider,
					    .name = (char *)name,
					    .path = (char *)o.path,
					    .build_id = (char *)o.build_id,
					    .site_addrs = (uint64_t *)o.site_addrs,
					    .nsites = o.nsites,
					    .fields = &ip,
					    .nfields = 1,
					    .ip_field = 0};
	err = sdt_trace_desc_check(&src);
	if (err)
		return err;
	d = calloc(1, sizeof(*d));
	if (!d || sdt_trace_desc_copy(d, &src)) {
		free(d);
		return sdt_err(-ENOMEM, "out of memory");
	}
	*out = d;
	return 0;
}

void sdt_trace_event_desc__free(struct sdt_trace_event_desc *d)
{
	if (!d)
		return;
	sdt_trace_event_desc_release(d);
	free(d);
}

/* Argument @a (its spec parsed into it) as @t says, as the recorder types a note's argument. */
static int type_arg(const struct sdt_trace_event_desc *d, struct sdt_trace_arg *a,
		    const struct sdt_arg_type *t)
{
	enum sdt_type_kind kind = t ? t->kind : SDT_TYPE_DEFAULT;
	const char *why = NULL;

	if (kind == SDT_TYPE_STRING && (a->is_float || (a->size != 4 && a->size != 8)))
		why = "a string needs a pointer-sized spec (4@ or 8@)";
	else if (kind == SDT_TYPE_FLOAT && a->size != 4 && a->size != 8)
		why = "a float needs a 4@ or 8@ spec";
	else if (kind != SDT_TYPE_STRING && t && t->size && t->size != a->size)
		why = "the type's size differs from the spec's";
	if (why)
		return sdt_err(-EINVAL, "event %s:%s: argument %zu ('%s'): %s", d->provider, d->name,
			       d->nargs + 1, a->spec, why);
	a->type = (uint8_t)kind;
	a->named = t && t->name;
	a->is_string = kind == SDT_TYPE_STRING;
	a->is_float = kind == SDT_TYPE_FLOAT ||
		      ((kind == SDT_TYPE_DEFAULT || kind == SDT_TYPE_CHAR) && a->is_float);
	if (kind == SDT_TYPE_INT)
		a->is_signed = t->is_signed;
	else if (kind == SDT_TYPE_HEX || kind == SDT_TYPE_STRING)
		a->is_signed = false;
	return 0;
}

/* *@out = the name of the next argument: the type's (valid, not taken yet) or "argN". */
static int arg_name(const struct sdt_trace_event_desc *d, const struct sdt_arg_type *t, char **out)
{
	size_t i;

	if (t && t->name && !sdt_type__valid_name(t->name))
		return sdt_err(-EINVAL, "event %s:%s: '%s' is not a valid argument name",
			       d->provider, d->name, t->name);
	for (i = 0; t && t->name && i < d->nargs; i++) {
		if (!strcmp(d->args[i].name, t->name))
			return sdt_err(-EINVAL, "event %s:%s: arguments %zu and %zu are both named '%s'",
				       d->provider, d->name, i + 1, d->nargs + 1, t->name);
	}
	*out = t && t->name ? sdt_strdup(t->name) : sdt_asprintf("arg%zu", d->nargs + 1);
	return *out ? 0 : sdt_err(-ENOMEM, "out of memory");
}

/* The next argument of @d from its spec and type, into @a (its own strings; no field yet). */
static int parse_arg(const struct sdt_trace_event_desc *d, const char *spec,
		     const struct sdt_arg_type *type, struct sdt_trace_arg *a)
{
	int err;

	if (d->nargs >= SDT_MAX_ARGS)
		return sdt_err(-E2BIG, "event %s:%s: more than %d arguments", d->provider, d->name,
			       SDT_MAX_ARGS);
	if (!spec || !spec_size(spec, &a->size, &a->is_signed, &a->is_float))
		return sdt_err(-EINVAL,
			       "event %s:%s: argument %zu: '%s' is no [-]SIZE[f]@OPERAND spec (SIZE "
			       "1, 2, 4, 8 or 16)",
			       d->provider, d->name, d->nargs + 1, spec ? spec : "(null)");
	a->spec = (char *)spec;
	err = type_arg(d, a, type);
	a->spec = NULL;
	err = err ?: arg_name(d, type, &a->name);
	if (err)
		return err;
	a->spec = sdt_strdup(spec);
	if (a->size == 16)
		a->unavailable = sdt_strdup("16-byte values are not recorded");
	if (!a->spec || (a->size == 16 && !a->unavailable))
		return sdt_err(-ENOMEM, "out of memory");
	return 0;
}

/* The field of argument @a, after the fixed fields of @d (a string: its __data_loc). */
static int add_field(struct sdt_trace_event_desc *d, struct sdt_trace_arg *a)
{
	uint32_t size = a->is_string ? 4 : a->size, off = fixed_end(d);
	struct sdt_trace_field *nf;

	off = (off + size - 1) / size * size;
	if (d->nfields >= SDT_TRACE_MAX_FIELDS || off + size > SDT_TRACE_MAX_RAW)
		return sdt_err(-E2BIG, "event %s:%s: too many arguments", d->provider, d->name);
	nf = sdt_reallocarray(d->fields, d->nfields + 1, sizeof(*nf));
	if (!nf)
		return sdt_err(-ENOMEM, "out of memory");
	d->fields = nf;
	nf[d->nfields] = (struct sdt_trace_field){.name = sdt_strdup(a->name),
						  .offset = off,
						  .size = size,
						  .is_signed = a->is_signed && !a->is_string,
						  .is_data_loc = a->is_string};
	if (!nf[d->nfields].name)
		return sdt_err(-ENOMEM, "out of memory");
	a->field = (int)d->nfields++;
	return 0;
}

/* Append @a (and its field, unless it is not recorded) to @d, or add nothing. */
static int append_arg(struct sdt_trace_event_desc *d, struct sdt_trace_arg *a)
{
	struct sdt_trace_arg *na = sdt_reallocarray(d->args, d->nargs + 1, sizeof(*na));
	int err;

	if (!na)
		return sdt_err(-ENOMEM, "out of memory");
	d->args = na;
	if (!a->unavailable) {
		err = add_field(d, a);
		if (err)
			return err;
	}
	na[d->nargs++] = *a;
	return 0;
}

int sdt_trace_event_desc__add_arg(struct sdt_trace_event_desc *d, const char *spec,
				  const struct sdt_arg_type *type)
{
	struct sdt_trace_arg a = {.field = -1};
	int err;

	err = parse_arg(d, spec, type, &a);
	err = err ?: append_arg(d, &a);
	if (err) {
		free(a.name);
		free(a.spec);
		free(a.unavailable);
	}
	return err;
}

/* Store the low @size bytes of @v at @p, in host byte order (as the kernel stores fields). */
static void put_uint(uint8_t *p, uint64_t v, uint32_t size)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	if (size == 1)
		memcpy(p, &u8, 1);
	else if (size == 2)
		memcpy(p, &u16, 2);
	else if (size == 4)
		memcpy(p, &u32, 4);
	else
		memcpy(p, &v, 8);
}

/* A packing in progress: the record, its capacity, where its strings go. */
struct pack {
	const struct sdt_trace_event_desc *d;
	uint8_t *buf;
	size_t cap;
	uint32_t end;
};

/* The string @v (or a fault: UNAVAILABLE) of field @f, its bytes after the others. */
static int pack_string(struct pack *pk, const struct sdt_trace_field *f,
		       const struct sdt_trace_value *v)
{
	uint32_t loc = pk->end;

	if (v->kind == SDT_VALUE_STRING) {
		size_t n = v->str ? strnlen(v->str, v->len) : 0;

		if (n + 1 > 0xffff || pk->end > 0xffff || pk->cap - pk->end < n + 1)
			return -ENOSPC;
		memcpy(pk->buf + pk->end, v->str, n);
		pk->buf[pk->end + n] = '\0';
		loc |= (uint32_t)(n + 1) << 16;
		pk->end += (uint32_t)n + 1;
	}
	put_uint(pk->buf + f->offset, loc, 4);
	return 0;
}

/* Value @v of argument @a into its field: 0, -EINVAL (a kind the argument has not), -ENOSPC. */
static int pack_arg(struct pack *pk, const struct sdt_trace_arg *a, const struct sdt_trace_value *v)
{
	const struct sdt_trace_field *f = &pk->d->fields[a->field];
	uint64_t bits;
	float fl;

	if (f->is_data_loc)
		return v->kind == SDT_VALUE_STRING || v->kind == SDT_VALUE_UNAVAILABLE
			       ? pack_string(pk, f, v)
			       : -EINVAL;
	if (a->is_float && v->kind == SDT_VALUE_FLOAT && f->size == 4) {
		fl = (float)v->f;
		memcpy(pk->buf + f->offset, &fl, 4);
	} else if (a->is_float && v->kind == SDT_VALUE_FLOAT) {
		memcpy(&bits, &v->f, 8);
		put_uint(pk->buf + f->offset, bits, f->size);
	} else if (!a->is_float && (v->kind == SDT_VALUE_INT || v->kind == SDT_VALUE_UINT)) {
		put_uint(pk->buf + f->offset, v->kind == SDT_VALUE_INT ? (uint64_t)v->i : v->u,
			 f->size);
	} else {
		return -EINVAL;
	}
	return 0;
}

int sdt_trace_event_desc__pack(const struct sdt_trace_event_desc *d, uint64_t ip,
			       const struct sdt_trace_value *args, size_t nargs, void *buf,
			       size_t size)
{
	struct pack pk = {.d = d, .buf = buf, .cap = size, .end = fixed_end(d)};
	size_t i;
	int err = 0;

	if (nargs != d->nargs)
		return sdt_err(-EINVAL, "event %s:%s: %zu values for %zu arguments", d->provider,
			       d->name, nargs, d->nargs);
	if (size < pk.end)
		return sdt_err(-ENOSPC, "event %s:%s: a record needs at least %u bytes",
			       d->provider, d->name, pk.end);
	memset(buf, 0, pk.end);
	if (d->ip_field >= 0)
		put_uint(pk.buf + d->fields[d->ip_field].offset, ip, d->fields[d->ip_field].size);
	for (i = 0; !err && i < nargs; i++)
		if (d->args[i].field >= 0)
			err = pack_arg(&pk, &d->args[i], &args[i]);
	if (err == -ENOSPC)
		return sdt_err(err, "event %s:%s: argument %zu: the record does not fit %zu bytes "
			       "(or a string's 64 KiB)", d->provider, d->name, i, size);
	if (err)
		return sdt_err(err, "event %s:%s: argument %zu ('%s'): a value of another kind",
			       d->provider, d->name, i, d->args[i - 1].spec);
	return (int)pk.end;
}
