/* SPDX-License-Identifier: MIT */
/*
 * Stale sessions: the groups of sdtrace sessions whose owner is provably dead (record/session.h
 * judges), found in uprobe_events and removed.
 */
#include <stdlib.h>
#include <string.h>

#include "record/tracefs/session.h"
#include "record/tracefs/tracefs.h"
#include "record/tracefs/uprobe.h"
#include "record/tracefs/uprobe_set.h"
#include "util/internal.h"

#define GROUP_PREFIX "sdtrace_"

/* One sweep's findings: the removal lines, and the names of the groups they remove. */
struct stale {
	struct sdt_buf rm;
	struct sdt_buf groups; /* "a, b" */
	const char *last;      /* the last group named (lines of one group come together) */
	size_t last_len;
	int count;
};

/*
 * The group of uprobe_events line [@p, @le) when it is an sdtrace session's ("p:GROUP/EVENT ...",
 * also r:): its start, with *@slash at the '/' and *@ev_end past EVENT. NULL for another line.
 */
static const char *session_line(const char *p, const char *le, const char **slash,
				const char **ev_end)
{
	const char *g = p + 2, *sp;

	if (!(le - p > 2 && p[1] == ':' && (size_t)(le - g) > strlen(GROUP_PREFIX) &&
	      !memcmp(g, GROUP_PREFIX, strlen(GROUP_PREFIX))))
		return NULL;
	*slash = memchr(g, '/', (size_t)(le - g));
	if (!*slash)
		return NULL;
	sp = memchr(*slash, ' ', (size_t)(le - *slash));
	*ev_end = sp ? sp : le;
	return g;
}

/* Event GROUP/EVENT [@g, @ev_end) of a dead session goes: its removal line, its group's name. */
static int note_stale(struct stale *st, const char *g, const char *slash, const char *ev_end)
{
	size_t glen = (size_t)(slash - g);
	int err;

	err = sdt_buf_addf(&st->rm, "-:%.*s\n", (int)(ev_end - g), g);
	if (!err && !(st->last && st->last_len == glen && !memcmp(st->last, g, glen))) {
		err = sdt_buf_addf(&st->groups, "%s%.*s", st->count ? ", " : "", (int)glen, g);
		st->count++;
		st->last = g;
		st->last_len = glen;
	}
	return err ? sdt_err(-ENOMEM, "out of memory") : 0;
}

int sdt_uprobe_remove_stale(char **names)
{
	struct sdt_session_sweep sweep = {0};
	struct stale st = {0};
	const char *p, *end, *g, *slash, *ev_end;
	char *text = NULL;
	size_t len;
	int err;

	if (names)
		*names = NULL;
	err = sdt_tracefs_read("uprobe_events", &text, &len);
	if (err)
		return err;
	for (p = text, end = text + len; p < end && !err;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		g = session_line(p, nl ? nl : end, &slash, &ev_end);
		if (g && sdt_session_group_dead(&sweep, g, (size_t)(slash - g)))
			err = note_stale(&st, g, slash, ev_end);
		p = nl ? nl + 1 : end;
	}
	if (!err && st.rm.len) {
		err = sdt_uprobe_remove_lines(st.rm.buf, st.rm.len);
		if (err)
			sdt_err_prefix(err, "cannot remove the uprobes of dead sdtrace sessions");
	}
	if (!err) {
		err = st.count;
		if (names && st.count)
			*names = sdt_buf_take(&st.groups);
	}
	sdt_buf_free(&st.rm);
	sdt_buf_free(&st.groups);
	free(text);
	return err;
}
