/* SPDX-License-Identifier: MIT */
/*
 * sdtrace report --count --by ARG[,ARG...] [--sum NAME]: events per provider:event and value,
 * most first; with --sum, the sum of an integer argument per row too, the largest first.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "report.h"

/* Add the integer argument @name of @ev to @gr's total: 0, 1 (unavailable), or -1 (no integer) */
static int add_sum(struct report_group *gr, const struct report_event *ev, const char *name,
		   bool *is_signed)
{
	int i = sdt_trace_event_desc__arg_index(sdt_trace_kind__desc(ev->kind), name);
	const struct sdt_trace_value *v;

	if (i < 0 || (size_t)i >= ev->nargs)
		return 1;
	v = &ev->args[i];
	switch (v->kind) {
	case SDT_VALUE_INT:
		gr->total += (uint64_t)v->i;
		*is_signed |= v->i < 0;
		return 0;
	case SDT_VALUE_UINT:
		gr->total += v->u;
		return 0;
	case SDT_VALUE_FLOAT:
	case SDT_VALUE_STRING:
		return -1;
	default:
		return 1;
	}
}

int report_count_by(struct sdt_trace_reader *r, const struct report_names *by, const char *sum,
		    const struct sdt_filter *filter, size_t top, bool json, FILE *out)
{
	struct report_names sum_name = {.name = (char **)&sum, .n = sum ? 1 : 0};
	uint64_t unsummed = 0;
	bool is_signed = false;
	struct report_groups g = {0};
	struct report_text t = {0}, key = {0};
	const struct sdt_trace_event *ev;
	uint64_t without = 0;
	size_t i, k, n;
	struct json j;
	int err, ret = 0;

	sdt_trace_reader__set_filter(r, filter);
	while ((err = sdt_trace_reader__next(r, &ev)) > 0) {
		const struct sdt_trace_kind *kind = sdt_trace_event__kind(ev);
		struct report_event re = {.kind = kind, .nargs = sdt_trace_event__arg_count(ev)};
		struct sdt_trace_value v[64];
		struct report_group *gr;

		if (!report_names_in(by, kind) || (sum && !report_names_in(&sum_name, kind))) {
			without++;
			continue;
		}
		if (re.nargs > 64)
			re.nargs = 64;
		for (i = 0; i < re.nargs; i++)
			sdt_trace_event__arg(ev, i, &v[i]);
		re.args = v;
		key.len = 0;
		if (report_text_add(
			&key, sdt_trace_event_desc__provider(sdt_trace_kind__desc(kind)),
			strlen(sdt_trace_event_desc__provider(sdt_trace_kind__desc(kind)))) ||
		    report_text_add(&key, ":", 1) ||
		    report_text_add(
			&key, sdt_trace_event_desc__name(sdt_trace_kind__desc(kind)),
			strlen(sdt_trace_event_desc__name(sdt_trace_kind__desc(kind)))) ||
		    report_text_add(&key, REPORT_SEP, 1) || report_values_text(&re, by, &t) ||
		    report_text_add(&key, t.buf, t.len) || !(gr = report_group_find(&g, key.buf))) {
			err = -ENOMEM;
			break;
		}
		gr->n++;
		if (sum) {
			int s = add_sum(gr, &re, sum, &is_signed);

			if (s < 0) {
				cli_error(
				    "--sum: argument '%s' of %s:%s is not an integer", sum,
				    sdt_trace_event_desc__provider(sdt_trace_kind__desc(kind)),
				    sdt_trace_event_desc__name(sdt_trace_kind__desc(kind)));
				ret = EXIT_USAGE;
				goto out;
			}
			unsummed += (uint64_t)s;
		}
	}
	if (err < 0) {
		cli_error("%s", err == -ENOMEM ? "out of memory" : sdt_errmsg());
		ret = EXIT_RUNTIME;
		goto out;
	}
	report_groups_sort(&g);
	n = top && g.n > top ? top : g.n;
	if (json) {
		json_init(&j, out, false);
		json_begin_object(&j);
		json_key(&j, "by");
		json_begin_array(&j);
		for (k = 0; k < by->n; k++)
			json_string(&j, by->name[k]);
		json_end_array(&j);
		if (sum) {
			json_key(&j, "sum_of");
			json_string(&j, sum);
		}
		json_key(&j, "counts");
		json_begin_array(&j);
	} else {
		fprintf(out, "%12s  ", "events");
		if (sum)
			fprintf(out, "%16s  ", "sum");
		fprintf(out, "%s", "provider:event  by");
		for (k = 0; k < by->n; k++)
			fprintf(out, "%s%s", k ? "," : " ", by->name[k]);
		fputc('\n', out);
	}
	for (i = 0; i < n; i++) {
		char *p = g.groups[i].key, *sep = strchr(p, REPORT_SEP[0]);

		*sep = '\0';
		if (json) {
			json_begin_object(&j);
			json_key(&j, "event");
			json_string(&j, p);
			json_key(&j, "key");
			json_begin_array(&j);
		} else {
			fprintf(out, "%12zu  ", g.groups[i].n);
			if (sum && is_signed)
				fprintf(out, "%16" PRId64 "  ", (int64_t)g.groups[i].total);
			else if (sum)
				fprintf(out, "%16" PRIu64 "  ", g.groups[i].total);
			cli_put_escaped(out, p);
			fputs("  ", out);
		}
		for (k = 0, p = sep + 1; k < by->n; k++) {
			char *e = strchr(p, REPORT_SEP[0]);

			if (e)
				*e = '\0';
			if (json) {
				json_string(&j, p);
			} else {
				fprintf(out, "%s%s=", k ? " " : "", by->name[k]);
				cli_put_escaped(out, p);
			}
			p = e ? e + 1 : p + strlen(p);
		}
		if (json) {
			json_end_array(&j);
			json_key(&j, "count");
			json_uint(&j, g.groups[i].n);
			if (sum) {
				json_key(&j, "sum");
				if (is_signed)
					json_int(&j, (int64_t)g.groups[i].total);
				else
					json_uint(&j, g.groups[i].total);
			}
			json_end_object(&j);
		} else {
			fputc('\n', out);
		}
	}
	if (json) {
		json_end_array(&j);
		json_key(&j, "keys_total");
		json_uint(&j, g.n);
		json_key(&j, "without_names");
		json_uint(&j, without);
		if (sum) {
			json_key(&j, "unsummed");
			json_uint(&j, unsummed);
		}
		json_end_object(&j);
		json_newline(&j);
	} else {
		if (g.n > n)
			fprintf(out, "  ... %zu more keys (--top)\n", g.n - n);
		if (without)
			fprintf(out, "%12" PRIu64 "  events of kinds without every --by%s name\n",
				without, sum ? " and --sum" : "");
		if (unsummed)
			fprintf(out,
				"%12" PRIu64 "  events whose '%s' was unavailable (not summed)\n",
				unsummed, sum);
	}
	if (!g.n && without) {
		cli_error("no event of the recording has every --by name");
		ret = EXIT_USAGE;
	}
out:
	free(t.buf);
	free(key.buf);
	report_groups_free(&g);
	return ret;
}
