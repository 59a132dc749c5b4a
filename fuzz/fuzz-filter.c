/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer: a filter expression through the parser; what parses is evaluated on a decoded event
 * and rendered for the kernel. A refusal must name a column inside the text (or one past it); the
 * kernel's text, when there is one, must have balanced parentheses and quotes.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sdtrace/sdtrace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sdt_trace_event_desc *desc;
static struct sdt_trace_decoder *dec;
static const struct sdt_trace_event *ev;

static void init(void)
{
	struct sdt_arg_type q = {.name = "query", .kind = SDT_TYPE_STRING, .size = 8};
	struct sdt_trace_value v[3] = {
	    {.kind = SDT_VALUE_INT, .i = -7},
	    {.kind = SDT_VALUE_STRING, .str = "SELECT 1", .len = 8},
	    {.kind = SDT_VALUE_FLOAT, .f = 2.5},
	};
	static unsigned char raw[256];
	struct sdt_trace_sample s = {.pid = 1, .tid = 2, .raw = raw};
	int n;

	if (sdt_trace_event_desc__new(0, "p", "e", NULL, &desc) ||
	    sdt_trace_event_desc__add_arg(desc, "-4@%eax", NULL) ||
	    sdt_trace_event_desc__add_arg(desc, "8@%rdi", &q) ||
	    sdt_trace_event_desc__add_arg(desc, "8f@%xmm0", NULL) || sdt_trace_decoder__new(&dec) ||
	    sdt_trace_decoder__add_desc(dec, desc) || sdt_trace_decoder__comm(dec, 1, 2, "w"))
		abort();
	n = sdt_trace_event_desc__pack(desc, 0, v, 3, raw, sizeof(raw));
	if (n <= 0)
		abort();
	s.raw_size = (uint32_t)n;
	if (sdt_trace_decoder__sample(dec, &s, &ev))
		abort();
}

static void check_balanced(const char *t)
{
	int depth = 0;
	bool quoted = false;

	for (; *t; t++) {
		if (*t == '"')
			quoted = !quoted;
		else if (!quoted && *t == '(')
			depth++;
		else if (!quoted && *t == ')' && --depth < 0)
			__builtin_trap();
	}
	if (depth || quoted)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sdt_filter *f;
	char *text, *k;
	size_t col;
	int err;

	if (!ev)
		init();
	if (!(text = malloc(size + 1)))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	err = sdt_filter__parse(text, &f, &col);
	if (err) {
		if (err != -EINVAL || f || col < 1 || col > strlen(text) + 1)
			__builtin_trap();
	} else {
		(void)sdt_filter__match(f, ev);
		(void)sdt_filter__check_desc(f, desc);
		if (sdt_filter__ftrace(f, desc, &k) == 0) {
			check_balanced(k);
			free(k);
		}
		sdt_filter__free(f);
	}
	free(text);
	return 0;
}
