/* SPDX-License-Identifier: MIT */
/*
 * Typed arguments on the recording side, without a kernel: the `p:` lines of
 * sdt_uprobe_set__add_typed() (names, string fetches), the event descriptions (named, type, sign,
 * string, float), grouping by names and types rather than by fetch expressions, a type that
 * cannot apply to one site's operand, two arguments with one name; and the data file keeping
 * the named/type flags (sdt_trace_event_desc__arg_named/_type) through a write and a read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <unistd.h>

#include "scan/file.h"
#include "util/internal.h"
#include "trace/trace_file.h"
#include "record/tracefs/uprobe.h"

struct arg_init {
	const char *spec;
	const char *fetch;
	enum sdt_arg_kind kind;
	uint8_t size;
	bool is_signed, is_float;
};

static void set_site(struct sdt_site *s, const char *name, uint64_t off,
		     const struct arg_init *args, size_t n)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->provider = strdup("tp");
	s->name = strdup(name);
	s->args_text = strdup("");
	s->address = 0x1000 + off;
	s->file_offset = off;
	s->args = calloc(n ? n : 1, sizeof(*s->args));
	s->nargs = n;
	for (i = 0; i < n; i++) {
		s->args[i].spec = strdup(args[i].spec);
		s->args[i].size = args[i].size;
		s->args[i].is_signed = args[i].is_signed;
		s->args[i].is_float = args[i].is_float;
		s->args[i].kind = args[i].kind;
		s->args[i].fetch = strdup(args[i].fetch);
	}
}

/*
 * Sites 0-1: tp:msg (char *, int) in different registers; site 2: tp:msg whose pointer is a
 * constant (8@$0); site 3: tp:val (8f@%rax, -4@%ecx).
 */
static struct sdt_file *make_file(void)
{
	static const struct arg_init r12[] = {{"8@%r12", "%r12:u64", SDT_ARG_REG, 8, false, false},
					      {"-4@%eax", "%ax:s32", SDT_ARG_REG, 4, true, false}};
	static const struct arg_init rbx[] = {{"8@%rbx", "%bx:u64", SDT_ARG_REG, 8, false, false},
					      {"-4@%ecx", "%cx:s32", SDT_ARG_REG, 4, true, false}};
	static const struct arg_init cst[] = {{"8@$0", "\\0:u64", SDT_ARG_CONST, 8, false, false},
					      {"-4@%ecx", "%cx:s32", SDT_ARG_REG, 4, true, false}};
	static const struct arg_init val[] = {{"8f@%rax", "%ax:u64", SDT_ARG_REG, 8, false, true},
					      {"-4@%ecx", "%cx:s32", SDT_ARG_REG, 4, true, false}};
	struct sdt_file *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->path = strdup("/bin/true");
	f->elfclass = 2;
	f->nsites = f->sites_cap = 4;
	f->sites = calloc(4, sizeof(*f->sites));
	set_site(&f->sites[0], "msg", 0x100, r12, 2);
	set_site(&f->sites[1], "msg", 0x200, rbx, 2);
	set_site(&f->sites[2], "msg", 0x300, cst, 2);
	set_site(&f->sites[3], "val", 0x400, val, 2);
	return f;
}

static struct sdt_arg_type *types_of(const char *text)
{
	struct sdt_arg_type *t;
	size_t n;

	assert_int_equal(sdt_arg_types__parse(text, &t, &n), 0);
	return t;
}

static void lines_and_descriptions(void **state)
{
	struct sdt_uprobe_set_opts o = {.group = "sdtrace_test"};
	struct sdt_arg_type *msg = types_of("text:string, len:x32"), *val = types_of("v:u64, c");
	struct sdt_arg_type *types[] = {msg, msg, msg, val};
	static const size_t all[] = {0, 1, 2, 3};
	const struct sdt_trace_event_desc *d;
	struct sdt_uprobe_set *s = NULL;
	struct sdt_file *f = make_file();
	char *path = realpath("/bin/true", NULL), expect[2048];
	size_t len;

	(void)state;
	/* string gets its word size when resolved; here by hand */
	msg[0].size = 8;
	assert_int_equal(sdt_uprobe_set__new(&o, &s), 0);
	assert_int_equal(sdt_uprobe_set__add_typed(s, f, all, 4, types), 0);
	snprintf(expect, sizeof(expect),
		 "p:sdtrace_test/tp_msg %1$s:0x100 text=+0(%%r12):string len=%%ax:x32"
		 " _sdt_room=$comm\n"
		 "p:sdtrace_test/tp_msg %1$s:0x200 text=+0(%%bx):string len=%%cx:x32"
		 " _sdt_room=$comm\n"
		 "p:sdtrace_test/tp_msg_2 %1$s:0x300 text=\\0:u64 len=%%cx:x32\n"
		 "p:sdtrace_test/tp_val %1$s:0x400 v=%%ax:u64 c=%%cx:s32\n",
		 path);
	assert_string_equal(sdt_uprobe_set__defs(s, &len), expect);
	/* sites 0 and 1: other registers, the same names and types: one event */
	assert_int_equal(sdt_uprobe_set__event_count(s), 3);
	d = sdt_uprobe_set__event(s, 0);
	assert_int_equal(d->nsites, 2);
	assert_string_equal(d->args[0].name, "text");
	assert_true(d->args[0].named);
	assert_true(d->args[0].is_string);
	assert_int_equal(d->args[0].type, SDT_TYPE_STRING);
	assert_false(d->args[0].rebase);
	assert_string_equal(d->args[1].name, "len");
	assert_int_equal(d->args[1].type, SDT_TYPE_HEX);
	assert_false(d->args[1].is_signed); /* hex: shown unsigned */
	/* site 2: a string through a constant cannot be read: the note's fetch, the name kept */
	d = sdt_uprobe_set__event(s, 1);
	assert_string_equal(d->event, "tp_msg_2");
	assert_string_equal(d->args[0].name, "text");
	assert_true(d->args[0].named);
	assert_false(d->args[0].is_string);
	assert_int_equal(d->args[0].type, SDT_TYPE_DEFAULT);
	/* site 3: u64 over a double's bits is an integer now; an untyped name keeps the sign */
	d = sdt_uprobe_set__event(s, 2);
	assert_false(d->args[0].is_float);
	assert_int_equal(d->args[0].type, SDT_TYPE_INT);
	assert_string_equal(d->args[1].name, "c");
	assert_true(d->args[1].is_signed);
	assert_int_equal(d->args[1].type, SDT_TYPE_DEFAULT);
	sdt_uprobe_set__free(s);
	sdt_arg_types__free(msg, 2);
	sdt_arg_types__free(val, 2);
	sdt_file__free(f);
	free(path);
}

static void untyped_unchanged(void **state)
{
	struct sdt_uprobe_set_opts o = {.group = "sdtrace_test"};
	static const size_t sites[] = {0, 3};
	struct sdt_arg_type *types[] = {NULL, NULL};
	struct sdt_uprobe_set *a = NULL, *b = NULL;
	struct sdt_file *f = make_file();
	size_t la, lb;

	(void)state;
	assert_int_equal(sdt_uprobe_set__new(&o, &a), 0);
	assert_int_equal(sdt_uprobe_set__new(&o, &b), 0);
	assert_int_equal(sdt_uprobe_set__add(a, f, sites, 2), 0);
	assert_int_equal(sdt_uprobe_set__add_typed(b, f, sites, 2, types), 0);
	assert_string_equal(sdt_uprobe_set__defs(a, &la), sdt_uprobe_set__defs(b, &lb));
	assert_non_null(strstr(sdt_uprobe_set__defs(a, &la), " arg1=%r12:u64 arg2=%ax:s32\n"));
	assert_false(sdt_uprobe_set__event(a, 0)->args[0].named);
	assert_true(sdt_uprobe_set__event(a, 1)->args[0].is_float);
	sdt_uprobe_set__free(a);
	sdt_uprobe_set__free(b);
	sdt_file__free(f);
}

static void name_collision(void **state)
{
	struct sdt_uprobe_set_opts o = {.group = "sdtrace_test"};
	struct sdt_arg_type *t = calloc(2, sizeof(*t)); /* argument 1 named "arg2", 2 unnamed */
	struct sdt_arg_type *types[] = {t};
	static const size_t one[] = {0};
	struct sdt_uprobe_set *s = NULL;
	struct sdt_file *f = make_file();
	size_t len;

	(void)state;
	t[0].name = strdup("arg2");
	assert_int_equal(sdt_uprobe_set__new(&o, &s), 0);
	assert_int_equal(sdt_uprobe_set__add_typed(s, f, one, 1, types), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "tp:msg: arguments 1 and 2 are both named 'arg2'"));
	assert_int_equal(sdt_uprobe_set__event_count(s), 0);
	assert_int_equal(strlen(sdt_uprobe_set__defs(s, &len)), 0);
	/* a name tracefs would not take, from a hostile type list */
	free(t[0].name);
	t[0].name = strdup("a b");
	assert_int_equal(sdt_uprobe_set__add_typed(s, f, one, 1, types), -EINVAL);
	sdt_uprobe_set__free(s);
	sdt_arg_types__free(t, 2);
	sdt_file__free(f);
}

/* The named and type flags survive the data file; an untyped argument reads back as before. */
static void data_file_flags(void **state)
{
	static struct sdt_trace_field fields[] = {
	    {.name = (char *)"__probe_ip", .offset = 8, .size = 8},
	    {.name = (char *)"len", .offset = 16, .size = 4},
	    {.name = (char *)"arg2", .offset = 20, .size = 1, .is_signed = true},
	};
	static struct sdt_trace_arg args[] = {
	    {.name = (char *)"len",
	     .spec = (char *)"4@%eax",
	     .size = 4,
	     .field = 1,
	     .named = true,
	     .type = SDT_TYPE_HEX},
	    {.name = (char *)"arg2",
	     .spec = (char *)"-1@%cl",
	     .size = 1,
	     .is_signed = true,
	     .field = 2},
	};
	static uint64_t sites[] = {0x1100};
	struct sdt_trace_event_desc d = {
	    .provider = (char *)"tp",
	    .name = (char *)"x",
	    .path = (char *)"/bin/true",
	    .site_addrs = sites,
	    .nsites = 1,
	    .group = (char *)"g",
	    .event = (char *)"tp_x",
	    .fields = fields,
	    .nfields = 3,
	    .ip_field = 0,
	    .args = args,
	    .nargs = 2,
	};
	SDT_OPTS(sdt_trace_writer_opts, meta, .cmdline = "test");
	struct sdt_trace_writer *w = NULL;
	struct sdt_trace_reader *r = NULL;
	const struct sdt_trace_event *ev;
	const struct sdt_trace_kind *k;
	char path[] = "/tmp/sdtrace-test-typed-record.XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(sdt_trace_writer__open_fd(fd, path, &meta, &w), 0);
	assert_int_equal(sdt_trace_writer__event(w, &d), 0);
	assert_int_equal(sdt_trace_writer__finish(w, 0), 0);
	assert_int_equal(sdt_trace_reader__open(path, NULL, &r), 0);
	assert_int_equal(sdt_trace_reader__next(r, &ev), 0);
	assert_int_equal(sdt_trace_reader__kind_count(r), 1);
	k = sdt_trace_reader__kind(r, 0);
	assert_string_equal(sdt_trace_event_desc__arg_name(sdt_trace_kind__desc(k), 0), "len");
	assert_true(sdt_trace_event_desc__arg_named(sdt_trace_kind__desc(k), 0));
	assert_int_equal(sdt_trace_event_desc__arg_type(sdt_trace_kind__desc(k), 0), SDT_TYPE_HEX);
	assert_false(sdt_trace_event_desc__arg_named(sdt_trace_kind__desc(k), 1));
	assert_int_equal(sdt_trace_event_desc__arg_type(sdt_trace_kind__desc(k), 1),
			 SDT_TYPE_DEFAULT);
	assert_false(
	    sdt_trace_event_desc__arg_named(sdt_trace_kind__desc(k), 2)); /* out of range */
	sdt_trace_reader__free(r);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(lines_and_descriptions),
	    cmocka_unit_test(untyped_unchanged),
	    cmocka_unit_test(name_collision),
	    cmocka_unit_test(data_file_flags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
