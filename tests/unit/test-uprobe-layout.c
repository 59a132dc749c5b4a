/* SPDX-License-Identifier: MIT */
/*
 * Packing events into shared tracefs events (lib/record/uprobe_layout.c): which fetches may be widened
 * to u64, how arguments take slots, and what never shares (return probes with entry probes,
 * unshareable events, too many slots). Also the shared definition lines of lib/record/uprobe.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "scan/file.h"
#include "util/internal.h"
#include "record/tracefs/uprobe.h"
#include "record/tracefs/uprobe_layout.h"

static void share_types(void **state)
{
	static const struct {
		const char *fetch;
		unsigned int size;
		const char *type; /* NULL: not shareable */
		bool wide;
	} cases[] = {
	    {"%ax:s32", 4, "u64", true}, /* a register: widened */
	    {"%r14:u8", 1, "u64", true},
	    {"\\-1:s32", 4, "u64", true},     /* a constant */
	    {"-20(%bp):s32", 4, "u64", true}, /* a stack slot */
	    {"+8(%sp):u16", 2, "u64", true},
	    {"+16(%r12):s32", 4, "u32", false}, /* heap memory: exact size, unsigned */
	    {"+16(%r12):x16", 2, "u16", false},
	    {"@+0x875f7c:s32", 4, "u32", false},  /* a global */
	    {"+8(+0(%sp)):u64", 8, "u64", false}, /* two levels: not a stack slot */
	    {"+0(%di):string", 8, "string", false},
	    {"\\\"abc\":string", 8, "string", false},
	    {"%ax:s16", 4, NULL, false}, /* narrower than the spec and signed: kept apart */
	    {"%ah:b8@8/64", 1, NULL, false},
	    {"+0(%di):ustring", 8, NULL, false},
	    {"%ax:u128", 8, NULL, false},
	    {"%ax", 8, NULL, false},
	    {"", 8, NULL, false},
	};
	char t[SDT_SLOT_TYPE_MAX];
	size_t i;
	bool wide;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool ok = sdt_uprobe_share_type(cases[i].fetch, cases[i].size, t, &wide);

		if (!cases[i].type) {
			if (ok)
				fail_msg("'%s' should not share (got %s)", cases[i].fetch, t);
			continue;
		}
		if (!ok)
			fail_msg("'%s' should share as %s", cases[i].fetch, cases[i].type);
		assert_string_equal(t, cases[i].type);
		assert_int_equal(wide, cases[i].wide);
	}
	assert_false(sdt_uprobe_share_type(NULL, 8, t, &wide));
}

static void packing(void **state)
{
	static const char *const a[] = {"u64", "u64", "string"};
	static const char *const b[] = {"u64", NULL, "u32"}; /* one argument without a field */
	static const char *const c[] = {"string", "string"};
	static const char *const d[] = {"u64"};
	const struct sdt_layout_event ev[] = {
	    {.shareable = true, .nargs = 3, .type = a},
	    {.shareable = true, .nargs = 3, .type = b},
	    {.shareable = false, .nargs = 1, .type = d}, /* alone */
	    {.shareable = true, .nargs = 2, .type = c},
	    {.shareable = true, .is_return = true, .nargs = 1, .type = d}, /* r: apart */
	    {.shareable = true, .nargs = 0},
	    {.shareable = true, .is_return = true, .nargs = 1, .type = d},
	};
	struct sdt_layout l;

	(void)state;
	assert_int_equal(sdt_layout_pack(ev, 7, 32, &l), 0);
	assert_int_equal(l.nkev, 3);
	assert_int_equal(l.kev[0], 0);
	assert_int_equal(l.kev[1], 0);
	assert_int_equal(l.kev[2], 1);
	assert_int_equal(l.kev[3], 0);
	assert_int_equal(l.kev[4], 2);
	assert_int_equal(l.kev[5], 0);
	assert_int_equal(l.kev[6], 2);
	assert_int_equal(l.nmembers[0], 4);
	assert_int_equal(l.nmembers[1], 1);
	assert_int_equal(l.nmembers[2], 2);
	/* slots of event 0: a1 u64, a2 u64, a3 string; b: u64 -> a1, u32 -> new a4 */
	assert_int_equal(l.nslots[0], 5);
	assert_string_equal(l.slot_type[0][0], "u64");
	assert_string_equal(l.slot_type[0][2], "string");
	assert_string_equal(l.slot_type[0][3], "u32");
	assert_int_equal(l.slot[1][0], 0);
	assert_int_equal(l.slot[1][1], SIZE_MAX);
	assert_int_equal(l.slot[1][2], 3);
	/* c: the string slot a3, then a new string slot a5 */
	assert_int_equal(l.slot[3][0], 2);
	assert_int_equal(l.slot[3][1], 4);
	assert_string_equal(l.slot_type[0][4], "string");
	sdt_layout_release(&l);

	/* a cap of 3 slots: event 1 needs a fourth, so it opens a second trace event */
	assert_int_equal(sdt_layout_pack(ev, 2, 3, &l), 0);
	assert_int_equal(l.nkev, 2);
	assert_int_equal(l.kev[1], 1);
	sdt_layout_release(&l);
	/* more arguments than slots: alone */
	assert_int_equal(sdt_layout_pack(ev, 1, 2, &l), 0);
	assert_int_equal(l.nkev, 1);
	assert_int_equal(l.nmembers[0], 1);
	sdt_layout_release(&l);
	assert_int_equal(sdt_layout_pack(ev, 0, 32, &l), 0);
	assert_int_equal(l.nkev, 0);
	sdt_layout_release(&l);
	assert_int_equal(sdt_layout_pack(ev, 1, 0, &l), -EINVAL);
}

static void set_site(struct sdt_site *s, const char *name, uint64_t off, const char *fetch,
		     const char *spec)
{
	memset(s, 0, sizeof(*s));
	s->provider = strdup("ex");
	s->name = strdup(name);
	s->args_text = strdup(spec ? spec : "");
	s->address = 0x1000 + off;
	s->file_offset = off;
	if (!spec)
		return;
	s->args = calloc(1, sizeof(*s->args));
	s->nargs = 1;
	s->args[0].spec = strdup(spec);
	s->args[0].size = 4;
	s->args[0].is_signed = true;
	s->args[0].kind = SDT_ARG_REG;
	s->args[0].fetch = strdup(fetch);
}

/* Three events in one file share one tracefs event; lines carry ev and slots. */
static void shared_lines(void **state)
{
	static const size_t all[] = {0, 1, 2, 3};
	struct sdt_uprobe_set_opts o = {.group = "sdtrace_test", .share = true};
	struct sdt_file *f = calloc(1, sizeof(*f));
	struct sdt_uprobe_set *s = NULL;
	char *path = realpath("/bin/true", NULL), expect[4096];
	const char *defs;
	size_t len;

	(void)state;
	f->path = strdup("/bin/true");
	f->nsites = f->sites_cap = 4;
	f->sites = calloc(4, sizeof(*f->sites));
	set_site(&f->sites[0], "a", 0x100, "%ax:s32", "-4@%eax");
	set_site(&f->sites[1], "b", 0x200, "+16(%r12):s32", "-4@16(%r12)");
	set_site(&f->sites[2], "c", 0x300, NULL, NULL);
	set_site(&f->sites[3], "a", 0x400, "-20(%bp):s32", "-4@-20(%rbp)");
	assert_int_equal(sdt_uprobe_set__new(&o, &s), 0);
	assert_int_equal(sdt_uprobe_set__add(s, f, all, 4), 0);
	assert_int_equal(sdt_uprobe_set__event_count(s), 3);
	assert_int_equal(sdt_uprobe_set__kernel_event_count(s), 1);
	defs = sdt_uprobe_set__defs(s, &len);
	snprintf(expect, sizeof(expect),
		 "p:sdtrace_test/ex_a %1$s:0x100 ev=\\0:u16 a1=%%ax:u64 a2=\\0:u32\n"
		 "p:sdtrace_test/ex_a %1$s:0x400 ev=\\0:u16 a1=-20(%%bp):u64 a2=\\0:u32\n"
		 "p:sdtrace_test/ex_a %1$s:0x200 ev=\\1:u16 a1=\\0:u64 a2=+16(%%r12):u32\n"
		 "p:sdtrace_test/ex_a %1$s:0x300 ev=\\2:u16 a1=\\0:u64 a2=\\0:u32\n",
		 path);
	assert_string_equal(defs, expect);
	assert_string_equal(sdt_uprobe_set__removal(s, &len), "-:sdtrace_test/ex_a\n");
	assert_string_equal(sdt_uprobe_set__event(s, 1)->event, "ex_a");
	assert_int_equal(sdt_uprobe_set__kernel_event(s, 0)->event, 0);
	sdt_uprobe_set__free(s);

	/* without sharing: one event each, as before */
	o.share = false;
	assert_int_equal(sdt_uprobe_set__new(&o, &s), 0);
	assert_int_equal(sdt_uprobe_set__add(s, f, all, 4), 0);
	assert_int_equal(sdt_uprobe_set__kernel_event_count(s), 3);
	defs = sdt_uprobe_set__defs(s, &len);
	assert_null(strstr(defs, "ev="));
	sdt_uprobe_set__free(s);
	sdt_file__free(f);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(share_types),
	    cmocka_unit_test(packing),
	    cmocka_unit_test(shared_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
