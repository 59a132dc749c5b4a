/* SPDX-License-Identifier: MIT */
/* sdtrace.meta: our sibling of perf's probes file. See meta.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "scan/file.h"
#include "cache/meta.h"

static int add_escaped(struct sdt_buf *b, const char *s)
{
	if (!s || !*s)
		return sdt_buf_add(b, "-", 1);
	if (!strcmp(s, "-"))
		return sdt_buf_addstr(b, "%2D");
	while (*s) {
		static const char hex[] = "0123456789ABCDEF";
		size_t run = 0;
		unsigned char c;

		/* the plain run up to the next byte to escape, in one piece */
		while ((c = (unsigned char)s[run]) && c > ' ' && c != '%' && c < 0x7f)
			run++;
		if (run && sdt_buf_add(b, s, run))
			return -ENOMEM;
		s += run;
		if (*s) {
			char esc[3] = {'%', hex[(unsigned char)*s >> 4],
				       hex[(unsigned char)*s & 15]};

			if (sdt_buf_add(b, esc, 3))
				return -ENOMEM;
			s++;
		}
	}
	return 0;
}

int sdt_meta_render(const struct sdt_file *f, const char *path, const struct stat *st,
		    struct sdt_buf *b)
{
	size_t i, j;

	if (sdt_buf_addf(b, "%s %d\npath ", SDT_META_MAGIC, SDT_META_VERSION) ||
	    add_escaped(b, path) || sdt_buf_addstr(b, "\nbuild-id ") ||
	    add_escaped(b, f->build_id) ||
	    sdt_buf_addf(b,
			 "\nsize %" PRIu64 "\nmtime %" PRId64 " %" PRId64 "\ninode %" PRIu64
			 " %" PRIu64 "\nmachine %u %d %d\nsites %zu\n",
			 (uint64_t)st->st_size, (int64_t)st->st_mtim.tv_sec,
			 (int64_t)st->st_mtim.tv_nsec, (uint64_t)st->st_dev, (uint64_t)st->st_ino,
			 f->machine, f->elfclass, f->byte_order, f->nsites))
		return -ENOMEM;
	for (i = 0; i < f->nsites; i++) {
		const struct sdt_site *s = &f->sites[i];

		if (sdt_buf_addf(b, "site %s %s 0x%" PRIx64 " 0x%" PRIx64 " 0x%" PRIx64,
				 s->provider, s->name, s->address, s->file_offset, s->semaphore))
			return -ENOMEM;
		if (s->has_semaphore_offset ? sdt_buf_addf(b, " 0x%" PRIx64, s->semaphore_offset)
					    : sdt_buf_addstr(b, " -"))
			return -ENOMEM;
		if (sdt_buf_addf(b, " %zu\n", s->nargs))
			return -ENOMEM;
		for (j = 0; j < s->nargs; j++) {
			const struct sdt_arg *a = &s->args[j];

			if (sdt_buf_addf(b, "arg %u %s%s%s ", a->size, a->is_signed ? "s" : "u",
					 a->is_float ? "f" : "",
					 sdt_arg__needs_rebase(a) ? "r" : "") ||
			    add_escaped(b, a->spec) || sdt_buf_add(b, " ", 1) ||
			    add_escaped(b, a->fetch) || sdt_buf_add(b, " ", 1) ||
			    add_escaped(b, a->unavailable) || sdt_buf_add(b, "\n", 1))
				return -ENOMEM;
		}
	}
	return sdt_buf_addstr(b, "end\n");
}

void sdt_meta_release(struct sdt_meta *m)
{
	free(m->path);
	free(m->build_id);
	memset(m, 0, sizeof(*m));
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * %XX -> the byte (never NUL). Exactly two hex digits, read within the @n bytes: the text is not
 * NUL-terminated, and sscanf("%2x") would both run past it and take " f" or "+f" as a number.
 */
static char *unescape(const char *s, size_t n)
{
	char *out = malloc(n + 1), *o = out;
	size_t i;

	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		int hi = n - i >= 3 && s[i] == '%' ? hex_digit(s[i + 1]) : -1;
		int lo = hi >= 0 ? hex_digit(s[i + 2]) : -1;

		if (lo >= 0 && (hi || lo)) {
			*o++ = (char)(hi << 4 | lo);
			i += 2;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

int sdt_meta_parse(const char *text, size_t len, struct sdt_meta *m)
{
	const char *p = text, *end = text + len;
	bool ended = false, first = true;
	int version;

	memset(m, 0, sizeof(*m));
	while (p < end && !ended) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n;
		char line[96];

		if (!nl)
			break;
		n = (size_t)(nl - p);
		if (first) {
			if (n >= sizeof(line))
				goto bad;
			memcpy(line, p, n);
			line[n] = '\0';
			if (sscanf(line, SDT_META_MAGIC " %d", &version) != 1 ||
			    version != SDT_META_VERSION)
				goto bad;
			first = false;
		} else if (n > 5 && !strncmp(p, "path ", 5)) {
			free(m->path);
			m->path = unescape(p + 5, n - 5);
			if (!m->path)
				goto nomem;
		} else if (n > 9 && !strncmp(p, "build-id ", 9)) {
			free(m->build_id);
			m->build_id = unescape(p + 9, n - 9);
			if (!m->build_id)
				goto nomem;
		} else if (n < sizeof(line)) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (!strcmp(line, "end"))
				ended = true;
			else if (!strncmp(line, "size ", 5))
				sscanf(line + 5, "%" SCNu64, &m->size);
			else if (!strncmp(line, "mtime ", 6))
				sscanf(line + 6, "%" SCNd64 " %" SCNd64, &m->mtime_sec,
				       &m->mtime_nsec);
			else if (!strncmp(line, "inode ", 6))
				sscanf(line + 6, "%" SCNu64 " %" SCNu64, &m->dev, &m->ino);
			else if (!strncmp(line, "sites ", 6))
				sscanf(line + 6, "%zu", &m->nsites);
		}
		p = nl + 1;
	}
	if (first || !ended || !m->path || !m->build_id)
		goto bad;
	return 0;
nomem:
	sdt_meta_release(m);
	return -ENOMEM;
bad:
	sdt_meta_release(m);
	return -EINVAL;
}

bool sdt_meta_matches(const struct sdt_meta *m, const struct stat *st)
{
	return m->size == (uint64_t)st->st_size && m->mtime_sec == (int64_t)st->st_mtim.tv_sec &&
	       m->mtime_nsec == (int64_t)st->st_mtim.tv_nsec && m->ino == (uint64_t)st->st_ino &&
	       m->dev == (uint64_t)st->st_dev;
}
