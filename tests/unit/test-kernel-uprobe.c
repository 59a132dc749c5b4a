/* SPDX-License-Identifier: MIT */
/*
 * uprobe sets against the real tracefs (needs root and tracefs; SKIPs loudly otherwise): a batch
 * of 500 sites created, described (ids, formats, arguments mapped to fields) and removed; a
 * definition the kernel refuses gives the kernel's error_log text and leaves nothing behind;
 * stale groups of dead owners are removed; the emergency path removes what is registered.
 * Every test checks that uprobe_events is byte-identical afterwards. The probes are defined on
 * /bin/true but never enabled: no process is touched.
 */
#include <errno.h>
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
#include "record/tracefs/tracefs.h"
#include "record/tracefs/uprobe.h"

static const char *skip_reason;

static char *uprobe_events(void)
{
	char *text = NULL;
	size_t len;

	assert_int_equal(sdt_tracefs_read("uprobe_events", &text, &len), 0);
	return text;
}

/* Only the lines of our test groups: other tools may add probes meanwhile. */
static char *our_lines(void)
{
	char *all = uprobe_events(), *p, *nl;
	struct sdt_buf b = {0};

	for (p = all; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		if (!strncmp(p + 2, "sdtrace_kt", 10) || !strncmp(p + 2, "sdtrace_999999", 14))
			sdt_buf_add(&b, p, nl ? (size_t)(nl - p) + 1 : strlen(p));
	}
	free(all);
	sdt_buf_add(&b, "", 0);
	return sdt_buf_take(&b);
}

static int setup(void **state)
{
	const char *dir;

	(void)state;
	if (geteuid() != 0)
		skip_reason = "needs root (writes uprobe_events)";
	else if (sdt_tracefs_dir(&dir) < 0)
		skip_reason = "no tracefs with uprobe_events";
	if (skip_reason)
		printf("SKIP: test-kernel-uprobe: %s\n", skip_reason);
	return 0;
}

#define NEED_KERNEL()                                                                              \
	do {                                                                                       \
		if (skip_reason) {                                                                 \
			printf("SKIP: %s\n", skip_reason);                                         \
			skip();                                                                    \
		}                                                                                  \
	} while (0)

/*
 * @n sites on /bin/true under two names, with three fetch expressions of one type (round robin):
 * the kernel takes them as one multi-site event per name (names and types agree).
 */
static struct sdt_file *make_file(size_t n, const char *bad_fetch)
{
	struct sdt_file *f = calloc(1, sizeof(*f));
	size_t i;

	assert_non_null(f);
	f->path = strdup("/bin/true");
	f->sites = calloc(n, sizeof(*f->sites));
	f->nsites = f->sites_cap = n;
	for (i = 0; i < n; i++) {
		struct sdt_site *s = &f->sites[i];
		size_t k = i % 3;

		s->provider = strdup("kt");
		s->name = strdup(i % 2 ? "odd" : "even");
		s->args_text = strdup("");
		s->address = 0x1000 + i;
		s->file_offset = 0x100 + i;
		s->nargs = 2;
		s->args = calloc(2, sizeof(*s->args));
		s->args[0].spec = strdup("8@%rdi");
		s->args[0].size = 8;
		s->args[0].fetch = strdup(k == 0 ? "%di:u64" : k == 1 ? "%si:u64" : "+8(%sp):u64");
		s->args[1].spec = strdup("-4@(%rax,%rbx,4)");
		s->args[1].size = 4;
		s->args[1].is_signed = true;
		s->args[1].unavailable = strdup("indexed");
		if (bad_fetch && i == n - 1) {
			free(s->args[0].fetch);
			s->args[0].fetch = strdup(bad_fetch);
		}
	}
	return f;
}

static struct sdt_uprobe_set *make_set(struct sdt_file *f, const char *group)
{
	struct sdt_uprobe_set_opts o = {.group = group};
	struct sdt_uprobe_set *s = NULL;
	size_t *idx = calloc(f->nsites, sizeof(*idx)), i;

	for (i = 0; i < f->nsites; i++)
		idx[i] = i;
	assert_int_equal(sdt_uprobe_set__new(&o, &s), 0);
	assert_int_equal(sdt_uprobe_set__add(s, f, idx, f->nsites), 0);
	free(idx);
	return s;
}

static void batch_create_describe_remove(void **state)
{
	struct sdt_file *f;
	struct sdt_uprobe_set *s;
	char *before, *during, *after;
	size_t i, lines = 0;

	(void)state;
	NEED_KERNEL();
	before = uprobe_events();
	f = make_file(500, NULL);
	s = make_set(f, "sdtrace_kt_batch");
	assert_int_equal(sdt_uprobe_set__event_count(s), 2); /* 2 names, one layout each */
	assert_int_equal(sdt_uprobe_set__create(s), 0);
	during = our_lines();
	for (i = 0; during[i]; i++)
		lines += during[i] == '\n';
	assert_int_equal(lines, 500); /* one p: line per site */
	for (i = 0; i < sdt_uprobe_set__event_count(s); i++) {
		const struct sdt_trace_event_desc *d = sdt_uprobe_set__event(s, i);

		assert_true(d->tp_id > 0);
		assert_true(d->ip_field >= 0);
		assert_string_equal(d->fields[d->ip_field].name, "__probe_ip");
		assert_int_equal(d->nargs, 2);
		assert_true(d->args[0].field >= 0);
		assert_string_equal(d->fields[d->args[0].field].name, "arg1");
		assert_int_equal(d->fields[d->args[0].field].size, 8);
		assert_int_equal(d->args[1].field,
				 -1); /* unavailable: not in the line, keeps arg2 */
		assert_non_null(d->args[1].unavailable);
	}
	assert_int_equal(sdt_uprobe_set__remove(s), 0);
	assert_int_equal(sdt_uprobe_set__remove(s), 0); /* idempotent */
	after = uprobe_events();
	assert_string_equal(before, after);
	sdt_uprobe_set__free(s);
	sdt_file__free(f);
	free(before);
	free(during);
	free(after);
}

static void kernel_refuses(void **state)
{
	struct sdt_file *f;
	struct sdt_uprobe_set *s;
	char *before, *after;

	(void)state;
	NEED_KERNEL();
	before = uprobe_events();
	/* the last site's first argument names a register pt_regs does not have */
	f = make_file(40, "%nosuchreg:u64");
	s = make_set(f, "sdtrace_kt_bad");
	assert_int_equal(sdt_uprobe_set__create(s), -EINVAL);
	printf("message: %s\n", sdt_errmsg());
	assert_non_null(strstr(sdt_errmsg(), "uprobe_events"));
	assert_non_null(strstr(sdt_errmsg(), "kernel:")); /* error_log's entry */
	after = uprobe_events();
	assert_string_equal(before, after); /* the lines applied before the bad one are gone */
	sdt_uprobe_set__free(s);
	sdt_file__free(f);
	free(before);
	free(after);
}

static void stale_groups(void **state)
{
	struct sdt_file *f;
	struct sdt_uprobe_set *dead, *live;
	char *before, *after, *names = NULL, live_group[80];
	int n;

	(void)state;
	NEED_KERNEL();
	before = our_lines();
	f = make_file(4, NULL);
	/* a pid above any pid_max: its owner is certainly dead */
	dead = make_set(f, "sdtrace_999999999_1_0");
	assert_int_equal(sdt_uprobe_session_group(live_group, sizeof(live_group)), 0);
	memcpy(live_group, "sdtrace_kt", 10); /* keep our_lines() finding it: sdtrace_kt<pid>_... */
	live = make_set(f, live_group);
	assert_int_equal(sdt_uprobe_set__create(dead), 0);
	assert_int_equal(sdt_uprobe_set__create(live), 0);
	n = sdt_uprobe_remove_stale(&names);
	assert_true(n >= 1);
	assert_non_null(names);
	assert_non_null(strstr(names, "sdtrace_999999999_1_0"));
	free(names);
	after = our_lines();
	assert_null(strstr(after, "sdtrace_999999999_1_0"));
	assert_non_null(
	    strstr(after, live_group)); /* not ours to judge: not a sdtrace_<pid>_ name */
	free(after);
	assert_int_equal(sdt_uprobe_set__remove(live), 0);
	sdt_uprobe_set__free(dead); /* its events are gone already: ENOENT is fine */
	sdt_uprobe_set__free(live);
	after = our_lines();
	assert_string_equal(before, after);
	sdt_file__free(f);
	free(before);
	free(after);
}

static void emergency(void **state)
{
	struct sdt_file *f;
	struct sdt_uprobe_set *s;
	char *before, *after;

	(void)state;
	NEED_KERNEL();
	before = uprobe_events();
	f = make_file(10, NULL);
	s = make_set(f, "sdtrace_kt_emerg");
	assert_int_equal(sdt_uprobe_set__create(s), 0);
	sdt_uprobe_emergency_remove();
	after = uprobe_events();
	assert_string_equal(before, after);
	sdt_uprobe_set__free(s);
	sdt_file__free(f);
	free(before);
	free(after);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(batch_create_describe_remove),
	    cmocka_unit_test(kernel_refuses),
	    cmocka_unit_test(stale_groups),
	    cmocka_unit_test(emergency),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
