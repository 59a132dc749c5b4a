/* SPDX-License-Identifier: MIT */
/* Packing a session's events into shared tracefs events (see uprobe_layout.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "record/tracefs/uprobe_layout.h"

#define MAX_OPEN 256 /* trace events still tried for each new event (the most recent ones) */

/* "u32" / "s32" / "x32" -> bits; 0 for anything else. */
static unsigned int int_bits(const char *t)
{
	if ((t[0] == 'u' || t[0] == 's' || t[0] == 'x') &&
	    (!strcmp(t + 1, "8") || !strcmp(t + 1, "16") || !strcmp(t + 1, "32") ||
	     !strcmp(t + 1, "64")))
		return (unsigned int)atoi(t + 1);
	return 0;
}

/* Is the fetch source (the text before the type) safe to read as 8 bytes? */
static bool widenable(const char *src, size_t len)
{
	const char *p;

	if (!len)
		return false;
	if (src[0] == '%')
		return true; /* a register */
	if (src[0] == '\\')
		return len < 2 || src[1] != '"'; /* a numeric constant */
	/* a stack slot: [+-]N(%sp) or [+-]N(%bp), one level */
	if (src[0] != '+' && src[0] != '-')
		return false;
	p = memchr(src, '(', len);
	if (!p || (size_t)(src + len - p) != 5)
		return false;
	return !memcmp(p, "(%sp)", 5) || !memcmp(p, "(%bp)", 5);
}

bool sdt_uprobe_share_type(const char *fetch, unsigned int size, char type[SDT_SLOT_TYPE_MAX],
			   bool *wide)
{
	const char *colon = fetch ? strrchr(fetch, ':') : NULL;
	unsigned int bits;

	*wide = false;
	type[0] = '\0';
	if (!colon)
		return false;
	if (!strcmp(colon + 1, "string")) {
		strcpy(type, "string");
		return true;
	}
	bits = int_bits(colon + 1);
	if (!bits)
		return false;
	if (bits < size * 8 && colon[1] == 's')
		return false; /* narrower than the spec and sign-extended by the kernel: keep it */
	if (widenable(fetch, (size_t)(colon - fetch))) {
		strcpy(type, "u64");
		*wide = true;
		return true;
	}
	type[0] = 'u'; /* the sign comes from the spec when decoding */
	memcpy(type + 1, colon + 2, strlen(colon + 2) + 1); /* "8".."64": checked above */
	return true;
}

void sdt_layout_release(struct sdt_layout *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; l->slot_type && i < l->nkev; i++)
		free(l->slot_type[i]);
	for (i = 0; l->slot && i < l->nevents; i++)
		free(l->slot[i]);
	free(l->nslots);
	free(l->slot_type);
	free(l->nmembers);
	free(l->kev);
	free(l->slot);
	memset(l, 0, sizeof(*l));
}

/* A new trace event; @open: it can take more members (then with room for @max_slots slots). */
static int new_kev(struct sdt_layout *l, bool open, size_t max_slots, size_t *k)
{
	*k = l->nkev;
	if (open) {
		l->slot_type[*k] = calloc(max_slots, sizeof(*l->slot_type[*k]));
		if (!l->slot_type[*k])
			return -ENOMEM;
	}
	l->nkev++;
	return 0;
}

/*
 * Try to seat event @e in trace event @k: each typed argument takes the first free slot of its
 * type, or a new slot. With @commit, do it; otherwise only tell whether it fits.
 */
static bool seat(struct sdt_layout *l, size_t k, const struct sdt_layout_event *e, size_t *slots,
		 bool *used, size_t max_slots, bool commit)
{
	size_t a, s, n = l->nslots[k], added = 0;

	memset(used, 0, max_slots * sizeof(*used));
	for (a = 0; a < e->nargs; a++) {
		if (!e->type[a])
			continue;
		for (s = 0; s < n; s++)
			if (!used[s] && !strcmp(l->slot_type[k][s], e->type[a]))
				break;
		if (s == n) {
			if (n + added >= max_slots)
				return false;
			s = n + added++;
			if (commit)
				snprintf(l->slot_type[k][s], SDT_SLOT_TYPE_MAX, "%s", e->type[a]);
		}
		used[s] = true;
		if (commit)
			slots[a] = s;
	}
	if (commit)
		l->nslots[k] = n + added;
	return true;
}

int sdt_layout_pack(const struct sdt_layout_event *ev, size_t n, size_t max_slots,
		    struct sdt_layout *out)
{
	struct sdt_layout l = {0};
	size_t *open = NULL, nopen = 0, i, a, j;
	bool *used = NULL, *ret = NULL;
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!max_slots || max_slots > 1024)
		return -EINVAL;
	l.nevents = n;
	l.nslots = calloc(n ? n : 1, sizeof(*l.nslots));
	l.slot_type = calloc(n ? n : 1, sizeof(*l.slot_type));
	l.nmembers = calloc(n ? n : 1, sizeof(*l.nmembers));
	l.kev = calloc(n ? n : 1, sizeof(*l.kev));
	l.slot = calloc(n ? n : 1, sizeof(*l.slot));
	ret = calloc(n ? n : 1, sizeof(*ret));
	open = calloc(MAX_OPEN, sizeof(*open));
	used = calloc(max_slots, sizeof(*used));
	if (!l.nslots || !l.slot_type || !l.nmembers || !l.kev || !l.slot || !ret || !open || !used)
		goto out;
	for (i = 0; i < n; i++) {
		const struct sdt_layout_event *e = &ev[i];
		size_t typed = 0, k = SIZE_MAX;

		if (e->nargs) {
			l.slot[i] = malloc(e->nargs * sizeof(*l.slot[i]));
			if (!l.slot[i])
				goto out;
			for (a = 0; a < e->nargs; a++) {
				l.slot[i][a] = SIZE_MAX;
				typed += !!e->type[a];
			}
		}
		if (!e->shareable || typed > max_slots) {
			if (new_kev(&l, false, max_slots, &k))
				goto out;
			l.kev[i] = k;
			l.nmembers[k] = 1;
			continue;
		}
		for (j = 0; j < nopen && k == SIZE_MAX; j++)
			if (ret[open[j]] == e->is_return &&
			    seat(&l, open[j], e, NULL, used, max_slots, false))
				k = open[j];
		if (k == SIZE_MAX) {
			if (new_kev(&l, true, max_slots, &k))
				goto out;
			ret[k] = e->is_return;
			/* keep the most recent MAX_OPEN trace events open */
			if (nopen == MAX_OPEN)
				memmove(open, open + 1, --nopen * sizeof(*open));
			open[nopen++] = k;
		}
		seat(&l, k, e, l.slot[i], used, max_slots, true);
		l.kev[i] = k;
		l.nmembers[k]++;
	}
	err = 0;
out:
	free(open);
	free(used);
	free(ret);
	if (err)
		sdt_layout_release(&l);
	else
		*out = l;
	return err;
}
