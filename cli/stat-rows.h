/* SPDX-License-Identifier: MIT */
/*
 * The counts of a counting run (stat, top, stat --serve), per provider:event: the names the
 * recorder described, and the recorder's counters added up per name (sites with different
 * argument layouts are separate events of the recorder, one row here).
 */
#ifndef SDTRACE_CLI_STAT_ROWS_H
#define SDTRACE_CLI_STAT_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include <sdtrace/record.h>
#include <sdtrace/trace.h>

struct stat_names {
	char **provider; /* by the recorder's event index; NULL: not described */
	char **name;
	char **path; /* the binary each was armed in */
	size_t n;
};

struct stat_row {
	const char *provider; /* borrowed from the stat_names */
	const char *name;
	const char *path; /* stat_rows_collect_paths() only: the binary */
	uint64_t count;
};

/* Keep event @d's names (an on_event_desc callback's work). 0 or -ENOMEM. */
int stat_names_add(struct stat_names *sn, const struct sdt_trace_event_desc *d);
void stat_names_free(struct stat_names *sn);

/*
 * The counters of @rec added up per provider:event into @rows (room for sn->n rows), sorted by
 * provider then name. Returns the number of rows.
 */
size_t stat_rows_collect(const struct stat_names *sn, const struct sdt_recorder *rec,
			 struct stat_row *rows);
/*
 * The same per provider:event and binary, sorted by provider, name, then path: stat's table
 * when more than one binary has an event (under -a, any user's binary with the same
 * provider:event adds to the count: the table shows whose hits they are).
 */
size_t stat_rows_collect_paths(const struct stat_names *sn, const struct sdt_recorder *rec,
			       struct stat_row *rows);

#endif
