/* SPDX-License-Identifier: MIT */
/*
 * Building uprobe definitions (lib/record/uprobe.c) without a kernel: the `p:` lines, grouping of sites
 * with identical argument names and types, event naming, unavailable arguments keeping their
 * number, semaphores, the removal text, and the event descriptions.
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
#include "record/tracefs/uprobe.h"

#define LONG40 "a123456789b123456789c123456789d123456789"

struct arg_init {
	const char *spec;
	const char *fetch; /* NULL: unavailable */
};

static void set_site(struct sdt_site *s, const char *prov, const char *name, uint64_t addr,
		     uint64_t off, uint64_t sem_off, const struct arg_init *args, size_t n)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->provider = strdup(prov);
	s->name = strdup(name);
	s->args_text = strdup("");
	s->address = addr;
	s->file_offset = off;
	if (sem_off) {
		s->semaphore = 0x10000 + sem_off;
		s->semaphore_offset = sem_off;
		s->has_semaphore_offset = true;
	}
	s->args = calloc(n ? n : 1, sizeof(*s->args));
	s->nargs = n;
	for (i = 0; i < n; i++) {
		s->args[i].spec = strdup(args[i].spec);
		s->args[i].size = 4;
		s->args[i].is_signed = true;
		s->args[i].kind = args[i].fetch ? SDT_ARG_REG : SDT_ARG_INDEXED;
		if (args[i].fetch)
			s->args[i].fetch = strdup(args[i].fetch);
		else
			s->args[i].unavailable = strdup("indexed address: no uprobe fetcharg");
	}
}

/* A file of 6 sites; the path must exist (it is made absolute with realpath()). */
static struct sdt_file *make_file(const char *path)
{
	static const struct arg_init ax[] = {{"-4@%eax", "%ax:s32"}, {"-4@(%rdi,%rsi,4)", NULL}};
	static const struct arg_init bx[] = {{"4@%ebx", "%bx:u32"}, {"-4@(%rdi,%rsi,4)", NULL}};
	static const struct arg_init one[] = {{"-4@$5", "\\5:s32"}};
	struct sdt_file *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->path = strdup(path);
	f->build_id = strdup("0123abcd");
	f->nsites = f->sites_cap = 6;
	f->sites = calloc(6, sizeof(*f->sites));
	set_site(&f->sites[0], "ex", "a", 0x1100, 0x100, 0, ax, 2);
	set_site(&f->sites[1], "ex", "a", 0x1200, 0x200, 0, ax, 2); /* same layout as 0 */
	set_site(&f->sites[2], "ex", "a", 0x1300, 0x300, 0, bx, 2); /* another type: own event */
	set_site(&f->sites[3], "ex", "b", 0x1400, 0x400, 0x4000, one, 1);
	set_site(&f->sites[4], LONG40, LONG40, 0x1500, 0x500, 0, NULL, 0);
	set_site(&f->sites[5], "ex", "b", 0x1600, 0x600, 0x4000, one, 1); /* same semaphore */
	return f;
}

static struct sdt_uprobe_set *new_set(bool ref)
{
	struct sdt_uprobe_set_opts o = {.group = "sdtrace_test", .use_ref_ctr = ref};
	struct sdt_uprobe_set *s = NULL;

	assert_int_equal(sdt_uprobe_set__new(&o, &s), 0);
	return s;
}

static const size_t all[] = {0, 1, 2, 3, 4, 5};

static void definitions_and_grouping(void **state)
{
	struct sdt_file *f = make_file("/bin/true");
	struct sdt_uprobe_set *s = new_set(true);
	const char *defs, *rm;
	char *path = realpath("/bin/true", NULL), expect[4096];
	size_t len;

	(void)state;
	assert_int_equal(sdt_uprobe_set__add(s, f, all, 6), 0);
	defs = sdt_uprobe_set__defs(s, &len);
	snprintf(expect, sizeof(expect),
		 "p:sdtrace_test/ex_a %1$s:0x100 arg1=%%ax:s32\n"
		 "p:sdtrace_test/ex_a %1$s:0x200 arg1=%%ax:s32\n"
		 "p:sdtrace_test/ex_a_2 %1$s:0x300 arg1=%%bx:u32\n"
		 "p:sdtrace_test/ex_b %1$s:0x400(0x4000) arg1=\\5:s32\n"
		 "p:sdtrace_test/ex_b %1$s:0x600(0x4000) arg1=\\5:s32\n"
		 "p:sdtrace_test/" LONG40 "_a123456789b123456789_e3 %1$s:0x500\n",
		 path);
	assert_string_equal(defs, expect);
	assert_int_equal(len, strlen(expect));
	rm = sdt_uprobe_set__removal(s, &len);
	assert_string_equal(rm, "-:sdtrace_test/ex_a\n"
				"-:sdtrace_test/ex_a_2\n"
				"-:sdtrace_test/ex_b\n"
				"-:sdtrace_test/" LONG40 "_a123456789b123456789_e3\n");
	assert_int_equal(sdt_uprobe_set__event_count(s), 4);
	assert_int_equal(sdt_uprobe_set__semaphore_count(s), 1);
	sdt_uprobe_set__free(s);
	sdt_file__free(f);
	free(path);
}

static void names_are_tracefs_names(void **state)
{
	struct sdt_file *f = make_file("/bin/true");
	struct sdt_uprobe_set *s = new_set(false);
	size_t i;

	(void)state;
	assert_int_equal(sdt_uprobe_set__add(s, f, all, 6), 0);
	for (i = 0; i < sdt_uprobe_set__event_count(s); i++) {
		const struct sdt_trace_event_desc *d = sdt_uprobe_set__event(s, i);

		assert_true(sdt_valid_event_name(d->event, SDT_MAX_EVENT_NAME));
		assert_true(strlen(d->event) <= SDT_MAX_EVENT_NAME);
		assert_string_equal(d->group, "sdtrace_test");
		assert_int_equal(d->index, i);
	}
	sdt_uprobe_set__free(s);
	sdt_file__free(f);
}

static void without_ref_ctr(void **state)
{
	struct sdt_file *f = make_file("/bin/true");
	struct sdt_uprobe_set *s = new_set(false);
	const size_t one[] = {3};
	size_t len;

	(void)state;
	assert_int_equal(sdt_uprobe_set__add(s, f, one, 1), 0);
	assert_null(strchr(sdt_uprobe_set__defs(s, &len), '('));
	assert_int_equal(sdt_uprobe_set__semaphore_count(s), 1);
	sdt_uprobe_set__free(s);
	sdt_file__free(f);
}

static void descriptions(void **state)
{
	struct sdt_file *f = make_file("/bin/true");
	struct sdt_uprobe_set *s = new_set(true);
	const struct sdt_trace_event_desc *d;

	(void)state;
	assert_int_equal(sdt_uprobe_set__add(s, f, all, 6), 0);
	d = sdt_uprobe_set__event(s, 0);
	assert_string_equal(d->provider, "ex");
	assert_string_equal(d->name, "a");
	assert_string_equal(d->event, "ex_a");
	assert_string_equal(d->build_id, "0123abcd");
	assert_int_equal(d->nsites, 2);
	assert_int_equal(d->site_addrs[0], 0x1100);
	assert_int_equal(d->site_addrs[1], 0x1200);
	assert_int_equal(d->nargs, 2);
	assert_string_equal(d->args[0].name, "arg1");
	assert_string_equal(d->args[0].spec, "-4@%eax");
	assert_null(d->args[0].unavailable);
	assert_int_equal(d->args[0].field, -1); /* fields come from the kernel's format */
	assert_string_equal(d->args[1].name, "arg2");
	assert_non_null(d->args[1].unavailable);
	assert_non_null(strstr(d->args[1].unavailable, "indexed"));
	assert_int_equal(d->args[1].size, 4);
	assert_true(d->args[1].is_signed);
	assert_int_equal(d->ip_field, -1);
	d = sdt_uprobe_set__event(s, 1);
	assert_string_equal(d->event, "ex_a_2");
	assert_int_equal(d->nsites, 1);
	assert_null(sdt_uprobe_set__event(s, 4));
	sdt_uprobe_set__free(s);
	sdt_file__free(f);
}

static void bad_input(void **state)
{
	struct sdt_file *f = make_file("/tmp/no such file with spaces");
	struct sdt_uprobe_set *s = new_set(true), *s2 = NULL;
	struct sdt_uprobe_set_opts bad = {.group = "bad group\n"};
	const size_t out_of_range[] = {6};
	size_t len;

	(void)state;
	/* a path tracefs would split at the space: refused, nothing built */
	assert_int_equal(sdt_uprobe_set__add(s, f, all, 1), -EINVAL);
	assert_non_null(strstr(sdt_errmsg(), "whitespace"));
	free(f->path);
	f->path = strdup("/bin/true");
	assert_int_equal(sdt_uprobe_set__add(s, f, out_of_range, 1), -ERANGE);
	sdt_uprobe_set__defs(s, &len);
	assert_int_equal(len, 0);
	/* a group name with a newline would inject lines into uprobe_events */
	assert_int_equal(sdt_uprobe_set__new(&bad, &s2), -EINVAL);
	assert_null(s2);
	/* nothing to create */
	assert_int_equal(sdt_uprobe_set__create(s), -ENOENT);
	sdt_uprobe_set__free(s);
	sdt_file__free(f);
}

/* Two files with the same probes in one set: their events are separate, their names unique. */
static void two_files(void **state)
{
	struct sdt_file *f1 = make_file("/bin/true"), *f2 = make_file("/bin/sh");
	struct sdt_uprobe_set *s = new_set(true);
	const size_t one[] = {0};
	const char *defs;
	size_t len;

	(void)state;
	assert_int_equal(sdt_uprobe_set__add(s, f1, one, 1), 0);
	assert_int_equal(sdt_uprobe_set__add(s, f2, one, 1), 0);
	assert_int_equal(sdt_uprobe_set__event_count(s), 2);
	assert_string_equal(sdt_uprobe_set__event(s, 0)->event, "ex_a");
	assert_string_equal(sdt_uprobe_set__event(s, 1)->event, "ex_a_2");
	defs = sdt_uprobe_set__defs(s, &len);
	assert_non_null(strstr(defs, "p:sdtrace_test/ex_a /"));
	assert_non_null(strstr(defs, "p:sdtrace_test/ex_a_2 /"));
	assert_string_equal(sdt_uprobe_set__removal(s, &len),
			    "-:sdtrace_test/ex_a\n-:sdtrace_test/ex_a_2\n");
	sdt_uprobe_set__free(s);
	sdt_file__free(f1);
	sdt_file__free(f2);
}

static void session_groups(void **state)
{
	char a[80], b[80], tail[80], ns[64], want[80];
	unsigned long long start;
	unsigned int seq, pidns;
	ssize_t n;
	int pid;

	(void)state;
	assert_int_equal(sdt_uprobe_session_group(a, sizeof(a)), 0);
	assert_int_equal(sdt_uprobe_session_group(b, sizeof(b)), 0);
	assert_string_not_equal(a, b); /* two sets of one process do not collide */
	assert_true(sdt_valid_event_name(a, SDT_MAX_EVENT_NAME));
	assert_int_equal(sscanf(a, "sdtrace_%d_%llu_%u_%u%s", &pid, &start, &seq, &pidns, tail), 4);
	assert_int_equal(pid, getpid());
	/* the pid namespace it counts in */
	n = readlink("/proc/self/ns/pid", ns, sizeof(ns) - 1);
	assert_true(n > 0);
	ns[n] = '\0';
	snprintf(want, sizeof(want), "pid:[%u]", pidns);
	assert_string_equal(ns, want);
	assert_int_equal(strncmp(a, "sdt_", 4) == 0, 0); /* never perf's sdt_<provider> */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(definitions_and_grouping),
	    cmocka_unit_test(names_are_tracefs_names),
	    cmocka_unit_test(without_ref_ctr),
	    cmocka_unit_test(descriptions),
	    cmocka_unit_test(bad_input),
	    cmocka_unit_test(two_files),
	    cmocka_unit_test(session_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
