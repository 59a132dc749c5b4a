/* SPDX-License-Identifier: MIT */
/*
 * The Prometheus text exposition format, version 0.0.4 (what `stat --serve` answers at /metrics,
 * what Prometheus, VictoriaMetrics, the OpenTelemetry collector and promtool read):
 *
 *	# HELP sdtrace_probe_hits_total Hits of each SDT event since its probes were armed.
 *	# TYPE sdtrace_probe_hits_total counter
 *	sdtrace_probe_hits_total{provider="python",event="gc__start",binary="/usr/bin/python3.11"} 12
 *
 * A family is its HELP and TYPE lines, then its samples, all together. A label value is any
 * UTF-8 between double quotes, in which \\, \" and \n stand for a backslash, a double quote and
 * a newline. A label value must be UTF-8 (Prometheus drops a page with one bad byte), and two
 * distinct keys must stay two series (a scraper keeps one sample of a label set, silently). So
 * the value carried is the key escaped, reversibly:
 *
 *	key's bytes          value                  written on the page
 *	\                    \\ (two backslashes)   \\\\
 *	"  newline           themselves             \"  \n
 *	not UTF-8 (0xff)     \xff (four bytes)      \\xff
 *	other UTF-8          themselves             themselves (tabs and controls too)
 *
 * Read back: \\ is a backslash, \xHH the byte HH; nothing else starts with a backslash. HELP text
 * escapes only \ and newline.
 * Metric and label names are [a-zA-Z_][a-zA-Z0-9_]*: prom_name_ok() says whether a name from
 * elsewhere (an argument name given as a label) may be one.
 */
#ifndef SDTRACE_PROM_TEXT_H
#define SDTRACE_PROM_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The Content-Type of the format. */
#define PROM_TEXT_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

struct prom_label {
	const char *name; /* a valid label name (prom_name_ok()) */
	const char *value;
};

/* Is @s a valid metric or label name? */
bool prom_name_ok(const char *s);
/* @s as the inside of a quoted label value (table above). */
void prom_put_label_value(FILE *fp, const char *s);
/* name="value",... (no braces) for the labels in the given order. */
void prom_put_labels(FILE *fp, const struct prom_label *labels, size_t nlabels);
/* A family's "# HELP" and "# TYPE" lines; @type is "counter", "gauge", ... */
void prom_family(FILE *fp, const char *name, const char *type, const char *help);
/* One sample: name{l1="v1",...} value, labels in the given order (none: no braces). */
void prom_sample_u64(FILE *fp, const char *name, const struct prom_label *labels, size_t nlabels,
		     uint64_t value);
void prom_sample_double(FILE *fp, const char *name, const struct prom_label *labels,
			size_t nlabels, double value);

#endif
