/* SPDX-License-Identifier: MIT */
/*
 * include/sdtrace/find.h: sdt_canonical_path() inside another process's root (a child chrooted
 * into a scratch tree): absolute links are read from that root, ".." and links that climb stop
 * at it, a loop is -ELOOP; without the prefix it is realpath(3). sdt_find_binary(): the current
 * directory, $PATH, the ld.so cache, exec_only as execvp, and the message of a name not found;
 * the library trees (depth, the installation $PATH runs, ambiguity).
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "sdtrace/find.h"
#include "sdtrace/sdtrace.h"
#include "tmpdir-test.h"

TMPDIR_FIXTURE("find")

static void put(const char *rel, const char *text, mode_t mode)
{
	char p[PATH_MAX];
	FILE *fp;

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	fp = fopen(p, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
	assert_int_equal(chmod(p, mode), 0);
}

static void mk(const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void ln(const char *target, const char *rel)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	assert_int_equal(symlink(target, p), 0);
}

/* @path canonical is /proc/@pid/root@want */
static void expect(pid_t pid, const char *rest, const char *want)
{
	char in[PATH_MAX], full[PATH_MAX], *out;

	snprintf(in, sizeof(in), "/proc/%d/root%s", (int)pid, rest);
	snprintf(full, sizeof(full), "/proc/%d/root%s", (int)pid, want);
	assert_int_equal(sdt_canonical_path(in, &out), 0);
	assert_string_equal(out, full);
	free(out);
}

static void expect_err(pid_t pid, const char *rest, int err)
{
	char in[PATH_MAX], *out = (char *)1;

	snprintf(in, sizeof(in), "/proc/%d/root%s", (int)pid, rest);
	assert_int_equal(sdt_canonical_path(in, &out), err);
	assert_null(out);
	assert_non_null(strstr(sdt_errmsg(), "cannot open"));
}

static void test_inside_root(void **state)
{
	int ready[2];
	pid_t pid;
	char c;

	(void)state;
	/* the tree the child sees as "/": links that point outside this tree from here */
	mk("bin");
	mk("etc");
	mk("usr");
	mk("usr/lib");
	put("bin/app", "app", 0755);
	put("etc/hosts", "inside", 0644);
	ln("/bin", "abs");		       /* absolute: the child's /bin, not ours */
	ln("../../../../../../etc", "up");     /* climbs: stops at the child's root */
	ln("/usr/lib/../../etc/hosts", "mix"); /* absolute with ".." */
	ln("lib", "usr/lib64");		       /* relative, inside a directory */
	ln("loop2", "loop1");
	ln("loop1", "loop2");
	ln("/nonexistent", "dangling");
	ln("/proc/1/root/etc", "proc-escape"); /* no /proc in the child's root: ENOENT */

	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(ready[0]);
		if (chroot(dir) || chdir("/"))
			_exit(1);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) { /* not root: no chroot */
		close(ready[0]);
		waitpid(pid, NULL, 0);
		skip();
		return;
	}
	close(ready[0]);

	expect(pid, "", "");
	expect(pid, "/", "");
	expect(pid, "/bin/app", "/bin/app");
	expect(pid, "//bin/./app", "/bin/app");
	expect(pid, "/abs/app", "/bin/app");
	expect(pid, "/up/hosts", "/etc/hosts");
	expect(pid, "/mix", "/etc/hosts");
	expect(pid, "/../../../bin/app", "/bin/app");
	expect(pid, "/usr/lib64/../../bin", "/bin");
	expect(pid, "/usr/lib64", "/usr/lib");
	expect_err(pid, "/loop1", -ELOOP);
	expect_err(pid, "/dangling", -ENOENT);
	expect_err(pid, "/proc-escape/hosts", -ENOENT);
	expect_err(pid, "/bin/app/x", -ENOTDIR);
	expect_err(pid, "/nope", -ENOENT);

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

static void test_prefix(void **state)
{
	char *out, want[PATH_MAX];

	(void)state;
	assert_int_equal(sdt_proc_root_prefix("/proc/12/root"), 13);
	assert_int_equal(sdt_proc_root_prefix("/proc/12/root/usr/bin"), 13);
	assert_int_equal(sdt_proc_root_prefix("/proc/12/rootx"), 0);
	assert_int_equal(sdt_proc_root_prefix("/proc/self/root/x"), 0);
	assert_int_equal(sdt_proc_root_prefix("/proc//root/x"), 0);
	assert_int_equal(sdt_proc_root_prefix("/usr/bin"), 0);
	assert_int_equal(sdt_proc_root_prefix("proc/12/root"), 0);
	/* no prefix: realpath(3) */
	assert_int_equal(sdt_canonical_path("/usr/bin/../bin/sh", &out), 0);
	assert_non_null(realpath("/usr/bin/sh", want));
	assert_string_equal(out, want);
	free(out);
	assert_int_equal(sdt_canonical_path("/no/such/file", &out), -ENOENT);
	assert_null(out);
	assert_int_equal(sdt_canonical_path("", &out), -ENOENT);
}

static void test_find(void **state)
{
	SDT_OPTS(sdt_find_opts, o, .path_env = NULL);
	char cwd[PATH_MAX], *out, want[PATH_MAX + 16], path_env[PATH_MAX];

	(void)state;
	mk("bin");
	put("bin/mytool", "#!/bin/sh\n", 0755);
	put("bin/notexec", "x", 0644);
	put("here.so", "x", 0644);
	snprintf(path_env, sizeof(path_env), "/nonexistent:%s/bin", dir);
	o.path_env = path_env;
	o.lib_trees = "/nonexistent"; /* test_trees() has them */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);

	/* from $PATH */
	assert_int_equal(sdt_find_binary("mytool", &o, &out), 0);
	snprintf(want, sizeof(want), "%s/bin/mytool", dir);
	assert_string_equal(out, want);
	free(out);
	/* not executable: not from $PATH */
	assert_int_equal(sdt_find_binary("notexec", &o, &out), -ENOENT);
	assert_non_null(strstr(sdt_errmsg(), "'notexec': no such file"));
	/* from the current directory first, though not for exec_only (as execvp) */
	assert_int_equal(sdt_find_binary("here.so", &o, &out), 0);
	snprintf(want, sizeof(want), "%s/here.so", dir);
	assert_string_equal(out, want);
	free(out);
	o.exec_only = true;
	assert_int_equal(sdt_find_binary("here.so", &o, &out), -ENOENT);
	assert_non_null(strstr(sdt_errmsg(), "no such command in $PATH"));
	assert_int_equal(sdt_find_binary("mytool", &o, &out), 0);
	free(out);
	o.exec_only = false;

	/* from the ld.so cache by soname */
	if (sdt_find_binary("libc.so.6", &o, &out) == 0) {
		assert_true(out[0] == '/');
		assert_non_null(strstr(out, "libc"));
		free(out);
	}
	/* not there: the cache's sonames that begin with the name are suggested (libc6-dev
	 * has a /usr/lib/<multiarch>/libc.so: a name no cache has, then) */
	if (sdt_find_binary("libc.so", &o, &out) == -ENOENT)
		assert_non_null(strstr(sdt_errmsg(), "libc.so.6 ("));
	else
		free(out);
	/* a name with a '/' is only made canonical */
	assert_int_equal(sdt_find_binary("./bin/../here.so", &o, &out), 0);
	assert_string_equal(out, want);
	free(out);
	/* a damaged ld.so cache is as none */
	o.ldcache = "/dev/null";
	assert_int_equal(sdt_find_binary("libno-such-library.so.1", &o, &out), -ENOENT);
	assert_non_null(strstr(sdt_errmsg(), "/dev/null"));
	assert_int_equal(chdir(cwd), 0);
}

/* path in the scratch dir */
static const char *at(const char *rel)
{
	static char p[4][PATH_MAX];
	static int k;

	k = (k + 1) % 4;
	snprintf(p[k], sizeof(p[k]), "%s/%s", dir, rel);
	return p[k];
}

/*
 * The library trees: a library no ld.so place has, found below them (not deeper than six
 * levels); of two, the one whose installation's bin/ holds what $PATH runs; else -ENOTUNIQ
 * naming both.
 */
static void test_trees(void **state)
{
	SDT_OPTS(sdt_find_opts, o, .path_env = NULL);
	char trees[PATH_MAX * 2], path_env[PATH_MAX], *out;

	(void)state;
	mk("usr");
	mk("usr/lib");
	mk("usr/lib/jvm");
	mk("usr/lib/jvm/a");
	mk("usr/lib/jvm/a/bin");
	mk("usr/lib/jvm/a/lib");
	mk("usr/lib/jvm/a/lib/server");
	put("usr/lib/jvm/a/lib/server/libjvm-t.so", "x", 0644);
	put("usr/lib/jvm/a/bin/java-t", "#!/bin/sh\n", 0755);
	mk("opt");
	mk("opt/1");
	mk("opt/1/2");
	mk("opt/1/2/3");
	mk("opt/1/2/3/4");
	mk("opt/1/2/3/4/5");
	mk("opt/1/2/3/4/5/6");
	put("opt/1/2/3/4/5/6/libdeep-t.so", "x", 0644);
	put("opt/1/2/3/4/5/libfive-t.so", "x", 0644);
	mk("bin");
	snprintf(trees, sizeof(trees), "%s:%s", at("usr/lib"), at("opt"));
	snprintf(path_env, sizeof(path_env), "%s", at("bin"));
	o.lib_trees = trees;
	o.path_env = path_env;
	o.ldcache = "/dev/null";

	/* one file of the name: it */
	assert_int_equal(sdt_find_binary("libjvm-t.so", &o, &out), 0);
	assert_string_equal(out, at("usr/lib/jvm/a/lib/server/libjvm-t.so"));
	free(out);
	assert_int_equal(sdt_find_binary("libfive-t.so", &o, &out), 0);
	free(out);
	/* seven levels down: not looked at, and the message names the trees */
	assert_int_equal(sdt_find_binary("libdeep-t.so", &o, &out), -ENOENT);
	assert_non_null(strstr(sdt_errmsg(), trees));

	/* a second installation: $PATH runs neither, then a's java through a link */
	mk("opt/b");
	mk("opt/b/bin");
	mk("opt/b/lib");
	put("opt/b/lib/libjvm-t.so", "x", 0644);
	put("opt/b/bin/java-t", "#!/bin/sh\n", 0755);
	assert_int_equal(sdt_find_binary("libjvm-t.so", &o, &out), -ENOTUNIQ);
	assert_non_null(strstr(sdt_errmsg(), at("usr/lib/jvm/a/lib/server/libjvm-t.so")));
	assert_non_null(strstr(sdt_errmsg(), at("opt/b/lib/libjvm-t.so")));
	assert_non_null(strstr(sdt_errmsg(), "running programs of none"));
	ln(at("usr/lib/jvm/a/bin/java-t"), "bin/java-t");
	assert_int_equal(sdt_find_binary("libjvm-t.so", &o, &out), 0);
	assert_string_equal(out, at("usr/lib/jvm/a/lib/server/libjvm-t.so"));
	free(out);
	/* $PATH runs programs of both: no choice */
	put("opt/b/bin/jb-t", "#!/bin/sh\n", 0755);
	ln(at("opt/b/bin/jb-t"), "bin/jb-t");
	assert_int_equal(sdt_find_binary("libjvm-t.so", &o, &out), -ENOTUNIQ);
	assert_non_null(strstr(sdt_errmsg(), "more than one"));
	/* the same file by two names is one */
	assert_int_equal(unlink(at("bin/jb-t")), 0);
	ln(at("usr/lib/jvm/a/lib/server/libjvm-t.so"), "usr/lib/jvm/a/lib/libjvm-t.so");
	assert_int_equal(sdt_find_binary("libjvm-t.so", &o, &out), 0);
	assert_string_equal(out, at("usr/lib/jvm/a/lib/server/libjvm-t.so"));
	free(out);
	/* exec_only never looks at the trees */
	o.exec_only = true;
	assert_int_equal(sdt_find_binary("libjvm-t.so", &o, &out), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_inside_root, setup, teardown),
	    cmocka_unit_test(test_prefix),
	    cmocka_unit_test_setup_teardown(test_find, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_trees, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
