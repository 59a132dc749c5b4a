/* SPDX-License-Identifier: MIT */
/* --filter EXPR for the commands (sdtrace/filter.h): parsing with a caret, kinds it cannot apply
 * to. */
#ifndef SDTRACE_CLI_FILTER_H
#define SDTRACE_CLI_FILTER_H

#include <stddef.h>

#include "sdtrace/sdtrace.h"

/*
 * Parse --filter @expr for command @cmd: 0 and *out, or EXIT_USAGE after printing the error with
 * the expression and a caret under the column.
 */
int cli_filter_parse(const char *cmd, const char *expr, struct sdt_filter **out);

/*
 * After reading: a warning for each kind of @r that lacks a name @f uses (its events were left
 * out, or, with @follow, followed their pair); an error when no kind of @r has them all and @r
 * has kinds. Returns 0 or EXIT_USAGE.
 */
int cli_filter_check_kinds(const char *cmd, const struct sdt_filter *f,
			   const struct sdt_trace_reader *r, bool follow);

#endif
