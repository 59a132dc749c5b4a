/* SPDX-License-Identifier: MIT */
/*
 * sdtrace report --format=chrome: the Chrome trace-event format (JSON object form), which the
 * Perfetto UI (ui.perfetto.dev) and chrome://tracing open.
 *
 *	{"traceEvents":[
 *	{"ph":"M","name":"process_name","pid":7,"tid":7,"args":{"name":"sdt-example"}},
 *	{"ph":"B","name":"example:job","cat":"example","ts":12.345,"pid":7,"tid":7,"args":{...}},
 *	{"ph":"i","s":"t","name":"example:tick","cat":"example","ts":13.000,...},
 *	{"ph":"E","name":"example:job","cat":"example","ts":20.101,"pid":7,"tid":7,"args":{...}}
 *	],"displayTimeUnit":"ns","otherData":{...counts...}}
 *
 * What is a slice, an instant or a name is report-timeline.c's; this file writes it. Timestamps
 * are microseconds from the start of the recording, fixed-point with 3 decimals (nanosecond
 * precision, never an exponent); args carry the names the recording gives them (a synthetic
 * begin or end says why it is there in args.sdtrace). Process and thread names are metadata
 * events.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "json.h"
#include "report.h"

struct chrome {
	FILE *out;
	bool first;
};

static void sep(struct chrome *c)
{
	fputs(c->first ? "\n" : ",\n", c->out);
	c->first = false;
}

static void meta(struct chrome *c, const char *what, unsigned int pid, unsigned int tid,
		 const char *name)
{
	sep(c);
	fprintf(c->out,
		"{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":", what,
		pid, tid);
	json_write_string(c->out, name);
	fputs("}}", c->out);
}

static int chrome_start(void *w, uint64_t start_ns)
{
	struct chrome *c = w;

	(void)start_ns;
	fputs("{\"traceEvents\":[", c->out);
	return 0;
}

static int chrome_thread(void *w, unsigned int pid, unsigned int tid, const char *name)
{
	meta(w, "thread_name", pid, tid, name);
	return 0;
}

static int chrome_process(void *w, unsigned int pid, const char *name)
{
	meta(w, "process_name", pid, pid, name);
	return 0;
}

static void args(struct chrome *c, const struct report_event *ev)
{
	const struct sdt_trace_kind *k = ev->kind;
	struct json j;
	size_t i;

	json_init(&j, c->out, false);
	json_begin_object(&j);
	for (i = 0; i < ev->nargs; i++) {
		const struct sdt_trace_value *v = &ev->args[i];
		const char *name = sdt_trace_event_desc__arg_name(sdt_trace_kind__desc(k), i);
		char fallback[32];

		if (!name) {
			snprintf(fallback, sizeof(fallback), "arg%zu", i + 1);
			name = fallback;
		}
		json_key(&j, name);
		switch (v->kind) {
		case SDT_VALUE_INT:
			json_int(&j, v->i);
			break;
		case SDT_VALUE_UINT:
			json_uint(&j, v->u);
			break;
		case SDT_VALUE_FLOAT:
			if (v->size == 16)
				json_long_double(&j, v->ld);
			else
				json_double(&j, v->f);
			break;
		case SDT_VALUE_STRING:
			json_string(&j, v->str);
			break;
		default:
			json_null(&j);
			break;
		}
	}
	json_end_object(&j);
}

static int chrome_slice(void *w, const struct timeline_slice *s)
{
	static const char *const ph[] = {"B", "E", "i"};
	struct chrome *c = w;

	sep(c);
	fprintf(c->out, "{\"ph\":\"%s\",", ph[s->phase]);
	if (s->phase == TIMELINE_INSTANT)
		fputs("\"s\":\"t\",", c->out);
	fputs("\"name\":", c->out);
	json_write_string(c->out, s->name);
	fputs(",\"cat\":", c->out);
	json_write_string(c->out, s->category);
	fprintf(c->out, ",\"ts\":%" PRIu64 ".%03u,\"pid\":%u,\"tid\":%u", s->rel_ns / 1000,
		(unsigned int)(s->rel_ns % 1000), s->pid, s->tid);
	if (!s->ev) {
		fprintf(c->out, ",\"args\":{\"sdtrace\":\"%s\"}}", s->why);
		return 0;
	}
	fputs(",\"args\":", c->out);
	args(c, s->ev);
	fputc('}', c->out);
	return 0;
}

static int chrome_finish(void *w, const struct timeline_counts *n, uint64_t base_ns)
{
	struct chrome *c = w;

	fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{", c->out);
	fprintf(c->out,
		"\"generator\":\"sdtrace report --format=chrome\",\"events\":%" PRIu64
		",\"instants\":%" PRIu64 ",\"begins\":%" PRIu64 ",\"ends\":%" PRIu64
		",\"dropped_ends\":%" PRIu64 ",\"closed_at_end\":%" PRIu64 ",\"split\":%" PRIu64
		",\"base_monotonic_ns\":%" PRIu64 "}}\n",
		n->events, n->instants, n->begins, n->ends, n->dropped_ends, n->closed_at_end,
		n->split, base_ns);
	return 0;
}

int report_chrome(struct sdt_trace_reader *r, const struct report_pairs *pairs,
		  const struct report_names *slice, FILE *out)
{
	static const struct timeline_writer w = {
	    .start = chrome_start,
	    .thread = chrome_thread,
	    .process = chrome_process,
	    .slice = chrome_slice,
	    .finish = chrome_finish,
	};
	struct chrome c = {.out = out, .first = true};

	return report_timeline(r, pairs, slice, &w, &c);
}
