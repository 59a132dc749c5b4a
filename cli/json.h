/* SPDX-License-Identifier: MIT */
/*
 * A streaming JSON writer: values go straight to a FILE, nothing is built in memory, so a million
 * events cost no more memory than one. Commas and nesting are tracked here; the caller only says
 * what comes next. Strings are escaped (quotes, backslashes, control characters) and bytes that
 * are not valid UTF-8 are written as U+FFFD, so any path or name gives valid JSON.
 */
#ifndef SDTRACE_JSON_H
#define SDTRACE_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *fp;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
	bool after_key;
	bool pretty;
};

void json_init(struct json *j, FILE *fp, bool pretty);
void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);
void json_key(struct json *j, const char *key);
void json_string(struct json *j, const char *s);
void json_int(struct json *j, int64_t v);
void json_uint(struct json *j, uint64_t v);
/* Non-finite values as the strings "nan", "inf", "-inf" (JSON has no spelling of them). */
void json_double(struct json *j, double v);
/* A long double (a 16-byte argument), every digit it needs: 3.14159265358979323851 */
void json_long_double(struct json *j, long double v);
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* End a top-level value with a newline (JSON Lines). */
void json_newline(struct json *j);

/* Length of the valid UTF-8 sequence at @s (NUL-terminated), or 0 if it is not one. */
size_t json_utf8_len(const unsigned char *s);

/* Write @s as a JSON string literal (with quotes) to @fp. */
void json_write_string(FILE *fp, const char *s);

#endif
