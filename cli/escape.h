/* SPDX-License-Identifier: MIT */
/*
 * Strings from a recording shown to a person (`report`, `trace`): what a program passed, which
 * may be any bytes. Valid UTF-8 is printed as it is ("héllo wörld ✓ 日本語" reads as such);
 * what a terminal would act on or cannot show is escaped, so that every byte can be told, by the
 * library's one escaper (include/sdtrace/text.h), which every name and value printed for a
 * terminal goes through (cli_put_escaped(), the messages on stderr, tables, stacks, folded):
 *
 *	bytes                       shown as
 *	"  \                        \"  \\
 *	\n \t \r                    \n \t \r
 *	other C0 controls, DEL      \x01 .. \x1f, \x7f
 *	C1 controls (U+0080-U+009F) \xc2\x80 .. \xc2\x9f (their UTF-8 bytes)
 *	not UTF-8 (a stray byte, a  \xHH for each byte of it (\xff, \xe6\x97 of a cut 日)
 *	cut, overlong or surrogate
 *	sequence)
 *
 * --json keeps valid UTF-8 too, and writes U+FFFD for each byte that is not (JSON has no bytes);
 * --csv the same (cli/json.c, cli/report-csv.c).
 */
#ifndef SDTRACE_ESCAPE_H
#define SDTRACE_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * @s (@len bytes, NUL-terminated at @len) between double quotes, escaped as above; with @cut, a
 * "…" (U+2026) before the closing quote: the string went on (the caller then says how far).
 */
void text_put_quoted(FILE *fp, const char *s, size_t len, bool cut);

#endif
