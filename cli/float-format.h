/* SPDX-License-Identifier: MIT */
/*
 * A decoded float as text: the shortest decimal that reads back as the same value, for every
 * output (text, --json, --csv, chrome). A long double (a 16-byte argument) keeps all its digits:
 * up to LDBL_DECIMAL_DIG (21 for x87), read back with strtold.
 */
#ifndef SDTRACE_FLOAT_FORMAT_H
#define SDTRACE_FLOAT_FORMAT_H

#include <stddef.h>

#include <sdtrace/trace.h>

/*
 * @v (SDT_VALUE_FLOAT) into @buf: "2.5", "-0.125", "3.14159265358979323851"; "nan", "inf" and
 * "-inf" for those. Returns @buf.
 */
char *float_format(char *buf, size_t size, const struct sdt_trace_value *v);

#endif
