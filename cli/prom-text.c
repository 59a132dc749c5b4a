/* SPDX-License-Identifier: MIT */
/* The Prometheus text exposition format. See prom-text.h. */
#include <math.h>

#include "json.h"
#include "prom-text.h"

bool prom_name_ok(const char *s)
{
	const char *p;

	if (!s || !*s || (*s >= '0' && *s <= '9'))
		return false;
	for (p = s; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	}
	return true;
}

void prom_put_label_value(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	while (*s) {
		if (*s == '\\') { /* the value's \\, written \\\\ */
			fputs("\\\\\\\\", fp);
			s++;
		} else if (*s == '"') {
			fputs("\\\"", fp);
			s++;
		} else if (*s == '\n') {
			fputs("\\n", fp);
			s++;
		} else if (*s < 0x80) {
			fputc(*s++, fp);
		} else if ((n = json_utf8_len(s))) {
			fwrite(s, 1, n, fp);
			s += n;
		} else { /* the value's \xHH, written \\xHH */
			fprintf(fp, "\\\\x%02x", *s++);
		}
	}
}

void prom_family(FILE *fp, const char *name, const char *type, const char *help)
{
	const char *p;

	fprintf(fp, "# HELP %s ", name);
	for (p = help; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", fp);
		else if (*p == '\n')
			fputs("\\n", fp);
		else
			fputc(*p, fp);
	}
	fprintf(fp, "\n# TYPE %s %s\n", name, type);
}

void prom_put_labels(FILE *fp, const struct prom_label *labels, size_t nlabels)
{
	size_t i;

	for (i = 0; i < nlabels; i++) {
		fprintf(fp, "%s%s=\"", i ? "," : "", labels[i].name);
		prom_put_label_value(fp, labels[i].value ? labels[i].value : "");
		fputc('"', fp);
	}
}

static void put_name(FILE *fp, const char *name, const struct prom_label *labels, size_t nlabels)
{
	fputs(name, fp);
	if (!nlabels)
		return;
	fputc('{', fp);
	prom_put_labels(fp, labels, nlabels);
	fputc('}', fp);
}

void prom_sample_u64(FILE *fp, const char *name, const struct prom_label *labels, size_t nlabels,
		     uint64_t value)
{
	put_name(fp, name, labels, nlabels);
	fprintf(fp, " %llu\n", (unsigned long long)value);
}

void prom_sample_double(FILE *fp, const char *name, const struct prom_label *labels,
			size_t nlabels, double value)
{
	put_name(fp, name, labels, nlabels);
	if (isnan(value))
		fputs(" NaN\n", fp);
	else if (isinf(value))
		fputs(value > 0 ? " +Inf\n" : " -Inf\n", fp);
	else
		fprintf(fp, " %.15g\n", value);
}
