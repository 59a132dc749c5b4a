/* SPDX-License-Identifier: MIT */
/*
 * Session owners (lib/session.c): a group name carries pid, start time, sequence and pid
 * namespace and reads back the same; names of the previous format still parse; anything else is
 * not ours; and the verdicts on this process, on a reaped child and on a namespace that does not
 * exist.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "record/tracefs/session.h"

static bool parse(const char *s, struct sdt_session_id *id)
{
	return sdt_session_parse(s, strlen(s), id);
}

static void round_trip(void **state)
{
	struct sdt_session_id id = {4194304, 18446744073709551615ull, 4294967295u, 4294967295u}, b;
	char buf[80];

	(void)state;
	/* the longest name there can be still fits the kernel's 63 bytes */
	assert_int_equal(sdt_session_format(buf, sizeof(buf), &id), 0);
	assert_string_equal(buf, "sdtrace_4194304_18446744073709551615_4294967295_4294967295");
	assert_true(strlen(buf) <= 63);
	assert_true(parse(buf, &b));
	assert_int_equal(b.pid, id.pid);
	assert_true(b.start == id.start);
	assert_int_equal(b.seq, id.seq);
	assert_int_equal(b.pidns, id.pidns);
	/* a buffer too small is an error, not a cut name */
	assert_int_equal(sdt_session_format(buf, 20, &id), -ENAMETOOLONG);
}

static void previous_format(void **state)
{
	struct sdt_session_id id;

	(void)state;
	assert_true(parse("sdtrace_4242_81234_0", &id));
	assert_int_equal(id.pid, 4242);
	assert_true(id.start == 81234);
	assert_int_equal(id.seq, 0);
	assert_int_equal(id.pidns, 0);
	/* only the bytes given count: the group, not what follows it on the line */
	assert_true(sdt_session_parse("sdtrace_7_8_9/rt_fire", 13, &id));
	assert_int_equal(id.pid, 7);
}

static void not_ours(void **state)
{
	static const char *const bad[] = {
	    "sdtrace_",
	    "sdtrace_1_2",			/* too few fields */
	    "sdtrace_1_2_3_4_5",		/* too many */
	    "sdtrace_0_2_3_4",			/* pid 0 */
	    "sdtrace_1_2_3_0",			/* namespace 0 */
	    "sdtrace_-1_2_3",			/* signs */
	    "sdtrace_+1_2_3",			/* signs */
	    "sdtrace_ 1_2_3",			/* spaces */
	    "sdtrace_1__3",			/* an empty field */
	    "sdtrace_1_2_3_",			/* a trailing separator */
	    "sdtrace_2147483648_2_3",		/* pid overflow */
	    "sdtrace_1_18446744073709551616_3", /* start overflow */
	    "sdtrace_1_2_4294967296",		/* seq overflow */
	    "sdtrace_1_2_3_4294967296",		/* namespace overflow */
	    "sdtrace_t0501_123",		/* a test's own group */
	    "sdt_1_2_3",			/* perf's */
	    "sdtrace_1_2_3x",
	};
	struct sdt_session_id id;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (parse(bad[i], &id))
			fail_msg("'%s' parsed", bad[i]);
	}
}

static void self_identity(void **state)
{
	struct sdt_session_id id = {.seq = 5};
	char buf[64], link[64], want[80];
	ssize_t n;

	(void)state;
	assert_int_equal(sdt_session_self(&id), 0);
	assert_int_equal(id.pid, (int)getpid());
	assert_int_equal(id.seq, 5);
	n = readlink("/proc/self/ns/pid", link, sizeof(link) - 1);
	assert_true(n > 0);
	link[n] = '\0';
	snprintf(want, sizeof(want), "pid:[%u]", (unsigned int)id.pidns);
	assert_string_equal(link, want);
	assert_int_equal(sdt_session_format(buf, sizeof(buf), &id), 0);
}

/* A pid that existed and is gone: a child, reaped. */
static int reaped_pid(void)
{
	pid_t p = fork();
	int st;

	if (p == 0)
		_exit(0);
	assert_true(p > 0);
	assert_int_equal(waitpid(p, &st, 0), p);
	return (int)p;
}

static bool dead(struct sdt_session_sweep *sw, const struct sdt_session_id *id)
{
	char buf[64];

	assert_int_equal(sdt_session_format(buf, sizeof(buf), id), 0);
	return sdt_session_group_dead(sw, buf, strlen(buf));
}

static void verdicts(void **state)
{
	struct sdt_session_sweep sw = {0};
	struct sdt_session_id me, other;
	char old[64];

	(void)state;
	assert_int_equal(sdt_session_self(&me), 0);
	assert_false(dead(&sw, &me));
	/* the same pid started at another time: recycled (given our own /proc) */
	other = me;
	other.start++;
	assert_true(dead(&sw, &other) == sw.proc_ours);
	other = me;
	other.pid = reaped_pid();
	assert_true(dead(&sw, &other));
	/* a namespace with no process: provably dead only for one who sees every process */
	other = me;
	other.pidns = 1;
	assert_true(dead(&sw, &other) == sw.sees_all);
	/* the previous format: ourselves are alive wherever we look from */
	snprintf(old, sizeof(old), "sdtrace_%d_%llu_0", me.pid, me.start);
	assert_false(sdt_session_group_dead(&sw, old, strlen(old)));
	snprintf(old, sizeof(old), "sdtrace_%d_%llu_0", reaped_pid(), me.start);
	assert_true(sdt_session_group_dead(&sw, old, strlen(old)) == sw.sees_all);
	/* not a name of ours */
	assert_false(sdt_session_group_dead(&sw, "sdtrace_t0501_1", 15));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(round_trip), cmocka_unit_test(previous_format),
	    cmocka_unit_test(not_ours),	  cmocka_unit_test(self_identity),
	    cmocka_unit_test(verdicts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
