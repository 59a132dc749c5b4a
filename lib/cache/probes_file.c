/* SPDX-License-Identifier: MIT */
/*
 * perf's `probes` file: render (scanned file -> text) and parse (text -> entries), and the text
 * of user probes: their headers and p:/r: lines read, their entries checked and written back.
 * Nothing else reads the file's lines. See probes_file.h.
 */
#include <string.h>

#include "scan/file.h"
#include "cache/probes_file.h"
#include "cache/userprobe.h"
#include "util/lockfile.h"

bool sdt_probes_path_ok(const char *path)
{
	const unsigned char *p = (const unsigned char *)path;

	if (*p != '/')
		return false;
	for (; *p; p++) {
		if (*p <= ' ' || *p == 0x7f)
			return false;
	}
	return true;
}

/*
 * The fetcharg as perf would type it: perf knows no float type and fetches a float as an integer
 * of its size ("%ax:x64" -> "%ax:u64"); the bits are the same.
 */
static int add_fetch(struct sdt_buf *out, const struct sdt_arg *a)
{
	const char *fetch = sdt_arg__fetch(a), *colon = strrchr(fetch, ':');
	const char *type;

	if (!sdt_arg__is_float(a) || !colon || colon[1] != 'x')
		return sdt_buf_addstr(out, fetch);
	type = sdt_fetch_type(sdt_arg__size(a), sdt_arg__is_signed(a), false);
	if (!type)
		return sdt_buf_addstr(out, fetch);
	if (sdt_buf_add(out, fetch, (size_t)(colon + 1 - fetch)))
		return -ENOMEM;
	return sdt_buf_addstr(out, type);
}

static int render_site(const struct sdt_site *s, const char *path, struct sdt_buf *out)
{
	size_t i;

	if (sdt_buf_addf(out, "p:sdt_%s/%s %s:0x%llx", s->provider, s->name, path,
			 (unsigned long long)s->file_offset))
		return -ENOMEM;
	if (s->semaphore && s->has_semaphore_offset &&
	    sdt_buf_addf(out, "(0x%llx)", (unsigned long long)s->semaphore_offset))
		return -ENOMEM;
	for (i = 0; i < s->nargs; i++) {
		const struct sdt_arg *a = &s->args[i];

		/* an address immediate is only right once rebased, which a uprobe cannot do */
		if (!sdt_arg__fetch(a) || sdt_arg__needs_rebase(a))
			continue;
		if (sdt_buf_addf(out, " arg%zu=", i + 1) || add_fetch(out, a))
			return -ENOMEM;
	}
	return sdt_buf_add(out, "\n", 1);
}

static int cmp_site(const void *pa, const void *pb, void *ctx)
{
	const struct sdt_site *sites = ctx, *a = &sites[*(const size_t *)pa],
			      *b = &sites[*(const size_t *)pb];
	int c = strcmp(a->provider, b->provider);

	if (!c)
		c = strcmp(a->name, b->name);
	if (!c)
		c = *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
	return c;
}

static bool same_event(const struct sdt_site *a, const struct sdt_site *b)
{
	return !strcmp(a->provider, b->provider) && !strcmp(a->name, b->name);
}

/*
 * perf's order: the events in the order of their first site, each with all its sites in note
 * order. Grouped by sorting (libjvm.so has 531 sites), not by comparing every pair.
 */
int sdt_probes_render(const struct sdt_file *f, const char *path, struct sdt_buf *out)
{
	size_t *idx, *pos, i, k;
	int err = 0;

	if (!sdt_probes_path_ok(path))
		return sdt_err(-EINVAL, "'%s': the path has characters uprobe_events cannot take",
			       path);
	idx = calloc(f->nsites ? f->nsites : 1, sizeof(*idx));
	pos = calloc(f->nsites ? f->nsites : 1, sizeof(*pos));
	if (!idx || !pos) {
		free(idx);
		free(pos);
		return -ENOMEM;
	}
	for (i = 0; i < f->nsites; i++)
		idx[i] = i;
	qsort_r(idx, f->nsites, sizeof(*idx), cmp_site, f->sites);
	for (k = 0; k < f->nsites; k++)
		pos[idx[k]] = k;
	for (i = 0; i < f->nsites && !err; i++) {
		const struct sdt_site *s = &f->sites[i];

		k = pos[i];
		if (k > 0 && same_event(&f->sites[idx[k - 1]], s))
			continue; /* not the event's first site: written with it */
		if (sdt_buf_addf(out, "%%sdt_%s:%s=%s\n", s->provider, s->name, s->name)) {
			err = -ENOMEM;
			break;
		}
		for (; k < f->nsites && !err && same_event(&f->sites[idx[k]], s); k++)
			err = render_site(&f->sites[idx[k]], path, out);
	}
	free(idx);
	free(pos);
	return err;
}

int sdt_probes_render_user(const struct sdt_probes *p, struct sdt_buf *out)
{
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		const struct sdt_probes_entry *e = &p->entries[i];

		if (e->kind != '#')
			continue;
		if (sdt_buf_addf(out, "#%s\n", e->header))
			return -ENOMEM;
		for (j = 0; j < e->nlines; j++) {
			if (sdt_buf_addf(out, "%s\n", e->lines[j]))
				return -ENOMEM;
		}
	}
	return 0;
}

static void entry_release(struct sdt_probes_entry *e)
{
	size_t i;

	free(e->header);
	free(e->provider);
	free(e->event);
	for (i = 0; i < e->nlines; i++)
		free(e->lines[i]);
	free(e->lines);
}

void sdt_probes_release(struct sdt_probes *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		entry_release(&p->entries[i]);
	free(p->entries);
	memset(p, 0, sizeof(*p));
}

/* "%sdt_PROV:EVENT=EVENT": split into provider and event; false when malformed. */
static bool parse_sdt_header(const char *h, char **prov, char **ev)
{
	const char *colon, *eq;

	if (strncmp(h, "sdt_", 4))
		return false;
	colon = strchr(h, ':');
	if (!colon)
		return false;
	eq = strchr(colon, '=');
	if (!eq)
		eq = colon + strlen(colon);
	*prov = sdt_strndup(h + 4, (size_t)(colon - h - 4));
	*ev = sdt_strndup(colon + 1, (size_t)(eq - colon - 1));
	if (!*prov || !*ev || !sdt_valid_event_name(*prov, SDT_MAX_EVENT_NAME) ||
	    !sdt_valid_event_name(*ev, SDT_MAX_EVENT_NAME)) {
		free(*prov);
		free(*ev);
		*prov = *ev = NULL;
		return false;
	}
	return true;
}

char *sdt_probes_damage(const struct sdt_probes *p)
{
	if (p->bad_lines)
		return sdt_asprintf("%zu malformed line%s%s", p->bad_lines,
				    p->bad_lines == 1 ? "" : "s",
				    p->unterminated ? ", the last one cut short" : "");
	if (p->unterminated)
		return sdt_asprintf("its last line is cut short");
	return NULL;
}

int sdt_probes_parse(const char *text, size_t len, struct sdt_probes *out)
{
	const char *p = text, *end = text + len;
	struct sdt_probes_entry *cur = NULL;

	out->unterminated = len && text[len - 1] != '\n';

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = sdt_strndup(p, n);

		p += n + (nl ? 1 : 0);
		if (!line)
			goto nomem;
		if (!n) {
			free(line);
			continue;
		}
		if (memchr(line, '\0', n) ||
		    (line[0] != '%' && line[0] != '#' && line[0] != 'p' && line[0] != 'r')) {
			free(line);
			out->bad_lines++;
			continue;
		}
		if (line[0] == '%' || line[0] == '#') {
			struct sdt_probes_entry e = {.kind = line[0]};

			if (line[0] == '%' && !parse_sdt_header(line + 1, &e.provider, &e.event)) {
				free(line);
				out->bad_lines++;
				cur = NULL;
				continue;
			}
			e.header = sdt_strdup(line + 1);
			free(line);
			if (!e.header ||
			    sdt_grow((void **)&out->entries, &out->cap, out->n + 1, sizeof(e))) {
				entry_release(&e);
				goto nomem;
			}
			out->entries[out->n] = e;
			cur = &out->entries[out->n++];
			continue;
		}
		if (!cur || line[1] != ':') {
			free(line);
			out->bad_lines++;
			continue;
		}
		if (sdt_grow((void **)&cur->lines, &cur->lines_cap, cur->nlines + 1,
			     sizeof(char *))) {
			free(line);
			goto nomem;
		}
		cur->lines[cur->nlines++] = line;
	}
	return 0;
nomem:
	return -ENOMEM;
}

/* ---- user probes ('#' entries): their headers and lines ----------------------------------- */

/* A hexadecimal number of 1..16 digits at @s (after "0x"); the byte after it in *end. */
bool sdt_probes_parse_hex(const char *s, uint64_t *v, const char **end)
{
	size_t n = 0;

	*v = 0;
	for (; (s[n] >= '0' && s[n] <= '9') || (s[n] >= 'a' && s[n] <= 'f') ||
	       (s[n] >= 'A' && s[n] <= 'F');
	     n++) {
		if (n == 16)
			return false;
		*v = *v << 4 | (uint64_t)(s[n] <= '9' ? s[n] - '0' : (s[n] | 0x20) - 'a' + 10);
	}
	*end = s + n;
	return n > 0;
}

bool sdt_probes_parse_line(const char *l, struct sdt_probes_line *out)
{
	const char *tok = strchr(l, ' '), *end, *colon = NULL, *p;

	memset(out, 0, sizeof(*out));
	if ((l[0] != 'p' && l[0] != 'r') || l[1] != ':' || !tok)
		return false;
	out->kind = l[0];
	tok++;
	end = tok + strcspn(tok, " ");
	for (p = tok; p + 3 <= end; p++) {
		if (!memcmp(p, ":0x", 3))
			colon = p; /* the last one: a path may hold ":0x" */
	}
	if (!colon || colon == tok || !sdt_probes_parse_hex(colon + 3, &out->off, &p))
		return false;
	if (*p == '(') {
		if (strncmp(p + 1, "0x", 2) || !sdt_probes_parse_hex(p + 3, &out->ref, &p) ||
		    *p != ')')
			return false;
		out->has_ref = true;
		p++;
	}
	if (p != end)
		return false;
	out->path = tok;
	out->plen = (size_t)(colon - tok);
	out->args = *end ? end + 1 : end;
	return true;
}

/* "GROUP:NAME=..." -> NAME (malloc'ed), NULL when malformed */
char *sdt_probes_header_name(const char *h, char **group)
{
	const char *colon = strchr(h, ':'), *eq;
	char *n;

	*group = NULL;
	if (!colon)
		return NULL;
	eq = strchr(colon, '=');
	if (!eq)
		eq = colon + strcspn(colon, " ");
	n = sdt_strndup(colon + 1, (size_t)(eq - colon - 1));
	*group = sdt_strndup(h, (size_t)(colon - h));
	if (!n || !*group || !sdt_valid_event_name(n, SDT_MAX_EVENT_NAME)) {
		free(n);
		free(*group);
		*group = NULL;
		return NULL;
	}
	return n;
}

int sdt_probes_parse_header(const char *h, struct sdt_probes_header *p)
{
	const char *eq = strchr(h, '='), *s;
	size_t cap = 0;

	memset(p, 0, sizeof(*p));
	if (!eq)
		return 0;
	s = eq + 1;
	p->location = sdt_strndup(s, strcspn(s, " "));
	if (!p->location)
		return -ENOMEM;
	p->is_return = strstr(p->location, "%return") != NULL;
	s += strcspn(s, " ");
	while (*s == ' ') {
		size_t n;

		s++;
		n = strcspn(s, " ");
		if (!n)
			continue;
		if (p->nargs >= SDT_UPROBE_MAX_ARGS * 4)
			break;
		if (sdt_grow((void **)&p->args, &cap, p->nargs + 1, sizeof(char *)))
			return -ENOMEM;
		p->args[p->nargs] = sdt_strndup(s, n);
		if (!p->args[p->nargs])
			return -ENOMEM;
		p->nargs++;
		s += n;
	}
	return 0;
}

const char *sdt_probes_entry_problem(const struct sdt_probes_entry *e)
{
	char *group, *name = sdt_probes_header_name(e->header, &group);
	const char *why = NULL;
	size_t i, gl, nl;

	if (!name || !sdt_valid_event_name(group, SDT_MAX_EVENT_NAME)) {
		why = "the header is not GROUP:NAME=... with names tracefs takes";
		goto out;
	}
	if (!e->nlines) {
		why = "no p: or r: line";
		goto out;
	}
	gl = strlen(group);
	nl = strlen(name);
	for (i = 0; i < e->nlines && !why; i++) {
		const char *l = e->lines[i];

		/* perf names a return probe's event NAME__return */
		if ((l[0] != 'p' && l[0] != 'r') || l[1] != ':' || strncmp(l + 2, group, gl) ||
		    l[2 + gl] != '/' || strncmp(l + 3 + gl, name, nl) ||
		    (l[3 + gl + nl] != ' ' && strncmp(l + 3 + gl + nl, "__return ", 9)) ||
		    !strstr(l, ":0x"))
			why = "a line that is not p:GROUP/NAME PATH:0xOFFSET of its header";
	}
out:
	free(name);
	free(group);
	return why;
}

int sdt_probes_render_all(const struct sdt_probes *p, const bool *drop, struct sdt_buf *out)
{
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		const struct sdt_probes_entry *e = &p->entries[i];

		if (drop && drop[i])
			continue;
		if (sdt_buf_addf(out, "%c%s\n", e->kind, e->header))
			return -ENOMEM;
		for (j = 0; j < e->nlines; j++) {
			if (sdt_buf_addf(out, "%s\n", e->lines[j]))
				return -ENOMEM;
		}
	}
	return 0;
}

int sdt_probes_write_without(int dfd, const struct sdt_probes *p, const bool *drop)
{
	struct sdt_buf b = {0};
	int err = sdt_probes_render_all(p, drop, &b);

	if (!err)
		err = sdt_atomic_write(dfd, "probes", b.buf ? b.buf : "", b.len, SDT_SYNC_FILE);
	sdt_buf_free(&b);
	return err;
}
