/* SPDX-License-Identifier: MIT */
/* A tracefs `format` file -> struct sdt_trace_field[] (see event_format.h). */
#include <ctype.h>
#include <string.h>

#include "record/tracefs/event_format.h"
#include "util/internal.h"

/* A raw record is at most one perf record: 64 KiB. */
#define MAX_RECORD 65536u

void sdt_trace_fields_free(struct sdt_trace_field *fields, size_t n)
{
	size_t i;

	for (i = 0; fields && i < n; i++)
		free(fields[i].name);
	free(fields);
}

/* Find "KEY:" in [p, end) and read the unsigned number after it into *v (at most @max). */
static int key_uint(const char *p, const char *end, const char *key, uint32_t max, uint32_t *v)
{
	size_t klen = strlen(key);
	uint64_t x = 0;
	const char *q;

	for (q = p; (size_t)(end - q) >= klen; q++)
		if (!memcmp(q, key, klen) &&
		    (q == p || q[-1] == '\t' || q[-1] == ' ' || q[-1] == ';'))
			break;
	if ((size_t)(end - q) < klen)
		return -EINVAL;
	q += klen;
	if (q == end || !isdigit((unsigned char)*q))
		return -EINVAL;
	while (q < end && isdigit((unsigned char)*q)) {
		x = x * 10 + (uint64_t)(*q - '0');
		if (x > max)
			return -EINVAL;
		q++;
	}
	*v = (uint32_t)x;
	return 0;
}

/*
 * The field name in "field:DECL NAME[N]" up to ';' ([decl, dend)): the last identifier.
 * Returns its start and length through *s / *l, or -EINVAL.
 */
static int decl_name(const char *decl, const char *dend, const char **s, size_t *l)
{
	const char *e = dend, *b;

	if (e > decl && e[-1] == ']') {
		while (e > decl && *--e != '[')
			;
		if (*e != '[')
			return -EINVAL;
	}
	b = e;
	while (b > decl && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
		b--;
	if (b == e)
		return -EINVAL;
	*s = b;
	*l = (size_t)(e - b);
	return 0;
}

static int parse_line(const char *p, const char *end, struct sdt_trace_field *f, bool *skip)
{
	const char *decl, *dend, *name;
	uint32_t sgn = 0;
	size_t nlen;

	decl = p + strlen("field:");
	dend = memchr(decl, ';', (size_t)(end - decl));
	if (!dend)
		return -EINVAL;
	if (decl_name(decl, dend, &name, &nlen))
		return -EINVAL;
	if (nlen > SDT_MAX_EVENT_NAME * 2)
		return -EINVAL;
	if (key_uint(dend, end, "offset:", MAX_RECORD, &f->offset) ||
	    key_uint(dend, end, "size:", MAX_RECORD, &f->size) ||
	    key_uint(dend, end, "signed:", 1, &sgn))
		return -EINVAL;
	if (f->size == 0 || f->size > MAX_RECORD - f->offset)
		return -EINVAL;
	*skip = nlen > 7 && !memcmp(name, "common_", 7);
	f->is_signed = sgn;
	f->is_data_loc = (size_t)(dend - decl) >= 10 && !memcmp(decl, "__data_loc", 10);
	if (f->is_data_loc && f->size != 4)
		return -EINVAL;
	if (*skip)
		return 0;
	f->name = sdt_strndup(name, nlen);
	return f->name ? 0 : -ENOMEM;
}

int sdt_event_format_parse(const char *text, size_t len, struct sdt_trace_field **fields, size_t *n,
			   int *ip_field)
{
	struct sdt_trace_field *arr = NULL;
	size_t cap = 0, cnt = 0, lineno = 0;
	const char *p = text, *end = text + len;
	int ip = -1, err = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		struct sdt_trace_field f = {0};
		bool skip = false;

		lineno++;
		while (p < le && (*p == ' ' || *p == '\t'))
			p++;
		if ((size_t)(le - p) >= 6 && !memcmp(p, "field:", 6)) {
			if (cnt >= SDT_FORMAT_MAX_FIELDS) {
				err = sdt_err(-EINVAL, "event format: more than %d fields",
					      SDT_FORMAT_MAX_FIELDS);
				goto fail;
			}
			err = parse_line(p, le, &f, &skip);
			if (err == -ENOMEM) {
				err = sdt_err(-ENOMEM, "event format: out of memory");
				goto fail;
			}
			if (err) {
				err = sdt_err(-EINVAL,
					      "event format, line %zu: malformed field '%.*s'",
					      lineno, (int)(le - p > 120 ? 120 : le - p), p);
				goto fail;
			}
			if (!skip) {
				if (sdt_grow((void **)&arr, &cap, cnt + 1, sizeof(*arr))) {
					free(f.name);
					err = sdt_err(-ENOMEM, "event format: out of memory");
					goto fail;
				}
				if (!strcmp(f.name, "__probe_ip") && ip < 0)
					ip = (int)cnt;
				arr[cnt++] = f;
			}
		}
		p = nl ? nl + 1 : end;
	}
	*fields = arr;
	*n = cnt;
	*ip_field = ip;
	return 0;
fail:
	sdt_trace_fields_free(arr, cnt);
	return err;
}
