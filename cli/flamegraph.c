/* SPDX-License-Identifier: MIT */
/*
 * A flame graph as one self-contained SVG file (the layout of Brendan Gregg's flamegraph.pl).
 *
 * Each distinct stack (frames root first) adds its count to every frame on its path in a prefix
 * tree: stacks that share a prefix share those frames. A frame is a box whose width is its count
 * over the total, its depth is its row (the root "all" at the bottom), and the children of a
 * frame sit above it side by side, sorted by name. We sort the paths once (byte order, frame by
 * frame) and walk them: the tree comes out in preorder with every level already sorted, and a
 * frame's x is its parent's x plus the counts of its earlier siblings.
 *
 * A frame narrower than 0.1 px (fg_opts.min_px) is not drawn (nor are its children, narrower still) but its count
 * stays in its parent's: a 10,000-stack input stays a file a browser opens.
 *
 * The script is inline (CDATA): hover shows a frame in the status line, click zooms into it,
 * "Reset Zoom" undoes, Ctrl-F or "Search" highlights the frames matching a regular expression
 * and shows the matched share. The URL fragment #zoom=NAME / #search=RE does the same at load
 * (for a headless browser test). No external script, font or URL.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flamegraph.h"

#define FG_FRAME_H 16
#define FG_FONT 12
#define FG_PAD_X 10
#define FG_PAD_TOP (FG_FONT * 3)
#define FG_PAD_BOTTOM (FG_FONT * 2 + 10)
#define FG_MIN_PX 0.1

struct fg_node {
	const char *name;
	const char *build_id; /* an unnamed frame's file's, shown in its <title>; or NULL */
	size_t depth; /* 0: the root */
	uint64_t start, count, used;
};

/* The path of an entry: [event;] frames. */
struct fg_path {
	const struct fg_entry *e;
	bool with_event;
};

static size_t path_len(const struct fg_path *p)
{
	return p->e->depth + p->with_event;
}

static const char *path_at(const struct fg_path *p, size_t i)
{
	const char *s;

	if (p->with_event) {
		if (i == 0)
			return p->e->event ? p->e->event : "[unknown event]";
		i--;
	}
	s = p->e->frames[i];
	return s ? s : "[unknown]";
}

/* The build-id of frame @i of @p's path, or NULL (the event's root frame has none). */
static const char *path_bid(const struct fg_path *p, size_t i)
{
	if (p->with_event) {
		if (i == 0)
			return NULL;
		i--;
	}
	return p->e->build_ids ? p->e->build_ids[i] : NULL;
}

static int path_cmp(const void *a, const void *b)
{
	const struct fg_path *x = a, *y = b;
	size_t nx = path_len(x), ny = path_len(y);

	for (size_t i = 0; i < nx && i < ny; i++) {
		int c = strcmp(path_at(x, i), path_at(y, i));
		if (c)
			return c;
	}
	return nx < ny ? -1 : nx > ny;
}

/* The next code point of @s[*i..len) (advancing *i), or -1 for a byte that starts no valid
 * UTF-8 sequence (advancing one byte). */
static long utf8_next(const unsigned char *s, size_t len, size_t *i)
{
	unsigned char c = s[*i];
	size_t n;
	long cp, min;

	if (c < 0x80) {
		(*i)++;
		return c;
	}
	if (c >= 0xc2 && c <= 0xdf)
		n = 1, cp = c & 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		n = 2, cp = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 3, cp = c & 0x07, min = 0x10000;
	else
		goto bad;
	if (len - *i <= n)
		goto bad;
	for (size_t k = 1; k <= n; k++) {
		if ((s[*i + k] & 0xc0) != 0x80)
			goto bad;
		cp = cp << 6 | (s[*i + k] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		goto bad;
	*i += n + 1;
	return cp;
bad:
	(*i)++;
	return -1;
}

/* May code point @cp stand in XML 1.0 character data (and is it no control character)? */
static bool xml_ok(long cp)
{
	if (cp < 0)
		return false;
	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
		return false;
	return cp != 0xfffe && cp != 0xffff;
}

void fg_xml_text(FILE *out, const char *s, size_t len, size_t max)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t chars = 0, i = 0;

	if (max) {
		for (size_t j = 0; j < len; chars++)
			utf8_next(u, len, &j);
		if (chars <= max)
			max = 0;
		else
			max = max > 2 ? max - 2 : 0;
	}
	for (chars = 0; i < len; chars++) {
		size_t at = i;
		long cp;

		if (max && chars == max) {
			fputs("..", out);
			return;
		}
		cp = utf8_next(u, len, &i);
		if (!xml_ok(cp))
			fputs("\xef\xbf\xbd", out); /* U+FFFD */
		else if (cp == '<')
			fputs("&lt;", out);
		else if (cp == '>')
			fputs("&gt;", out);
		else if (cp == '&')
			fputs("&amp;", out);
		else if (cp == '"')
			fputs("&quot;", out);
		else if (cp == '\'')
			fputs("&apos;", out);
		else
			fwrite(s + at, 1, i - at, out);
	}
}

static void xml_str(FILE *out, const char *s)
{
	fg_xml_text(out, s, strlen(s), 0);
}

/* A deterministic warm colour for @name (flamegraph.pl's "hot" palette). */
static void color(const char *name, unsigned *r, unsigned *g, unsigned *b)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	*r = 205 + (h & 0xff) % 50;
	*g = (h >> 8 & 0xff) * 230 / 255;
	*b = (h >> 16 & 0xff) * 55 / 255;
}

/* Build the tree of @paths[0..n) (sorted) into *nodes (preorder). */
static int build(const struct fg_path *paths, size_t n, struct fg_node **nodes, size_t *nnodes)
{
	struct fg_node *v = NULL;
	size_t *stack = NULL; /* index in v of the frame at each depth of the current path */
	size_t cap = 0, nv = 0, stack_cap = 0, depth = 0; /* frames in stack beyond the root */
	const struct fg_path *prev = NULL;

	v = malloc(sizeof(*v) * (cap = 64));
	stack = malloc(sizeof(*stack) * (stack_cap = 16));
	if (!v || !stack)
		goto nomem;
	v[nv++] = (struct fg_node){.name = "all"};
	stack[0] = 0;
	for (size_t k = 0; k < n; k++) {
		const struct fg_path *p = &paths[k];
		size_t len = path_len(p), common = 0;
		uint64_t c = p->e->count;

		if (prev) {
			size_t plen = path_len(prev);
			while (common < depth && common < len && common < plen &&
			       !strcmp(path_at(p, common), path_at(prev, common)))
				common++;
		}
		depth = common;
		v[0].count += c;
		for (size_t d = 0; d < depth; d++)
			v[stack[d + 1]].count += c;
		for (size_t d = depth; d < len; d++) {
			struct fg_node *parent;

			if (nv == cap) {
				struct fg_node *nv2 = realloc(v, sizeof(*v) * cap * 2);
				if (!nv2)
					goto nomem;
				v = nv2;
				cap *= 2;
			}
			if (d + 2 > stack_cap) {
				size_t *s2 = realloc(stack, sizeof(*stack) * stack_cap * 2);
				if (!s2)
					goto nomem;
				stack = s2;
				stack_cap *= 2;
			}
			parent = &v[stack[d]];
			v[nv] = (struct fg_node){.name = path_at(p, d),
						 .build_id = path_bid(p, d),
						 .depth = d + 1,
						 .start = parent->start + parent->used,
						 .count = c};
			parent->used += c;
			stack[d + 1] = nv++;
		}
		/* the shared frames' parents hold c more of their children's samples */
		for (size_t d = 0; d < depth; d++)
			v[stack[d]].used += c;
		depth = len;
		prev = p;
	}
	free(stack);
	*nodes = v;
	*nnodes = nv;
	return 0;
nomem:
	free(v);
	free(stack);
	return -ENOMEM;
}

/* The script: hover, zoom, search, and #zoom=NAME / #search=RE at load. Every frame is a <g>
 * with data-s (first sample), data-n (samples), data-d (depth); its <title> starts with the name
 * (an unnamed frame's ends with a line "build-id HEX"). */
static const char fg_script[] =
	"var W, X0, total, details, matchedtxt, zoomed = null, searching = null;\n"
	"function frames() { return document.querySelectorAll('g.f'); }\n"
	"function fname(g) { var t = g.querySelector('title').textContent;\n"
	"  return t.replace(/ \\([0-9,]+ samples?, [0-9.]+%\\)(\\nbuild-id .*)?$/, ''); }\n"
	"function fit(g, w) { var t = g.querySelector('text'), n = fname(g);\n"
	"  var c = Math.floor((w - 3) / (12 * 0.59));\n"
	"  t.textContent = c < 3 ? '' : (n.length > c ? n.substring(0, c - 2) + '..' : n); }\n"
	"function place(g, x, w, show) { var r = g.querySelector('rect'), t = g.querySelector('text');\n"
	"  g.style.display = show ? '' : 'none'; if (!show) return;\n"
	"  r.setAttribute('x', x.toFixed(1)); r.setAttribute('width', w.toFixed(1));\n"
	"  t.setAttribute('x', (x + 3).toFixed(1)); fit(g, w); }\n"
	"function zoom(z) { var zs = +z.dataset.s, zn = +z.dataset.n, zd = +z.dataset.d;\n"
	"  zoomed = z; document.getElementById('unzoom').style.opacity = 1;\n"
	"  frames().forEach(function (g) { var s = +g.dataset.s, n = +g.dataset.n, d = +g.dataset.d;\n"
	"    if (d < zd && s <= zs && s + n >= zs + zn) { place(g, X0, W, true); g.style.opacity = 0.5; }\n"
	"    else if (d >= zd && s >= zs && s + n <= zs + zn) { g.style.opacity = '';\n"
	"      place(g, X0 + (s - zs) / zn * W, n / zn * W, n / zn * W >= 0.1); }\n"
	"    else place(g, 0, 0, false); });\n"
	"  if (searching) search(searching); }\n"
	"function unzoom() { zoomed = null; document.getElementById('unzoom').style.opacity = 0;\n"
	"  frames().forEach(function (g) { g.style.opacity = '';\n"
	"    place(g, X0 + g.dataset.s / total * W, g.dataset.n / total * W, true); });\n"
	"  if (searching) search(searching); }\n"
	"function search(re) { var rx; try { rx = new RegExp(re); } catch (e) { return; }\n"
	"  searching = re; var m = [];\n"
	"  frames().forEach(function (g) { var r = g.querySelector('rect');\n"
	"    if (!r.dataset.fill) r.dataset.fill = r.getAttribute('fill');\n"
	"    if (rx.test(fname(g))) { r.setAttribute('fill', 'rgb(230,0,230)');\n"
	"      m.push([+g.dataset.s, +g.dataset.n]); }\n"
	"    else r.setAttribute('fill', r.dataset.fill); });\n"
	"  m.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
	"  var sum = 0, end = -1; m.forEach(function (p) { if (p[0] >= end) { sum += p[1];\n"
	"    end = p[0] + p[1]; } else if (p[0] + p[1] > end) { sum += p[0] + p[1] - end;\n"
	"    end = p[0] + p[1]; } });\n"
	"  var base = zoomed ? +zoomed.dataset.n : total;\n"
	"  matchedtxt.textContent = 'Matched: ' + (100 * Math.min(sum, base) / base).toFixed(1) + '%';\n"
	"  document.getElementById('search').textContent = 'Reset Search'; }\n"
	"function unsearch() { searching = null; matchedtxt.textContent = '';\n"
	"  document.getElementById('search').textContent = 'Search';\n"
	"  frames().forEach(function (g) { var r = g.querySelector('rect');\n"
	"    if (r.dataset.fill) r.setAttribute('fill', r.dataset.fill); }); }\n"
	"function search_prompt() { if (searching) { unsearch(); return; }\n"
	"  var re = prompt('Search for (regular expression):', ''); if (re) search(re); }\n"
	"function init() { var svg = document.documentElement;\n"
	"  W = +svg.dataset.w; X0 = +svg.dataset.x0; total = +svg.dataset.total;\n"
	"  details = document.getElementById('details'); matchedtxt = document.getElementById('matched');\n"
	"  frames().forEach(function (g) {\n"
	"    g.addEventListener('mouseover', function () { details.textContent =\n"
	"      g.querySelector('title').textContent; });\n"
	"    g.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
	"    g.addEventListener('click', function () { zoom(g); }); });\n"
	"  document.getElementById('unzoom').addEventListener('click', unzoom);\n"
	"  document.getElementById('search').addEventListener('click', search_prompt);\n"
	"  window.addEventListener('keydown', function (e) {\n"
	"    if (e.keyCode === 114 || ((e.ctrlKey || e.metaKey) && e.keyCode === 70)) {\n"
	"      e.preventDefault(); search_prompt(); } });\n"
	"  var h = decodeURIComponent(location.hash.substring(1));\n"
	"  h.split('&').forEach(function (kv) { var i = kv.indexOf('='); if (i < 0) return;\n"
	"    var k = kv.substring(0, i), v = kv.substring(i + 1);\n"
	"    if (k === 'zoom') { var best = null; frames().forEach(function (g) {\n"
	"      if (fname(g) === v && (!best || +g.dataset.n > +best.dataset.n)) best = g; });\n"
	"      if (best) zoom(best); }\n"
	"    if (k === 'search') search(v); }); }\n"
	"window.addEventListener('load', init);\n";

static double px(uint64_t c, uint64_t total, double w)
{
	return total ? (double)c / (double)total * w : 0;
}

int flamegraph_write(FILE *out, const struct fg_entry *entries, size_t n,
		     const struct fg_opts *opts, struct fg_stats *stats)
{
	struct fg_path *paths = malloc(sizeof(*paths) * (n ? n : 1));
	struct fg_node *v = NULL;
	size_t np = 0, nv = 0, drawn = 0, max_depth = 0;
	unsigned width = opts && opts->width ? opts->width : 1200;
	const char *event = opts ? opts->event : NULL;
	const char *title = opts && opts->title ? opts->title : "Flame Graph";
	double min_px = opts && opts->min_px > 0 ? opts->min_px : FG_MIN_PX;
	double w = width > 2 * FG_PAD_X + 10 ? width - 2 * FG_PAD_X : 10;
	uint64_t total;
	unsigned height;
	int ret;

	if (!paths)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!entries[i].count)
			continue;
		if (event && (!entries[i].event || strcmp(entries[i].event, event)))
			continue;
		paths[np++] = (struct fg_path){.e = &entries[i], .with_event = !event && entries[i].event};
	}
	if (np > 1) /* qsort(NULL, 0) is undefined */
		qsort(paths, np, sizeof(*paths), path_cmp);
	ret = build(paths, np, &v, &nv);
	if (ret) {
		free(paths);
		return ret;
	}
	total = v[0].count;
	for (size_t i = 0; i < nv; i++) {
		if (i && px(v[i].count, total, w) < min_px)
			continue;
		drawn++;
		if (v[i].depth > max_depth)
			max_depth = v[i].depth;
	}
	height = (unsigned)(max_depth + 1) * FG_FRAME_H + FG_PAD_TOP + FG_PAD_BOTTOM;

	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		     "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" "
		     "height=\"%u\" viewBox=\"0 0 %u %u\" data-w=\"%.0f\" data-x0=\"%d\" "
		     "data-total=\"%llu\">\n",
		width, height, width, height, w, FG_PAD_X, (unsigned long long)total);
	fprintf(out, "<style type=\"text/css\">\n"
		     "text { font-family: monospace; font-size: %dpx; fill: rgb(0,0,0); }\n"
		     "#title { text-anchor: middle; font-size: %dpx; }\n"
		     "g.f:hover { stroke: black; stroke-width: 0.5; cursor: pointer; }\n"
		     "#unzoom, #search { cursor: pointer; }\n"
		     "</style>\n",
		FG_FONT, FG_FONT + 5);
	fprintf(out, "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n", fg_script);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"rgb(248,248,248)\"/>\n",
		width, height);
	fprintf(out, "<text id=\"title\" x=\"%u\" y=\"%d\">", width / 2, FG_FONT * 2);
	xml_str(out, title);
	if (event) {
		fputs(" (", out);
		xml_str(out, event);
		fputs(")", out);
	}
	fputs("</text>\n", out);
	fprintf(out, "<text id=\"unzoom\" x=\"%d\" y=\"%d\" style=\"opacity:0\">Reset Zoom</text>\n",
		FG_PAD_X, FG_FONT * 2);
	fprintf(out, "<text id=\"search\" x=\"%d\" y=\"%d\" text-anchor=\"end\">Search</text>\n",
		width - FG_PAD_X, FG_FONT * 2);
	fprintf(out, "<text id=\"matched\" x=\"%d\" y=\"%u\" text-anchor=\"end\"></text>\n",
		width - FG_PAD_X, height - FG_FONT);
	fprintf(out, "<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n", FG_PAD_X, height - FG_FONT);
	fputs("<g id=\"frames\">\n", out);
	for (size_t i = 0; i < nv; i++) {
		const struct fg_node *f = &v[i];
		double x = FG_PAD_X + px(f->start, total, w), fw = px(f->count, total, w);
		unsigned y = height - FG_PAD_BOTTOM - (unsigned)(f->depth + 1) * FG_FRAME_H;
		unsigned r, g, b;
		int chars = (int)((fw - 3) / (FG_FONT * 0.59));

		if (i && fw < min_px)
			continue;
		if (i)
			color(f->name, &r, &g, &b);
		else
			r = 240, g = 180, b = 60; /* the root, as the rest of its row would be */
		fprintf(out, "<g class=\"f\" data-s=\"%llu\" data-n=\"%llu\" data-d=\"%zu\"><title>",
			(unsigned long long)f->start, (unsigned long long)f->count, f->depth);
		xml_str(out, f->name);
		fprintf(out, " (%llu sample%s, %.2f%%)", (unsigned long long)f->count,
			f->count == 1 ? "" : "s", total ? 100.0 * (double)f->count / (double)total : 0);
		if (f->build_id) {
			/* an unnamed frame: which file, beyond its name's (a second tooltip line) */
			fputs("\nbuild-id ", out);
			xml_str(out, f->build_id);
		}
		fputs("</title>", out);
		fprintf(out, "<rect x=\"%.1f\" y=\"%u\" width=\"%.1f\" height=\"%d\" "
			     "fill=\"rgb(%u,%u,%u)\" rx=\"2\" ry=\"2\"/>",
			x, y, fw, FG_FRAME_H - 1, r, g, b);
		fprintf(out, "<text x=\"%.1f\" y=\"%u\">", x + 3, y + FG_FRAME_H - 5);
		if (chars >= 3)
			fg_xml_text(out, f->name, strlen(f->name), (size_t)chars);
		fputs("</text></g>\n", out);
	}
	fputs("</g>\n</svg>\n", out);
	if (stats)
		*stats = (struct fg_stats){
		    .nodes = nv, .drawn = drawn, .total = total, .max_depth = max_depth};
	free(v);
	free(paths);
	return fflush(out) || ferror(out) ? -EIO : 0;
}
