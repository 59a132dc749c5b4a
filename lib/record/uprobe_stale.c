/* SPDX-License-Identifier: MIT */
/*
 * Stale sessions: the groups of sdtrace sessions whose owner is provably dead (record/session.h
 * judges), found in uprobe_events and removed.
 */
#include <stdlib.h>
#include <string.h>

#include "record/session.h"
#include "record/tracefs.h"
#include "record/uprobe.h"
#include "record/uprobe_set.h"
#include "util/internal.h"

#define GROUP_PREFIX "sdtrace_"

int sdt_uprobe_remove_stale(char **names)
{
	struct sdt_session_sweep sweep = {0};
	struct sdt_buf rm = {0}, groups = {0};
	char *text = NULL, *p, *end;
	size_t len, last_len = 0;
	const char *last = NULL;
	int err, count = 0;

	if (names)
		*names = NULL;
	err = sdt_tracefs_read("uprobe_events", &text, &len);
	if (err)
		return err;
	for (p = text, end = text + len; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		char *le = nl ? nl : end, *g, *slash, *sp;

		/* "p:GROUP/EVENT ..." (also r:) */
		g = p + 2;
		if (le - p > 2 && p[1] == ':' && (size_t)(le - g) > strlen(GROUP_PREFIX) &&
		    !memcmp(g, GROUP_PREFIX, strlen(GROUP_PREFIX))) {
			slash = memchr(g, '/', (size_t)(le - g));
			sp = slash ? memchr(slash, ' ', (size_t)(le - slash)) : NULL;
			if (!sp)
				sp = le;
			if (slash && sdt_session_group_dead(&sweep, g, (size_t)(slash - g))) {
				err = sdt_buf_addf(&rm, "-:%.*s\n", (int)(sp - g), g);
				if (!err && !(last && last_len == (size_t)(slash - g) &&
					      !memcmp(last, g, last_len))) {
					err = sdt_buf_addf(&groups, "%s%.*s", count ? ", " : "",
							   (int)(slash - g), g);
					count++;
					last = g;
					last_len = (size_t)(slash - g);
				}
				if (err) {
					err = sdt_err(-ENOMEM, "out of memory");
					goto out;
				}
			}
		}
		p = nl ? nl + 1 : end;
	}
	if (rm.len) {
		err = sdt_uprobe_remove_lines(rm.buf, rm.len);
		if (err) {
			sdt_err_prefix(err, "cannot remove the uprobes of dead sdtrace sessions");
			goto out;
		}
	}
	err = count;
	if (names && count)
		*names = sdt_buf_take(&groups);
out:
	sdt_buf_free(&rm);
	sdt_buf_free(&groups);
	free(text);
	return err;
}
